/**
 * The checks a run passes before it is queued: a known experiment, parameters its schema accepts,
 * the experiment's own checks against the preset (Experiment.check: a TPC the GPU has, a stride
 * within the array, threads an SM holds), a seed, and work within MAX_ACCESSES. The same src-sim code (resolveParams, estimate, checkWork)
 * that the worker runs, so a run that is queued fails in the worker only for reasons a run can
 * meet while running.
 */
import { EXPERIMENTS } from '../../../src-sim/experiments';
import { resolveParams } from '../../../src-sim/experiments/params';
import { checkWork } from '../../../src-sim/experiments/pchase';
import type { Experiment, ParamValues } from '../../../src-sim/experiments/types';
import { ExperimentError } from '../../../src-sim/experiments/types';
import type { Preset } from '../../../src-sim/presets/types';

export interface RunSpec {
  experiment: string;
  preset: Preset;
  /** As the user gave them (strings such as "4KB" allowed); defaults fill the rest. */
  params?: Record<string, unknown>;
  seed: number;
}

export interface ValidRun {
  experiment: Experiment;
  /** Resolved: defaults filled in, sizes in bytes. */
  params: ParamValues;
  /** Estimated simulated accesses. */
  estimate: number;
}

/** Throws ExperimentError (naming the parameter) when the run cannot be queued. */
export function validateRun(spec: RunSpec, experiments: readonly Experiment[] = EXPERIMENTS): ValidRun {
  const experiment = experiments.find((e) => e.id === spec.experiment);
  if (!experiment) throw new ExperimentError(`unknown experiment "${String(spec.experiment).slice(0, 80)}"; known: ${experiments.map((e) => e.id).join(', ')}`, 'experiment');
  if (!Number.isInteger(spec.seed) || spec.seed < 0 || spec.seed > 0xffffffff)
    throw new ExperimentError(`the seed is ${spec.seed}; allowed: a whole number from 0 to 4294967295`, 'seed');
  const params = resolveParams(experiment.params, spec.params ?? {});
  experiment.check?.(spec.preset, params);
  const estimate = experiment.estimate(spec.preset, params);
  checkWork(estimate);
  return { experiment, params, estimate };
}
