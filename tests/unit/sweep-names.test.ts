/**
 * Names a sweep derives: the name of a preset with the point's fields set (held to the preset
 * validator's bound), the sweep's default name and its runs' titles (held to the contract's).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src-main/contract';
import { clip, planName, SweepService, variantName } from '../../src-main/services/sweep';
import type { RunJob } from '../../src-main/services/pool';
import { parsePlan, SWEEP_LIMITS } from '../../src-main/sweep-plan';
import { EXPERIMENTS } from '../../src-sim/experiments';
import { findPreset } from '../../src-sim/presets';
import { PRESET_NAME_CHARS, validatePreset } from '../../src-sim/presets/validate';
import { TempDb } from './store-fixtures';

const FINE = { experiment: 'pchase-fine', params: { size: '4KB', iterations: 32 } };

describe('the preset of a point with fields set', () => {
  let tmp: TempDb;
  beforeEach(() => (tmp = new TempDb()));
  afterEach(() => tmp.cleanup());

  it('has a name the preset validator takes, however long the fields and the base name', () => {
    const fermi = findPreset('fermi480')!;
    // The bound is the validator's: a name one longer is refused.
    expect(validatePreset({ ...fermi, name: 'x'.repeat(PRESET_NAME_CHARS) }).ok).toBe(true);
    expect(validatePreset({ ...fermi, name: 'x'.repeat(PRESET_NAME_CHARS + 1) }).ok).toBe(false);

    const store = tmp.open();
    const sweeps = new SweepService({ store, experiments: EXPERIMENTS });
    const plan = parsePlan({
      ...FINE,
      presets: ['fermi480'],
      axes: [
        { field: 'timing.l1.mshrEntries', values: [16, 32] },
        { field: 'timing.l1.mshrMergers', values: [4, 8] },
      ],
    });
    const points = sweeps.resolve(plan);
    expect(points).toHaveLength(4);
    expect(points.map((p) => p.preset.name)).toEqual([
      'Fermi (GTX 480) [mshrEntries=16, mshrMergers=4]',
      'Fermi (GTX 480) [mshrEntries=16, mshrMergers=8]',
      'Fermi (GTX 480) [mshrEntries=32, mshrMergers=4]',
      'Fermi (GTX 480) [mshrEntries=32, mshrMergers=8]',
    ]);
    expect(points[3]!.preset.timing!.l1!.mshrMergers).toBe(8);
    expect(points[3]!.preset.id).toBe('fermi480');
    // The runs record it.
    const jobs: RunJob[] = [];
    const queuing = new SweepService({ store, experiments: EXPERIMENTS, enqueue: (j) => jobs.push(j) });
    const queued = queuing.queuePoints(queuing.createSweep(plan), points);
    expect(store.getRun(queued[1]!.runId).preset!.name).toBe('Fermi (GTX 480) [mshrEntries=16, mshrMergers=8]');
    expect(sweeps.check(plan)).toMatchObject({ ok: true, points: 4 });
  });

  it('names the fields in full when they fit, by their shortest distinct tails when not, and cuts with an ellipsis last', () => {
    expect(variantName('Fermi', [['timing.l1.mshrEntries', 16]])).toBe('Fermi [timing.l1.mshrEntries=16]');
    expect(variantName('Fermi (GTX 480)', [['timing.l1.mshrEntries', 16], ['timing.l1.mshrMergers', 8]])).toBe('Fermi (GTX 480) [mshrEntries=16, mshrMergers=8]');
    // Tails that would repeat keep enough of the path to tell the fields apart.
    expect(
      variantName('Fermi', [
        ['spaces.global.levels.0.geometry.ways', 4],
        ['spaces.global.levels.1.geometry.ways', 8],
        ['timing.l1.hitLatency', 20],
      ]),
    ).toBe('Fermi [0.geometry.ways=4, 1.geometry.ways=8, hitLatency=20]');
    // A long base name is cut first, keeping the values whole.
    const longBase = 'A custom preset with a very long descriptive name for the lab';
    const cutBase = variantName(longBase, [['timing.l1.mshrEntries', 16], ['timing.l1.mshrMergers', 8]]);
    expect(cutBase.length).toBeLessThanOrEqual(PRESET_NAME_CHARS);
    expect(cutBase).toMatch(/^A custom preset with.*… \[mshrEntries=16, mshrMergers=8\]$/);
    // Eight fields with long values: the list is cut too, its bracket closed.
    const many = Array.from({ length: 8 }, (_, i) => [`timing.field${i}.value`, 'x'.repeat(30)] as [string, string]);
    const cutAll = variantName(longBase, many);
    expect(cutAll.length).toBeLessThanOrEqual(PRESET_NAME_CHARS);
    expect(cutAll).toMatch(/^A custom preset… \[field0\.value=x+…\]$/);
    // Lists of numbers as a point label writes them.
    expect(variantName('Fermi', [['measurement.tpcOffsets', [1, 2]]])).toBe('Fermi [measurement.tpcOffsets=1/2]');
    for (const base of ['F', longBase, 'é'.repeat(60)])
      for (const fields of [many, many.slice(0, 2), [['a.b', '😀'.repeat(40)]] as [string, string][]]) {
        const name = variantName(base, fields);
        expect(name.length).toBeLessThanOrEqual(PRESET_NAME_CHARS);
        expect(name).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/); // no half of a surrogate pair
        expect(validatePreset({ ...findPreset('fermi')!, name }).ok).toBe(true);
      }
  });

  it('keeps the sweep name and the run titles within the contract', () => {
    expect(clip('abcdef', 6)).toBe('abcdef');
    expect(clip('abcdef', 5)).toBe('abcd…');
    expect(clip('ab😀cd', 4)).toBe('ab…');
    const axes = Array.from({ length: 8 }, (_, i) => ({ param: `parameter_with_a_long_name_${i}`, values: [1] }));
    const name = planName(parsePlan({ ...FINE, presets: ['fermi'], axes }));
    expect(name.length).toBeLessThanOrEqual(SWEEP_LIMITS.nameChars);
    expect(name).toMatch(/^pchase-fine over parameter_with_a_long_name_0 x .*…$/);
    expect(SWEEP_LIMITS.nameChars).toBeLessThanOrEqual(LIMITS.nameChars);
  });
});
