import { describe, expect, it } from 'vitest';
import { runCli } from '../../src-main/cli/main';
import { ForkLauncher } from '../../src-main/services/pool/node-launcher';
import { jobGroups, outcomeRows, rowJobs, runRowsInParallel } from '../../src-main/services/pool/rows-parallel';
import { findPreset } from '../../src-sim/presets';
import { reproduce } from '../../src-sim/reference';

describe('the scorecard over several simulation processes', () => {
  it('groups the jobs by paper and preset, largest groups first, every job once', () => {
    const jobs = rowJobs('all');
    const groups = jobGroups(jobs);
    expect(groups.flat().sort((a, b) => a - b)).toEqual(jobs.map((_, i) => i));
    for (const g of groups) {
      expect(new Set(g.map((i) => jobs[i].paper)).size).toBe(1);
      expect(new Set(g.map((i) => jobs[i].preset.id)).size).toBe(1);
    }
    for (let k = 1; k < groups.length; k++) expect(groups[k].length).toBeLessThanOrEqual(groups[k - 1].length);
    // One preset for every row: each row once, on it.
    const fermi = findPreset('fermi')!;
    const on = rowJobs('WONG', fermi);
    expect(on.every((j) => j.preset === fermi)).toBe(true);
    expect(new Set(on.map((j) => j.rowId)).size).toBe(on.length);
  });

  it('gives the rows of one process, in their order, from two processes', async () => {
    const seed = 7;
    const serial = reproduce('WONG', undefined, seed);
    const seen: number[] = [];
    const s = runRowsInParallel(new ForkLauncher(), rowJobs('WONG'), { concurrency: 2, seed, timeLimitMs: 120_000, onProgress: (done) => seen.push(done) });
    const parallel = (await s.done).flatMap(outcomeRows);
    expect(parallel).toEqual(serial);
    expect(Math.max(...seen)).toBe(rowJobs('WONG').length);
  }, 120_000);

  it('a cancelled scorecard answers every job: the ones that did not run say so', async () => {
    const s = runRowsInParallel(new ForkLauncher(), rowJobs('WONG'), { concurrency: 1, seed: 1, timeLimitMs: 120_000 });
    s.cancel();
    const out = await s.done;
    expect(out).toHaveLength(rowJobs('WONG').length);
    const rows = out.flatMap(outcomeRows);
    expect(rows.every((r) => !r.pass && r.simulated.startsWith('error: '))).toBe(true);
  }, 60_000);

  it('gpulab reproduce --jobs takes a whole number from 1 to 64', async () => {
    const ctx = { version: '0.0.0', readFile: () => '', status: null };
    for (const bad of ['0', '65', '1.5', 'x'])
      expect((await runCli(['reproduce', 'WONG', '--jobs', bad], ctx)).stderr).toMatch(/--jobs must be a whole number from 1 to 64/);
  });
});
