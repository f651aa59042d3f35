import { describe, expect, it } from 'vitest';
import { findExperiment } from '../../src-sim/experiments';
import { findPreset } from '../../src-sim/presets';
import { formatIssues, validatePreset } from '../../src-sim/presets/validate';
import { refineTimingIssues } from '../../src-renderer/src/composables/presetform';
import { checkTimingConfig, simulate } from '../../src-sim/timing/engine';
import { fermiHashSet, fermiHashSetFn } from '../../src-sim/timing/tcache';
import type { Kernel, TimingConfig } from '../../src-sim/timing/types';

/**
 * GPGPU-Sim's FERMI_HASH_SET_FUNCTION for the L1 (l1.setIndex 'fermi-hash'): the set is address bits
 * 7-11 XOR bits 13, 14, 15, 17, 19; with 64 sets bit 12 is the sixth bit. GPGPU-Sim 3.2.2's GTX 480
 * configuration, which fermi480 follows, names no set function (linear); the hash is an option of a
 * clone, as the distribution's later configuration has it.
 */

const fermi480 = findPreset('fermi480')!.timing!;
/** fermi480 with the later configuration's hashed L1. */
const hashedPreset = (() => {
  const p = structuredClone(findPreset('fermi480')!);
  p.id = 'fermi480-hash';
  p.timing!.l1!.setIndex = 'fermi-hash';
  return p;
})();
const hashed480 = hashedPreset.timing!;
const line = (addr: number) => addr / 128;

describe('the L1 set index: GPGPU-Sim 3.2 Fermi hash', () => {
  it('maps addresses as l1d_cache_config::set_index does (hand-computed)', () => {
    expect(fermiHashSet(line(0), 128, 32)).toBe(0);
    expect(fermiHashSet(line(3 * 128), 128, 32)).toBe(3); // bits 7-11 = 3
    expect(fermiHashSet(line(0x1000), 128, 32)).toBe(0); // bit 12 is not used with 32 sets
    expect(fermiHashSet(line(0x1000), 128, 64)).toBe(32); // ... and is the sixth bit with 64
    expect(fermiHashSet(line(0x2000), 128, 32)).toBe(1); // bit 13 -> bit 0
    expect(fermiHashSet(line(0x2000 + 3 * 128), 128, 32)).toBe(2); // 3 XOR 1
    expect(fermiHashSet(line(0xe000), 128, 32)).toBe(7); // bits 13-15 -> bits 0-2
    expect(fermiHashSet(line(0x10000), 128, 32)).toBe(0); // bit 16 is not used
    expect(fermiHashSet(line(0x20000), 128, 32)).toBe(8); // bit 17 -> bit 3
    expect(fermiHashSet(line(0x80000), 128, 32)).toBe(16); // bit 19 -> bit 4
    expect(fermiHashSet(line(0x80000 + 16 * 128), 128, 32)).toBe(0); // 16 XOR 16
    expect(fermiHashSet(line(0x100000), 128, 32)).toBe(0); // bit 20 and above are not used
    // 64 B lines: the low five bits are address bits 6-10
    expect(fermiHashSet(5, 64, 32)).toBe(5);
  });

  it('the engine\'s integer form gives the same sets as the definition', () => {
    for (const [bytes, sets] of [[128, 32], [128, 64], [64, 32], [32, 64], [4096, 32]] as const) {
      const fast = fermiHashSetFn(bytes, sets);
      for (let l = 0; l < 1 << 16; l += 7) expect(fast(l)).toBe(fermiHashSet(l, bytes, sets));
      for (const l of [2 ** 31 - 1, 2 ** 31, 2 ** 33 + 5]) expect(fast(l)).toBe(fermiHashSet(l, bytes, sets));
    }
  });

  it('spreads a contiguous range evenly, as linear indexing does', () => {
    for (const sets of [32, 64]) {
      const count = new Array<number>(sets).fill(0);
      for (let l = 0; l < sets * 64; l++) count[fermiHashSet(l, 128, sets)]++;
      expect(new Set(count)).toEqual(new Set([64]));
    }
  });

  it('the GTX 480 preset indexes linearly as 3.2.2 ships it; a hashed clone that cannot use the hash is refused with the reason', () => {
    expect(fermi480.l1!.setIndex).toBe('linear');
    expect(checkTimingConfig(fermi480)).toEqual([]);
    expect(checkTimingConfig({ ...fermi480, l1: { ...fermi480.l1!, sets: 16 } })).toEqual([]);
    expect(checkTimingConfig(hashed480)).toEqual([]);
    expect(checkTimingConfig({ ...hashed480, l1: { ...hashed480.l1!, sets: 64 } })).toEqual([]);
    expect(checkTimingConfig({ ...hashed480, l1: { ...hashed480.l1!, sets: 16 } })).toEqual([expect.stringMatching(/l1\.setIndex 'fermi-hash' needs 32 or 64 sets \(got 16\)/)]);
    expect(checkTimingConfig({ ...fermi480, l2: { ...fermi480.l2, setIndex: 'fermi-hash' } })).toEqual([expect.stringMatching(/^l2\.setIndex/)]);
    const preset = structuredClone(findPreset('fermi480')!);
    (preset.timing!.l1 as { setIndex: string }).setIndex = 'xor';
    expect(validatePreset(preset).ok).toBe(false);
    // a hashed clone whose L1 a user shrinks to 16 sets is refused, the editor placing the message at l1.setIndex
    const clone = structuredClone(hashedPreset);
    clone.timing!.l1!.sets = 16;
    const v = validatePreset(clone);
    expect(v.ok ? '' : formatIssues(v.issues)).toMatch(/l1\.setIndex 'fermi-hash' needs 32 or 64 sets \(got 16\)/);
    expect(refineTimingIssues(v.ok ? [] : v.issues).map((i) => i.path)).toContain('timing.l1.setIndex');
    // the same for the block's other l1 / l2 messages, and a top-level field
    expect(
      refineTimingIssues([
        { path: 'timing', message: 'l2.partitions must be a positive whole number (got 0)' },
        { path: 'timing', message: 'coalesceBytes must be a power of two (got 96)' },
        { path: 'timing.sms', message: 'something else' },
      ]).map((i) => i.path),
    ).toEqual(['timing.l2.partitions', 'timing.coalesceBytes', 'timing.sms']);
  });

  it('lines 4 KB apart share a set by linear indexing but not by the hash: one warp stalls on nocacheline only without it', () => {
    // lane l loads the line 4 KB x l (32 lines; linear: all in one set of 4 ways)
    const kern: Kernel = {
      name: 'strided',
      grid: 1,
      block: 32,
      arrays: [{ name: 'x', elemBytes: 4, length: 1 << 20, space: 'global' }],
      body: [{ op: 'ld', array: 'x', index: { terms: [{ coef: 1024, var: 'gtid' }] }, dst: 0 }],
    };
    const one = (c: TimingConfig): TimingConfig => ({ ...c, sms: 1 });
    const hashed = simulate(one(hashed480), [kern], { l1: 'hw' });
    const linear = simulate(one(fermi480), [kern], { l1: 'hw' });
    expect(linear.stalls.nocacheline).toBeGreaterThan(0);
    expect(hashed.stalls.nocacheline).toBe(0);
    expect(hashed.cycles).toBeLessThan(linear.cycles);
  });

  it('a timing-sweep of l1.sets on a hashed clone indexes the counts the hash cannot take linearly and says which', () => {
    const r = findExperiment('timing-sweep')!.run(hashedPreset, { workload: 'stencil', size: 4096, path: 'l1.sets', values: '16, 32, 64' }, 1, () => {});
    expect(r.series[0]!.y.length).toBe(3);
    expect(r.notes).toContain('16 sets: indexed linearly (the Fermi hash needs 32 or 64 sets).');
  });

  it("LASH Fig 7's Sets- (16 sets) indexes linearly on a hashed clone and says so", () => {
    const r = findExperiment('lash-sensitivity')!.run(hashedPreset, { n: 4096, iterations: 1, types: '4' }, 1, () => {});
    expect(r.notes).toContain('Sets-: 16 sets, indexed linearly (the Fermi hash needs 32 or 64 sets).');
    expect(r.notes![0]).toMatch(/sets by GPGPU-Sim's Fermi hash/);
  });
});
