/**
 * LOAD TEST: 200 runs queued at once all finish, with progress events, on a
 * pool of 2 real simulation processes. It takes a few seconds on the 2-core reference machine
 * (most of it the two processes' start-up through tsx); the bound below is 60 s.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { findExperiment } from '../../src-sim/experiments';
import { resolveParams } from '../../src-sim/experiments/params';
import { findPreset } from '../../src-sim/presets';
import { ForkLauncher, SimPool } from '../../src-main/services/pool';
import type { RunOutcome } from '../../src-main/services/pool';

const RUNS = 200;
const presets = ['tesla', 'fermi', 'kepler', 'titan'].map((id) => findPreset(id)!);
const params = { strideTo: 6, accesses: 16, jitter: 1, mode: 'default' };
const log: string[] = [];
const pool = new SimPool({ launcher: new ForkLauncher({ log: (l) => log.push(l) }), size: 2, log: (l) => log.push(l) });

afterAll(async () => {
  await pool.close();
});

describe('LOAD: 200 runs queued at once', () => {
  it('all finish, each with progress events, and the results match in-process runs', async () => {
    const progress = new Map<string, number>();
    pool.on('progress', (p) => progress.set(p.runId, (progress.get(p.runId) ?? 0) + 1));
    let maxQueued = 0;
    pool.on('queue', (q) => (maxQueued = Math.max(maxQueued, q.queued.length)));
    let spawned = 0;
    pool.on('process', (p) => (spawned += p.event === 'spawned' ? 1 : 0));

    const t0 = performance.now();
    const jobs = Array.from({ length: RUNS }, (_, i) => ({
      runId: `load-${i}`,
      experiment: 'shared-bank-stride',
      preset: presets[i % presets.length],
      params,
      seed: i + 1,
    }));
    const outcomes: RunOutcome[] = await Promise.all(jobs.map((j) => pool.submit(j)));
    const seconds = (performance.now() - t0) / 1000;
    console.log(`[pool-200] ${RUNS} runs on ${pool.size} processes in ${seconds.toFixed(2)} s`);

    expect(outcomes.map((o) => o.status)).toEqual(Array(RUNS).fill('done'));
    expect(progress.size).toBe(RUNS);
    expect(maxQueued).toBeGreaterThanOrEqual(RUNS - 2);
    expect(spawned).toBe(2);
    expect(pool.state()).toEqual({ queued: [], running: [] });
    expect(seconds).toBeLessThan(60);

    // A sample of results against the same runs in this process.
    const experiment = findExperiment('shared-bank-stride')!;
    for (const i of [0, 1, 2, 3, 99, 199]) {
      const o = outcomes[i];
      if (o.status !== 'done') throw new Error(o.error);
      expect(o.result).toEqual(experiment.run(jobs[i].preset, resolveParams(experiment.params, params), jobs[i].seed, () => {}));
    }
  });
});
