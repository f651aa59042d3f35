import { describe, expect, it } from 'vitest';
import { findExperiment } from '../../src-sim/experiments';
import type { ExperimentResult } from '../../src-sim/experiments/types';
import { ExperimentError } from '../../src-sim/experiments/types';
import { findPreset } from '../../src-sim/presets';
import type { Preset } from '../../src-sim/presets/types';
import { validatePreset } from '../../src-sim/presets/validate';
import { ROWS } from '../../src-sim/reference/rows-core-wong';
import { REPRODUCTION_ROWS } from '../../src-sim/reference';
import { runRow } from '../../src-sim/reference/check';

const tesla = findPreset('tesla') as Preset;
const noop = () => {};
const run = (id: string, params: Record<string, unknown> = {}, preset = tesla, seed = 1): ExperimentResult => findExperiment(id)!.run(preset, params, seed, noop);
const val = (r: ExperimentResult, key: string) => r.findings.find((f) => f.key === key)?.value;
const IDS = ['wong-arith', 'wong-warps', 'wong-regfile', 'wong-icache', 'wong-const-bw'];

describe('core experiments (WONG Tables II-IV, Figs 6, 9, 19, 22-24)', () => {
  it('the Tesla preset with its core block validates; a broken core block does not', () => {
    expect(validatePreset(tesla).ok).toBe(true);
    const broken = { ...tesla, core: { ...tesla.core!, regfile: { ...tesla.core!.regfile, banks: 0 } } };
    const v = validatePreset(broken);
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.issues.some((i) => i.path.startsWith('core.regfile.banks'))).toBe(true);
    const unsourced = { ...tesla, provenance: Object.fromEntries(Object.entries(tesla.provenance).filter(([k]) => !k.startsWith('core.regfile'))) };
    expect(validatePreset(unsourced).ok).toBe(false);
  });

  it('presets without a core model say so', () => {
    for (const id of IDS) expect(() => run(id, {}, findPreset('fermi') as Preset), id).toThrow(/no core model/);
    expect(() => run(IDS[0], {}, findPreset('fermi') as Preset)).toThrow(ExperimentError);
  });

  it('refuses bad parameters', () => {
    expect(() => run('wong-warps', { warpsFrom: 5, warpsTo: 4 })).toThrow(/warpsTo/);
    expect(() => run('wong-warps', { op: 'bogus' })).toThrow(/op/);
    expect(() => run('wong-regfile', { regsFrom: 10, regsTo: 12 })).toThrow(/regsTo/);
    expect(() => run('wong-icache', { probe: 'l1', zoomStep: 100 })).toThrow(/zoomStep/);
    expect(() => run('wong-const-bw', { blocksTo: 2 })).toThrow(/blocksTo/);
  });

  it('wong-arith measures each operation\'s latency and throughput and infers the units', () => {
    const r = run('wong-arith', { table: 'II' });
    expect(val(r, 'sp.latency')).toBe(24);
    expect(Number(val(r, 'sp.throughput'))).toBeGreaterThan(7.7);
    expect(val(r, 'dpu.issueRate')).toBe(32);
    expect(val(r, 'float.mul.dualIssue')).toBe('yes');
    expect(val(r, 'int.mul.latency')).toBeUndefined(); // table II runs the unit probes only
    const iii = run('wong-arith', { table: 'III', chain: 64 });
    expect(val(iii, 'int.mul.instructions')).toBe(4);
    expect(val(iii, 'double.div.latency')).toBe(1366);
    expect(iii.tables[0].rows).toHaveLength(16);
  });

  it('wong-arith follows the preset: a slower DPU reads slower', () => {
    const core = tesla.core!;
    const slow: Preset = { ...tesla, core: { ...core, ops: core.ops.map((o) => (o.unit === 'dpu' ? { ...o, latency: 96, throughput: 0.5 } : o)) } };
    const r = run('wong-arith', { table: 'II' }, slow);
    expect(val(r, 'dpu.latency')).toBe(96);
    expect(val(r, 'dpu.issueRate')).toBe(64);
  });

  it('wong-warps: Fig 6', () => {
    const r = run('wong-warps');
    expect(val(r, 'warps.flatUpTo')).toBe(5);
    expect(val(r, 'warps.unfilled')).toBe('6, 7');
    expect(val(r, 'warps.fullFrom')).toBe(8);
    expect(r.series.map((s) => s.name)).toEqual(['throughput', 'latency']);
  });

  it('wong-regfile: Fig 9, with the failed launches listed', () => {
    const r = run('wong-regfile');
    expect(val(r, 'regfile.at88.threads')).toBe(128);
    expect(val(r, 'regfile.threadQuantum')).toBe(64);
    expect(r.tables[0].rows.map((x) => x.regs)).toEqual([129, 130, 131, 132, 133, 134, 135, 136]);
  });

  it('wong-icache: the L1 hides behind the prefetch alone and shows under L2 contention, at the same size', () => {
    const alone = run('wong-icache', { probe: 'latency' });
    expect(val(alone, 'fig22.level1.sizeBytes')).toBe(8192);
    const quiet = run('wong-icache', { probe: 'l1', floodWarps: 0, placements: false });
    expect(val(quiet, 'fig23.levels')).toBe(0);
    const flooded = run('wong-icache', { probe: 'l1', placements: false });
    expect(val(flooded, 'fig23.level1.sizeBytes')).toBe(4096);
    expect(val(flooded, 'fig23.level1.lineBytes')).toBe(256);
  });

  it('wong-icache: without prefetching the L1 shows even alone', () => {
    const noPf: Preset = { ...tesla, core: { ...tesla.core!, icache: { ...tesla.core!.icache, prefetchLines: 0 } } };
    const r = run('wong-icache', { probe: 'latency', sizeFrom: 2048, sizeTo: 12288 }, noPf);
    expect(val(r, 'fig22.level1.sizeBytes')).toBe(4096);
  });

  it('wong-icache fetch: delays on 64-byte boundaries of the evicted line, wherever the code starts', () => {
    const r = run('wong-icache', { probe: 'fetch', executions: 300 });
    expect(val(r, 'fetch.blockBytes')).toBe(64);
    expect(val(r, 'fetch.evictedFrom')).toBe(160);
    const aligned = run('wong-icache', { probe: 'fetch', executions: 300, codeOffset: 0 });
    expect(val(aligned, 'fetch.evictedFrom')).toBe(256);
    expect(val(aligned, 'fetch.evictedTo')).toBe(512);
    const none = run('wong-icache', { probe: 'fetch', executions: 50, evictions: 0 });
    expect(val(none, 'fetch.missOffsets')).toBe('none');
  });

  it('wong-icache fetch is deterministic for a seed', () => {
    const a = run('wong-icache', { probe: 'fetch', executions: 100 }, tesla, 4);
    const b = run('wong-icache', { probe: 'fetch', executions: 100 }, tesla, 4);
    expect(Array.from(a.series[0].y)).toEqual(Array.from(b.series[0].y));
  });

  it('wong-const-bw: Fig 19', () => {
    const r = run('wong-const-bw');
    expect(val(r, 'constL3.perSM')).toBe(1.2);
    expect(val(r, 'constL3.aggregate')).toBe(9.75);
    expect(val(r, 'constL3.dropAbove30')).toBe('yes');
  });
});

describe('WONG core rows', () => {
  it('are registered, on Tesla, citing WONG for every reference, each beside a finding', () => {
    expect(ROWS.map((r) => r.id)).toEqual(['WONG-T2..T4', 'WONG-F6', 'WONG-F9', 'WONG-F19', 'WONG-F22..F24']);
    for (const r of ROWS) {
      expect(REPRODUCTION_ROWS).toContain(r);
      expect(r.presets).toEqual(['tesla']);
      for (const ref of r.references(tesla)) {
        expect(ref.citation).toMatch(/^WONG /);
        expect(ref.finding?.experiment).toBe(r.references(tesla)[0].finding?.experiment);
      }
    }
  });

  for (const seed of [1, 7])
    it(`every row passes (seed ${seed})`, () => {
      for (const r of ROWS) {
        const res = runRow(r, tesla, seed);
        expect(res.checks.filter((c) => !c.pass), `${r.id}: ${res.simulated}`).toEqual([]);
      }
    });

  it('a row fails when the model disagrees with the paper', () => {
    const off: Preset = { ...tesla, core: { ...tesla.core!, scheduler: { ...tesla.core!.scheduler, busyWritebackDelay: 0 } } };
    const res = runRow(ROWS[1], off, 1);
    expect(res.pass).toBe(false);
    expect(res.checks.find((c) => c.name === 'warps that do not fill the pipeline')?.pass).toBe(false);
  });
});
