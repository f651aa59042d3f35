/**
 * The simulation pool with real processes: child_process.fork of src-sim/worker.ts through tsx,
 * pool size 2, the test-only experiments of src-sim/worker-test-experiments.ts enabled in the
 * workers' environment.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXPERIMENTS, findExperiment } from '../../src-sim/experiments';
import { resolveParams } from '../../src-sim/experiments/params';
import type { ExperimentResult } from '../../src-sim/experiments/types';
import { findPreset } from '../../src-sim/presets';
import type { Preset } from '../../src-sim/presets/types';
import { TEST_EXPERIMENTS_ENV } from '../../src-sim/worker-protocol';
import { testExperiments } from '../../src-sim/worker-test-experiments';
import { ForkLauncher, SimPool, describeExit, formatDuration } from '../../src-main/services/pool';
import type { PoolEvents, RunOutcome, SimPoolOptions } from '../../src-main/services/pool';

const fermi = findPreset('fermi')!;
const kepler = findPreset('kepler')!;

/** The parent validates against the same catalogue the test workers hold (their crash host is never called here). */
const CATALOGUE = [
  ...EXPERIMENTS,
  ...testExperiments({
    exit: () => {
      throw new Error('not in a worker');
    },
    kill: () => {
      throw new Error('not in a worker');
    },
  }),
];

const pools: SimPool[] = [];

afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

interface Recorder {
  pool: SimPool;
  log: string[];
  events: { [E in keyof PoolEvents]: PoolEvents[E][] };
  /** Resolves at the first progress event of a run (it is executing). */
  executing(runId: string): Promise<void>;
}

function makePool(options: Partial<SimPoolOptions> & { workerPath?: string } = {}): Recorder {
  const log: string[] = [];
  const { workerPath, ...rest } = options;
  const pool = new SimPool({
    launcher: new ForkLauncher({ workerPath, env: { [TEST_EXPERIMENTS_ENV]: '1' }, log: (l) => log.push(l) }),
    size: 2,
    experiments: CATALOGUE,
    log: (l) => log.push(l),
    ...rest,
  });
  pools.push(pool);
  const events: Recorder['events'] = { queue: [], started: [], progress: [], finished: [], process: [] };
  for (const name of Object.keys(events) as (keyof PoolEvents)[]) pool.on(name, (payload) => (events[name] as unknown[]).push(payload));
  const executing = (runId: string) =>
    new Promise<void>((resolve) => {
      if (events.progress.some((p) => p.runId === runId)) return resolve();
      const off = pool.on('progress', (p) => {
        if (p.runId === runId) {
          off();
          resolve();
        }
      });
    });
  return { pool, log, events, executing };
}

function inProcess(experiment: string, preset: Preset, params: Record<string, unknown>, seed: number): ExperimentResult {
  const e = findExperiment(experiment)!;
  return e.run(preset, resolveParams(e.params, params), seed, () => {});
}

function bytesOf(a: ArrayLike<number>): Buffer {
  return Buffer.from(Float64Array.from(a).buffer);
}

function done(o: RunOutcome): Extract<RunOutcome, { status: 'done' }> {
  if (o.status !== 'done') throw new Error(`run ${o.runId} ended ${o.status}: ${o.error}`);
  return o;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('SimPool with real processes', () => {
  it('runs 24 queued runs to completion on 2 reused processes, with progress, and results byte-identical to in-process runs', async () => {
    const { pool, events } = makePool();
    const jobs = Array.from({ length: 24 }, (_, i) => {
      const preset = i % 3 === 0 ? kepler : fermi;
      return i % 2 === 0
        ? { runId: `run-${i}`, experiment: 'shared-bank-stride', preset, params: { strideTo: 16, accesses: 16, jitter: 2 }, seed: i + 1 }
        : { runId: `run-${i}`, experiment: 'pchase-average', preset, params: { sizeFrom: '1KB', sizeTo: '24KB', sizeStep: '1KB', jitter: 1 }, seed: i + 1 };
    });
    const outcomes = await Promise.all(jobs.map((j) => pool.submit(j)));

    for (const [i, job] of jobs.entries()) {
      const o = done(outcomes[i]);
      expect(o.runId).toBe(job.runId);
      const expected = inProcess(job.experiment, job.preset, job.params, job.seed);
      expect(o.result.series.length).toBe(expected.series.length);
      o.result.series.forEach((s, k) => {
        // Structured clone keeps typed arrays typed, and the numbers are the same bit for bit.
        expect(s.y.constructor).toBe(expected.series[k].y.constructor);
        expect(bytesOf(s.x).equals(bytesOf(expected.series[k].x))).toBe(true);
        expect(bytesOf(s.y).equals(bytesOf(expected.series[k].y))).toBe(true);
      });
      expect(o.result).toEqual(expected);
      const progress = events.progress.filter((p) => p.runId === job.runId);
      expect(progress.length).toBeGreaterThan(0);
      expect(progress.at(-1)!.done).toBe(progress.at(-1)!.total);
    }
    // Seeds matter (jitter): two runs of the same experiment and preset with different seeds differ.
    expect(bytesOf(done(outcomes[0]).result.series[0].y).equals(bytesOf(done(outcomes[6]).result.series[0].y))).toBe(false);

    expect(events.process.filter((p) => p.event === 'spawned')).toHaveLength(2);
    expect(events.started).toHaveLength(24);
    expect(events.finished.map((f) => f.status)).toEqual(Array(24).fill('done'));
    expect(Math.max(...events.queue.map((q) => q.running.length))).toBe(2);
    expect(events.queue[0]).toEqual({ queued: ['run-0'], running: [] });
    expect(events.queue.at(-1)).toEqual({ queued: [], running: [] });
  });

  it('fails a run whose process crashes with the exit reason, replaces the process, and completes the other runs', async () => {
    const { pool, events } = makePool();
    const normal = (i: number) => pool.submit({ runId: `ok-${i}`, experiment: 'shared-bank-stride', preset: fermi, params: { strideTo: 8 }, seed: i });
    const runs = [
      normal(1),
      normal(2),
      pool.submit({ runId: 'exit-3', experiment: 'test-crash', preset: fermi, params: { mode: 'exit', code: 3, afterMs: 50 }, seed: 1 }),
      normal(3),
      pool.submit({ runId: 'sigkill', experiment: 'test-crash', preset: fermi, params: { mode: 'signal', signal: 'SIGKILL' }, seed: 1 }),
      normal(4),
      normal(5),
    ];
    const outcomes = await Promise.all(runs);
    const byId = new Map(outcomes.map((o) => [o.runId, o]));
    expect(byId.get('exit-3')).toMatchObject({ status: 'failed', reason: 'crashed', error: 'simulation process exited with code 3' });
    expect(byId.get('sigkill')).toMatchObject({ status: 'failed', reason: 'crashed', error: 'simulation process was killed by SIGKILL' });
    for (const i of [1, 2, 3, 4, 5]) expect(byId.get(`ok-${i}`)!.status).toBe('done');
    // Two crashed processes were replaced: 2 + 2 spawned in all.
    expect(events.process.filter((p) => p.event === 'spawned')).toHaveLength(4);
    expect(events.process.filter((p) => p.event === 'exited').map((p) => p.description)).toEqual(
      expect.arrayContaining(['simulation process exited with code 3', 'simulation process was killed by SIGKILL']),
    );
    // The pool still works afterwards.
    expect((await normal(6)).status).toBe('done');
  });

  it('fails a run whose experiment throws, keeping its process: an ExperimentError keeps its message and parameter', async () => {
    const { pool, events } = makePool({ size: 1 });
    // A stride larger than the array is refused before it is queued (the experiment's check against the preset)...
    expect(() => pool.submit({ runId: 'early', experiment: 'pchase-average', preset: fermi, params: { strides: '4KB', sizeFrom: '1KB', sizeTo: '2KB', sizeStep: '1KB' }, seed: 1 })).toThrow(
      'parameter "strides" (4096 B) is larger than "sizeFrom" (1024 B)',
    );
    // ...and a preset that never met the validator (32 GB L2) is refused by the worker before it allocates: an ExperimentError.
    const huge = structuredClone(fermi);
    const l2 = huge.spaces.global.levels[1]!;
    l2.sizeBytes = 32 * 1024 ** 3;
    l2.geometry = { ...l2.geometry, sets: l2.sizeBytes / (l2.geometry.lineBytes * l2.geometry.ways) };
    const bad = await pool.submit({ runId: 'bad', experiment: 'pchase-average', preset: huge, params: { strides: '128', sizeFrom: '1KB', sizeTo: '2KB', sizeStep: '1KB' }, seed: 1 });
    expect(bad).toMatchObject({ status: 'failed', reason: 'experiment-error', error: expect.stringMatching(/spaces\.global\.levels\.1: .*over the limit of 512 MB.*32 GB cache/) });
    const thrown = await pool.submit({ runId: 'throw', experiment: 'test-crash', preset: fermi, params: { mode: 'throw' }, seed: 1 });
    expect(thrown).toMatchObject({ status: 'failed', reason: 'internal-error', error: 'internal error in the simulation: Error: test-crash: a plain error thrown by run()' });
    expect((await pool.submit({ runId: 'after', experiment: 'shared-bank-stride', preset: fermi, params: { strideTo: 4 }, seed: 1 })).status).toBe('done');
    expect(events.process.filter((p) => p.event === 'spawned')).toHaveLength(1);
  });

  it('refuses an invalid run before queuing it, with the ExperimentError message, and starts nothing', () => {
    const { pool, events } = makePool();
    expect(() => pool.submit({ runId: 'a', experiment: 'shared-bank-stride', preset: fermi, params: { strideTo: 5000 }, seed: 1 })).toThrow(
      'parameter "strideTo" is 5000; allowed: 0 to 1024 words',
    );
    expect(() => pool.submit({ runId: 'b', experiment: 'shared-bank-stride', preset: fermi, params: { strideFrom: 9, strideTo: 8 }, seed: 1 })).toThrow(
      'parameter "strideTo" must not be smaller than "strideFrom"',
    );
    expect(() => pool.submit({ runId: 'c', experiment: 'no-such-thing', preset: fermi, seed: 1 })).toThrow(/unknown experiment "no-such-thing"; known: pchase-average/);
    expect(() => pool.submit({ runId: 'd', experiment: 'shared-bank-stride', preset: fermi, params: { bogus: 1 }, seed: 1 })).toThrow(/unknown parameter "bogus"/);
    expect(() => pool.submit({ runId: 'e', experiment: 'shared-bank-stride', preset: fermi, seed: -1 })).toThrow(/seed/);
    expect(() => pool.submit({ runId: 'f', experiment: 'pchase-average', preset: fermi, params: { strides: '4', sizeFrom: '1GB', sizeTo: '1GB', sizeStep: '1GB' }, seed: 1 })).toThrow(
      /over the limit of 400 M/,
    );
    expect(pool.state()).toEqual({ queued: [], running: [] });
    expect(pool.processInfo()).toEqual([]);
    expect(events.queue).toEqual([]);
    expect(events.finished).toEqual([]);
  });

  it('cancels a queued run (it never starts) and a running one (its process is killed and replaced)', async () => {
    const { pool, events, executing } = makePool();
    const hangA = pool.submit({ runId: 'hang-a', experiment: 'test-hang', preset: fermi, seed: 1 });
    const hangB = pool.submit({ runId: 'hang-b', experiment: 'test-hang', preset: fermi, seed: 1 });
    const queued = pool.submit({ runId: 'queued', experiment: 'shared-bank-stride', preset: fermi, seed: 1 });
    await Promise.all([executing('hang-a'), executing('hang-b')]);
    expect(pool.state()).toEqual({ queued: ['queued'], running: ['hang-a', 'hang-b'] });

    expect(pool.cancel('queued')).toBe(true);
    expect(await queued).toMatchObject({ status: 'cancelled', startedAt: null, error: 'cancelled before it started' });
    expect(events.started.map((s) => s.runId)).not.toContain('queued');

    const pidA = pool.processInfo().find((p) => p.runId === 'hang-a')!.pid!;
    expect(pool.cancel('hang-a')).toBe(true);
    const a = await hangA;
    expect(a).toMatchObject({ status: 'cancelled', error: 'cancelled' });
    expect(a.startedAt).toEqual(expect.any(Number));

    // The freed slot gets a new process; hang-b is untouched.
    const next = await pool.submit({ runId: 'next', experiment: 'shared-bank-stride', preset: fermi, params: { strideTo: 4 }, seed: 1 });
    expect(next.status).toBe('done');
    expect(events.process.find((p) => p.event === 'exited' && p.pid === pidA)?.description).toBe('simulation process stopped (cancelled)');
    expect(alive(pidA)).toBe(false);
    expect(pool.state()).toEqual({ queued: [], running: ['hang-b'] });

    expect(pool.cancel('hang-b')).toBe(true);
    expect((await hangB).status).toBe('cancelled');
    expect(pool.cancel('hang-b')).toBe(false);
    expect(pool.cancel('never-submitted')).toBe(false);
    expect(events.process.filter((p) => p.event === 'spawned')).toHaveLength(3);
  });

  it('stops a run at its time limit with a clear message; a run within its own limit finishes, with throttled progress', async () => {
    const { pool, events } = makePool({ timeLimitMs: 600 });
    const hang = pool.submit({ runId: 'hang', experiment: 'test-hang', preset: fermi, seed: 1 });
    const ownLimit = pool.submit({ runId: 'hang-own', experiment: 'test-hang', preset: fermi, seed: 1, timeLimitMs: 1_500 });
    const [h, own] = await Promise.all([hang, ownLimit]);
    expect(h).toMatchObject({ status: 'failed', reason: 'timed-out', error: 'the run exceeded its time limit of 600 ms and was stopped' });
    expect(own).toMatchObject({ status: 'failed', reason: 'timed-out', error: 'the run exceeded its time limit of 1.5 s and was stopped' });
    // The limit counts the run's own time (not the process start-up): ~0.6 s and ~1.5 s.
    expect(h.finishedAt - h.startedAt!).toBeGreaterThanOrEqual(600);
    expect(own.finishedAt - own.startedAt!).toBeGreaterThanOrEqual(1_500);
    // A run within its own limit finishes (longer than the pool's default of 600 ms).
    const sleepy = await pool.submit({ runId: 'sleep', experiment: 'test-sleep', preset: fermi, params: { ms: 1_000 }, seed: 1, timeLimitMs: 10_000 });
    expect(done(sleepy).result.series[0].y[0]).toBe(1_000);
    // It called progress 101 times in 1 s; the worker sends about 10 a second, the last one complete.
    const progress = events.progress.filter((p) => p.runId === 'sleep');
    expect(progress.length).toBeGreaterThanOrEqual(5);
    expect(progress.length).toBeLessThanOrEqual(15);
    expect(progress.at(-1)).toEqual({ runId: 'sleep', done: 100, total: 100, phase: 'sleeping' });
  });

  it('reports a worker that dies before it is ready, with the error it printed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pool-test-'));
    const workerPath = join(dir, 'broken-worker.mjs');
    writeFileSync(workerPath, "throw new TypeError('the worker is broken');\n");
    const { pool } = makePool({ workerPath, size: 1 });
    const o = await pool.submit({ runId: 'x', experiment: 'shared-bank-stride', preset: fermi, seed: 1 });
    expect(o).toMatchObject({ status: 'failed', reason: 'crashed', error: 'simulation process exited with code 1 before it was ready: TypeError: the worker is broken' });
  });

  it('close() interrupts running and queued runs, kills every process, and refuses new runs', async () => {
    const { pool, executing } = makePool();
    const runs = ['h1', 'h2'].map((runId) => pool.submit({ runId, experiment: 'test-hang', preset: fermi, seed: 1 }));
    const queued = pool.submit({ runId: 'q1', experiment: 'shared-bank-stride', preset: fermi, seed: 1 });
    await Promise.all([executing('h1'), executing('h2')]);
    const pids = pool.processInfo().map((p) => p.pid!);
    expect(pids).toHaveLength(2);

    const interrupted = await pool.close();
    expect(interrupted.map((o) => [o.runId, o.status]).sort()).toEqual([
      ['h1', 'interrupted'],
      ['h2', 'interrupted'],
      ['q1', 'interrupted'],
    ]);
    expect((await queued).error).toBe('interrupted: the simulation pool was closed before the run started');
    expect((await runs[0]).error).toBe('interrupted: the simulation pool was closed');
    for (const pid of pids) expect(alive(pid)).toBe(false);
    expect(pool.processInfo()).toEqual([]);
    expect(() => pool.submit({ runId: 'late', experiment: 'shared-bank-stride', preset: fermi, seed: 1 })).toThrow('the simulation pool is closed');
    expect(await pool.close()).toEqual([]);
  });

  it('refuses a run id that is already queued or running', () => {
    const { pool } = makePool();
    void pool.submit({ runId: 'same', experiment: 'test-sleep', preset: fermi, params: { ms: 10 }, seed: 1 });
    expect(() => pool.submit({ runId: 'same', experiment: 'test-sleep', preset: fermi, seed: 1 })).toThrow('run same is already queued or running');
  });
});

describe('exit descriptions', () => {
  it('names the exit code or the signal, and the last error line the process printed', () => {
    expect(describeExit({ code: 3, signal: null }, [])).toBe('simulation process exited with code 3');
    expect(describeExit({ code: null, signal: 'SIGKILL' }, [])).toBe('simulation process was killed by SIGKILL');
    expect(
      describeExit({ code: 134, signal: null }, ['<--- Last few GCs --->', 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory', ' 1: 0xb8d0a3 node::Abort()']),
    ).toBe('simulation process exited with code 134: FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory');
    expect(describeExit({ code: 1, signal: null }, ['file:///x.mjs:1', 'Error [ERR_MODULE_NOT_FOUND]: Cannot find module', '', 'Node.js v20.20.2'], false)).toBe(
      'simulation process exited with code 1 before it was ready: Error [ERR_MODULE_NOT_FOUND]: Cannot find module',
    );
  });

  it('formats time limits for people', () => {
    expect(formatDuration(600_000)).toBe('10 min');
    expect(formatDuration(90_000)).toBe('1 min 30 s');
    expect(formatDuration(1_500)).toBe('1.5 s');
    expect(formatDuration(250)).toBe('250 ms');
  });
});
