import { cacheStructure } from './cache-structure';
import { clock } from './clock';
import { constantHierarchy } from './constant-hierarchy';
import { globalLatencyPatterns } from './global-latency-patterns';
import { pchaseAverage } from './pchase-average';
import { pchaseFine } from './pchase-fine';
import { sharedBankStride } from './shared-bank-stride';
import { textureSetMapping } from './texture-set-mapping';
import { tlbProbes } from './tlb-probes';
import type { Experiment } from './types';

export type { Experiment, ExperimentResult, ParamSpec, ParamValues, Series, Table, Finding, Trace, Progress } from './types';
export { ExperimentError } from './types';
export { resolveParams, parseBytes, formatBytes } from './params';

/** The catalogue of experiments, in the order a lab session meets them. */
export const EXPERIMENTS: readonly Experiment[] = [
  pchaseAverage,
  pchaseFine,
  cacheStructure,
  sharedBankStride,
  globalLatencyPatterns,
  tlbProbes,
  textureSetMapping,
  constantHierarchy,
  clock,
];

export function findExperiment(id: string): Experiment | undefined {
  return EXPERIMENTS.find((e) => e.id === id);
}
