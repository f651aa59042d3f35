import type { CacheLevelConfig, TranslationConfig } from '../model/path';
import type { ReplacementPolicy } from '../model/types';
import { KB, level, MB } from './build';
import type { L1Config, Preset } from './types';

/**
 * Parts the Volta, Turing, Ampere and Hopper presets share: a sectored L1 whose size follows the
 * L1 / shared-memory carveout, a chip-wide L2, TLBs with 2 MB and 32 MB entries, and the clock
 * conversion of latencies measured on another card. Paper keys: JIA18 (Jia, Maggioni, Staiger,
 * Scarpazza, Dissecting the NVIDIA Volta GPU Architecture via Microbenchmarking, 2018), JIA19 (Jia,
 * Maggioni, Smith, Scarpazza, Dissecting the NVidia Turing T4 GPU via Microbenchmarking, 2019),
 * ABD22 (Abdelkhalik, Arafa, Santhi, Badawy, Demystifying the Nvidia Ampere Architecture through
 * Microbenchmarking and Instruction-level Analysis, 2022), LUO24 (Luo et al., Benchmarking and
 * Dissecting the Nvidia Hopper GPU Architecture, 2024).
 */

/** The modern L1's line (JIA18 / JIA19 Table 3.1's update granularity) and sector (their load granularity and line size). */
const LINE = 128;
const SECTOR = 32;

/** The SM's L1 data cache of one carveout: 128 B lines of 32 B sectors, `sets` sets, ways = size / (sets x 128 B). */
export function modernL1(sizeBytes: number, sets: number, policy: ReplacementPolicy): CacheLevelConfig {
  const lvl = level('L1', 'sm', sizeBytes, LINE, sets, sizeBytes / (LINE * sets));
  return { ...lvl, geometry: { ...lvl.geometry, sectorBytes: SECTOR, policy } };
}

/**
 * A chip-wide L2 of `ways` ways (the sets follow from the size). `sectorBytes` below the line makes it
 * sectored, and `fillBytes` the block a miss brings in from device memory (absent: the sector, or the
 * whole line when unsectored).
 */
export function modernL2(
  sizeBytes: number,
  lineBytes: number,
  ways: number,
  opts: { sectorBytes?: number; fillBytes?: number; partitions?: CacheLevelConfig['partitions'] } = {},
): CacheLevelConfig {
  const lvl = level('L2', 'chip', sizeBytes, lineBytes, sizeBytes / (lineBytes * ways), ways);
  const geometry = { ...lvl.geometry, ...(opts.sectorBytes ? { sectorBytes: opts.sectorBytes } : {}), ...(opts.fillBytes ? { fillBytes: opts.fillBytes } : {}) };
  return { ...lvl, geometry, ...(opts.partitions ? { partitions: opts.partitions } : {}) };
}

/**
 * The carveouts of an SM whose L1 and shared memory split `onChipKB`: one L1 configuration per
 * shared-memory size the CUDA runtime offers, named by its L1 size ("120KB").
 */
export function carveouts(onChipKB: number, sharedKBs: readonly number[], sets: number, policy: ReplacementPolicy, reservedBytes = 0): L1Config[] {
  return sharedKBs.map((s) => {
    const l1 = modernL1((onChipKB - s) * KB - reservedBytes, sets, policy);
    return { id: `${onChipKB - s}KB`, sizeBytes: l1.sizeBytes, geometry: l1.geometry, sharedBytes: s * KB, ...(reservedBytes ? { reservedBytes } : {}) };
  });
}

/** Provenance of a modern L1's geometry: its line, sector, sets and policy under `at` (the default level or a carveout). */
export interface L1GeometrySources {
  lineBytes: string;
  sectorBytes: string;
  sets: string;
  policy: string;
}

/**
 * The L1 of a GPU whose paper gives no L1 geometry (A100: ABD22; GH100: LUO24): 32 sets of 128 B
 * lines in 32 B sectors, replaced at random, each marked assumed with its nearest source.
 */
export const ASSUMED_L1_SETS = 32;
export const ASSUMED_L1_POLICY = { kind: 'random' as const };
export function assumedL1Sources(paper: string, chip: string): L1GeometrySources {
  return {
    lineBytes: `assumed: ${paper} gives no L1 geometry; 128 B lines of 32 B sectors, the update and load granularity JIA18 and JIA19 Table 3.1 find on V100 and T4 (NVIDIA Nsight Compute Kernel Profiling Guide: 128 B lines of four 32 B sectors)`,
    sectorBytes: `assumed: ${paper} gives no L1 geometry; 32 B, the load granularity of JIA18 and JIA19 Table 3.1 (NVIDIA Nsight Compute Kernel Profiling Guide: 32 B sectors)`,
    sets: `assumed: no paper gives the ${chip} L1 set count; 32 sets divide the lines of every carveout`,
    policy: `assumed: ${paper} gives no L1 replacement rule; random, the rule JIA19 3.1.2 finds on the T4, the latest generation with a published one`,
  };
}

export function l1GeometryProvenance(at: string, src: L1GeometrySources): Record<string, string> {
  return {
    [`${at}.lineBytes`]: src.lineBytes,
    [`${at}.sectorBytes`]: src.sectorBytes,
    [`${at}.sets`]: src.sets,
    [`${at}.ways`]: `${src.sets}; the ways follow: size / (sets x 128 B)`,
    [`${at}.policy`]: src.policy,
  };
}

/** Provenance of every carveout of a preset (one block per configuration). */
export function carveoutProvenance(configs: readonly L1Config[], sizeSource: string, src: L1GeometrySources, reservedSource?: string): Record<string, string> {
  const out: Record<string, string> = {};
  configs.forEach((c, i) => {
    out[`l1Configs.${i}.sizeBytes`] = c.reservedBytes
      ? `${sizeSource} (L1 = the on-chip memory less ${(c.sharedBytes ?? 0) / KB} KB of shared memory and the ${c.reservedBytes / KB} KB a chase does not see)`
      : `${sizeSource} (L1 = the on-chip memory less ${(c.sharedBytes ?? 0) / KB} KB of shared memory)`;
    out[`l1Configs.${i}.sharedBytes`] = sizeSource;
    if (c.reservedBytes && reservedSource) out[`l1Configs.${i}.reservedBytes`] = reservedSource;
    Object.assign(out, l1GeometryProvenance(`l1Configs.${i}.geometry`, src));
  });
  return out;
}

/** JIA18 / JIA19 Table 3.1: an L1 TLB of 32 MB coverage in 2 MB entries, an L2 TLB of 8 GB coverage in 32 MB entries. */
export function modernTranslation(): TranslationConfig {
  return {
    pageBytes: 2 * MB,
    l1: level('L1 TLB', 'chip', 32 * MB, 2 * MB, 1, 16),
    l2: level('L2 TLB', 'chip', 8192 * MB, 32 * MB, 1, 256),
    virtualLevels: 1,
  };
}

/**
 * Provenance of modernTranslation. `source` names the table the coverage comes from, or says it is
 * assumed and why; `virtual` says where the L1-before-translation order comes from.
 */
export function translationProvenance(source: string, virtual: string): Record<string, string> {
  const assumed = source.startsWith('assumed');
  return {
    'translation.pageBytes': assumed ? source : `${source} (2 MB page entries in the L1 TLB)`,
    'translation.l1': assumed ? source : `${source} (L1 TLB: 32 MB coverage in 2 MB entries: 16 entries)`,
    'translation.l2': assumed ? source : `${source} (L2 TLB: about 8192 MB coverage in 32 MB entries: 256 entries)`,
    'translation.l1.geometry.sets': 'assumed: the papers give coverage and entry size only; one fully associative set, as MEI Table 4 finds on Fermi and Kepler',
    'translation.l2.geometry.sets': 'assumed: the papers give coverage and entry size only; one fully associative set',
    'translation.l1.geometry.policy': 'assumed: LRU, as MEI Table 4 finds for the TLBs of Fermi and Kepler',
    'translation.l2.geometry.policy': 'assumed: LRU, as MEI Table 4 finds for the TLBs of Fermi and Kepler',
    'translation.virtualLevels': virtual,
  };
}

/** JIA18 / JIA19 3.8: the L1 data cache is indexed by virtual address, the L2 by physical address. */
export const JIA_VIRTUAL_L1 = (paper: 'JIA18' | 'JIA19'): string =>
  `${paper} Table 3.1 and 3.8 (the L1 data cache is not physically indexed and an L1 hit causes no TLB miss; the L2 is physically indexed): the L1 is looked up before the TLBs`;

/** One card a paper measured: its name and the core clock its cycle counts are counted at. */
export interface Card {
  name: string;
  clockMHz: number;
}

/**
 * A latency a paper measured in core cycles of `from`, expressed in core cycles of `to`. The part of
 * the path inside the SM (`inSm`: the same paper's L1 hit) is counted in SM pipeline cycles and does
 * not change; the rest (crossbar, L2 slices, device memory, the page walk) is taken as fixed in time
 * and scales with the clock. Rounded to 0.1 cycle.
 */
export function convertCycles(cycles: number, inSm: number, from: Card, to: Card): number {
  if (from.clockMHz === to.clockMHz) return cycles;
  return Math.round((inSm + (cycles - inSm) * (to.clockMHz / from.clockMHz)) * 10) / 10;
}

/** The provenance phrase of a conversion, with its arithmetic. */
export function conversionNote(cycles: number, inSm: number, from: Card, to: Card): string {
  if (from.clockMHz === to.clockMHz) return `${cycles} cycles at ${from.clockMHz} MHz; no conversion`;
  return `${cycles} cycles on the ${from.name} at ${from.clockMHz} MHz; converted to ${to.clockMHz} MHz as ${inSm} (the L1 hit, SM cycles) + (${cycles} - ${inSm}) x ${to.clockMHz}/${from.clockMHz} = ${convertCycles(cycles, inSm, from, to)}`;
}

/** A TLB-miss penalty measured in cycles of `from` (all of it outside the SM), in cycles of `to`. */
export function convertPenalty(cycles: number, from: Card, to: Card): number {
  return Math.round(cycles * (to.clockMHz / from.clockMHz) * 10) / 10;
}

/** Shared memory of Volta and later: 32 banks of 4 bytes, word w in bank w mod 32, one warp at a time. */
export function modernShared(sizeBytes: number, onChipBytes: number, base: number, perConflict: number): Preset['shared'] {
  return {
    sizeBytes,
    banks: 32,
    issueGroup: 32,
    modes: { '4-byte': { slotWords: 1, rowWords: 32 } },
    defaultMode: '4-byte',
    latency: { base, perConflict },
    onChipBytes,
  };
}

/** Provenance of the bank structure; `banks` cites the paper's table where it gives one. */
export function modernSharedProvenance(banks: string, perConflict: string): Record<string, string> {
  return {
    'shared.banks': banks,
    'shared.issueGroup': 'NVIDIA CUDA C++ Programming Guide, compute capability 5.x and later (a shared-memory request of a warp)',
    'shared.modes': 'NVIDIA CUDA C++ Programming Guide, compute capability 5.x and later (successive 32-bit words in successive banks)',
    'shared.latency.perConflict': perConflict,
  };
}

/** JIA18 Fig 3.9 / JIA19 Fig 3.11, read from the chart: about 19, 21, 25, 33, 49, 80 cycles at 1 to 32 threads on one bank (V100). */
export const JIA_PER_CONFLICT = (paper: 'JIA18' | 'JIA19', fig: string, gpu: string): string =>
  `${paper} ${fig} (shared-memory latency under contention, read from the chart: about 2 cycles more per further thread on one bank, ${gpu})`;

/** Prefixes every key of a provenance block with the path it describes. */
export function at(prefix: string, block: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(block).map(([k, v]) => [`${prefix}.${k}`, v]));
}

/** A level with another replacement policy. */
export function withPolicy(l: CacheLevelConfig, policy: ReplacementPolicy): CacheLevelConfig {
  return { ...l, geometry: { ...l.geometry, policy } };
}
