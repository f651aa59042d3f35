import { describe, expect, it } from 'vitest';
import { findExperiment, resolveParams } from '../../src-sim/experiments';
import { openSpace } from '../../src-sim/experiments/pchase';
import type { Cache } from '../../src-sim/model/cache';
import { Chip, nearPartition, PathModel } from '../../src-sim/model/path';
import type { CacheLevelConfig, PartitionConfig, PathConfig } from '../../src-sim/model/path';
import { PRESETS } from '../../src-sim/presets';
import { validatePreset } from '../../src-sim/presets/validate';
import { formSections } from '../../src-renderer/src/composables/presetform';
import type { Preset } from '../../src-sim/presets/types';

/**
 * Partitioned cache levels (CacheLevelConfig.partitions) in the golden model: home partition by
 * address, near and far latencies, a far miss's extra, far copies, capacity per partition, and the
 * A100 and H100 presets that use them.
 */

const NEAR = 100;
const MEMORY = 400;

/** One partitioned L2 of 2 partitions x 4 sets x 2 ways of 128 B lines (LRU), 4 KB granules, far 1.5x. */
function l2Path(partitions: Partial<PartitionConfig> = {}): PathConfig {
  const level: CacheLevelConfig = {
    name: 'L2',
    sizeBytes: 8 * 2 * 128,
    geometry: { lineBytes: 128, sets: 8, ways: 2, index: { kind: 'bits' }, policy: { kind: 'lru' } },
    scope: 'chip',
    partitions: { count: 2, interleaveBytes: 4096, farLatencyRatio: 1.5, ...partitions },
  };
  return { description: 'partitioned', levels: [level], latency: { 'L2/-': NEAR, 'memory/-': MEMORY }, interconnectFrom: 1 };
}

const chipCache = (chip: Chip, key: string): Cache => (chip as unknown as { caches: Map<string, Cache> }).caches.get(key)!;
const valid = (c: Cache): number => Array.from(c.tags).filter((t) => t >= 0).length;

describe('partitioned levels in the golden model', () => {
  it("places an SM's near partition by its index: floor(sm x count / sms), sm mod count when the SM count is not known", () => {
    expect([0, 1, 53, 54, 107].map((sm) => nearPartition(sm, 2, 108))).toEqual([0, 0, 0, 1, 1]);
    expect([0, 3, 4, 15].map((sm) => nearPartition(sm, 4, 16))).toEqual([0, 0, 1, 3]);
    expect([0, 1, 2, 3].map((sm) => nearPartition(sm, 2, 0))).toEqual([0, 1, 0, 1]);
    const chip = new Chip(1, 1, 4);
    expect([0, 1, 2, 3].map((sm) => new PathModel(l2Path(), chip, sm).partitions![0]!.near)).toEqual([0, 0, 1, 1]);
  });

  it('sends each address to its home partition, floor(addr / interleaveBytes) mod count, shared by every SM of the chip', () => {
    const chip = new Chip(1, 1, 4);
    const a = new PathModel(l2Path(), chip, 0);
    const p0 = chipCache(chip, 'L2#0@chip');
    const p1 = chipCache(chip, 'L2#1@chip');
    expect(p0.sets).toBe(4);
    expect(p1.sets).toBe(4);
    a.access(0);
    a.access(4096 + 128);
    a.access(8192 + 256);
    a.access(3 * 4096 + 4095);
    expect([valid(p0), valid(p1)]).toEqual([2, 2]);
    // The other side's SM sees the same partitions.
    const b = new PathModel(l2Path(), chip, 3);
    expect(b.caches[0]).toBe(p1);
    expect(b.access(4096 + 128)).toBe(NEAR);
    expect(b.lastFar).toBe(0);
    expect(b.access(0)).toBe(NEAR * 1.5);
    expect(b.lastFar).toBe(1);
  });

  it('takes the table entry near, entry x farLatencyRatio far, and adds the same extra to a far miss', () => {
    const m = new PathModel(l2Path(), new Chip(1, 1, 4), 0);
    expect(m.access(0)).toBe(MEMORY);
    expect([m.lastLevel, m.lastFar]).toEqual([1, 0]);
    expect(m.access(0)).toBe(NEAR);
    expect([m.lastLevel, m.lastFar]).toEqual([0, 0]);
    expect(m.access(4096)).toBe(MEMORY + NEAR * 0.5);
    expect([m.lastLevel, m.lastFar]).toEqual([1, 1]);
    expect(m.access(4096)).toBe(NEAR * 1.5);
    expect([m.lastLevel, m.lastFar]).toEqual([0, 1]);
    // From the other side the latencies swap.
    const o = new PathModel(l2Path(), new Chip(1, 1, 4), 2);
    expect([o.access(0), o.access(0), o.access(4096), o.access(4096)]).toEqual([MEMORY + 50, 150, MEMORY, NEAR]);
  });

  it('holds size / count in each partition, indexed by the partition-local address (every set used)', () => {
    const chip = new Chip(1, 1, 2);
    const m = new PathModel(l2Path(), chip, 0);
    const p0 = chipCache(chip, 'L2#0@chip');
    expect(p0.lines).toBe(8);
    // Eight lines of partition 0 from two of its granules (0 and 2): 1 KB, its capacity; all fit.
    const lines = [0, 1, 2, 3].flatMap((i) => [i * 128, 8192 + i * 128]);
    for (const a of lines) m.access(a);
    expect(lines.map((a) => m.access(a))).toEqual(lines.map(() => NEAR));
    expect(new Set(lines.map((a) => (m.access(a), p0.lastSet))).size).toBe(4);
    // A ninth line of partition 0 evicts one of them; partition 1 is untouched.
    m.access(4 * 8192);
    expect(valid(p0)).toBe(8);
    expect(valid(chipCache(chip, 'L2#1@chip'))).toBe(0);
    expect(lines.map((a) => m.access(a)).filter((v) => v === MEMORY).length).toBeGreaterThan(0);
  });

  it('replicateFar: a far line read once is then served near, from a copy that takes near-partition capacity', () => {
    const chip = new Chip(1, 1, 2);
    const m = new PathModel(l2Path({ replicateFar: true }), chip, 0);
    const p0 = chipCache(chip, 'L2#0@chip');
    const p1 = chipCache(chip, 'L2#1@chip');
    expect(m.access(4096)).toBe(MEMORY + 50);
    expect(m.lastFar).toBe(1);
    expect([valid(p0), valid(p1)]).toEqual([1, 1]);
    expect(m.access(4096)).toBe(NEAR);
    expect([m.lastLevel, m.lastFar]).toEqual([0, 0]);
    // The far SM's own line is still in its home partition: SM 1 hits it near.
    expect(new PathModel(l2Path({ replicateFar: true }), chip, 1).access(4096)).toBe(NEAR);
    // Capacity: set 0 of partition 0 holds its two own lines; a far line's copy lands in that set and evicts the older.
    const c = new Chip(1, 1, 2);
    const r = new PathModel(l2Path({ replicateFar: true }), c, 0);
    r.access(0);
    r.access(512);
    expect([r.access(0), r.access(512)]).toEqual([NEAR, NEAR]);
    expect(r.access(4096)).toBe(MEMORY + 50);
    expect(chipCache(c, 'L2#0@chip').lastSet).toBe(0);
    expect(r.access(0)).toBe(MEMORY);
    // Without copies the far line leaves the near partition alone.
    const n = new PathModel(l2Path(), new Chip(1, 1, 2), 0);
    n.access(0);
    n.access(512);
    n.access(4096);
    expect([n.access(0), n.access(512), n.access(4096)]).toEqual([NEAR, NEAR, 150]);
  });

  it('4 partitions: the home rotates every granule; three of four are far from one SM', () => {
    const cfg = l2Path({ count: 4, interleaveBytes: 256 });
    const m = new PathModel(cfg, new Chip(1, 1, 8), 5); // near partition 2
    expect(m.partitions![0]!.near).toBe(2);
    const far = [0, 1, 2, 3, 4, 5, 6, 7].map((g) => (m.access(g * 256), m.lastFar));
    expect(far).toEqual([1, 1, 0, 1, 1, 1, 0, 1]);
  });
});

describe('the A100 and H100 presets: a two-partition L2', () => {
  const ampere = PRESETS.find((p) => p.id === 'ampere')!;
  const hopper = PRESETS.find((p) => p.id === 'hopper')!;

  /** The preset with far copies on or off. */
  const withCopies = (p: Preset, replicateFar: boolean): Preset => {
    const q = structuredClone(p) as Preset;
    q.spaces.global.levels[1].partitions!.replicateFar = replicateFar;
    return q;
  };

  it.each([ampere, hopper].map((p) => [p.id, p] as const))('%s validates, with 4 KB granules and far copies', (_id, p) => {
    expect(validatePreset(p).ok).toBe(true);
    expect(p.spaces.global.levels[1].partitions).toEqual({ count: 2, interleaveBytes: 4096, farLatencyRatio: 1.75, replicateFar: true });
  });

  it('the validator names a bad count, interleave and set split', () => {
    const bad = (partitions: unknown): string[] => {
      const p = structuredClone(ampere) as Preset;
      (p.spaces.global.levels[1] as { partitions: unknown }).partitions = partitions;
      const v = validatePreset(p);
      return v.ok ? [] : v.issues.map((i) => `${i.path}: ${i.message}`);
    };
    expect(bad({ count: 1, interleaveBytes: 4096, farLatencyRatio: 1.75 }).join('\n')).toMatch(/levels\.1\.partitions\.count: .*at least 2 partitions/);
    expect(bad({ count: 2, interleaveBytes: 3000, farLatencyRatio: 1.75 }).join('\n')).toMatch(/levels\.1\.partitions\.interleaveBytes: L2: interleave of 3000 B must be a power of two/);
    expect(bad({ count: 2, interleaveBytes: 64, farLatencyRatio: 1.75 }).join('\n')).toMatch(/at least the 128 B line/);
    expect(bad({ count: 3, interleaveBytes: 4096, farLatencyRatio: 1.75 }).join('\n')).toMatch(/levels\.1\.partitions\.count: L2: 16384 sets do not divide into 3 partitions/);
    expect(bad({ count: 2, farLatencyRatio: 1.75 }).join('\n')).toMatch(/partitions\.interleaveBytes/);
    expect(bad({ count: 2, interleaveBytes: 4096, farLatencyRatio: 1.75, replicateFar: true })).toEqual([]);
  });

  it("the preset editor edits the L2's partitions", () => {
    const l2 = formSections(ampere).find((s) => s.id === 'cache:L2@chip')!;
    const byPath = Object.fromEntries(l2.fields.map((f) => [f.id, f]));
    expect(byPath['spaces.global.levels.1.partitions.count']?.kind).toBe('int');
    expect(byPath['spaces.global.levels.1.partitions.interleaveBytes']?.kind).toBe('bytes');
    expect(byPath['spaces.global.levels.1.partitions.farLatencyRatio']?.kind).toBe('number');
    expect(byPath['spaces.global.levels.1.partitions.replicateFar']?.kind).toBe('boolean');
    const volta = PRESETS.find((p) => p.id === 'volta')!;
    expect(formSections(volta).flatMap((s) => s.fields.map((f) => f.id)).filter((id) => id.includes('partitions'))).toEqual([]);
  });

  it('A100: an L2 hit near takes 200 cycles, far 350; a far DRAM access 290 + 150 (without far copies)', () => {
    for (const [tpc, nearBase] of [
      [0, 0],
      [27, 4096],
    ] as const) {
      const m = openSpace(withCopies(ampere, false), 'global', 1, tpc);
      const farBase = 4096 - nearBase;
      // A line of each granule, then 60 lines of its L1 set (8 KB apart: the same partition) to evict it from the L1.
      const l2Hit = (a: number): number => {
        m.access(a);
        for (let k = 1; k <= 60; k++) m.access(a + k * 8192);
        return m.access(a);
      };
      expect(l2Hit(nearBase)).toBe(200);
      expect([m.lastLevel, m.lastTlb, m.lastFar]).toEqual([1, 'l1', 0]);
      expect(l2Hit(farBase)).toBe(350);
      expect([m.lastLevel, m.lastTlb, m.lastFar]).toEqual([1, 'l1', 1]);
      expect(m.access(nearBase + 640)).toBe(290);
      expect(m.access(farBase + 640)).toBe(290 + 150);
      expect([m.lastLevel, m.lastFar]).toEqual([2, 1]);
    }
  });

  it('A100 with its far copies: a far line read again is served near', () => {
    const m = openSpace(ampere, 'global', 1, 0);
    const far = 4096;
    m.access(far); // cold: DRAM through the far partition (and a TLB miss)
    expect(m.lastFar).toBe(1);
    for (let k = 1; k <= 60; k++) m.access(far + k * 8192); // evict it from the L1 (one L1 set)
    expect(m.access(far)).toBe(200);
    expect([m.lastLevel, m.lastFar]).toEqual([1, 0]);
  });

  it('an average P-chase over an array that fits the L2 reads a mean between the near and the far latency without far copies, the near latency with them', () => {
    const e = findExperiment('pchase-average')!;
    const run = (preset: Preset, tpc: number): number => {
      const r = e.run(preset, resolveParams(e.params, { strides: [128], sizeFrom: 1 << 20, sizeTo: 1 << 20, sizeStep: 4096, tpc } as never), 1, () => {});
      return r.series[0].y[0];
    };
    for (const [preset, near] of [
      [ampere, ampere.spaces.global.latency['L2/l1']],
      [hopper, hopper.spaces.global.latency['L2/l1']],
    ] as const) {
      for (const tpc of [-1, 0, 60]) {
        if (tpc === 60 && preset === ampere) continue;
        // 1 MB of 4 KB granules: half near, half far (the random L1 lets a few lines survive: within 3 %).
        const mean = run(withCopies(preset, false), tpc);
        expect(Math.abs(mean / ((near * (1 + 1.75)) / 2) - 1)).toBeLessThan(0.03);
        // With far copies the warm-up traversal brings every far line near.
        expect(Math.abs(run(preset, tpc) / near - 1)).toBeLessThan(0.03);
      }
    }
  });
});
