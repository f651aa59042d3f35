import type { Stats } from './stats';

/**
 * The L1's MSHR table (LASH IV; GPGPU-Sim's mshr_table): per SM `entries` entries, each for one
 * pending line, with `mergers` merger fields (the request that allocated the entry counts as one).
 * A later miss to the pending line merges into its entry while a field is free (`merge`), else the
 * LSU stalls (nomerger); a miss to a new line allocates an entry (`allocate`) when one is free, else
 * the LSU stalls (nomshrline). The fill releases the entry and every merged request (`release`).
 * Entry e of SM sm is in sm x entries .. (sm + 1) x entries - 1; its fields at e x mergers + i.
 */
export class L1Mshr {
  declare readonly st: Stats;
  declare readonly entries: number;
  declare readonly mergers: number;
  /** Per entry: the line, its reserved L1 way (-1: allocate on fill), the fields in use. */
  declare readonly mLine: Float64Array;
  declare readonly mSlot: Int32Array;
  declare readonly mCount: Int32Array;
  /** Per field: the warp and register the request returns to. */
  declare readonly mWarp: Int32Array;
  declare readonly mReg: Int32Array;
  /** Entries in use per SM; merger fields in use per SM. */
  declare readonly mUsed: Int32Array;
  declare readonly mMerged: Int32Array;
  /** Free entries of each SM (a stack). */
  declare readonly mFreeEntry: Int32Array;
  declare readonly mFreeTop: Int32Array;

  constructor(sms: number, entries: number, mergers: number, st: Stats) {
    this.st = st;
    this.entries = entries;
    this.mergers = mergers;
    this.mLine = new Float64Array(sms * entries).fill(-1);
    this.mSlot = new Int32Array(sms * entries);
    this.mCount = new Int32Array(sms * entries);
    this.mUsed = new Int32Array(sms);
    this.mFreeEntry = new Int32Array(sms * entries);
    this.mFreeTop = new Int32Array(sms).fill(entries);
    for (let sm = 0; sm < sms; sm++) for (let i = 0; i < entries; i++) this.mFreeEntry[sm * entries + i] = sm * entries + entries - 1 - i;
    this.mMerged = new Int32Array(sms);
    this.mWarp = new Int32Array(sms * entries * mergers);
    this.mReg = new Int32Array(sms * entries * mergers);
  }

  /** Every entry of sm is in use: a miss to a new line cannot be taken (nomshrline). */
  full(sm: number): boolean {
    return this.mUsed[sm] === this.entries;
  }

  /**
   * Merges a request for register r of warp w into pending entry e of sm: takes one of its merger
   * fields. False (nothing changed) when all of them are in use: the LSU stalls (nomerger).
   */
  merge(sm: number, e: number, w: number, r: number): boolean {
    const n = this.mCount[e];
    if (n >= this.mergers) return false;
    this.mWarp[e * this.mergers + n] = w;
    this.mReg[e * this.mergers + n] = r;
    this.mCount[e] = n + 1;
    const st = this.st;
    st.mergersInUse++;
    if (++this.mMerged[sm] > st.peakMergers) st.peakMergers = this.mMerged[sm];
    return true;
  }

  /** Allocates an entry of sm (full(sm) said one is free) for `line` in way `slot`, its first field for (w, r). */
  allocate(sm: number, line: number, slot: number, w: number, r: number): number {
    const e = this.mFreeEntry[sm * this.entries + --this.mFreeTop[sm]];
    this.mLine[e] = line;
    this.mSlot[e] = slot;
    this.mCount[e] = 1;
    this.mWarp[e * this.mergers] = w;
    this.mReg[e * this.mergers] = r;
    const st = this.st;
    if (++this.mUsed[sm] > st.peakMshr) st.peakMshr = this.mUsed[sm];
    st.mshrInUse++;
    st.mergersInUse++;
    if (++this.mMerged[sm] > st.peakMergers) st.peakMergers = this.mMerged[sm];
    return e;
  }

  /** The fill of entry e of sm arrived and its n merged requests were answered: the entry is free. */
  release(sm: number, e: number, n: number): void {
    this.mLine[e] = -1;
    this.mFreeEntry[sm * this.entries + this.mFreeTop[sm]++] = e;
    this.mCount[e] = 0;
    this.mUsed[sm]--;
    const st = this.st;
    st.mshrInUse--;
    st.mergersInUse -= n;
    this.mMerged[sm] -= n;
  }
}
