import { bitsSet } from './index/bits';
import { interleaveTable } from './index/interleave';
import { xorSet } from './index/xor';
import { fermiVictim, POLICY_CODE, randomVictim } from './replacement';
import { PolicyDraws } from './replacement/draws';
import type { CacheGeometry } from './types';
import { totalLines } from './types';

/** Index functions; bit selection by powers of two (the usual case) has its own fast code. */
const INDEX_BITS_POW2 = 0;
const INDEX_BITS = 1;
const INDEX_XOR = 2;
const INDEX_INTERLEAVE = 3;
const POLICY_LRU = POLICY_CODE.lru;
const POLICY_FIFO = POLICY_CODE.fifo;
const POLICY_RANDOM = POLICY_CODE.random;
const POLICY_LIP = POLICY_CODE.lip;
/** Sets wider than this get a presence filter (below, scanning the set on a miss costs as little);
 *  up to 255 ways, as its counts are bytes. */
const FILTER_FROM_WAYS = 8;
const FILTER_TO_WAYS = 255;

const isPow2 = (n: number): boolean => n > 0 && Number.isInteger(Math.log2(n));

/** x mod m for an integer 0 <= x < 2^52, with 1/m given: the estimated quotient is off by at most one. */
function modOf(x: number, m: number, invM: number): number {
  const r = x - Math.floor(x * invM) * m;
  return r < 0 ? r + m : r >= m ? r - m : r;
}

/**
 * A set-associative cache of lines (or a TLB of page entries): equal or unequal sets, a named index
 * function and a named replacement policy. State lives in typed arrays; `access` allocates nothing.
 * Tags are full line numbers (addr / lineBytes), so any index function is exact.
 *
 * How it is kept fast (`npm run bench`, measured on V8):
 * - Fields are `declare`d and set once in the constructor. A plain field declaration compiles to an
 *   ES2022 class field that starts as `undefined`, after which V8 keeps the numbers in it boxed.
 *   Flags are numbers, not booleans (V8 tests a boolean field for truth the long way).
 * - `access` is a small fast path (the line touched last, again) that V8 inlines into its caller; it
 *   compares with a field (mruLine) rather than the tag array (a typed-array read costs V8 several
 *   loads and checks).
 * - The outcome is stored as one slot number (lastSet and lastWay are computed when read).
 * - LRU and FIFO keep each set's ways in a circular recency list in typed arrays, oldest first: a
 *   miss turns the oldest way into the newest by moving the list's start one step, with no scan.
 *   Invalid ways start at the old end in way order, so a cold set fills way 0, 1, ... (the first
 *   invalid way). LIP keeps the same list and also counts the ways filled: once its set is full, a
 *   miss replaces the oldest way and leaves the list's start where it is (the new line stays the
 *   oldest). Random and Fermi count the ways filled so far.
 * - Wide sets have a counting presence filter per set over hashed line numbers (next to each other
 *   in memory, as the set's tags are): a miss is usually known without scanning the set.
 * - The Fermi policy draws without branching on its random numbers (PolicyDraws.fermiVictim).
 */
export class Cache {
  declare readonly geometry: CacheGeometry;
  declare readonly lineBytes: number;
  declare readonly sets: number;
  declare readonly lines: number;
  /** First slot of each set in the flat arrays, and its number of ways. */
  declare readonly setBase: Int32Array;
  declare readonly setWays: Int32Array;
  /** Line number held by each slot, -1 when invalid. */
  declare readonly tags: Float64Array;
  /** Outcome of the last access: the evicted line (-1 if none). */
  declare lastEvicted: number;

  /** The slot last hit or filled, or -1 - set after a miss that allocates nothing. */
  private declare lastSlot: number;
  /** tags[lastSlot] when the last slot can be checked first (see the constructor), else NaN (equal to
   *  no line number): the fast path compares with a field instead of reading the tag array. Kept in
   *  step wherever lastSlot or a tag changes. */
  private declare mruLine: number;
  /** 0 when the last slot can be checked first, else NaN: mruLine = line number + mruOff, no branch. */
  private declare readonly mruOff: number;
  /** The set of each slot. */
  private declare readonly slotSet: Int32Array;
  private declare readonly indexCode: number;
  private declare readonly divisor: number;
  /** 1 when the line size is a power of two, so that multiplying by its reciprocal is exact. */
  private declare readonly lineByShift: number;
  /** Reciprocals (exact for powers of two) and 1 / the interleave table's length. */
  private declare readonly invLine: number;
  private declare readonly invDivisor: number;
  private declare readonly invTable: number;
  /** sets - 1 (power-of-two bit selection). */
  private declare readonly setMask: number;
  /** Interleave index: the set of each line number modulo the table length (empty otherwise). */
  private declare readonly table: Int32Array;
  private declare readonly policyCode: number;
  /** 1 when a hit makes its line the newest of its set (LRU and LIP). */
  private declare readonly touchOnHit: number;
  private declare readonly hotWay: number;
  private declare readonly hotProbability: number;
  /** ceil(hotProbability * 2^32), compared with a raw 32-bit draw (as an int32 bit pattern), when it
   *  lies in 1 .. 2^32 - 1 (hotFast 1); otherwise the reference fermiVictim draws. */
  private declare readonly hotBelow: number;
  private declare readonly hotFast: number;
  private declare readonly allocate: number;
  private declare readonly draws: PolicyDraws;
  private declare readonly seed: number;
  /** LRU and LIP (by use) and FIFO (by fill): each set's slots in a circular list, `oldest` per set,
   *  and per slot the next newer and next older slot (the newest is the one older than the oldest). */
  private declare readonly oldest: Int32Array;
  private declare readonly newer: Int32Array;
  private declare readonly older: Int32Array;
  /** Random, Fermi and LIP: ways filled so far in each set (ways fill in order). */
  private declare readonly filled: Int32Array;
  /** Presence filter (1 when on): per set, 2^filterBits byte counters of the valid lines of the set
   *  whose hash falls in each bucket; a line whose bucket is 0 is absent from the set. `slotBucket`
   *  keeps each valid slot's bucket, for its eviction. */
  private declare readonly useFilter: number;
  private declare readonly filter: Uint8Array;
  private declare readonly filterBits: number;
  private declare readonly filterShift: number;
  private declare readonly slotBucket: Int32Array;
  /** Sectored lines (geometry.sectorBytes below lineBytes): 1 when on. `sectorValid` holds each
   *  slot's filled sectors as a bit mask (up to 32 sectors a line); `invSector` is 1 / sectorBytes and
   *  `sectorsPerLine` the number of sectors. Off: the arrays are empty and nothing reads them. */
  private declare readonly sectored: number;
  private declare readonly sectorValid: Uint32Array;
  private declare readonly invSector: number;
  private declare readonly sectorsPerLine: number;
  /** The sectors one fill brings in (geometry.fillBytes; one sector when absent): `fillMask` has a bit
   *  for each sector of a fill block (as an int32 bit pattern) and `fillAlign` = -(sectors a fill), so
   *  that the block of sector i is fillMask << (i & fillAlign). One sector: 1 and -1 (the sector bit). */
  private declare readonly fillMask: number;
  private declare readonly fillAlign: number;
  /** Outcome of the last access: 1 when it missed a sector of a line already present (no eviction). */
  declare lastSectorMiss: number;

  constructor(geometry: CacheGeometry, seed = 1) {
    this.geometry = geometry;
    this.lineBytes = geometry.lineBytes;
    this.sets = geometry.sets;
    this.lines = totalLines(geometry);
    this.setBase = new Int32Array(this.sets);
    this.setWays = new Int32Array(this.sets);
    this.slotSet = new Int32Array(this.lines);
    let base = 0;
    let widest = 0;
    for (let s = 0; s < this.sets; s++) {
      const w = geometry.setWays ? geometry.setWays[s] : geometry.ways;
      this.setBase[s] = base;
      this.setWays[s] = w;
      this.slotSet.fill(s, base, base + w);
      base += w;
      widest = Math.max(widest, w);
    }
    this.tags = new Float64Array(this.lines);
    this.lastEvicted = -1;
    this.lastSlot = 0;

    const idx = geometry.index;
    const shift = idx.kind === 'bits' && idx.shiftBits !== undefined ? idx.shiftBits : Math.log2(geometry.lineBytes);
    const pow2 = Number.isInteger(shift) && isPow2(this.sets);
    this.indexCode = idx.kind === 'bits' ? (pow2 ? INDEX_BITS_POW2 : INDEX_BITS) : idx.kind === 'xor' ? INDEX_XOR : INDEX_INTERLEAVE;
    this.divisor = 2 ** shift;
    this.lineByShift = isPow2(geometry.lineBytes) ? 1 : 0;
    this.invLine = 1 / geometry.lineBytes;
    this.invDivisor = 1 / this.divisor;
    this.setMask = this.sets - 1;
    this.table =
      idx.kind === 'interleave'
        ? interleaveTable(geometry.setWays ?? new Array<number>(this.sets).fill(geometry.ways))
        : new Int32Array(0);
    this.invTable = this.table.length > 0 ? 1 / this.table.length : 0;

    const pol = geometry.policy;
    this.policyCode = POLICY_CODE[pol.kind];
    this.touchOnHit = this.policyCode === POLICY_LRU || this.policyCode === POLICY_LIP ? 1 : 0;
    this.hotWay = pol.kind === 'fermi' ? pol.hotWay : 0;
    this.hotProbability = pol.kind === 'fermi' ? pol.hotProbability : 0;
    const hotBelow = Math.ceil(this.hotProbability * 4294967296);
    this.hotBelow = hotBelow | 0;
    this.hotFast = hotBelow >= 1 && hotBelow <= 0xffffffff ? 1 : 0;
    this.allocate = geometry.allocateOnMiss !== false ? 1 : 0;
    this.seed = seed;
    this.draws = new PolicyDraws(seed);
    this.oldest = new Int32Array(this.sets);
    this.newer = new Int32Array(this.lines);
    this.older = new Int32Array(this.lines);
    this.filled = new Int32Array(this.sets);
    // Four buckets per way keep a miss's chance of finding a nonzero bucket near 1/4.
    this.useFilter = widest > FILTER_FROM_WAYS && widest <= FILTER_TO_WAYS ? 1 : 0;
    this.filterBits = Math.ceil(Math.log2(4 * widest));
    this.filterShift = 32 - this.filterBits;
    this.filter = new Uint8Array(this.useFilter === 1 ? this.sets << this.filterBits : 0);
    this.slotBucket = new Int32Array(this.useFilter === 1 ? this.lines : 0);
    const sector = geometry.sectorBytes ?? geometry.lineBytes;
    this.sectored = sector < geometry.lineBytes ? 1 : 0;
    this.sectorsPerLine = this.sectored === 1 ? geometry.lineBytes / sector : 1;
    this.invSector = 1 / sector;
    this.sectorValid = new Uint32Array(this.sectored === 1 ? this.lines : 0);
    // (a power of two from one sector to the line, as the validator asks; other values round down)
    const perFill = this.sectored === 1 && geometry.fillBytes !== undefined ? 2 ** Math.floor(Math.log2(Math.min(this.sectorsPerLine, Math.max(1, geometry.fillBytes / sector)))) : 1;
    this.fillMask = perFill >= 32 ? -1 : (1 << perFill) - 1;
    this.fillAlign = -perFill;
    this.lastSectorMiss = 0;
    // The last slot can be checked first when the cache allocates and a line's set follows from its
    // line number alone (not so if set bits lie inside the line).
    // A sectored cache never takes the fast path: a line present may still miss the sector touched.
    const mruSafe = this.allocate === 1 && this.sectored === 0 && (idx.kind !== 'bits' || this.divisor >= geometry.lineBytes);
    this.mruOff = mruSafe ? 0 : NaN;
    this.mruLine = NaN;
    this.reset();
  }

  /** Outcome of the last access: its set. */
  get lastSet(): number {
    const s = this.lastSlot;
    return s >= 0 ? this.slotSet[s] : -1 - s;
  }

  /** Outcome of the last access: the way hit or filled (-1: a miss that allocates nothing). */
  get lastWay(): number {
    const s = this.lastSlot;
    return s >= 0 ? s - this.setBase[this.slotSet[s]] : -1;
  }

  /** The line number of an address. */
  lineOf(addr: number): number {
    // A multiplication where the line size is a power of two (exact), else a division.
    return this.lineByShift === 1 ? Math.floor(addr * this.invLine) : Math.floor(addr / this.lineBytes);
  }

  /** The set an address maps to. */
  setOf(addr: number): number {
    return this.setOfLine(addr, this.lineOf(addr));
  }

  private setOfLine(addr: number, lineNo: number): number {
    // Powers of two: the multiplication is exact, and `>>> 0` takes floor(addr / divisor) modulo
    // 2^32, a multiple of the number of sets (integer operations, no floating-point remainder).
    if (this.indexCode === INDEX_BITS_POW2) return ((addr * this.invDivisor) >>> 0) & this.setMask;
    return this.setOfOther(addr, lineNo); // kept apart, so that the common case stays small to inline
  }

  private setOfOther(addr: number, lineNo: number): number {
    if (this.indexCode === INDEX_INTERLEAVE) return this.table[modOf(lineNo, this.table.length, this.invTable)];
    if (this.indexCode === INDEX_XOR) return xorSet(lineNo, this.sets);
    return bitsSet(addr, this.divisor, this.sets);
  }

  /** The presence-filter bucket of a line number in its set (a multiplicative hash of its low 32 bits). */
  private bucket(set: number, lineNo: number): number {
    return (set << this.filterBits) + (Math.imul(lineNo >>> 0, 0x9e3779b1) >>> this.filterShift);
  }

  /** Looks an address up; on a miss allocates (if configured). Returns true on a hit. */
  access(addr: number): boolean {
    // Kept small so that V8 inlines it: the line touched last, again (a stride below the line or page
    // size), changes nothing, as the full lookup would find (it is already the newest of its set).
    const lineNo = this.lineByShift === 1 ? Math.floor(addr * this.invLine) : Math.floor(addr / this.lineBytes);
    if (lineNo === this.mruLine) {
      this.lastEvicted = -1;
      return true;
    }
    return this.lookup(addr, lineNo);
  }

  private lookup(addr: number, lineNo: number): boolean {
    const set = this.setOfLine(addr, lineNo);
    const base = this.setBase[set];
    const ways = this.setWays[set];
    let way = 0;
    let bucket = 0;
    if (this.useFilter === 1) {
      bucket = this.bucket(set, lineNo);
      if (this.filter[bucket] === 0) way = ways; // absent: no need to scan the set
    }
    const tags = this.tags;
    while (way < ways && tags[base + way] !== lineNo) way++;
    if (way === ways) {
      this.miss(set, base, ways, lineNo, bucket);
      if (this.sectored === 1) this.fillFirstSector(addr, lineNo);
      return false; // a constant, so that the caller's test needs no truth check of a call result
    }
    if (this.sectored === 1 && this.sectorMiss(addr, lineNo, base + way)) {
      if (this.touchOnHit === 1) this.touch(set, base + way);
      this.lastEvicted = -1;
      this.lastSlot = base + way;
      return false;
    }
    if (this.touchOnHit === 1) this.touch(set, base + way);
    this.lastEvicted = -1; // (set on each path, not first: a miss would store it twice)
    this.lastSlot = base + way;
    this.mruLine = lineNo + this.mruOff;
    return true;
  }

  private miss(set: number, base: number, ways: number, lineNo: number, bucket: number): void {
    if (this.allocate === 0) {
      this.lastEvicted = -1;
      this.lastSlot = -1 - set;
      return;
    }
    const slot = base + this.victim(set, base, ways);
    const evicted = this.tags[slot]; // -1 for an invalid way
    this.tags[slot] = lineNo;
    if (this.useFilter === 1) {
      if (evicted >= 0) this.filter[this.slotBucket[slot]]--;
      this.filter[bucket]++;
      this.slotBucket[slot] = bucket;
    }
    this.lastEvicted = evicted;
    this.lastSlot = slot;
    // LIP: a line that replaced another (its set was full) is the oldest of its set, not the newest,
    // so the fast path must not take its next access (a hit that makes it the newest).
    this.mruLine = this.policyCode === POLICY_LIP && evicted >= 0 ? NaN : lineNo + this.mruOff;
  }

  /** The sector of an address within its line (0 .. sectorsPerLine - 1). */
  private sectorIndex(addr: number, lineNo: number): number {
    return Math.floor(addr * this.invSector) - lineNo * this.sectorsPerLine;
  }

  /** The sector bit of an address within its line. */
  private sectorBit(addr: number, lineNo: number): number {
    return 1 << this.sectorIndex(addr, lineNo);
  }

  /** The sectors a fill of sector `index` brings in: the aligned fill block around it, as a bit mask. */
  private fillBits(index: number): number {
    return this.fillMask << (index & this.fillAlign);
  }

  /** After a line miss: the new line holds only the fill block of the sector touched. */
  private fillFirstSector(addr: number, lineNo: number): void {
    this.lastSectorMiss = 0;
    if (this.lastSlot >= 0) this.sectorValid[this.lastSlot] = this.fillBits(this.sectorIndex(addr, lineNo));
  }

  /** A present line: true (and the sector's fill block filled) when the sector touched was not there yet. */
  private sectorMiss(addr: number, lineNo: number, slot: number): boolean {
    const index = this.sectorIndex(addr, lineNo);
    const valid = this.sectorValid[slot];
    if ((valid & (1 << index)) !== 0) {
      this.lastSectorMiss = 0;
      return false;
    }
    this.sectorValid[slot] = valid | this.fillBits(index);
    this.lastSectorMiss = 1;
    return true;
  }

  /** The way a miss in `set` fills (the first invalid way while there is one). */
  private victim(set: number, base: number, ways: number): number {
    const code = this.policyCode;
    if (code === POLICY_LRU || code === POLICY_FIFO) {
      // The oldest way becomes the newest: the circular list's start moves one step.
      const slot = this.oldest[set];
      this.oldest[set] = this.newer[slot];
      return slot - base;
    }
    if (code === POLICY_LIP) {
      // The oldest way: while the set fills it is the first invalid way and becomes the newest (the
      // list's start moves on); once the set is full the new line stays the oldest (no move), so the
      // next miss of the set replaces the same way.
      const slot = this.oldest[set];
      const n = this.filled[set];
      if (n < ways) {
        this.filled[set] = n + 1;
        this.oldest[set] = this.newer[slot];
      }
      return slot - base;
    }
    const n = this.filled[set];
    if (n < ways) {
      this.filled[set] = n + 1;
      return n;
    }
    if (code === POLICY_RANDOM) return randomVictim(this.draws, ways);
    const hot = this.hotWay < ways ? this.hotWay : 0;
    if (ways === 1 || this.hotFast === 0) return fermiVictim(this.draws, ways, hot, this.hotProbability);
    return this.draws.fermiVictim(ways, hot, this.hotBelow);
  }

  /** LRU or LIP hit: makes a slot the newest of its set. */
  private touch(set: number, slot: number): void {
    const first = this.oldest[set];
    if (slot === first) {
      this.oldest[set] = this.newer[slot];
      return;
    }
    const older = this.older;
    const newer = this.newer;
    const last = older[first];
    if (slot === last) return;
    // Unlink the slot, then put it between the newest and the oldest.
    const o = older[slot];
    const n = newer[slot];
    newer[o] = n;
    older[n] = o;
    older[slot] = last;
    newer[slot] = first;
    newer[last] = slot;
    older[first] = slot;
  }

  /** True if the address's line is present (no state change). */
  contains(addr: number): boolean {
    const lineNo = this.lineOf(addr);
    const set = this.setOfLine(addr, lineNo);
    const base = this.setBase[set];
    for (let w = 0; w < this.setWays[set]; w++)
      if (this.tags[base + w] === lineNo) return this.sectored === 0 || (this.sectorValid[base + w] & this.sectorBit(addr, lineNo)) !== 0;
    return false;
  }

  /**
   * The slots of one set from the oldest to the newest: by last use (LRU; LIP, where a line that
   * replaced another counts as the oldest until its first hit) or by fill (FIFO), invalid ways
   * included; null for Random and Fermi, which keep no order. For reading the state (the cache
   * view's warm start), not for hot loops: it allocates.
   */
  ageOrder(set: number): Int32Array | null {
    if (this.policyCode !== POLICY_LRU && this.policyCode !== POLICY_FIFO && this.policyCode !== POLICY_LIP) return null;
    const out = new Int32Array(this.setWays[set]);
    let slot = this.oldest[set];
    for (let k = 0; k < out.length; k++) {
      out[k] = slot;
      slot = this.newer[slot];
    }
    return out;
  }

  /** Empties the cache and restarts its random stream, as at kernel launch. */
  reset(): void {
    this.tags.fill(-1);
    this.mruLine = -1 + this.mruOff; // the last slot's tag, now invalid
    // Each set's circular list runs from way 0 (oldest) to its last way (newest).
    for (let s = 0; s < this.sets; s++) {
      const base = this.setBase[s];
      const last = base + this.setWays[s] - 1;
      for (let slot = base; slot <= last; slot++) {
        this.newer[slot] = slot < last ? slot + 1 : base;
        this.older[slot] = slot > base ? slot - 1 : last;
      }
      this.oldest[s] = base;
    }
    this.filled.fill(0);
    this.filter.fill(0);
    this.sectorValid.fill(0);
    this.lastSectorMiss = 0;
    this.draws.reseed(this.seed);
  }
}
