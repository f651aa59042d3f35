/**
 * The perturbation that proves a check's kind (src-sim/reference/perturb.ts): which numbers it
 * scales, how it keeps a preset valid, what "follows one number" means, and that a row whose check
 * reads one preset number back is caught however it declares itself.
 */
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src-sim/presets';
import type { Preset } from '../../src-sim/presets/types';
import { validatePreset } from '../../src-sim/presets/validate';
import { PREDICTED } from '../../src-sim/reference/kinds';
import { follows, numbersRead, perturb, perturbRow, presetKnobs } from '../../src-sim/reference/perturb';
import type { ReproductionRow } from '../../src-sim/reference/types';

const fermi = (): Preset => findPreset('fermi')!;

describe('the numbers a perturbation scales', () => {
  it('lists numeric leaves with their provenance, less cache sizes (sets x ways x line) and numbers tied to another', () => {
    const knobs = presetKnobs(fermi());
    const paths = knobs.map((k) => k.path);
    expect(paths).toContain('spaces.global.levels.0.geometry.sets');
    expect(paths).toContain('shared.banks');
    expect(paths).not.toContain('spaces.global.levels.0.sizeBytes');
    expect(paths).not.toContain('timing.sms');
    expect(paths.some((p) => p.startsWith('provenance'))).toBe(false);
    expect(knobs.every((k) => k.value !== 0)).toBe(true);
    // A number without an entry of its own takes the entry of the object above it.
    expect(fermi().provenance['spaces.global.levels.0.geometry.sets']).toBeUndefined();
    expect(knobs.find((k) => k.path === 'spaces.global.levels.0.geometry.sets')!.provenance).toBe(fermi().provenance['spaces.global.levels.0']);
  });

  it('scales a count to the nearest valid value and keeps the preset valid (the size follows the geometry)', () => {
    const p = fermi();
    const sets = presetKnobs(p).find((k) => k.path === 'spaces.global.levels.0.geometry.sets')!;
    const up = perturb(p, sets, 1.25)!;
    // 32 sets is a power of two: the nearest such count up is 64.
    expect(up.value).toBe(64);
    expect(up.preset.spaces.global.levels[0].geometry.sets).toBe(64);
    expect(up.preset.spaces.global.levels[0].sizeBytes).toBe(64 * 4 * 128);
    // The on-chip memory grows to hold the larger L1 beside the unchanged shared memory.
    expect(up.preset.shared.sizeBytes).toBe(p.shared.sizeBytes);
    expect(up.preset.shared.onChipBytes).toBeGreaterThanOrEqual(up.preset.shared.sizeBytes + 64 * 4 * 128);
    // A power of two halves at 0.8; a count that is none scales to the nearest integer (15 SMs x 1.25: 19).
    const ways = presetKnobs(p).find((k) => k.path === 'spaces.global.levels.0.geometry.ways')!;
    expect(perturb(p, ways, 0.8)!.value).toBe(2);
    const smsT = presetKnobs(findPreset('fermi480')!).find((k) => k.path === 'chip.sms')!;
    expect(perturb(findPreset('fermi480')!, smsT, 1.25)!.value).toBe(19);
    expect(validatePreset(up.preset).ok).toBe(true);
    // The original is untouched.
    expect(p.spaces.global.levels[0].geometry.sets).toBe(32);
    // A line size stays a power of two.
    const line = presetKnobs(p).find((k) => k.path === 'spaces.global.levels.0.geometry.lineBytes')!;
    expect(perturb(p, line, 1.25)!.value).toBe(256);
    expect(perturb(p, line, 0.8)!.value).toBe(64);
    // chip.sms carries timing.sms with it, which the validator ties to it.
    const sms = presetKnobs(findPreset('fermi480')!).find((k) => k.path === 'chip.sms')!;
    const more = perturb(findPreset('fermi480')!, sms, 1.25)!;
    expect(more.preset.chip.sms).toBe(more.preset.timing!.sms);
  });

  it('records the numbers a function reads', () => {
    const { result, paths } = numbersRead(fermi(), (p) => p.shared.banks * p.spaces.global.levels[0].geometry.ways);
    expect(result).toBe(32 * 4);
    expect([...paths].sort()).toEqual(['shared.banks', 'spaces.global.levels.0.geometry.ways']);
  });
});

describe('what follows one number', () => {
  it('a value that becomes the perturbed number, or moves by its ratio', () => {
    expect(follows(16384, 20480, 16384, 20480, 0.05)).toBe(true); // becomes it
    expect(follows(116, 145, 58, 72.5, 0.05)).toBe(true); // moves by its ratio
    expect(follows(116, 118, 58, 72.5, 0.05)).toBe(false); // barely moves
    expect(follows(116, 116, 58, 72.5, 0.05)).toBe(false);
    expect(follows(0.6, 0.55, 100, 125, 0.05)).toBe(false); // moves the other way
    expect(follows('yes', 'yes', 32, 40, 0.05)).toBe(false);
  });

  it('a word that spells the number out', () => {
    expect(follows('gcd(stride, 32)', 'gcd(stride, 40)', 32, 40, 0)).toBe(true);
    expect(follows('gcd(stride, 32)', 'gcd(stride, 32)', 32, 40, 0)).toBe(false);
    expect(follows('gcd(stride, 320)', 'gcd(stride, 400)', 32, 40, 0)).toBe(false);
  });
});

describe('a check that one number determines is caught', () => {
  const row = (measure: (p: Preset) => Record<string, number | string>): ReproductionRow => ({
    id: 'TEST-ROW',
    paper: 'MEI',
    title: 'a stand-in row',
    presets: ['fermi'],
    kind: PREDICTED,
    references: () => [
      { name: 'the value', value: 1, unit: '', tolerance: 'exact', citation: 'MEI Table 1' },
    ],
    measure: (p) => ({ measured: measure(p), runs: [] }),
  });

  it('flags a "predicted" check that reads a preset number back, naming the number', () => {
    const [c] = perturbRow(row((p) => ({ 'the value': p.shared.banks })), fermi());
    expect(c.declared).toBe('predicted');
    expect(c.determinedBy).toEqual(['shared.banks']);
    expect(c.derived).not.toBe('predicted');
  });

  it('flags a value that scales with one number, and a word that only one number changes', () => {
    const [scaled] = perturbRow(row((p) => ({ 'the value': p.spaces.global.latency['L1/l1'] * 3 + 0 * p.shared.banks })), fermi());
    expect(scaled.determinedBy).toEqual(['spaces.global.latency.L1/l1']);
    const [word] = perturbRow(row((p) => ({ 'the value': p.shared.banks === 32 ? 'a power of two' : 'not a power of two', other: p.chip.sms })), fermi());
    expect(word.determinedBy).toEqual(['shared.banks']);
  });

  it('leaves predicted an ordering that several numbers decide together', () => {
    const [c] = perturbRow(
      row((p) => {
        const l = p.spaces.global.latency;
        return { 'the value': l['L2/l1'] - l['L1/l1'] > l['memory/l1'] - l['L2/l1'] ? 'yes' : 'no' };
      }),
      fermi(),
    );
    expect(c.determinedBy).toEqual([]);
    expect(c.derived).toBe('predicted');
    expect(c.tried).toBeGreaterThanOrEqual(3);
  });
});
