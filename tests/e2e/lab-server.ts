/**
 * The browser mode as an end-to-end fixture: `src-main/web/main.ts` started as a child process on a
 * fresh temporary database, the page URL (with its `#token=`) read from its output, and a
 * graceful stop (SIGTERM to the child's process group, SIGKILL if it lingers) with the database
 * folder removed afterwards.
 *
 *   const lab = await startLabServer();
 *   await page.goto(lab.pageUrl);
 *   await lab.api.runs.list();        // the contract over HTTP, for setting up and checking state
 *   await lab.stop();
 *
 * It serves the BUILT renderer (out/renderer): `npm run build` first.
 */
import { test } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LabApi, RunSummary } from '../../src-main/contract';
import { createHttpLab, type HttpLab } from '../../src-main/shared/http-client';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TSX = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const MAIN = join(ROOT, 'src-main', 'web', 'main.ts');
const RENDERER = join(ROOT, 'out', 'renderer', 'index.html');

export interface LabServerHandle {
  /** `http://127.0.0.1:<port>/#token=<hex>`: open it to get the workbench. */
  readonly pageUrl: string;
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly token: string;
  readonly dbPath: string;
  /** The lab's API from the test process (Node's fetch; no events needed for setup). */
  readonly api: LabApi;
  /** Everything the server printed so far (for failure messages). */
  output(): string;
  /** Stops the server, waits for it to exit and removes the temporary database. */
  stop(): Promise<void>;
}

export interface LabServerOptions {
  /** Simulation processes at most (default 2: the tests run two presets at once). */
  poolSize?: number;
  /** How long to wait for the URL line (ms). */
  startTimeoutMs?: number;
}

export async function startLabServer(options: LabServerOptions = {}): Promise<LabServerHandle> {
  if (!existsSync(RENDERER)) throw new Error(`${RENDERER} is missing: run \`npm run build\` before the browser e2e tests`);
  const dir = mkdtempSync(join(tmpdir(), 'gpulab-e2e-web-'));
  const dbPath = join(dir, 'lab.db');
  const args = [TSX, MAIN, '--no-open', '--port', '0', '--db', dbPath, '--pool-size', String(options.poolSize ?? 2)];
  // Its own process group, so stop() reaches tsx's child node process and the simulation workers too.
  const child = spawn(process.execPath, args, { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, BROWSER: 'none' } });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (out += s));
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (out += s));

  let pageUrl: string;
  try {
    pageUrl = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the lab server printed no URL within ${options.startTimeoutMs ?? 60_000} ms:\n${out}`)), options.startTimeoutMs ?? 60_000);
      const look = () => {
        const m = /open:\s+(http:\/\/127\.0\.0\.1:\d+\/#token=[0-9a-f]+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      };
      child.stdout!.on('data', look);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`the lab server exited (${signal ?? `code ${code}`}) before printing its URL:\n${out}`));
      });
      child.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
  } catch (err) {
    await kill(child);
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }

  const url = new URL(pageUrl);
  const token = new URLSearchParams(url.hash.slice(1)).get('token')!;
  const api: HttpLab = createHttpLab(url.origin, token);
  let stopped = false;
  return {
    pageUrl,
    origin: url.origin,
    token,
    dbPath,
    api,
    output: () => out,
    async stop() {
      if (stopped) return;
      stopped = true;
      api.close();
      await kill(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** SIGTERM to the child's process group (a graceful stop), SIGKILL after 10 s. */
async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, sig);
    } catch {
      // already gone
    }
  };
  signal('SIGTERM');
  const timer = setTimeout(() => signal('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
  // Whatever of the group outlived its leader (a simulation worker mid-run).
  signal('SIGKILL');
}

/** Waits until every listed run has finished (done, failed, ...), polling the API. */
export async function waitForRuns(api: LabApi, ids: string[], timeoutMs = 120_000): Promise<RunSummary[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const runs = await Promise.all(ids.map((id) => api.runs.get({ id })));
    if (runs.every((r) => r.status !== 'queued' && r.status !== 'running')) return runs;
    if (Date.now() > until) throw new Error(`runs still unfinished after ${timeoutMs} ms: ${runs.map((r) => `${r.id} ${r.status}`).join(', ')}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * One lab server for a spec file: started before its tests, stopped after them; a failing test gets
 * the server's output and a full-page screenshot attached. `onStart` receives the handle.
 */
export function useLabServer(options: LabServerOptions, onStart: (lab: LabServerHandle) => void): void {
  let lab: LabServerHandle | undefined;
  test.beforeAll(async () => {
    lab = await startLabServer(options);
    onStart(lab);
  });
  test.afterAll(async () => {
    await lab?.stop();
  });
  test.afterEach(async ({ page }, testInfo) => {
    if (testInfo.status !== testInfo.expectedStatus && lab) {
      await testInfo.attach('lab-server output', { body: lab.output(), contentType: 'text/plain' });
      await page.screenshot({ path: testInfo.outputPath('failure.png'), fullPage: true }).catch(() => undefined);
    }
  });
}
