/**
 * Entry of the `gpulab` command line (`npm run lab -- <command>`, or bin/gpulab.mjs). Runs one
 * command, then prints its whole output at once: on bad input stdout stays empty.
 */
// The Node version guard first: on a Node too old, one line and exit 1 before the rest loads.
import '../scripts/node-guard.mjs';
import { readFileSync } from 'node:fs';
import { runCli } from './cli/main';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

const tty = process.stderr.isTTY === true;
let statusShown = false;
const result = await runCli(process.argv.slice(2), {
  version: pkg.version,
  readFile: (path) => readFileSync(path, 'utf8'),
  status: tty
    ? (line) => {
        statusShown = true;
        process.stderr.write(`\r\x1b[K${line.slice(0, (process.stderr.columns || 80) - 1)}`);
      }
    : null,
});
if (statusShown) process.stderr.write('\r\x1b[K');

// A reader that stops early (`gpulab ... | head`) is not an error.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
});
if (result.stdout) process.stdout.write(result.stdout);
if (result.stderr) process.stderr.write(result.stderr);
// exitCode, not exit(): a large output to a pipe is written out before the process ends.
process.exitCode = result.code;
