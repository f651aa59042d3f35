/// <reference types="vite/client" />
import type { LabApi } from '../../src-main/contract';

declare global {
  interface Window {
    /** The preload's API in the desktop app; absent in the browser mode (the HTTP client stands in). */
    lab?: LabApi;
  }
}
