import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LabError } from '../../src-main/contract';
import type { RunStore } from '../../src-main/services/store';
import { PRESETS } from '../../src-sim/presets';
import type { Preset } from '../../src-sim/presets/types';
import { Clock, newRun, preset, TempDb } from './store-fixtures';

let tmp: TempDb;
let clock: Clock;
let store: RunStore;
beforeEach(() => {
  tmp = new TempDb();
  clock = new Clock();
  store = tmp.open({ now: clock.now });
});
afterEach(() => tmp.cleanup());

function errorOf(fn: () => unknown): LabError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(LabError);
    return err as LabError;
  }
  throw new Error('expected an error');
}

function clone(over: Partial<Preset> = {}): Preset {
  return { ...structuredClone(preset('fermi')), id: 'fermi-big-l1', name: 'Fermi, 48 KB L1', ...over };
}

describe('custom presets', () => {
  it('saves a valid preset and lists it after the built-in ones', () => {
    const saved = store.saveCustomPreset(clone());
    expect(saved).toMatchObject({ id: 'fermi-big-l1', builtin: false, generation: 'Fermi' });
    const list = store.listPresets();
    expect(list.map((p) => p.id)).toEqual([...PRESETS.map((p) => p.id), 'fermi-big-l1']);
    expect(list.filter((p) => p.builtin)).toHaveLength(PRESETS.length);
    expect(store.getPreset('fermi-big-l1')).toEqual({ preset: clone(), builtin: false });
    expect(store.getPreset('kepler').builtin).toBe(true);
  });

  it('replaces a preset saved again under the same id', () => {
    store.saveCustomPreset(clone());
    clock.advance(5000);
    const again = store.saveCustomPreset(clone({ description: 'second version' }));
    expect(again.updatedAt).toBe(clock.t);
    expect(store.getPreset('fermi-big-l1').preset.description).toBe('second version');
    expect(store.listPresets().filter((p) => !p.builtin)).toHaveLength(1);
  });

  it("refuses an invalid preset with the validator's message and stores nothing", () => {
    const bad = clone();
    bad.spaces.global.levels[0].sizeBytes += 1;
    const err = errorOf(() => store.saveCustomPreset(bad));
    expect(err.code).toBe('invalid-preset');
    expect(err.message).toMatch(/spaces\.global\.levels\.0\.sizeBytes: .*does not equal/);
    expect(errorOf(() => store.saveCustomPreset({ id: 'Not An Id' })).message).toMatch(/^the preset is invalid:\nid: /);
    expect(errorOf(() => store.saveCustomPreset('fermi')).code).toBe('invalid-preset');
    expect(store.listPresets().filter((p) => !p.builtin)).toEqual([]);
    expect(errorOf(() => store.getPreset('fermi-big-l1')).code).toBe('not-found');
  });

  it('refuses to shadow or delete a built-in preset', () => {
    expect(errorOf(() => store.saveCustomPreset(clone({ id: 'fermi' }))).code).toBe('conflict');
    expect(errorOf(() => store.deleteCustomPreset('tesla')).code).toBe('conflict');
    expect(store.getPreset('fermi').preset).toBe(preset('fermi'));
  });

  it('deletes a custom preset, and runs made from it keep their snapshot', () => {
    store.saveCustomPreset(clone());
    const run = store.createRun(newRun({ preset: store.getPreset('fermi-big-l1').preset }));
    expect(store.deleteCustomPreset('fermi-big-l1')).toBe(true);
    expect(store.deleteCustomPreset('fermi-big-l1')).toBe(false);
    expect(store.getRun(run.id).preset).toEqual(clone());
  });
});

describe('comparisons', () => {
  function runs(n: number): string[] {
    return Array.from({ length: n }, () => store.createRun(newRun()).id);
  }

  it('saves, lists newest first, reads back in order and deletes', () => {
    const ids = runs(3);
    const a = store.saveComparison({ name: 'L1 across presets', runIds: [ids[2], ids[0]], notes: 'why' });
    expect(a).toMatchObject({ name: 'L1 across presets', notes: 'why', runIds: [ids[2], ids[0]], createdAt: clock.t, updatedAt: clock.t });
    clock.advance(10);
    const b = store.saveComparison({ name: 'all', runIds: ids });
    expect(store.listComparisons().map((c) => [c.id, c.runCount])).toEqual([
      [b.id, 3],
      [a.id, 2],
    ]);
    expect(store.getComparison(a.id)).toEqual(a);
    expect(store.deleteComparison(a.id)).toBe(true);
    expect(store.deleteComparison(a.id)).toBe(false);
    expect(errorOf(() => store.getComparison(a.id)).code).toBe('not-found');
    expect(store.listRuns().total).toBe(3);
  });

  it('replaces a comparison saved with its id', () => {
    const ids = runs(3);
    const a = store.saveComparison({ name: 'v1', runIds: [ids[0]] });
    clock.advance(10);
    const b = store.saveComparison({ id: a.id, name: 'v2', runIds: [ids[1], ids[2]] });
    expect(b).toMatchObject({ id: a.id, name: 'v2', runIds: [ids[1], ids[2]], createdAt: a.createdAt, updatedAt: a.createdAt + 10 });
    expect(store.listComparisons()).toHaveLength(1);
  });

  it('refuses unknown runs, unknown comparisons and bad input, changing nothing', () => {
    const ids = runs(1);
    const ghost = '00000000-0000-4000-8000-000000000000';
    expect(errorOf(() => store.saveComparison({ name: 'x', runIds: [ids[0], ghost] })).code).toBe('not-found');
    expect(errorOf(() => store.saveComparison({ id: ghost, name: 'x', runIds: ids })).code).toBe('not-found');
    expect(errorOf(() => store.saveComparison({ name: '', runIds: ids })).code).toBe('invalid-args');
    expect(errorOf(() => store.saveComparison({ name: 'x', runIds: [ids[0], ids[0]] })).code).toBe('invalid-args');
    expect(store.listComparisons()).toEqual([]);
  });
});
