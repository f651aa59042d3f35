import { Rng } from '../rng';
import { bitsSet } from './index/bits';
import { interleaveTable } from './index/interleave';
import { xorSet } from './index/xor';
import { fermiVictim, lruVictim, POLICY_CODE, randomVictim } from './replacement';
import type { CacheGeometry } from './types';
import { totalLines } from './types';

const INDEX_BITS = 0;
const INDEX_XOR = 1;
const INDEX_INTERLEAVE = 2;

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
  private readonly table: Int32Array | null;
  private readonly policyCode: number;
  private readonly refreshOnHit: boolean;
  private readonly hotWay: number;
  private readonly hotProbability: number;
  private readonly allocate: boolean;
  private rng: Rng;
  private readonly seed: number;
  private clock = 0;

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

  /** The set an address maps to. */
  setOf(addr: number): number {
    if (this.indexCode === INDEX_BITS) return bitsSet(addr, this.divisor, this.sets);
    const lineNo = Math.floor(addr / this.lineBytes);
    if (this.indexCode === INDEX_XOR) return xorSet(lineNo, this.sets);
    const t = this.table as Int32Array;
    return t[lineNo % t.length];
  }

  /** Looks an address up; on a miss allocates (if configured). Returns true on a hit. */
  access(addr: number): boolean {
    const lineNo = Math.floor(addr / this.lineBytes);
    const set = this.setOf(addr);
    const base = this.setBase[set];
    const ways = this.setWays[set];
    const tags = this.tags;
    const t = ++this.clock;
    this.lastSet = set;
    this.lastEvicted = -1;
    let invalid = -1;
    for (let w = 0; w < ways; w++) {
      const tag = tags[base + w];
      if (tag === lineNo) {
        if (this.refreshOnHit) this.stamp[base + w] = t;
        this.lastWay = w;
        return true;
      }
      if (tag < 0 && invalid < 0) invalid = w;
    }
    if (!this.allocate) {
      this.lastWay = -1;
      return false;
    }
    let victim = invalid;
    if (victim < 0) {
      switch (this.policyCode) {
        case POLICY_CODE.lru:
        case POLICY_CODE.fifo:
          victim = lruVictim(this.stamp, base, ways);
          break;
        case POLICY_CODE.random:
          victim = randomVictim(this.rng, ways);
          break;
        default:
          victim = fermiVictim(this.rng, ways, this.hotWay < ways ? this.hotWay : 0, this.hotProbability);
      }
      this.lastEvicted = tags[base + victim];
    }
    tags[base + victim] = lineNo;
    this.stamp[base + victim] = t;
    this.lastWay = victim;
    return false;
  }

  /** True if the address's line is present (no state change). */
  contains(addr: number): boolean {
    const lineNo = Math.floor(addr / this.lineBytes);
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
    this.rng = new Rng(this.seed);
  }
}
