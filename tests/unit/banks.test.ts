import { describe, expect, it } from 'vitest';
import { analyseBanks, followsGcdRule } from '../../src-sim/analysis/banks';
import { findExperiment } from '../../src-sim/experiments';
import { conflictDegree, sharedLatency, type SharedMemoryConfig } from '../../src-sim/model/shared';
import { findPreset } from '../../src-sim/presets';
import type { Preset } from '../../src-sim/presets/types';
import { Rng } from '../../src-sim/rng';

const sweep = findExperiment('shared-bank-stride')!;

function withShared(base: Preset, shared: SharedMemoryConfig): Preset {
  return { ...base, shared };
}

describe('shared-memory conflict degree (model)', () => {
  it('follows gcd(stride, 32) on a Fermi-like 4-byte bank array', () => {
    const mode = { slotWords: 1, rowWords: 32 };
    const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);
    for (let s = 1; s <= 64; s++) {
      const words = Array.from({ length: 32 }, (_, t) => t * s);
      expect(conflictDegree(words, 32, mode, 32)).toBe(gcd(s, 32));
    }
  });
  it('broadcasts when every thread reads one word', () => {
    expect(conflictDegree(new Array(32).fill(7), 32, { slotWords: 1, rowWords: 32 }, 32)).toBe(1);
  });
  it('serves Tesla by half-warps: stride 16 conflicts 16-way, not 32', () => {
    const words = Array.from({ length: 32 }, (_, t) => t * 16);
    expect(conflictDegree(words, 16, { slotWords: 1, rowWords: 16 }, 16)).toBe(16);
  });
  it('reads Kepler Fig 6: stride 6 is 2-way in 4-byte mode and conflict-free in 8-byte mode', () => {
    const words = Array.from({ length: 32 }, (_, t) => t * 6);
    expect(conflictDegree(words, 32, { slotWords: 1, rowWords: 64 }, 32)).toBe(2);
    expect(conflictDegree(words, 32, { slotWords: 2, rowWords: 64 }, 32)).toBe(1);
  });
});

describe('bank analyser recovers random bank arrays from latencies alone', () => {
  const rng = new Rng(2024);
  const cases = Array.from({ length: 10 }, () => {
    const banks = [8, 16, 32, 64][rng.int(4)];
    return {
      banks,
      issueGroup: [16, 32][rng.int(2)],
      base: 20 + rng.int(80),
      perConflict: 5 + rng.int(60) + (rng.int(2) ? 0.5 : 0),
    };
  });
  for (const c of cases) {
    it(`${c.banks} banks, issue group ${c.issueGroup}, base ${c.base}, +${c.perConflict}/conflict`, () => {
      const preset = withShared(findPreset('fermi')!, {
        sizeBytes: 48 * 1024,
        banks: c.banks,
        issueGroup: c.issueGroup,
        modes: { '4-byte': { slotWords: 1, rowWords: c.banks } },
        defaultMode: '4-byte',
        latency: { base: c.base, perConflict: c.perConflict },
      });
      const r = sweep.run(preset, { strideFrom: 0, strideTo: 2 * c.banks, jitter: 3, accesses: 256 }, 7, () => {});
      const a = analyseBanks(r.series[0].y, 4);
      const strides = Array.from(r.series[0].x);
      // The largest degree: a whole issue group in one bank; first reached at stride = banks.
      expect(a.maxDegree).toBe(c.issueGroup);
      expect(r.findings.find((f) => f.key === 'shared.repeatWords')?.value).toBe(c.banks);
      expect(a.base).toBeCloseTo(c.base, 0);
      expect(a.perConflict).toBeCloseTo(c.perConflict, 0);
      if (c.issueGroup === c.banks) expect(followsGcdRule(strides, a.degrees, c.banks)).toBe(true);
    });
  }
});

describe('shared-bank-stride experiment', () => {
  it('refuses a bank mode the preset lacks, naming it', () => {
    expect(() => sweep.run(findPreset('fermi')!, { mode: '8-byte' }, 1, () => {})).toThrow(/mode.*4-byte/);
  });
  it('refuses an inverted stride range', () => {
    expect(() => sweep.run(findPreset('fermi')!, { strideFrom: 10, strideTo: 2 }, 1, () => {})).toThrow(/strideTo/);
  });
  it('finds Fermi degrees = gcd(stride, 32) and Kepler 8-byte mode never worse', () => {
    const f = sweep.run(findPreset('fermi')!, {}, 1, () => {});
    expect(f.findings.find((x) => x.key === 'shared.rule')?.value).toBe('gcd(stride, 32)');
    const k = sweep.run(findPreset('kepler')!, { strideFrom: 2, strideTo: 32, strideStep: 2 }, 1, () => {});
    expect(k.findings.find((x) => x.key === 'shared.8-byte.neverWorse')?.value).toBe('yes');
  });
  it('keeps a latency that matches the model for a direct access', () => {
    const fermi = findPreset('fermi')!;
    const words = Array.from({ length: 32 }, (_, t) => t * 2);
    const expected = sharedLatency(fermi.shared, conflictDegree(words, 32, fermi.shared.modes['4-byte'], 32));
    const r = sweep.run(fermi, { strideFrom: 2, strideTo: 2 }, 1, () => {});
    expect(r.series[0].y[0]).toBeCloseTo(expected, 9);
  });
});
