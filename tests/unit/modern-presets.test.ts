import { describe, expect, it } from 'vitest';
import { Cache } from '../../src-sim/model/cache';
import { PathModel, Chip } from '../../src-sim/model/path';
import { findPreset, PRESETS } from '../../src-sim/presets';
import { L1_CONFIG_IDS, withL1Config } from '../../src-sim/presets/l1-config';
import { presetStateBytes, validatePreset } from '../../src-sim/presets/validate';
import { modernL2 } from '../../src-sim/presets/modern';
import { H100_PREDICTIONS } from '../../src-sim/reference/h100-predictions';
import { reproduce, selectRows } from '../../src-sim/reference';

const MODERN = ['volta', 'turing', 'ampere', 'hopper', 'h200'];
const KB = 1024;
const MB = 1024 * KB;

describe('modern presets', () => {
  it.each(MODERN)('%s validates, with provenance on every number', (id) => {
    const p = findPreset(id)!;
    expect(p).toBeDefined();
    const v = validatePreset(JSON.parse(JSON.stringify(p)));
    expect(v.ok ? [] : v.issues).toEqual([]);
    for (const s of Object.values(p.provenance)) expect(s).toMatch(/^(assumed: .{8,}|(JIA18|JIA19|ABD22|LUO24|MEI|WONG|NVIDIA)\b)/);
  });

  it('every L1 configuration id of a built-in preset is a choice of the l1Config parameter, and every choice is used', () => {
    const used = new Set(PRESETS.flatMap((p) => (p.l1Configs ?? []).map((c) => c.id)));
    for (const id of used) expect(L1_CONFIG_IDS).toContain(id);
    for (const id of L1_CONFIG_IDS) if (id !== 'default') expect(used.has(id)).toBe(true);
  });

  it('a carveout sets the L1 size and the shared memory (Hopper: 228 KB of shared memory leaves 28 KB of L1)', () => {
    const h = findPreset('hopper')!;
    const small = withL1Config(h, '28KB');
    expect(small.spaces.global.levels[0].sizeBytes).toBe(28 * KB);
    expect(small.shared.sizeBytes).toBe(228 * KB);
    const large = withL1Config(h, '256KB');
    expect(large.spaces.global.levels[0].sizeBytes).toBe(256 * KB);
    expect(large.shared.sizeBytes).toBe(h.shared.sizeBytes); // no shared memory: the model keeps its size
    for (const c of h.l1Configs!) expect(c.sizeBytes + c.sharedBytes!).toBe(256 * KB);
  });

  it('a carveout that does not split the on-chip memory is refused', () => {
    const v = JSON.parse(JSON.stringify(findPreset('volta')!));
    v.l1Configs[1].sharedBytes = 16 * KB;
    const r = validatePreset(v);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues.map((i) => i.path)).toContain('l1Configs.1.sharedBytes');
  });

  it('a 50 MB L2 (H100) asks for bounded simulator memory and allocates it', () => {
    const h = findPreset('hopper')!;
    expect(presetStateBytes(h)).toBeLessThan(64 * MB);
    const l2 = new Cache(modernL2(50 * MB, 128, 25).geometry, 1);
    expect(l2.lines).toBe(409600);
    expect(l2.tags.byteLength).toBeLessThan(8 * MB);
  });
});

describe('sectored lines', () => {
  const g = { lineBytes: 128, sets: 4, ways: 2, index: { kind: 'bits' as const }, policy: { kind: 'lru' as const }, sectorBytes: 32 };

  it('a 128 B line of 32 B sectors misses once per sector, then hits every sector', () => {
    const c = new Cache(g, 1);
    const first = [0, 4, 28, 32, 60, 64, 96, 127].map((a) => c.access(a));
    expect(first).toEqual([false, true, true, false, true, false, false, true]);
    expect([0, 32, 64, 96].map((a) => c.access(a))).toEqual([true, true, true, true]);
    expect(c.contains(100)).toBe(true);
  });

  it('a sector miss of a present line evicts nothing; a line miss fills only its sector', () => {
    const c = new Cache(g, 1);
    c.access(0);
    expect(c.lastEvicted).toBe(-1);
    expect(c.access(64)).toBe(false);
    expect(c.lastSectorMiss).toBe(1);
    expect(c.lastEvicted).toBe(-1);
    expect(c.contains(32)).toBe(false);
    c.reset();
    expect(c.contains(0)).toBe(false);
  });

  it('the same cache without sectors fills the whole line at once', () => {
    const c = new Cache({ ...g, sectorBytes: undefined }, 1);
    expect([0, 32, 64, 96].map((a) => c.access(a))).toEqual([false, true, true, true]);
  });

  it('a cold stride-32 chase through a sectored path misses L1 at every sector (32 B granularity)', () => {
    const p = findPreset('volta')!;
    const m = new PathModel(p.spaces.global, new Chip(1, p.chip.smPerTpc));
    const levels = [0, 32, 64, 96, 128].map((a) => (m.access(a), m.lastLevel));
    expect(levels.every((l) => l > 0)).toBe(true);
    expect(m.access(4)).toBe(p.spaces.global.latency['L1/-']);
  });
});

describe('modern rows', () => {
  it('each paper selects its rows, on its preset', () => {
    expect(selectRows('JIA18').map((r) => r.id)).toEqual(['JIA18-MEM', 'JIA18-F3.2', 'JIA18-T3.3', 'JIA18-3.1.2']);
    expect(selectRows('JIA19').map((r) => r.id)).toEqual(['JIA19-MEM', 'JIA19-F3.5', 'JIA19-T3.3', 'JIA19-3.1.2']);
    expect(selectRows('LUO24')[0].presets).toEqual(['hopper']);
  });

  it.each(['JIA18-MEM', 'JIA19-MEM', 'ABD22-MEM', 'LUO24-MEM', 'JIA18-F3.2', 'JIA19-F3.5', 'JIA18-3.1.2', 'JIA19-3.1.2'])(
    '%s runs and passes; latencies are calibrated, sizes and fill units recovered',
    (id) => {
      const [r] = reproduce(id);
      expect(r.checks.filter((c) => !c.pass)).toEqual([]);
      expect(r.pass).toBe(true);
      for (const c of r.checks) {
        if (c.name.endsWith('latency') || c.name.startsWith('first access')) expect(c.kind).toBe('calibrated');
        else if (c.name.startsWith('L1 size') || c.name.includes('every')) expect(c.kind).toBe('recovered');
        else if (c.name.startsWith('L2 ')) expect(c.kind).toBe('specification');
      }
    },
  );

  it('Table 3.3 (the L1 a chase detects, 7 KB short of nominal) passes on the carveouts\' reserved 7 KB, and fails without it', () => {
    for (const id of ['JIA18-T3.3', 'JIA19-T3.3']) {
      const [r] = reproduce(id);
      expect(r.pass).toBe(true);
      expect(r.checks.every((c) => c.kind === 'calibrated')).toBe(true);
      const p = JSON.parse(JSON.stringify(findPreset(r.preset)!));
      for (const c of p.l1Configs) {
        c.sizeBytes += c.reservedBytes;
        c.geometry.ways = c.sizeBytes / (c.geometry.sets * c.geometry.lineBytes);
        delete c.reservedBytes;
      }
      const [nominal] = reproduce(id, p);
      expect(nominal.pass).toBe(false);
    }
  });

  it("the replacement rows fail under LRU: they show the papers' policies, not any policy", () => {
    const lru = { kind: 'lru' as const };
    const asLru = (id: string) => {
      const p = JSON.parse(JSON.stringify(findPreset(id)!));
      p.spaces.global.levels[0].geometry.policy = lru;
      return p;
    };
    const [v] = reproduce('JIA18-3.1.2', asLru('volta'));
    expect(v.pass).toBe(false);
    expect(Number(v.checks[0].simulated)).toBeGreaterThan(100);
    const [t] = reproduce('JIA19-3.1.2', asLru('turing'));
    expect(t.pass).toBe(false);
  });
});

describe('the papers\' numbers, literally', () => {
  it("V100 (JIA18): 16-way L2 of 6144 sets, 4 L1 sets, DRAM 375 / 1029, at the PCIe card's 1380 MHz", () => {
    const v = findPreset('volta')!;
    const l2 = v.spaces.global.levels[1].geometry;
    expect([l2.ways, l2.sets, l2.lineBytes, l2.sectorBytes]).toEqual([16, 6144, 64, undefined]);
    expect(v.spaces.global.levels[0].geometry.sets).toBe(4);
    expect(v.spaces.global.levels[0].geometry.policy.kind).toBe('lip');
    expect([v.spaces.global.latency['memory/l1'], v.spaces.global.latency['memory/miss']]).toEqual([375, 1029]);
    expect(v.chip.coreClockMHz).toBe(1380);
    expect(v.spaces.constant?.latency['C-L1/-']).toBe(27);
  });

  it('T4 (JIA19): DRAM 296 / 616, 16-way L2, random L1; A100 (ABD22): clock overhead 2', () => {
    const t = findPreset('turing')!;
    expect([t.spaces.global.latency['memory/l1'], t.spaces.global.latency['memory/miss']]).toEqual([296, 616]);
    expect(t.provenance['spaces.global.levels.1.geometry.ways']).toMatch(/^JIA19 3\.2/);
    expect(t.spaces.global.levels[0].geometry.policy.kind).toBe('random');
    expect(findPreset('ampere')!.measurement.clockOverhead).toBe(2);
  });

  it("H100: LUO24's H800 cycles converted from 1755 to 1980 MHz beyond the SM, not inside it", () => {
    const h = findPreset('hopper')!;
    const lat = h.spaces.global.latency;
    expect(lat['L1/-']).toBe(40.7);
    expect(h.shared.latency.base).toBe(29);
    expect(lat['L2/l1']).toBeCloseTo(40.7 + (263 - 40.7) * (1980 / 1755), 1);
    expect(lat['memory/l1']).toBeCloseTo(40.7 + (478.8 - 40.7) * (1980 / 1755), 1);
    expect(h.provenance['spaces.global.latency.memory/l1']).toContain('1980/1755');
    expect(h.chip.coreClockMHz).toBe(1980);
  });

  it('no provenance claims what the papers do not say', () => {
    for (const id of MODERN) {
      const text = Object.values(findPreset(id)!.provenance).join('\n');
      expect(text).not.toMatch(/with the (clock )?overhead removed/);
      expect(text).not.toMatch(/LUO24 benchmarks the partitioned L2/);
      expect(text).not.toMatch(/MEI Table 3, Kepler/);
    }
  });
});

describe('the H100 prediction table', () => {
  it('names each quantity with the preset path it is read from and that path source', () => {
    const h = findPreset('hopper')!;
    const names = H100_PREDICTIONS.map((p) => p.quantity);
    for (const q of ['L1 hit latency', 'L2 hit latency', 'DRAM latency', 'L1 line size', 'L1 sector size', 'shared memory latency', 'shared memory cost per further conflict way', 'L1 TLB reach'])
      expect(names).toContain(q);
    expect(H100_PREDICTIONS.filter((p) => p.quantity.startsWith('L1 capacity at')).length).toBe(h.l1Configs!.length);
    for (const p of H100_PREDICTIONS) {
      expect(p.source).not.toBe('(no provenance)');
      expect(Number.isFinite(p.value)).toBe(true);
    }
  });
});
