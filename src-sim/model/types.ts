/** Plain-data configuration of the simulator's parts. Presets are built from these. */

/** How an address picks its set. One small named strategy each (see ./index/). */
export type IndexFunction =
  /** Bit selection: set = floor(addr / 2^shiftBits) mod sets. shiftBits defaults to log2(lineBytes)
   *  (the traditional split); the texture L1 of MEI Fig 12 uses shiftBits = 7. */
  | { kind: 'bits'; shiftBits?: number }
  /** XOR-folding hash of the line number onto the sets. */
  | { kind: 'xor' }
  /** Unequal sets (MEI Fig 10): line number mod total entries, dealt round-robin over the sets that
   *  still have room, so the big set takes the entries left over. */
  | { kind: 'interleave' };

/** Which way a miss evicts. One small named strategy each (see ./replacement/). */
export type ReplacementPolicy =
  | { kind: 'lru' }
  | { kind: 'fifo' }
  | { kind: 'random' }
  /** MEI Fig 8: one hot way is replaced with probability hotProbability, the others share the rest
   *  uniformly (1/2 and 1/6 each for 4 ways), so the hot way is refilled every two misses on average. */
  | { kind: 'fermi'; hotWay: number; hotProbability: number }
  /** LRU insertion (the model's reading of JIA18 §3.1.2, the Volta L1): the victim is the least
   *  recently used line and, once the set is full, the new line stays least recently used (the same
   *  way of a set is replaced miss after miss); a hit makes a line the most recently used. */
  | { kind: 'lip' };

export interface CacheGeometry {
  /** Bytes one line (or one TLB entry) covers. */
  lineBytes: number;
  /** Number of sets. */
  sets: number;
  /** Ways per set when the sets are equal. */
  ways: number;
  /** Ways of each set when the sets are unequal (length = sets); overrides `ways`. */
  setWays?: number[];
  index: IndexFunction;
  policy: ReplacementPolicy;
  /** Allocate a line on a miss (default true). */
  allocateOnMiss?: boolean;
  /**
   * Bytes of one sector where a line is split into sectors that are filled one at a time (Volta and
   * later: 128 B lines of 32 B sectors). A miss allocates the line (tag) and fills only the sector
   * touched; a later access to another sector of a present line is a sector miss that fills it and
   * evicts nothing. Absent or equal to lineBytes: the whole line is filled at once.
   */
  sectorBytes?: number;
  /**
   * Bytes one fill brings into a sectored line (a power of two, sectorBytes to lineBytes): a line
   * miss or a sector miss fills every sector of the aligned fillBytes block around the address, not
   * only the sector touched (an L2 of 32 B sectors filled from DRAM 64 B at a time: JIA18 Fig 3.2,
   * JIA19 Fig 3.5). Absent: one sector a fill.
   */
  fillBytes?: number;
}

export function totalLines(g: CacheGeometry): number {
  return g.setWays ? g.setWays.reduce((a, b) => a + b, 0) : g.sets * g.ways;
}

export function capacityBytes(g: CacheGeometry): number {
  return totalLines(g) * g.lineBytes;
}
