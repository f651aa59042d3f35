import { timingOf } from '../experiments/sl1-common';
import type { ParamValues } from '../experiments/types';
import { simulate } from '../timing/engine';
import { chooseStructures, monitorKernel, sl1Capacity, type StructureStats } from '../timing/sl1';
import type { Instr, Kernel, TimingConfig } from '../timing/types';
import { SL1_APPS } from '../timing/workloads/sl1-apps';
import { calibrated, PREDICTED, predictedBecause, specification } from './kinds';
import { known, memoRun, take, type Measured } from './row-runs';
import type { Reference, ReproductionRow, RowResult } from './types';

/**
 * SL1 (Mokhtari and Stumm 2015) rows on the Titan preset. Measured values are findings of the
 * registered SL1 experiments (sl1-throughput, sl1-wc-l1, sl1-apps, launch-sweep), or, for the
 * isolated latencies, CLN and the monitoring rules, direct probes of the timing engine and of
 * S-L1's functions. Tolerances: latencies 5 %; relative figures within half of the paper's value
 * (speedups: half of the gain); orderings exact (REPRODUCTION.md).
 */

type Runs = RowResult['runs'];
const run = memoRun;

const lat = (name: string, v: number, citation: string): Reference => ({ name, value: v, unit: 'cycles', tolerance: 'latency', citation });
const exact = (name: string, v: number | string, unit: string, citation: string): Reference => ({ name, value: v, unit, tolerance: 'exact', citation });
const range = (name: string, v: number, r: [number, number], unit: string, citation: string): Reference => ({ name, value: v, unit, tolerance: 'range', range: r, citation });
const half = (name: string, v: number, unit: string, citation: string): Reference => ({ name, value: v, unit, tolerance: 'half', citation });
const gain = (name: string, v: number, citation: string): Reference => ({ name, value: v, unit: 'x', tolerance: 'half-gain', citation });

// ---- SL1-LAT: isolated latencies, one thread, cold caches -------------------------------------------

const ARR = 'a';
const probeKernel = (body: Instr[], shared = false): Kernel => ({
  name: 'latency probe',
  grid: 1,
  block: 1,
  arrays: [{ name: ARR, elemBytes: 4, length: 1024, space: shared ? 'shared' : 'global' }],
  body,
});
const load: Instr = { op: 'ld', array: ARR, index: { terms: [] }, dst: 1 };
const use: Instr = { op: 'alu', count: 1, uses: [1], dst: 2 };
const aluOnly: Instr = { op: 'alu', count: 1, dst: 2 };

/** Cycles the last kernel of `kernels` adds to the run. */
function duration(cfg: TimingConfig, warm: Kernel[], probe: Kernel, l1: 'hw' | 'bypass'): number {
  const o = { l1, scheduler: 'lrr' as const, seed: 1, maxCycles: 1e7, epochCycles: 1e6 };
  const before = warm.length ? simulate(cfg, warm, o).cycles : 0;
  return simulate(cfg, [...warm, probe], o).cycles - before;
}

/** Latency of one load: the probe's duration minus that of the same probe without the load. */
export function isolatedLatencies(cfg: TimingConfig): Measured {
  const base = (l1: 'hw' | 'bypass', warm: Kernel[], shared = false): number => duration(cfg, warm, probeKernel([aluOnly], shared), l1);
  const withLoad = (l1: 'hw' | 'bypass', warm: Kernel[], shared = false): number => duration(cfg, warm, probeKernel([load, use], shared), l1);
  const warmLoad = [probeKernel([load, use])];
  const out: Measured = {};
  out.registers = (duration(cfg, [], probeKernel([{ op: 'alu', count: 101, dst: 2 }]), 'bypass') - base('bypass', [])) / 100;
  if (cfg.l1) out.L1 = withLoad('hw', warmLoad) - base('hw', warmLoad);
  out.shared = withLoad('bypass', [], true) - base('bypass', [], true);
  out.L2 = withLoad('bypass', warmLoad) - base('bypass', warmLoad);
  out.DRAM = withLoad('bypass', []) - base('bypass', []);
  return out;
}

const SL1_LAT: ReproductionRow = {
  id: 'SL1-LAT',
  paper: 'SL1',
  title: 'Isolated access latencies: registers 10, L1 80, shared 80, L2 240, DRAM 350 cycles (SL1 2.1)',
  presets: ['titan'],
  kind: calibrated('the Titan preset\'s latencies were solved from these SL1 2.1 values'),
  references: () => [
    lat('registers', 10, 'SL1 2.1 (registers 10 cycles)'),
    lat('L1', 80, 'SL1 2.1 (L1 80 cycles)'),
    lat('shared', 80, 'SL1 2.1 (shared memory 80 cycles)'),
    lat('L2', 240, 'SL1 2.1 (L2 240 cycles)'),
    lat('DRAM', 350, 'SL1 2.1 (DRAM 350 cycles)'),
  ],
  measure(preset) {
    return { measured: isolatedLatencies(timingOf(preset)), runs: [] };
  },
};

// ---- F1, F5, F6, SHM ---------------------------------------------------------------------------------

const SL1_F1: ReproductionRow = {
  id: 'SL1-F1',
  paper: 'SL1',
  title: 'wc: hardware L1 hit rate near 127/128 with few threads, falling toward zero (SL1 Fig 1)',
  presets: ['titan'],
  kind: PREDICTED,
  references: () => [
    range('hit rate, fewest threads', 99.2, [95, 100], '%', 'SL1 Fig 1 caption (first access misses, the next 127 hit)'),
    range('hit rate, most threads', 0, [0, 10], '%', 'SL1 Fig 1 (with many threads 128 accesses can be 128 misses)'),
  ],
  measure(preset, seed) {
    const runs: Runs = [];
    const r = run(runs, 'sl1-wc-l1', preset, {}, seed);
    const out: Measured = {};
    take(out, 'hit rate, fewest threads', r, 'wc.hitRate.fewest');
    take(out, 'hit rate, most threads', r, 'wc.hitRate.most');
    return { measured: out, runs };
  },
};

const TP_PARAMS: ParamValues = { blockCurves: [1], threads: [64, 128, 256, 384, 512, 768, 1024] };

const SL1_F5: ReproductionRow = {
  id: 'SL1-F5',
  paper: 'SL1',
  title: 'L2 throughput of one block flattens after about 512 threads, a little under 32 GB/s (SL1 Fig 5)',
  presets: ['titan'],
  kind: calibrated('the per-SMX interconnect bandwidth was set from Fig 5\'s plateau'),
  references: () => [
    range('one block, 1024 threads', 31, [24, 32], 'GB/s', 'SL1 2.3.1, Fig 5 ("slightly less than 32 GB/s")'),
    range('flattens after', 512, [384, 768], 'threads', 'SL1 2.3.1, Fig 5 ("flattens out after about 512 threads")'),
  ],
  measure(preset, seed) {
    const runs: Runs = [];
    const r = run(runs, 'sl1-throughput', preset, TP_PARAMS, seed);
    const out: Measured = {};
    take(out, 'one block, 1024 threads', r, 'l2.oneBlockGBs');
    take(out, 'flattens after', r, 'l2.oneBlockKneeThreads');
    return { measured: out, runs };
  },
};

const SL1_F6: ReproductionRow = {
  id: 'SL1-F6',
  paper: 'SL1',
  title: 'L2 near-linear to about 480 GB/s at 15 blocks; DRAM near-linear to 10 blocks, then flat near 300 GB/s (SL1 Fig 6)',
  presets: ['titan'],
  kind: calibrated('the L2 and DRAM bandwidth caps were set from SL1 2.1 and Fig 6'),
  references: () => [
    half('L2, 15 blocks', 480, 'GB/s', 'SL1 2.3.1, Fig 6 ("close to 480 GB/s with 15 blocks")'),
    range('L2 linearity', 1, [0.9, 1.05], '', 'SL1 2.3.1, Fig 6 ("increases almost linearly")'),
    half('DRAM, peak', 307, 'GB/s', 'SL1 2.3.1 ("peak bandwidth of 307 GB/s with 15 blocks"), Fig 6'),
    range('DRAM flattens at', 10, [8, 12], 'blocks', 'SL1 2.3.1, Fig 6 ("up to 10 thread blocks at which point the bandwidth limits")'),
  ],
  measure(preset, seed) {
    const runs: Runs = [];
    const r = run(runs, 'sl1-throughput', preset, TP_PARAMS, seed);
    const out: Measured = {};
    take(out, 'L2, 15 blocks', r, 'l2.maxBlocksGBs');
    take(out, 'L2 linearity', r, 'l2.linearity');
    take(out, 'DRAM, peak', r, 'dram.peakGBs');
    take(out, 'DRAM flattens at', r, 'dram.kneeBlocks');
    return { measured: out, runs };
  },
};

const SL1_SHM: ReproductionRow = {
  id: 'SL1-SHM',
  paper: 'SL1',
  title: 'Shared-memory throughput about 60 GB/s per SMX, about 900 GB/s over 15 (SL1 2.3.1)',
  presets: ['titan'],
  kind: calibrated('the shared-memory bandwidth per SMX was set from SL1 2.1'),
  references: () => [
    half('one SMX', 60, 'GB/s', 'SL1 2.3.1 ("reaches 60GB/s")'),
    half('15 SMXs', 900, 'GB/s', 'SL1 2.3.1 ("close to 900GB/s with 15 SMXs")'),
  ],
  measure(preset, seed) {
    const runs: Runs = [];
    const r = run(runs, 'sl1-throughput', preset, TP_PARAMS, seed);
    const out: Measured = {};
    take(out, 'one SMX', r, 'shm.perSMGBs');
    take(out, '15 SMXs', r, 'shm.totalGBs');
    return { measured: out, runs };
  },
};

// ---- CLN, MON ------------------------------------------------------------------------------------------

const SL1_CLN: ReproductionRow = {
  id: 'SL1-CLN',
  paper: 'SL1',
  title: 'S-L1 lines per thread: floor((shared bytes per SM / threads per SM) / 16 B) (SL1 3.1)',
  presets: ['titan'],
  kind: specification('SL1 3.1\'s formula evaluated on the preset\'s shared memory and thread limits, no simulation'),
  references: () => [
    exact('lines, 2048 threads per SMX', 1, 'lines', 'SL1 3.1 formula with 48 KB shared (4.1), 2048 threads per SMX (2.1), 16 B lines (3.1)'),
    exact('lines, 1024 threads per SMX', 3, 'lines', 'SL1 3.1 formula, 48 KB / 1024 threads / 16 B'),
    exact('lines, 8 B, 2048 threads', 3, 'lines', 'SL1 3.1 formula with 8 B lines (4.5)'),
    exact('lines, Kmeans', 0, 'lines', 'SL1 4.2 (Kmeans leaves no shared memory for S-L1)'),
  ],
  measure(preset) {
    const cfg = timingOf(preset);
    const app = (id: string) => SL1_APPS.find((a) => a.id === id)!;
    const k = (id: string, threadsPerSM: number) => app(id).build({ shape: { grid: cfg.sms * Math.max(1, threadsPerSM / 256), block: Math.min(256, threadsPerSM) }, records: 64, config: cfg });
    return {
      measured: {
        'lines, 2048 threads per SMX': sl1Capacity(cfg, k('wc', 2048)).cln,
        'lines, 1024 threads per SMX': sl1Capacity(cfg, k('wc', 1024)).cln,
        'lines, 8 B, 2048 threads': sl1Capacity(cfg, k('wc', 2048), 8).cln,
        'lines, Kmeans': sl1Capacity(cfg, k('kmeans', 2048)).cln,
      },
      runs: [],
    };
  },
};

/** Probes the choice with one structure at hit rates 0..100 % (step 0.5): the lowest that is cached. */
function lowestCachedRate(): number {
  for (let h = 0; h <= 200; h++) {
    const s: StructureStats = { name: 'x', readWrite: false, elemBytes: 4, hits: h, misses: 200 - h, hitRate: h / 200 };
    if (chooseStructures([s], 1)[0].cached) return (100 * h) / 200;
  }
  return NaN;
}

/** Hits a read-write structure needs, over those of a read-only one with 100, to take a single line. */
function readWriteFactor(): number {
  const ro: StructureStats = { name: 'ro', readWrite: false, elemBytes: 4, hits: 100, misses: 10, hitRate: 100 / 110 };
  for (let h = 100; h <= 1000; h++) {
    const rw: StructureStats = { name: 'rw', readWrite: true, elemBytes: 4, hits: h, misses: 10, hitRate: h / (h + 10) };
    if (chooseStructures([ro, rw], 1).find((c) => c.cached)?.name === 'rw') return h / 100;
  }
  return NaN;
}

const SL1_MON: ReproductionRow = {
  id: 'SL1-MON',
  paper: 'SL1',
  title: 'Monitoring: 300 simulated accesses per thread; cache only above 50 %; read-write needs twice the hits (SL1 3.2.1, 3.2.2)',
  presets: ['titan'],
  kind: specification('the monitoring constants of SL1 3.2 are the S-L1 model\'s parameters, read back'),
  references: () => [
    exact('accesses monitored per thread (wc)', 300, 'accesses', 'SL1 3.2.1 (threshold 300)'),
    range('lowest hit rate cached', 50.5, [50.0001, 51], '%', 'SL1 3.2.2 ("only ... above 50%")'),
    exact('read-write over read-only', 2, 'x hits', 'SL1 3.2.2 ("only if its cache count rate is twice")'),
  ],
  measure(preset) {
    const wc = SL1_APPS.find((a) => a.id === 'wc')!;
    const cfg = timingOf(preset);
    const k = wc.build({ shape: { grid: cfg.sms * 8, block: 256 }, records: 100_000, config: cfg });
    return {
      measured: {
        'accesses monitored per thread (wc)': monitorKernel(k).accessesPerThread,
        'lowest hit rate cached': lowestCachedRate(),
        'read-write over read-only': readWriteFactor(),
      },
      runs: [],
    };
  },
};

// ---- F7, F8, F9, F12, F13 -------------------------------------------------------------------------

const WC_PVC_MM = ['WC', 'Page View Count', 'Matrix Multiply'];

/** Why the model's S-L1 gains exceed SL1 Fig 7's (both speed-up means). */
const F7_CAUSE =
  'In the application models every lane of a warp reads its own chunk, so a warp load touches 32 lines: without S-L1 the LSU serves one line per cycle (SL1 Fig 5\'s 32 GB/s per SMX), with S-L1 a hit costs one shared-memory access and a few instructions, so the char-streaming models gain 4-6x. SL1 gives neither the applications\' code nor their instruction counts; its 2.1x mean needs most of them near 1.2x. docs/SL1.md, "Why F7 and F13 fail".';

const SL1_F7: ReproductionRow = {
  id: 'SL1-F7',
  paper: 'SL1',
  title: 'S-L1 about 2.1x over no L1 and 1.9x over hardware L1; hardware L1 slower than no L1 for wc, PageViewCount, MatrixMultiply (SL1 Fig 7)',
  presets: ['titan'],
  kind: predictedBecause("SL1 4.2's 32-byte sector fills are an input of the Titan preset; the applications' times and hit rates are simulated from the preset, nothing was set from them"),
  references: () => [
    known(gain('S-L1 over no L1, mean', 2.1, 'SL1 abstract, 4.2, Fig 7 (2.1 times faster on average than no L1)'), F7_CAUSE),
    known(gain('S-L1 over hardware L1, mean', 1.9, 'SL1 abstract, 4.2 (1.9 times faster on average than hardware L1)'), F7_CAUSE),
    exact('slower with hardware L1 than no L1: wc, PVC, MM', 'yes', '', 'SL1 4.2 ("wc, PageViewCount, and Matrix Multiply exhibit slowdown")'),
    known(
      exact('the other seven not slower with hardware L1', 'yes', '', 'SL1 4.2 ("With hardware L1, performance improves to at most 35% and in some cases degrades": the three named)'),
      'Where no L1 is bound by the LSU, the hardware L1 can at best tie it (one 128 B line per LSU cycle either way). The hardware L1 wins at few threads per SMX, but no L1 at 1024-1536 threads is faster still for Inverted Index, MasterCard and Grep. docs/SL1.md, "Why the hardware L1 is slower than no L1 for Inverted Index, MasterCard and Grep".',
    ),
  ],
  measure(preset, seed) {
    const runs: Runs = [];
    const r = run(runs, 'sl1-apps', preset, {}, seed);
    const out: Measured = {};
    take(out, 'S-L1 over no L1, mean', r, 'sl1.speedupOverNoL1.mean');
    take(out, 'S-L1 over hardware L1, mean', r, 'sl1.speedupOverHwL1.mean');
    const slower = String(r.findings.find((f) => f.key === 'hw.slowerThanNoL1')?.value ?? '').split(', ');
    out['slower with hardware L1 than no L1: wc, PVC, MM'] = WC_PVC_MM.every((a) => slower.includes(a)) ? 'yes' : 'no';
    out['the other seven not slower with hardware L1'] = slower.every((a) => a === '(none)' || WC_PVC_MM.includes(a)) ? 'yes' : 'no';
    return { measured: out, runs };
  },
};

const SL1_F8: ReproductionRow = {
  id: 'SL1-F8',
  paper: 'SL1',
  title: 'S-L1 hit rate: wc about 15 of 16; Kmeans zero (SL1 Fig 8)',
  presets: ['titan'],
  kind: predictedBecause("SL1 4.2's 32-byte sector fills are an input of the Titan preset; the applications' times and hit rates are simulated from the preset, nothing was set from them"),
  references: () => [
    range('wc', 93.75, [90, 97], '%', 'SL1 4.2 ("each S-L1 miss is typically followed by 15 hits")'),
    exact('Kmeans', 0, '%', 'SL1 4.2 (no shared memory left: "the effective S-L1 hit rate is zero")'),
  ],
  measure(preset, seed) {
    const runs: Runs = [];
    const r = run(runs, 'sl1-apps', preset, {}, seed);
    const out: Measured = {};
    take(out, 'wc', r, 'sl1.hitRate.wc');
    take(out, 'Kmeans', r, 'sl1.hitRate.kmeans');
    return { measured: out, runs };
  },
};

const SL1_F9: ReproductionRow = {
  id: 'SL1-F9',
  paper: 'SL1',
  title: 'Best number of online threads is larger with S-L1 (SL1 4.2, Fig 9)',
  presets: ['titan'],
  kind: predictedBecause("SL1 4.2's 32-byte sector fills are an input of the Titan preset; the applications' times and hit rates are simulated from the preset, nothing was set from them"),
  references: () => [exact('larger with S-L1 (mean over apps)', 'yes', '', 'SL1 4.2, Fig 9 ("applications perform best with a larger number of threads when using S-L1")')],
  measure(preset, seed) {
    const runs: Runs = [];
    const r = run(runs, 'launch-sweep', preset, {}, seed);
    const hw = Number(r.findings.find((f) => f.key === 'launch.bestThreads.hw.mean')?.value);
    const sl = Number(r.findings.find((f) => f.key === 'launch.bestThreads.sl1.mean')?.value);
    return { measured: { 'larger with S-L1 (mean over apps)': sl > hw ? 'yes' : 'no' }, runs };
  },
};

const SL1_F12: ReproductionRow = {
  id: 'SL1-F12',
  paper: 'SL1',
  title: 'S-L1 enabled with nothing cached: about 8 % overhead on average (SL1 4.4, Fig 12)',
  presets: ['titan'],
  kind: PREDICTED,
  references: () => [half('overhead, mean', 8, '%', 'SL1 4.4, Fig 12 ("the overhead is 8% on average")')],
  measure(preset, seed) {
    const runs: Runs = [];
    const r = run(runs, 'sl1-apps', preset, {}, seed);
    const out: Measured = {};
    take(out, 'overhead, mean', r, 'sl1.overheadNothingCached.mean');
    return { measured: out, runs };
  },
};

const SL1_F13: ReproductionRow = {
  id: 'SL1-F13',
  paper: 'SL1',
  title: 'Line size: 16 B best; 8 B worse everywhere; 24 B worse in all but two (SL1 4.5, Fig 13)',
  presets: ['titan'],
  kind: PREDICTED,
  references: () => [
    known(
      exact('apps slower with 8 B lines', 10, 'apps', 'SL1 4.5 ("impacts performance negatively in every case")'),
      'Kmeans leaves no shared memory for S-L1 at any line size (SL1 4.2 and footnote 8), so its three S-L1 runs are the same run and it cannot count as slower: 9 of 10 is the most the model can give. docs/SL1.md, "Why F7 and F13 fail".',
    ),
    exact('apps slower with 24 B lines', 8, 'apps', 'SL1 4.5 ("reduces performance in all but two cases")'),
  ],
  measure(preset, seed) {
    const runs: Runs = [];
    const r = run(runs, 'sl1-apps', preset, {}, seed);
    const out: Measured = {};
    take(out, 'apps slower with 8 B lines', r, 'sl1.line8.worseCount');
    take(out, 'apps slower with 24 B lines', r, 'sl1.line24.worseCount');
    return { measured: out, runs };
  },
};

export const ROWS: ReproductionRow[] = [SL1_LAT, SL1_F1, SL1_F5, SL1_F6, SL1_SHM, SL1_CLN, SL1_F7, SL1_F8, SL1_F9, SL1_F12, SL1_F13, SL1_MON];
