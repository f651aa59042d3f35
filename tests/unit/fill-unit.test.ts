/**
 * A fill unit above the sector (geometry.fillBytes): a sectored cache filled fillBytes at a time (an
 * L2 of 32 B sectors filled from DRAM 64 B at a time, JIA18 Fig 3.2, JIA19 Fig 3.5). A cold 4 B-stride
 * walk reaches the next level once every fillBytes, in the golden model and the compiled path; line
 * and sector misses fill the aligned block; the validator and the preset editor.
 */
import { describe, expect, it } from 'vitest';
import { applyField, formSections } from '../../src-renderer/src/composables/presetform';
import { Cache } from '../../src-sim/model/cache';
import { compilePath } from '../../src-sim/model/compiled';
import { Chip, PathModel } from '../../src-sim/model/path';
import type { PathConfig } from '../../src-sim/model/path';
import type { CacheGeometry } from '../../src-sim/model/types';
import { fermi } from '../../src-sim/presets/fermi';
import { validatePreset } from '../../src-sim/presets/validate';
import { hopper } from '../../src-sim/presets/hopper';

const L2 = (fillBytes?: number): CacheGeometry => ({
  lineBytes: 128,
  sets: 4,
  ways: 4,
  index: { kind: 'bits' },
  policy: { kind: 'lru' },
  sectorBytes: 32,
  ...(fillBytes !== undefined ? { fillBytes } : {}),
});

/** One sectored L2 in front of memory: 200 cycles a hit, 400 to memory. */
function l2Path(fillBytes?: number): PathConfig {
  return {
    description: 'a sectored L2',
    levels: [{ name: 'L2', sizeBytes: 4 * 4 * 128, geometry: L2(fillBytes), scope: 'chip' }],
    latency: { 'L2/-': 200, 'memory/-': 400 },
    interconnectFrom: 2,
  };
}

const WALK = 1024;
const STRIDE = 4;

describe('fill unit: a sectored cache filled fillBytes at a time', () => {
  for (const [fill, every] of [
    [undefined, 32],
    [32, 32],
    [64, 64],
    [128, 128],
  ] as const) {
    it(`a cold 4 B-stride walk reaches memory once every ${every} B (fillBytes ${fill ?? 'absent'}), golden and compiled`, () => {
      const golden = new PathModel(l2Path(fill), new Chip(1, 1));
      let toMemory = 0;
      for (let a = 0; a < WALK; a += STRIDE) {
        golden.access(a);
        if (golden.lastLevel === 1) toMemory++;
      }
      expect(toMemory).toBe(WALK / every);
      const model = new PathModel(l2Path(fill), new Chip(1, 1));
      const c = compilePath(model);
      if (typeof c === 'string') expect.fail(c);
      const n = WALK / STRIDE;
      expect(c.walk(4 * WALK, STRIDE, 0, 0, n)).toBe(toMemory * 400 + (n - toMemory) * 200);
    });
  }

  it('a line miss fills the aligned block around the address; a sector miss fills its block', () => {
    const c = new Cache(L2(64));
    expect(c.access(40)).toBe(false); // sector 1: the block of sectors 0-1
    expect([0, 32, 63].map((a) => c.contains(a))).toEqual([true, true, true]);
    expect([64, 96].map((a) => c.contains(a))).toEqual([false, false]);
    expect(c.access(0)).toBe(true);
    expect(c.access(100)).toBe(false); // sector 3 of a present line: a sector miss, evicting nothing
    expect(c.lastSectorMiss).toBe(1);
    expect(c.lastEvicted).toBe(-1);
    expect(c.contains(64)).toBe(true); // sector 2 came with it
    expect(c.access(64)).toBe(true);
    // Without a fill unit only the sector touched is filled.
    const one = new Cache(L2());
    one.access(40);
    expect([0, 32].map((a) => one.contains(a))).toEqual([false, true]);
  });

  it('the validator refuses a fill unit that is not a power of two from the sector to the line', () => {
    const issuesOf = (base: typeof hopper, level: number, fillBytes: number) => {
      const p = structuredClone(base);
      p.spaces.global!.levels[level].geometry.fillBytes = fillBytes;
      p.provenance[`spaces.global.levels.${level}.geometry.fillBytes`] = 'assumed: a test value';
      const v = validatePreset(p);
      return v.ok ? [] : v.issues.filter((i) => i.path.endsWith('fillBytes'));
    };
    // The H100's L2: 128 B lines of 32 B sectors.
    const g = hopper.spaces.global!.levels[1].geometry;
    expect([g.lineBytes, g.sectorBytes]).toEqual([128, 32]);
    for (const ok of [32, 64, 128]) expect(issuesOf(hopper, 1, ok)).toEqual([]);
    for (const bad of [16, 48, 256]) {
      expect(issuesOf(hopper, 1, bad)).toEqual([
        { path: 'spaces.global.levels.1.geometry.fillBytes', message: `fill unit ${bad} B must be a power of two from the 32 B sector to the 128 B line` },
      ]);
    }
    // A cache without sectors: the fill unit can only be the line.
    expect(issuesOf(fermi, 0, 128)).toEqual([]);
    expect(issuesOf(fermi, 0, 64)[0]?.message).toBe('fill unit 64 B must be a power of two from the 128 B line (no sectors) to the 128 B line');
  });

  it('the preset editor shows a fill unit for sectored caches and writes it', () => {
    const draft = structuredClone(hopper);
    const fields = formSections(draft).flatMap((s) => s.fields);
    const f = fields.find((x) => x.id === 'spaces.global.levels.1.geometry.fillBytes');
    expect(f?.kind).toBe('bytes');
    applyField(draft, f!, 128);
    expect(draft.spaces.global!.levels[1].geometry.fillBytes).toBe(128);
    // Unsectored caches (the Fermi L1) have none.
    expect(formSections(fermi).flatMap((s) => s.fields).some((x) => x.id === 'spaces.global.levels.0.geometry.fillBytes')).toBe(false);
  });
});
