import type { Preset } from '../presets/types';
import { simulate } from '../timing/engine';
import type { Kernel, SchedulerChoice, TimingConfig, TimingStats } from '../timing/types';
import { STALL_REASONS } from '../timing/types';
import type { ParamSpec, Progress, Series, Table } from './types';
import { ExperimentError, MAX_ACCESSES } from './types';

/** Parts the LASH experiments (lash-stencil, lash-apps, lash-sensitivity, timing-sweep) share. */

export const TYPES_PARAM: ParamSpec = {
  name: 'types',
  label: 'Element sizes',
  unit: 'B',
  kind: 'integer-list',
  default: [4, 2, 1],
  min: 1,
  max: 16,
  maxItems: 5,
  description: 'Bytes per array element, one run each: 4 int, 2 short, 1 char (LASH II).',
};

export const L1_PARAM: ParamSpec = {
  name: 'l1',
  label: 'L1 data cache',
  unit: '',
  kind: 'enum',
  default: 'hw',
  options: ['hw', 'bypass'],
  description: "'hw': global loads cached in the SM's L1 (Fermi default); 'bypass': L1 off, loads go to L2 in 32 B segments.",
};

export const SCHEDULER_PARAM: ParamSpec = {
  name: 'scheduler',
  label: 'Warp scheduler',
  unit: '',
  kind: 'enum',
  default: 'preset',
  options: ['preset', 'lrr', 'gto'],
  description:
    "'preset': the GPU's own policy (greedy-then-oldest on fermi480, as GPGPU-Sim 3.2.2's GTX 480 configuration that LASH ran; loose round-robin where a preset names none); 'lrr' or 'gto' to run another as a what-if.",
};

export const EPOCH_PARAM: ParamSpec = {
  name: 'epochCycles',
  label: 'Epoch length',
  unit: 'cycles',
  kind: 'integer',
  default: 1000,
  min: 10,
  max: 1_000_000,
  description: 'Cycles per point of the MSHR-occupancy and stall series.',
};

/** int, short, char for 4, 2, 1 bytes (LASH's names); "N B" otherwise. */
export function typeName(bytes: number): string {
  return bytes === 4 ? 'int' : bytes === 2 ? 'short' : bytes === 1 ? 'char' : `${bytes} B`;
}

export function timingOf(preset: Preset): TimingConfig {
  if (!preset.timing)
    throw new ExperimentError(`${preset.name} has no timing data (Preset.timing); the timing tier needs SMs, caches with MSHRs, interconnect and DRAM`);
  return preset.timing;
}

/** Warp memory instructions of the kernels: the work estimate of a timing run. */
export function warpAccesses(kernels: Kernel[]): number {
  let total = 0;
  const count = (body: Kernel['body']): number =>
    body.reduce((s, i) => s + (i.op === 'ld' || i.op === 'st' ? 1 : i.op === 'loop' ? i.count * count(i.body) : 0), 0);
  for (const k of kernels) total += k.grid * Math.ceil(k.block / 32) * count(k.body);
  return total;
}

export function checkTimingWork(accesses: number): void {
  if (accesses * 32 > MAX_ACCESSES)
    throw new ExperimentError(
      `this run would simulate about ${((accesses * 32) / 1e6).toFixed(0)} M thread accesses, over the limit of ${MAX_ACCESSES / 1e6} M; use fewer elements, iterations or types`,
    );
}

/** Runs one simulation as step `index` of `steps`, reporting progress within it. */
export function runStep(
  config: TimingConfig,
  kernels: Kernel[],
  opts: { l1: 'hw' | 'bypass'; scheduler: SchedulerChoice; epochCycles?: number; seed: number },
  progress: Progress,
  index: number,
  steps: number,
  phase: string,
): TimingStats {
  const scale = 1000;
  progress(index * scale, steps * scale, phase);
  return simulate(config, kernels, {
    l1: opts.l1,
    scheduler: opts.scheduler,
    epochCycles: opts.epochCycles ?? 1000,
    maxCycles: 2e9,
    seed: opts.seed,
    progress: (done, total) => progress(index * scale + Math.floor((scale * done) / Math.max(1, total)), steps * scale, phase),
  });
}

/** A bar series over categories. */
export function bars(name: string, categories: string[], y: number[], yLabel: string, yUnit: string, group: string, stack?: string): Series {
  return {
    name,
    x: Float64Array.from(categories.map((_, i) => i)),
    y: Float64Array.from(y),
    xLabel: 'Type',
    xUnit: '',
    yLabel,
    yUnit,
    style: 'bar',
    xCategories: categories,
    group,
    ...(stack ? { stack } : {}),
  };
}

/** Memory requests: what left the SMs for the memory system (L1 misses and stores, or every
 *  request with L1 off), i.e. the requests that reached L2 (LASH Fig 5a). */
export function memoryRequests(s: TimingStats): number {
  return s.requests.l2;
}

/**
 * True when a configuration with an L1 miss queue (`TimingConfig.missQueue`, GPGPU-Sim's) lost LSU
 * cycles to it: a fifth stall reason beside LASH Fig 6's four, shown only then.
 */
export function hasMissQueueStalls(stats: TimingStats[]): boolean {
  return stats.some((s) => (s.missQueueStalls ?? 0) > 0);
}

/** The per-run table every LASH experiment shows. */
export function statsTable(name: string, labels: string[], stats: TimingStats[]): Table {
  const withMissQueue = hasMissQueueStalls(stats);
  return {
    name,
    columns: [
      { key: 'run', label: 'Run' },
      { key: 'cycles', label: 'Time', unit: 'cycles' },
      { key: 'instructions', label: 'Warp instructions' },
      { key: 'ipc', label: 'IPC', unit: 'warp instr/cycle' },
      { key: 'l1', label: 'L1 requests' },
      { key: 'l2', label: 'L2 requests' },
      { key: 'dram', label: 'DRAM requests' },
      { key: 'l1Miss', label: 'L1 miss rate', unit: '%' },
      { key: 'dramUtil', label: 'DRAM utilisation', unit: '%' },
      { key: 'latency', label: 'Load latency', unit: 'cycles' },
      { key: 'fetch', label: 'Fetch latency', unit: 'cycles' },
      ...STALL_REASONS.map((r) => ({ key: r, label: `${r} stalls`, unit: 'cycles' })),
      ...(withMissQueue ? [{ key: 'missqueue', label: 'missqueue stalls', unit: 'cycles' }] : []),
    ],
    rows: stats.map((s, i) => ({
      run: labels[i],
      cycles: s.cycles,
      instructions: s.warpInstructions,
      ipc: +s.ipc.toFixed(3),
      l1: s.requests.l1,
      l2: s.requests.l2,
      dram: s.requests.dram,
      l1Miss: +(100 * s.missRate.l1).toFixed(2),
      dramUtil: +(100 * s.dramUtilisation).toFixed(2),
      latency: +s.avgMemLatency.toFixed(1),
      fetch: +(s.avgFetchLatency ?? 0).toFixed(1),
      ...Object.fromEntries(STALL_REASONS.map((r) => [r, s.stalls[r]])),
      ...(withMissQueue ? { missqueue: s.missQueueStalls ?? 0 } : {}),
    })),
  };
}

/** Percent by which `a` exceeds `b` (a / b - 1), rounded to 0.1. */
export function pctOver(a: number, b: number): number {
  return +((100 * (a / b - 1)).toFixed(1));
}

/** Percent by which `a` is below `b` (1 - a / b), rounded to 0.1. */
export function pctUnder(a: number, b: number): number {
  return +((100 * (1 - a / b)).toFixed(1));
}
