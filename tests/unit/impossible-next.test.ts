/**
 * A "cannot tell" never suggests raising a parameter already at its maximum: the suggestion is
 * dropped and the evidence says why, while one the user can still follow is kept as it is.
 */
import { describe, expect, it } from 'vitest';
import { cannotTell } from '../../src-sim/analysis/cannot-tell';
import { cacheStructure } from '../../src-sim/experiments/cache-structure';
import { resolveParams, withoutImpossibleNext } from '../../src-sim/experiments/params';

const f = cannotTell('cache.sets', 'Sets', 'the step-3 sweep ended before every line had missed', 'a longer step-3 sweep (raise "sweepBeyond")');

describe('withoutImpossibleNext', () => {
  it('drops a suggestion to raise a parameter at its maximum, and says so', () => {
    const at = resolveParams(cacheStructure.params, { sweepBeyond: '1MB' });
    const [g] = withoutImpossibleNext([f], cacheStructure.params, at);
    expect(g!.value).toBe('cannot tell');
    expect(g!.evidence).not.toMatch(/to decide/);
    expect(g!.evidence).toMatch(/"sweepBeyond" is at its maximum \(1 MB\)/);
  });

  it('keeps a suggestion that can be followed, and leaves decided findings alone', () => {
    const below = resolveParams(cacheStructure.params, { sweepBeyond: '8KB' });
    const decided = { key: 'cache.ways', label: 'Ways', value: 4, unit: '', evidence: 'C / (sets x b); to decide: raise "sweepBeyond"' };
    expect(withoutImpossibleNext([f, decided], cacheStructure.params, below)).toEqual([f, decided]);
  });

  it('asks for less jitter only where the run has some', () => {
    const noisy = cannotTell('tlb.l2.policy', 'L2 TLB replacement', 'single accesses cannot be classified', 'a run with less jitter or more traversals');
    const quiet = resolveParams(cacheStructure.params, { jitter: 0 });
    const [g] = withoutImpossibleNext([noisy], cacheStructure.params, quiet);
    expect(g!.evidence).toMatch(/; to decide: more traversals$/);
    const only = cannotTell('cache.policy', 'Policy', 'too few misses', 'a run with less jitter');
    expect(withoutImpossibleNext([only], cacheStructure.params, quiet)[0]!.evidence).toMatch(/the run has no jitter\)$/);
    const jittered = resolveParams(cacheStructure.params, { jitter: 3 });
    expect(withoutImpossibleNext([noisy], cacheStructure.params, jittered)).toEqual([noisy]);
  });
});
