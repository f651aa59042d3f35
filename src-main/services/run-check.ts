/**
 * Whether a run from outside (a bundle, a sweep's folder) is a run this version can read as what it
 * says it is: an experiment it knows, with parameters that experiment takes (a real run: the ones its
 * CUDA program takes). A run whose label and contents disagree (one experiment's result under
 * another's id) carries the other experiment's parameters and is refused here, before it is stored
 * and paired with that experiment's paper values.
 */
import { EXPERIMENTS } from '../../src-sim/experiments';
import { resolveParams } from '../../src-sim/experiments/params';
import { GPU_EXPERIMENTS, resolveGpuParams } from '../../src-sim/cuda/params';
import { LabError } from '../contract';

export interface CheckedRun {
  id: string;
  experiment: string;
  params: Record<string, unknown>;
  real?: boolean;
  device?: unknown;
}

/** Why the run cannot be taken as what it says it is, or null. */
export function importedRunProblem(run: CheckedRun): string | null {
  const real = Boolean(run.real || run.device);
  const list = real ? GPU_EXPERIMENTS : EXPERIMENTS;
  const known = list.find((e) => e.id === run.experiment);
  if (!known) {
    const names = list.map((e) => e.id).join(', ');
    return real
      ? `its experiment "${run.experiment.slice(0, 60)}" has no real-GPU program in this version (these do: ${names})`
      : `its experiment "${run.experiment.slice(0, 60)}" is not one this version knows (it knows: ${names})`;
  }
  try {
    // A real run's parameters as its CUDA program takes them (the program's own checks included).
    if (real) resolveGpuParams(known.id, run.params);
    else resolveParams(known.params, run.params);
  } catch (err) {
    return `its parameters are not those of ${known.id}: ${(err as Error).message.slice(0, 200)}`;
  }
  return null;
}

/** Throws invalid-bundle for a run importedRunProblem refuses. */
export function checkImportedRun(run: CheckedRun): void {
  const why = importedRunProblem(run);
  if (why) throw new LabError('invalid-bundle', `run ${run.id} cannot be imported: ${why}`);
}
