import { describe, expect, it } from 'vitest';
import { followsGcdRule, readDegree, stepCost, type ThreadProbe } from '../../src-sim/analysis/banks';
import { isCannotTell } from '../../src-sim/analysis/cannot-tell';
import type { ExperimentResult } from '../../src-sim/experiments/types';
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
      const strides = Array.from(r.series[0].x);
      const degrees = r.tables[0].rows.map((row) => row['4-byte']);
      // The largest degree: a whole issue group in one bank; first reached at stride = banks.
      expect(value(r, 'shared.maxDegree')).toBe(c.issueGroup);
      expect(value(r, 'shared.issueGroup')).toBe(c.issueGroup);
      expect(value(r, 'shared.repeatWords')).toBe(c.banks);
      expect(value(r, 'shared.base') as number).toBeCloseTo(c.base, 0);
      expect(value(r, 'shared.perConflict') as number).toBeCloseTo(c.perConflict, 0);
      if (c.issueGroup === c.banks) expect(followsGcdRule(strides, degrees as number[], c.banks)).toBe(true);
    });
  }
});

const value = (r: ExperimentResult, key: string): number | string | undefined => r.findings.find((f) => f.key === key)?.value;

function custom(banks: number, issueGroup: number, base: number, perConflict: number, mode = { slotWords: 1, rowWords: banks }): Preset {
  return withShared(findPreset('fermi')!, { sizeBytes: 48 * 1024, banks, issueGroup, modes: { '4-byte': mode }, defaultMode: '4-byte', latency: { base, perConflict } });
}

describe('bank analyser beyond the papers: small costs, no cost, noise', () => {
  it('reads a 2-cycle cost per conflict exactly (levels 2 cycles apart are separate levels)', () => {
    const r = sweep.run(custom(32, 32, 50, 2), {}, 1, () => {});
    expect(value(r, 'shared.base')).toBe(50);
    expect(value(r, 'shared.perConflict')).toBe(2);
    expect(value(r, 'shared.maxDegree')).toBe(32);
    expect(value(r, 'shared.repeatWords')).toBe(32);
    expect(value(r, 'shared.rule')).toBe('gcd(stride, 32)');
    expect(r.tables[0].rows.find((x) => x.stride === 12)?.['4-byte']).toBe(4);
  });
  it('says "cannot tell" for the degrees when conflicts cost nothing, and names what to run next', () => {
    const r = sweep.run(custom(32, 32, 50, 0), {}, 1, () => {});
    expect(value(r, 'shared.base')).toBe(50);
    for (const k of ['perConflict', 'maxDegree', 'repeatWords', 'oddConflictFree', 'rule', 'issueGroup']) expect(isCannotTell(value(r, `shared.${k}`)), k).toBe(true);
    expect(r.findings.find((f) => f.key === 'shared.perConflict')?.evidence).toMatch(/no thread raised the latency.*to decide/);
    expect(r.tables[0].rows.every((x) => isCannotTell(x['4-byte']))).toBe(true);
  });
  it('finds conflicts outside a sweep that has none (odd strides only) by timing the whole warp at larger strides', () => {
    const r = sweep.run(custom(32, 32, 50, 5), { strideFrom: 1, strideTo: 15, strideStep: 2 }, 1, () => {});
    expect(value(r, 'shared.perConflict')).toBe(5);
    expect(value(r, 'shared.maxDegree')).toBe(1);
    expect(value(r, 'shared.oddConflictFree')).toBe('yes');
    expect(value(r, 'shared.repeatWords')).toBe('none');
  });
  it("measures a half-warp issue group (Tesla) by moving a conflicting pair across threads", () => {
    const r = sweep.run(findPreset('tesla')!, {}, 1, () => {});
    expect(value(r, 'shared.issueGroup')).toBe(16);
    expect(value(r, 'shared.maxDegree')).toBe(16);
    expect(value(r, 'shared.repeatWords')).toBe(16);
    // An issue group that does not divide the warp.
    const odd = sweep.run(custom(16, 12, 40, 7), {}, 1, () => {});
    expect(value(odd, 'shared.issueGroup')).toBe(12);
    expect(value(odd, 'shared.maxDegree')).toBe(12);
  });
  it('says "cannot tell" rather than guess when a small cost sinks in the noise, and decides once refined', () => {
    const noisy = sweep.run(custom(32, 32, 50, 1), { jitter: 20, accesses: 16, refine: 1 }, 3, () => {});
    expect(isCannotTell(value(noisy, 'shared.perConflict'))).toBe(true);
    expect(noisy.findings.find((f) => f.key === 'shared.perConflict')?.evidence).toMatch(/accesses/);
    const refined = sweep.run(custom(32, 32, 50, 8), { jitter: 4, accesses: 64 }, 3, () => {});
    expect(value(refined, 'shared.perConflict') as number).toBeCloseTo(8, 0);
    expect(value(refined, 'shared.maxDegree')).toBe(32);
  });
  it('gives each decided value its confidence or evidence', () => {
    const r = sweep.run(custom(32, 32, 50, 6), { jitter: 2, accesses: 256 }, 5, () => {});
    expect(r.findings.find((f) => f.key === 'shared.base')?.evidence).toMatch(/\+- [0-9.]+ \(95 %\)/);
    expect(r.findings.find((f) => f.key === 'shared.perConflict')?.evidence).toMatch(/standard errors/);
  });
});

describe('bank analysis steps', () => {
  const probe = (latency: number[], se = 0): ThreadProbe => ({ stride: 32, latency, se: latency.map(() => se) });
  it('reads the cost as the step threads add one at a time, and the degree as the number of steps', () => {
    const y = Array.from({ length: 32 }, (_, n) => 50 + 3 * Math.min(n, 7));
    const s = stepCost(probe(y));
    expect(s.ok && s.value.cost).toBe(3);
    expect(s.ok && s.value.degree).toBe(8);
  });
  it('refuses steps that are neither 0 nor one cost, and latencies that fall', () => {
    const uneven = Array.from({ length: 32 }, (_, n) => 50 + (n >= 1 ? 3 : 0) + (n >= 2 ? 5 : 0));
    const a = stepCost(probe(uneven));
    expect(!a.ok && a.kind).toBe('inconsistent');
    const falls = Array.from({ length: 32 }, (_, n) => 50 + (n === 3 ? 4 : 0));
    const b = stepCost(probe(falls));
    expect(!b.ok && b.kind).toBe('inconsistent');
  });
  it('leaves a degree open near the midpoint between two rungs, and decides it away from it', () => {
    expect(readDegree(60, 0.5, 50, 0, 4, 0).degree).toBeUndefined();
    expect(readDegree(62, 0.1, 50, 0, 4, 0).degree).toBe(4);
    expect(readDegree(62.5, 0, 50, 0, 4, 0).offLattice).toBe(true);
  });
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
  it('keys the default mode plainly whichever modes it measures, so Fermi and Kepler share their quantities', () => {
    const f = sweep.run(findPreset('fermi')!, {}, 1, () => {});
    const all = sweep.run(findPreset('kepler')!, {}, 1, () => {});
    const only = sweep.run(findPreset('kepler')!, { mode: 'default' }, 1, () => {});
    for (const k of ['base', 'perConflict', 'maxDegree', 'issueGroup', 'repeatWords', 'oddConflictFree', 'rule']) {
      expect(value(f, `shared.${k}`), k).toBeDefined();
      // Kepler's default mode (4-byte) under the plain key, the same reading as a run of that mode alone.
      expect(value(all, `shared.${k}`), k).toBe(value(only, `shared.${k}`));
      expect(value(all, `shared.8-byte.${k}`), k).toBeDefined();
      expect(value(all, `shared.4-byte.${k}`), k).toBeUndefined();
    }
    expect(all.findings.find((x) => x.key === 'shared.perConflict')!.label).toBe('shared (4-byte mode, the default): cycles per further conflicting access');
  });

  it('keeps a latency that matches the model for a direct access', () => {
    const fermi = findPreset('fermi')!;
    const words = Array.from({ length: 32 }, (_, t) => t * 2);
    const expected = sharedLatency(fermi.shared, conflictDegree(words, 32, fermi.shared.modes['4-byte'], 32));
    const r = sweep.run(fermi, { strideFrom: 2, strideTo: 2 }, 1, () => {});
    expect(r.series[0].y[0]).toBeCloseTo(expected, 9);
  });
});
