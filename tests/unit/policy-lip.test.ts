/**
 * The LRU-insertion policy (LIP, the model's reading of JIA18 §3.1.2 for the Volta L1): a cyclic
 * scan a little larger than the cache misses only on its overflow (counts worked out by hand below),
 * a sparse access after a large array evicts one line of its set, the recency order ageOrder()
 * reports, the validator, and the cache view's replay of a LIP trace.
 */
import { describe, expect, it } from 'vitest';
import { CacheReplay, type ReplayGeometry } from '../../src-renderer/src/composables/cacheview';
import type { Trace } from '../../src-sim/experiments/types';
import { Cache } from '../../src-sim/model/cache';
import { POLICY_DESCRIPTIONS } from '../../src-sim/model/replacement';
import type { CacheGeometry, ReplacementPolicy } from '../../src-sim/model/types';
import { validatePreset } from '../../src-sim/presets/validate';
import { volta } from '../../src-sim/presets/volta';
import { Rng } from '../../src-sim/rng';

const LINE = 32;
/** 2 sets x 4 ways of 32 B lines (bit selection: even lines in set 0, odd lines in set 1). */
const geometry = (policy: ReplacementPolicy): CacheGeometry => ({ lineBytes: LINE, sets: 2, ways: 4, index: { kind: 'bits' }, policy });

/** Misses of each pass of `passes` cyclic scans over `lines` consecutive lines. */
function scanMisses(c: Cache, lines: number, passes: number): number[] {
  const out: number[] = [];
  for (let p = 0; p < passes; p++) {
    let misses = 0;
    for (let l = 0; l < lines; l++) if (!c.access(l * LINE)) misses++;
    out.push(misses);
  }
  return out;
}

describe('LIP: LRU insertion', () => {
  it('a cyclic scan of capacity + k lines a set: LRU misses every access, LIP k + 1 a set a pass', () => {
    // Each set cycles 4 + k lines through 4 ways. LIP, one set, k = 1 (lines a b c d e): the first
    // pass fills a b c d (oldest first) and e replaces a, staying the oldest (e b c d): 5 misses.
    // Every later pass: a replaces e (a b c d), b c d hit (a stays the oldest), e replaces a: 2 misses.
    // With k overflow lines the oldest slot takes a and the k overflow lines in turn: k + 1 misses.
    for (const k of [1, 2, 3]) {
      const lines = 2 * (4 + k);
      expect(scanMisses(new Cache(geometry({ kind: 'lru' })), lines, 5), `lru k ${k}`).toEqual([lines, lines, lines, lines, lines]);
      const after = 2 * (k + 1);
      expect(scanMisses(new Cache(geometry({ kind: 'lip' })), lines, 5), `lip k ${k}`).toEqual([lines, after, after, after, after]);
    }
    // An array that fits misses only on its first pass under both.
    expect(scanMisses(new Cache(geometry({ kind: 'lip' })), 8, 3)).toEqual([8, 0, 0]);
  });

  it('consecutive misses of a full set replace the same way', () => {
    const c = new Cache(geometry({ kind: 'lip' }));
    for (let l = 0; l < 8; l++) c.access(l * LINE); // set 0 holds lines 0 2 4 6 in ways 0-3
    const ways: number[] = [];
    const evicted: number[] = [];
    for (const l of [100, 102, 104, 106]) {
      expect(c.access(l * LINE)).toBe(false);
      ways.push(c.lastWay);
      evicted.push(c.lastEvicted);
    }
    expect(ways).toEqual([0, 0, 0, 0]);
    expect(evicted).toEqual([0, 100, 102, 104]);
    // A second access to the newcomer hits and makes it the newest: the next miss replaces line 2.
    expect(c.access(106 * LINE)).toBe(true);
    expect(c.access(108 * LINE)).toBe(false);
    expect(c.lastEvicted).toBe(2);
    expect(c.lastWay).toBe(1);
  });

  it('a sparse access after a large array evicts one line a set (LRU: the whole set)', () => {
    const sparse = [100, 102, 104, 106, 101, 103]; // 4 lines of set 0, 2 of set 1
    const run = (kind: 'lru' | 'lip') => {
      const c = new Cache(geometry({ kind }));
      scanMisses(c, 8, 2); // the array, resident
      const evicted: number[] = [];
      for (const l of sparse) {
        c.access(l * LINE);
        evicted.push(c.lastEvicted);
      }
      return { evicted, rescan: scanMisses(c, 8, 1)[0] };
    };
    const lip = run('lip');
    expect(lip.evicted.filter((l) => l < 8)).toEqual([0, 1]); // one array line of each set
    expect(lip.rescan).toBe(2);
    const lru = run('lru');
    expect(lru.evicted.filter((l) => l < 8)).toEqual([0, 2, 4, 6, 1, 3]);
    expect(lru.rescan).toBe(8); // each array line evicts another (LRU)
  });

  it('ageOrder reports oldest to newest, a replacing line first until it hits', () => {
    const c = new Cache(geometry({ kind: 'lip' }));
    const order = () => Array.from(c.ageOrder(0)!, (slot) => c.tags[slot]);
    c.access(0);
    c.access(2 * LINE);
    expect(order()).toEqual([-1, -1, 0, 2]); // invalid ways first, in way order
    c.access(4 * LINE);
    c.access(6 * LINE);
    c.access(0); // a hit: the newest
    expect(order()).toEqual([2, 4, 6, 0]);
    c.access(8 * LINE); // replaces line 2 and stays the oldest
    expect(order()).toEqual([8, 4, 6, 0]);
    c.access(8 * LINE);
    expect(order()).toEqual([4, 6, 0, 8]);
  });

  it('has a description citing JIA18 §3.1.2; the validator accepts it and a Volta L1 with it', () => {
    expect(POLICY_DESCRIPTIONS.lip).toContain('JIA18 §3.1.2');
    const preset = structuredClone(volta);
    preset.spaces.global!.levels[0].geometry.policy = { kind: 'lip' };
    const v = validatePreset(preset);
    expect(v.ok ? [] : v.issues).toEqual([]);
  });
});

describe('the cache view replays a LIP trace with the model\'s recency order', () => {
  it('every access agrees, and each set\'s ranks follow ageOrder()', () => {
    const g: CacheGeometry = { lineBytes: LINE, sets: 4, ways: 4, index: { kind: 'bits' }, policy: { kind: 'lip' } };
    const c = new Cache(g);
    const rng = new Rng(5);
    const n = 3000;
    const t: Trace = {
      address: new Float64Array(n),
      latency: new Float64Array(n),
      level: new Uint8Array(n),
      tlb: new Uint8Array(n),
      set: new Int32Array(n),
      way: new Int32Array(n),
      evicted: new Float64Array(n),
      levelNames: ['L1', 'memory'],
      dropped: 0,
    };
    const ranks: number[][][] = [];
    for (let i = 0; i < n; i++) {
      const a = (rng.next() < 0.6 ? rng.int(16) : rng.int(64)) * LINE;
      t.address[i] = a;
      t.level[i] = c.access(a) ? 0 : 1;
      t.set[i] = c.lastSet;
      t.way[i] = c.lastWay;
      t.evicted[i] = c.lastEvicted;
      // The model's ranks: 1 for the newest valid way of each set.
      ranks.push(
        Array.from({ length: 4 }, (_, s) => {
          const r = new Array<number>(4).fill(0);
          let rank = 0;
          const order = c.ageOrder(s)!;
          for (let k = order.length - 1; k >= 0; k--) if (c.tags[order[k]] >= 0) r[order[k] - 4 * s] = ++rank;
          return r;
        }),
      );
    }
    const rg: ReplayGeometry = { name: 'L1', kind: 'cache', source: 'test', sizeBytes: 16 * LINE, lineBytes: LINE, setWays: [4, 4, 4, 4], index: { kind: 'bits' }, policy: { kind: 'lip' } };
    const r = new CacheReplay(t, rg, 700);
    for (const i of [1, 10, 100, 699, 700, 701, 1500, n]) {
      r.seek(i);
      for (let s = 0; s < 4; s++) expect(r.setView(s).map((cell) => cell.rank), `access ${i} set ${s}`).toEqual(ranks[i - 1][s]);
    }
    expect(r.inconsistencies).toBe(0);
  });
});
