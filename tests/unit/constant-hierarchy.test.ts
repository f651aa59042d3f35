import { describe, expect, it } from 'vitest';
import { constantHierarchy, pairedChase } from '../../src-sim/experiments/constant-hierarchy';
import { Measurement, openSpace } from '../../src-sim/experiments/pchase';
import { ExperimentError } from '../../src-sim/experiments/types';
import { Chip } from '../../src-sim/model/path';
import { findPreset } from '../../src-sim/presets';
import type { Preset } from '../../src-sim/presets/types';

const tesla = findPreset('tesla') as Preset;
const noop = () => {};
const find = (r: ReturnType<typeof constantHierarchy.run>, key: string) => r.findings.find((f) => f.key === key)?.value;

describe('constant-hierarchy: latency probe (WONG Figs 17, 18)', () => {
  it('reads three levels off the 256-byte curve, raw and as measured', () => {
    const base = { strides: [256], sizeFrom: 256, sizeTo: 40960, sizeStep: 256 };
    const raw = constantHierarchy.run(tesla, base, 3, noop);
    expect([1, 2, 3].map((k) => find(raw, `s256.level${k}.sizeBytes`))).toEqual([2048, 8192, 32768]);
    expect([1, 2, 3].map((k) => find(raw, `s256.level${k}.ways`))).toEqual([4, 4, 8]);
    expect([1, 2, 3, 4].map((k) => find(raw, `s256.plateau${k}.latency`))).toEqual([8, 81, 220, 476]);
    const measured = constantHierarchy.run(tesla, { ...base, latencyView: 'measured' }, 3, noop);
    expect([1, 2, 3, 4].map((k) => find(measured, `s256.plateau${k}.latency`))).toEqual([56, 129, 268, 524]);
  });

  it('steps each curve by whole strides', () => {
    const r = constantHierarchy.run(tesla, { strides: [256, 64], sizeFrom: 1000, sizeTo: 4096, sizeStep: 128 }, 1, noop);
    const [s256, s64] = r.series;
    expect(Array.from(s256.x).every((n) => n % 256 === 0)).toBe(true);
    expect(s256.x[1] - s256.x[0]).toBe(256);
    expect(s64.x[1] - s64.x[0]).toBe(128);
  });

  it('is deterministic for a seed, and jitter is seeded', () => {
    const p = { strides: [256], sizeFrom: 256, sizeTo: 4096, sizeStep: 256, jitter: 10 };
    const a = constantHierarchy.run(tesla, p, 5, noop);
    const b = constantHierarchy.run(tesla, p, 5, noop);
    const c = constantHierarchy.run(tesla, p, 6, noop);
    expect(Array.from(a.series[0].y)).toEqual(Array.from(b.series[0].y));
    expect(Array.from(a.series[0].y)).not.toEqual(Array.from(c.series[0].y));
  });

  it('refuses bad parameters and presets without constant memory', () => {
    expect(() => constantHierarchy.run(findPreset('fermi') as Preset, {}, 1, noop)).toThrow(/constant/);
    expect(() => constantHierarchy.run(tesla, { strides: [6] }, 1, noop)).toThrow(ExperimentError);
    expect(() => constantHierarchy.run(tesla, { sizeFrom: 4096, sizeTo: 4096 }, 1, noop)).toThrow(/sizeTo/);
    expect(() => constantHierarchy.run(tesla, { probe: 'bogus' }, 1, noop)).toThrow(/probe/);
    expect(() => constantHierarchy.run(tesla, { sizeTo: 1024, sizeFrom: 2048 }, 1, noop)).toThrow(/sizeTo/);
  });
});

describe('constant-hierarchy: sharing probes (WONG Figs 20, 21)', () => {
  const sweep = { sizeFrom: 512, sizeTo: 37888, sizeStep: 512 };

  it('halves L1 on one SM, L2 on one TPC, L3 everywhere', () => {
    const r = constantHierarchy.run(tesla, { probe: 'sharing', ...sweep }, 2, noop);
    const v = (pl: string) => [1, 2, 3].map((k) => find(r, `sharing.${pl}.level${k}.verdict`));
    expect(v('sameSM')).toEqual(['shared', 'shared', 'shared']);
    expect(v('sameTPC')).toEqual(['private', 'shared', 'shared']);
    expect(v('otherTPC')).toEqual(['private', 'private', 'shared']);
    expect(r.tables[0].rows).toHaveLength(4);
  });

  it('follows the preset: a chip-wide L2 is shared from another TPC, a separate instruction L2 is not', () => {
    const p = structuredClone(tesla);
    const con = p.spaces.constant;
    const ins = p.spaces.instruction;
    if (!con || !ins) throw new Error('missing spaces');
    con.levels[1] = { ...con.levels[1], scope: 'chip' };
    ins.levels[1] = { ...ins.levels[1], name: 'I-L2' };
    ins.latency = { 'I-L1/-': 8, 'I-L2/-': 81, 'CI-L3/-': 220, 'memory/-': 476 };
    const s = constantHierarchy.run(p, { probe: 'sharing', ...sweep }, 2, noop);
    expect(find(s, 'sharing.otherTPC.level2.verdict')).toBe('shared');
    const i = constantHierarchy.run(p, { probe: 'instruction', ...sweep }, 2, noop);
    expect(find(i, 'instruction.sameSM.level2.verdict')).toBe('private');
    expect(find(i, 'instruction.sameSM.level3.verdict')).toBe('shared');
  });

  it('pairedChase without a partner is the plain chase', () => {
    const chip = new Chip(1, 3);
    const a = openSpace(tesla, 'constant', 1, -1, chip, 0);
    expect(pairedChase(a, null, new Measurement(0, 0, 1), 1024, 256, 256, 0)).toBe(8);
  });
});
