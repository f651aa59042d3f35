// Where Electron's executable is, or why there is none, read from the electron package's own files
// (path.txt names the executable under dist/) without loading the package: its index.js tries to
// download a missing binary on load, which offline prints a network error and advice to delete
// node_modules/electron before failing. ELECTRON_OVERRIDE_DIST_PATH is honoured as the package does.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** @param {string} root the folder whose node_modules hold electron @returns {{ path: string } | { missing: string }} */
export function electronBinary(root, env = process.env) {
  let dir;
  try {
    dir = dirname(createRequire(join(root, 'package.json')).resolve('electron/package.json'));
  } catch {
    return { missing: 'the electron package is not installed' };
  }
  const pathFile = join(dir, 'path.txt');
  const name = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    const exe = join(env.ELECTRON_OVERRIDE_DIST_PATH, name || 'electron');
    return existsSync(exe) ? { path: exe } : { missing: `ELECTRON_OVERRIDE_DIST_PATH names no executable (${exe})` };
  }
  if (!name) return { missing: 'its binary was not downloaded at install: offline, or ELECTRON_SKIP_BINARY_DOWNLOAD' };
  const exe = join(dir, 'dist', name);
  return existsSync(exe) ? { path: exe } : { missing: `its binary is missing (${exe})` };
}
