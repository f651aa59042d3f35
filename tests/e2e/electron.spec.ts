import { _electron as electron, expect, test } from '@playwright/test';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { ShellApi } from '../../src-main/electron/shell-api';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = fileURLToPath(new URL('../../out/main/index.js', import.meta.url));

/** The Electron executable, or why there is none (Electron is an optionalDependency: see README). */
function electronBinary(): { path: string } | { missing: string } {
  try {
    // The electron package exports the path of its binary; it throws when the download failed.
    const path: unknown = createRequire(import.meta.url)('electron');
    if (typeof path !== 'string' || !existsSync(path)) return { missing: `the electron package names no binary (${String(path)})` };
    return { path };
  } catch (e) {
    return { missing: (e instanceof Error ? e.message : String(e)).split('\n')[0] };
  }
}

test('the desktop app opens one window titled GPU Memory Lab, with window.lab and without Node', async () => {
  const bin = electronBinary();
  if ('missing' in bin) {
    const reason = `no Electron binary, so the desktop app cannot start here: ${bin.missing}`;
    console.log(`[electron.spec] skipped: ${reason}`);
    test.skip(true, reason);
    return;
  }
  expect(existsSync(MAIN), 'out/main/index.js is missing: run npm run build first').toBe(true);

  // The built renderer, never a dev server.
  const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && e[0] !== 'ELECTRON_RENDERER_URL'));
  // Chromium refuses to start as root with its sandbox on (CI containers).
  const args = process.getuid?.() === 0 ? ['--no-sandbox', ROOT] : [ROOT];
  const app = await electron.launch({ executablePath: bin.path, args, cwd: ROOT, env });
  try {
    const page = await app.firstWindow();
    await expect(page).toHaveTitle('GPU Memory Lab');
    await expect(page.locator('h1')).toHaveText('GPU Memory Lab');
    const version = await page.evaluate(() => (globalThis as unknown as { lab?: ShellApi }).lab?.version());
    expect(version?.simulator).toMatch(/^\d+\.\d+\.\d+/);
    await expect(page.getByTestId('version')).toContainText(`simulator ${version?.simulator}`);
    // The renderer is sandboxed: no Node, no Electron internals, only the preload's object.
    expect(await page.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');
    expect(await page.evaluate(() => typeof (globalThis as { process?: unknown }).process)).toBe('undefined');
    expect(await page.evaluate(() => Object.keys((globalThis as unknown as { lab?: ShellApi }).lab ?? {}))).toEqual(['version']);
    expect(app.windows()).toHaveLength(1);
  } finally {
    await app.close();
  }
});
