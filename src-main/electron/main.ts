/**
 * The Electron main process: one window on the renderer, hardened (sandboxed renderer with context
 * isolation and no Node, no remote content, no new windows or navigation, no permissions), and
 * ipcMain handlers for the channels of shell-api.ts only, each checking its sender.
 */
import { app, BrowserWindow, ipcMain, session } from 'electron';
import type { IpcMainInvokeEvent } from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SIM_VERSION } from '../../src-sim/version';
import { CSP_HEADER } from './csp';
import { APP_TITLE, SHELL_CHANNELS } from './shell-api';
import type { ShellVersion } from './shell-api';

const here = dirname(fileURLToPath(import.meta.url)); // out/main
const PRELOAD = join(here, '../preload/index.cjs');
const RENDERER_DIR = join(here, '../renderer');
const RENDERER_DIR_URL = pathToFileURL(RENDERER_DIR + '/').href;

/** The Vite dev server of `electron-vite dev`; never used by a packaged app. */
const DEV_URL = !app.isPackaged && process.env.ELECTRON_RENDERER_URL ? new URL(process.env.ELECTRON_RENDERER_URL) : null;

/** A page of this app: the built renderer's files, or the dev server in development. */
function isAppUrl(raw: string): boolean {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return false;
  }
  if (DEV_URL) return u.host === DEV_URL.host && ['http:', 'https:', 'ws:', 'wss:'].includes(u.protocol);
  return u.protocol === 'file:' && u.href.startsWith(RENDERER_DIR_URL);
}

/** Only a top frame showing one of our pages, in one of our windows, may call the main process. */
function trustedSender(event: IpcMainInvokeEvent): boolean {
  const frame = event.senderFrame;
  return frame !== null && frame === event.sender.mainFrame && isAppUrl(frame.url) && BrowserWindow.fromWebContents(event.sender) !== null;
}

function handle<T>(channel: string, fn: () => T | Promise<T>): void {
  ipcMain.handle(channel, (event) => {
    if (!trustedSender(event)) throw new Error(`${channel}: refused (not a page of this app)`);
    return fn();
  });
}

function version(): ShellVersion {
  return {
    app: app.getVersion(),
    simulator: SIM_VERSION,
    electron: process.versions.electron ?? '',
    chrome: process.versions.chrome ?? '',
    node: process.versions.node,
  };
}

function harden(): void {
  const s = session.defaultSession;
  s.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  s.setPermissionCheckHandler(() => false);
  // No remote content: every request must be one of our pages' own files (or devtools, or data: images).
  s.webRequest.onBeforeRequest((details, callback) => {
    const url = details.url;
    callback({ cancel: !(isAppUrl(url) || url.startsWith('devtools://') || url.startsWith('data:')) });
  });
  if (!DEV_URL) {
    // The index.html meta tag carries the same policy for file:// pages; the header covers the rest.
    s.webRequest.onHeadersReceived((details, callback) => {
      callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CSP_HEADER] } });
    });
  }
  app.on('web-contents-created', (_event, contents) => {
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
    contents.on('will-navigate', (event, url) => {
      if (!isAppUrl(url)) event.preventDefault();
    });
    contents.on('will-redirect', (event, url) => {
      if (!isAppUrl(url)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
}

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    title: APP_TITLE,
    width: 1280,
    height: 800,
    minWidth: 900,
    minHeight: 600,
    show: false,
    webPreferences: {
      preload: PRELOAD,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      devTools: !app.isPackaged,
    },
  });
  win.once('ready-to-show', () => win.show());
  if (DEV_URL) void win.loadURL(DEV_URL.href);
  else void win.loadFile(join(RENDERER_DIR, 'index.html'));
  return win;
}

app.enableSandbox();
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    const [win] = BrowserWindow.getAllWindows();
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  void app.whenReady().then(() => {
    harden();
    handle(SHELL_CHANNELS.version, version);
    createWindow();
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) createWindow();
    });
  });
}
