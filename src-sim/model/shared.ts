/**
 * Shared memory banks. A word address w (in 4-byte words) sits in bank floor(w / slotWords) mod banks
 * and in row floor(w / rowWords). Threads of one issue group that touch different rows of one bank
 * conflict; threads reading the same row of a bank are served together (broadcast).
 *  - Fermi (MEI Fig 4): 32 banks, slotWords 1, rowWords 32: degree = gcd(stride, 32).
 *  - Kepler 4-byte mode (MEI Fig 6): slotWords 1, rowWords 64; 8-byte mode: slotWords 2, rowWords 64.
 *  - Tesla: 16 banks, rowWords 16, issued per half-warp (issueGroup 16).
 */
export interface SharedBankMode {
  slotWords: number;
  rowWords: number;
}

export interface SharedMemoryConfig {
  sizeBytes: number;
  banks: number;
  /** Threads issued together: 32 (a warp) or 16 (Tesla's half-warp). */
  issueGroup: number;
  modes: Record<string, SharedBankMode>;
  defaultMode: string;
  /** Latency of a conflict-free access, and the cycles each further conflicting row adds. */
  latency: { base: number; perConflict: number };
  /** The SM's on-chip memory that shared memory and the L1 data cache split (64 KB on Fermi and Kepler); absent: not checked. */
  onChipBytes?: number;
}

/** Conflict degree of one warp's access: the most distinct rows any bank must serve in one issue group. */
export function conflictDegree(words: ArrayLike<number>, banks: number, mode: SharedBankMode, issueGroup: number): number {
  let worst = 1;
  const rowsSeen = new Map<number, Set<number>>();
  for (let g = 0; g < words.length; g += issueGroup) {
    rowsSeen.clear();
    for (let t = g; t < Math.min(words.length, g + issueGroup); t++) {
      const w = words[t];
      const bank = Math.floor(w / mode.slotWords) % banks;
      const row = Math.floor(w / mode.rowWords);
      let set = rowsSeen.get(bank);
      if (!set) rowsSeen.set(bank, (set = new Set()));
      set.add(row);
      if (set.size > worst) worst = set.size;
    }
  }
  return worst;
}

/** Latency of one warp access of the given conflict degree: conflicting rows are served one after another. */
export function sharedLatency(cfg: SharedMemoryConfig, degree: number): number {
  return cfg.latency.base + (degree - 1) * cfg.latency.perConflict;
}
