import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { SIM_VERSION } from '../../src-sim/version';

/* The Electron main process against a stand-in of Electron's API: what the window is allowed to do,
   which requests and navigations are refused, and who may call the IPC channels. */

type Listener = (...args: unknown[]) => unknown;

const h = vi.hoisted(() => {
  const appListeners = new Map<string, Listener>();
  const ipcHandlers = new Map<string, Listener>();
  const session: Record<string, Listener> = {};
  const windows: FakeWindow[] = [];
  class FakeWindow {
    readonly webContents = { mainFrame: { url: '' } };
    loaded = '';
    constructor(readonly options: Record<string, unknown>) {
      windows.push(this);
    }
    once(): void {}
    loadFile(path: string): Promise<void> {
      this.loaded = path;
      return Promise.resolve();
    }
    loadURL(url: string): Promise<void> {
      this.loaded = url;
      return Promise.resolve();
    }
    static getAllWindows(): FakeWindow[] {
      return windows;
    }
    static fromWebContents(wc: unknown): FakeWindow | null {
      return windows.find((w) => w.webContents === wc) ?? null;
    }
  }
  const app = {
    isPackaged: false,
    enableSandbox: vi.fn(),
    requestSingleInstanceLock: () => true,
    on: (event: string, fn: Listener) => appListeners.set(event, fn),
    whenReady: () => Promise.resolve(),
    getVersion: () => '9.8.7',
    quit: vi.fn(),
  };
  const electron = {
    app,
    BrowserWindow: FakeWindow,
    ipcMain: { handle: (channel: string, fn: Listener) => ipcHandlers.set(channel, fn) },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (fn: Listener) => (session.permissionRequest = fn),
        setPermissionCheckHandler: (fn: Listener) => (session.permissionCheck = fn),
        webRequest: {
          onBeforeRequest: (fn: Listener) => (session.beforeRequest = fn),
          onHeadersReceived: (fn: Listener) => (session.headersReceived = fn),
        },
      },
    },
  };
  return { appListeners, ipcHandlers, session, windows, electron };
});

vi.mock('electron', () => h.electron);

let indexHtml = '';

beforeAll(async () => {
  delete process.env.ELECTRON_RENDERER_URL;
  await import('../../src-main/electron/main');
  await new Promise((r) => setTimeout(r, 0)); // app.whenReady().then(...)
  indexHtml = h.windows[0]?.loaded ?? '';
});

function beforeRequest(url: string): boolean {
  let cancel = false;
  h.session.beforeRequest({ url }, (r: { cancel: boolean }) => (cancel = r.cancel));
  return cancel;
}

describe('the Electron main process', () => {
  it('opens one sandboxed, context-isolated window without Node on the built renderer', () => {
    expect(h.electron.app.enableSandbox).toHaveBeenCalled();
    expect(h.windows).toHaveLength(1);
    const prefs = h.windows[0].options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, webviewTag: false });
    expect(String(prefs.preload)).toMatch(/[\\/]preload[\\/]index\.cjs$/);
    expect(h.windows[0].options.title).toBe('GPU Memory Lab');
    expect(indexHtml).toMatch(/[\\/]renderer[\\/]index\.html$/);
  });

  it('loads nothing remote: only the renderer’s own files pass', () => {
    expect(beforeRequest(pathToFileURL(indexHtml).href)).toBe(false);
    expect(beforeRequest(pathToFileURL(join(dirname(indexHtml), 'assets/index.js')).href)).toBe(false);
    expect(beforeRequest('https://example.com/tracker.js')).toBe(true);
    expect(beforeRequest('http://localhost:5173/')).toBe(true);
    expect(beforeRequest(pathToFileURL('/etc/passwd').href)).toBe(true);
  });

  it('sends a strict Content Security Policy header', () => {
    let headers: Record<string, string[]> = {};
    h.session.headersReceived({ responseHeaders: { 'X-A': ['1'] } }, (r: { responseHeaders: Record<string, string[]> }) => (headers = r.responseHeaders));
    expect(headers['X-A']).toEqual(['1']);
    const csp = headers['Content-Security-Policy'][0];
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe');
  });

  it('refuses every permission, new window and foreign navigation', () => {
    let granted: boolean | undefined;
    h.session.permissionRequest(null, 'media', (ok: boolean) => (granted = ok));
    expect(granted).toBe(false);
    expect(h.session.permissionCheck()).toBe(false);

    const on = new Map<string, Listener>();
    let openHandler: Listener = () => undefined;
    const contents = { setWindowOpenHandler: (fn: Listener) => (openHandler = fn), on: (e: string, fn: Listener) => on.set(e, fn) };
    h.appListeners.get('web-contents-created')?.({}, contents);
    expect(openHandler({ url: 'https://example.com' })).toEqual({ action: 'deny' });
    const navigate = (url: string): boolean => {
      const event = { preventDefault: vi.fn() };
      on.get('will-navigate')?.(event, url);
      return event.preventDefault.mock.calls.length > 0;
    };
    expect(navigate('https://example.com')).toBe(true);
    expect(navigate(pathToFileURL(indexHtml).href)).toBe(false);
    const attach = { preventDefault: vi.fn() };
    on.get('will-attach-webview')?.(attach);
    expect(attach.preventDefault).toHaveBeenCalled();
  });

  it('answers app.version to its own page only', async () => {
    expect([...h.ipcHandlers.keys()]).toEqual(['app.version']);
    const handler = h.ipcHandlers.get('app.version') as Listener;
    const wc = h.windows[0].webContents;
    wc.mainFrame.url = pathToFileURL(indexHtml).href;
    const version = await handler({ sender: wc, senderFrame: wc.mainFrame });
    expect(version).toMatchObject({ app: '9.8.7', simulator: SIM_VERSION, node: process.versions.node });

    const foreign = { url: 'https://example.com/' };
    expect(() => handler({ sender: wc, senderFrame: foreign })).toThrow(/refused/);
    const subframe = { url: pathToFileURL(indexHtml).href };
    expect(() => handler({ sender: wc, senderFrame: subframe })).toThrow(/refused/);
    const stranger = { mainFrame: wc.mainFrame };
    expect(() => handler({ sender: stranger, senderFrame: wc.mainFrame })).toThrow(/refused/);
    expect(() => handler({ sender: wc, senderFrame: null })).toThrow(/refused/);
  });
});
