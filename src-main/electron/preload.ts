/**
 * Preload of the renderer (sandboxed, built as CommonJS). Exposes `window.lab`: named calls over
 * fixed channels, never ipcRenderer itself, so the page can ask the main process nothing else.
 */
import { contextBridge, ipcRenderer } from 'electron';
import type { ShellApi, ShellVersion } from './shell-api';
import { SHELL_CHANNELS } from './shell-api';

const lab = {
  version: () => ipcRenderer.invoke(SHELL_CHANNELS.version) as Promise<ShellVersion>,
} satisfies ShellApi;

contextBridge.exposeInMainWorld('lab', lab);
