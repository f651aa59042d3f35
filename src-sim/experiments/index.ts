import { cacheStructure } from './cache-structure';
import { clock } from './clock';
import { constantHierarchy } from './constant-hierarchy';
import { globalLatencyPatterns } from './global-latency-patterns';
import { launchSweep } from './launch-sweep';
import { lashApps } from './lash-apps';
import { lashMlp } from './lash-mlp';
import { lashSensitivity } from './lash-sensitivity';
import { lashStencil } from './lash-stencil';
import { pchaseAverage } from './pchase-average';
import { pchaseFine } from './pchase-fine';
import { sharedBankStride } from './shared-bank-stride';
import { simtDivergence } from './simt-divergence';
import { simtKernel } from './simt-kernel';
import { simtSync } from './simt-sync';
import { sl1Apps } from './sl1-apps';
import { sl1Throughput } from './sl1-throughput';
import { sl1WcL1 } from './sl1-wc-l1';
import { textureSetMapping } from './texture-set-mapping';
import { timingSweep } from './timing-sweep';
import { tlbProbes } from './tlb-probes';
import { wongArith } from './wong-arith';
import { wongConstBw } from './wong-const-bw';
import { wongIcache } from './wong-icache';
import { wongRegfile } from './wong-regfile';
import { wongWarps } from './wong-warps';
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
  lashStencil,
  lashApps,
  lashSensitivity,
  lashMlp,
  timingSweep,
  sl1Throughput,
  sl1WcL1,
  sl1Apps,
  launchSweep,
  simtKernel,
  simtDivergence,
  simtSync,
  wongArith,
  wongWarps,
  wongRegfile,
  wongIcache,
  wongConstBw,
];

export function findExperiment(id: string): Experiment | undefined {
  return EXPERIMENTS.find((e) => e.id === id);
}
