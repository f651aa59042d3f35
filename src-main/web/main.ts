/**
 * The browser mode: `npm run web -- [--db file] [--port n] [--no-open] [--pool-size n]`.
 *
 * Opens the lab (the database, by default the desktop app's user-data folder: see
 * services/paths.ts), serves it on 127.0.0.1 (a free port unless --port), prints the page URL with
 * this launch's token and opens it in the system browser unless --no-open. Ctrl+C (SIGINT), SIGTERM
 * or SIGHUP stops it gracefully: the server closes, runs still queued or running are recorded as
 * interrupted, the database closes. So does the end of the process that started it (`npm run web`'s
 * npm and shell, killed without passing the signal on): it checks its parent every second.
 */
// The Node version guard first (`npm run web` also runs it before tsx: --import): on a Node too
// old, one line and exit 1 before better-sqlite3 loads.
import '../../scripts/node-guard.mjs';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createLab } from '../services/lab';
import type { LabService } from '../services/lab';
import { defaultDbPath } from '../services/paths';
import { DEFAULT_STATIC_DIR, LabServerError, startLabServer } from './server';
import type { LabServer } from './server';

export const USAGE = `Usage: npm run web -- [--db <file>] [--port <n>] [--no-open] [--pool-size <n>]

Serves GPU Memory Lab to your browser on 127.0.0.1.

  --db <file>       the database (default: ${defaultDbPath()})
  --port <n>        the port (default: a free one)
  --no-open         print the URL only; do not open a browser
  --pool-size <n>   simulation processes at most (default: cores - 1, at least 1)
  -h, --help        this text`;

export interface WebArgs {
  db: string;
  port: number;
  open: boolean;
  poolSize: number | undefined;
  help: boolean;
}

/** Bad command-line input: one line, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export function parseWebArgs(argv: string[]): WebArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        db: { type: 'string' },
        port: { type: 'string' },
        'no-open': { type: 'boolean' },
        'pool-size': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const whole = (text: string | undefined, what: string, min: number, max: number): number | undefined => {
    if (text === undefined) return undefined;
    if (!/^\d+$/.test(text.trim()) || Number(text) < min || Number(text) > max) throw new UsageError(`${what} must be a whole number from ${min} to ${max}; got "${text}"`);
    return Number(text);
  };
  if (values.db !== undefined && values.db.trim() === '') throw new UsageError('--db needs a file name');
  return {
    db: resolve(values.db ?? defaultDbPath()),
    port: whole(values.port, '--port', 0, 65535) ?? 0,
    open: !values['no-open'],
    poolSize: whole(values['pool-size'], '--pool-size', 1, 256),
    help: values.help === true,
  };
}

/** How to open a URL in the system browser on a platform. */
export function openCommand(platform: NodeJS.Platform, url: string): { command: string; args: string[] } {
  if (platform === 'darwin') return { command: 'open', args: [url] };
  // `start` is a cmd built-in; its first quoted argument is a window title.
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""', url] };
  return { command: 'xdg-open', args: [url] };
}

/** Opens the URL, detached; a failure is one line on stderr, never an error. */
function openBrowser(url: string): void {
  const { command, args } = openCommand(process.platform, url);
  const notice = (why: string) => process.stderr.write(`Could not open a browser (${why}); open the URL above yourself.\n`);
  try {
    const child = spawn(command, args, { detached: true, stdio: 'ignore', windowsHide: true });
    child.on('error', (err: NodeJS.ErrnoException) => notice(err.code === 'ENOENT' ? `${command} not found` : err.message));
    child.on('exit', (code) => {
      if (code !== 0 && code !== null) notice(`${command} exited with code ${code}`);
    });
    child.unref();
  } catch (err) {
    notice(err instanceof Error ? err.message : String(err));
  }
}

function appVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

export async function main(argv: string[]): Promise<number> {
  let args: WebArgs;
  try {
    args = parseWebArgs(argv);
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n${USAGE.split('\n')[0]}\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }

  let lab: LabService;
  try {
    lab = createLab({ dbPath: args.db, poolSize: args.poolSize, appVersion: appVersion() });
  } catch (err) {
    process.stderr.write(`Cannot open the database ${args.db}: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  let server: LabServer;
  try {
    server = await startLabServer({ lab, port: args.port, log: (line) => process.stderr.write(`${line}\n`) });
  } catch (err) {
    await lab.close();
    process.stderr.write(`${err instanceof LabServerError ? err.message : `Cannot start the server: ${String(err)}`}\n`);
    return 1;
  }

  const lines = ['GPU Memory Lab: browser mode', `  database: ${args.db}`];
  if (lab.store.recovered > 0) lines.push(`  ${lab.store.recovered} run(s) left unfinished by an earlier session were marked interrupted`);
  if (!readableDir(DEFAULT_STATIC_DIR)) lines.push('  the renderer is not built yet: run `npm run build` (the API works without it)');
  lines.push(`  open:     ${server.pageUrl}`, 'Press Ctrl+C to stop.');
  process.stdout.write(`${lines.join('\n')}\n`);
  if (args.open) openBrowser(server.pageUrl);

  return new Promise<number>((done) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) {
        process.stderr.write(`${signal} again: quitting at once\n`);
        process.exit(130);
      }
      stopping = true;
      process.stderr.write(`${signal}: stopping (runs still queued or running are recorded as interrupted)\n`);
      void (async () => {
        let code = 0;
        try {
          await server.close();
        } catch (err) {
          process.stderr.write(`closing the server: ${String(err)}\n`);
          code = 1;
        }
        try {
          await lab.close();
        } catch (err) {
          process.stderr.write(`closing the lab: ${String(err)}\n`);
          code = 1;
        }
        done(code);
      })();
    };
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => stop(signal));
    watchParent(() => stop('the process that started the browser mode is gone'));
  });
}

/** How often the browser mode checks that the process that started it is still there. */
export const PARENT_CHECK_MS = 1_000;

/**
 * Calls `gone` once when this process's parent has ended (this process was re-parented, or the
 * parent's pid no longer exists). A process started by init or a service manager (parent pid 1)
 * is not watched.
 */
export function watchParent(gone: () => void, intervalMs = PARENT_CHECK_MS): () => void {
  const parent = process.ppid;
  if (parent <= 1) return () => {};
  const timer = setInterval(() => {
    let alive = process.ppid === parent;
    if (alive) {
      try {
        process.kill(parent, 0);
      } catch (err) {
        alive = (err as NodeJS.ErrnoException).code === 'EPERM';
      }
    }
    if (!alive) {
      clearInterval(timer);
      gone();
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

function readableDir(dir: string): boolean {
  try {
    readFileSync(resolve(dir, 'index.html'));
    return true;
  } catch {
    return false;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  void main(process.argv.slice(2)).then((code) => process.exit(code));
}
