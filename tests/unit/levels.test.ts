import { describe, expect, it } from 'vitest';
import { dominantLevel, latencyLevels, levelOf } from '../../src-sim/analysis/levels';
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
