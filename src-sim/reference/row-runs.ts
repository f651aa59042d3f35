import { findExperiment } from '../experiments';
import type { ExperimentResult, ParamValues, Progress } from '../experiments/types';
import type { Preset } from '../presets/types';
import type { Reference, RowResult } from './types';

/** What a row measured, by reference name. */
export type Measured = Record<string, number | string>;

/**
 * Identical runs (experiment, preset, parameters, seed) asked for by several rows are computed once:
 * LASH F4, F5 and F6 read one stencil study, the SL1 rows share their application study. Results are
 * deterministic, so this only saves time. Keeps the last MEMO_SIZE results.
 */
const memo = new Map<string, ExperimentResult>();
const MEMO_SIZE = 16;

/** Told the progress of every run a row makes (withRunProgress); nothing by default. */
let runProgress: Progress = () => {};

/**
 * Calls `f` with `progress` told the progress of every run the rows make meanwhile: a row's run may
 * take most of a minute, and a simulation process checks there that its owner is still alive.
 */
export function withRunProgress<T>(progress: Progress, f: () => T): T {
  const before = runProgress;
  runProgress = progress;
  try {
    return f();
  } finally {
    runProgress = before;
  }
}

/** The progress callback a row passes to its runs: forwards to withRunProgress's. */
export const rowRunProgress: Progress = (done, total, phase) => runProgress(done, total, phase);

/** Runs one experiment for a row (or reuses an identical run) and records it among the row's runs. */
export function memoRun(runs: RowResult['runs'], experiment: string, preset: Preset, params: ParamValues, seed: number): ExperimentResult {
  runs.push({ experiment, params });
  const key = JSON.stringify([experiment, preset, params, seed]);
  const hit = memo.get(key);
  if (hit) return hit;
  const e = findExperiment(experiment);
  if (!e) throw new Error(`row needs experiment "${experiment}", which is not registered`);
  const r = e.run(preset, params, seed, rowRunProgress);
  memo.set(key, r);
  if (memo.size > MEMO_SIZE) memo.delete(memo.keys().next().value as string);
  return r;
}

/** Copies finding `key` of a result into `out[name]` when the result has it. */
export function take(out: Measured, name: string, r: ExperimentResult, key: string): void {
  const v = r.findings.find((f) => f.key === key)?.value;
  if (v !== undefined) out[name] = v;
}

/** `ref` with the cause, measured and documented, of the model missing its value (Reference.knownDeviation). */
export function known(ref: Reference, why: string): Reference {
  return { ...ref, knownDeviation: why };
}
