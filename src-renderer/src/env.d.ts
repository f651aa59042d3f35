/// <reference types="vite/client" />
import type { ShellApi } from '../../src-main/electron/shell-api';

declare global {
  interface Window {
    /** The preload's API; absent when the page runs outside Electron (a plain browser). */
    lab?: ShellApi;
  }
}
