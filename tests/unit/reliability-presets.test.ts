/**
 * Presets: the simulator memory a preset may ask for is bounded at validation (and checked again
 * by a simulation process before it allocates); parameters are checked against the preset and as
 * strict decimal numbers before a run is queued.
 */
import { describe, expect, it } from 'vitest';
import { validateRun } from '../../src-main/services/pool';
import { resolveParams } from '../../src-sim/experiments/params';
import { EXPERIMENTS } from '../../src-sim/experiments';
import { ExperimentError } from '../../src-sim/experiments/types';
import { findPreset } from '../../src-sim/presets';
import type { Preset } from '../../src-sim/presets/types';
import { MAX_STATE_BYTES, presetStateBytes, validatePreset } from '../../src-sim/presets/validate';

/** Fermi with its L2 made `bytes` large (16 ways of 128 B lines kept). */
function withL2(bytes: number): Preset {
  const p = structuredClone(findPreset('fermi')!);
  const l2 = p.spaces.global.levels[1]!;
  expect(l2.name).toMatch(/L2/);
  l2.sizeBytes = bytes;
  l2.geometry = { ...l2.geometry, sets: bytes / (l2.geometry.lineBytes * l2.geometry.ways) };
  return p;
}

describe('the memory a preset may ask for', () => {
  it('refuses a 32 GB L2 at validation, naming the size asked for and the limit', () => {
    const v = validatePreset(withL2(32 * 1024 ** 3));
    expect(v.ok).toBe(false);
    const issue = !v.ok && v.issues.find((i) => /simulator memory/.test(i.message));
    expect(issue).toBeTruthy();
    expect(issue && issue.path).toBe('spaces.global.levels.1');
    expect(issue && issue.message).toMatch(/asks for [\d.]+ GB of simulator memory, over the limit of 512 MB/);
    expect(issue && issue.message).toMatch(/32 GB cache of 268435456 lines/);
  });

  it('admits a 50 MB, 16-way L2 of 128 B lines, and every built-in preset', () => {
    const p = withL2(50 * 1024 * 1024);
    const v = validatePreset(p);
    expect(v.ok ? [] : v.issues).toEqual([]);
    expect(presetStateBytes(p)).toBeLessThan(MAX_STATE_BYTES / 10);
    for (const id of ['gt200', 'fermi', 'fermi480', 'kepler', 'titan']) {
      const b = findPreset(id);
      if (b) expect(presetStateBytes(b)).toBeLessThan(MAX_STATE_BYTES);
    }
  });
});

describe('runs checked against the preset before they are queued', () => {
  const fermi = findPreset('fermi')!;
  const refused = (experiment: string, params: Record<string, unknown>, preset: Preset = fermi): ExperimentError => {
    try {
      validateRun({ experiment, preset, params, seed: 1 });
    } catch (err) {
      expect(err).toBeInstanceOf(ExperimentError);
      return err as ExperimentError;
    }
    throw new Error('expected a refusal');
  };

  it('a TPC the GPU does not have', () => {
    const err = refused('pchase-fine', { tpc: 16, size: '4KB', stride: '128', iterations: 256 });
    expect(err.param).toBe('tpc');
    expect(err.message).toMatch(/"tpc" is 16; .* has TPCs 0 to/);
    expect(refused('pchase-average', { tpc: 16, strides: '128', sizeFrom: '1KB', sizeTo: '2KB', sizeStep: '1KB' }).param).toBe('tpc');
  });

  it('a stride larger than the array', () => {
    expect(refused('pchase-fine', { size: '1KB', stride: '4KB', iterations: 256 }).message).toBe('parameter "stride" (4096 B) is larger than "size" (1024 B)');
    expect(refused('pchase-average', { strides: '4KB', sizeFrom: '1KB', sizeTo: '2KB', sizeStep: '1KB' }).param).toBe('strides');
  });

  it('sl1-apps with more threads per SM than fermi480 holds', () => {
    const f480 = findPreset('fermi480')!;
    const max = (f480 as Preset & { timing: { maxThreadsPerSM: number } }).timing.maxThreadsPerSM;
    const spec = EXPERIMENTS.find((e) => e.id === 'sl1-apps')!.params.find((p) => p.name === 'threadsPerSM')!;
    const over = Math.min(max * 2, (spec as { max: number }).max);
    if (over <= max) return; // the schema alone refuses it
    expect(refused('sl1-apps', { threadsPerSM: String(over) }, f480).message).toMatch(/threads per SMX above/);
  });

  it('numbers: decimal only ("   ", "0x10", "1e1", "Infinity" refused; " 16 " read as 16)', () => {
    const spec = EXPERIMENTS.find((e) => e.id === 'pchase-fine')!.params;
    for (const bad of ['   ', '0x10', '1e1', 'Infinity', '1_0', '+-1', '']) {
      expect(() => resolveParams(spec, { iterations: bad }), JSON.stringify(bad)).toThrow(/iterations/);
    }
    expect(resolveParams(spec, { iterations: ' 300 ' }).iterations).toBe(300);
    expect(() => resolveParams(spec, { size: '   ' })).toThrow(/size/);
    expect(() => resolveParams(spec, { size: '0x10' })).toThrow(/size/);
    expect(resolveParams(spec, { size: '4 KB' }).size).toBe(4096);
  });
});
