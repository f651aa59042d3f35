import { describe, expect, it } from 'vitest';
import {
  analyseReuse,
  associativityLadder,
  checkFullyAssociative,
  classifyRises,
  simulateSet,
  tlbLevelsOf,
  analyseFixedCount,
  analyseOffset,
  analysePeriodicity,
  latencyClasses,
  segmentCurve,
  setSizesFromMisses,
} from '../../src-sim/analysis/tlb';
import { tlbProbes } from '../../src-sim/experiments/tlb-probes';
import type { ExperimentResult, Finding } from '../../src-sim/experiments/types';
import { ExperimentError } from '../../src-sim/experiments/types';
import { Chip, PathModel } from '../../src-sim/model/path';
import type { PathConfig, TranslationConfig } from '../../src-sim/model/path';
import type { ReplacementPolicy } from '../../src-sim/model/types';
import { findPreset } from '../../src-sim/presets';
import { level, unequalLevel } from '../../src-sim/presets/build';
import type { Preset } from '../../src-sim/presets/types';
import { Rng } from '../../src-sim/rng';
import { CANNOT_TELL } from '../../src-sim/analysis/cannot-tell';

const KB = 1024;
const MB = 1024 * KB;
const GB = 1024 * MB;

/** A synthetic GPU whose global memory is the given path (no data caches: the TLBs alone). */
function presetWith(path: PathConfig): Preset {
  const base = findPreset('tesla') as Preset;
  return { ...base, id: 'synthetic', name: 'Synthetic', spaces: { global: path }, provenance: {} };
}

function pathWith(translation: TranslationConfig, lat: [number, number, number], window = false): PathConfig {
  const latency: Record<string, number> = { 'memory/l1': lat[0], 'memory/l2': lat[1], 'memory/miss': lat[2] };
  if (window) latency['memory/inactive'] = lat[2] + 250;
  return { description: 'synthetic', levels: [], translation, latency, interconnectFrom: 0 };
}

function get(r: ExperimentResult, key: string): number | string | undefined {
  return r.findings.find((f: Finding) => f.key === key)?.value;
}

function run(preset: Preset, params: Record<string, unknown>, seed = 1): ExperimentResult {
  return tlbProbes.run(preset, params, seed, () => {});
}

const pick = <T,>(rng: Rng, xs: readonly T[]): T => xs[rng.int(xs.length)];

/** The finding is the truth or an honest 'cannot tell': never another value. Counts the exact ones. */
const tally = { exact: 0, honest: 0 };
/** The same for the missed-entries probe's sets and entries, counted apart (see the test that reads it). */
const missedTally = { exact: 0, honest: 0 };
function exactOrHonest(v: unknown, truth: number | string, t = tally): void {
  if (v === CANNOT_TELL || v === undefined) t.honest++;
  else {
    expect(v).toBe(truth);
    t.exact++;
  }
}

/** Random Fermi/Kepler-like TLBs: fully associative L1 of E1 pages, L2 of unequal sets [a, b x k]. */
interface UnequalGeometry {
  page: number;
  e1: number;
  sets: number[];
  lat: [number, number, number];
}

function randomUnequal(rng: Rng): UnequalGeometry {
  const page = pick(rng, [256 * KB, 512 * KB, 1 * MB, 2 * MB, 4 * MB]);
  const b = 3 + rng.int(8);
  const k = 2 + rng.int(6);
  const a = b + rng.int(13);
  const sets = [a, ...new Array<number>(k).fill(b)];
  const total = sets.reduce((x, y) => x + y, 0);
  const e1 = Math.max(4, Math.min(total - 4, 6 + rng.int(20)));
  const base = 200 + rng.int(300);
  const d1 = 6 + rng.int(60);
  const d2 = 40 + rng.int(300);
  return { page, e1, sets, lat: [base, base + d1, base + d1 + d2] };
}

function unequalTranslation(g: UnequalGeometry, policy: ReplacementPolicy = { kind: 'lru' }, window?: number): TranslationConfig {
  const total = g.sets.reduce((x, y) => x + y, 0);
  return {
    pageBytes: g.page,
    l1: level('L1 TLB', 'chip', g.e1 * g.page, g.page, 1, g.e1, policy),
    l2: unequalLevel('L2 TLB', 'chip', total * g.page, g.page, g.sets),
    ...(window ? { activeWindowBytes: window } : {}),
    virtualLevels: 0,
  };
}

/** Random GT200-like TLBs: fully associative L1 of E1 x c1, bit-indexed L2 of S sets x W ways x c2 lines. */
interface BitsGeometry {
  c1: number;
  e1: number;
  c2: number;
  sets: number;
  ways: number;
  lat: [number, number, number];
}

function randomBits(rng: Rng): BitsGeometry {
  for (;;) {
    const c1 = pick(rng, [128 * KB, 256 * KB, 512 * KB, 1 * MB]);
    const c2 = pick(rng, [1 * KB, 2 * KB, 4 * KB, 8 * KB]);
    const sets = pick(rng, [256, 512, 1024, 2048]);
    const ways = pick(rng, [4, 6, 8, 12]);
    const e1 = 4 + rng.int(Math.min(29, 4 * ways - 5));
    const way = sets * c2;
    // The probes need an L2 way of at least two L1 entries and an L2 reach beyond the L1's.
    if (way < 2 * c1 || ways * way <= e1 * c1 + 2 * c1) continue;
    const base = 300 + rng.int(200);
    const d1 = 10 + rng.int(60);
    const d2 = 60 + rng.int(250);
    return { c1, e1, c2, sets, ways, lat: [base, base + d1, base + d1 + d2] };
  }
}

function bitsTranslation(g: BitsGeometry): TranslationConfig {
  return {
    pageBytes: g.c2,
    l1: level('L1 TLB', 'chip', g.e1 * g.c1, g.c1, 1, g.e1),
    l2: level('L2 TLB', 'chip', g.sets * g.ways * g.c2, g.c2, g.sets, g.ways),
    virtualLevels: 0,
  };
}

describe('latency classes and curve segmentation', () => {
  it('finds the classes of exact and jittered latencies', () => {
    expect(latencyClasses([404, 488, 404, 404, 488]).map((c) => c.mean)).toEqual([404, 488]);
    const rng = new Rng(3);
    const v: number[] = [];
    for (let i = 0; i < 3000; i++) v.push(734 + (rng.next() * 2 - 1) * 20);
    for (let i = 0; i < 12; i++) v.push(1000 + (rng.next() * 2 - 1) * 20);
    const c = latencyClasses(v);
    expect(c.length).toBe(2);
    expect(c[1].count).toBe(12);
  });

  it('cuts a curve into plateaus and steps, keeping short runs inside a step', () => {
    const x = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
    const y = [100, 100, 100, 120, 119.5, 140, 139.4, 160, 160, 160, 160];
    const s = segmentCurve(x, y);
    expect(s.plateaus.map((p) => p.latency)).toEqual([100, 160]);
    expect(s.steps).toHaveLength(1);
    expect(s.steps[0].lastFitX).toBe(3);
    expect(s.steps[0].firstFullX).toBe(8);
  });
});

describe('set sizes from missed entries (MEI Figs 10-11)', () => {
  it('reads the big set and the normal sets off the jumps', () => {
    // 65 entries [17, 8 x 6]: 132 MB misses 18 accesses, each further 2 MB 9 more, 144 MB all 72.
    const el = [65, 66, 67, 68, 69, 70, 71, 72, 73];
    const miss = [0, 18, 27, 36, 45, 54, 63, 72, 73];
    const r = setSizesFromMisses(el, miss);
    expect(r?.setSizes).toEqual([17, 8, 8, 8, 8, 8, 8]);
    expect(r?.complete).toBe(true);
    expect(r?.consistent).toBe(true);
    expect(r?.missedEntries.slice(0, 8)).toEqual([0, 17, 25, 33, 41, 49, 57, 65]);
  });

  it('refuses sweeps that add more than one element per point', () => {
    expect(setSizesFromMisses([10, 12, 14], [0, 6, 14])).toBeNull();
  });
});

describe('reach and missed entries recover random unequal-set TLBs (Fermi/Kepler-like)', () => {
  const rng = new Rng(20140901);
  for (let t = 0; t < 6; t++) {
    const g = randomUnequal(rng);
    const total = g.sets.reduce((x, y) => x + y, 0);
    it(`L1 ${g.e1} x ${g.page / KB} KB, L2 sets [${g.sets.join(',')}]`, () => {
      const preset = presetWith(pathWith(unequalTranslation(g), g.lat));
      const P = g.page;
      const top = (total + g.sets.length + 6) * P;
      const reach = run(preset, { probe: 'reach', stride: P, sizeFrom: P, sizeTo: top, sizeStep: P }, t + 1);
      expect(get(reach, 'tlb.l1.reachBytes')).toBe(g.e1 * P);
      expect(get(reach, 'tlb.l1.entries')).toBe(g.e1);
      expect(get(reach, 'tlb.l1.sets')).toBe(1);
      expect(get(reach, 'tlb.l2.reachBytes')).toBe(total * P);
      // With an even entry count twice the stride reaches half the slots: the sets seen may not be all of them.
      exactOrHonest(get(reach, 'tlb.l2.entries'), total);
      exactOrHonest(get(reach, 'tlb.l2.sets'), g.sets.length);
      if (get(reach, 'tlb.l2.sets') !== CANNOT_TELL) expect(get(reach, 'tlb.l2.setSizes')).toBe(g.sets.join(','));
      expect(get(reach, 'tlb.latency.l1Hit')).toBe(g.lat[0]);
      expect(get(reach, 'tlb.latency.l2Hit')).toBe(g.lat[1]);
      expect(get(reach, 'tlb.latency.l2Miss')).toBe(g.lat[2]);
      expect(get(reach, 'tlb.l1.policy')).toBe('LRU');
      // The re-use test of the L2 needs its re-used element out of the L1: not always possible.
      exactOrHonest(get(reach, 'tlb.l2.policy'), 'LRU');

      const missed = run(preset, { probe: 'missed-entries', stride: P, sizeFrom: total * P, sizeTo: (total + g.sets.length + 2) * P, sizeStep: P, jitter: 3 }, t + 7);
      // The set sizes seen are the TLB's only where its entries are measured to cover the stride; else they
      // stand as the sets this stride reaches, and the sets and entries are "cannot tell".
      expect(get(missed, 'tlb.l2.setSizes') ?? get(missed, 'tlb.l2.reachedSetSizes')).toBe(g.sets.join(','));
      expect(get(missed, 'tlb.l2.firstMissedEntries')).toBe(g.sets[0]);
      expect(get(missed, 'tlb.l2.missedEntriesPerStep')).toBe(g.sets[1]);
      exactOrHonest(get(missed, 'tlb.l2.entries'), total, missedTally);
      exactOrHonest(get(missed, 'tlb.l2.sets'), g.sets.length, missedTally);

      const strides = [P / 8, P / 4, P / 2, (3 * P) / 4, P, (5 * P) / 4, (3 * P) / 2, 2 * P, 4 * P];
      const page = run(preset, { probe: 'page-size', stride: P, strides, sizeFrom: P, sizeTo: top, sizeStep: P }, t + 13);
      expect(get(page, 'tlb.l1.entryBytes')).toBe(P);
      expect(get(page, 'tlb.l1.fullyAssociative')).toBe('yes');
      exactOrHonest(get(page, 'tlb.pageBytes'), P);
    });
  }
  it('decides most of them', () => {
    expect(tally.exact).toBeGreaterThan(tally.honest);
    // The missed-entries sets need the L2 TLB's entry coverage measured under the run's jitter (3 cycles
    // here), which the reach sweep inside the probe finds for some of these only: recorded, not a target.
    console.log(`missed-entries sets and entries: ${missedTally.exact} exact, ${missedTally.honest} cannot tell`);
  });
});

describe('reach, fixed count and offset recover random bit-indexed TLBs (GT200-like)', () => {
  const rng = new Rng(2010);
  for (let t = 0; t < 6; t++) {
    const g = randomBits(rng);
    const way = g.sets * g.c2;
    it(`L1 ${g.e1} x ${g.c1 / KB} KB, L2 ${g.sets} sets x ${g.ways} ways x ${g.c2 / KB} KB`, () => {
      const preset = presetWith(pathWith(bitsTranslation(g), g.lat));
      const l2Reach = g.sets * g.ways * g.c2;
      const top = l2Reach + way + 4 * g.c1;
      const reach = run(preset, { probe: 'reach', stride: g.c1, sizeFrom: g.c1, sizeTo: top, sizeStep: g.c1 }, t + 1);
      expect(get(reach, 'tlb.l1.reachBytes')).toBe(g.e1 * g.c1);
      expect(get(reach, 'tlb.l1.entries')).toBe(g.e1);
      expect(get(reach, 'tlb.l2.reachBytes')).toBe(l2Reach);
      exactOrHonest(get(reach, 'tlb.l2.ways'), g.ways);
      exactOrHonest(get(reach, 'tlb.l2.waySizeBytes'), way);
      // The sets the stride does not reach are not counted: the entries stay undecided.
      expect(get(reach, 'tlb.l2.entries')).toBe(CANNOT_TELL);

      const strides = [g.c1 / 4, g.c1 / 2, (3 * g.c1) / 4, g.c1, (19 * g.c1) / 16, (23 * g.c1) / 16, 2 * g.c1, 4 * g.c1];
      const fixed = run(preset, { probe: 'fixed-count', counts: [g.e1, g.e1 + 1], strides }, t + 3);
      expect(get(fixed, 'tlb.l1.entries')).toBe(g.e1);
      expect(get(fixed, 'tlb.l1.entryBytes')).toBe(g.c1);
      expect(get(fixed, 'tlb.l1.fullyAssociative')).toBe('yes');

      // WONG Fig 15 scaled: groups at half an L2 way, enough elements to overflow an L2 set and the L1.
      let groupSize = Math.max(g.ways + 2, Math.ceil((g.e1 + 1) / 2));
      if (groupSize % 2) groupSize++;
      const offsets = [0, g.c2 / 4, g.c2 / 2, (3 * g.c2) / 4, g.c2, 2 * g.c2, 4 * g.c2];
      const off = run(preset, { probe: 'offset', groupStride: way / 2, groupSize, offsets }, t + 5);
      expect(get(off, 'tlb.l2.lineBytes')).toBe(g.c2);
    });
  }
});

describe('analysers on direct model runs', () => {
  /** Average latency of `count` elements at `stride` through a fresh model (warm-up pass, then 8 passes). */
  function average(path: PathConfig, count: number, stride: number, seed: number): number {
    const model = new PathModel(path, new Chip(seed, 1));
    for (let i = 0; i < count; i++) model.access(i * stride);
    let sum = 0;
    for (let t = 0; t < 8; t++) for (let i = 0; i < count; i++) sum += model.access(i * stride);
    return sum / (8 * count);
  }

  /** GT200's path (4 KB pages, an L2 TLB of 2048 x 8) with an L1 TLB of 512 KB entries in `sets` x `ways`. */
  function gt200With(sets: number, ways: number): PathConfig {
    const t: TranslationConfig = {
      pageBytes: 4 * KB,
      l1: level('L1 TLB', 'chip', sets * ways * 512 * KB, 512 * KB, sets, ways),
      l2: level('L2 TLB', 'chip', 64 * MB, 4 * KB, 2048, 8),
      virtualLevels: 0,
    };
    return pathWith(t, [440, 487, 698]);
  }

  it('a two-set L1 TLB is not fully associative (WONG Fig 14 argument)', () => {
    const path = gt200With(2, 8);
    // 9 elements first miss at 1 MB (all in one set); 1.5 MB spreads them over both sets again.
    const strides = [256, 512, 608, 724, 821, 1024, 1536, 2048].map((k) => k * KB);
    const curves = [8, 9, 16, 17].map((count) => ({ count, y: strides.map((s) => average(path, count, s, 5)) }));
    const a = analyseFixedCount(strides, curves);
    expect(a.fullyAssociative).toBe(false);
    expect(a.entries).toBe(8);
    // Without 1.5 MB nothing past the first miss could spread them: not a "yes".
    const pow2 = [256, 512, 608, 724, 821, 1024, 2048].map((k) => k * KB);
    const b = analyseFixedCount(pow2, [8, 9].map((count) => ({ count, y: pow2.map((s) => average(path, count, s, 5)) })));
    expect(b.fullyAssociative).toBeNull();
  });

  it('counts that are not E and E + 1 decide nothing about one set', () => {
    // A fully associative 16-entry L1 TLB seen through counts 8 and 18 only: 18 misses everywhere from
    // its coverage, but without 16 and 17 side by side that says nothing of the sets.
    const path = gt200With(1, 16);
    const strides = [256, 512, 608, 724, 821, 1024, 2048].map((k) => k * KB);
    const curves = [8, 18].map((count) => ({ count, y: strides.map((s) => average(path, count, s, 5)) }));
    const a = analyseFixedCount(strides, curves);
    expect(a.fullyAssociative).toBeNull();
    expect(a.findings.find((f) => f.key === 'tlb.l1.fullyAssociative')?.value).toBe('cannot tell');
  });

  it('random replacement is aperiodic: not LRU (MEI 3.2 (4))', () => {
    for (const seed of [1, 2, 3]) {
      const g: UnequalGeometry = { page: 2 * MB, e1: 16, sets: [17, 8, 8, 8, 8, 8, 8], lat: [400, 430, 500] };
      const path = pathWith(unequalTranslation(g, { kind: 'random' }), g.lat);
      const model = new PathModel(path, new Chip(seed, 1));
      const n = 17;
      for (let i = 0; i < n; i++) model.access(i * 2 * MB);
      const lat = new Float64Array(6 * n);
      for (let k = 0; k < lat.length; k++) lat[k] = model.access((k % n) * 2 * MB);
      expect(analysePeriodicity(lat, n).policy).toBe('not LRU');
    }
    const lru = new Float64Array(51).map((_, k) => (k % 17 === 3 ? 500 : 430));
    expect(analysePeriodicity(lru, 17).policy).toBe('LRU');
  });

  it('an offset pattern with no conflicts reports no line', () => {
    const a = analyseOffset([0, 1024, 4096], [404, 404, 404], 10);
    expect(a.lineBytes).toBeNull();
    expect(a.findings[0].value).toBe('none');
  });
});

describe('the page-table window (MEI pattern 6)', () => {
  it('recovers random window sizes', () => {
    const rng = new Rng(512);
    for (const W of [256 * MB, 512 * MB, 1 * GB]) {
      const g: UnequalGeometry = { page: 2 * MB, e1: 16, sets: [17, 8, 8, 8, 8, 8, 8], lat: [371, 377, 734] };
      const preset = presetWith(pathWith(unequalTranslation(g, { kind: 'lru' }, W), g.lat, true));
      const step = W / 8;
      const r = run(preset, { probe: 'window', stride: 2 * MB, sizeFrom: W - 3 * step, sizeTo: W + 3 * step, sizeStep: step, jitter: rng.int(10) }, 9);
      expect(get(r, 'tlb.window.bytes')).toBe(W);
      expect(get(r, 'tlb.window.switchLatency')).toBeCloseTo(984, -1);
    }
  });

  it('claims "no window" only with proof that the chase misses the L2 TLB (Fermi: the reach sweep names the L2 TLB, alternating halves cost no more)', () => {
    const r = run(findPreset('fermi') as Preset, { probe: 'window' });
    expect(get(r, 'tlb.window.bytes')).toBe('none');
    const ev = r.findings.find((f) => f.key === 'tlb.window.bytes')?.evidence ?? '';
    expect(ev).toContain('misses the L2 TLB');
    expect(ev).toContain('a larger window is not excluded');
  });

  it('does not claim "no window" where the sweep cannot reach past the L2 TLB', () => {
    // 64 to 128 MB at 2 MB: Fermi's L2 TLB (65 entries, 130 MB) still holds the chase.
    const r = run(findPreset('fermi') as Preset, { probe: 'window', sizeFrom: 64 * MB, sizeTo: 128 * MB, sizeStep: 64 * MB });
    expect(get(r, 'tlb.window.bytes')).toBe(CANNOT_TELL);
    expect(r.findings.find((f) => f.key === 'tlb.window.bytes')?.evidence).toContain('to decide');
  });

  it('does not take sizes where the L2 TLB still hits for the window', () => {
    // Window 128 MB, but an L2 TLB of 98 x 2 MB: switches appear only from about 196 MB, at multiples of 128 MB.
    const g: UnequalGeometry = { page: 2 * MB, e1: 16, sets: [50, 48], lat: [371, 377, 734] };
    const preset = presetWith(pathWith(unequalTranslation(g, { kind: 'lru' }, 128 * MB), g.lat, true));
    const r = run(preset, { probe: 'window', stride: 2 * MB, sizeFrom: 64 * MB, sizeTo: 512 * MB, sizeStep: 64 * MB }, 3);
    const v = get(r, 'tlb.window.bytes');
    expect(v === 128 * MB || v === CANNOT_TELL).toBe(true);
  });
});

describe('huge arrays are chased without allocating them', () => {
  it('4 GB sweeps complete with bounded memory', () => {
    const kepler = findPreset('kepler') as Preset;
    const before = process.memoryUsage().heapUsed;
    const reach = run(kepler, { probe: 'reach', stride: 256 * MB, sizeFrom: 256 * MB, sizeTo: 4 * GB, sizeStep: 256 * MB });
    const win = run(kepler, { probe: 'window', sizeFrom: 3.5 * GB, sizeTo: 4 * GB, sizeStep: 256 * MB });
    const grown = process.memoryUsage().heapUsed - before;
    expect(reach.series[0].x[reach.series[0].x.length - 1]).toBe(4 * GB);
    expect(win.series[0].y.length).toBe(3);
    expect(grown).toBeLessThan(100 * MB);
    expect(tlbProbes.estimate(kepler, { probe: 'window', sizeFrom: 3.5 * GB, sizeTo: 4 * GB, sizeStep: 256 * MB })).toBeLessThan(100_000);
  });
});

describe('parameters', () => {
  const fermi = findPreset('fermi') as Preset;
  it('refuses bad values, naming the parameter', () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ probe: 'nope' }, 'probe'],
      [{ stride: 6 }, 'stride'],
      [{ sizeFrom: 1 * MB, stride: 2 * MB }, 'sizeFrom'],
      [{ sizeFrom: 10 * MB, sizeTo: 4 * MB }, 'sizeTo'],
      [{ skew: -2 }, 'skew'],
      [{ probe: 'fixed-count', strides: '6' }, 'strides'],
    ];
    for (const [p, name] of bad) {
      let err: unknown;
      try {
        run(fermi, p);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ExperimentError);
      expect((err as ExperimentError).param).toBe(name);
    }
  });

  it('reports progress and stays deterministic', () => {
    let calls = 0;
    const a = tlbProbes.run(fermi, { probe: 'missed-entries', jitter: 4 }, 11, () => calls++);
    const b = tlbProbes.run(fermi, { probe: 'missed-entries', jitter: 4 }, 11, () => {});
    expect(calls).toBeGreaterThan(3);
    expect(a.findings).toEqual(b.findings);
  });
});

describe('what moves a rise, and what the analysers refuse to guess', () => {
  const curve = (ys: number[]): { elements: number[]; y: Float64Array } => ({ elements: ys.map((_, i) => i + 1), y: Float64Array.from(ys) });
  const flat = (n: number, v: number): number[] => new Array<number>(n).fill(v);

  it('a rise that moves when two elements share a 128 KB block is a translation step; one that stays is a data cache', () => {
    const main = curve([...flat(8, 100), ...flat(8, 140)]);
    const moved = curve(flat(16, 100));
    const kept = curve([...flat(8, 100), ...flat(8, 140)]);
    const tlb = classifyRises(main, moved, moved, kept, kept);
    expect(tlb.checks.map((c) => c.verdict)).toEqual(['tlb']);
    expect(tlb.checks[0].doubleSame).toBe(true);
    const data = classifyRises(main, kept, kept, kept, kept);
    expect(data.checks.map((c) => c.verdict)).toEqual(['data']);
    // Kept by the block pairs, gone at other offsets: a small-page TLB or a data cache: undecided.
    const unsure = classifyRises(main, kept, moved, moved, kept);
    expect(unsure.checks.map((c) => c.verdict)).toEqual(['undecided']);
  });

  it('names the first translation rise the L1 TLB, skips pure data rises and stops at an undecided one', () => {
    const main = curve([...flat(6, 100), ...flat(6, 160), ...flat(6, 170), ...flat(6, 250)]);
    const pair = curve([...flat(6, 100), ...flat(18, 160)]);
    const own = curve([...flat(6, 100), ...flat(6, 160), ...flat(6, 170), ...flat(6, 250)]);
    const near = curve([...flat(6, 100), ...flat(18, 160)]);
    const { checks, segmentation } = classifyRises(main, pair, near, own, own);
    expect(checks.map((c) => c.verdict)).toEqual(['data', 'tlb', 'tlb']);
    const walk = tlbLevelsOf(checks, segmentation.tolerance);
    expect(walk.levels.map((l) => [l.level, l.check.fit])).toEqual([
      [1, 12],
      [2, 18],
    ]);
    const stopped = tlbLevelsOf([{ ...checks[0], verdict: 'undecided' }, ...checks.slice(1)], segmentation.tolerance);
    expect(stopped.levels).toEqual([]);
    expect(stopped.stop).toContain('6 elements');
  });

  it('a rise that fades as the array grows is no TLB level (a page-table switch per window crossing)', () => {
    const ys = [...flat(10, 100), ...flat(10, 150), ...Array.from({ length: 30 }, (_, i) => 150 + 40 / (1 + i / 4))];
    const c = curve(ys);
    const { checks } = classifyRises(c, curve(flat(50, 100)), curve(flat(50, 100)), c, c);
    expect(checks[checks.length - 1].verdict).toBe('window');
  });

  it('LRU keeps a re-used element that FIFO evicts', () => {
    const seq = [0, 1, 0, 2, 0, 1, 0, 2];
    expect(simulateSet(seq, [], 2, 'lru')).toEqual([true, true, false, true, false, true, false, true]);
    expect(simulateSet(seq, [], 2, 'fifo')).toEqual([true, true, false, true, true, true, false, true]);
    const fifo = simulateSet(seq, [], 2, 'fifo');
    expect(analyseReuse(seq, fifo, [0, 1, 2], []).policy).toBe('FIFO');
    expect(analyseReuse(seq, simulateSet(seq, [], 2, 'lru'), [0, 1, 2], []).policy).toBe('LRU');
    expect(analyseReuse(seq, seq.map(() => true), [0, 1, 2], []).policy).toBe('neither');
  });

  it('one set only where E fit and E + 1 miss at every stride of the ladder', () => {
    const ladder = associativityLadder(2 * MB);
    expect(ladder).toContain(2 * MB + 4 * KB);
    expect(ladder).toContain(3 * MB);
    const fit = ladder.map(() => 100);
    expect(checkFullyAssociative(ladder, fit, ladder.map(() => 150), 100, 150).fullyAssociative).toBe(true);
    const over = ladder.map((t) => (t === 3 * MB ? 100 : 150));
    expect(checkFullyAssociative(ladder, fit, over, 100, 150)).toEqual({ fullyAssociative: false, exceptions: [3 * MB] });
  });

  it('a FIFO L1 TLB is not reported as LRU, a random one neither', () => {
    for (const kind of ['fifo', 'random'] as const) {
      const g: UnequalGeometry = { page: 2 * MB, e1: 16, sets: [17, 8, 8, 8, 8, 8, 8], lat: [400, 430, 500] };
      const preset = presetWith(pathWith(unequalTranslation(g, { kind }), g.lat));
      const r = run(preset, { probe: 'reach', sizeTo: 160 * MB }, 4);
      expect(get(r, 'tlb.l1.policy')).not.toBe('LRU');
      if (kind === 'fifo') expect(get(r, 'tlb.l1.policy')).toBe('not LRU');
    }
  });

  it('a direct-mapped data cache overflowing at 32 elements is not read as a TLB', () => {
    const g: UnequalGeometry = { page: 2 * MB, e1: 16, sets: [17, 8, 8, 8, 8, 8, 8], lat: [400, 430, 500] };
    const t = unequalTranslation(g);
    const d1 = level('D1', 'sm', 32 * 128, 128, 32, 1);
    const latency: Record<string, number> = { 'D1/l1': 100, 'D1/l2': 130, 'D1/miss': 200, 'memory/l1': 400, 'memory/l2': 430, 'memory/miss': 500 };
    // Fermi's defaults: 2 MB stride, 128 B skew, so each element takes the next data-cache set.
    const preset = { ...presetWith({ description: 'synthetic', levels: [d1], translation: t, latency, interconnectFrom: 1 }), generation: 'Fermi' as const };
    const r = run(preset, { probe: 'reach', sizeTo: 200 * MB }, 2);
    // The data cache overflows at 32 elements (64 MB): it is not named the L2 TLB.
    expect(get(r, 'tlb.l1.entries')).toBe(16);
    exactOrHonest(get(r, 'tlb.l2.entries'), 65);
    const rise = r.tables.find((x) => x.name === 'Rises and their controls')?.rows.find((row) => row.fit === '64 MB');
    expect(rise?.verdict).not.toBe('translation');
    expect(r.tables.find((x) => x.name === 'TLB steps')?.rows.map((row) => row.reach)).not.toContain('64 MB');
  });
});

describe('missed entries: the L2 TLB policy from a re-use chase', () => {
  it('FIFO is not reported as LRU; LRU still is', () => {
    for (const kind of ['fifo', 'lru'] as const) {
      const g: UnequalGeometry = { page: 2 * MB, e1: 16, sets: [17, 8, 8, 8, 8, 8, 8], lat: [400, 430, 500] };
      const t = { ...unequalTranslation(g), l2: unequalLevel('L2 TLB', 'chip', 65 * 2 * MB, 2 * MB, g.sets, { kind }) };
      const r = run(presetWith(pathWith(t, g.lat)), { probe: 'missed-entries', stride: 2 * MB, sizeFrom: 130 * MB, sizeTo: 144 * MB, sizeStep: 2 * MB }, 3);
      expect(get(r, 'tlb.l2.policy')).toBe(kind === 'lru' ? 'LRU' : 'not LRU');
    }
  });
});
