import { dominantLevel, latencyLevels } from '../analysis/levels';
import type { ExperimentResult, ParamValues } from '../experiments/types';
import type { Card } from '../presets/modern';
import { convertCycles } from '../presets/modern';
import { beside, finding } from './rows-core';
import { calibrated, INFERRED, recovered, specification, withKind } from './kinds';
import { memoRun } from './row-runs';
import type { Reference, ReproductionRow, RowResult } from './types';

/**
 * Rows of the modern presets (Volta, Turing, Ampere, Hopper), from the papers' own tables and
 * figures: JIA18 Table 3.1, Figs 3.2 and 3.9, Table 3.3; JIA19 Table 3.1, Figs 3.5 and 3.11, Table
 * 3.3; ABD22 Table IV; LUO24 Table IV. The latencies are the very values the presets' latency tables
 * were set from: a pass shows consistency only ('calibrated'). Sizes, granularities and fill units
 * are inferred from simulated timings by the analysers ('recovered'); L2 sizes and TLB coverage are
 * read back ('specification').
 */

const KB = 1024;
const MB = 1024 * KB;

const lat = (name: string, value: number, citation: string): Reference => ({ name, value, unit: 'cycles', tolerance: 'latency', citation });
const exact = (name: string, value: number | string, unit: string, citation: string): Reference => ({ name, value, unit, tolerance: 'exact', citation });

/** Fine-grained chases whose dominant latency level is one level's latency. */
const L1_CHASE: ParamValues = { space: 'global', size: 8 * KB, stride: 128, iterations: 512, warmup: true };
/**
 * 1 MB: beyond every carveout's L1, inside every L2, inside one 2 MB page: L1 misses that hit the L2
 * and the L1 TLB (on the A100 and H100, after the warm-up traversal, near hits or near copies of far
 * lines).
 */
const L2_CHASE: ParamValues = { space: 'global', size: 1 * MB, stride: 128, iterations: 2048, warmup: true };
/**
 * A cold chase over 8 MB at an 8 KB stride: every access a new line, so each misses both caches and
 * goes to DRAM (the first access of each of the four pages also misses the TLBs). On the A100 and
 * H100 the 8 KB stride keeps every access in the chasing SM's near L2 partition (two partitions of
 * 4 KB granules): the latency tables hold the near side's latencies.
 */
const DRAM_CHASE: ParamValues = { space: 'global', size: 8 * MB, stride: 8 * KB, iterations: 1024, warmup: false };
/** JIA18 Fig 3.2 / JIA19 Fig 3.5: a cold fine-grained chase at 8 B steps over 1 KB (the figures show 256 B of it). */
const FIG_CHASE: ParamValues = { space: 'global', size: 1 * KB, stride: 8, iterations: 128, warmup: false };
const BANK_SWEEP: ParamValues = { strideFrom: 0, strideTo: 64, mode: 'default' };
/** MEI's steps 1 and 2 on the preset's own L1 (size, then line: the granularity a miss fetches). */
const walk = (l1Config: string, steps: number): ParamValues => ({ space: 'global', steps, maxSize: 512 * KB, l1Config });
/** The constant caches at a 256 B stride (a line of every level): sizes and one plateau per level. */
const CONST_SWEEP: ParamValues = { probe: 'latency', traversals: 1, strides: [256], sizeFrom: 512, sizeTo: 96 * KB, sizeStep: 512, latencyView: 'raw', tpc: -1 };
/** Past every L1.5 (96 to 256 KB): the constant accesses that reach the L2. */
const CONST_L2_SWEEP: ParamValues = { ...CONST_SWEEP, sizeFrom: 96 * KB, sizeTo: 256 * KB, sizeStep: 8 * KB };

function dominant(r: ExperimentResult): number | undefined {
  const lat = r.trace?.latency;
  if (!lat || lat.length === 0) return undefined;
  const lvl = dominantLevel(latencyLevels(lat, 0.5));
  return lvl ? Math.round(lvl.latency * 10) / 10 : undefined;
}

/** The run's latency level nearest `latency`, as `trace.levelN`; undefined when none. */
function levelNear(r: ExperimentResult, latency: number): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (let n = 1; typeof finding(r, `trace.level${n}.latency`) === 'number'; n++) {
    const d = Math.abs((finding(r, `trace.level${n}.latency`) as number) - latency);
    if (d < bestD) {
      bestD = d;
      best = `trace.level${n}`;
    }
  }
  return best;
}

const LATENCY_KIND = calibrated("the preset's latency table was set from this very value; the simulated chase reads it back (consistency, not reproduction)");
const SPEC_KIND = specification("read back from the preset's data, which was set from this value; no analyser infers it here");
const FILL_KIND = recovered("the analyser reads the fill unit from the simulated per-access latencies; it follows the preset's L2 line (or fill) size, set from this figure");
const CONFLICT_KIND = calibrated("the preset's cost per conflicting access was set from this chart; the bank sweep reads it back");

/** One modern GPU's rows: its paper's latencies, the L1 at the carveouts it names, and the sizes read back. */
interface ModernSpec {
  id: string;
  paper: ReproductionRow['paper'];
  preset: string;
  title: string;
  /** A paper value and its citation; `[value, citation, card]` when measured at another clock than the preset's (converted). */
  latency: { l1: [number, string]; l2: [number, string]; shared: [number, string]; dram?: [number, string] };
  /** The card the paper measured and the card the preset models, when they differ in clock. */
  clocks?: { paper: Card; preset: Card };
  /** L1 sizes at carveouts: [carveout id, bytes, citation]. */
  l1Sizes: [string, number, string][];
  /** The L1's load granularity, where the paper gives it. */
  granularity?: string;
  /** The shared-memory conflict cost, where the paper's chart gives it. */
  perConflict?: [number, string];
  /** Constant caches (JIA Table 3.1): L1 size, and the L1, L1.5, L2 broadcast latencies. */
  constant?: { l1Bytes: number; l1: number; l15: number; l2: number; citation: string };
  l2?: [number, number, string];
  tlb?: string;
}

function modernRow(s: ModernSpec): ReproductionRow {
  const conv = (v: number): number => (s.clocks ? convertCycles(v, s.latency.l1[0], s.clocks.paper, s.clocks.preset) : v);
  const at = (cite: string, v: number): string =>
    s.clocks && conv(v) !== v
      ? `${cite}; at the preset's ${s.clocks.preset.clockMHz} MHz: ${s.latency.l1[0]} (the L1 hit, SM cycles) + (${v} - ${s.latency.l1[0]}) x ${s.clocks.preset.clockMHz}/${s.clocks.paper.clockMHz} = ${conv(v)}`
      : cite;
  const sizeRefs = (): Reference[] =>
    s.l1Sizes.map(([cfg, bytes, cite]) =>
      withKind(beside(exact(`L1 size, ${cfg} carveout`, bytes, 'B', cite), 'cache-structure', 'cache.sizeBytes', walk(cfg, 1)), INFERRED),
    );
  const c = s.constant;
  return {
    id: s.id,
    paper: s.paper,
    title: s.title,
    presets: [s.preset],
    kind: LATENCY_KIND,
    references: () => [
      beside(lat('L1 hit latency', s.latency.l1[0], s.latency.l1[1]), 'pchase-fine', 'trace.level1.latency', L1_CHASE),
      beside(lat('L2 hit latency', conv(s.latency.l2[0]), at(s.latency.l2[1], s.latency.l2[0])), 'pchase-fine', 'trace.level1.latency', L2_CHASE),
      ...(s.latency.dram ? [lat('DRAM latency', conv(s.latency.dram[0]), at(s.latency.dram[1], s.latency.dram[0]))] : []),
      beside(lat('shared memory latency', s.latency.shared[0], s.latency.shared[1]), 'shared-bank-stride', 'shared.base', BANK_SWEEP),
      ...(s.perConflict
        ? [withKind(beside(exact('shared memory cost per further conflicting access', s.perConflict[0], 'cycles', s.perConflict[1]), 'shared-bank-stride', 'shared.perConflict', BANK_SWEEP), CONFLICT_KIND)]
        : []),
      ...sizeRefs(),
      ...(s.granularity
        ? [withKind(beside(exact('L1 load granularity (line size seen by the chase)', 32, 'B', s.granularity), 'cache-structure', 'cache.lineBytes', walk('default', 2)), INFERRED)]
        : []),
      ...(c
        ? [
            withKind(beside(exact('constant L1 size', c.l1Bytes, 'B', c.citation), 'constant-hierarchy', 's256.level1.sizeBytes', CONST_SWEEP), INFERRED),
            beside(lat('constant L1 latency', c.l1, c.citation), 'constant-hierarchy', 's256.plateau1.latency', CONST_SWEEP),
            beside(lat('constant L1.5 latency', c.l15, c.citation), 'constant-hierarchy', 's256.plateau2.latency', CONST_SWEEP),
            beside(lat('constant L2 latency', c.l2, c.citation), 'constant-hierarchy', 's256.plateau1.latency', CONST_L2_SWEEP),
          ]
        : []),
      ...(s.l2 ? [withKind(exact('L2 size', s.l2[0], 'B', s.l2[2]), SPEC_KIND), withKind(exact('L2 line size', s.l2[1], 'B', s.l2[2]), SPEC_KIND)] : []),
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
      const banks = memoRun(runs, 'shared-bank-stride', preset, BANK_SWEEP, seed);
      put('shared memory latency', finding(banks, 'shared.base'));
      if (s.perConflict) put('shared memory cost per further conflicting access', finding(banks, 'shared.perConflict'));
      for (const [cfg] of s.l1Sizes) put(`L1 size, ${cfg} carveout`, finding(memoRun(runs, 'cache-structure', preset, walk(cfg, 1), seed), 'cache.sizeBytes'));
      if (s.granularity) put('L1 load granularity (line size seen by the chase)', finding(memoRun(runs, 'cache-structure', preset, walk('default', 2), seed), 'cache.lineBytes'));
      if (c) {
        const r = memoRun(runs, 'constant-hierarchy', preset, CONST_SWEEP, seed);
        put('constant L1 size', finding(r, 's256.level1.sizeBytes'));
        put('constant L1 latency', finding(r, 's256.plateau1.latency'));
        put('constant L1.5 latency', finding(r, 's256.plateau2.latency'));
        put('constant L2 latency', finding(memoRun(runs, 'constant-hierarchy', preset, CONST_L2_SWEEP, seed), 's256.plateau1.latency'));
      }
      // Specification: read back from the preset.
      const l2 = preset.spaces.global.levels.find((l) => l.scope === 'chip');
      if (s.l2) {
        put('L2 size', l2?.sizeBytes);
        put('L2 line size', l2?.geometry.lineBytes);
      }
      const t = preset.spaces.global.translation;
      if (t && s.tlb) {
        put('L1 TLB coverage', t.l1.sizeBytes);
        put('L2 TLB coverage', t.l2.sizeBytes);
        put('L2 TLB entry', t.l2.geometry.lineBytes);
      }
      return { measured, runs };
    },
  };
}

/**
 * JIA18 Fig 3.2 / JIA19 Fig 3.5: a cold fine-grained chase at 8 B steps. The first access misses the
 * TLBs and the L2; then each 32 B sector's first access misses the L1, and device memory is reached
 * every 64 B, the L2 hit in between.
 */
function figureRow(id: string, paper: ReproductionRow['paper'], preset: string, fig: string, v: { first: number; dram: number; l2: number; l1: number }): ReproductionRow {
  const cite = (what: string): string => `${paper} ${fig} (${what})`;
  const key = (lvl: string | undefined, what: string): string => (lvl ? `${lvl}.${what}` : what);
  return {
    id,
    paper,
    title: `${paper} ${fig}: a cold fine-grained chase at 8 B steps: ${v.first} cycles on the first access (L2 and TLB miss), ${v.l1} on L1 hits, ${v.l2} on L2 hits, ${v.dram} on DRAM accesses every 64 B`,
    presets: [preset],
    kind: LATENCY_KIND,
    references: () => [
      lat('first access (L2 miss and TLB miss)', v.first, cite(`the ${v.first}-cycle latency of the first access`)),
      lat('DRAM access with a TLB hit', v.dram, cite(`the ${v.dram}-cycle latency: an L2 miss with a TLB hit`)),
      lat('L1 miss, L2 hit', v.l2, cite(`the ${v.l2}-cycle latency: an L1 miss and L2 hit`)),
      withKind(exact('DRAM reached every', 64, 'B', cite('device-memory points every 64 B, an L2 hit between them')), FILL_KIND),
      withKind(beside(exact('L1 missed every', 32, 'B', cite('L1 hits within each 32 B')), 'pchase-fine', 'trace.level2.everyBytes', FIG_CHASE), FILL_KIND),
    ],
    measure(p, seed) {
      const runs: RowResult['runs'] = [];
      const measured: Record<string, number | string> = {};
      const r = memoRun(runs, 'pchase-fine', p, FIG_CHASE, seed);
      const first = r.trace?.latency[0];
      if (first !== undefined) measured['first access (L2 miss and TLB miss)'] = first;
      const dram = levelNear(r, v.dram);
      const l2 = levelNear(r, v.l2);
      const put = (name: string, k: string): void => {
        const x = finding(r, k);
        if (x !== undefined) measured[name] = x;
      };
      if (dram) put('DRAM access with a TLB hit', key(dram, 'latency'));
      if (l2) put('L1 miss, L2 hit', key(l2, 'latency'));
      if (dram) put('DRAM reached every', key(dram, 'everyBytes'));
      put('L1 missed every', 'trace.level2.everyBytes');
      return { measured, runs };
    },
  };
}

/**
 * JIA18 / JIA19 Table 3.3: the L1 a pointer chase detects at each shared-memory carveout, 7 KB short
 * of nominal. The presets hold the 7 KB as the carveouts' `reservedBytes`, set from this table: MEI's
 * walk reads the size back from simulated timings (consistency).
 */
const DETECTED_KIND = calibrated("the carveout's L1 was set 7 KB short of nominal from this very table (reservedBytes); MEI's walk reads the size back from the simulated timings");
function detectedRow(id: string, paper: ReproductionRow['paper'], preset: string, gpu: string, sizes: [string, number, number][]): ReproductionRow {
  return {
    id,
    paper,
    title: `${paper} Table 3.3: the L1 size a pointer chase detects on the ${gpu} at each carveout (${sizes.map(([, , d]) => `${d}`).join(' / ')} KB, 7 KB short of nominal)`,
    presets: [preset],
    kind: DETECTED_KIND,
    references: () =>
      sizes.map(([cfg, nominal, detected]) =>
        beside(exact(`detected L1, ${cfg} carveout`, detected * KB, 'B', `${paper} Table 3.3 (expected ${nominal} KB, detected ${detected} KB)`), 'cache-structure', 'cache.sizeBytes', walk(cfg, 1)),
      ),
    measure(p, seed) {
      const runs: RowResult['runs'] = [];
      const measured: Record<string, number | string> = {};
      for (const [cfg] of sizes) {
        const v = finding(memoRun(runs, 'cache-structure', p, walk(cfg, 1), seed), 'cache.sizeBytes');
        if (v !== undefined) measured[`detected L1, ${cfg} carveout`] = v;
      }
      return { measured, runs };
    },
  };
}

const POLICY_KIND = recovered("the simulated misses follow the replacement policy and L1 geometry the preset was set to from this very text; the trace shows that the paper's observation follows from them");

/**
 * JIA18 3.1.2: once the L1 saturates, the same four lines, one in each of the 4 sets, are replaced
 * first. A warm fine-grained chase over the default L1 plus four lines: the slots its L1 misses fill.
 */
const v100Scan = (l1Bytes: number): ParamValues => ({ space: 'global', size: l1Bytes + 4 * 128, stride: 128, iterations: 2 * (l1Bytes / 128 + 4), warmup: true });
const JIA18_POLICY: ReproductionRow = {
  id: 'JIA18-3.1.2',
  paper: 'JIA18',
  title: 'V100 L1 replacement (JIA18 3.1.2): past saturation the same four lines, one in each of the 4 sets, are replaced first; the rest of a large array stays',
  presets: ['volta'],
  kind: POLICY_KIND,
  references: () => [
    withKind(exact('L1 slots the misses replace', 4, '', 'JIA18 3.1.2 ("Volta replaces the same four cache lines first")'), POLICY_KIND),
    withKind(exact('sets those slots lie in', 4, '', 'JIA18 3.1.2 ("these four cache lines are from different cache sets"; Table 3.1: 4 sets)'), POLICY_KIND),
  ],
  measure(p, seed) {
    const runs: RowResult['runs'] = [];
    // JIA18's scan runs just past the L1's capacity: four lines more than the default L1 holds.
    const r = memoRun(runs, 'pchase-fine', p, v100Scan(p.spaces.global.levels[0].sizeBytes), seed);
    const t = r.trace;
    const measured: Record<string, number | string> = {};
    if (t) {
      const slots = new Set<string>();
      const sets = new Set<number>();
      for (let i = 0; i < t.latency.length; i++)
        if (t.level[i] > 0 && t.evicted[i] >= 0) {
          slots.add(`${t.set[i]}/${t.way[i]}`);
          sets.add(t.set[i]);
        }
      measured['L1 slots the misses replace'] = slots.size;
      measured['sets those slots lie in'] = sets.size;
    }
    return { measured, runs };
  },
};

/**
 * JIA19 3.1.2: once the L1 saturates, the T4 evicts four consecutive 32 B lines (128 B) at random. A
 * warm chase at the paper's 32 B line over the default L1 plus 4 KB: the length of its runs of misses.
 */
const T4_SCAN: ParamValues = { space: 'global', size: 68 * KB, stride: 32, iterations: 2 * ((68 * KB) / 32), warmup: true };
const JIA19_POLICY: ReproductionRow = {
  id: 'JIA19-3.1.2',
  paper: 'JIA19',
  title: 'T4 L1 replacement (JIA19 3.1.2): past saturation four consecutive 32 B lines (128 B) are evicted at random',
  presets: ['turing'],
  kind: POLICY_KIND,
  references: () => [withKind(exact('block a miss run covers (most common)', 128, 'B', 'JIA19 3.1.2 ("Turing randomly evicts 4 consecutive cache lines (128 B)")'), POLICY_KIND)],
  measure(p, seed) {
    const runs: RowResult['runs'] = [];
    const r = memoRun(runs, 'pchase-fine', p, T4_SCAN, seed);
    const t = r.trace;
    const measured: Record<string, number | string> = {};
    if (t) {
      const lengths = new Map<number, number>();
      let run = 0;
      for (let i = 0; i <= t.latency.length; i++) {
        const miss = i < t.latency.length && t.level[i] > 0 && (run === 0 || t.address[i] === t.address[i - 1] + 32);
        if (miss) run++;
        else if (run > 0) {
          lengths.set(run, (lengths.get(run) ?? 0) + 1);
          run = i < t.latency.length && t.level[i] > 0 ? 1 : 0;
        }
      }
      let best = 0;
      for (const [len, n] of lengths) if (best === 0 || n > (lengths.get(best) ?? 0)) best = len;
      if (best > 0) measured['block a miss run covers (most common)'] = best * 32;
    }
    return { measured, runs };
  },
};

const JIA18_MEM = modernRow({
  id: 'JIA18-MEM',
  paper: 'JIA18',
  preset: 'volta',
  title: 'Tesla V100 memory hierarchy (JIA18 Table 3.1, Fig 3.9): L1 and L2 hit latency, shared memory and its conflict cost, 32 B load granularity, constant caches, L2 and TLBs',
  latency: {
    l1: [28, 'JIA18 Table 3.1 (V100 L1 data cache hit latency: 28 cycles)'],
    l2: [193, 'JIA18 Table 3.1 (V100 L2 hit latency: about 193 cycles)'],
    shared: [19, 'JIA18 Table 3.1 (V100 shared memory no-conflict latency: 19 cycles)'],
  },
  l1Sizes: [],
  granularity: 'JIA18 Table 3.1 (V100 L1 load granularity: 32 B)',
  perConflict: [2, 'JIA18 Fig 3.9 (V100, read from the chart: about 19, 21, 25, 33, 49, 80 cycles at 1, 2, 4, 8, 16, 32 threads on one bank)'],
  constant: { l1Bytes: 2 * KB, l1: 27, l15: 89, l2: 245, citation: 'JIA18 Table 3.1 (V100 constant caches: L1 2 KB, about 27 cycles; L1.5 about 89; L2 about 245)' },
  l2: [6144 * KB, 64, 'JIA18 Table 3.1 (V100 L2: 6144 KB, 64 B lines)'],
  tlb: 'JIA18 Table 3.1 (V100 L1 TLB: 32 MB coverage; L2 TLB: 8192 MB coverage in 32 MB entries)',
});

const JIA19_MEM = modernRow({
  id: 'JIA19-MEM',
  paper: 'JIA19',
  preset: 'turing',
  title: 'Tesla T4 memory hierarchy (JIA19 Table 3.1, Fig 3.11): L1 and L2 hit latency, shared memory and its conflict cost, 32 B load granularity, constant caches, L2 and TLBs',
  latency: {
    l1: [32, 'JIA19 Table 3.1 (T4 L1 data cache hit latency: 32 cycles)'],
    l2: [188, 'JIA19 Table 3.1 (T4 L2 hit latency: about 188 cycles)'],
    shared: [19, 'JIA19 Table 3.1 (T4 shared memory no-conflict latency: 19 cycles)'],
  },
  l1Sizes: [],
  granularity: 'JIA19 Table 3.1 (T4 L1 load granularity: 32 B)',
  perConflict: [2, 'JIA19 Fig 3.11 (T4, read from the chart: about 2 cycles more per further thread on one bank)'],
  constant: { l1Bytes: 2 * KB, l1: 26, l15: 92, l2: 215, citation: 'JIA19 Table 3.1 (T4 constant caches: L1 2 KB, about 26 cycles; L1.5 92; L2 about 215)' },
  l2: [4096 * KB, 64, 'JIA19 Table 3.1 (T4 L2: 4096 KB, 64 B lines)'],
  tlb: 'JIA19 Table 3.1 (T4 L1 TLB: 32 MB coverage; L2 TLB: 8192 MB coverage in 32 MB entries)',
});

const ABD22_MEM = modernRow({
  id: 'ABD22-MEM',
  paper: 'ABD22',
  preset: 'ampere',
  title: 'A100 memory latencies (ABD22 Table IV: L1 33, L2 200, global 290, shared 23 cycles)',
  latency: {
    l1: [33, 'ABD22 Table IV (L1 cache: 33 cycles)'],
    l2: [200, 'ABD22 Table IV (L2 cache: 200 cycles)'],
    dram: [290, 'ABD22 Table IV (global memory: 290 cycles)'],
    shared: [23, 'ABD22 Table IV (shared memory load: 23 cycles)'],
  },
  l1Sizes: [],
});

const LUO24_MEM = modernRow({
  id: 'LUO24-MEM',
  paper: 'LUO24',
  preset: 'hopper',
  title: "Hopper memory latencies (LUO24 Table IV, H800 PCIe at 1755 MHz: L1 40.7, L2 263, global 478.8, shared 29 cycles), at the H100 SXM5 preset's 1980 MHz",
  clocks: { paper: { name: 'H800 PCIe', clockMHz: 1755 }, preset: { name: 'H100 SXM5', clockMHz: 1980 } },
  latency: {
    l1: [40.7, 'LUO24 Table IV (H800 L1 cache: 40.7 cycles; SM pipeline cycles, not converted)'],
    l2: [263, 'LUO24 Table IV (H800 L2 cache: 263.0 cycles at 1755 MHz)'],
    dram: [478.8, 'LUO24 Table IV (H800 global memory: 478.8 cycles at 1755 MHz, TLB warmed)'],
    shared: [29, 'LUO24 Table IV (H800 shared memory: 29.0 cycles; SM pipeline cycles, not converted)'],
  },
  l1Sizes: [],
});

const JIA18_F32 = figureRow('JIA18-F3.2', 'JIA18', 'volta', 'Fig 3.2', { first: 1029, dram: 375, l2: 193, l1: 28 });
const JIA19_F35 = figureRow('JIA19-F3.5', 'JIA19', 'turing', 'Fig 3.5', { first: 616, dram: 296, l2: 188, l1: 32 });
const JIA18_T33 = detectedRow('JIA18-T3.3', 'JIA18', 'volta', 'V100', [
  ['128KB', 128, 121],
  ['64KB', 64, 57],
  ['32KB', 32, 25],
]);
const JIA19_T33 = detectedRow('JIA19-T3.3', 'JIA19', 'turing', 'T4', [
  ['64KB', 64, 57],
  ['32KB', 32, 25],
]);

export const ROWS: ReproductionRow[] = [JIA18_MEM, JIA18_F32, JIA18_T33, JIA18_POLICY, JIA19_MEM, JIA19_F35, JIA19_T33, JIA19_POLICY, ABD22_MEM, LUO24_MEM];
