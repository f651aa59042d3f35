import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunDetail } from '../../src-main/contract';
import type { LabService } from '../../src-main/services/lab';
import { createHttpLab } from '../../src-main/shared/http-client';
import type { HttpLab } from '../../src-main/shared/http-client';
import { startLabServer } from '../../src-main/web/server';
import type { LabServer } from '../../src-main/web/server';
import { TempDir, testLab } from './lab-fixtures';

/* One database for every front end: a run started through the browser mode's HTTP API and one started by
   `gpulab run --save` land in the same database with identical results for the same seed, while
   the browser mode keeps the database open (and a run of its own going, which the CLI leaves
   alone). */

const ROOT = resolve(__dirname, '../..');
const tmp = new TempDir();
const db = tmp.file('shared.db');
let lab: LabService;
let server: LabServer;
let client: HttpLab;

beforeAll(async () => {
  lab = testLab(db).lab;
  server = await startLabServer({ lab, staticDir: null });
  client = createHttpLab(server.origin, server.token);
});

afterAll(async () => {
  client?.close();
  await server?.close();
  await lab?.close();
  tmp.remove();
});

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** The CLI in its own process, without blocking this one (the server keeps answering). */
function gpulab(...args: string[]): Promise<Ran> {
  return new Promise((done) => {
    execFile(process.execPath, ['--import', 'tsx', 'src-main/cli.ts', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      done({ code, stdout, stderr });
    });
  });
}

const PARAMS = { sizeFrom: '1KB', sizeTo: '20KB', strides: '64,128' };

/** Everything that makes two runs the same run (not their ids, titles or times). */
function essence(r: RunDetail) {
  return { experiment: r.experiment, preset: r.preset, params: r.params, seed: r.seed, simVersion: r.simVersion, status: r.status, result: r.result };
}

describe('the browser mode and the CLI on one database', { timeout: 180_000 }, () => {
  it('store runs of the same experiment, preset and seed with identical results', async () => {
    // A long run of the browser mode's own, going while the CLI opens the database.
    const { runId: busy } = await client.runs.start({ experiment: 'test-sleep', preset: 'fermi', params: { ms: 60_000 }, seed: 1 });
    await expect.poll(async () => (await client.runs.get({ id: busy })).status, { timeout: 30_000 }).toBe('running');

    const { runId: web } = await client.runs.start({ experiment: 'pchase-average', preset: 'fermi', params: PARAMS, seed: 7 });
    expect(await lab.finished(web)).toMatchObject({ status: 'done' });

    const cli = await gpulab('run', 'pchase-average', '--preset', 'fermi', ...Object.entries(PARAMS).flatMap(([k, v]) => ['--param', `${k}=${v}`]), '--seed', '7', '--save', '--db', db, '--format', 'json');
    expect(cli.code, cli.stderr).toBe(0);
    const printed = JSON.parse(cli.stdout) as { runId: string; db: string; series: { x: number[]; y: number[] }[] };
    expect(printed.db).toBe(db);

    // Both runs are in the database the server reads, and the same but for their ids.
    const page = await client.runs.list({ experiment: 'pchase-average' });
    expect(page.items.map((r) => r.id).sort()).toEqual([web, printed.runId].sort());
    const [a, b] = await Promise.all([client.runs.get({ id: web, full: true }), client.runs.get({ id: printed.runId, full: true })]);
    expect(a.result?.series.length).toBeGreaterThan(0);
    expect(essence(b)).toEqual(essence(a));
    for (let i = 0; i < a.result!.series.length; i++) {
      expect(Buffer.from(b.result!.series[i].y.buffer).equals(Buffer.from(a.result!.series[i].y.buffer))).toBe(true);
      expect(Array.from(a.result!.series[i].y)).toEqual(printed.series[i].y);
    }

    // The CLI left the browser mode's run alone: still running, not interrupted.
    expect((await client.runs.get({ id: busy })).status).toBe('running');
    expect(await client.runs.cancel({ id: busy })).toEqual({ cancelled: true });
  });
});
