import { describe, expect, it } from 'vitest';
import type { CurveAnalysis } from '../../src-sim/analysis/average-curve';
import { analyseAverageCurve, analyseCurve, noiseSigma, readCurve, readHierarchy, staircaseFindings } from '../../src-sim/analysis/average-curve';
import { averageChase, Measurement } from '../../src-sim/experiments/pchase';
import type { CacheLevelConfig, PathConfig } from '../../src-sim/model/path';
import { Chip, PathModel } from '../../src-sim/model/path';
import { level } from '../../src-sim/presets/build';
import { Rng } from '../../src-sim/rng';
import { findExperiment, resolveParams } from '../../src-sim/experiments';
import type { Finding } from '../../src-sim/experiments/types';
import { findPreset } from '../../src-sim/presets';

/** A random LRU level: the geometry the analyser must recover. */
interface Geo {
  name: string;
  lineBytes: number;
  sets: number;
  ways: number;
}
const size = (g: Geo): number => g.lineBytes * g.sets * g.ways;
const waySize = (g: Geo): number => g.lineBytes * g.sets;

function path(geos: Geo[], latencies: number[]): PathConfig {
  const levels: CacheLevelConfig[] = geos.map((g) => level(g.name, 'sm', size(g), g.lineBytes, g.sets, g.ways));
  const latency: Record<string, number> = {};
  geos.forEach((g, i) => (latency[`${g.name}/-`] = latencies[i]));
  latency['memory/-'] = latencies[geos.length];
  return { description: 'random test path', levels, latency, interconnectFrom: levels.length };
}

/** Average-latency curve of a path, one fresh chip (kernel launch) per array size, as pchase-average does. */
function sweep(cfg: PathConfig, s: number, from: number, to: number, dx: number, seed: number, jitter = 0, passes = 1, whole = false) {
  const x: number[] = [];
  const y: number[] = [];
  // At least 256 timed loads, as pchase-average; `whole`: rounded up to whole traversals.
  const loads = (N: number): number => {
    const E = Math.ceil(N / s);
    return whole ? E * Math.max(passes, Math.ceil(256 / E)) : Math.max(256 * passes, E * passes);
  };
  for (let N = from, i = 0; N <= to; N += dx, i++) {
    const ps = Rng.derive(seed, i);
    const model = new PathModel(cfg, new Chip(ps, 1), 0, 0);
    x.push(N);
    y.push(averageChase(model, new Measurement(0, jitter, ps), N, s, loads(N)));
  }
  return { x, y, loads };
}

const pick = <T,>(rng: Rng, xs: readonly T[]): T => xs[rng.int(xs.length)];
const between = (rng: Rng, lo: number, hi: number): number => lo + rng.int(hi - lo + 1);

describe('average-curve analyser: one level, stride below the line (WONG Fig 4)', () => {
  const rng = new Rng(20240601);
  for (let t = 0; t < 10; t++) {
    const g: Geo = { name: 'L1', lineBytes: pick(rng, [32, 64, 128, 256]), sets: pick(rng, [2, 4, 8, 16]), ways: between(rng, 2, 12) };
    const s = g.lineBytes / pick(rng, [2, 4]);
    const hit = between(rng, 5, 300);
    const miss = hit + between(rng, 40, 400);
    it(`recovers ${size(g)} B, ${g.ways}-way, ${g.sets} sets of ${g.lineBytes} B lines with stride ${s} B`, () => {
      const C = size(g);
      const from = C - Math.max(8 * s, Math.floor(C / 4 / s) * s);
      const { x, y } = sweep(path([g], [hit, miss]), s, from, C + 2 * waySize(g) + 4 * s, s, t + 1);
      const a = analyseCurve(x, y, s);
      expect(a.ramps).toHaveLength(1);
      const r = a.ramps[0];
      expect(r.sizeBytes).toBe(C);
      expect(r.lineBytes).toBe(g.lineBytes);
      expect(r.sets).toBe(g.sets);
      expect(r.widthBytes).toBe(waySize(g));
      expect(r.ways).toBe(g.ways);
      expect(a.plateaus[0].latency).toBe(hit);
      // Past the overflow each line misses once and its other b/s-1 loads hit: a plateau between the two,
      // hit + (miss-hit) s ceil(N/b) / N, which lies within (miss-hit) s / C above hit + (miss-hit) s / b.
      const floor = hit + ((miss - hit) * s) / g.lineBytes;
      expect(a.plateaus[1].latency).toBeGreaterThanOrEqual(floor - 1e-9);
      expect(a.plateaus[1].latency).toBeLessThanOrEqual(floor + ((miss - hit) * s) / C);
    });
  }
});

describe('average-curve analyser: one level, stride of a line or more', () => {
  const rng = new Rng(777);
  for (let t = 0; t < 6; t++) {
    const g: Geo = { name: 'L1', lineBytes: pick(rng, [32, 64, 128]), sets: pick(rng, [4, 8, 16, 32]), ways: between(rng, 2, 16) };
    const s = g.lineBytes * pick(rng, [1, 2]);
    const hit = between(rng, 5, 300);
    const miss = hit + between(rng, 40, 400);
    it(`recovers ${size(g)} B, ${g.ways}-way with stride ${s} B (line not visible)`, () => {
      const C = size(g);
      const { x, y } = sweep(path([g], [hit, miss]), s, Math.max(s, C - 8 * s), C + 2 * waySize(g) + 4 * s, s, 100 + t);
      const a = analyseCurve(x, y, s);
      expect(a.ramps).toHaveLength(1);
      expect(a.ramps[0].sizeBytes).toBe(C);
      expect(a.ramps[0].ways).toBe(g.ways);
      expect(a.ramps[0].lineBytes).toBeUndefined();
      expect(a.plateaus.map((p) => p.latency)).toEqual([hit, miss]);
    });
  }
});

describe('average-curve analyser: two-level paths with random latencies', () => {
  const rng = new Rng(4242);
  for (let t = 0; t < 6; t++) {
    const b1 = pick(rng, [32, 64, 128]);
    const g1: Geo = { name: 'L1', lineBytes: b1, sets: pick(rng, [4, 8, 16]), ways: between(rng, 2, 8) };
    const b2 = b1 * pick(rng, [1, 2]);
    const g2: Geo = { name: 'L2', lineBytes: b2, sets: 1, ways: between(rng, 2, 8) };
    // The L2 is at least three times the L1 and its rise clear of the L1's.
    while (size(g2) < 3 * size(g1)) g2.sets *= 2;
    const lat = [between(rng, 5, 100)];
    lat.push(lat[0] + between(rng, 40, 200));
    lat.push(lat[1] + between(rng, 60, 300));
    const s = b2; // a line of both levels or more: every plateau is one level's latency
    it(`L1 ${size(g1)} B ${g1.ways}-way, L2 ${size(g2)} B ${g2.ways}-way, latencies ${lat.join('/')}, stride ${s} B`, () => {
      const { x, y } = sweep(path([g1, g2], lat), s, s, size(g2) + 2 * waySize(g2), s, 200 + t);
      const a = analyseCurve(x, y, s);
      expect(a.ramps.map((r) => r.sizeBytes)).toEqual([size(g1), size(g2)]);
      expect(a.ramps.map((r) => r.ways)).toEqual([g1.ways, g2.ways]);
      expect(a.plateaus.map((p) => p.latency)).toEqual(lat);
    });
  }

  it('reads both line sizes with a stride below both lines', () => {
    const g1: Geo = { name: 'L1', lineBytes: 64, sets: 8, ways: 4 };
    const g2: Geo = { name: 'L2', lineBytes: 256, sets: 16, ways: 3 };
    const { x, y } = sweep(path([g1, g2], [30, 120, 400]), 16, 1024, size(g2) + 2 * waySize(g2), 32, 9);
    const a = analyseCurve(x, y, 16);
    expect(a.ramps.map((r) => [r.sizeBytes, r.lineBytes, r.sets, r.ways])).toEqual([
      [2048, 64, 8, 4],
      [12288, 256, 16, 3],
    ]);
    expect(a.plateaus[0].latency).toBe(30);
  });
});

describe('average-curve analyser: caches that are not LRU', () => {
  for (const [t, g] of [
    [1, { lineBytes: 128, sets: 32, ways: 4 }],
    [2, { lineBytes: 64, sets: 16, ways: 8 }],
    [3, { lineBytes: 32, sets: 8, ways: 6 }],
  ] as const) {
    it(`random replacement, ${g.lineBytes * g.sets * g.ways} B: the size only, flagged as not the LRU staircase`, () => {
      const C = g.lineBytes * g.sets * g.ways;
      const cfg: PathConfig = {
        description: 'random-replacement test path',
        levels: [level('R', 'sm', C, g.lineBytes, g.sets, g.ways, { kind: 'random' })],
        latency: { 'R/-': 100, 'memory/-': 400 },
        interconnectFrom: 1,
      };
      const s = g.lineBytes;
      const { x, y, loads } = sweep(cfg, s, C / 2, 2 * C, s, 400 + t, 0, 1, true);
      const a = analyseCurve(x, y, s);
      expect(a.ramps.length).toBeGreaterThanOrEqual(1);
      expect(a.ramps[0].sizeBytes).toBe(C);
      // Told the loads of each point (whole traversals), the reader sees the falls no LRU cache makes.
      const f = analyseAverageCurve(x, y, s, 'r', { loads });
      expect(f.find((q) => q.key === 'r.level1.regular')?.value).toBe('no');
      for (const k of ['ways', 'lineBytes', 'sets']) expect(f.find((q) => q.key === `r.level1.${k}`)?.value).toBe('cannot tell');
    });
  }
});

describe('average-curve analyser: the gradual tail of a cache that is not LRU', () => {
  // MEI Fig 8's policy (one hot way refilled half the time): past its size the curve climbs
  // irregularly and then creeps up for sizes long after; the creep must not read as further levels.
  const hot = { kind: 'fermi', hotWay: 1, hotProbability: 0.5 } as const;
  const C = 16 * 1024;
  const l1 = (): CacheLevelConfig => level('L1', 'sm', C, 128, 32, 4, hot);

  for (const [dx, s] of [
    [128, 128],
    [256, 128],
    [512, 128],
    [256, 64],
    [128, 32],
  ] as const)
    it(`one level over 4 KB..96 KB (step ${dx} B, stride ${s} B), for every seed`, () => {
      const cfg: PathConfig = { description: 'non-LRU L1', levels: [l1()], latency: { 'L1/-': 116, 'memory/-': 404 }, interconnectFrom: 1 };
      const wrong: string[] = [];
      for (let seed = 1; seed <= 6; seed++) {
        const { x, y } = sweep(cfg, s, 4096, 96 * 1024, dx, 700 + seed * 13 + dx);
        const a = analyseCurve(x, y, s);
        const seen = a.ramps.map((r) => `${r.sizeBytes}${r.regular ? '' : '~'}`).join(' ');
        if (a.ramps.length !== 1 || a.ramps[0].sizeBytes < C || a.ramps[0].sizeBytes > C + C / 8 || a.ramps[0].regular) wrong.push(`seed ${seed}: ${seen}`);
      }
      // The creep is random: allow one seed in six to go astray (the old reading failed most of them).
      expect(wrong.length, wrong.join('; ')).toBeLessThanOrEqual(1);
    });

  it('a real level after the tail is still found: the LRU L2 beyond the non-LRU L1', () => {
    const l2 = level('L2', 'chip', 256 * 1024, 128, 512, 4);
    const cfg: PathConfig = { description: 'non-LRU L1, LRU L2', levels: [l1(), l2], latency: { 'L1/-': 116, 'L2/-': 404, 'memory/-': 655 }, interconnectFrom: 1 };
    for (let seed = 1; seed <= 3; seed++) {
      const { x, y } = sweep(cfg, 128, 8 * 1024, 512 * 1024, 2048, 900 + seed);
      const a = analyseCurve(x, y, 128);
      expect(a.ramps.map((r) => r.sizeBytes)).toEqual([C, 256 * 1024]);
      expect(a.ramps[0].regular).toBe(false);
    }
  });
});

describe('average-curve analyser: seeded jitter', () => {
  const rng = new Rng(99);
  for (let t = 0; t < 4; t++) {
    const jitter = pick(rng, [2, 5, 10]);
    const g1: Geo = { name: 'L1', lineBytes: 64, sets: pick(rng, [4, 8]), ways: between(rng, 2, 6) };
    const g2: Geo = { name: 'L2', lineBytes: 128, sets: pick(rng, [8, 16]), ways: between(rng, 2, 6) };
    while (size(g2) < 3 * size(g1)) g2.sets *= 2;
    const lat = [between(rng, 10, 50), between(rng, 150, 250), between(rng, 400, 600)];
    it(`jitter +-${jitter}: L1 ${size(g1)} B ${g1.ways}-way, L2 ${size(g2)} B ${g2.ways}-way`, () => {
      const s = 128;
      const { x, y } = sweep(path([g1, g2], lat), s, s, size(g2) + 2 * waySize(g2), s, 300 + t, jitter, 4);
      const a = analyseCurve(x, y, s);
      expect(a.noise).toBeGreaterThan(0);
      expect(a.ramps.map((r) => r.sizeBytes)).toEqual([size(g1), size(g2)]);
      expect(a.ramps.map((r) => r.ways)).toEqual([g1.ways, g2.ways]);
      a.plateaus.forEach((p, i) => expect(Math.abs(p.latency - lat[i])).toBeLessThan(1));
    });
  }

  it('finds no level in a flat curve with jitter', () => {
    const cfg: PathConfig = { description: 'uncached', levels: [], latency: { 'memory/-': 440 }, interconnectFrom: 0 };
    const { x, y } = sweep(cfg, 64, 1024, 65536, 1024, 5, 20);
    const f = analyseAverageCurve(x, y, 64, 'flat');
    // With noise no count is claimed: a level closer than the detection limit would not show.
    const levels = f.find((q) => q.key === 'flat.levels');
    expect(levels?.value).toBe('cannot tell');
    expect(levels?.evidence).toMatch(/no rise above [\d.]+ cycles/);
    const lat = f.find((q) => q.key === 'flat.plateau1.latency')?.value as number;
    expect(Math.abs(lat - 440)).toBeLessThan(1);
  });

  it('finds no level in a flat exact curve', () => {
    const cfg: PathConfig = { description: 'uncached', levels: [], latency: { 'memory/-': 440 }, interconnectFrom: 0 };
    const { x, y } = sweep(cfg, 64, 1024, 65536, 1024, 5);
    const f = analyseAverageCurve(x, y, 64, 'flat');
    expect(f.find((q) => q.key === 'flat.levels')?.value).toBe(0);
    expect(f.find((q) => q.key === 'flat.plateau1.latency')?.value).toBe(440);
  });

  it('says cannot tell for a curve that climbs without a clear step', () => {
    // A random-replacement cache whose climb fills the window (158 to 181 cycles inside it).
    const C = 64 * 32;
    const cfg: PathConfig = {
      description: 'random',
      levels: [level('R', 'sm', C, 64, 1, 32, { kind: 'random' })],
      latency: { 'R/-': 158, 'memory/-': 220 },
      interconnectFrom: 1,
    };
    const { x, y, loads } = sweep(cfg, 64, C + 256, C + 1024, 64, 11, 3, 4);
    expect(y[y.length - 1] - y[0]).toBeGreaterThan(5);
    const f = analyseAverageCurve(x, y, 64, 'r', { loads });
    expect(f.find((q) => q.key === 'r.levels')?.value).toBe('cannot tell');
    expect(f.find((q) => q.key === 'r.plateau1.latency')?.value).toBe('cannot tell');
  });
});

describe('average-curve analyser: pieces', () => {
  it('estimates the noise of a flat noisy series and ignores steps', () => {
    const r = new Rng(3);
    const y = Array.from({ length: 400 }, (_, i) => (i < 200 ? 100 : 300) + (r.next() - 0.5) * 2 * Math.sqrt(3));
    expect(noiseSigma(y)).toBeGreaterThan(0.8);
    expect(noiseSigma(y)).toBeLessThan(1.2);
  });

  it('reports an unfinished rise without ways or a last plateau', () => {
    const x = Array.from({ length: 20 }, (_, i) => 1024 + 64 * i);
    const y = x.map((n) => (n <= 1536 ? 10 : 10 + Math.floor((n - 1536 - 1) / 128 + 1) * 5));
    const a = analyseCurve(x, y, 32);
    expect(a.ramps).toHaveLength(1);
    expect(a.ramps[0].complete).toBe(false);
    expect(a.ramps[0].sizeBytes).toBe(1536);
    expect(a.ramps[0].lineBytes).toBe(128);
    expect(a.ramps[0].ways).toBeUndefined();
    expect(a.plateaus).toHaveLength(1);
  });

  it('names findings by label', () => {
    const g: Geo = { name: 'L1', lineBytes: 128, sets: 4, ways: 2 };
    const { x, y, loads } = sweep(path([g], [8, 72]), 128, 256, 4096, 128, 1);
    const f = analyseAverageCurve(x, y, 128, 'c', { loads });
    expect(f.map((q) => q.key)).toEqual(expect.arrayContaining(['c.levels', 'c.plateau1.latency', 'c.plateau2.latency', 'c.level1.sizeBytes', 'c.level1.ways']));
    expect(f.find((q) => q.key === 'c.level1.ways')?.value).toBe(2);
    expect(f.find((q) => q.key === 'c.level1.sizeBytes')?.value).toBe(1024);
    // A stride of a line shows neither the line nor (as it skips no set here, but could) the sets for sure.
    expect(f.find((q) => q.key === 'c.level1.lineBytes')?.value).toBe('cannot tell');
  });

  it('leaves the line and sets open with a stride of a line, and reads them with a stride below it', () => {
    const g: Geo = { name: 'L1', lineBytes: 64, sets: 8, ways: 4 };
    const at = (s: number) => {
      const { x, y, loads } = sweep(path([g], [20, 200]), s, 1024, 4096, s, 3);
      return analyseAverageCurve(x, y, s, 'c', { loads });
    };
    const wide = at(64);
    expect(wide.find((q) => q.key === 'c.level1.lineBytes')?.value).toBe('cannot tell');
    expect(wide.find((q) => q.key === 'c.level1.ways')?.value).toBe(4);
    const fine = at(16);
    expect(fine.find((q) => q.key === 'c.level1.lineBytes')?.value).toBe(64);
    expect(fine.find((q) => q.key === 'c.level1.sets')?.value).toBe(8);
    expect(fine.find((q) => q.key === 'c.level1.ways')?.value).toBe(4);
  });

  it('with jitter, reads line, sets, ways and the next latency from two strides fitted together', () => {
    // Alone, each curve leaves the line open (a level above could hide in the noise, and lines of 16 B
    // grouped two to a set fit as well); one hit latency and one miss penalty across both decide it.
    const g: Geo = { name: 'L1', lineBytes: 32, sets: 16, ways: 2 };
    const curves = [16, 32].map((s) => {
      const { x, y, loads } = sweep(path([g], [291, 354]), s, 512, 3072, s, 11, 5);
      const a = analyseCurve(x, y, s, { loads });
      return { a, rd: readCurve(a) };
    });
    const h = new Map(readHierarchy(curves).map((q) => [q.key, q]));
    expect(h.get('hierarchy.levels')?.value).toBe(1);
    expect(h.get('hierarchy.level1.lineBytes')?.value).toBe(32);
    expect(h.get('hierarchy.level1.lineBytes')?.evidence).toMatch(/one hit latency and one miss penalty/);
    expect(h.get('hierarchy.level1.sets')?.value).toBe(16);
    expect(h.get('hierarchy.level1.ways')?.value).toBe(2);
    expect(h.get('hierarchy.level1.sizeBytes')?.value).toBe(1024);
    expect(Math.abs((h.get('hierarchy.latency2')?.value as number) - 354)).toBeLessThanOrEqual(1);
  });

  it('does not read a 64-way fully associative cache as 256 ways, nor a direct-mapped one as 10 ways', () => {
    for (const g of [
      { name: 'L1', lineBytes: 64, sets: 1, ways: 64 },
      { name: 'L1', lineBytes: 64, sets: 16, ways: 1 },
    ] as Geo[]) {
      for (const s of [16, 64]) {
        const C = size(g);
        const { x, y, loads } = sweep(path([g], [30, 130]), s, C / 2, 3 * C, s, 5);
        const ways = analyseAverageCurve(x, y, s, 'c', { loads }).find((q) => q.key === 'c.level1.ways')?.value;
        expect([g.ways, 'cannot tell']).toContain(ways);
      }
    }
  });

  it('rejects mismatched or unsorted input', () => {
    expect(() => analyseCurve([1, 2], [1], 4)).toThrow();
    expect(() => analyseCurve([2, 1], [1, 1], 4)).toThrow();
  });
});

describe('a size step too coarse for the associativity', () => {
  const ways = (preset: string, raw: Record<string, unknown>): Finding | undefined => {
    const e = findExperiment('pchase-average')!;
    const r = e.run(findPreset(preset)!, resolveParams(e.params, raw as never), 1, () => {});
    return r.findings.find((f) => f.key === 's = 64 B.level1.ways');
  };
  it('says the step is too coarse, which associativities it leaves open, and the step and window that resolve it', () => {
    // Fermi's 512 KB L2 in 64 KB steps: the whole rise falls within one step.
    const coarse = ways('fermi', { sizeStep: '64KB', sizeFrom: '256KB', sizeTo: '1MB' });
    expect(coarse?.value).toBe('cannot tell');
    expect(coarse?.evidence).toContain('the rise lies within 1 size step of 64 KB, too coarse to resolve the associativity');
    expect(coarse?.evidence).toContain('any associativity from 8 up fits');
    expect(coarse?.evidence).toContain('to decide: a size step of at most 4 KB over N = 448 KB..640 KB');
    // That step over that window decides it.
    expect(ways('fermi', { sizeStep: '4KB', sizeFrom: '448KB', sizeTo: '640KB' })?.value).toBe(16);
  });
});

describe('the staircase reading checks what it assumes (staircaseFindings)', () => {
  // A 4 KB 4-way cache of 256 B lines (the instruction L1 of WONG Fig 23), read with a 64 B stride.
  const l1: Geo = { name: 'L1', lineBytes: 256, sets: 4, ways: 4 };
  const cfg = path([l1], [4, 40]);
  const grid = (from: number, to: number, dx: number): number[] => Array.from({ length: Math.floor((to - from) / dx) + 1 }, (_, i) => from + i * dx);
  const timed = (xs: number[], s: number, c = cfg): number[] =>
    xs.map((N, i) => {
      const ps = Rng.derive(1, i);
      return averageChase(new PathModel(c, new Chip(ps, 1), 0, 0), new Measurement(0, 0, ps), N, s, Math.max(256, 2 * Math.ceil(N / s)));
    });
  const read = (x: number[], y: number[], s: number, second?: CurveAnalysis): Map<string, Finding> =>
    new Map(staircaseFindings(analyseCurve(x, y, s), s, 'c', second ? { second } : {}).map((f) => [f.key, f]));
  const x = grid(3072, 6144, 64);
  const y = timed(x, 64);
  const told = (m: Map<string, Finding>, key: string): string => {
    const f = m.get(key);
    expect(f?.value, key).toBe('cannot tell');
    return f?.evidence ?? '';
  };

  it('reads a clean staircase: size, way, ways, line and sets', () => {
    const m = read(x, y, 64);
    expect([...m.values()].filter((f) => f.value === 'cannot tell')).toEqual([]);
    expect(m.get('c.levels')?.value).toBe(1);
    expect(m.get('c.level1.sizeBytes')?.value).toBe(4096);
    expect(m.get('c.level1.waySizeBytes')?.value).toBe(1024);
    expect(m.get('c.level1.ways')?.value).toBe(4);
    expect(m.get('c.level1.lineBytes')?.value).toBe(256);
    expect(m.get('c.level1.sets')?.value).toBe(4);
  });

  it('a line read from two points a step is not resolved', () => {
    const xc = grid(3072, 6144, 128);
    const m = read(xc, timed(xc, 64), 64);
    expect(told(m, 'c.level1.lineBytes')).toContain('256 B apart, 2 size step(s) of 128 B');
    expect(told(m, 'c.level1.lineBytes')).toContain('to decide: a sweep with a finer size step (at most 64 B)');
    told(m, 'c.level1.sets');
    expect(m.get('c.level1.sizeBytes')?.value).toBe(4096);
  });

  it('a rise within two size steps leaves its way size and ways open (the sweep would read a 1536 B way)', () => {
    const xc = grid(2304, 8192, 768);
    const m = read(xc, timed(xc, 64), 64);
    expect(told(m, 'c.level1.waySizeBytes')).toContain('the rise lies within 2 size step(s) of 768 B');
    const x2 = grid(2048, 8192, 512);
    const m2 = read(x2, timed(x2, 64), 64);
    told(m2, 'c.level1.waySizeBytes');
    expect(told(m2, 'c.level1.ways')).toContain('to decide: a size step of at most 128 B');
  });

  it('steps a size step does not divide are no evidence of a cache that is not LRU', () => {
    const xc = grid(3072, 6144, 96);
    expect(told(read(xc, timed(xc, 32), 32), 'c.level1.regular')).toContain('2 or 3 size steps of 96 B apart');
  });

  it('a size step that changes across the rise leaves its line and width open', () => {
    const xn = [...grid(3072, 4096, 64), ...grid(4224, 6144, 128)];
    const m = read(xn, timed(xn, 64), 64);
    expect(told(m, 'c.level1.lineBytes')).toContain('the size step is not one across the rise');
    told(m, 'c.level1.waySizeBytes');
    expect(m.get('c.level1.sizeBytes')?.value).toBe(4096);
  });

  it('a plateau that drifts by a step is no staircase plateau (the sweep would read a second level)', () => {
    const yd = y.map((v, i) => (x[i] > 5120 ? v + (1.5 * (x[i] - 5120)) / 1024 : v));
    const m = read(x, yd, 64);
    expect(told(m, 'c.levels')).toContain('plateau 2');
    told(m, 'c.plateau2.latency');
    told(m, 'c.level1.ways');
    told(m, 'c.level1.lineBytes');
    told(m, 'c.level2.sizeBytes');
    // The size needs only the plateau before the rise.
    expect(m.get('c.level1.sizeBytes')?.value).toBe(4096);
    const yd1 = y.map((v, i) => (x[i] <= 4096 ? v + (1.2 * (x[i] - 3072)) / 1024 : v));
    expect(told(read(x, yd1, 64), 'c.level1.sizeBytes')).toContain('plateau 1 (N = 3072..4096 B) drifts');
  });

  it('a noisy stretch past the rise is not read as more steps', () => {
    const rng = new Rng(2);
    const gauss = (): number => {
      let u = 0;
      for (let i = 0; i < 12; i++) u += rng.next();
      return u - 6;
    };
    const yn = y.map((v, i) => (x[i] > 5120 ? v + gauss() : v));
    const m = read(x, yn, 64);
    expect(told(m, 'c.level1.steps')).toContain('do not stand out of the noise');
    told(m, 'c.level1.regular');
    told(m, 'c.levels');
    expect(m.get('c.level1.sizeBytes')?.value).toBe(4096);
  });

  it('a second sweep: a rise that does not move is read, one that moves or whose steps move is not', () => {
    const xo = grid(3104, 6144, 64);
    const kept = read(x, y, 64, analyseCurve(xo, timed(xo, 32), 32));
    expect(kept.get('c.level1.sizeBytes')?.value).toBe(4096);
    expect(kept.get('c.level1.lineBytes')?.value).toBe(256);
    expect(kept.get('c.level1.ways')?.value).toBe(4);
    const moved = read(x, y, 64, analyseCurve(x, timed(x, 64, path([{ ...l1, ways: 5 }], [4, 40])), 64));
    expect(told(moved, 'c.level1.sizeBytes')).toContain('is at 5120 B in the second sweep');
    told(moved, 'c.levels');
    told(moved, 'c.level1.ways');
    const x32 = grid(3072, 6144, 32);
    const lines = read(x, y, 64, analyseCurve(x32, timed(x32, 32, path([{ ...l1, lineBytes: 128, sets: 8 }], [4, 40])), 32));
    expect(told(lines, 'c.level1.lineBytes')).toContain('256 B apart here and 128 B in the second sweep');
    expect(lines.get('c.level1.sizeBytes')?.value).toBe(4096);
  });
});
