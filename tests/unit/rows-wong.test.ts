import { describe, expect, it } from 'vitest';
import { findExperiment } from '../../src-sim/experiments';
import { findPreset } from '../../src-sim/presets';
import type { Preset } from '../../src-sim/presets/types';
import { validatePreset } from '../../src-sim/presets/validate';
import { runRow } from '../../src-sim/reference/check';
import { ROWS } from '../../src-sim/reference/rows-wong';

const tesla = findPreset('tesla') as Preset;
const row = (id: string) => {
  const r = ROWS.find((x) => x.id === id);
  if (!r) throw new Error(`no row ${id}`);
  return r;
};
const check = (res: ReturnType<typeof runRow>, name: string) => res.checks.find((c) => c.name === name);

describe('WONG memory rows on the Tesla preset', () => {
  it('has the WONG memory rows, each citing WONG for every reference', () => {
    expect(ROWS.map((r) => r.id)).toEqual(['WONG-CLK', 'WONG-SHM', 'WONG-GLB', 'WONG-F10..F12', 'WONG-F17/F18', 'WONG-F20/F21']);
    for (const r of ROWS) {
      expect(r.paper).toBe('WONG');
      expect(r.presets).toEqual(['tesla']);
      for (const ref of r.references(tesla)) expect(ref.citation).toMatch(/^WONG /);
    }
  });

  it('the Tesla preset with its clock fields still validates', () => {
    expect(validatePreset(tesla).ok).toBe(true);
  });

  for (const seed of [1, 7]) {
    it(`every row passes (seed ${seed}), from registered experiments`, () => {
      for (const r of ROWS) {
        const res = runRow(r, tesla, seed);
        expect(res.checks.filter((c) => !c.pass), `${r.id}: ${res.simulated}`).toEqual([]);
        expect(res.pass).toBe(true);
        for (const run of res.runs) expect(findExperiment(run.experiment), run.experiment).toBeDefined();
      }
    });
  }

  it('reports the measured values the paper gives', () => {
    const f10 = runRow(row('WONG-F10..F12'), tesla, 1);
    expect(check(f10, 'L1 size')?.simulated).toBe('5 KB');
    expect(check(f10, 'L2 line')?.simulated).toBe('256 B');
    const glb = runRow(row('WONG-GLB'), tesla, 1);
    expect(check(glb, 'latency (mean placement)')?.simulated).toBe('440 cycles');
    const f17 = runRow(row('WONG-F17/F18'), tesla, 1);
    expect(['L1 latency (raw)', 'L2 latency (raw)', 'L3 latency (raw)', 'memory latency (raw)'].map((n) => check(f17, n)?.simulated)).toEqual([
      '8 cycles',
      '81 cycles',
      '220 cycles',
      '476 cycles',
    ]);
  });
});

describe('WONG rows follow the model, not the paper', () => {
  it('a 5 KB texture L1 of 16 sets x 10 ways fails only the associativity check', () => {
    const p = structuredClone(tesla);
    const tex = p.spaces.texture;
    if (!tex) throw new Error('no texture');
    tex.levels[0] = { ...tex.levels[0], geometry: { ...tex.levels[0].geometry, sets: 16, ways: 10 } };
    const res = runRow(row('WONG-F10..F12'), p, 1);
    expect(res.pass).toBe(false);
    expect(check(res, 'L1 ways')?.simulated).toBe('10');
    expect(res.checks.filter((c) => !c.pass).map((c) => c.name)).toEqual(['L1 ways']);
  });

  it('a per-SM constant L2 turns the same-TPC L2 verdicts to private', () => {
    const p = structuredClone(tesla);
    for (const space of [p.spaces.constant, p.spaces.instruction]) {
      if (!space) throw new Error('missing space');
      space.levels[1] = { ...space.levels[1], scope: 'sm' };
    }
    const res = runRow(row('WONG-F20/F21'), p, 1);
    expect(check(res, 'L2 beside a constant block on the same TPC')?.simulated).toBe('private');
    expect(check(res, 'L2 beside a constant block on the same SM')?.simulated).toBe('shared');
    expect(check(res, 'L2 observed beside a block on the same TPC')?.simulated).toBe('8 KB');
    expect(res.pass).toBe(false);
  });

  it('per-SM clock registers fail the clock row', () => {
    const p = structuredClone(tesla);
    p.measurement.clockScope = 'sm';
    const res = runRow(row('WONG-CLK'), p, 1);
    expect(check(res, 'clock register scope')?.simulated).toBe('SM');
    expect(res.pass).toBe(false);
  });

  it('a slower shared memory moves the shared-memory latency', () => {
    const p = structuredClone(tesla);
    p.shared.latency.base = 50;
    const res = runRow(row('WONG-SHM'), p, 1);
    expect(check(res, 'latency')?.simulated).toBe('50 cycles');
    expect(check(res, 'cache levels')?.pass).toBe(true);
  });
});
