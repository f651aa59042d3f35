import { dominantLevel, latencyLevels } from '../analysis/levels';
import type { ExperimentResult, ParamValues } from '../experiments/types';
import { beside, finding } from './rows-core';
import { calibrated, INFERRED, specification, withKind } from './kinds';
import { memoRun } from './row-runs';
import type { Reference, ReproductionRow, RowResult } from './types';

/**
 * Rows of the modern presets (Volta, Turing, Ampere, Hopper), from the tables of JIA18, JIA19, ABD22
 * and LUO24. The latencies are the very values the presets' latency tables were set from: a pass
 * shows consistency only ('calibrated'). The L1 sizes at each carveout and the L1's load granularity
 * are inferred by MEI's method from simulated timings without reading the preset ('predicted'). L2
 * sizes, L2 line sizes and TLB coverage are read back from the preset ('specification').
 */

const KB = 1024;
const MB = 1024 * KB;

const lat = (name: string, value: number, citation: string): Reference => ({ name, value, unit: 'cycles', tolerance: 'latency', citation });
const exact = (name: string, value: number | string, unit: string, citation: string): Reference => ({ name, value, unit, tolerance: 'exact', citation });

/** Fine-grained chases whose dominant latency level is one level's latency. */
const L1_CHASE: ParamValues = { space: 'global', size: 8 * KB, stride: 128, iterations: 512, warmup: true };
/**
 * The latency tables hold the near L2 partition's latencies (A100, H100: two partitions of 4 KB
 * granules, an SM's near one holding the even granules for the SMs of the first half, which run the
 * chase): an 8 KB stride keeps every access in the near partition, so the chase reads them back.
 */
const NEAR_STRIDE = 8 * KB;
/** 128 lines 8 KB apart in 1 MB: one L1 set (beyond its ways at every carveout), inside every L2, inside one 2 MB page: L1 misses that hit the L2 and the L1 TLB. */
const L2_CHASE: ParamValues = { space: 'global', size: 1 * MB, stride: NEAR_STRIDE, iterations: 2048, warmup: true };
/** A cold chase over 8 MB: every access a new line, so each misses both caches and goes to DRAM (the first access of each of the four pages also misses the TLBs). */
const DRAM_CHASE: ParamValues = { space: 'global', size: 8 * MB, stride: NEAR_STRIDE, iterations: 1024, warmup: false };
const BANK_SWEEP: ParamValues = { strideFrom: 0, strideTo: 64, mode: 'default' };
/** MEI's steps 1 and 2 on the preset's own L1 (size, then line: the granularity a miss fetches). */
const walk = (l1Config: string, steps: number): ParamValues => ({ space: 'global', steps, maxSize: 512 * KB, l1Config });

function dominant(r: ExperimentResult): number | undefined {
  const lat = r.trace?.latency;
  if (!lat || lat.length === 0) return undefined;
  const lvl = dominantLevel(latencyLevels(lat, 0.5));
  return lvl ? Math.round(lvl.latency * 10) / 10 : undefined;
}

const LATENCY_KIND = calibrated("the preset's latency table was set from this very value; the simulated chase reads it back (consistency, not reproduction)");
const SPEC_KIND = specification("read back from the preset's data, which was set from this value; no analyser infers it here");

/** One modern GPU's row: its paper's latencies, the L1 at the carveouts the paper (or NVIDIA) names, and the sizes read back. */
interface ModernSpec {
  id: string;
  paper: ReproductionRow['paper'];
  preset: string;
  title: string;
  latency: { l1: [number, string]; l2: [number, string]; shared: [number, string]; dram?: [number, string] };
  /** L1 sizes at carveouts: [carveout id, bytes, citation]. */
  l1Sizes: [string, number, string][];
  /** The L1's load granularity, where the paper gives it. */
  granularity?: string;
  l2: [number, number, string];
  tlb?: string;
}

function modernRow(s: ModernSpec): ReproductionRow {
  const sizeRefs = (): Reference[] =>
    s.l1Sizes.map(([cfg, bytes, cite]) =>
      withKind(beside(exact(`L1 size, ${cfg} carveout`, bytes, 'B', cite), 'cache-structure', 'cache.sizeBytes', walk(cfg, 1)), INFERRED),
    );
  return {
    id: s.id,
    paper: s.paper,
    title: s.title,
    presets: [s.preset],
    kind: LATENCY_KIND,
    references: () => [
      beside(lat('L1 hit latency', s.latency.l1[0], s.latency.l1[1]), 'pchase-fine', 'trace.level1.latency', L1_CHASE),
      beside(lat('L2 hit latency', s.latency.l2[0], s.latency.l2[1]), 'pchase-fine', 'trace.level1.latency', L2_CHASE),
      ...(s.latency.dram ? [lat('DRAM latency', s.latency.dram[0], s.latency.dram[1])] : []),
      beside(lat('shared memory latency', s.latency.shared[0], s.latency.shared[1]), 'shared-bank-stride', 'shared.base', BANK_SWEEP),
      ...sizeRefs(),
      ...(s.granularity
        ? [withKind(beside(exact('L1 load granularity (line size seen by the chase)', 32, 'B', s.granularity), 'cache-structure', 'cache.lineBytes', walk('default', 2)), INFERRED)]
        : []),
      withKind(exact('L2 size', s.l2[0], 'B', s.l2[2]), SPEC_KIND),
      withKind(exact('L2 line size', s.l2[1], 'B', s.l2[2]), SPEC_KIND),
      ...(s.tlb
        ? [withKind(exact('L1 TLB coverage', 32 * MB, 'B', s.tlb), SPEC_KIND), withKind(exact('L2 TLB coverage', 8192 * MB, 'B', s.tlb), SPEC_KIND), withKind(exact('L2 TLB entry', 32 * MB, 'B', s.tlb), SPEC_KIND)]
        : []),
    ],
    measure(preset, seed) {
      const runs: RowResult['runs'] = [];
      const measured: Record<string, number | string> = {};
      const put = (name: string, v: number | string | undefined): void => {
        if (v !== undefined) measured[name] = v;
      };
      put('L1 hit latency', dominant(memoRun(runs, 'pchase-fine', preset, L1_CHASE, seed)));
      put('L2 hit latency', dominant(memoRun(runs, 'pchase-fine', preset, L2_CHASE, seed)));
      if (s.latency.dram) put('DRAM latency', dominant(memoRun(runs, 'pchase-fine', preset, DRAM_CHASE, seed)));
      put('shared memory latency', finding(memoRun(runs, 'shared-bank-stride', preset, BANK_SWEEP, seed), 'shared.base'));
      for (const [cfg] of s.l1Sizes) put(`L1 size, ${cfg} carveout`, finding(memoRun(runs, 'cache-structure', preset, walk(cfg, 1), seed), 'cache.sizeBytes'));
      if (s.granularity) put('L1 load granularity (line size seen by the chase)', finding(memoRun(runs, 'cache-structure', preset, walk('default', 2), seed), 'cache.lineBytes'));
      // Specification: read back from the preset.
      const l2 = preset.spaces.global.levels.find((l) => l.scope === 'chip');
      put('L2 size', l2?.sizeBytes);
      put('L2 line size', l2?.geometry.lineBytes);
      const t = preset.spaces.global.translation;
      if (t) {
        put('L1 TLB coverage', t.l1.sizeBytes);
        put('L2 TLB coverage', t.l2.sizeBytes);
        put('L2 TLB entry', t.l2.geometry.lineBytes);
      }
      return { measured, runs };
    },
  };
}

const JIA18_MEM = modernRow({
  id: 'JIA18-MEM',
  paper: 'JIA18',
  preset: 'volta',
  title: 'Tesla V100 memory hierarchy (JIA18 Table 3.1): L1 and L2 hit latency, shared memory, L1 of 32-128 KB by carveout, 32 B load granularity, L2 and TLBs',
  latency: {
    l1: [28, 'JIA18 Table 3.1 (V100 L1 data cache hit latency: 28 cycles)'],
    l2: [193, 'JIA18 Table 3.1 (V100 L2 hit latency: about 193 cycles)'],
    shared: [19, 'JIA18 Table 3.1 (V100 shared memory: about 19 cycles)'],
  },
  l1Sizes: [
    ['128KB', 128 * KB, 'JIA18 Table 3.1 (V100 L1 data cache: up to 128 KB)'],
    ['32KB', 32 * KB, 'JIA18 Table 3.1 (V100 L1 data cache: from 32 KB)'],
  ],
  granularity: 'JIA18 Table 3.1 (V100 L1 load granularity: 32 B)',
  l2: [6144 * KB, 64, 'JIA18 Table 3.1 (V100 L2: 6144 KB, 64 B lines)'],
  tlb: 'JIA18 Table 3.1 (V100 L1 TLB: 32 MB coverage; L2 TLB: 8192 MB coverage in 32 MB entries)',
});

const JIA19_MEM = modernRow({
  id: 'JIA19-MEM',
  paper: 'JIA19',
  preset: 'turing',
  title: 'Tesla T4 memory hierarchy (JIA19 Table 3.1): L1 and L2 hit latency, shared memory, L1 of 32 or 64 KB by carveout, 32 B load granularity, L2 and TLBs',
  latency: {
    l1: [32, 'JIA19 Table 3.1 (T4 L1 data cache hit latency: 32 cycles)'],
    l2: [188, 'JIA19 Table 3.1 (T4 L2 hit latency: about 188 cycles)'],
    shared: [19, 'JIA19 Table 3.1 (T4 shared memory: about 19 cycles)'],
  },
  l1Sizes: [
    ['64KB', 64 * KB, 'JIA19 Table 3.1 (T4 L1 data cache: up to 64 KB)'],
    ['32KB', 32 * KB, 'JIA19 Table 3.1 (T4 L1 data cache: from 32 KB)'],
  ],
  granularity: 'JIA19 Table 3.1 (T4 L1 load granularity: 32 B)',
  l2: [4096 * KB, 64, 'JIA19 Table 3.1 (T4 L2: 4096 KB, 64 B lines)'],
  tlb: 'JIA19 Table 3.1 (T4 L1 TLB: 32 MB coverage; L2 TLB: 8192 MB coverage in 32 MB entries)',
});

const ABD22_MEM = modernRow({
  id: 'ABD22-MEM',
  paper: 'ABD22',
  preset: 'ampere',
  title: 'A100 memory latencies (ABD22) and the L1 at the 192 KB and 28 KB carveouts (NVIDIA A100 whitepaper, CUDA Programming Guide 8.0)',
  latency: {
    l1: [33, 'ABD22, memory access latency table (L1 cache: 33 cycles)'],
    l2: [200, 'ABD22, memory access latency table (L2 cache: 200 cycles)'],
    dram: [290, 'ABD22, memory access latency table (global memory: 290 cycles)'],
    shared: [23, 'ABD22, memory access latency table (shared memory load: 23 cycles)'],
  },
  l1Sizes: [
    ['192KB', 192 * KB, 'NVIDIA A100 Tensor Core GPU Architecture whitepaper (192 KB of L1 and shared memory per SM, all of it L1 with no shared memory)'],
    ['28KB', 28 * KB, 'NVIDIA CUDA C++ Programming Guide, compute capability 8.0 (164 KB of shared memory leaves 28 KB of L1)'],
  ],
  l2: [40 * MB, 128, 'NVIDIA A100 Tensor Core GPU Architecture whitepaper (40 MB L2); NVIDIA Nsight Compute Kernel Profiling Guide (128 B lines)'],
});

const LUO24_MEM = modernRow({
  id: 'LUO24-MEM',
  paper: 'LUO24',
  preset: 'hopper',
  title: 'H100 memory latencies (LUO24, H800) and the L1 at the 256 KB and 28 KB carveouts (NVIDIA H100 whitepaper, Hopper Tuning Guide)',
  latency: {
    l1: [40.7, 'LUO24, memory latency table (H800 L1 cache: 40.7 cycles)'],
    l2: [263, 'LUO24, memory latency table (H800 L2 cache: 263 cycles)'],
    dram: [478.8, 'LUO24, memory latency table (H800 global memory: 478.8 cycles)'],
    shared: [29, 'LUO24, memory latency table (H800 shared memory: 29.0 cycles)'],
  },
  l1Sizes: [
    ['256KB', 256 * KB, 'NVIDIA H100 Tensor Core GPU Architecture whitepaper (256 KB of L1 and shared memory per SM, all of it L1 with no shared memory)'],
    ['28KB', 28 * KB, 'NVIDIA Hopper Tuning Guide (228 KB of shared memory leaves 28 KB of L1)'],
  ],
  l2: [50 * MB, 128, 'NVIDIA H100 Tensor Core GPU Architecture whitepaper (50 MB L2); NVIDIA Nsight Compute Kernel Profiling Guide (128 B lines)'],
});

export const ROWS: ReproductionRow[] = [JIA18_MEM, JIA19_MEM, ABD22_MEM, LUO24_MEM];
