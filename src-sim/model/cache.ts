import { Rng } from '../rng';
import { bitsSet } from './index/bits';
import { interleaveTable } from './index/interleave';
import { xorSet } from './index/xor';
import { fermiVictim, POLICY_CODE, randomVictim } from './replacement';
import type { CacheGeometry } from './types';
import { totalLines } from './types';

const INDEX_BITS = 0;
const INDEX_XOR = 1;
const INDEX_INTERLEAVE = 2;
const POLICY_RANDOM = POLICY_CODE.random;
const POLICY_FERMI = POLICY_CODE.fermi;

/**
 * A set-associative cache of lines (or a TLB of page entries): equal or unequal sets, a named index
 * function and a named replacement policy. State lives in typed arrays; `access` allocates nothing.
 * Tags are full line numbers (addr / lineBytes), so any index function is exact.
 */
export class Cache {
  readonly geometry: CacheGeometry;
  readonly lineBytes: number;
  readonly sets: number;
  readonly lines: number;
  /** First slot of each set in the flat arrays, and its number of ways. */
  readonly setBase: Int32Array;
  readonly setWays: Int32Array;
  /** Line number held by each slot, -1 when invalid. */
  readonly tags: Float64Array;
  /** LRU: last use; FIFO: fill time. */
  readonly stamp: Float64Array;

  /** Outcome of the last access: its set, the way hit or filled, the evicted line (-1 if none). */
  lastSet = 0;
  lastWay = 0;
  lastEvicted = -1;

  private readonly indexCode: number;
  private readonly divisor: number;
  /** Reciprocals used where they are exact (powers of two); 0 where not. */
  private readonly invLine: number;
  private readonly invDivisor: number;
  private readonly invSets: number;
  private readonly table: Int32Array | null;
  private readonly policyCode: number;
  private readonly refreshOnHit: boolean;
  private readonly hotWay: number;
  private readonly hotProbability: number;
  private readonly allocate: boolean;
  private rng: Rng;
  private readonly seed: number;
  private clock = 0;
  /** The slot (and its set and way) of the last line hit or filled. */
  private mruSlot = 0;
  private mruSet = 0;
  private mruWay = 0;
  /** Whether a line's set follows from its line number alone (not so if set bits lie inside the line). */
  private readonly mruSafe: boolean;

  constructor(geometry: CacheGeometry, seed = 1) {
    this.geometry = geometry;
    this.lineBytes = geometry.lineBytes;
    this.sets = geometry.sets;
    this.lines = totalLines(geometry);
    this.setBase = new Int32Array(this.sets);
    this.setWays = new Int32Array(this.sets);
    let base = 0;
    for (let s = 0; s < this.sets; s++) {
      const w = geometry.setWays ? geometry.setWays[s] : geometry.ways;
      this.setBase[s] = base;
      this.setWays[s] = w;
      base += w;
    }
    this.tags = new Float64Array(this.lines).fill(-1);
    this.stamp = new Float64Array(this.lines);
    const idx = geometry.index;
    this.indexCode = idx.kind === 'bits' ? INDEX_BITS : idx.kind === 'xor' ? INDEX_XOR : INDEX_INTERLEAVE;
    const shift = idx.kind === 'bits' && idx.shiftBits !== undefined ? idx.shiftBits : Math.log2(geometry.lineBytes);
    this.divisor = 2 ** shift;
    const pow2 = (n: number): boolean => n > 0 && Number.isInteger(Math.log2(n));
    this.invLine = pow2(geometry.lineBytes) ? 1 / geometry.lineBytes : 0;
    this.invDivisor = 1 / this.divisor;
    this.invSets = pow2(this.sets) && Number.isInteger(shift) ? 1 / this.sets : 0;
    this.mruSafe = idx.kind !== 'bits' || this.divisor >= geometry.lineBytes;
    this.table =
      idx.kind === 'interleave'
        ? interleaveTable(geometry.setWays ?? new Array<number>(this.sets).fill(geometry.ways))
        : null;
    const pol = geometry.policy;
    this.policyCode = POLICY_CODE[pol.kind];
    this.refreshOnHit = pol.kind === 'lru';
    this.hotWay = pol.kind === 'fermi' ? pol.hotWay : 0;
    this.hotProbability = pol.kind === 'fermi' ? pol.hotProbability : 0;
    this.allocate = geometry.allocateOnMiss !== false;
    this.seed = seed;
    this.rng = new Rng(seed);
  }

  /** The line number of an address (a multiplication where the line size is a power of two: exact and fast). */
  lineOf(addr: number): number {
    return this.invLine > 0 ? Math.floor(addr * this.invLine) : Math.floor(addr / this.lineBytes);
  }

  /** The set an address maps to. */
  setOf(addr: number): number {
    if (this.indexCode === INDEX_BITS) {
      if (this.invSets > 0) {
        // Powers of two: multiplications are exact, and no floating-point remainder (a slow call) is needed.
        const q = Math.floor(addr * this.invDivisor);
        return q - Math.floor(q * this.invSets) * this.sets;
      }
      return bitsSet(addr, this.divisor, this.sets);
    }
    const lineNo = this.lineOf(addr);
    if (this.indexCode === INDEX_XOR) return xorSet(lineNo, this.sets);
    const t = this.table as Int32Array;
    return t[lineNo % t.length];
  }

  /** Looks an address up; on a miss allocates (if configured). Returns true on a hit. */
  access(addr: number): boolean {
    const lineNo = this.lineOf(addr);
    const tags = this.tags;
    const stamp = this.stamp;
    const t = ++this.clock;
    this.lastEvicted = -1;
    // Most recently touched line first: a chase with a stride below the line or page size asks for it
    // again and again (same outcome and state as the full lookup below).
    const mru = this.mruSlot;
    if (tags[mru] === lineNo && this.mruSafe) {
      if (this.refreshOnHit) stamp[mru] = t;
      this.lastSet = this.mruSet;
      this.lastWay = this.mruWay;
      return true;
    }
    const set = this.setOf(addr);
    const base = this.setBase[set];
    const ways = this.setWays[set];
    this.lastSet = set;
    // One pass: look for the line and, on the way, for the slot with the oldest stamp. Invalid slots
    // have stamp 0 and valid ones at least 1, so the oldest is the first invalid slot when one exists.
    let oldestWay = 0;
    let oldest = Infinity;
    for (let w = 0; w < ways; w++) {
      const slot = base + w;
      if (tags[slot] === lineNo) {
        if (this.refreshOnHit) stamp[slot] = t;
        this.lastWay = w;
        this.mruSlot = slot;
        this.mruSet = set;
        this.mruWay = w;
        return true;
      }
      const st = stamp[slot];
      if (st < oldest) {
        oldest = st;
        oldestWay = w;
      }
    }
    if (!this.allocate) {
      this.lastWay = -1;
      return false;
    }
    let victim = oldestWay;
    if (oldest !== 0) {
      const code = this.policyCode;
      if (code === POLICY_RANDOM) victim = randomVictim(this.rng, ways);
      else if (code === POLICY_FERMI) victim = fermiVictim(this.rng, ways, this.hotWay < ways ? this.hotWay : 0, this.hotProbability);
      this.lastEvicted = tags[base + victim];
    }
    const slot = base + victim;
    tags[slot] = lineNo;
    stamp[slot] = t;
    this.lastWay = victim;
    this.mruSlot = slot;
    this.mruSet = set;
    this.mruWay = victim;
    return false;
  }

  /** True if the address's line is present (no state change). */
  contains(addr: number): boolean {
    const lineNo = this.lineOf(addr);
    const set = this.setOf(addr);
    const base = this.setBase[set];
    for (let w = 0; w < this.setWays[set]; w++) if (this.tags[base + w] === lineNo) return true;
    return false;
  }

  /** Empties the cache and restarts its random stream, as at kernel launch. */
  reset(): void {
    this.tags.fill(-1);
    this.stamp.fill(0);
    this.clock = 0;
    this.mruSlot = 0;
    this.mruSet = 0;
    this.mruWay = 0;
    this.rng = new Rng(this.seed);
  }
}
