import { describe, expect, it } from 'vitest';
import { runCli } from '../../src-main/cli/main';
import { ForkLauncher } from '../../src-main/services/pool/node-launcher';
import { jobGroups, outcomeRows, rowJobs, runRowsInParallel } from '../../src-main/services/pool/rows-parallel';
import { findPreset } from '../../src-sim/presets';
import { reproduce } from '../../src-sim/reference';

describe('the scorecard over several simulation processes', () => {
  it('groups the jobs that share runs, costliest groups first, every job once', () => {
    const jobs = rowJobs('all');
    const groups = jobGroups(jobs);
    expect(groups.flat().sort((a, b) => a - b)).toEqual(jobs.map((_, i) => i));
    const groupOf = (rowId: string, preset: string): number => groups.findIndex((g) => g.some((i) => jobs[i].rowId === rowId && jobs[i].preset.id === preset));
    for (const g of groups) expect(new Set(g.map((i) => jobs[i].preset.id)).size).toBe(1);
    // LASH F4 to F6 read one stencil study: one group; the sensitivity study and the applications are
    // runs of their own, so they may go to other processes.
    expect(groupOf('LASH-F5', 'fermi480')).toBe(groupOf('LASH-F4', 'fermi480'));
    expect(groupOf('LASH-F6', 'fermi480')).toBe(groupOf('LASH-F4', 'fermi480'));
    expect(groupOf('LASH-F7', 'fermi480')).not.toBe(groupOf('LASH-F1', 'fermi480'));
    expect(groupOf('LASH-F7', 'fermi480')).not.toBe(groupOf('LASH-F4', 'fermi480'));
    // The SL1 rows matched by label (the application study) stay together.
    expect(groupOf('SL1-F8', 'titan')).toBe(groupOf('SL1-F7', 'titan'));
    // The same run on another preset is another run.
    expect(groupOf('MEI-T1', 'fermi')).not.toBe(groupOf('MEI-T1', 'kepler'));
    // Costliest first: the whole-GPU studies before the latency tier's rows.
    expect(groupOf('LASH-F7', 'fermi480')).toBeLessThan(groupOf('LASH-F4', 'fermi480'));
    expect(groupOf('LASH-F1', 'fermi480')).toBeLessThan(groupOf('WONG-CLK', 'tesla'));
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
