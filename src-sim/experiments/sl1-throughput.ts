import type { Preset } from '../presets/types';
import { simulate } from '../timing/engine';
import type { Kernel, SchedulerChoice, TimingConfig, TimingStats } from '../timing/types';
import { sharedThroughputBytes, sharedThroughputKernel, throughputKernel } from '../timing/workloads/sl1-bench';
import { resolveParams } from './params';
import { checkSl1Work, timingOf } from './sl1-common';
import type { Experiment, Finding, ParamSpec, Series, Table } from './types';
import { ExperimentError } from './types';

/**
 * SL1 2.3.1: memory throughput of the Titan's hierarchy as bytes moved over the interconnect per
 * second (Figs 5, 6), and shared-memory throughput. Threads read disjoint subsets, n-way coalesced,
 * either from data resident in the L2 (the kernel runs twice; the second launch is measured) or from
 * data never reused (every access reaches DRAM). GB/s = bytes / cycles x core clock.
 */

const params: ParamSpec[] = [
  { name: 'coalescing', label: 'Coalescing degree', unit: 'way', kind: 'integer', default: 4, min: 1, max: 32, description: 'n-way coalesced: n of a warp\'s accesses fall in one 128 B region (SL1 2.1; Figs 5, 6 use 4).' },
  { name: 'threads', label: 'Threads per block (F5)', unit: 'threads', kind: 'integer-list', default: [64, 128, 256, 384, 512, 640, 768, 1024], min: 32, max: 1024, maxItems: 32, description: 'x axis of Fig 5 (L2 throughput vs threads per block).' },
  { name: 'blockCurves', label: 'Blocks (F5 curves)', unit: 'blocks', kind: 'integer-list', default: [1, 4, 8, 15], min: 1, max: 64, maxItems: 16, description: 'One Fig 5 curve per number of blocks.' },
  { name: 'maxBlocks', label: 'Blocks (F6 axis)', unit: 'blocks', kind: 'integer', default: 15, min: 1, max: 64, description: 'Fig 6 runs 1..maxBlocks blocks of 1024 threads.' },
  { name: 'iterations', label: 'Iterations per thread', unit: 'iterations', kind: 'integer', default: 16, min: 2, max: 4096, description: 'Loop iterations each thread runs per launch.' },
  { name: 'unroll', label: 'Loads in flight per thread', unit: 'loads', kind: 'integer', default: 2, min: 1, max: 16, description: 'Independent loads per iteration (the benchmark reads "as quickly as possible", SL1 2.3.1; assumed 2).' },
  { name: 'scheduler', label: 'Warp scheduler', unit: '', kind: 'enum', default: 'preset', options: ['preset', 'lrr', 'gto'], description: "'preset': the GPU's own policy (the preset's warpScheduler); 'lrr' (loose round-robin) or 'gto' (greedy-then-oldest) as a what-if." },
];

const GB = 1e9;

function gbps(bytes: number, cycles: number, cfg: TimingConfig): number {
  return cycles > 0 ? (bytes / cycles) * cfg.clocks.coreMHz * 1e6 / GB : 0;
}

function run(cfg: TimingConfig, kernels: Kernel[], scheduler: SchedulerChoice, seed: number): TimingStats {
  return simulate(cfg, kernels, { l1: 'bypass', scheduler, seed, maxCycles: 5e8, epochCycles: 100_000 });
}

/** Interconnect GB/s of one launch of `k`: from L2 (second of two launches) or DRAM (one launch). */
export function throughputOf(cfg: TimingConfig, k: Kernel, source: 'l2' | 'dram', scheduler: SchedulerChoice, seed: number): number {
  if (source === 'dram') {
    const s = run(cfg, [k], scheduler, seed);
    return gbps(s.bytes.interconnect, s.cycles, cfg);
  }
  const one = run(cfg, [k], scheduler, seed);
  const two = run(cfg, [k, k], scheduler, seed);
  return gbps(two.bytes.interconnect - one.bytes.interconnect, two.cycles - one.cycles, cfg);
}

/** First x whose y reaches `frac` of the curve's last value. */
export function knee(x: readonly number[], y: readonly number[], frac = 0.9): number {
  const top = y[y.length - 1];
  for (let i = 0; i < x.length; i++) if (y[i] >= frac * top) return x[i];
  return x[x.length - 1];
}

export const sl1Throughput: Experiment = {
  id: 'sl1-throughput',
  title: 'L2, DRAM and shared-memory throughput (SL1 2.3.1, Figs 5, 6)',
  description:
    'Threads read disjoint subsets of an array, n-way coalesced, from the L2 or from DRAM; throughput is the bytes moved over the interconnect per second, against threads per block (Fig 5) and blocks of 1024 threads (Fig 6). Shared memory: conflict-free reads of a shared array.',
  reproduces: ['SL1-F5', 'SL1-F6', 'SL1-SHM'],
  params,
  estimate(preset, raw) {
    const p = resolveParams(params, raw);
    const it = (p.iterations as number) * (p.unroll as number);
    const curves = (p.blockCurves as number[]).reduce((s, b) => s + (p.threads as number[]).reduce((t, n) => t + 3 * b * n, 0), 0);
    return it * (curves + 4 * 1024 * ((p.maxBlocks as number) * ((p.maxBlocks as number) + 1)) / 2);
  },
  run(preset: Preset, raw, seed, progress) {
    const p = resolveParams(params, raw);
    const cfg = timingOf(preset);
    checkSl1Work(this.estimate(preset, p), 'use fewer iterations, thread counts or blocks');
    const n = p.coalescing as number;
    const iterations = p.iterations as number;
    const unroll = p.unroll as number;
    const scheduler = p.scheduler as SchedulerChoice;
    const threads = [...(p.threads as number[])].sort((a, b) => a - b);
    const curves = p.blockCurves as number[];
    const maxBlocks = p.maxBlocks as number;
    if (threads.some((t) => t > cfg.maxThreadsPerSM)) throw new ExperimentError(`threads per block above ${cfg.maxThreadsPerSM}`, 'threads');
    const total = curves.length * threads.length + maxBlocks * 3;
    let done = 0;
    const tick = (phase: string): void => progress(++done, total, phase);
    const series: Series[] = [];
    // Fig 5: L2 throughput vs threads per block.
    const f5: Record<number, number[]> = {};
    for (const b of curves) {
      f5[b] = threads.map((t) => {
        const v = throughputOf(cfg, throughputKernel({ blocks: b, threadsPerBlock: t, coalescing: n, source: 'l2', iterations, unroll }), 'l2', scheduler, seed);
        tick('Fig 5');
        return v;
      });
      series.push({ name: `${b} block${b > 1 ? 's' : ''}`, x: threads, y: f5[b], xLabel: 'threads per block', xUnit: 'threads', yLabel: 'L2 throughput', yUnit: 'GB/s', group: 'Fig 5: L2 throughput vs threads per block' });
    }
    // Fig 6: L2 and DRAM throughput vs blocks of 1024 threads; shared memory alongside.
    const blocks = Array.from({ length: maxBlocks }, (_, i) => i + 1);
    const tpb = Math.min(1024, cfg.maxThreadsPerSM);
    const l2 = blocks.map((b) => {
      const v = throughputOf(cfg, throughputKernel({ blocks: b, threadsPerBlock: tpb, coalescing: n, source: 'l2', iterations, unroll }), 'l2', scheduler, seed);
      tick('Fig 6 L2');
      return v;
    });
    const dram = blocks.map((b) => {
      const v = throughputOf(cfg, throughputKernel({ blocks: b, threadsPerBlock: tpb, coalescing: n, source: 'dram', iterations, unroll }), 'dram', scheduler, seed);
      tick('Fig 6 DRAM');
      return v;
    });
    const shm = blocks.map((b) => {
      const o = { blocks: b, threadsPerBlock: tpb, iterations, unroll };
      const s = run(cfg, [sharedThroughputKernel(o)], scheduler, seed);
      tick('shared memory');
      return gbps(sharedThroughputBytes(o), s.cycles, cfg);
    });
    const g6 = 'Fig 6: throughput vs blocks of 1024 threads';
    series.push(
      { name: 'L2', x: blocks, y: l2, xLabel: 'thread blocks', xUnit: 'blocks', yLabel: 'throughput', yUnit: 'GB/s', group: g6 },
      { name: 'DRAM', x: blocks, y: dram, xLabel: 'thread blocks', xUnit: 'blocks', yLabel: 'throughput', yUnit: 'GB/s', group: g6 },
      { name: 'shared memory', x: blocks, y: shm, xLabel: 'thread blocks', xUnit: 'blocks', yLabel: 'shared-memory throughput', yUnit: 'GB/s', group: 'Shared memory throughput vs blocks' },
    );
    const one = f5[curves.includes(1) ? 1 : curves[0]];
    const findings: Finding[] = [
      { key: 'l2.oneBlockGBs', label: 'L2 throughput, one block at its widest', value: +one[one.length - 1].toFixed(1), unit: 'GB/s', evidence: `Fig 5 curve "${curves.includes(1) ? 1 : curves[0]} block", ${threads[threads.length - 1]} threads` },
      { key: 'l2.oneBlockKneeThreads', label: 'Threads where one block reaches 90 % of its plateau', value: knee(threads, one), unit: 'threads', evidence: 'Fig 5, first point at 90 % of the last' },
      { key: 'l2.maxBlocksGBs', label: `L2 throughput, ${maxBlocks} blocks`, value: +l2[l2.length - 1].toFixed(1), unit: 'GB/s', evidence: 'Fig 6 L2 curve, last point' },
      { key: 'l2.linearity', label: 'L2 throughput at max blocks / (blocks x one block)', value: +(l2[l2.length - 1] / (maxBlocks * l2[0])).toFixed(3), unit: '', evidence: 'Fig 6 L2 curve, last point over the first times blocks' },
      { key: 'dram.peakGBs', label: 'DRAM throughput, peak', value: +Math.max(...dram).toFixed(1), unit: 'GB/s', evidence: 'Fig 6 DRAM curve, maximum' },
      { key: 'dram.kneeBlocks', label: 'Blocks where DRAM reaches 90 % of its last value', value: knee(blocks, dram), unit: 'blocks', evidence: 'Fig 6 DRAM curve' },
      { key: 'shm.perSMGBs', label: 'Shared-memory throughput of one SMX', value: +shm[0].toFixed(1), unit: 'GB/s', evidence: 'shared-memory curve, 1 block' },
      { key: 'shm.totalGBs', label: `Shared-memory throughput, ${maxBlocks} blocks`, value: +shm[shm.length - 1].toFixed(1), unit: 'GB/s', evidence: 'shared-memory curve, last point' },
    ];
    const table: Table = {
      name: 'Fig 6 and shared memory',
      columns: [
        { key: 'blocks', label: 'blocks' },
        { key: 'l2', label: 'L2', unit: 'GB/s' },
        { key: 'dram', label: 'DRAM', unit: 'GB/s' },
        { key: 'shm', label: 'shared', unit: 'GB/s' },
      ],
      rows: blocks.map((b, i) => ({ blocks: b, l2: +l2[i].toFixed(1), dram: +dram[i].toFixed(1), shm: +shm[i].toFixed(1) })),
    };
    return {
      series,
      tables: [table],
      findings,
      notes: [
        `${n}-way coalesced 4 B loads, ${iterations} iterations of ${unroll} per thread; L2 data: two launches, the second measured; DRAM data: each load a fresh 32 B sector.`,
        'Throughput counts bytes over the interconnect (SL1 2.3.1: "measured as the number of bytes transferred over the network").',
      ],
    };
  },
};
