import type { CacheLevelConfig, TranslationConfig } from '../model/path';
import { KB, level, MB } from './build';
import type { L1Config, Preset } from './types';

/**
 * Parts the Volta, Turing, Ampere and Hopper presets share: a sectored L1 whose size follows the
 * L1 / shared-memory carveout, sectored L2s, TLBs with 2 MB and 32 MB entries, and the latency table
 * of a path whose L1 is looked up before translation. Paper keys: JIA18 (Jia, Maggioni, Staiger,
 * Scarpazza, Dissecting the NVIDIA Volta GPU Architecture via Microbenchmarking, 2018), JIA19 (Jia,
 * Maggioni, Smith, Scarpazza, Dissecting the NVidia Turing T4 GPU via Microbenchmarking, 2019),
 * ABD22 (Abdelkhalik, Arafa, Santhi, Badawy, Demystifying the Nvidia Ampere Architecture through
 * Microbenchmarking and Instruction-level Analysis, 2022), LUO24 (Luo et al., Benchmarking and
 * Dissecting the Nvidia Hopper GPU Architecture, 2024).
 */

/** Sets of every modern L1 (assumed: the papers give none; 32 divides the lines of every carveout). */
export const MODERN_L1_SETS = 32;
const LINE = 128;
const SECTOR = 32;

/** The SM's L1 data cache of one carveout: 128 B lines of 32 B sectors, 32 sets, ways = size / 4 KB, LRU. */
export function modernL1(sizeBytes: number): CacheLevelConfig {
  const lvl = level('L1', 'sm', sizeBytes, LINE, MODERN_L1_SETS, sizeBytes / (LINE * MODERN_L1_SETS));
  return { ...lvl, geometry: { ...lvl.geometry, sectorBytes: SECTOR } };
}

/** A sectored chip-wide L2 of `ways` ways (the sets follow from the size). */
export function modernL2(sizeBytes: number, lineBytes: number, ways: number, partitions?: CacheLevelConfig['partitions']): CacheLevelConfig {
  const lvl = level('L2', 'chip', sizeBytes, lineBytes, sizeBytes / (lineBytes * ways), ways);
  return { ...lvl, geometry: { ...lvl.geometry, sectorBytes: SECTOR }, ...(partitions ? { partitions } : {}) };
}

/**
 * The carveouts of an SM whose L1 and shared memory split `onChipKB`: one L1 configuration per
 * shared-memory size the CUDA runtime offers, named by its L1 size ("120KB").
 */
export function carveouts(onChipKB: number, sharedKBs: readonly number[]): L1Config[] {
  return sharedKBs.map((s) => {
    const l1 = modernL1((onChipKB - s) * KB);
    return { id: `${onChipKB - s}KB`, sizeBytes: l1.sizeBytes, geometry: l1.geometry, sharedBytes: s * KB };
  });
}

/** Provenance of a modern L1's geometry under `at` (the default level or a carveout). */
export function l1GeometryProvenance(at: string): Record<string, string> {
  return {
    [`${at}.lineBytes`]: 'NVIDIA Nsight Compute Kernel Profiling Guide, memory tables (L1: 128 B lines of four 32 B sectors)',
    [`${at}.sectorBytes`]: 'NVIDIA Nsight Compute Kernel Profiling Guide, memory tables (32 B sectors; a miss fetches only the sectors it needs)',
    [`${at}.sets`]: 'assumed: no paper gives the set count; 32 sets divide the lines of every carveout, and the ways follow the carveout',
    [`${at}.ways`]: 'assumed: size / (32 sets x 128 B): the ways follow the carveout',
  };
}

/** Provenance of every carveout of a preset (one block per configuration). */
export function carveoutProvenance(configs: readonly L1Config[], sizeSource: string): Record<string, string> {
  const out: Record<string, string> = {};
  configs.forEach((c, i) => {
    out[`l1Configs.${i}.sizeBytes`] = `${sizeSource} (L1 = the on-chip memory less ${(c.sharedBytes ?? 0) / KB} KB of shared memory)`;
    out[`l1Configs.${i}.sharedBytes`] = sizeSource;
    Object.assign(out, l1GeometryProvenance(`l1Configs.${i}.geometry`));
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

/** Provenance of modernTranslation: `source` names the table it comes from, or says it is assumed and why. */
export function translationProvenance(source: string): Record<string, string> {
  const assumed = source.startsWith('assumed');
  return {
    'translation.pageBytes': assumed ? source : `${source} (2 MB page entries in the L1 TLB)`,
    'translation.l1': assumed ? source : `${source} (L1 TLB: 32 MB coverage in 2 MB entries: 16 entries)`,
    'translation.l2': assumed ? source : `${source} (L2 TLB: 8192 MB coverage in 32 MB entries: 256 entries)`,
    'translation.l1.geometry.sets': 'assumed: the papers give coverage and entry size only; one fully associative set, as MEI Table 4 finds on Fermi and Kepler',
    'translation.l2.geometry.sets': 'assumed: the papers give coverage and entry size only; one fully associative set',
    'translation.l1.geometry.policy': 'assumed: LRU, as MEI Table 4 finds for the TLBs of Fermi and Kepler',
    'translation.l2.geometry.policy': 'assumed: LRU, as MEI Table 4 finds for the TLBs of Fermi and Kepler',
    'translation.virtualLevels': 'assumed: an L1 hit pays no translation (the L1 is looked up before the TLBs); the L2 is reached with a physical address',
  };
}

/** L1 TLB miss and L2 TLB miss penalties (cycles) of MEI Table 3's Kepler row, which these presets borrow. */
export const TLB_PENALTY = { l1Miss: 6, l2MissCached: 59, l2MissMemory: 363 };

/** The latency table of a global path L1 -> L2 -> memory with the L1 looked up before translation. */
export function modernLatency(l1: number, l2: number, memory: number): Record<string, number> {
  return {
    'L1/-': l1,
    'L2/l1': l2,
    'L2/l2': +(l2 + TLB_PENALTY.l1Miss).toFixed(1),
    'L2/miss': +(l2 + TLB_PENALTY.l2MissCached).toFixed(1),
    'memory/l1': memory,
    'memory/l2': +(memory + TLB_PENALTY.l1Miss).toFixed(1),
    'memory/miss': +(memory + TLB_PENALTY.l2MissMemory).toFixed(1),
  };
}

/** Provenance of the TLB-miss entries of modernLatency (the hit entries cite their paper). */
export const TLB_MISS_LATENCY_PROVENANCE: Record<string, string> = {
  'L2/l2': 'assumed: the papers measure no TLB-miss cost for this GPU; the L2 hit plus the L1 TLB miss penalty of MEI Table 3, Kepler (236 - 230 = 6)',
  'L2/miss': 'assumed: the L2 hit plus the L2 TLB miss penalty of MEI Table 3, Kepler (289 - 230 = 59)',
  'memory/l2': 'assumed: the DRAM latency plus the L1 TLB miss penalty of MEI Table 3, Kepler (6)',
  'memory/miss': 'assumed: the DRAM latency plus the L2 TLB miss penalty of MEI Table 3, Kepler (734 - 371 = 363)',
};

/** Shared memory of Volta and later: 32 banks of 4 bytes, word w in bank w mod 32, one warp at a time. */
export function modernShared(sizeBytes: number, onChipBytes: number, base: number): Preset['shared'] {
  return {
    sizeBytes,
    banks: 32,
    issueGroup: 32,
    modes: { '4-byte': { slotWords: 1, rowWords: 32 } },
    defaultMode: '4-byte',
    latency: { base, perConflict: 2 },
    onChipBytes,
  };
}

export const MODERN_SHARED_PROVENANCE: Record<string, string> = {
  'shared.banks': 'NVIDIA CUDA C++ Programming Guide, compute capability 5.x and later, shared memory (32 banks)',
  'shared.issueGroup': 'NVIDIA CUDA C++ Programming Guide, compute capability 5.x and later (a shared-memory request of a warp)',
  'shared.modes': 'NVIDIA CUDA C++ Programming Guide, compute capability 5.x and later (successive 32-bit words in successive banks)',
  'shared.latency.perConflict':
    'assumed: no paper gives the cost of a further conflicting row on this GPU; one more pass of the banks, taken as 2 cycles (a prediction to hold against a real GPU)',
};

/** Prefixes every key of a provenance block with the path it describes. */
export function at(prefix: string, block: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(block).map(([k, v]) => [`${prefix}.${k}`, v]));
}
