import { describe, expect, it } from 'vitest';
import type { ChaseRecord } from '../../src-sim/analysis/structure';
import {
  analyseCacheSize,
  analyseLineSize,
  analysePolicy,
  analyseSetMapping,
  analyseSetsWays,
  isPeriodic,
  LatencyPool,
  policyVerdict,
} from '../../src-sim/analysis/structure';
import { cacheStructure } from '../../src-sim/experiments/cache-structure';
import { textureSetMapping } from '../../src-sim/experiments/texture-set-mapping';
import type { ExperimentResult } from '../../src-sim/experiments/types';
import { Cache } from '../../src-sim/model/cache';
import type { PathConfig } from '../../src-sim/model/path';
import type { CacheGeometry, ReplacementPolicy } from '../../src-sim/model/types';
import { findPreset } from '../../src-sim/presets';
import type { Preset } from '../../src-sim/presets/types';
import { Rng } from '../../src-sim/rng';
import { CANNOT_TELL } from '../../src-sim/analysis/cannot-tell';

const fermi = findPreset('fermi') as Preset;
const value = (r: ExperimentResult, key: string): number | string | undefined => r.findings.find((f) => f.key === key)?.value;

/** A preset whose global memory is one cache level in front of memory: what the analysers must recover. */
function onePathPreset(geometry: CacheGeometry, hit: number, miss: number): Preset {
  const size = geometry.lineBytes * geometry.sets * geometry.ways;
  const path: PathConfig = {
    description: 'one generated cache level',
    levels: [{ name: 'X', sizeBytes: size, geometry, scope: 'sm' }],
    latency: { 'X/-': hit, 'memory/-': miss },
    interconnectFrom: 1,
  };
  return { ...fermi, id: 'generated', spaces: { global: path } };
}

interface Generated {
  geometry: CacheGeometry;
  /** Lines that go to one set before the next (1: line-number bits; 2 or 4: texture-style bits). */
  run: number;
  hit: number;
  miss: number;
  jitter: number;
}

/** Seeded random geometries over these ranges: line 16..256 B, 1..64 sets, 1..24 ways, four policies, three index styles. */
function generate(seed: number, count: number): Generated[] {
  const rng = new Rng(seed);
  const pick = <T>(a: readonly T[]): T => a[rng.int(a.length)];
  const out: Generated[] = [];
  const policies = ['lru', 'fifo', 'random', 'fermi'] as const;
  const styles = ['bits', 'interleave', 'texture-bits'] as const;
  for (let i = 0; i < count; i++) {
    const lineBytes = pick([16, 32, 64, 128, 256]);
    const sets = pick([1, 2, 4, 8, 16, 32, 64]);
    // Every policy and index style appears: cycle through them, the sizes stay random.
    const kind = policies[i % policies.length];
    const style = styles[Math.floor(i / policies.length) % styles.length];
    const run = style === 'texture-bits' ? pick([2, 4]) : 1;
    let ways = 1 + rng.int(24);
    // A texture-style mapping fills the cache-sized array evenly only when the ways are a multiple of the run.
    if (run > 1) ways = Math.max(run, Math.round(ways / run) * run);
    const policy: ReplacementPolicy = kind === 'fermi' ? { kind, hotWay: rng.int(ways), hotProbability: 0.5 } : { kind };
    const index = style === 'texture-bits' ? { kind: 'bits' as const, shiftBits: Math.log2(lineBytes * run) } : style === 'interleave' ? { kind: 'interleave' as const } : { kind: 'bits' as const };
    const hit = 5 + rng.int(300);
    const miss = hit + 30 + rng.int(500);
    const jitter = i % 3 === 2 ? Math.min(10, Math.floor((miss - hit) / 8)) : 0;
    out.push({ geometry: { lineBytes, sets, ways, index, policy }, run, hit, miss, jitter });
  }
  return out;
}

describe('the four-step method recovers generated caches from latencies alone', () => {
  const cases = generate(20260523, 16);
  it.each(cases.map((c, i) => [i, `${c.geometry.sets} sets x ${c.geometry.ways} ways x ${c.geometry.lineBytes} B, ${c.geometry.policy.kind}, run ${c.run}, jitter ${c.jitter}`, c] as const))(
    'geometry %i: %s',
    (i, _label, c) => {
      const g = c.geometry;
      const r = cacheStructure.run(onePathPreset(g, c.hit, c.miss), { maxSize: 1024 * 1024, jitter: c.jitter }, 100 + i, () => {});
      expect(value(r, 'cache.sizeBytes')).toBe(g.lineBytes * g.sets * g.ways);
      expect(value(r, 'cache.lineBytes')).toBe(g.lineBytes);
      expect(value(r, 'cache.sets')).toBe(g.sets);
      expect(value(r, 'cache.ways')).toBe(g.ways);
      // With one way every policy is LRU; FIFO is periodic on a cyclic chase but drops a re-used line.
      expect(value(r, 'cache.policy')).toBe(g.policy.kind === 'lru' || g.ways === 1 ? 'LRU' : 'not LRU');
      if (g.sets > 1) {
        const mapping = value(r, 'cache.setMapping') as string;
        if (c.run === 1) expect(mapping).toMatch(/^line-number bits/);
        else expect(mapping).toContain(`each ${g.lineBytes * c.run} B goes to the next set`);
      }
      expect(value(r, 'cache.hitLatency')).toBeCloseTo(c.hit, 0);
      // Every finding once: the set-index function was once given as the bit answer and then "cannot tell".
      const keys = r.findings.map((f) => f.key);
      expect(keys.filter((k, j) => keys.indexOf(k) !== j)).toEqual([]);
    },
  );

  it('covers every policy and index style', () => {
    const kinds = new Set(cases.map((c) => `${c.geometry.policy.kind}/${c.run > 1 ? 'texture' : c.geometry.index.kind}`));
    for (const p of ['lru', 'fifo', 'random', 'fermi']) for (const s of ['bits', 'interleave', 'texture']) expect(kinds.has(`${p}/${s}`)).toBe(true);
    expect(new Set(cases.map((c) => c.geometry.policy.kind)).size).toBe(4);
    expect(cases.some((c) => c.run > 1)).toBe(true);
    expect(cases.some((c) => c.geometry.index.kind === 'interleave')).toBe(true);
  });
});

/** A preset whose global memory is an L1 and an L2 in front of memory. */
function twoLevelPreset(l1: CacheGeometry, hit: number, l2Hit: number): Preset {
  const p = onePathPreset(l1, hit, l2Hit + 300);
  const path = p.spaces.global;
  const l2: CacheGeometry = { lineBytes: 128, sets: 64, ways: 16, index: { kind: 'bits' }, policy: { kind: 'lru' } };
  return {
    ...p,
    spaces: {
      global: { ...path, levels: [...path.levels, { name: 'L2', sizeBytes: 128 * 64 * 16, geometry: l2, scope: 'chip' }], latency: { 'X/-': hit, 'L2/-': l2Hit, 'memory/-': l2Hit + 300 } },
    },
  };
}

describe('beyond the papers: hashed indices, unequal sets, small gaps, jitter', () => {
  const run = (p: Preset, jitter = 0): ExperimentResult => cacheStructure.run(p, { maxSize: 256 * 1024, jitter }, 11, () => {});

  it('a hashed (XOR) index: ways from the conflict set, sets from minimal eviction sets, under LRU and random', () => {
    for (const policy of [{ kind: 'lru' }, { kind: 'random' }] as const) {
      const g: CacheGeometry = { lineBytes: 64, sets: 32, ways: 4, index: { kind: 'xor' }, policy };
      const r = run(onePathPreset(g, 100, 400));
      expect(value(r, 'cache.sizeBytes')).toBe(8192);
      expect(value(r, 'cache.sets')).toBe(32);
      expect(value(r, 'cache.ways')).toBe(4);
      expect(value(r, 'cache.setIndexKind')).toBe('hashed');
      // The model folds the line number's 5-bit digits: address bits 6-10 XOR 11-15, as far as the lines seen go.
      expect(value(r, 'cache.setIndexXor')).toMatch(/^set bit 0 = a6 \^ a11; set bit 1 = a7 \^ a12; set bit 2 = a8 \^ a13/);
      expect(value(r, 'cache.policy')).toBe(policy.kind === 'lru' ? 'LRU' : 'not LRU');
    }
  });

  it('unequal sets under LRU: the overflows count them and give each its ways', () => {
    const g: CacheGeometry = { lineBytes: 32, sets: 4, ways: 12, setWays: [12, 8, 8, 8], index: { kind: 'interleave' }, policy: { kind: 'lru' } };
    const r = run(onePathPreset(g, 100, 400));
    expect(value(r, 'cache.sets')).toBe(4);
    expect(value(r, 'cache.ways')).toBe('unequal');
    expect(value(r, 'cache.setIndexKind')).toBe('unequal sets');
    expect(value(r, 'cache.sizeBytes')).toBe(36 * 32);
  });

  it('an L2 hit two cycles slower than an L1 hit, without jitter: the L1 is the first level', () => {
    const g: CacheGeometry = { lineBytes: 128, sets: 32, ways: 4, index: { kind: 'bits' }, policy: { kind: 'lru' } };
    const r = run(twoLevelPreset(g, 100, 102));
    expect(value(r, 'cache.hitLatency')).toBe(100);
    expect(value(r, 'cache.missLatency')).toBe(102);
    expect(value(r, 'cache.sizeBytes')).toBe(16 * 1024);
    expect(value(r, 'cache.sets')).toBe(32);
  });

  it('an L2 hit within the jitter of the L1 hit: the size is "cannot tell", never the L2', () => {
    const g: CacheGeometry = { lineBytes: 64, sets: 16, ways: 4, index: { kind: 'bits' }, policy: { kind: 'lru' } };
    const r = run(twoLevelPreset(g, 100, 104), 4);
    expect(value(r, 'cache.sizeBytes')).toBe(CANNOT_TELL);
    expect(r.findings.find((x) => x.key === 'cache.sizeBytes')?.evidence).toMatch(/hides inside the hit cluster.*to decide/);
    expect(value(r, 'cache.sets')).toBeUndefined();
  });
});

describe('latency clusters', () => {
  it('takes the lowest cluster as the hit, whatever the slower clusters are', () => {
    const pool = new LatencyPool();
    // A chase's worth of latencies: each level seen many times.
    const seen = [116, 116, 404, 404, 404, 655, 655, 1259, 116, 116];
    pool.add(Float64Array.from({ length: 20 * seen.length }, (_, i) => seen[i % seen.length]));
    const s = pool.split();
    expect(s.separated).toBe(true);
    expect(s.hitLatency).toBe(116);
    expect(s.missLatency).toBe(404);
    expect(s.threshold).toBeGreaterThan(116);
    expect(s.threshold).toBeLessThan(404);
    expect(s.clusters.map((c) => Math.round(c.mean))).toEqual([116, 404, 655, 1259]);
  });

  it('separates jitter-free levels two cycles apart, and merges jittered ones that overlap', () => {
    const exact = new LatencyPool();
    exact.add(Float64Array.from({ length: 3000 }, (_, i) => (i % 3 === 0 ? 102 : i % 3 === 1 ? 100 : 400)));
    const e = exact.split();
    expect(e.clusters.map((c) => c.mean)).toEqual([100, 102, 400]);
    expect(e.confidence).toBeGreaterThan(0.999999);
    const rng = new Rng(5);
    const overlapping = new LatencyPool();
    overlapping.add(Float64Array.from({ length: 3000 }, (_, i) => (i % 3 === 2 ? 400 : i % 3 === 0 ? 102 : 100) + (rng.next() * 2 - 1) * 4));
    expect(overlapping.split().clusters.length).toBe(2);
  });

  it('keeps jittered clusters apart and says when there is only one', () => {
    const rng = new Rng(3);
    const lat = new Float64Array(4000);
    for (let i = 0; i < lat.length; i++) lat[i] = (i % 3 === 0 ? 220 : 110) + (rng.next() * 2 - 1) * 20;
    const pool = new LatencyPool();
    pool.add(lat);
    const s = pool.split();
    expect(s.separated).toBe(true);
    expect(Math.abs(s.hitLatency - 110)).toBeLessThan(2);
    expect(s.threshold).toBeGreaterThan(130);
    expect(s.threshold).toBeLessThan(200);
    const one = new LatencyPool();
    one.add(Float64Array.from([240, 240.5, 241, 240]));
    expect(one.split().separated).toBe(false);
  });
});

/** A record built from a hit/miss pattern (1 = miss) of a uniform chase. */
function record(N: number, s: number, traversals: number, missAt: (i: number, t: number) => boolean): ChaseRecord {
  const per = N / s;
  const address = new Float64Array(per * traversals);
  const latency = new Float64Array(per * traversals);
  for (let t = 0; t < traversals; t++)
    for (let i = 0; i < per; i++) {
      address[t * per + i] = i * s;
      latency[t * per + i] = t === 0 || missAt(i, t) ? 400 : 100;
    }
  return { N, s, address, latency, perTraversal: per };
}

describe('step analysers on hand-made traces', () => {
  it('step 1: C is the largest N with no miss after the cold traversal', () => {
    const probes = [1024, 2048, 2052, 4096].map((N) => record(N, 4, 2, (i) => N > 2048 && i % 32 === 0));
    const a = analyseCacheSize(probes, 250);
    expect(a.sizeBytes).toBe(2048);
    expect(a.firstMissBytes).toBe(2052);
    expect(a.consistent).toBe(true);
  });

  it('step 2: the line is the common divisor of the missed addresses', () => {
    // 64 B lines, 8 sets: N = C + 4 misses set 0 only (addresses multiple of 512), N = C + 128 also set 1.
    const C = 2048;
    const p1 = record(C + 4, 4, 2, (i) => (i * 4) % 512 === 0);
    const p2 = record(C + 128, 4, 2, (i) => (i * 4) % 512 === 0 || (i * 4) % 512 === 64);
    expect(analyseLineSize([p1], 250).lineBytes).toBe(512);
    expect(analyseLineSize([p1, p2], 250).lineBytes).toBe(64);
  });

  it('periodicity: LRU-like repeats every traversal, a varying pattern does not', () => {
    const periodic = record(640, 128, 8, (i) => i === 0 || i === 4);
    const varying = record(640, 128, 8, (i, t) => i === t % 5);
    expect(isPeriodic(periodic, 250)).toBe(true);
    expect(isPeriodic(varying, 250)).toBe(false);
  });

  it('step 4: each miss replaces the way of the line that misses next (checked against the model)', () => {
    const g: CacheGeometry = { lineBytes: 128, sets: 4, ways: 4, index: { kind: 'bits' }, policy: { kind: 'fermi', hotWay: 1, hotProbability: 0.5 } };
    const cache = new Cache(g, 9);
    const C = 128 * 16;
    const N = C + 128;
    const per = N / 128;
    const traversals = 400;
    const address = new Float64Array(per * traversals);
    const latency = new Float64Array(per * traversals);
    const truth: number[] = []; // ground truth (test only): the way each capacity miss of set 0 filled
    for (let i = 0; i < address.length; i++) {
      address[i] = (i % per) * 128;
      const hit = cache.access(address[i]);
      latency[i] = hit ? 100 : 400;
      if (!hit && cache.lastSet === 0 && cache.lastEvicted >= 0) truth.push(cache.lastWay);
    }
    const p = analysePolicy({ N, s: 128, address, latency, perTraversal: per }, 250, 128, { sets: 4, granularityBytes: 128 });
    expect(p.setLines).toEqual([0, 4, 8, 12, 16]);
    expect(p.ways).toBe(4);
    expect(p.periodic).toBe(false);
    expect(p.evictedWay.length).toBeGreaterThan(300);
    expect(p.evictedWay).toEqual(truth.slice(0, p.evictedWay.length));
    expect(p.hotWay).toBe(1);
    expect(Math.abs(p.wayShare[1] - 0.5)).toBeLessThan(0.08);
    expect(p.hotInterval).toBeGreaterThan(1.6);
    expect(p.hotInterval).toBeLessThan(2.4);
    expect(policyVerdict(p)).toBe('not LRU');
  });

  it('step 3 on a texture-style sweep: 4 sets, each 128 B to the next set (MEI Fig 12)', () => {
    // 32 B lines, set = (address / 128) mod 4, 8 ways: C = 1 KB. LRU: every line of an overflowing set misses.
    const C = 1024;
    const setOf = (a: number): number => Math.floor(a / 128) % 4;
    const probes: ChaseRecord[] = [];
    for (let j = 0; j <= 18; j++) {
      const N = C + j * 32;
      const lines = N / 32;
      const count = [0, 0, 0, 0];
      for (let l = 0; l < lines; l++) count[setOf(l * 32)]++;
      probes.push(record(N, 32, 4, (i) => count[setOf(i * 32)] > 8));
    }
    const a = analyseSetsWays(probes, 250, C, 32);
    expect(a.sets).toBe(4);
    expect(a.ways).toBe(8);
    expect(a.granularityBytes).toBe(128);
    expect(a.setIndexBits).toBe('7-8');
    expect(a.bigSteps).toEqual([1, 5, 9, 13]);
    const m = analyseSetMapping(a, 32);
    expect(m.linesPerSet).toEqual([8, 8, 8, 8]);
    expect(m.bitSelected).toBe(true);
    expect(m.setIndexBits).toBe('7-8');
    expect(m.exactLines).toBe(32);
    expect(Array.from(m.lineSet.slice(0, 8))).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
  });
});

describe('texture-set-mapping on the presets (MEI Fig 12)', () => {
  for (const id of ['fermi', 'kepler']) {
    it(`${id}: every 32 B line goes to the set the texture L1 puts it in`, () => {
      const preset = findPreset(id) as Preset;
      const r = textureSetMapping.run(preset, {}, 1, () => {});
      expect(value(r, 'texture.sets')).toBe(4);
      expect(value(r, 'texture.linesPerSet')).toBe(96);
      expect(value(r, 'texture.setIndexBits')).toBe('7-8');
      expect(value(r, 'texture.sizeBytes')).toBe(12288);
      // Ground truth (test only): the model's set of each line, up to naming the sets.
      const geometry = preset.spaces.texture!.levels[0].geometry;
      const truth = new Cache(geometry);
      const fig = r.series.find((s) => s.name.startsWith('MEI Fig 12'))!;
      const rename = new Map<number, number>();
      for (let i = 0; i < fig.x.length; i++) {
        const t = truth.setOf(fig.x[i]);
        if (!rename.has(t)) rename.set(t, fig.y[i]);
        expect(fig.y[i]).toBe(rename.get(t));
      }
      expect(new Set(rename.values()).size).toBe(4);
    });
  }
});

describe('the experiment refuses what it cannot probe', () => {
  it('names the parameter for a bad element size and for a missing L1 configuration', () => {
    expect(() => cacheStructure.run(fermi, { element: 6 }, 1, () => {})).toThrow(/element/);
    expect(() => cacheStructure.run(findPreset('kepler') as Preset, { l1Config: '48KB' }, 1, () => {})).toThrow(/l1Config/);
  });

  it('says so when no cache level is in front of memory (GT200 global memory)', () => {
    expect(() => cacheStructure.run(findPreset('tesla') as Preset, { space: 'global' }, 1, () => {})).toThrow(/no cache level/);
  });

  it('reports no size when the first level is larger than the search', () => {
    const r = cacheStructure.run(fermi, { space: 'global-cg', maxSize: 4096, steps: 1 }, 1, () => {});
    expect(value(r, 'cache.sizeBytes')).toBeUndefined();
    expect(r.notes.join(' ')).toMatch(/larger than "maxSize"/);
  });
});
