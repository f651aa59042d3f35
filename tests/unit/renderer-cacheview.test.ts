// @vitest-environment happy-dom
/**
 * The cache view (src-renderer/src/views/CacheView.vue) and its pure replay
 * (src-renderer/src/composables/cacheview.ts): a hand-made trace replayed cell by cell (hits,
 * evictions, LRU recency order), unequal sets, seeking back and forth across checkpoints, traces
 * recorded by the real simulator replaying without a single disagreement (Fermi L1 32 x 4, the
 * texture L1 4 x 96, Tesla's L1 TLB, unequal TLB sets), warm traces (pchase-fine after its warm-up
 * pass, MEI-T5's chases) replayed from the state the warm-up left (trace.start), the tag / set /
 * offset split, and the view itself stepped with the keyboard against a fake LabApi.
 */
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { nextTick } from 'vue';
import { createMemoryHistory, createRouter } from 'vue-router';
import type { LabApi, RunDetail } from '../../src-main/contract';
import { setLab } from '../../src-renderer/src/api';
import { CacheReplay, splitAddress, traceGeometry, type ReplayGeometry } from '../../src-renderer/src/composables/cacheview';
import CacheView from '../../src-renderer/src/views/CacheView.vue';
import { fineChase, Measurement, openSpace } from '../../src-sim/experiments/pchase';
import { pchaseFine } from '../../src-sim/experiments/pchase-fine';
import { cacheStructure } from '../../src-sim/experiments/cache-structure';
import { resolveParams } from '../../src-sim/experiments/params';
import type { ParamValues, Trace } from '../../src-sim/experiments/types';
import { Cache } from '../../src-sim/model/cache';
import type { CacheGeometry } from '../../src-sim/model/types';
import { fermi } from '../../src-sim/presets/fermi';
import { kepler } from '../../src-sim/presets/kepler';
import type { Preset } from '../../src-sim/presets/types';
import { tesla } from '../../src-sim/presets/tesla';
import { volta } from '../../src-sim/presets/volta';
import { Rng } from '../../src-sim/rng';

/** A trace from a list of accesses written out by hand: [address, set, way, evicted, hit]. */
function handTrace(rows: [number, number, number, number, boolean][], levelNames = ['L1', 'memory']): Trace {
  const n = rows.length;
  const t: Trace = {
    address: new Float64Array(n),
    latency: new Float64Array(n),
    level: new Uint8Array(n),
    tlb: new Uint8Array(n),
    set: new Int32Array(n),
    way: new Int32Array(n),
    evicted: new Float64Array(n),
    levelNames,
    dropped: 0,
  };
  rows.forEach(([a, s, w, e, hit], i) => {
    t.address[i] = a;
    t.set[i] = s;
    t.way[i] = w;
    t.evicted[i] = e;
    t.level[i] = hit ? 0 : 1;
    t.latency[i] = hit ? 10 : 100;
  });
  return t;
}

const LRU_2x2: ReplayGeometry = {
  name: 'L1',
  kind: 'cache',
  source: 'test',
  sizeBytes: 64,
  lineBytes: 16,
  setWays: [2, 2],
  index: { kind: 'bits' },
  policy: { kind: 'lru' },
};

/**
 * 2 sets x 2 ways, 16 B lines, LRU. Lines: address / 16; set = line mod 2.
 *  0: 0x00 line 0 set 0 -> miss, way 0
 *  1: 0x20 line 2 set 0 -> miss, way 1
 *  2: 0x04 line 0 set 0 -> hit way 0 (line 0 becomes MRU)
 *  3: 0x40 line 4 set 0 -> miss, evicts LRU line 2 from way 1
 *  4: 0x10 line 1 set 1 -> miss, way 0
 *  5: 0x28 line 2 set 0 -> miss, evicts LRU line 0 from way 0
 *  6: 0x44 line 4 set 0 -> hit way 1
 */
const HAND = handTrace([
  [0x00, 0, 0, -1, false],
  [0x20, 0, 1, -1, false],
  [0x04, 0, 0, -1, true],
  [0x40, 0, 1, 2, false],
  [0x10, 1, 0, -1, false],
  [0x28, 0, 0, 0, false],
  [0x44, 0, 1, -1, true],
]);

describe('cache replay on a hand-made trace', () => {
  it('fills cells, counts hits and misses, and records evictions', () => {
    const r = new CacheReplay(HAND, LRU_2x2);
    expect(r.length).toBe(7);
    expect(r.pos).toBe(0);
    expect(r.current).toBeNull();
    expect([r.lineAt(0, 0), r.lineAt(0, 1), r.lineAt(1, 0), r.lineAt(1, 1)]).toEqual([-1, -1, -1, -1]);

    r.seek(2);
    expect([r.lineAt(0, 0), r.lineAt(0, 1)]).toEqual([0, 2]);
    expect(r.current).toMatchObject({ index: 1, line: 2, set: 0, way: 1, hit: false, evicted: -1 });

    r.seek(3);
    expect(r.current).toMatchObject({ index: 2, line: 0, hit: true });
    r.seek(4);
    expect(r.current).toMatchObject({ index: 3, line: 4, way: 1, hit: false, evicted: 2 });
    expect([r.lineAt(0, 0), r.lineAt(0, 1)]).toEqual([0, 4]);

    r.seek(7);
    expect([r.lineAt(0, 0), r.lineAt(0, 1), r.lineAt(1, 0), r.lineAt(1, 1)]).toEqual([2, 4, 1, -1]);
    expect(r.counts()).toEqual({ hits: 2, misses: 5 });
    expect(r.counts(3)).toEqual({ hits: 1, misses: 2 });
    expect(r.inconsistencies).toBe(0);
  });

  it('keeps the LRU recency order per set (1 = most recently used, 0 = invalid)', () => {
    const r = new CacheReplay(HAND, LRU_2x2);
    r.seek(2);
    expect([...r.order(0)]).toEqual([2, 1]); // line 2 in way 1 was used last
    expect([...r.order(1)]).toEqual([0, 0]);
    r.seek(3); // hit on line 0 (way 0)
    expect([...r.order(0)]).toEqual([1, 2]);
    r.seek(4); // line 4 replaces way 1, the LRU
    expect([...r.order(0)]).toEqual([2, 1]);
    r.seek(5);
    expect([...r.order(1)]).toEqual([1, 0]);
    r.seek(7);
    expect([...r.order(0)]).toEqual([2, 1]);
    expect(r.setView(0)).toEqual([
      { way: 0, line: 2, rank: 2 },
      { way: 1, line: 4, rank: 1 },
    ]);
  });

  it('shows FIFO fill order and no order for the Fermi policy', () => {
    const fifo = new CacheReplay(HAND, { ...LRU_2x2, policy: { kind: 'fifo' } });
    fifo.seek(3); // the hit does not change the fill order
    expect(fifo.setView(0).map((c) => c.rank)).toEqual([2, 1]);
    const f = new CacheReplay(HAND, { ...LRU_2x2, policy: { kind: 'fermi', hotWay: 1, hotProbability: 0.5 } });
    f.seek(3);
    expect(f.setView(0).map((c) => c.rank)).toEqual([0, 0]);
  });

  it('flags a trace that contradicts the replayed state', () => {
    // Access 1 claims to hit line 2 in way 0, which holds line 0; access 2 claims to evict line 7 from an empty way.
    const bad = handTrace([
      [0x00, 0, 0, -1, false],
      [0x20, 0, 0, -1, true],
      [0x40, 0, 1, 7, false],
    ]);
    const r = new CacheReplay(bad, LRU_2x2);
    r.seek(3);
    expect(r.inconsistencies).toBe(2);
    r.seek(0);
    r.seek(3); // replaying again does not count twice
    expect(r.inconsistencies).toBe(2);
  });

  it('replays unequal sets: rows of different lengths', () => {
    const g: ReplayGeometry = { ...LRU_2x2, setWays: [3, 1], index: { kind: 'interleave' } };
    const t = handTrace([
      [0x00, 0, 0, -1, false],
      [0x10, 1, 0, -1, false],
      [0x20, 0, 1, -1, false],
      [0x30, 0, 2, -1, false],
      [0x40, 1, 0, 1, false],
    ]);
    const r = new CacheReplay(t, g);
    r.seek(5);
    expect(r.setView(0).map((c) => c.line)).toEqual([0, 2, 3]);
    expect(r.setView(1).map((c) => c.line)).toEqual([4]);
    expect(r.setView(0).map((c) => c.rank)).toEqual([3, 2, 1]);
    expect(r.cells).toBe(4);
    expect(r.inconsistencies).toBe(0);
  });

  it('a miss that allocates nothing (way -1) changes no cell', () => {
    const t = handTrace([
      [0x00, 0, 0, -1, false],
      [0x20, 0, -1, -1, false],
    ]);
    const r = new CacheReplay(t, LRU_2x2);
    r.seek(2);
    expect([r.lineAt(0, 0), r.lineAt(0, 1)]).toEqual([0, -1]);
    expect(r.inconsistencies).toBe(0);
  });
});

/** A trace of random accesses recorded from src-sim's Cache, as TraceRecorder does for level 0. */
function simTrace(g: CacheGeometry, n: number, seed: number, span: number): { trace: Trace; cache: Cache; victimRanks: number[] } {
  const cache = new Cache(g, seed);
  const rng = new Rng(seed);
  const t = handTrace([]);
  const trace: Trace = {
    ...t,
    address: new Float64Array(n),
    latency: new Float64Array(n),
    level: new Uint8Array(n),
    tlb: new Uint8Array(n),
    set: new Int32Array(n),
    way: new Int32Array(n),
    evicted: new Float64Array(n),
  };
  for (let i = 0; i < n; i++) {
    const addr = Math.floor(rng.next() * span);
    const hit = cache.access(addr);
    trace.address[i] = addr;
    trace.level[i] = hit ? 0 : 1;
    trace.set[i] = cache.lastSet;
    trace.way[i] = cache.lastWay;
    trace.evicted[i] = cache.lastEvicted;
  }
  return { trace, cache, victimRanks: [] };
}

function geometryOf(g: CacheGeometry): ReplayGeometry {
  return {
    name: 'L1',
    kind: 'cache',
    source: 'test',
    sizeBytes: 0,
    lineBytes: g.lineBytes,
    setWays: g.setWays ?? new Array<number>(g.sets).fill(g.ways),
    index: g.index,
    policy: g.policy,
  };
}

describe('cache replay against the simulator', () => {
  const cases: [string, CacheGeometry][] = [
    ['LRU 8 x 4', { lineBytes: 32, sets: 8, ways: 4, index: { kind: 'bits' }, policy: { kind: 'lru' } }],
    ['Fermi 32 x 4', { lineBytes: 128, sets: 32, ways: 4, index: { kind: 'bits' }, policy: { kind: 'fermi', hotWay: 1, hotProbability: 0.5 } }],
    ['unequal [17, 8 x 6]', { lineBytes: 64, sets: 7, ways: 17, setWays: [17, 8, 8, 8, 8, 8, 8], index: { kind: 'interleave' }, policy: { kind: 'lru' } }],
    ['texture 4 x 96, bits 7-8', { lineBytes: 32, sets: 4, ways: 96, index: { kind: 'bits', shiftBits: 7 }, policy: { kind: 'lru' } }],
  ];
  for (const [name, g] of cases) {
    it(`${name}: every access agrees and the final grid is the cache's`, () => {
      const lines = g.setWays ? g.setWays.reduce((a, b) => a + b, 0) : g.sets * g.ways;
      const { trace, cache } = simTrace(g, 6000, 7, lines * g.lineBytes * 2);
      const r = new CacheReplay(trace, geometryOf(g), 500);
      r.seek(trace.address.length);
      expect(r.inconsistencies).toBe(0);
      for (let s = 0; s < cache.sets; s++)
        for (let w = 0; w < cache.setWays[s]; w++) expect(r.lineAt(s, w)).toBe(cache.tags[cache.setBase[s] + w]);
    });
  }

  it('LRU: every miss into a full set replaces the way the replay ranks last', () => {
    const g: CacheGeometry = { lineBytes: 32, sets: 4, ways: 4, index: { kind: 'bits' }, policy: { kind: 'lru' } };
    const { trace } = simTrace(g, 4000, 3, 32 * 16 * 2);
    const r = new CacheReplay(trace, geometryOf(g));
    let checked = 0;
    for (let i = 0; i < trace.address.length; i++) {
      r.seek(i);
      const set = trace.set[i];
      const rank = r.order(set);
      if (trace.level[i] !== 0 && trace.evicted[i] >= 0) {
        expect(rank[trace.way[i]]).toBe(4);
        checked++;
      }
      if (trace.level[i] === 0) expect(rank[trace.way[i]]).toBeGreaterThan(0);
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('seeking back and forth across checkpoints gives the state a fresh replay gives', () => {
    const g: CacheGeometry = { lineBytes: 32, sets: 8, ways: 4, index: { kind: 'bits' }, policy: { kind: 'lru' } };
    const { trace } = simTrace(g, 3000, 11, 32 * 32 * 3);
    const r = new CacheReplay(trace, geometryOf(g), 256);
    const snapshot = (x: CacheReplay) => Array.from({ length: 8 }, (_, s) => x.setView(s));
    for (const p of [2999, 10, 1500, 1499, 256, 255, 3000, 0, 777]) {
      r.seek(p);
      const fresh = new CacheReplay(trace, geometryOf(g), 256);
      fresh.seek(p);
      expect(r.pos).toBe(p);
      expect(snapshot(r)).toEqual(snapshot(fresh));
    }
    r.seek(-5);
    expect(r.pos).toBe(0);
    r.seek(1e9);
    expect(r.pos).toBe(3000);
  });
});

describe('geometry from the preset snapshot', () => {
  function chase(preset: Preset, space: 'global' | 'texture', n: number, stride: number, k: number): Trace {
    const model = openSpace(preset, space, 1);
    let j = 0;
    return fineChase(model, new Measurement(0, 0, 1), () => {
      const a = j;
      j = (j + stride) % n;
      return a;
    }, k);
  }

  it('Fermi global: the L1, 32 sets x 4 ways of 128 B, Fermi policy with its hot way; replays a real chase', () => {
    const trace = chase(fermi, 'global', 16 * 1024 + 128 * 8, 128, 3000);
    const g = traceGeometry(fermi, { space: 'global' }, trace);
    if ('error' in g) throw new Error(g.error);
    expect(g.warning).toBeNull();
    expect(g.geometry).toMatchObject({ name: 'L1', kind: 'cache', lineBytes: 128, source: 'spaces.global.levels.0' });
    expect(g.geometry.setWays).toEqual(new Array(32).fill(4));
    expect(g.geometry.policy).toMatchObject({ kind: 'fermi', hotWay: 1 });
    const r = new CacheReplay(trace, g.geometry);
    r.seek(trace.address.length);
    expect(r.inconsistencies).toBe(0);
    const { hits, misses } = r.counts();
    expect(hits + misses).toBe(3000);
    expect(misses).toBeGreaterThan(0);
  });

  it('the 48 KB L1 configuration replaces the first level', () => {
    const g = traceGeometry(fermi, { space: 'global', l1Config: '48KB' }, null);
    if ('error' in g) throw new Error(g.error);
    expect(g.geometry.setWays).toEqual(new Array(64).fill(6));
    expect(g.geometry.source).toBe('l1Configs.0');
  });

  it('Fermi texture: the texture L1, 4 sets x 96 ways of 32 B indexed by bits 7-8; replays a real chase', () => {
    const trace = chase(fermi, 'texture', 12 * 1024 + 32 * 40, 32, 4000);
    const g = traceGeometry(fermi, { space: 'texture' }, trace);
    if ('error' in g) throw new Error(g.error);
    expect(g.geometry.setWays).toEqual(new Array(4).fill(96));
    expect(g.geometry.index).toEqual({ kind: 'bits', shiftBits: 7 });
    const r = new CacheReplay(trace, g.geometry);
    r.seek(trace.address.length);
    expect(r.inconsistencies).toBe(0);
  });

  it('Tesla global has no cache: the L1 TLB (one set of 16 entries), hits are L1 TLB hits', () => {
    const trace = chase(tesla, 'global', 20 * 512 * 1024, 512 * 1024, 200);
    const g = traceGeometry(tesla, { space: 'global' }, trace);
    if ('error' in g) throw new Error(g.error);
    expect(g.geometry).toMatchObject({ kind: 'tlb', name: 'L1 TLB', lineBytes: 512 * 1024, setWays: [16] });
    const r = new CacheReplay(trace, g.geometry);
    r.seek(200);
    expect(r.inconsistencies).toBe(0);
    // 20 pages cycled through 16 LRU entries: every access misses.
    expect(r.counts().hits).toBe(0);
    const small = chase(tesla, 'global', 8 * 512 * 1024, 512 * 1024, 64);
    const r2 = new CacheReplay(small, g.geometry);
    r2.seek(64);
    expect(r2.counts()).toEqual({ hits: 56, misses: 8 });
  });

  it('unequal TLB sets: a path without caches and an unequal L1 TLB draws rows of different lengths', () => {
    const custom: Preset = structuredClone(tesla);
    custom.spaces.global.translation!.l1.geometry = { lineBytes: 512 * 1024, sets: 3, ways: 6, setWays: [6, 4, 4], index: { kind: 'interleave' }, policy: { kind: 'lru' } };
    const trace = chase(custom, 'global', 30 * 512 * 1024, 512 * 1024, 300);
    const g = traceGeometry(custom, { space: 'global' }, trace);
    if ('error' in g) throw new Error(g.error);
    expect(g.geometry.setWays).toEqual([6, 4, 4]);
    const r = new CacheReplay(trace, g.geometry);
    r.seek(300);
    expect(r.inconsistencies).toBe(0);
    expect(r.setView(0)).toHaveLength(6);
    expect(r.setView(2)).toHaveLength(4);
  });

  it('a space the preset lacks is an error, not a grid', () => {
    expect(traceGeometry(fermi, { space: 'constant' }, null)).toHaveProperty('error');
  });
});

/** A pchase-fine run's trace as the worker makes it (compiled path), and the geometry the view draws. */
function fineRun(preset: Preset, raw: Record<string, unknown>, seed = 1) {
  const params = resolveParams(pchaseFine.params, raw);
  const trace = pchaseFine.run(preset, params, seed, () => {}).trace!;
  const g = traceGeometry(preset, params, trace);
  if ('error' in g) throw new Error(g.error);
  return { params, trace, geometry: g.geometry };
}

/** Valid cells of the grid in the replay's current state. */
function filled(r: CacheReplay): number {
  let n = 0;
  for (let s = 0; s < r.sets; s++) for (const c of r.setView(s)) if (c.line >= 0) n++;
  return n;
}

describe('warm traces: the replay starts from the state the warm-up pass left', () => {
  // MEI-T5's chases (src-sim/reference/rows-core.ts T5_CHASES): 4 on Fermi, 3 on Kepler (no global L1 hit).
  const T5: [string, ParamValues][] = [
    ['texture L1 hit', { space: 'texture', size: 4096, stride: 32, iterations: 1024, warmup: true }],
    ['texture L1 miss, L2 hit', { space: 'texture', size: 64 * 1024, stride: 32, iterations: 1024, warmup: true }],
    ['global L1 miss, L2 hit', { space: 'global', size: 256 * 1024, stride: 128, iterations: 1024, warmup: true }],
    ['global L1 hit', { space: 'global', size: 8192, stride: 128, iterations: 1024, warmup: true }],
  ];
  for (const preset of [fermi, kepler])
    for (const [name, raw] of T5) {
      if (preset === kepler && name === 'global L1 hit') continue;
      it(`MEI-T5 ${preset.name} ${name}: every access agrees; a hit finds its line in the grid`, () => {
        const { trace, geometry } = fineRun(preset, raw);
        const warm = Math.ceil((raw.size as number) / (raw.stride as number));
        expect(trace.start?.accesses).toBe(warm);
        expect(trace.start?.lines).toHaveLength(geometry.setWays.reduce((a, b) => a + b, 0));
        const r = new CacheReplay(trace, geometry);
        expect(r.warmAccesses).toBe(warm);
        // Before the first recorded access the grid already holds what the warm-up brought in.
        expect(filled(r)).toBeGreaterThan(0);
        for (let i = 0; i < trace.address.length; i++) {
          r.seek(i + 1);
          if (r.isHit(i)) expect(r.lineAt(trace.set[i], trace.way[i])).toBe(r.lineOf(trace.address[i]));
        }
        expect(r.inconsistencies).toBe(0);
        // From an empty grid (a trace without its start state) the hits and evictions disagree.
        const empty = new CacheReplay({ ...trace, start: undefined }, geometry);
        empty.seek(trace.address.length);
        expect(empty.inconsistencies).toBeGreaterThan(0);
      });
    }

  it('cache-structure (MEI Fig 8) keeps its step-4 trace, and it replays without a disagreement on Fermi\'s L1 and texture L1', () => {
    for (const [preset, raw] of [[fermi, { space: 'global', l1Config: '48KB' }], [fermi, { space: 'global' }], [fermi, { space: 'texture' }], [kepler, { space: 'texture' }]] as const) {
      const params = resolveParams(cacheStructure.params, raw);
      const result = cacheStructure.run(preset, params, 1, () => {});
      const trace = result.trace!;
      expect(trace, `${preset.name} ${String(raw.space)}`).toBeDefined();
      expect(trace.start).toBeUndefined(); // a cold launch
      const g = traceGeometry(preset, params, trace);
      if ('error' in g) throw new Error(g.error);
      const r = new CacheReplay(trace, g.geometry);
      r.seek(trace.address.length);
      expect(r.inconsistencies, `${preset.name} ${String(raw.space)}`).toBe(0);
      // N = C + b at s = b from a cold start: the first traversal misses every line, later ones some.
      const { hits, misses } = r.counts();
      const lines = new Set(trace.address).size;
      expect(misses).toBeGreaterThan(lines);
      expect(hits + misses).toBe(trace.address.length);
      expect(result.notes.some((n) => n.includes('the cache view replays it'))).toBe(true);
    }
  });

  it('the hit chases are all hits from the first access, with the array resident', () => {
    const { trace, geometry } = fineRun(fermi, { space: 'global', size: 8192, stride: 128, iterations: 1024, warmup: true });
    const r = new CacheReplay(trace, geometry);
    expect(filled(r)).toBe(8192 / 128);
    r.seek(trace.address.length);
    expect(r.counts()).toEqual({ hits: 1024, misses: 0 });
  });

  it('Fermi policy with random victims: the recorded pass goes on from the warm-up\'s victims', () => {
    for (const seed of [1, 7, 123]) {
      const { trace, geometry } = fineRun(fermi, { space: 'global', size: 16 * 1024 + 128 * 8, stride: 128, iterations: 3000, warmup: true }, seed);
      expect(trace.start!.age.every((a) => a === 0)).toBe(true); // no order kept
      const r = new CacheReplay(trace, geometry, 500);
      r.seek(trace.address.length);
      expect(r.inconsistencies).toBe(0);
      const { hits, misses } = r.counts();
      expect(hits).toBeGreaterThan(0);
      expect(misses).toBeGreaterThan(0);
      // Seeking back to 0 restores the warm state, not an empty grid.
      r.seek(0);
      expect(filled(r)).toBe(128);
    }
  });

  it('LRU: the warm start keeps the recency order (each miss replaces the way ranked last)', () => {
    // Texture L1, 4 x 96 LRU: 13 KB cycled over 12 KB misses every access after the warm-up.
    const { trace, geometry } = fineRun(fermi, { space: 'texture', size: 13 * 1024, stride: 32, iterations: 800, warmup: true });
    // Each full set's ages run 1..96.
    expect([...trace.start!.age.subarray(0, 96)].sort((a, b) => a - b)).toEqual(Array.from({ length: 96 }, (_, i) => i + 1));
    const r = new CacheReplay(trace, geometry);
    let checked = 0;
    for (let i = 0; i < trace.address.length; i++) {
      r.seek(i);
      if (!r.isHit(i) && trace.evicted[i] >= 0) {
        expect(r.order(trace.set[i])[trace.way[i]]).toBe(96);
        checked++;
      }
    }
    expect(checked).toBe(800);
    expect(r.inconsistencies).toBe(0);
  });

  it('a sectored L1 (Volta): a sector miss keeps its line and agrees, with or without a fill unit', () => {
    for (const fillBytes of [undefined, 64]) {
      const preset = structuredClone(volta);
      if (fillBytes) for (const c of preset.l1Configs ?? []) c.geometry.fillBytes = fillBytes;
      if (fillBytes) preset.spaces.global.levels[0].geometry.fillBytes = fillBytes;
      const { trace, geometry } = fineRun(preset, { space: 'global', size: 64 * 1024, stride: 32, iterations: 2000, warmup: false });
      expect(geometry.sectored).toBe(true);
      // Sector misses: a miss whose way already holds its line, evicting nothing.
      const r = new CacheReplay(trace, geometry);
      let sectorMisses = 0;
      for (let i = 0; i < trace.address.length; i++) {
        r.seek(i);
        if (!r.isHit(i) && trace.evicted[i] < 0 && r.lineAt(trace.set[i], trace.way[i]) === r.lineOf(trace.address[i])) sectorMisses++;
      }
      expect(sectorMisses, `fill ${fillBytes ?? 'none'}`).toBeGreaterThan(0);
      r.seek(trace.address.length);
      expect(r.inconsistencies).toBe(0);
    }
  });

  it('cold traces replay from an empty grid, as before', () => {
    for (const raw of [T5[0][1], T5[3][1]]) {
      const { trace, geometry } = fineRun(fermi, { ...raw, warmup: false });
      expect(trace.start).toBeUndefined();
      const r = new CacheReplay(trace, geometry);
      expect(r.warmAccesses).toBe(0);
      expect(filled(r)).toBe(0);
      r.seek(trace.address.length);
      expect(r.inconsistencies).toBe(0);
    }
    // The non-uniform initialisation makes no warm-up pass.
    expect(fineRun(fermi, { init: 'non-uniform', warmup: true }).trace.start).toBeUndefined();
  });

  it('a start state of another size than the grid is left out (the replay starts empty)', () => {
    const { trace, geometry } = fineRun(fermi, T5[3][1]);
    const r = new CacheReplay(trace, { ...geometry, setWays: new Array(16).fill(4) });
    expect(r.warmAccesses).toBe(0);
    expect(filled(r)).toBe(0);
  });
});

describe('address split', () => {
  it('Fermi L1 (128 B lines, 32 sets): offset bits 0-6, set bits 7-11, tag above', () => {
    const a = 0x12345;
    const s = splitAddress(a, { lineBytes: 128, setWays: new Array(32).fill(4), index: { kind: 'bits' } });
    expect(s).not.toBeNull();
    expect(s!.offset).toBe(a % 128);
    expect(s!.set).toBe((a >> 7) & 31);
    expect(s!.tag).toBe(a >> 12);
    expect(s!.bits).toHaveLength(32);
    expect(s!.bits[0].bit).toBe(31);
    expect(s!.ranges).toEqual([
      { role: 'tag', from: 31, to: 12 },
      { role: 'set', from: 11, to: 7 },
      { role: 'offset', from: 6, to: 0 },
    ]);
  });

  it('texture L1 (32 B lines, 4 sets on bits 7-8): bits 5-6 belong to the tag', () => {
    const addr = (1 << 9) | (2 << 7) | (3 << 5) | 5;
    const s = splitAddress(addr, { lineBytes: 32, setWays: new Array(4).fill(96), index: { kind: 'bits', shiftBits: 7 } });
    expect(s!.set).toBe(2);
    expect(s!.offset).toBe(5);
    expect(s!.tag).toBe(0b111); // bits 5, 6 and 9
    expect(s!.ranges.map((r) => `${r.role}:${r.from}-${r.to}`)).toEqual(['tag:31-9', 'set:8-7', 'tag:6-5', 'offset:4-0']);
  });

  it('addresses beyond 32 bits widen the split; hashed and unequal indexing have none', () => {
    const s = splitAddress(2 ** 36 + 128, { lineBytes: 128, setWays: new Array(32).fill(4), index: { kind: 'bits' } });
    expect(s!.bits).toHaveLength(37);
    expect(s!.set).toBe(1);
    expect(s!.tag).toBe(2 ** 24);
    expect(splitAddress(100, { lineBytes: 64, setWays: [17, 8], index: { kind: 'interleave' } })).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------
// The view
// ---------------------------------------------------------------------------------------------

const RUN_ID = '00000000-0000-4000-8000-000000000001';

function runWith(trace: Trace | undefined, over: Partial<RunDetail> = {}): RunDetail {
  return {
    id: RUN_ID,
    experiment: 'pchase-fine',
    title: 'Fermi L1 chase',
    presetId: 'fermi',
    presetName: 'Fermi',
    seed: 1,
    simVersion: '1.0.0',
    status: 'done',
    error: null,
    createdAt: Date.UTC(2026, 0, 1),
    startedAt: Date.UTC(2026, 0, 1),
    finishedAt: Date.UTC(2026, 0, 1, 0, 0, 1),
    durationMs: 1000,
    tags: [],
    notes: '',
    preset: fermi,
    params: { space: 'global', size: 16 * 1024 + 128, stride: 128, iterations: 300 },
    result: { series: [], tables: [], findings: [], notes: [], ...(trace ? { trace } : {}) },
    ...over,
  };
}

function fakeLab(detail: RunDetail | Error): LabApi {
  const get = vi.fn(async () => {
    if (detail instanceof Error) throw detail;
    return detail;
  });
  return {
    runs: { get, start: vi.fn(), list: vi.fn(async () => ({ total: 0, items: [] })), cancel: vi.fn(), update: vi.fn(), delete: vi.fn() },
    on: () => () => {},
  } as unknown as LabApi;
}

let wrapper: VueWrapper | null = null;
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
  setLab(null);
});

async function mountView(lab: LabApi): Promise<VueWrapper> {
  setLab(lab);
  setActivePinia(createPinia());
  const router = createRouter({ history: createMemoryHistory(), routes: [{ path: '/:p(.*)*', component: { template: '<div />' } }] });
  await router.push(`/runs/${RUN_ID}/cache`);
  wrapper = mount(CacheView, { props: { id: RUN_ID }, global: { plugins: [router] }, attachTo: document.body });
  await flushPromises();
  return wrapper;
}

function key(k: string, shift = false): Promise<void> {
  window.dispatchEvent(new KeyboardEvent('keydown', { key: k, shiftKey: shift, bubbles: true }));
  return nextTick();
}

describe('CacheView', () => {
  const trace = (() => {
    const model = openSpace(fermi, 'global', 1);
    let j = 0;
    const N = 16 * 1024 + 128;
    return fineChase(model, new Measurement(0, 0, 1), () => {
      const a = j;
      j = (j + 128) % N;
      return a;
    }, 300);
  })();

  it('draws the Fermi L1 grid (32 x 4) at the first access and steps with the keyboard', async () => {
    const w = await mountView(fakeLab(runWith(trace)));
    expect(w.find('[data-testid="cache-title"]').text()).toContain('L1');
    expect(w.find('[data-testid="cache-shape"]').text()).toContain('32 sets × 4 ways');
    expect(w.findAll('[data-testid^="cache-set-"]')).toHaveLength(32);
    expect(w.findAll('[data-testid^="cache-set-0"] td')).toHaveLength(4);
    expect(w.find('[data-testid="cache-pos"]').text()).toBe('1');
    // Access 1: a cold miss of line 0 into set 0, way 0.
    expect(w.find('[data-testid="cache-outcome"]').text()).toBe('miss');
    expect(w.find('[data-testid="cell-0-0"]').classes()).toEqual(expect.arrayContaining(['current', 'miss']));
    expect(w.find('[data-testid="cell-0-0"]').attributes('data-line')).toBe('0');
    // The hot way of the Fermi policy is marked.
    expect(w.find('[data-testid="cell-0-1"]').classes()).toContain('hot');
    expect(w.find('[data-testid="cache-policy"]').text()).toContain('Fermi policy');
    expect(w.find('[data-testid="split-set"]').text()).toBe('0');

    await key('ArrowRight');
    expect(w.find('[data-testid="cache-pos"]').text()).toBe('2');
    expect(w.find('[data-testid="cache-setway"]').text()).toBe('1, 0');
    expect(w.find('[data-testid="cell-1-0"]').classes()).toContain('current');
    await key('ArrowRight', true);
    expect(w.find('[data-testid="cache-pos"]').text()).toBe('12');
    await key('ArrowLeft');
    expect(w.find('[data-testid="cache-pos"]').text()).toBe('11');
    await key('End');
    expect(w.find('[data-testid="cache-pos"]').text()).toBe('300');
    // 129 lines: set 0 gets lines 0, 32, 64, 96 in its 4 ways; line 128 (access 129) misses and evicts one.
    const input = w.find('[data-testid="jump-input"]');
    await input.setValue('129');
    await w.find('form').trigger('submit');
    expect(w.find('[data-testid="cache-pos"]').text()).toBe('129');
    expect(w.find('[data-testid="cache-outcome"]').text()).toBe('miss');
    expect(w.find('[data-testid="cache-evicted"]').text()).not.toBe('nothing');
    // Keys typed into the jump box do not step.
    input.element.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
    await nextTick();
    expect(w.find('[data-testid="cache-pos"]').text()).toBe('129');
    await key('Home');
    expect(w.find('[data-testid="cache-access"]').text()).toContain('Before the first access');
  });

  it('reads the trace with runs.trace when runs.get leaves it out (as it does over the contract)', async () => {
    const described = runWith(undefined);
    described.result = { ...described.result!, traceInfo: { accesses: trace.latency.length, dropped: 0, levelNames: trace.levelNames, series: [] } };
    const lab = fakeLab(described);
    const traceCall = vi.fn(async () => trace);
    (lab.runs as unknown as { trace: typeof traceCall }).trace = traceCall;
    const w = await mountView(lab);
    expect(traceCall).toHaveBeenCalledWith({ id: RUN_ID });
    expect(w.find('[data-testid="cache-shape"]').text()).toContain('32 sets × 4 ways');
    await key('End');
    expect(w.find('[data-testid="cache-pos"]').text()).toBe('300');
  });

  it('Space plays and pauses; the buttons step', async () => {
    const w = await mountView(fakeLab(runWith(trace)));
    const play = w.find('[data-testid="play"]');
    expect(play.text()).toContain('Play');
    await key(' ');
    expect(play.text()).toContain('Pause');
    await key(' ');
    expect(play.text()).toContain('Play');
    await w.find('[data-testid="step-forward"]').trigger('click');
    expect(w.find('[data-testid="cache-pos"]').text()).toBe('2');
    await w.find('[data-testid="step-back"]').trigger('click');
    expect(w.find('[data-testid="cache-pos"]').text()).toBe('1');
  });

  it('says why there is no grid for a run without a trace, and handles a missing run', async () => {
    const w = await mountView(fakeLab(runWith(undefined)));
    expect(w.find('[data-testid="cache-problem"]').text()).toContain('no per-access trace');
    w.unmount();
    wrapper = null;
    const err = Object.assign(new Error('no run 0000'), { code: 'not-found' });
    const w2 = await mountView(fakeLab(err));
    expect(w2.find('[data-testid="cache-missing"]').exists()).toBe(true);
  });

  it('a warm run: says the state includes the warm-up pass, starts filled and agrees throughout', async () => {
    const raw = { space: 'global', size: 8192, stride: 128, iterations: 1024, warmup: true };
    const params = resolveParams(pchaseFine.params, raw);
    const t = pchaseFine.run(fermi, params, 1, () => {}).trace!;
    const w = await mountView(fakeLab(runWith(t, { params })));
    expect(w.find('[data-testid="cache-warm"]').text()).toContain('includes the warm-up pass');
    expect(w.find('[data-testid="cache-warm"]').text()).toContain('64 warm-up accesses');
    // Access 1 hits line 0, which the warm-up left in set 0.
    expect(w.find('[data-testid="cache-outcome"]').text()).toBe('hit');
    expect(w.find('[data-testid="cell-0-0"]').classes()).toEqual(expect.arrayContaining(['current', 'hit']));
    expect(w.find('[data-testid="cell-0-0"]').attributes('data-line')).toBe('0');
    await key('End');
    expect(w.find('[data-testid="cache-pos"]').text()).toBe('1,024');
    expect(w.find('[data-testid="cache-disagree"]').exists()).toBe(false);
    expect(w.find('[data-testid="cache-counts"]').text()).toContain('1,024 hits, 0 misses');
    await key('Home');
    expect(w.find('[data-testid="cache-access"]').text()).toContain('the state the warm-up pass left');
    expect(w.findAll('[data-testid^="cell-"][data-line]').filter((c) => c.attributes('data-line') !== '-1').length).toBeGreaterThan(0);
  });

  it('a cold run has no warm-up line', async () => {
    const w = await mountView(fakeLab(runWith(trace)));
    expect(w.find('[data-testid="cache-warm"]').exists()).toBe(false);
    expect(w.find('[data-testid="cache-disagree"]').exists()).toBe(false);
  });

  it('a warm run recorded without its start state says to rerun it', async () => {
    const params = resolveParams(pchaseFine.params, { space: 'global', size: 8192, stride: 128, iterations: 1024, warmup: true });
    const t = pchaseFine.run(fermi, params, 1, () => {}).trace!;
    const w = await mountView(fakeLab(runWith({ ...t, start: undefined }, { params })));
    expect(w.find('[data-testid="cache-warm"]').exists()).toBe(false);
    await key('End');
    expect(w.find('[data-testid="cache-disagree"]').text()).toContain('rerun it');
  });

  it('the texture L1 (4 x 96) draws compact rows of 96 cells', async () => {
    const model = openSpace(fermi, 'texture', 1);
    let j = 0;
    const t = fineChase(model, new Measurement(0, 0, 1), () => {
      const a = j;
      j = (j + 32) % (13 * 1024);
      return a;
    }, 500);
    const w = await mountView(fakeLab(runWith(t, { params: { space: 'texture', size: 13 * 1024, stride: 32, iterations: 500 } })));
    expect(w.findAll('[data-testid^="cache-set-"]')).toHaveLength(4);
    expect(w.findAll('[data-testid="cache-set-0"] td')).toHaveLength(96);
    expect(w.find('[data-testid="cache-grid"]').classes()).toContain('compact');
    expect(w.find('[data-testid="address-split"]').exists()).toBe(true);
  });
});
