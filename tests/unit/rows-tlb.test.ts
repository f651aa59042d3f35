import { describe, expect, it } from 'vitest';
import { findExperiment } from '../../src-sim/experiments';
import { findPreset } from '../../src-sim/presets';
import type { Preset } from '../../src-sim/presets/types';
import { runRow } from '../../src-sim/reference/check';
import { measureTlbStructure, ROWS } from '../../src-sim/reference/rows-tlb';

const KB = 1024;
const MB = 1024 * KB;
const preset = (id: string): Preset => findPreset(id) as Preset;

describe('TLB rows', () => {
  it('has the TLB rows, each reference cited to its paper', () => {
    expect(ROWS.map((r) => r.id)).toEqual(['MEI-F10/F11', 'MEI-PAGE', 'MEI-K512', 'WONG-F13..F15', 'WONG-F16']);
    for (const r of ROWS)
      for (const id of r.presets) {
        const refs = r.references(preset(id));
        expect(refs.length).toBeGreaterThan(0);
        for (const ref of refs) expect(ref.citation.startsWith(r.paper + ' ')).toBe(true);
      }
  });

  for (const seed of [1, 5]) {
    it(`every row passes on its presets (seed ${seed}), from the registered experiment,`, () => {
      for (const r of ROWS)
        for (const id of r.presets) {
          const res = runRow(r, preset(id), seed);
          expect(res.checks.filter((c) => !c.pass), `${r.id} on ${id}: ${res.simulated}`).toEqual([]);
          expect(res.pass).toBe(true);
          for (const run of res.runs) expect(findExperiment(run.experiment)).toBeDefined();
        }
    });
  }

  it('the Fermi rows see the unequal L2 TLB sets of MEI Fig 10', () => {
    const res = runRow(ROWS[0], preset('fermi'), 1);
    expect(res.checks.find((c) => c.name === 'L2 TLB set sizes')?.simulated).toBe('17,8,8,8,8,8,8');
  });
});

describe('measureTlbStructure (MEI Table 4, TLB columns)', () => {
  it('Fermi and Kepler: L1 32 MB / 16 entries / 1 set, L2 130 MB / 7 sets, 2 MB pages, LRU', () => {
    for (const id of ['fermi', 'kepler']) {
      expect(measureTlbStructure(preset(id), 1)).toEqual({
        'L1 TLB reach': 32 * MB,
        'L1 TLB entries': 16,
        'L1 TLB sets': 1,
        'L1 TLB policy': 'LRU',
        'L2 TLB reach': 130 * MB,
        'L2 TLB sets': 7,
        'page size': 2 * MB,
        'L2 TLB policy': 'LRU',
      });
    }
  });

  it('Tesla: L1 8 MB / 16 entries, L2 32 MB (sets not counted at this stride), 4 KB pages', () => {
    const m = measureTlbStructure(preset('tesla'), 3);
    expect(m['L1 TLB reach']).toBe(8 * MB);
    expect(m['L1 TLB entries']).toBe(16);
    expect(m['L2 TLB reach']).toBe(32 * MB);
    // At 512 KB the chase reaches 8 of the 1024 L2 sets: the reach probe does not count sets it cannot see.
    expect(m['L2 TLB sets']).toBeUndefined();
    expect(m['page size']).toBe(4 * KB);
  });
});
