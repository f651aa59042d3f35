import { findExperiment } from '../experiments';
import type { ExperimentResult, ParamValues } from '../experiments/types';
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

/** Runs one experiment for a row (or reuses an identical run) and records it among the row's runs. */
export function memoRun(runs: RowResult['runs'], experiment: string, preset: Preset, params: ParamValues, seed: number): ExperimentResult {
  runs.push({ experiment, params });
  const key = JSON.stringify([experiment, preset, params, seed]);
  const hit = memo.get(key);
  if (hit) return hit;
  const e = findExperiment(experiment);
  if (!e) throw new Error(`row needs experiment "${experiment}", which is not registered`);
  const r = e.run(preset, params, seed, () => {});
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
