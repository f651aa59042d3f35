/**
 * The API and CLI fuzz (tests/repro/fuzz.ts): FUZZ_API_CALLS calls of the browser mode's HTTP API
 * (default 50,000) and FUZZ_CLI_CALLS command lines (default 10,000), seeded by FUZZ_SEED (default
 * 1), loopback only, on a database and folders of their own. No answer may be 5xx, no call may go
 * unanswered for 30 s, no command line may end in "internal error", and the server must still
 * answer at the end. `npm run fuzz`.
 */
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commandTable, runCli } from '../../src-main/cli/main';
import { createLab } from '../../src-main/services/lab';
import { startLabServer } from '../../src-main/web/server';
import { newRun, sampleResult } from '../unit/store-fixtures';
import { apiRequest, cliArgv, CLI_LEFT_OUT, hostilePaths, Rng, send } from './fuzz';

const API_CALLS = Number(process.env.FUZZ_API_CALLS ?? 50_000);
const CLI_CALLS = Number(process.env.FUZZ_CLI_CALLS ?? 10_000);
const SEED = Number(process.env.FUZZ_SEED ?? 1);
const CONCURRENCY = 8;
const HANG_MS = 30_000;

const dir = mkdtempSync(join(tmpdir(), 'gpulab-fuzz-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('fuzz', () => {
  it(`${API_CALLS} API calls: no 5xx, no hang, the server answers after`, async () => {
    const log: string[] = [];
    const lab = createLab({ dbPath: join(dir, 'api.db'), poolSize: 1, appVersion: '0.1.0-fuzz', gpuEnv: { PATH: join(dir, 'no-bin') }, log: (l) => log.push(l) });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const r = lab.store.createRun(newRun({ title: `fuzz ${i}` }));
      lab.store.finishRun(r.id, sampleResult(200, i === 0));
      ids.push(r.id);
    }
    // A renderer folder of two files: the static routes answer from it.
    const staticDir = join(dir, 'renderer');
    mkdirSync(join(staticDir, 'assets'), { recursive: true });
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>fuzz</title>');
    writeFileSync(join(staticDir, 'assets', 'app.js'), 'void 0;');
    const server = await startLabServer({ lab, staticDir, log: (l) => log.push(l) });
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const r = new Rng(SEED);
    const failures: string[] = [];
    const statuses = new Map<number | string, number>();
    let next = 0;
    const t0 = Date.now();
    const worker = async () => {
      while (next < API_CALLS) {
        next++;
        const q = apiRequest(r, server.port, server.token, ids);
        const a = await send(server.port, agent, q, HANG_MS);
        const key = a === null ? 'hang' : a === 'reset' ? 'reset' : a.status;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
        if (a === null) failures.push(`no answer in ${HANG_MS / 1000} s: ${q.label}`);
        else if (a !== 'reset' && a.status >= 500) failures.push(`${a.status}: ${q.label}: ${a.text}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = (Date.now() - t0) / 1000;
    const after = await send(server.port, new Agent(), { method: 'POST', path: '/api/call/app.version', headers: { host: `127.0.0.1:${server.port}`, authorization: `Bearer ${server.token}`, 'content-type': 'application/json' }, body: Buffer.from('{}'), label: 'app.version' }, 10_000);
    agent.destroy();
    await server.close();
    await lab.close();
    const table = [...statuses.entries()].sort((a, b) => String(a[0]).localeCompare(String(b[0]))).map(([k, n]) => `${k}: ${n}`).join(', ');
    console.log(`API fuzz, seed ${SEED}: ${API_CALLS} calls in ${seconds.toFixed(0)} s (${(API_CALLS / seconds).toFixed(0)} a second); answers ${table}`);
    const stacks = log.filter((l) => /\n\s+at /.test(l));
    expect(failures.slice(0, 20)).toEqual([]);
    expect(stacks.slice(0, 5)).toEqual([]);
    expect(after && after !== 'reset' ? after.status : after).toBe(200);
    // Resets are only for bodies past the limit that the linger time cuts short; a handful at most.
    expect(statuses.get('reset') ?? 0).toBeLessThan(API_CALLS * 0.01);
  }, 3_600_000);

  it(`${CLI_CALLS} CLI command lines: none ends in "internal error", none hangs, no secret is printed`, async () => {
    const paths = hostilePaths(join(dir, 'cli'));
    const db = join(dir, 'cli.db');
    const commands = commandTable().filter((c) => !CLI_LEFT_OUT.includes(c.name));
    const r = new Rng(SEED + 1);
    const failures: string[] = [];
    const codes = new Map<number, number>();
    const ctx = { version: '0.1.0-fuzz', readFile: (path: string) => readFileSync(path, 'utf8'), status: null };
    // A few stored runs for the commands that take a run id.
    const seeded = await runCli(['run', 'pchase-average', '--preset', 'fermi', '--param', 'strides=64', '--param', 'sizeTo=16KB', '--save', `--db=${db}`, '--format', 'json'], ctx);
    expect(seeded.code, seeded.stderr).toBe(0);
    const listed = await runCli(['runs', 'list', `--db=${db}`, '--format', 'json'], ctx);
    const ids = (JSON.parse(listed.stdout) as { items: { id: string }[] }).items.map((x) => x.id);
    const t0 = Date.now();
    // Relative paths land in the fuzz's folder, not the repository.
    const cwd = process.cwd();
    process.chdir(join(dir, 'cli'));
    for (let i = 0; i < CLI_CALLS; i++) {
      const argv = cliArgv(r, commands, paths, db, join(dir, 'cli'), ids);
      const started = Date.now();
      if (process.env.FUZZ_TRACE) appendFileSync(process.env.FUZZ_TRACE, `gpulab ${argv.map((a) => a.slice(0, 120)).join(' ')}\n`);
      const out = await Promise.race([runCli(argv, ctx), new Promise<null>((done) => setTimeout(() => done(null), 120_000).unref())]);
      const line = argv.map((a) => (a.length > 80 ? `${a.slice(0, 80)}...` : a)).join(' ');
      if (out === null) {
        failures.push(`no answer in 120 s: gpulab ${line}`);
        continue;
      }
      codes.set(out.code, (codes.get(out.code) ?? 0) + 1);
      if (/internal error/.test(out.stderr)) failures.push(`internal error: gpulab ${line}: ${out.stderr.slice(0, 300)}`);
      if (/TOPSECRET/.test(out.stdout + out.stderr)) failures.push(`a linked file's bytes printed: gpulab ${line}`);
      if (Date.now() - started > 60_000) failures.push(`took ${((Date.now() - started) / 1000).toFixed(0)} s: gpulab ${line}`);
    }
    process.chdir(cwd);
    const seconds = (Date.now() - t0) / 1000;
    console.log(`CLI fuzz, seed ${SEED + 1}: ${CLI_CALLS} command lines in ${seconds.toFixed(0)} s; exit codes ${[...codes.entries()].sort().map(([k, n]) => `${k}: ${n}`).join(', ')} (left out: ${CLI_LEFT_OUT.join(', ')})`);
    expect(failures.slice(0, 20)).toEqual([]);
    expect(existsSync('/tmp/pwned')).toBe(false);
  }, 3_600_000);
});
