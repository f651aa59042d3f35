import type { TimingCacheConfig } from './types';

/**
 * The tag state of a timing-tier cache (an SM's L1 or one L2 slice): set-associative, LRU or FIFO,
 * with the one thing the latency tier's Cache (src-sim/model/cache.ts) has no notion of: a line
 * RESERVED for an outstanding miss (LASH IV). A reserved line holds its tag (so a second miss to the
 * same line finds it and merges into its MSHR entry) but no data, and it cannot be chosen as a victim
 * until its fill arrives: when every way of a set is reserved, a new miss to that set cannot reserve a
 * line ("nocacheline"). The latency tier answers one access at a time with no time in between, so it
 * never needs this state; keeping it here leaves the latency tier's results untouched.
 *
 * Sets are picked by bit selection on the line number (after dividing out the slice interleave for
 * L2 slices), as the latency tier's default 'bits' index, or by a set function: the L2's address map
 * (l2.addressMap) or the L1's Fermi hash (l1.setIndex, `fermiHashSet`). All state is in typed
 * arrays; nothing is allocated per access.
 */

/** The set counts FERMI_HASH_SET_FUNCTION is defined for. */
export const FERMI_HASH_SETS: readonly number[] = [32, 64];

export function fermiHashFits(sets: number): boolean {
  return FERMI_HASH_SETS.includes(sets);
}

/** What a run's notes say of a set count `withL1Sets` moved from the Fermi hash to linear indexing. */
export const LINEAR_FALLBACK = `indexed linearly (the Fermi hash needs ${FERMI_HASH_SETS.join(' or ')} sets)`;

/**
 * `l1` with `sets` sets. A Fermi-hash L1 whose new count the hash cannot take indexes linearly, as a
 * GPGPU-Sim configuration for that count must (LASH Fig 7's Sets- on fermi480, sweeps of l1.sets).
 */
export function withL1Sets(l1: TimingCacheConfig, sets: number): TimingCacheConfig {
  return l1.setIndex === 'fermi-hash' && !fermiHashFits(sets) ? { ...l1, sets, setIndex: 'linear' } : { ...l1, sets };
}

/**
 * GPGPU-Sim 3.2's FERMI_HASH_SET_FUNCTION (gpu-cache.cc `l1d_cache_config::set_index`, from Nugteren
 * et al., "A Detailed GPU Cache Model Based on Reuse Distance Theory", HPCA 2014) for a line of
 * `lineBytes`: the five address bits above the line offset XOR address bits 13, 14, 15, 17 and 19;
 * 64 sets take address bit 12 as the sixth bit. Defined for FERMI_HASH_SETS only (the caller checks).
 */
export function fermiHashSet(line: number, lineBytes: number, sets: number): number {
  const addr = line * lineBytes;
  const lower = line % 32;
  const upper = (Math.floor(addr / 8192) % 8) | ((Math.floor(addr / 131072) % 2) << 3) | ((Math.floor(addr / 524288) % 2) << 4);
  const set = lower ^ upper;
  return sets === 64 ? set | ((Math.floor(addr / 4096) % 2) << 5) : set;
}

/**
 * `fermiHashSet` as a function of the line number alone, for one line size and set count, in 32-bit
 * integer arithmetic (the L1's lookups call it on every access); line numbers of 2^31 and above take
 * the general form.
 */
export function fermiHashSetFn(lineBytes: number, sets: number): (line: number) => number {
  const s = Math.round(Math.log2(lineBytes));
  const b13 = 13 - s;
  const b17 = 17 - s;
  const b19 = 19 - s;
  const b12 = 12 - s;
  if (2 ** s !== lineBytes || b12 < 0) return (line) => fermiHashSet(line, lineBytes, sets);
  const six = sets === 64 ? 1 : 0;
  return (line) => {
    if (line >= 2147483648) return fermiHashSet(line, lineBytes, sets);
    const set = (line & 31) ^ ((line >> b13) & 7) ^ (((line >> b17) & 1) << 3) ^ (((line >> b19) & 1) << 4);
    return set | ((((line >> b12) & 1) & six) << 5);
  };
}

export const INVALID = 0;
export const VALID = 1;
export const RESERVED = 2;
// Local copies for the hot paths (see units/codes.ts on imported bindings).
const S_INVALID = 0;
const S_VALID = 1;

export class TagArray {
  declare readonly sets: number;
  declare readonly ways: number;
  /** Line number held by each slot (set * ways + way), -1 when invalid. */
  declare readonly tags: Float64Array;
  declare readonly state: Uint8Array;
  declare readonly dirty: Uint8Array;
  /** Valid sectors of each slot, a bit each (sectored L2 lines; unused elsewhere). */
  declare readonly sectors: Int32Array;
  /** Recency stamp (LRU: last use; FIFO: fill). */
  declare readonly stamp: Float64Array;
  /** 1: LRU (touch on hit), 0: FIFO. */
  declare readonly lru: number;
  /** Lines of one slice are interleaved over `stride` slices: set = floor(line / stride) mod sets. */
  declare readonly stride: number;
  declare clock: number;

  /** A set function replacing the stride rule (an L2 slice under l2.addressMap), or null. */
  declare readonly setFn: ((line: number) => number) | null;

  constructor(sets: number, ways: number, policy: 'lru' | 'fifo', stride = 1, setFn: ((line: number) => number) | null = null) {
    this.sets = sets;
    this.ways = ways;
    this.tags = new Float64Array(sets * ways).fill(-1);
    this.state = new Uint8Array(sets * ways);
    this.dirty = new Uint8Array(sets * ways);
    this.sectors = new Int32Array(sets * ways);
    this.stamp = new Float64Array(sets * ways);
    this.lru = policy === 'lru' ? 1 : 0;
    this.stride = stride;
    this.setFn = setFn;
    this.clock = 0;
  }

  setOf(line: number): number {
    if (this.setFn !== null) return this.setFn(line);
    const q = this.stride === 1 ? line : Math.floor(line / this.stride);
    return q % this.sets;
  }

  /** Slot holding `line` (valid or reserved), or -1. */
  find(line: number): number {
    const base = this.setOf(line) * this.ways;
    const end = base + this.ways;
    const tags = this.tags;
    for (let s = base; s < end; s++) if (tags[s] === line) return s;
    return -1;
  }

  touch(slot: number): void {
    if (this.lru) this.stamp[slot] = ++this.clock;
  }

  /** The slot a new line of this set would take: an invalid way first, else the least recent valid
   *  (not reserved) way; -1 when every way is reserved. */
  victim(line: number): number {
    const base = this.setOf(line) * this.ways;
    const end = base + this.ways;
    let best = -1;
    let bestStamp = Infinity;
    for (let s = base; s < end; s++) {
      const st = this.state[s];
      if (st === S_INVALID) return s;
      if (st === S_VALID && this.stamp[s] < bestStamp) {
        bestStamp = this.stamp[s];
        best = s;
      }
    }
    return best;
  }

  /** Puts `line` in `slot` in the given state (a fill or a reservation); stamps it as newest. */
  install(slot: number, line: number, state: number, dirty: number): void {
    this.tags[slot] = line;
    this.state[slot] = state;
    this.dirty[slot] = dirty;
    this.stamp[slot] = ++this.clock;
  }

  /** A reserved line's data arrived. */
  fill(slot: number): void {
    this.state[slot] = S_VALID;
    this.stamp[slot] = ++this.clock;
  }
}
