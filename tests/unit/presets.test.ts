import { describe, expect, it } from 'vitest';
import { findPreset, PRESETS } from '../../src-sim/presets';
import { formatIssues, validatePreset } from '../../src-sim/presets/validate';

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

describe('built-in presets', () => {
  it.each(PRESETS.map((p) => [p.id, p] as const))('%s validates and survives a JSON round trip', (_id, p) => {
    const v = validatePreset(p);
    if (!v.ok) throw new Error(formatIssues(v.issues));
    expect(validatePreset(clone(p)).ok).toBe(true);
  });
  it('every preset number has provenance (a paper reference or "assumed: why")', () => {
    for (const p of PRESETS) for (const v of Object.values(p.provenance)) expect(v).toMatch(/^(assumed: .{8,}|(MEI|WONG|LASH|SL1|JIA18|JIA19|ABD22|LUO24|NVIDIA).*)/);
  });
});

describe('preset validator messages', () => {
  const fermi = findPreset('fermi')!;
  const issuesOf = (p: unknown): string => {
    const v = validatePreset(p);
    return v.ok ? '' : formatIssues(v.issues);
  };
  it('names a size that disagrees with sets x ways x line', () => {
    const p = clone(fermi);
    p.spaces.global.levels[0].sizeBytes = 20000;
    expect(issuesOf(p)).toMatch(/spaces\.global\.levels\.0\.sizeBytes: L1: size 20000 B does not equal 32 sets x 4 ways x 128 B = 16384 B/);
  });
  it('names unequal sets that do not sum to the size', () => {
    const p = clone(fermi);
    p.spaces.global.translation!.l2.geometry.setWays = [17, 8, 8, 8, 8, 8, 7];
    expect(issuesOf(p)).toMatch(/L2 TLB: size .* does not equal \(17 \+ 8 \+ 8 \+ 8 \+ 8 \+ 8 \+ 7\) ways/);
  });
  it('names a missing latency-table entry', () => {
    const p = clone(fermi);
    delete (p.spaces.global.latency as Record<string, number>)['L2/l2'];
    expect(issuesOf(p)).toMatch(/latency table lacks "L2\/l2"/);
  });
  it('names an entry the path can never produce', () => {
    const p = clone(fermi);
    p.spaces.global.latency['L3/l1'] = 10;
    expect(issuesOf(p)).toMatch(/"L3\/l1" is not an outcome/);
  });
  it('names a number without provenance and a provenance key for nothing', () => {
    const p = clone(fermi);
    delete p.provenance['chip.sms'];
    p.provenance['chip.bogus'] = 'MEI Table 9';
    const msg = issuesOf(p);
    expect(msg).toMatch(/chip\.sms: has no provenance/);
    expect(msg).toMatch(/provenance\.chip\.bogus: names a field the preset does not have/);
  });
  it('refuses a provenance entry that names no source', () => {
    const p = clone(fermi);
    p.provenance['chip.sms'] = 'I think so';
    expect(issuesOf(p)).toMatch(/provenance\.chip\.sms: "I think so" names no source/);
  });
  it('names shape errors with their path', () => {
    const p = clone(fermi) as unknown as Record<string, unknown>;
    p.id = 'Bad Id';
    (p.chip as Record<string, unknown>).sms = -3;
    const msg = issuesOf(p);
    expect(msg).toMatch(/^id: use 1-40 lower-case/m);
    expect(msg).toMatch(/^chip\.sms: /m);
  });
  it('refuses a hot way beyond the ways and a non-power-of-two line', () => {
    const p = clone(fermi);
    p.spaces.global.levels[0].geometry.policy = { kind: 'fermi', hotWay: 4, hotProbability: 0.5 };
    p.spaces.global.levels[1].geometry.lineBytes = 96;
    const msg = issuesOf(p);
    expect(msg).toMatch(/hot way 4 does not exist in a 4-way set/);
    expect(msg).toMatch(/line size 96 B is not a power of two/);
  });
  it('refuses shared memory plus L1 over the SM\'s on-chip memory, a datum of the preset with its provenance', () => {
    for (const id of ['fermi', 'fermi480', 'kepler', 'titan']) {
      const p = findPreset(id)!;
      expect(p.shared.onChipBytes).toBe(64 * 1024);
      expect(p.provenance['shared.onChipBytes'] ?? fermi.provenance['shared.onChipBytes']).toMatch(/^(MEI|SL1) /);
    }
    // GT200's L1 is texture-only: no on-chip total, nothing to check.
    expect(findPreset('tesla')!.shared.onChipBytes).toBeUndefined();
    // Fermi: 48 KB shared + a 32 KB L1 (the geometry kept consistent) is 80 KB of 64.
    const p = clone(fermi);
    p.spaces.global.levels[0].sizeBytes = 32 * 1024;
    p.spaces.global.levels[0].geometry.sets = 64;
    expect(issuesOf(p)).toBe(
      "shared.sizeBytes: shared memory (48 KB) plus the L1 (32 KB, spaces.global.levels.0) is 80 KB, more than the SM's 64 KB of on-chip memory (shared.onChipBytes); make one of them smaller",
    );
    // The configurable split: the 48 KB L1 configuration fits (16 KB left for shared memory), a 64 KB one does not.
    const q = clone(fermi);
    q.l1Configs![0].sizeBytes = 64 * 1024;
    q.l1Configs![0].geometry.ways = 8; // 64 sets x 8 ways x 128 B
    expect(issuesOf(q)).toMatch(/^l1Configs\.0\.sizeBytes: an L1 of 64 KB leaves no shared memory in the SM's 64 KB of on-chip memory/m);
    // Kepler's global loads skip L1: shared memory alone over the total is refused.
    const k = clone(findPreset('kepler')!);
    k.shared.sizeBytes = 96 * 1024;
    expect(issuesOf(k)).toMatch(/^shared\.sizeBytes: shared memory \(96 KB\) is more than the SM's 64 KB of on-chip memory/m);
    // The timing tier's split too (Titan: 16 KB L1 beside 48 KB shared).
    const t = clone(findPreset('titan')!);
    t.timing!.shared.bytesPerSM = 64 * 1024;
    expect(issuesOf(t)).toMatch(/^timing\.shared\.bytesPerSM: the timing tier's shared memory \(64 KB\) plus its L1 \(16 KB: sets x ways x line\) is 80 KB/m);
    // A larger on-chip memory (a later GPU's carveout) admits the same split.
    p.shared.onChipBytes = 96 * 1024;
    expect(issuesOf(p)).toBe('');
  });
  it('accepts a well-formed custom clone', () => {
    const p = clone(fermi);
    p.id = 'my-fermi';
    p.name = 'My Fermi';
    p.spaces.global.latency['L1/l1'] = 100;
    expect(validatePreset(p).ok).toBe(true);
  });
});
