#!/usr/bin/env node
// `npm start [-- args]`: builds the app, then opens the desktop window (`electron-vite preview`)
// where Electron's binary is installed, and otherwise the browser mode (src-main/web/main.ts, which
// takes the arguments: --db, --port, --no-open, --pool-size) after a one-line notice. Electron is an
// optionalDependency: where its download failed the package is absent or has no binary. The Node
// version guard comes first: on a Node too old it says so in one line and exits 1, before the build.
import './node-guard.mjs';
import { electronBinary } from './electron-binary.mjs';
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(ROOT, 'package.json'));


const electronVite = join(dirname(require.resolve('electron-vite/package.json')), 'bin', 'electron-vite.js');
const args = process.argv.slice(2);

const built = spawnSync(process.execPath, [electronVite, 'build'], { cwd: ROOT, stdio: 'inherit' });
if (built.status !== 0) {
  process.stderr.write(`npm start: the build failed (${built.signal ?? `exit code ${built.status}`})\n`);
  process.exit(built.status || 1);
}

// The child gets its own process group (POSIX), so that it hears a Ctrl+C once, from here: the
// terminal signals this group and npm passes signals on as well. A signal repeated within half a
// second is that echo and is dropped; a later one is passed on (a second Ctrl+C quits at once).
const options = { cwd: ROOT, stdio: 'inherit', detached: process.platform !== 'win32' };
const electron = electronBinary(ROOT);
let child;
if ('path' in electron) {
  // Electron's window; it ignores the browser mode's arguments.
  child = spawn(process.execPath, [electronVite, 'preview', '--skipBuild'], options);
} else {
  process.stderr.write(`No Electron binary (${electron.missing}): starting the browser mode instead (see README, "Electron offline").\n`);
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  const guard = pathToFileURL(join(ROOT, 'scripts/node-guard.mjs')).href;
  child = spawn(process.execPath, ['--import', guard, '--import', tsx, join(ROOT, 'src-main/web/main.ts'), ...args], options);
}

let lastSignalAt = 0;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    const now = Date.now();
    if (now - lastSignalAt < 500) return;
    lastSignalAt = now;
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  });
}
child.on('error', (err) => {
  process.stderr.write(`npm start: ${err.message}\n`);
  process.exit(1);
});
const SIGNAL_NUMBERS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };
child.on('exit', (code, signal) => process.exit(code ?? 128 + (SIGNAL_NUMBERS[signal] ?? 0)));
