import { _electron as electron, expect, test } from '@playwright/test';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CALL_NAMES } from '../../src-main/contract';
import type { LabApi } from '../../src-main/contract';
// The Electron executable, or why there is none (Electron is an optionalDependency: see README),
// read without loading the package (which would try a download).
import { electronBinary } from '../../scripts/electron-binary.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = fileURLToPath(new URL('../../out/main/index.js', import.meta.url));


type Page = { lab?: LabApi };

test('the desktop app opens one window on the workbench, with window.lab (the contract) and without Node', async () => {
  const bin = electronBinary(ROOT);
  if ('missing' in bin) {
    const reason = `no Electron binary, so the desktop app cannot start here: ${bin.missing}`;
    console.log(`[electron.spec] skipped: ${reason}`);
    test.skip(true, reason);
    return;
  }
  expect(existsSync(MAIN), 'out/main/index.js is missing: run npm run build first').toBe(true);

  // The app keeps its database in the user-data folder: give it a fresh one, never the user's.
  const home = mkdtempSync(join(tmpdir(), 'gpulab-e2e-'));
  const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && e[0] !== 'ELECTRON_RENDERER_URL'));
  Object.assign(env, { XDG_CONFIG_HOME: home, APPDATA: home, HOME: home });
  // Chromium refuses to start as root with its sandbox on (CI containers).
  const args = process.getuid?.() === 0 ? ['--no-sandbox', ROOT] : [ROOT];
  const app = await electron.launch({ executablePath: bin.path, args, cwd: ROOT, env });
  try {
    const page = await app.firstWindow();
    await expect(page).toHaveTitle(/GPU Memory Lab/);
    // The renderer's own origin, not file://: its files only, with the policy sent as a header.
    expect(page.url()).toMatch(/^app:\/\/lab\/index\.html(#.*)?$/);
    const served = await page.evaluate(async () => {
      const r = await fetch('app://lab/index.html');
      return { status: r.status, csp: r.headers.get('content-security-policy'), type: r.headers.get('content-type') };
    });
    expect(served).toMatchObject({ status: 200, type: 'text/html; charset=utf-8', csp: expect.stringContaining("default-src 'none'") });
    const escaped = await page.evaluate(() =>
      fetch('app://lab/assets/%2e%2e%2f%2e%2e%2fmain%2findex.js').then(
        (r) => r.status,
        () => 'refused',
      ),
    );
    expect([404, 'refused']).toContain(escaped);
    const version = await page.evaluate(() => (globalThis as unknown as Page).lab?.app.version());
    expect(version?.simulator).toMatch(/^\d+\.\d+\.\d+/);
    expect(version?.electron).toMatch(/^\d+\./);
    expect(version?.schema).toBeGreaterThan(0);
    // Every namespace of the contract, and nothing that reaches IPC directly.
    const keys = await page.evaluate(() => Object.keys((globalThis as unknown as Page).lab ?? {}).sort());
    expect(keys).toEqual([...new Set(CALL_NAMES.map((n) => n.split('.')[0]!)), 'on'].sort());
    expect(await page.evaluate(async () => (await (globalThis as unknown as Page).lab!.runs.list()).total)).toBe(0);
    // A refused call rejects with its code and message across the context bridge.
    const refused = await page.evaluate(() =>
      (globalThis as unknown as Page).lab!.runs.get({ id: 'not-an-id' }).then(
        () => null,
        (e: { code?: string; message?: string }) => ({ code: e.code, message: e.message, text: String(e) }),
      ),
    );
    expect(refused).toMatchObject({ code: 'invalid-args', message: expect.stringMatching(/run id/) });
    expect(refused?.text).toBe(refused?.message);
    // The renderer is sandboxed: no Node, no Electron internals, only the preload's object.
    expect(await page.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');
    expect(await page.evaluate(() => typeof (globalThis as { process?: unknown }).process)).toBe('undefined');
    expect(app.windows()).toHaveLength(1);
  } finally {
    await app.close();
    rmSync(home, { recursive: true, force: true });
  }
});
