import { describe, expect, it } from 'vitest';
import { Cache } from '../../src-sim/model/cache';
import type { CacheGeometry, IndexFunction, ReplacementPolicy } from '../../src-sim/model/types';
import { Rng } from '../../src-sim/rng';
import { mixedTrace } from './access-trace';

/**
 * A naive, obviously correct set-associative cache: each set is a plain array of { line } objects.
 * LRU, FIFO and LIP keep the set's lines in a list ordered oldest first (LRU and LIP move a hit
 * to the end, FIFO does not; LIP puts a line that replaces another at the front, the others at the end); random and Fermi keep a slot per way and draw the victim way from their own Rng
 * seeded like the model's, with the draws the policies define (MEI Fig 8 for Fermi).
 */
class NaiveCache {
  private readonly lists: { line: number }[][];
  private readonly slots: ({ line: number } | null)[][];
  private readonly rng: Rng;

  constructor(
    private readonly g: { lineBytes: number; sets: number; ways: number; index: IndexFunction; policy: ReplacementPolicy },
    seed: number,
  ) {
    this.lists = Array.from({ length: g.sets }, () => []);
    this.slots = Array.from({ length: g.sets }, () => new Array<{ line: number } | null>(g.ways).fill(null));
    this.rng = new Rng(seed);
  }

  private setOf(addr: number): number {
    const line = Math.floor(addr / this.g.lineBytes);
    const idx = this.g.index;
    if (idx.kind === 'bits') {
      const shift = idx.shiftBits ?? Math.log2(this.g.lineBytes);
      return Math.floor(addr / 2 ** shift) % this.g.sets;
    }
    if (idx.kind === 'interleave') return line % this.g.sets; // equal sets: dealt round-robin
    // xor: fold the line number's base-`sets` digits together
    let h = 0;
    for (let x = line; x > 0; x = Math.floor(x / this.g.sets)) h ^= x % this.g.sets;
    return h % this.g.sets;
  }

  access(addr: number): boolean {
    const line = Math.floor(addr / this.g.lineBytes);
    const set = this.setOf(addr);
    const p = this.g.policy;
    if (p.kind === 'lru' || p.kind === 'fifo' || p.kind === 'lip') {
      const list = this.lists[set];
      const at = list.findIndex((e) => e.line === line);
      if (at >= 0) {
        if (p.kind !== 'fifo') list.push(...list.splice(at, 1));
        return true;
      }
      if (list.length === this.g.ways && p.kind === 'lip') {
        list[0] = { line };
        return false;
      }
      if (list.length === this.g.ways) list.shift();
      list.push({ line });
      return false;
    }
    const slots = this.slots[set];
    if (slots.some((e) => e !== null && e.line === line)) return true;
    const empty = slots.indexOf(null);
    let victim: number;
    if (empty >= 0) victim = empty;
    else if (p.kind === 'random') victim = this.rng.int(this.g.ways);
    else if (this.g.ways === 1) victim = 0;
    else if (this.rng.next() < p.hotProbability) victim = p.hotWay;
    else {
      const other = this.rng.int(this.g.ways - 1);
      victim = other >= p.hotWay ? other + 1 : other;
    }
    slots[victim] = { line };
    return false;
  }
}


const geometries: { name: string; g: CacheGeometry }[] = [
  { name: 'Fermi L1 shape, 32 x 4 x 128 B', g: { lineBytes: 128, sets: 32, ways: 4, index: { kind: 'bits' }, policy: { kind: 'lru' } } },
  { name: 'texture L1 shape, bits 7-8', g: { lineBytes: 32, sets: 4, ways: 96, index: { kind: 'bits', shiftBits: 7 }, policy: { kind: 'lru' } } },
  { name: 'direct mapped, 64 sets of 16 B', g: { lineBytes: 16, sets: 64, ways: 1, index: { kind: 'bits' }, policy: { kind: 'lru' } } },
  { name: 'fully associative, 24 ways of 64 B', g: { lineBytes: 64, sets: 1, ways: 24, index: { kind: 'bits' }, policy: { kind: 'lru' } } },
  { name: 'xor-indexed, 16 x 8 x 32 B', g: { lineBytes: 32, sets: 16, ways: 8, index: { kind: 'xor' }, policy: { kind: 'lru' } } },
  { name: 'interleaved equal sets, 8 x 5 x 256 B', g: { lineBytes: 256, sets: 8, ways: 5, index: { kind: 'interleave' }, policy: { kind: 'lru' } } },
];

function compare(g: CacheGeometry, seed: number, n: number, span: number): { mismatches: number; misses: number } {
  const model = new Cache(g, seed);
  const naive = new NaiveCache(g, seed);
  let mismatches = 0;
  let misses = 0;
  for (const a of mixedTrace(seed * 31 + 7, n, span)) {
    const hit = model.access(a);
    if (hit !== naive.access(a)) mismatches++;
    if (!hit) misses++;
  }
  return { mismatches, misses };
}

describe('the optimised cache agrees with a naive one, access by access', () => {
  for (const kind of ['lru', 'fifo', 'random', 'fermi', 'lip'] as const) {
    for (const { name, g } of geometries) {
      it(`${kind}: ${name}`, () => {
        const policy: ReplacementPolicy = kind === 'fermi' ? { kind, hotWay: Math.min(1, g.ways - 1), hotProbability: 0.5 } : { kind };
        const geometry = { ...g, policy };
        const capacity = g.lineBytes * g.sets * g.ways;
        const { mismatches, misses } = compare(geometry, 11, 20_000, 3 * capacity);
        expect(misses).toBeGreaterThan(1000); // the trace exercises replacement, not only hits
        expect(mismatches).toBe(0);
      });
    }
  }
});

describe('the Fermi policy (MEI Fig 8)', () => {
  it('replaces the hot way in half of 60k misses (0.5 +- 0.03) and each other way in about 1/6', () => {
    const g: CacheGeometry = { lineBytes: 128, sets: 1, ways: 4, index: { kind: 'bits' }, policy: { kind: 'fermi', hotWay: 1, hotProbability: 0.5 } };
    const c = new Cache(g, 5);
    const counts = [0, 0, 0, 0];
    let misses = 0;
    // A cyclic scan of five lines over four ways: every miss after the cold fill replaces a way.
    for (let i = 0; misses < 60_000; i++) {
      const hit = c.access((i % 5) * 128);
      if (!hit && c.lastEvicted >= 0) {
        counts[c.lastWay]++;
        misses++;
      }
    }
    expect(counts[1] / misses).toBeGreaterThan(0.47);
    expect(counts[1] / misses).toBeLessThan(0.53);
    for (const w of [0, 2, 3]) expect(Math.abs(counts[w] / misses - 1 / 6)).toBeLessThan(0.02);
  });

  it('is not LRU: a cyclic scan one line over capacity does not miss every access', () => {
    const g: CacheGeometry = { lineBytes: 128, sets: 1, ways: 4, index: { kind: 'bits' }, policy: { kind: 'fermi', hotWay: 1, hotProbability: 0.5 } };
    const lru = new Cache({ ...g, policy: { kind: 'lru' } }, 5);
    const fermi = new Cache(g, 5);
    let lruMiss = 0;
    let fermiMiss = 0;
    for (let i = 0; i < 5000; i++) {
      if (!lru.access((i % 5) * 128)) lruMiss++;
      if (!fermi.access((i % 5) * 128)) fermiMiss++;
    }
    expect(lruMiss).toBe(5000);
    expect(fermiMiss).toBeLessThan(3500);
  });
});
