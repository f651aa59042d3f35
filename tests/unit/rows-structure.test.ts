import { describe, expect, it } from 'vitest';
import { findExperiment } from '../../src-sim/experiments';
import { findPreset } from '../../src-sim/presets';
import { withL1Config } from '../../src-sim/presets/l1-config';
import type { Preset } from '../../src-sim/presets/types';
import { formatIssues, validatePreset } from '../../src-sim/presets/validate';
import { runRow } from '../../src-sim/reference/check';
import { ROWS } from '../../src-sim/reference/rows-structure';

const preset = (id: string): Preset => findPreset(id) as Preset;
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

describe('cache-structure rows', () => {
  it('has the cache-structure rows, each reference cited to MEI', () => {
    expect(ROWS.map((r) => r.id)).toEqual(['MEI-T4', 'MEI-F8', 'MEI-F9', 'MEI-L1-48', 'MEI-F12', 'MEI-METHOD']);
    for (const r of ROWS)
      for (const id of r.presets) {
        const refs = r.references(preset(id));
        expect(refs.length).toBeGreaterThan(0);
        for (const ref of refs) expect(ref.citation.startsWith('MEI ')).toBe(true);
      }
  });

  for (const seed of [1, 7]) {
    it(`every row passes on its presets (seed ${seed}), from the registered experiments,`, () => {
      for (const r of ROWS)
        for (const id of r.presets) {
          const res = runRow(r, preset(id), seed);
          expect(res.checks.filter((c) => !c.pass), `${r.id} on ${id}: ${res.simulated}`).toEqual([]);
          expect(res.pass).toBe(true);
          for (const run of res.runs) expect(findExperiment(run.experiment)).toBeDefined();
        }
    });
  }

  it('MEI-F9 compares with an LRU copy of the same L1 and the copy misses every access', () => {
    const res = runRow(ROWS[2], preset('fermi'), 1);
    const lru = res.checks.find((c) => c.name.startsWith('max miss rate, LRU'));
    const fermi = res.checks.find((c) => c.name === 'max miss rate, Fermi L1');
    expect(lru?.simulated).toBe('1');
    expect(Number(fermi?.simulated)).toBeLessThan(0.7);
    expect(res.runs).toHaveLength(2);
  });

  it('a row fails when the simulated cache differs from the paper (an LRU Fermi L1 is periodic)', () => {
    const p = clone(preset('fermi'));
    p.spaces.global.levels[0].geometry.policy = { kind: 'lru' };
    const res = runRow(ROWS[1], p, 1);
    expect(res.pass).toBe(false);
    expect(res.checks.find((c) => c.name === 'policy')?.simulated).toBe('LRU');
  });
});

describe('the 48 KB Fermi L1 configuration (MEI 4.1)', () => {
  it('is part of the Fermi preset, validated, with 6 ways of 64 sets', () => {
    const fermi = preset('fermi');
    const cfg = fermi.l1Configs?.find((c) => c.id === '48KB');
    expect(cfg?.sizeBytes).toBe(48 * 1024);
    expect(cfg?.geometry.ways).toBe(6);
    const v = validatePreset(fermi);
    if (!v.ok) throw new Error(formatIssues(v.issues));
  });

  it('replaces only the SM-scoped L1 of the global paths', () => {
    const fermi = preset('fermi');
    const p = withL1Config(fermi, '48KB');
    expect(p.spaces.global.levels[0].sizeBytes).toBe(48 * 1024);
    expect(p.spaces.global.levels[1]).toBe(fermi.spaces.global.levels[1]);
    expect(p.spaces['global-cg']).toBe(fermi.spaces['global-cg']);
    expect(p.spaces.texture).toBe(fermi.spaces.texture);
    expect(withL1Config(fermi, 'default')).toBe(fermi);
    expect(() => withL1Config(fermi, '32KB')).toThrow(/has: default, 48KB/);
  });

  it('the validator names a configuration whose size disagrees with its geometry', () => {
    const p = clone(preset('fermi'));
    p.l1Configs![0].sizeBytes = 32 * 1024;
    const v = validatePreset(p);
    expect(v.ok).toBe(false);
    if (!v.ok) expect(formatIssues(v.issues)).toMatch(/l1Configs\.0\.sizeBytes: L1 48KB: size 32768 B does not equal 64 sets x 6 ways x 128 B/);
  });
});
