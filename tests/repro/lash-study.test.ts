import { describe, expect, it } from 'vitest';
import { findExperiment } from '../../src-sim/experiments';
import type { ExperimentResult } from '../../src-sim/experiments/types';
import { ExperimentError } from '../../src-sim/experiments/types';
import { findPreset } from '../../src-sim/presets';
import type { Preset } from '../../src-sim/presets/types';
import { runRow } from '../../src-sim/reference/check';
import { bandOf, checkOne } from '../../src-sim/reference/check';
import { PREDICTED } from '../../src-sim/reference/kinds';
import { selectRows } from '../../src-sim/reference';
import { ROWS } from '../../src-sim/reference/rows-lash';
import { simulate } from '../../src-sim/timing/engine';
import { matmulKernels } from '../../src-sim/timing/workloads/lash';

const fermi480 = findPreset('fermi480')!;
const tesla = findPreset('tesla')!;

function run(id: string, preset: Preset, params: Record<string, unknown>): ExperimentResult {
  return findExperiment(id)!.run(preset, params, 1, () => {});
}
const value = (r: ExperimentResult, key: string) => r.findings.find((f) => f.key === key)?.value;

describe('tolerance for relative figures', () => {
  it("'half' accepts half of the paper's value either way", () => {
    const ref = { name: 'x', value: 11, unit: '%', tolerance: 'half' as const, citation: 'LASH II' };
    expect(bandOf(ref)).toEqual([5.5, 16.5]);
    expect(checkOne(ref, 5.5, PREDICTED).pass).toBe(true);
    expect(checkOne(ref, 16.5, PREDICTED).pass).toBe(true);
    expect(checkOne(ref, 5.4, PREDICTED).pass).toBe(false);
    expect(checkOne(ref, 17, PREDICTED).pass).toBe(false);
    expect(checkOne(ref, 12, PREDICTED).target).toBe('5.5..16.5 %');
  });
  it("'half-gain' judges a ratio by its gain over 1", () => {
    const ref = { name: 'speedup', value: 1.9, unit: 'x', tolerance: 'half-gain' as const, citation: 'SL1 4.2' };
    expect(bandOf(ref)).toEqual([1.45, 2.35]);
    expect(checkOne(ref, 1.46, PREDICTED).pass).toBe(true);
    expect(checkOne(ref, 1.44, PREDICTED).pass).toBe(false);
  });
});

describe('LASH rows', () => {
  it('are registered under the paper LASH with citations on every reference', () => {
    expect(selectRows('LASH').map((r) => r.id)).toEqual(['LASH-CFG', 'LASH-MLP', 'LASH-F4', 'LASH-F5', 'LASH-F6', 'LASH-F7', 'LASH-F1', 'LASH-280']);
    for (const row of ROWS) for (const p of row.presets) for (const ref of row.references(findPreset(p)!)) expect(ref.citation).toMatch(/^LASH /);
  });

  it('LASH-MLP: the outstanding-request bounds of LASH IV come out of the microkernels exactly', () => {
    const r = runRow(ROWS.find((x) => x.id === 'LASH-MLP')!, fermi480);
    expect(r.checks.map((c) => [c.name, c.simulated])).toEqual([
      ['misses over all sets', '256 requests'],
      ['misses in one set', '32 requests'],
      ['one line', '8 requests'],
    ]);
    expect(r.pass).toBe(true);
  });

  it('LASH-MLP bounds follow the configuration: half the mergers halves every bound', () => {
    const half = { ...fermi480, timing: { ...fermi480.timing!, l1: { ...fermi480.timing!.l1!, mshrMergers: 4 } } };
    const r = run('lash-mlp', half, { maxLoads: 12 });
    expect([value(r, 'mlp.spread'), value(r, 'mlp.oneSet'), value(r, 'mlp.oneLine')]).toEqual([128, 16, 4]);
    const fewEntries = { ...fermi480, timing: { ...fermi480.timing!, l1: { ...fermi480.timing!.l1!, mshrEntries: 2 } } };
    const e = run('lash-mlp', fewEntries, { maxLoads: 12 });
    // min(ways, MSHRs) = 2 now in one set too
    expect([value(e, 'mlp.spread'), value(e, 'mlp.oneSet'), value(e, 'mlp.mshrEntries')]).toEqual([16, 16, 2]);
  });

  it('LASH-CFG passes on fermi480 and names the differing fact on another preset', () => {
    const row = ROWS.find((x) => x.id === 'LASH-CFG')!;
    expect(runRow(row, fermi480).pass).toBe(true);
    const titan = runRow(row, findPreset('titan')!);
    expect(titan.pass).toBe(false);
    expect(titan.checks.find((c) => c.name === 'L2 ways')!.pass).toBe(false);
  });
});

describe('the stencil on the timing tier', () => {
  // LASH VI's 512K elements, 2 of its 4 launches: the two arrays overflow the 768 KB L2 for every
  // type, as in LASH's run (at 256K, char's two arrays fit in L2 and it is another regime).
  const r = run('lash-stencil', fermi480, { n: 524288, iterations: 2 });

  it('short is fastest; smaller types make fewer requests and see lower latency', () => {
    expect(value(r, 'stencil.fastestType')).toBe('short');
    expect(value(r, 'stencil.requestsCharVsInt') as number).toBeGreaterThan(0);
    expect(value(r, 'stencil.latencyCharVsInt') as number).toBeGreaterThan(0);
    expect(value(r, 'stencil.dramCharVsInt') as number).toBeGreaterThan(0);
  });

  it('judges the ordering (short faster than int and than char) and shows the margins beside it', () => {
    expect(value(r, 'stencil.shortBeatsInt')).toBe((value(r, 'stencil.shortVsInt') as number) > 0 ? 'yes' : 'no');
    expect(value(r, 'stencil.shortBeatsChar')).toBe((value(r, 'stencil.shortVsChar') as number) > 0 ? 'yes' : 'no');
    expect(value(r, 'stencil.shortBeatsInt')).toBe('yes');
  });

  it('states the DRAM utilisation drop in percentage points as well as relative to int', () => {
    const points = value(r, 'stencil.dramCharVsIntPoints') as number;
    const relative = value(r, 'stencil.dramCharVsInt') as number;
    expect(points).toBeGreaterThan(0);
    // int uses the bus less than 100 % of the time, so the drop in points is the smaller number,
    // and relative = points / int's utilisation.
    expect(points).toBeLessThan(relative);
    const intUtil = Number(/int ([\d.]+) %/.exec(String(r.findings.find((f) => f.key === 'stencil.dramCharVsIntPoints')?.evidence))?.[1]);
    expect(relative).toBeCloseTo((100 * points) / intUtil, 0);
  });

  it('nomerger stalls rise and coalescing stalls fall with smaller types (LASH Fig 6)', () => {
    expect(value(r, 'stencil.nomergerRises')).toBe('yes');
    expect(value(r, 'stencil.coalescingFalls')).toBe('yes');
    const stalls = r.series.filter((s) => s.stack === 'stalls');
    expect(stalls.slice(0, 4).map((s) => s.name)).toEqual(['nomerger', 'nomshrline', 'nocacheline', 'coalescing']);
    for (const s of stalls) {
      expect(s.style).toBe('bar');
      expect(s.xCategories).toEqual(['int', 'short', 'char']);
    }
  });

  it("shows GPGPU-Sim's miss-queue stalls beside LASH's four, in the chart and the table, only where they occur", () => {
    // fermi480 models the L1 miss queue (missQueue); int's many misses fill it, char's merges do not.
    const table = r.tables[0];
    const mq = r.series.find((s) => s.stack === 'stalls' && s.name.startsWith('missqueue'));
    expect(mq).toBeDefined();
    expect(table.columns.map((c) => c.key)).toContain('missqueue');
    expect(Array.from(mq!.y)).toEqual(table.rows.map((row) => row.missqueue));
    expect(mq!.y[0]).toBeGreaterThan(mq!.y[2]);
    // Without a miss queue (tesla has none) neither appears.
    const t = run('lash-stencil', tesla, { n: 65536, iterations: 1, l1: 'bypass' });
    expect(t.series.some((s) => s.name.startsWith('missqueue'))).toBe(false);
    expect(t.tables[0].columns.map((c) => c.key)).not.toContain('missqueue');
  });

  it('has MSHR-occupancy series over cycles that never exceed the MSHRs', () => {
    const occ = r.series.filter((s) => s.group === 'mshr');
    expect(occ).toHaveLength(3);
    for (const s of occ) {
      expect(s.xUnit).toBe('cycles');
      expect(Math.max(...Array.from(s.y))).toBeLessThanOrEqual(fermi480.timing!.l1!.mshrEntries);
    }
  });

  it('without an L1 (GTX 280) smaller types are always faster (LASH VIII)', () => {
    const t = run('lash-stencil', tesla, { n: 131072, iterations: 2, l1: 'bypass' });
    expect(value(t, 'stencil.order')).toBe('char < short < int');
    expect(value(t, 'stencil.nomergerRises')).toBe('no');
  });

  it('refuses a preset without timing data', () => {
    const bare = { ...fermi480, timing: undefined };
    expect(() => run('lash-stencil', bare, { n: 4096 })).toThrow(ExperimentError);
  });
});

describe('resource sensitivity and what-if sweeps', () => {
  it('more merger fields speed char up; fewer slow short down (LASH Fig 7)', () => {
    const r = run('lash-sensitivity', fermi480, { n: 262144, iterations: 1 });
    const rel = (type: string, machine: string) => {
      const s = r.series.find((x) => x.name === type && x.group === 'relative')!;
      return s.y[s.xCategories!.indexOf(machine)];
    };
    expect(rel('char', 'MSHRMergers+')).toBeLessThan(0.9);
    expect(rel('short', 'MSHRMergers-')).toBeGreaterThan(1.2);
    expect(rel('int', 'MSHRMergers+')).toBeGreaterThan(0.9);
    expect(value(r, 'sens.mergersMinus.shortSlowdown') as number).toBeGreaterThan(20);
    // LASH Fig 7 plots performance: the drop in 1 / time is 1 - 1 / (1 + the time increase).
    for (const n of ['short', 'char']) {
      const slower = (value(r, `sens.mergersMinus.${n}Slowdown`) as number) / 100;
      expect(value(r, `sens.mergersMinus.${n}SpeedDrop`) as number).toBeCloseTo(100 * (1 - 1 / (1 + slower)), 0);
    }
  });

  it('timing-sweep varies one parameter: more mergers, less char time', () => {
    const r = run('timing-sweep', fermi480, { workload: 'stencil', elemBytes: 1, size: 65536, path: 'l1.mshrMergers', values: '2,8,32' });
    const y = Array.from(r.series[0].y);
    expect(y[0]).toBeGreaterThan(y[1]);
    expect(y[1]).toBeGreaterThan(y[2]);
    expect(value(r, 'sweep.bestValue')).toBe(32);
    expect(() => run('timing-sweep', tesla, { path: 'l1.sets', values: '8' })).toThrow(/no "l1"/);
  });

  it("timing-sweep varies the GTX 480's slices under GPGPU-Sim's address map; a count the map cannot place is refused by value", () => {
    const r = run('timing-sweep', fermi480, { workload: 'stencil', elemBytes: 4, size: 16384, path: 'l2.partitions', values: '6,12,24' });
    const y = Array.from(r.series[0].y);
    expect(y).toHaveLength(3);
    expect(y.every((c) => c > 0)).toBe(true);
    expect(() => run('timing-sweep', fermi480, { workload: 'stencil', elemBytes: 4, size: 16384, path: 'l2.partitions', values: '12,18' })).toThrow(
      /l2.partitions = 18: .*power of two/,
    );
  });

  it("the tiled matrix multiply (the Programming Guide's kernel): each thread loads 2 n / 16 elements and runs n multiply-adds from shared memory", () => {
    const n = 64;
    const one = { ...fermi480.timing!, sms: 1 };
    const tiled = simulate(one, matmulKernels({ n, block: 256, type: 'int' }), { l1: 'hw' });
    const warps = (n * n) / 32;
    const steps = n / 16;
    // per warp: 6 index + per step (2 + 2 loads + 2 shared stores + sync + 16 x (2 shared loads + 1) + sync) + the store of C
    expect(tiled.warpInstructions).toBe(warps * (6 + steps * (2 + 2 + 2 + 1 + 16 * 3 + 1) + 1));
    // shared memory: per step and warp 2 stores and 32 loads
    expect(tiled.sharedAccesses).toBe(warps * steps * (2 + 32));
    // a warp's tile rows are two rows of A (and of B): two L1 accesses per load
    expect(tiled.requests.l1).toBe(warps * steps * 4);
    const naive = simulate(one, matmulKernels({ n, block: 256, type: 'int', kernel: 'naive' }), { l1: 'hw' });
    expect(naive.sharedAccesses).toBe(0);
    expect(() => matmulKernels({ n: 40, block: 256, type: 'int' })).toThrow(/multiple of 16/);
    expect(() => run('lash-apps', fermi480, { stencilN: 4096, matmulN: 40, stereoWidth: 32 })).toThrow(/matmulN.*multiple of 16/);
  });

  it('lash-apps reports a fastest type per application', () => {
    const r = run('lash-apps', fermi480, { stencilN: 8192, matmulN: 32, stereoWidth: 32 });
    for (const app of ['stencil', 'matmul', 'stereo']) expect(['int', 'short', 'char']).toContain(value(r, `apps.${app}.fastestType`));
    expect(r.series.every((s) => s.style === 'bar' && s.xCategories!.length === 3)).toBe(true);
  });
});
