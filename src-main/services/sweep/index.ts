export { clip, SweepService, SweepRefusal, planHash, planName, setField, variantName } from './service';
export type { ResolvedPoint, SweepDeps } from './service';
export { collectSweep, planFromText, pointsToResubmit, saveMissingPresets, SweepCollector } from './collect';
export type { CollectState, CollectTally } from './collect';
export { ARRAY_LIST_CHARS, ARRAY_MAX_LIMIT, arrayParts, DEFAULT_ARRAY_MAX, resubmitScripts, scriptArrayMax, slurmScript, submitScript } from './slurm';
export type { ArrayPart, Resubmit, ScriptOptions } from './slurm';
