import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CALL_NAMES, EVENT_NAMES } from '../../src-main/contract';
import { APP_TITLE, CALL_CHANNELS, EVENT_CHANNELS } from '../../src-main/electron/channels';
import { menuTemplate } from '../../src-main/electron/menu';
import { DB_FILE_NAME, userDataDir } from '../../src-main/services/paths';
import { ElectronLauncher } from '../../src-main/services/pool';
import type * as AppProtocol from '../../src-main/electron/app-protocol';

/* The Electron main process and the preload against a stand-in of Electron's API (and of the lab
   service): the window and what it may do, the IPC handlers of every call and who may call them,
   events to the window, the menu, the graceful quit, and the preload's window.lab. */

type Listener = (...args: unknown[]) => unknown;

const h = vi.hoisted(() => {
  const appListeners = new Map<string, Listener[]>();
  const ipcHandlers = new Map<string, Listener>();
  const session: Record<string, Listener> = {};
  const windows: FakeWindow[] = [];
  let menu: unknown[] = [];
  class FakeWebContents {
    readonly mainFrame = { url: '' };
    destroyed = false;
    readonly sent: [string, unknown][] = [];
    isDestroyed(): boolean {
      return this.destroyed;
    }
    send(channel: string, payload: unknown): void {
      this.sent.push([channel, payload]);
    }
  }
  class FakeWindow {
    readonly webContents = new FakeWebContents();
    readonly loads: { path: string; hash?: string }[] = [];
    destroyed = false;
    constructor(readonly options: Record<string, unknown>) {
      windows.push(this);
    }
    once(): void {}
    on(): void {}
    isDestroyed(): boolean {
      return this.destroyed;
    }
    isMinimized(): boolean {
      return false;
    }
    restore(): void {}
    focus(): void {}
    loadFile(path: string, options?: { hash?: string }): Promise<void> {
      this.loads.push({ path, ...(options?.hash ? { hash: options.hash } : {}) });
      return Promise.resolve();
    }
    loadURL(url: string): Promise<void> {
      this.loads.push({ path: url });
      return Promise.resolve();
    }
    static getAllWindows(): FakeWindow[] {
      return windows;
    }
    static fromWebContents(wc: unknown): FakeWindow | null {
      return windows.find((w) => w.webContents === wc) ?? null;
    }
  }
  /** The order of the steps that must happen before and after ready. */
  const order: string[] = [];
  const protocol = {
    registerSchemesAsPrivileged: vi.fn((_schemes: unknown[]) => void order.push('registerSchemesAsPrivileged')),
    handle: vi.fn((_scheme: string, _handler: Listener) => void order.push('handle')),
  };
  const app = {
    isPackaged: false,
    enableSandbox: vi.fn(),
    requestSingleInstanceLock: () => true,
    setPath: vi.fn(),
    getPath: (name: string) => (name === 'userData' ? '/home/someone/.config/gpu-memory-lab' : `/tmp/${name}`),
    on: (event: string, fn: Listener) => appListeners.set(event, [...(appListeners.get(event) ?? []), fn]),
    whenReady: () => Promise.resolve().then(() => void order.push('ready')),
    getVersion: () => '9.8.7',
    quit: vi.fn(),
  };
  const dialog = {
    showOpenDialog: vi.fn(),
    showMessageBox: vi.fn(() => Promise.resolve({ response: 0 })),
    showErrorBox: vi.fn(),
  };
  // The preload's side.
  const exposed = new Map<string, unknown>();
  const rendererListeners = new Map<string, Set<Listener>>();
  const ipcRenderer = {
    invoke: vi.fn(),
    on: (channel: string, fn: Listener) => rendererListeners.set(channel, (rendererListeners.get(channel) ?? new Set()).add(fn)),
    removeListener: (channel: string, fn: Listener) => rendererListeners.get(channel)?.delete(fn),
  };
  const electron = {
    app,
    protocol,
    BrowserWindow: FakeWindow,
    ipcMain: { handle: (channel: string, fn: Listener) => ipcHandlers.set(channel, fn), removeHandler: (channel: string) => ipcHandlers.delete(channel) },
    Menu: {
      buildFromTemplate: (template: unknown[]) => template,
      setApplicationMenu: (m: unknown[]) => (menu = m),
    },
    dialog,
    utilityProcess: { fork: vi.fn() },
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
    contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) },
    ipcRenderer,
  };

  // The lab service: records what reaches it.
  const labListeners = new Map<string, Listener>();
  let closeResolve: () => void = () => {};
  const lab = {
    dispatch: vi.fn((name: string, args: unknown): Promise<unknown> => Promise.resolve({ ok: true, result: { name, args } })),
    on: vi.fn((event: string, fn: Listener) => {
      labListeners.set(event, fn);
      return () => labListeners.delete(event);
    }),
    close: vi.fn(() => new Promise<void>((r) => (closeResolve = r))),
    api: { bundles: { import: vi.fn((_a: { bytes: Uint8Array }) => Promise.resolve({ imported: ['a', 'b'], skipped: [] })) } },
  };
  const createLab = vi.fn((_options: Record<string, unknown>) => lab);
  return {
    order,
    protocol,
    appListeners,
    ipcHandlers,
    session,
    windows,
    electron,
    dialog,
    exposed,
    rendererListeners,
    ipcRenderer,
    lab,
    labListeners,
    createLab,
    menu: () => menu,
    finishClose: () => closeResolve(),
  };
});

vi.mock('electron', () => h.electron);
vi.mock('../../src-main/services/lab', () => ({ createLab: h.createLab }));
vi.mock('../../src-main/electron/app-protocol', async (importOriginal) => {
  const actual = await importOriginal<typeof AppProtocol>();
  return { ...actual, serveAppRequest: vi.fn(actual.serveAppRequest) };
});
vi.mock('../../src-main/electron/worker-path', () => ({ WORKER_PATH: '/app/out/main/chunks/worker-0.js', unpackedPath: (p: string) => p }));

/** The URL the window loaded. */
let pageUrl = '';
/** The renderer's files as they were when built (out/renderer next to out/main: here src-main/renderer). */
const RENDERER_DIR = resolve(__dirname, '../../src-main/renderer');
/** What the main process did at start-up, kept before Vitest clears the mocks' calls between tests. */
const startup = {
  enableSandbox: 0,
  setPath: [] as unknown[][],
  createLab: [] as Record<string, unknown>[][],
  privileged: [] as unknown[][],
  handled: [] as unknown[][],
};
const tmp = mkdtempSync(join(tmpdir(), 'gpulab-electron-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

beforeAll(async () => {
  vi.stubEnv('ELECTRON_RENDERER_URL', '');
  await import('../../src-main/electron/main');
  await new Promise((r) => setTimeout(r, 0)); // app.whenReady().then(...)
  pageUrl = h.windows[0]?.loads[0]?.path ?? '';
  startup.enableSandbox = h.electron.app.enableSandbox.mock.calls.length;
  startup.setPath = [...h.electron.app.setPath.mock.calls];
  startup.createLab = [...h.createLab.mock.calls];
  startup.privileged = [...h.protocol.registerSchemesAsPrivileged.mock.calls];
  startup.handled = [...h.protocol.handle.mock.calls];
  vi.unstubAllEnvs();
});

function beforeRequest(url: string, resourceType = 'script'): boolean {
  let cancel = false;
  h.session.beforeRequest({ url, resourceType }, (r: { cancel: boolean }) => (cancel = r.cancel));
  return cancel;
}

const win = () => h.windows[0];
const handler = (name: string) => h.ipcHandlers.get(name) as (event: unknown, args?: unknown) => unknown;
/** An invoke event from the main window's top frame showing `url`. */
function fromPage(url = pageUrl) {
  const wc = win().webContents;
  wc.mainFrame.url = url;
  return { sender: wc, senderFrame: wc.mainFrame };
}

describe('the Electron main process', () => {
  it('opens one sandboxed, context-isolated window without Node on the built renderer', () => {
    expect(startup.enableSandbox).toBeGreaterThan(0);
    expect(h.windows).toHaveLength(1);
    const prefs = win().options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, webviewTag: false });
    expect(String(prefs.preload)).toMatch(/[\\/]preload[\\/]index\.cjs$/);
    expect(win().options.title).toBe(APP_TITLE);
    expect(pageUrl).toBe('app://lab/index.html');
  });

  it('serves the renderer on app://lab/, a privileged standard scheme registered before ready, never from file://', async () => {
    expect(startup.privileged).toEqual([[[{ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true, supportFetchAPI: true }) }]]]);
    const privileges = (startup.privileged[0]![0] as { privileges: Record<string, unknown> }[])[0]!.privileges;
    expect(privileges).not.toHaveProperty('bypassCSP');
    expect(h.order.indexOf('registerSchemesAsPrivileged')).toBeLessThan(h.order.indexOf('ready'));
    expect(h.order.indexOf('ready')).toBeLessThan(h.order.indexOf('handle'));
    expect(startup.handled).toHaveLength(1);
    expect(startup.handled[0]![0]).toBe('app');
    expect(win().loads.every((l) => !l.path.startsWith('file:') && !('hash' in l))).toBe(true);

    // The handler answers from the built renderer folder only, with the policy on every response.
    const serve = startup.handled[0]![1] as (request: { url: string; method: string }) => Promise<Response>;
    const { serveAppRequest } = await import('../../src-main/electron/app-protocol');
    const spy = vi.mocked(serveAppRequest);
    spy.mockClear();
    const page = await serve({ url: 'app://lab/index.html', method: 'GET' });
    expect(spy).toHaveBeenCalledWith({ url: 'app://lab/index.html', method: 'GET' }, RENDERER_DIR);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const outside = await serve({ url: 'app://lab/%2e%2e/%2e%2e/package.json', method: 'GET' });
    expect(outside.status).toBe(404);
    expect(outside.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('opens the lab on <userData>/lab.db with simulations in utility processes', () => {
    expect(startup.setPath).toContainEqual(['userData', userDataDir()]);
    expect(startup.createLab).toHaveLength(1);
    const options = startup.createLab[0][0];
    expect(options.dbPath).toBe(join('/home/someone/.config/gpu-memory-lab', DB_FILE_NAME));
    expect(options.launcher).toBeInstanceOf(ElectronLauncher);
    expect((options.launcher as ElectronLauncher).kind).toBe('utilityProcess');
    expect(options.appVersion).toBe('9.8.7');
    expect(options).toHaveProperty('electronVersion');
  });

  it('loads nothing remote: only the renderer’s own files pass', () => {
    expect(beforeRequest('app://lab/index.html')).toBe(false);
    expect(beforeRequest('app://lab/assets/index.js')).toBe(false);
    expect(beforeRequest('https://example.com/tracker.js')).toBe(true);
    expect(beforeRequest('http://localhost:5173/')).toBe(true);
    expect(beforeRequest(pathToFileURL('/etc/passwd').href)).toBe(true);
    // file:// is no longer the app's, not even the renderer folder; nor is another host of the scheme.
    expect(beforeRequest(pathToFileURL(join(RENDERER_DIR, 'index.html')).href)).toBe(true);
    expect(beforeRequest('app://elsewhere/index.html')).toBe(true);
    expect(beforeRequest('app://user@lab/index.html')).toBe(true);
    // data: URLs as images only (what the CSP's img-src allows), never as a script, style, frame or fetch.
    expect(beforeRequest('data:image/png;base64,iVBORw0KGgo=', 'image')).toBe(false);
    for (const type of ['script', 'stylesheet', 'subFrame', 'mainFrame', 'xhr', 'object', 'other']) expect(beforeRequest('data:text/html,<script>1</script>', type)).toBe(true);
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
    for (const l of h.appListeners.get('web-contents-created') ?? []) l({}, contents);
    expect(openHandler({ url: 'https://example.com' })).toEqual({ action: 'deny' });
    const navigate = (url: string): boolean => {
      const event = { preventDefault: vi.fn() };
      on.get('will-navigate')?.(event, url);
      return event.preventDefault.mock.calls.length > 0;
    };
    expect(navigate('https://example.com')).toBe(true);
    expect(navigate(`${pageUrl}#/runs`)).toBe(false);
    expect(navigate(pathToFileURL(join(RENDERER_DIR, 'index.html')).href)).toBe(true);
    const attach = { preventDefault: vi.fn() };
    on.get('will-attach-webview')?.(attach);
    expect(attach.preventDefault).toHaveBeenCalled();
  });

  it('handles exactly the calls of the contract, one channel each', () => {
    expect([...CALL_CHANNELS].sort()).toEqual([...CALL_NAMES].sort());
    expect([...h.ipcHandlers.keys()].sort()).toEqual([...CALL_NAMES].sort());
    expect(Object.keys(EVENT_CHANNELS).sort()).toEqual([...EVENT_NAMES].sort());
  });

  it('passes a call from its own page to the lab and its outcome back unchanged', async () => {
    h.lab.dispatch.mockClear();
    for (const name of CALL_NAMES) {
      const args = { probe: name };
      expect(await handler(name)(fromPage(), args)).toEqual({ ok: true, result: { name, args } });
      expect(h.lab.dispatch).toHaveBeenLastCalledWith(name, args);
    }
    // Any route of the page is the page; the lab's refusals travel back as they are.
    const failure = { ok: false, error: { code: 'not-found', message: 'no run with id "x"' } };
    h.lab.dispatch.mockResolvedValueOnce(failure);
    expect(await handler('runs.get')(fromPage(`${pageUrl}#/runs/x`), { id: 'x' })).toBe(failure);
  });

  it('refuses every call from anything but the main window’s top frame on our page, without reaching the lab', async () => {
    h.lab.dispatch.mockClear();
    const wc = win().webContents;
    const page = pageUrl;
    const stranger = { mainFrame: { url: page }, isDestroyed: () => false, send: () => {} };
    const events = [
      fromPage('https://example.com/'), // a foreign page in our window
      fromPage('app://lab/assets/evil.html'), // another file than the page
      fromPage(pathToFileURL('/tmp/index.html').href),
      fromPage(pathToFileURL(join(RENDERER_DIR, 'index.html')).href), // the renderer's file, but on file://
      fromPage('app://other/index.html'),
      { sender: wc, senderFrame: { url: page } }, // a subframe
      { sender: wc, senderFrame: null }, // a frame that is gone
      { sender: stranger, senderFrame: stranger.mainFrame }, // another webContents
    ];
    for (const event of events) {
      for (const name of ['runs.start', 'runs.delete', 'app.version']) {
        expect(await handler(name)(event, {})).toMatchObject({ ok: false, error: { code: 'unauthorized', message: expect.stringMatching(/refused/) } });
      }
    }
    expect(h.lab.dispatch).not.toHaveBeenCalled();
  });

  it('forwards the lab’s events to the window on their fixed channels', () => {
    const wc = win().webContents;
    wc.sent.length = 0;
    const progress = { runId: 'r', done: 1, total: 4, phase: 'sweep' };
    h.labListeners.get('run.progress')?.(progress);
    h.labListeners.get('run.finished')?.({ runId: 'r', status: 'done', error: null });
    h.labListeners.get('queue.changed')?.({ queued: [], running: ['r'] });
    expect(wc.sent).toEqual([
      ['lab:event:run.progress', progress],
      ['lab:event:run.finished', { runId: 'r', status: 'done', error: null }],
      ['lab:event:queue.changed', { queued: [], running: ['r'] }],
    ]);
    wc.destroyed = true;
    h.labListeners.get('run.progress')?.(progress);
    expect(wc.sent).toHaveLength(3);
    wc.destroyed = false;
  });

  it('has a File menu: Import bundle… imports the chosen file, Export report… shows the Reports view', async () => {
    const file = (h.menu() as { label: string; submenu: { id?: string; label?: string; click?: () => void }[] }[]).find((m) => m.label === '&File');
    expect(file?.submenu.map((i) => i.label).filter(Boolean)).toEqual(['Import bundle…', 'Export report…', 'Quit']);
    const item = (id: string) => file!.submenu.find((i) => i.id === id)!;

    item('export-report').click!();
    expect(win().loads.at(-1)).toEqual({ path: 'app://lab/index.html#/reports' });

    const bundle = join(tmp, 'runs.gmlbundle');
    writeFileSync(bundle, Uint8Array.of(1, 2, 3, 4));
    h.dialog.showOpenDialog.mockResolvedValueOnce({ canceled: false, filePaths: [bundle] });
    item('import-bundle').click!();
    await vi.waitFor(() => expect(h.dialog.showMessageBox).toHaveBeenCalled());
    expect(h.lab.api.bundles.import).toHaveBeenCalledTimes(1);
    expect(Array.from(h.lab.api.bundles.import.mock.calls[0][0].bytes)).toEqual([1, 2, 3, 4]);
    expect(h.dialog.showMessageBox.mock.calls[0]).toContainEqual(expect.objectContaining({ message: 'Imported 2 runs.' }));
    await vi.waitFor(() => expect(win().loads.at(-1)).toEqual({ path: 'app://lab/index.html#/runs' }));

    // A cancelled dialog imports nothing.
    h.dialog.showOpenDialog.mockResolvedValueOnce({ canceled: true, filePaths: [] });
    item('import-bundle').click!();
    await new Promise((r) => setTimeout(r, 10));
    expect(h.lab.api.bundles.import).toHaveBeenCalledTimes(1);
  });

  it('quits gracefully: the first quit waits for lab.close(), then the app quits', async () => {
    const beforeQuit = h.appListeners.get('before-quit') ?? [];
    expect(beforeQuit).toHaveLength(1);
    const first = { preventDefault: vi.fn() };
    beforeQuit[0](first);
    expect(first.preventDefault).toHaveBeenCalled();
    expect(h.lab.close).toHaveBeenCalledTimes(1);
    expect(h.electron.app.quit).not.toHaveBeenCalled();
    // A second quit while closing is held too, and does not close twice.
    const second = { preventDefault: vi.fn() };
    beforeQuit[0](second);
    expect(second.preventDefault).toHaveBeenCalled();
    expect(h.lab.close).toHaveBeenCalledTimes(1);

    h.finishClose();
    await vi.waitFor(() => expect(h.electron.app.quit).toHaveBeenCalledTimes(1));
    // The quit that follows goes through.
    const last = { preventDefault: vi.fn() };
    beforeQuit[0](last);
    expect(last.preventDefault).not.toHaveBeenCalled();
  });
});

describe('the menu template', () => {
  const actions = { importBundle: vi.fn(), exportReport: vi.fn(), quit: vi.fn() };
  it('puts Quit in the app menu on macOS and offers developer tools only in development', () => {
    const mac = menuTemplate(actions, { platform: 'darwin', dev: false });
    expect(mac[0].label).toBe(APP_TITLE);
    expect(JSON.stringify(mac)).not.toContain('toggleDevTools');
    const linuxDev = menuTemplate(actions, { platform: 'linux', dev: true });
    expect(JSON.stringify(linuxDev)).toContain('toggleDevTools');
    const quit = (linuxDev[0].submenu as { id?: string; click?: () => void }[]).find((i) => i.id === 'quit');
    quit?.click?.();
    expect(actions.quit).toHaveBeenCalled();
  });
});

describe('the worker path', () => {
  it('runs the worker from app.asar.unpacked in a packaged app, and leaves other paths alone', async () => {
    // The module itself (the file-level mock stands in for it elsewhere); its import of the built worker is stubbed.
    vi.doMock('../../src-sim/worker?modulePath', () => ({ default: '/w.js' }));
    const { unpackedPath } = await vi.importActual<{ unpackedPath: (path: string) => string }>('../../src-main/electron/worker-path');
    expect(unpackedPath('/opt/GPU Memory Lab/resources/app.asar/out/main/chunks/worker-1.js')).toBe('/opt/GPU Memory Lab/resources/app.asar.unpacked/out/main/chunks/worker-1.js');
    expect(unpackedPath('C:\\Lab\\resources\\app.asar\\out\\main\\chunks\\worker-1.js')).toBe('C:\\Lab\\resources\\app.asar.unpacked\\out\\main\\chunks\\worker-1.js');
    expect(unpackedPath('/work/out/main/chunks/worker-1.js')).toBe('/work/out/main/chunks/worker-1.js');
  });
});

describe('the preload', () => {
  type Api = Record<string, Record<string, (args?: unknown) => Promise<unknown>>> & { on: (event: string, fn: Listener) => () => void };
  let lab: Api;
  beforeAll(async () => {
    await import('../../src-main/electron/preload');
    lab = h.exposed.get('lab') as Api;
  });

  it('bundles nothing but electron and the literal channel list (a sandboxed preload can require electron only)', () => {
    for (const file of ['preload.ts', 'channels.ts']) {
      const source = readFileSync(resolve(__dirname, '../../src-main/electron', file), 'utf8');
      const runtime = [...source.matchAll(/^import\s+(?!type\b)[^'"]*['"]([^'"]+)['"]/gm)].map((m) => m[1]);
      expect(runtime.every((m) => m === 'electron' || m === './channels'), `${file} imports ${runtime.join(', ')}`).toBe(true);
    }
  });

  it('exposes window.lab: the contract’s namespaces and methods, and on()', () => {
    expect([...h.exposed.keys()]).toEqual(['lab']);
    const expected: Record<string, string[]> = {};
    for (const name of CALL_NAMES) {
      const [ns, method] = name.split('.');
      (expected[ns] ??= []).push(method);
    }
    expect(Object.keys(lab).sort()).toEqual([...Object.keys(expected), 'on'].sort());
    for (const [ns, methods] of Object.entries(expected)) {
      expect(Object.keys(lab[ns]).sort()).toEqual(methods.sort());
      for (const m of methods) expect(typeof lab[ns][m]).toBe('function');
    }
    expect(JSON.stringify(Object.keys(lab))).not.toMatch(/ipc|invoke|send/i);
  });

  it('invokes the call’s channel with its argument and resolves with the result', async () => {
    h.ipcRenderer.invoke.mockResolvedValueOnce({ ok: true, result: { runId: 'r1' } });
    await expect(lab.runs.start({ experiment: 'pchase-average', preset: 'fermi' })).resolves.toEqual({ runId: 'r1' });
    expect(h.ipcRenderer.invoke).toHaveBeenLastCalledWith('runs.start', { experiment: 'pchase-average', preset: 'fermi' });
    h.ipcRenderer.invoke.mockResolvedValueOnce({ ok: true, result: { app: '1' } });
    await expect(lab.app.version()).resolves.toEqual({ app: '1' });
    expect(h.ipcRenderer.invoke).toHaveBeenLastCalledWith('app.version', {});
  });

  it('rejects a refused call with its code and message (fields that survive contextBridge)', async () => {
    h.ipcRenderer.invoke.mockResolvedValueOnce({ ok: false, error: { code: 'not-found', message: 'no run with id "x"' } });
    const err = (await lab.runs.get({ id: 'x' }).catch((e: unknown) => e)) as { code: string; message: string; name: string };
    expect(err).toMatchObject({ name: 'LabError', code: 'not-found', message: 'no run with id "x"' });
    expect(String(err)).toBe('no run with id "x"');
    // The bridge copies plain objects field by field: nothing that needs a prototype.
    expect(Object.getPrototypeOf(err)).toBe(Object.prototype);

    h.ipcRenderer.invoke.mockRejectedValueOnce(new Error('An object could not be cloned.'));
    await expect(lab.runs.start({ experiment: () => 1 })).rejects.toMatchObject({ code: 'invalid-args' });
    h.ipcRenderer.invoke.mockResolvedValueOnce('not an outcome');
    await expect(lab.presets.list()).rejects.toMatchObject({ code: 'internal' });
  });

  it('subscribes to events on their fixed channels and unsubscribes', () => {
    const got: unknown[] = [];
    const off = lab.on('run.progress', (p) => got.push(p));
    const listeners = h.rendererListeners.get('lab:event:run.progress');
    expect(listeners?.size).toBe(1);
    for (const l of listeners ?? []) l({ sender: 'ipc' }, { runId: 'r', done: 1, total: 2, phase: 'x' });
    expect(got).toEqual([{ runId: 'r', done: 1, total: 2, phase: 'x' }]);
    off();
    off();
    expect(listeners?.size).toBe(0);
    expect(() => lab.on('ipc.anything', () => {})).toThrow();
    expect(() => lab.on('__proto__', () => {})).toThrow();
  });
});
