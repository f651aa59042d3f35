/**
 * Test-only experiments for the simulation pool's tests: one that kills its process, one that never
 * returns, one that sleeps. Never in EXPERIMENTS: src-sim/worker.ts registers them only when
 * TEST_EXPERIMENTS_ENV is "1" in its environment, and the tests hand them to the pool's validator.
 *
 * Pure like the rest of src-sim: the means to end the process come from the caller (`host`), and
 * waiting blocks the thread (Atomics.wait), exactly as a long simulation would.
 */
import type { Experiment, ParamSpec, ExperimentResult } from './experiments/types';
import { ExperimentError } from './experiments/types';
import { resolveParams } from './experiments/params';

export type TestSignal = 'SIGKILL' | 'SIGTERM';

/** How a test experiment ends its process (the worker passes process.exit / process.kill). */
export interface CrashHost {
  exit(code: number): void;
  kill(signal: TestSignal): void;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Blocks the thread for `ms` milliseconds (the event loop included). */
function sleep(ms: number): void {
  if (ms > 0) Atomics.wait(sleeper, 0, 0, ms);
}

function oneValue(name: string, value: number): ExperimentResult {
  return {
    series: [{ name, x: Float64Array.of(0), y: Float64Array.of(value), xLabel: 'x', xUnit: '', yLabel: name, yUnit: 'ms' }],
    tables: [],
    findings: [],
    notes: [],
  };
}

const crashParams: ParamSpec[] = [
  { name: 'mode', label: 'How', unit: '', kind: 'enum', default: 'exit', options: ['exit', 'signal', 'throw'], description: 'exit: exit with a code; signal: kill itself; throw: throw a plain Error (no crash).' },
  { name: 'code', label: 'Exit code', unit: '', kind: 'integer', default: 3, min: 0, max: 255, description: 'Exit code for mode exit.' },
  { name: 'signal', label: 'Signal', unit: '', kind: 'enum', default: 'SIGKILL', options: ['SIGKILL', 'SIGTERM'], description: 'Signal for mode signal.' },
  { name: 'afterMs', label: 'Delay', unit: 'ms', kind: 'integer', default: 0, min: 0, max: 60_000, description: 'Time to wait (blocked) before crashing.' },
];

const hangParams: ParamSpec[] = [];

const sleepParams: ParamSpec[] = [
  { name: 'ms', label: 'Duration', unit: 'ms', kind: 'integer', default: 100, min: 0, max: 600_000, description: 'Time the run takes (blocked), reporting progress every 10 ms.' },
];

export function testExperiments(host: CrashHost): Experiment[] {
  const crash: Experiment = {
    id: 'test-crash',
    title: 'Test only: crash the simulation process',
    description: 'Ends its own process (exit code or signal) in the middle of a run.',
    reproduces: [],
    params: crashParams,
    estimate: () => 1,
    run(_preset, raw, _seed, progress) {
      const p = resolveParams(crashParams, raw);
      progress(0, 1, 'about to crash');
      sleep(p.afterMs as number);
      if (p.mode === 'throw') throw new Error('test-crash: a plain error thrown by run()');
      if (p.mode === 'exit') host.exit(p.code as number);
      else host.kill(p.signal as TestSignal);
      // A host that did not end the process: keep the run from looking successful.
      throw new ExperimentError('test-crash: the host did not end the process');
    },
  };
  const hang: Experiment = {
    id: 'test-hang',
    title: 'Test only: never return',
    description: 'Reports progress once, then blocks its process forever.',
    reproduces: [],
    params: hangParams,
    estimate: () => 1,
    run(_preset, _raw, _seed, progress) {
      progress(0, 1, 'hanging');
      for (;;) sleep(1_000);
    },
  };
  const sleepy: Experiment = {
    id: 'test-sleep',
    title: 'Test only: sleep',
    description: 'Blocks its process for a given time, reporting progress, then returns one value.',
    reproduces: [],
    params: sleepParams,
    estimate: (_preset, raw) => Math.max(1, resolveParams(sleepParams, raw).ms as number),
    run(_preset, raw, _seed, progress) {
      const ms = resolveParams(sleepParams, raw).ms as number;
      const steps = Math.max(1, Math.ceil(ms / 10));
      for (let i = 0; i < steps; i++) {
        progress(i, steps, 'sleeping');
        sleep(Math.min(10, ms - i * 10));
      }
      progress(steps, steps, 'sleeping');
      return oneValue('slept', ms);
    },
  };
  return [crash, hang, sleepy];
}
