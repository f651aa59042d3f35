/**
 * The Electron main process. Thin: the lab service (src-main/services/lab.ts) does the work; this
 * file gives it a window, IPC and a menu.
 *
 * - One instance (a second start focuses the first window).
 * - On ready: the lab on `<userData>/lab.db` with simulations in utility processes (the worker that
 *   electron-vite builds from src-sim/worker.ts), an IPC handler per call of the contract (ipc.ts:
 *   each refuses a sender that is not our page in our window; the lab validates every argument),
 *   the lab's events forwarded to the window, the menu (menu.ts), the window.
 * - The window is hardened: sandboxed renderer with context isolation and no Node, no remote
 *   content, no new windows or navigation away, no permissions, a strict Content Security Policy.
 * - The renderer is served on its own origin, `app://lab/` (app-protocol.ts: a privileged standard
 *   scheme registered before ready, answering only files of the built renderer), not `file://`.
 * - Quitting is graceful: the first before-quit is held until `lab.close()` has cancelled the
 *   simulations still going and recorded their runs as interrupted; then the app quits.
 */
// The Node version guard of every entry point; Electron's own Node passes it.
import '../../scripts/node-guard.mjs';
import { app, BrowserWindow, dialog, ipcMain, Menu, protocol, session, utilityProcess } from 'electron';
import type { IpcMainInvokeEvent } from 'electron';
import { readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LIMITS } from '../contract';
import { createLab } from '../services/lab';
import type { LabService } from '../services/lab';
import { DB_FILE_NAME, userDataDir } from '../services/paths';
import { ElectronLauncher } from '../services/pool';
import { BUNDLE_EXTENSION } from '../services/store';
import { APP_INDEX_URL, APP_SCHEME, APP_SCHEME_PRIVILEGES, isAppIndex, isAppOrigin, serveAppRequest } from './app-protocol';
import { APP_TITLE } from './channels';
import { CSP_HEADER } from './csp';
import { forwardLabEvents, registerLabIpc } from './ipc';
import { menuTemplate } from './menu';
import { WORKER_PATH } from './worker-path';

const here = dirname(fileURLToPath(import.meta.url)); // out/main
const PRELOAD = join(here, '../preload/index.cjs');
/** The built renderer: the only files app://lab/ serves. */
const RENDERER_DIR = join(here, '../renderer');

/** The Vite dev server of `electron-vite dev`; never used by a packaged app. */
const DEV_URL = !app.isPackaged && process.env.ELECTRON_RENDERER_URL ? new URL(process.env.ELECTRON_RENDERER_URL) : null;

function parseUrl(raw: string): URL | null {
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

/** A resource of this app: the built renderer's files (app://lab/...), or the dev server in development. */
function isAppUrl(raw: string): boolean {
  const u = parseUrl(raw);
  if (!u) return false;
  if (DEV_URL) return u.host === DEV_URL.host && ['http:', 'https:', 'ws:', 'wss:'].includes(u.protocol);
  return isAppOrigin(raw);
}

/** Our page itself (any route of it): app://lab/index.html, or the dev server's origin. */
function isAppPage(raw: string): boolean {
  const u = parseUrl(raw);
  if (!u) return false;
  if (DEV_URL) return u.origin === DEV_URL.origin;
  return isAppIndex(raw);
}

let lab: LabService | null = null;
let mainWindow: BrowserWindow | null = null;

/** Only the top frame of the main window, showing our page, may call the lab. */
function trustedSender(event: IpcMainInvokeEvent): boolean {
  const win = mainWindow;
  const frame = event.senderFrame;
  return (
    win !== null &&
    !win.isDestroyed() &&
    event.sender === win.webContents &&
    frame !== null &&
    frame === event.sender.mainFrame &&
    isAppPage(frame.url)
  );
}

function harden(): void {
  const s = session.defaultSession;
  s.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  s.setPermissionCheckHandler(() => false);
  // No remote content: every request must be one of our pages' own files (or devtools). data: URLs
  // are let through for images only (the CSP's img-src), never as a script, style, frame or fetch.
  s.webRequest.onBeforeRequest((details, callback) => {
    const url = details.url;
    const dataImage = url.startsWith('data:') && details.resourceType === 'image';
    callback({ cancel: !(isAppUrl(url) || url.startsWith('devtools://') || dataImage) });
  });
  if (!DEV_URL) {
    // app://lab/ sends the policy with every response (app-protocol.ts); this covers anything else the session loads.
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
  win.on('closed', () => {
    if (mainWindow === win) mainWindow = null;
  });
  void win.loadURL(DEV_URL ? DEV_URL.href : APP_INDEX_URL);
  return win;
}

/** Brings the window forward on a view of the renderer (its hash router's path, e.g. "/reports"). */
function showView(route: string): void {
  const win = mainWindow;
  if (!win || win.isDestroyed()) return;
  if (win.isMinimized()) win.restore();
  win.focus();
  void win.loadURL(DEV_URL ? new URL(`#${route}`, DEV_URL).href : `${APP_INDEX_URL}#${route}`);
}

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** File > Import bundle…: a file from the user's disk into the library, all of it or nothing. */
async function importBundle(): Promise<void> {
  const win = mainWindow;
  if (!lab || !win || win.isDestroyed()) return;
  const pick = await dialog.showOpenDialog(win, {
    title: 'Import bundle',
    properties: ['openFile'],
    filters: [
      { name: 'GPU Memory Lab bundle', extensions: [BUNDLE_EXTENSION.replace(/^\./, '')] },
      { name: 'All files', extensions: ['*'] },
    ],
  });
  const file = pick.filePaths[0];
  if (pick.canceled || !file) return;
  try {
    const size = (await stat(file)).size;
    if (size > LIMITS.bundleBytes) throw new Error(`the file is larger than ${LIMITS.bundleBytes} bytes`);
    const report = await lab.api.bundles.import({ bytes: new Uint8Array(await readFile(file)) });
    const n = report.imported.length;
    await dialog.showMessageBox(win, {
      type: 'info',
      title: 'Import bundle',
      message: `Imported ${n} run${n === 1 ? '' : 's'}.`,
      detail: report.skipped.length ? `${report.skipped.length} run(s) were already in the library and were left as they were.` : '',
    });
    showView('/runs');
  } catch (err) {
    await dialog.showMessageBox(win, { type: 'error', title: 'Import bundle', message: 'The bundle was not imported; nothing changed.', detail: message(err) });
  }
}

let quitState: 'running' | 'closing' | 'closed' = 'running';

/** The longest a quit waits for the lab to close; then the app quits all the same (the next start marks what is left interrupted). */
const CLOSE_TIMEOUT_MS = 15_000;

/** Holds the first quit until the lab has closed (simulations cancelled, their runs recorded as interrupted). */
function onBeforeQuit(event: { preventDefault(): void }): void {
  if (quitState === 'closed' || lab === null) return;
  event.preventDefault();
  if (quitState === 'closing') return;
  quitState = 'closing';
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      process.stderr.write(`[lab] the lab did not close within ${CLOSE_TIMEOUT_MS / 1000} s; quitting anyway\n`);
      resolve();
    }, CLOSE_TIMEOUT_MS);
  });
  void Promise.race([lab.close(), timeout])
    .catch((err: unknown) => process.stderr.write(`[lab] closing: ${message(err)}\n`))
    .finally(() => {
      clearTimeout(timer);
      quitState = 'closed';
      app.quit();
    });
}

function start(): void {
  harden();
  // The renderer's files on app://lab/ (the dev server serves them under electron-vite dev).
  if (!DEV_URL) protocol.handle(APP_SCHEME, (request) => serveAppRequest(request, RENDERER_DIR));
  const dbPath = join(app.getPath('userData'), DB_FILE_NAME);
  try {
    lab = createLab({
      dbPath,
      launcher: new ElectronLauncher({ utilityProcess, modulePath: WORKER_PATH }),
      appVersion: app.getVersion(),
      electronVersion: process.versions.electron ?? null,
    });
  } catch (err) {
    // A database from a newer app, or one that is not ours: say so and stop (nothing was changed).
    dialog.showErrorBox(`${APP_TITLE} cannot open its database`, `${dbPath}\n\n${message(err)}`);
    quitState = 'closed';
    app.quit();
    return;
  }
  registerLabIpc(ipcMain, lab, trustedSender);
  forwardLabEvents(lab, () => mainWindow?.webContents ?? null);
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      menuTemplate(
        {
          importBundle: () => void importBundle(),
          exportReport: () => showView('/reports'),
          quit: () => app.quit(),
        },
        { platform: process.platform, dev: !app.isPackaged },
      ),
    ),
  );
  mainWindow = createWindow();
  app.on('activate', () => {
    if (mainWindow === null && quitState === 'running') mainWindow = createWindow();
  });
}

app.enableSandbox();
// Before ready, or Chromium treats app: as an opaque scheme: a standard, secure origin for the renderer.
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: APP_SCHEME_PRIVILEGES }]);
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  // The folder services/paths.ts names, so the CLI and the browser mode find the same database
  // whatever name a packaged build gives the app.
  app.setPath('userData', userDataDir());
  app.on('second-instance', () => {
    const win = mainWindow;
    if (win && !win.isDestroyed()) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('before-quit', onBeforeQuit);
  void app.whenReady().then(start);
}
