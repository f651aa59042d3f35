export { SweepService, SweepRefusal, planHash, planName, setField } from './service';
export type { ResolvedPoint, SweepDeps } from './service';
