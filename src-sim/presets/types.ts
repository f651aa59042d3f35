import type { PathConfig } from '../model/path';
import type { SharedMemoryConfig } from '../model/shared';

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
  generation: 'Tesla' | 'Fermi' | 'Kepler';
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
  };
  alu: {
    /** Dependent single-precision ALU latency in cycles (WONG Table II: 24). */
    spLatency: number;
  };
  shared: SharedMemoryConfig;
  spaces: Partial<Record<SpaceId, PathConfig>> & { global: PathConfig };
  provenance: Record<string, string>;
}
