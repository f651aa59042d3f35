/**
 * The missed-entries probe names the L2 TLB's sets only where its stride reaches every set: where an L2
 * TLB entry, measured as the page-size probe measures it, covers the stride or more. A bit-indexed L2 TLB of 4 KB entries chased at 512 KB (GT200's: 8 of its 1024 sets reached)
 * gets "cannot tell" and the reached sets under their own key; Kepler's 2 MB entries chased at 2 MB keep
 * their seven unequal sets.
 */
import { describe, expect, it } from 'vitest';
import { tlbProbes } from '../../src-sim/experiments/tlb-probes';
import { findPreset } from '../../src-sim/presets';
import type { Preset } from '../../src-sim/presets/types';
import type { TranslationConfig } from '../../src-sim/model/path';

const KB = 1024;
const MB = 1024 * KB;
const quiet = (): void => {};
const value = (r: ReturnType<typeof tlbProbes.run>, key: string): unknown => r.findings.find((f) => f.key === key)?.value;

describe('missed entries: the sets a stride reaches', () => {
  it('Kepler at 2 MB: every set reached, the set sizes stand', () => {
    const r = tlbProbes.run(findPreset('kepler') as Preset, { probe: 'missed-entries' }, 1, quiet);
    expect(value(r, 'tlb.l2.sets')).toBe(7);
    expect(value(r, 'tlb.l2.entries')).toBe(65);
    expect(value(r, 'tlb.l2.firstMissedEntries')).toBe(17);
    expect(r.notes.join(' ')).toMatch(/The L2 TLB's entries cover 2 MB/);
  });

  it("GT200 at 512 KB: the L2 TLB's 8 reached sets of 8 are not its 1024 (cannot tell, the reached sets kept apart)", () => {
    const r = tlbProbes.run(findPreset('tesla') as Preset, { probe: 'missed-entries' }, 1, quiet);
    expect(value(r, 'tlb.l2.sets')).toBe('cannot tell');
    expect(value(r, 'tlb.l2.entries')).toBe('cannot tell');
    expect(value(r, 'tlb.l2.reachedSetSizes')).toBe('8,8,8,8,8,8,8,8');
  });

  it('a bit-indexed L2 TLB of 64 sets of 4 KB entries at 512 KB: only one set reached, so cannot tell', () => {
    const kepler = structuredClone(findPreset('kepler')) as Preset;
    const t = kepler.spaces.global.translation as TranslationConfig;
    // 64 sets x 8 ways of 4 KB behind a fully associative L1 TLB of 16 such entries: a 512 KB stride is 128
    // entries, a multiple of 64, so every element goes to one set, and all 17 miss once the L1 overflows.
    t.l1 = { ...t.l1, sizeBytes: 16 * 4 * KB, geometry: { lineBytes: 4 * KB, sets: 1, ways: 16, index: { kind: 'bits' }, policy: { kind: 'lru' } } };
    t.l2 = { ...t.l2, sizeBytes: 64 * 8 * 4 * KB, geometry: { lineBytes: 4 * KB, sets: 64, ways: 8, index: { kind: 'bits' }, policy: { kind: 'lru' } } };
    t.pageBytes = 4 * KB;
    delete t.activeWindowBytes;
    const r = tlbProbes.run(kepler, { probe: 'missed-entries', stride: 512 * KB, sizeFrom: 4 * MB, sizeTo: 16 * MB }, 1, quiet);
    expect(value(r, 'tlb.l2.sets')).toBe('cannot tell');
    expect(value(r, 'tlb.l2.entries')).toBe('cannot tell');
    expect(r.findings.find((f) => f.key === 'tlb.l2.sets')?.evidence).toMatch(/whether 512 KB reaches every set is not known|may reach only some of the sets/);
  });
});
