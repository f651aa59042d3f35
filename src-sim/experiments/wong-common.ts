import type { CoreConfig, CoreOp } from '../core/types';
import type { Preset } from '../presets/types';
import { ExperimentError } from './types';

/** The preset's core model, or the error every core experiment gives without one. */
export function coreOf(preset: Preset): CoreConfig {
  if (!preset.core)
    throw new ExperimentError(`${preset.name} has no core model (Preset.core): WONG measured the arithmetic pipelines, register file and instruction caches on GT200 only`);
  return preset.core;
}

/** An operation of the preset's core by id. */
export function opOf(core: CoreConfig, preset: Preset, id: string, param = 'op'): CoreOp {
  const op = core.ops.find((o) => o.id === id);
  if (!op) throw new ExperimentError(`${preset.name}'s core model has no operation "${id}"; it has ${core.ops.map((o) => o.id).join(', ')}`, param);
  return op;
}

/** Operations each unit's Table II figures are read from: the ones WONG's tables put on that unit alone. */
export const UNIT_PROBES = { sp: 'int.add', sfu: '__log2f', dpu: 'double.add' } as const;
