import { matmulKernels, matmulSizeProblem, stencilKernels, stereoKernels } from '../timing/workloads/lash';
import type { Kernel, SchedulerChoice, TimingConfig, TimingStats } from '../timing/types';
import { checkTimingConfig } from '../timing/engine';
import { LINEAR_FALLBACK, withL1Sets } from '../timing/tcache';
import { resolveParams } from './params';
import { checkTimingWork, L1_PARAM, pctOver, runStep, SCHEDULER_PARAM, statsTable, timingOf, warpAccesses } from './lash-common';
import type { Experiment, ParamSpec, ParamValues, Series } from './types';
import { ExperimentError } from './types';

/**
 * "What if": one workload on the preset with one timing parameter set to each of a list of values.
 * The parameter is one of a fixed list of paths into Preset.timing.
 */

export const SWEEP_PATHS = [
  'l1.mshrEntries',
  'l1.mshrMergers',
  'l1.sets',
  'l1.ways',
  'l1.hitLatency',
  'l2.mshrEntries',
  'l2.mshrMergers',
  'l2.hitLatency',
  'l2.partitions',
  'interconnect.latency',
  'interconnect.bytesPerCyclePerSM',
  'dram.latency',
  'dram.bytesPerCycle',
  'dram.channels',
  'aluLatency',
  'schedulers',
  'maxWarpsPerSM',
  'sms',
] as const;

const params: ParamSpec[] = [
  { name: 'workload', label: 'Workload', unit: '', kind: 'enum', default: 'stencil', options: ['stencil', 'matmul', 'stereo'], description: "One of LASH's applications (the stencil with 4 iterations)." },
  { name: 'elemBytes', label: 'Element size', unit: 'B', kind: 'integer', default: 4, min: 1, max: 16, description: 'Bytes per element (4 int, 2 short, 1 char).' },
  { name: 'size', label: 'Problem size', unit: 'elements / rows / pixels', kind: 'integer', default: 131072, min: 16, max: 16 * 1024 * 1024, description: 'Stencil elements, matrix rows, or image side.' },
  { name: 'path', label: 'Parameter', unit: '', kind: 'enum', default: 'l1.mshrMergers', options: SWEEP_PATHS, description: 'The timing parameter of the preset to vary.' },
  { name: 'values', label: 'Values', unit: '', kind: 'integer-list', default: [2, 4, 8, 16, 32], min: 1, max: 1_000_000, maxItems: 16, description: 'Values the parameter takes, one run each.' },
  L1_PARAM,
  SCHEDULER_PARAM,
];

function kernels(p: ParamValues): Kernel[] {
  const e = p.elemBytes as number;
  const n = p.size as number;
  if (p.workload === 'matmul') {
    if (n > 1024) throw new ExperimentError('parameter "size" is the matrix side for matmul: at most 1024', 'size');
    const problem = matmulSizeProblem(n);
    if (problem) throw new ExperimentError(`parameter "size" is the matrix side for matmul: ${problem}`, 'size');
    return matmulKernels({ n, block: 256, type: 'int', elemBytes: e });
  }
  if (p.workload === 'stereo') {
    if (n > 2048) throw new ExperimentError('parameter "size" is the image side for stereo: at most 2048', 'size');
    return stereoKernels({ width: n, height: n, labels: 16, block: 64, type: 'int', elemBytes: e });
  }
  return stencilKernels({ n: Math.max(1024, n), iterations: 4, block: 256, type: 'int', elemBytes: e });
}

/** A copy of the config with one dotted path set. */
export function withPath(cfg: TimingConfig, path: string, value: number): TimingConfig {
  const copy = JSON.parse(JSON.stringify(cfg)) as Record<string, unknown>;
  const parts = path.split('.');
  let cur = copy;
  for (const part of parts.slice(0, -1)) {
    const next = cur[part];
    if (!next || typeof next !== 'object') throw new ExperimentError(`the preset's timing data has no "${parts.slice(0, -1).join('.')}" (no L1?)`, 'path');
    cur = next as Record<string, unknown>;
  }
  cur[parts[parts.length - 1]] = value;
  return copy as unknown as TimingConfig;
}

export const timingSweep: Experiment = {
  id: 'timing-sweep',
  title: 'Timing: what if a parameter changed',
  description: 'Runs one workload with one timing parameter of the preset (MSHRs, mergers, sets, ways, latencies, bandwidths, warps, SMs) set to each value of a list, and plots the time.',
  reproduces: [],
  params,
  estimate(_preset, raw) {
    const p = resolveParams(params, raw);
    return (p.values as number[]).length * warpAccesses(kernels(p)) * 32;
  },
  run(preset, raw, seed, progress) {
    const p = resolveParams(params, raw);
    const base = timingOf(preset);
    const values = p.values as number[];
    const ks = kernels(p);
    checkTimingWork(values.length * warpAccesses(ks));
    const path = p.path as string;
    const linear: number[] = [];
    const cfgs = values.map((v) => {
      const c = withPath(base, path, v);
      if (path === 'l1.sets' && c.l1) {
        c.l1 = withL1Sets(c.l1, v);
        if (c.l1.setIndex !== base.l1?.setIndex) linear.push(v);
      }
      const problems = checkTimingConfig(c);
      if (problems.length) throw new ExperimentError(`${path} = ${v}: ${problems.join('; ')}`, 'values');
      return c;
    });
    const stats: TimingStats[] = cfgs.map((c, i) =>
      runStep(c, ks, { l1: p.l1 as 'hw' | 'bypass', scheduler: p.scheduler as SchedulerChoice, seed }, progress, i, values.length, `${path} = ${values[i]}`),
    );
    progress(1, 1, 'done');
    const x = Float64Array.from(values);
    const series: Series[] = [
      { name: 'Execution time', x, y: Float64Array.from(stats.map((s) => s.cycles)), xLabel: path, xUnit: '', yLabel: 'Execution time', yUnit: 'cycles', style: 'line', group: 'time' },
      { name: 'IPC', x, y: Float64Array.from(stats.map((s) => s.ipc)), xLabel: path, xUnit: '', yLabel: 'Warp instructions per cycle', yUnit: '', style: 'line', group: 'ipc' },
    ];
    const c = stats.map((s) => s.cycles);
    const best = c.indexOf(Math.min(...c));
    return {
      series,
      tables: [statsTable(`${p.workload} (${p.elemBytes} B elements) vs ${path}`, values.map((v) => `${path} = ${v}`), stats)],
      findings: [
        { key: 'sweep.bestValue', label: `Fastest ${path}`, value: values[best], unit: '', evidence: `${c[best]} cycles` },
        { key: 'sweep.range', label: 'Slowest over fastest', value: pctOver(Math.max(...c), Math.min(...c)), unit: '%', evidence: `${Math.min(...c)} to ${Math.max(...c)} cycles` },
      ],
      notes: [
        `Baseline ${path} = ${String(path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], base))}.`,
        ...(linear.length ? [`${linear.join(', ')} sets: ${LINEAR_FALLBACK}.`] : []),
      ],
    };
  },
};
