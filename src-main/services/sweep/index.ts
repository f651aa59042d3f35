export { clip, PRESET_NAME_CHARS, SweepService, SweepRefusal, planHash, planName, setField, variantName } from './service';
export type { ResolvedPoint, SweepDeps } from './service';
