import { describe, expect, it } from 'vitest';
import { describeLevels, dominantLevel, latencyLevels, levelOf, separateLevels, twoSidedTail } from '../../src-sim/analysis/levels';
import { Rng } from '../../src-sim/rng';

describe('latencyLevels', () => {
  it('separates levels 6 cycles apart without jitter (Kepler patterns 1 and 2)', () => {
    const v = [230, 236, 230, 289, 236, 1000, 230];
    const l = latencyLevels(v);
    expect(l.map((x) => x.latency)).toEqual([230, 236, 289, 1000]);
    expect(l.map((x) => x.count)).toEqual([3, 2, 1, 1]);
  });
  it('groups jittered samples around their true levels', () => {
    const rng = new Rng(5);
    const truth = [116, 404, 655, 1259];
    const v = Array.from({ length: 4000 }, (_, i) => truth[i % 4] + (rng.next() * 2 - 1) * 4);
    const l = latencyLevels(v, 10);
    expect(l).toHaveLength(4);
    l.forEach((x, i) => expect(Math.abs(x.latency - truth[i])).toBeLessThan(1));
    expect(levelOf(l, 410)).toBe(1);
    expect(dominantLevel(l)?.count).toBe(1000);
  });
  it('returns nothing for no data', () => {
    expect(latencyLevels([])).toEqual([]);
  });
});

describe('separateLevels: levels separated by what the data support', () => {
  it('without noise, two cycles apart (or half a cycle) is two levels, exactly', () => {
    const s = separateLevels([50, 52, 50, 54, 52.5, 50], 0);
    expect(s.resolved).toBe(true);
    expect(s.levels.map((l) => l.latency)).toEqual([50, 52, 52.5, 54]);
    expect(s.gaps.every((g) => g.z === Infinity && g.confidence === 1)).toBe(true);
    expect(describeLevels(s)).toContain('exact (no noise)');
  });
  it('with noise, separates levels many standard errors apart and shows the confidence', () => {
    const rng = new Rng(9);
    const truth = [50, 52, 54];
    const v = Array.from({ length: 300 }, (_, i) => truth[i % 3] + (rng.next() * 2 - 1) * 0.1);
    const se = 0.1 / Math.sqrt(3);
    const s = separateLevels(v, se);
    expect(s.resolved).toBe(true);
    expect(s.levels).toHaveLength(3);
    s.levels.forEach((l, i) => expect(Math.abs(l.latency - truth[i])).toBeLessThan(0.05));
    expect(s.gaps[0].z).toBeGreaterThan(50);
    expect(describeLevels(s)).toMatch(/standard errors \(p /);
  });
  it('does not resolve levels closer than the noise: it says so instead of inventing or merging silently', () => {
    const rng = new Rng(11);
    const v = Array.from({ length: 400 }, (_, i) => (i % 2 ? 52 : 50) + (rng.next() * 2 - 1) * 3);
    const s = separateLevels(v, 3 / Math.sqrt(3));
    expect(s.resolved).toBe(false);
    expect(s.problem).toMatch(/noise/);
  });
  it('does not split one noisy level into several', () => {
    const rng = new Rng(12);
    const v = Array.from({ length: 500 }, () => 80 + (rng.next() * 2 - 1) * 2);
    const s = separateLevels(v, 2 / Math.sqrt(3));
    expect(s.levels).toHaveLength(1);
    expect(s.resolved).toBe(true);
  });
  it('leaves the levels open when the noise is unknown and values do not repeat', () => {
    expect(separateLevels([50, 50.3, 52.1], NaN).resolved).toBe(false);
    expect(separateLevels([50, 50, 52, 52], NaN).resolved).toBe(true);
  });
  it('gives Gaussian tail probabilities', () => {
    expect(twoSidedTail(1.96)).toBeCloseTo(0.05, 3);
    expect(twoSidedTail(0)).toBeCloseTo(1, 6);
    expect(twoSidedTail(Infinity)).toBe(0);
  });
});
