import type { PathConfig, Scope } from '../model/path';
import type { CacheGeometry } from '../model/types';
import type { SharedMemoryConfig } from '../model/shared';
import type { TimingConfig } from '../timing/types';
import type { CoreConfig } from '../core/types';

/** GPU generations of the built-in and custom presets, oldest first. */
export const GENERATIONS = ['Tesla', 'Fermi', 'Kepler', 'Volta', 'Turing', 'Ampere', 'Hopper'] as const;
export type Generation = (typeof GENERATIONS)[number];

/** The memory spaces a preset can model (the latency tier). */
export type SpaceId = 'global' | 'global-cg' | 'texture' | 'constant' | 'instruction';
export const SPACE_IDS: readonly SpaceId[] = ['global', 'global-cg', 'texture', 'constant', 'instruction'];

/**
 * A simulated GPU: plain data. Every number carries its provenance in `provenance`, keyed by the
 * dotted path of the number or of an object above it ("spaces.global.levels.0"): a paper with its
 * table or figure, or "assumed: <reason>".
 */
export interface Preset {
  id: string;
  name: string;
  device: string;
  generation: Generation;
  computeCapability: string;
  description: string;
  chip: {
    sms: number;
    /** SMs per TPC (clock registers, per-TPC caches); 1 where the SM is its own cluster. */
    smPerTpc: number;
    coreClockMHz: number;
  };
  measurement: {
    /** Cycles of a clock() read around a timed access (WONG IV-A: 28 on GT200). */
    clockOverhead: number;
    /** Cycles added to interconnect-crossing latencies per TPC placement (WONG Figs 11, 17). Mean 0. */
    tpcOffsets: number[];
    /** Which unit owns the clock register clock() reads (WONG IV-A, Fig 5: per TPC on GT200); absent: unknown. */
    clockScope?: Scope;
  };
  alu: {
    /** Dependent single-precision ALU latency in cycles (WONG Table II: 24). */
    spLatency: number;
    /** Cycles between issuing two instructions of one warp (WONG Table II: 4 on GT200); absent: unknown. */
    issueCycles?: number;
  };
  shared: SharedMemoryConfig;
  spaces: Partial<Record<SpaceId, PathConfig>> & { global: PathConfig };
  /**
   * Other configurations of the SM's L1 data cache (Fermi: 16 KB or 48 KB, MEI 4.1; Volta and later:
   * the L1 / shared-memory carveouts). An experiment whose `l1Config` parameter names one replaces
   * the SM-scoped first level of the global paths (and, where the configuration gives it, the
   * shared-memory size).
   */
  l1Configs?: L1Config[];
  /** The timing tier's view of the GPU (src-sim/timing): SMs, schedulers, caches with MSHRs, interconnect, DRAM. */
  timing?: TimingConfig;
  /** The SM's execution core (src-sim/core): units and operations, register file, instruction fetch, constant L3 bandwidth (WONG); absent: not modelled. */
  core?: CoreConfig;
  provenance: Record<string, string>;
}

/** One alternative L1 data-cache configuration (see Preset.l1Configs). */
export interface L1Config {
  /** Short name a parameter selects it by, e.g. "48KB". */
  id: string;
  sizeBytes: number;
  geometry: CacheGeometry;
  /**
   * Shared memory of this carveout (Volta and later: the SM's on-chip memory split between L1 and
   * shared memory; sizeBytes + sharedBytes = shared.onChipBytes). 0: the carveout with no shared
   * memory, where the shared-memory model keeps the preset's size (no shared-memory experiment uses a
   * carveout). Absent: the preset's shared memory is unchanged (Fermi's 48 KB L1).
   */
  sharedBytes?: number;
  /**
   * Bytes of the carveout's L1 share that a pointer chase never sees (JIA18 / JIA19 Table 3.3: 7 KB on
   * V100 and T4): the L1 holds sizeBytes, and sizeBytes + reservedBytes + sharedBytes = onChipBytes.
   * Absent: 0. The id names the nominal split.
   */
  reservedBytes?: number;
}
