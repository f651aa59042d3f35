/**
 * The browser mode (src-main/web/main.ts) as a process: SIGTERM and SIGHUP stop it as Ctrl+C does
 * (its runs recorded as interrupted, the database closed, the process gone with exit code 0), and
 * it stops by itself when the process that started it is killed.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { tsxExecArgv } from '../../src-main/services/pool/node-launcher';
import { RunStore } from '../../src-main/services/store';
import { alive, raw, TempDir } from './lab-fixtures';

const tmp = new TempDir();
const started: number[] = [];
afterEach(() => {
  // Whatever a failed test left behind.
  for (const pid of started.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
});
afterAll(() => tmp.remove());

/** Resolves with the first match of `pattern` in what `child` has printed on stdout so far or prints later. */
function waitFor(child: ChildProcess, pattern: RegExp, what: string): Promise<RegExpMatchArray> {
  const out = stdoutOf(child);
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const poll = () => {
      const m = pattern.exec(out.text);
      if (m) resolve(m);
      else if (Date.now() - t0 > 30_000) reject(new Error(`no ${what} within 30 s; stdout: ${out.text}`));
      else setTimeout(poll, 20);
    };
    poll();
  });
}

const outputs = new WeakMap<ChildProcess, { text: string }>();
/** Everything `child` has printed on stdout. */
function stdoutOf(child: ChildProcess): { text: string } {
  let out = outputs.get(child);
  if (!out) {
    const o = { text: '' };
    child.stdout!.on('data', (c: Buffer) => (o.text += c.toString()));
    outputs.set(child, o);
    out = o;
  }
  return out;
}

/** A run long enough to be still going when the server is stopped. */
const LONG = { experiment: 'pchase-average', preset: 'fermi', params: { strides: [64], sizeFrom: 1024, sizeTo: 1024 ** 2, sizeStep: 1024, traversals: 20 } };

/** Starts three long runs on the server of `url` (one simulation process: one running, two queued) and waits until the first runs. */
async function startRuns(url: string, db: string): Promise<string[]> {
  const page = new URL(url);
  const token = new URLSearchParams(page.hash.slice(1)).get('token')!;
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const r = await raw(Number(page.port), 'POST', '/api/call/runs.start', { headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(LONG) });
    expect(r.status, r.text).toBe(200);
    ids.push((JSON.parse(r.text) as { result: { runId: string } }).result.runId);
  }
  const t0 = Date.now();
  while (Date.now() - t0 < 20_000) {
    const s = statuses(db, ids);
    if (s[0] === 'running') break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return ids;
}

/** The runs' statuses as stored, read without touching them. */
function statuses(db: string, ids: string[]): string[] {
  const store = RunStore.open(db, { appVersion: 'test', recoverInterrupted: false });
  try {
    return ids.map((id) => store.getSummary(id).status);
  } finally {
    store.close();
  }
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode, ms: 0 });
    else child.once('exit', (code, signal) => resolve({ code, signal, ms: Date.now() - t0 }));
  });
}

describe('the browser mode and signals', () => {
  it.each(['SIGTERM', 'SIGHUP'] as const)('stops gracefully on %s: runs interrupted, database closed, process gone', async (signal) => {
    const db = tmp.file(`${signal}.db`);
    const server = spawn(process.execPath, [...tsxExecArgv(), fileURLToPath(new URL('../../src-main/web/main.ts', import.meta.url)), '--no-open', '--pool-size', '1', '--db', db], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.push(server.pid!);
    let stderr = '';
    server.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const [, url] = await waitFor(server, /open:\s+(\S+)/, 'page URL');
    const ids = await startRuns(url, db);
    expect(statuses(db, ids)).toEqual(['running', 'queued', 'queued']);

    const end = exited(server);
    server.kill(signal);
    const { code, ms } = await end;
    expect(code, stderr).toBe(0);
    expect(ms).toBeLessThan(10_000);
    expect(stderr).toContain(`${signal}: stopping`);
    // Every run it held is recorded as interrupted by the server itself (nothing had to recover them).
    expect(statuses(db, ids)).toEqual(['interrupted', 'interrupted', 'interrupted']);
    // The database was closed: the last connection's close checkpoints and removes the WAL.
    expect(existsSync(`${db}-wal`)).toBe(false);
  }, 60_000);

  it('exits within a few seconds when the process that started it is killed', async () => {
    const db = tmp.file('orphan.db');
    const parent = spawn(process.execPath, [...tsxExecArgv(), fileURLToPath(new URL('./fixtures/web-parent.ts', import.meta.url)), db], { stdio: ['ignore', 'pipe', 'inherit'] });
    started.push(parent.pid!);
    const [, pid] = await waitFor(parent, /server (\d+)\n/, 'server pid');
    const serverPid = Number(pid);
    started.push(serverPid);
    const [, url] = await waitFor(parent, /open:\s+(\S+)/, 'page URL');
    const ids = await startRuns(url, db);
    expect(alive(serverPid)).toBe(true);

    process.kill(parent.pid!, 'SIGKILL');
    const t0 = Date.now();
    while (alive(serverPid) && Date.now() - t0 < 10_000) await new Promise((r) => setTimeout(r, 50));
    const ms = Date.now() - t0;
    console.log(`browser mode exited ${ms} ms after its parent was killed`);
    expect(alive(serverPid)).toBe(false);
    expect(ms).toBeLessThan(5_000);
    expect(statuses(db, ids)).toEqual(['interrupted', 'interrupted', 'interrupted']);
    expect(existsSync(`${db}-wal`)).toBe(false);
  }, 60_000);
});
