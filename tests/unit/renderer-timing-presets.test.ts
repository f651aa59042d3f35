// @vitest-environment happy-dom
/**
 * The timing block of a preset (Preset.timing, src-sim/timing/types.ts) in the presets view and the
 * editor (composables/presetform.ts, PresetParams.vue, PresetEditor.vue, PresetField.vue): its
 * numbers with units and provenance, grouped by part; the values they imply (L1 size = sets x ways x
 * line, the MLP bound = mergers x min(lines, MSHRs), bandwidths in GB/s) live as a clone is edited;
 * a field that cannot be read; the server's validator messages beside the timing field they name;
 * the saved clone carrying the change and its provenance.
 */
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LabError, type LabApi } from '../../src-main/contract';
import PresetEditor from '../../src-renderer/src/components/PresetEditor.vue';
import PresetParams from '../../src-renderer/src/components/PresetParams.vue';
import { setLab } from '../../src-renderer/src/api';
import { findPreset } from '../../src-sim/presets';
import { cloneForEditing, editedProvenance, formSections, gbPerSecond, groupTitle, parameterRows, plainCopy, timingDerived, timingSections, type DerivedValue } from '../../src-renderer/src/composables/presetform';
import { fermi } from '../../src-sim/presets/fermi';
import { PRESETS } from '../../src-sim/presets';
import type { Preset } from '../../src-sim/presets/types';
import { formatIssues, validatePreset } from '../../src-sim/presets/validate';
import type { TimingConfig } from '../../src-sim/timing/types';

/** GTX 480 as LASH Tables I and II give it (the rest as the timing presets assume it). */
const TIMING: TimingConfig = {
  sms: 15,
  maxWarpsPerSM: 48,
  maxThreadsPerSM: 1536,
  maxBlocksPerSM: 8,
  schedulers: 2,
  aluLatency: 18,
  coalesceBytes: 128,
  l1: { sets: 32, ways: 4, lineBytes: 128, mshrEntries: 32, mshrMergers: 8, hitLatency: 20, policy: 'lru' },
  bypassBytes: 32,
  l2: { sets: 64, ways: 8, lineBytes: 128, mshrEntries: 32, mshrMergers: 4, hitLatency: 120, policy: 'lru', partitions: 12 },
  interconnect: { latency: 40, bytesPerCyclePerSM: 32, bytesPerCycleTotal: 384 },
  dram: { channels: 6, latency: 150, bytesPerCycle: 123.4, burstBytes: 32 },
  shared: { bytesPerSM: 48 * 1024, latency: 50, bytesPerCycle: 128 },
  clocks: { coreMHz: 1400, memoryMHz: 1800 },
};

/** Fermi's latency data without its own timing block. */
function withoutTiming(): Preset {
  const p = plainCopy(fermi);
  delete p.timing;
  p.provenance = Object.fromEntries(Object.entries(p.provenance).filter(([k]) => k !== 'timing' && !k.startsWith('timing.')));
  return p;
}

/** Fermi's latency data with the test's timing block and its provenance. */
function withTiming(timing: TimingConfig = TIMING): Preset {
  const p = withoutTiming();
  p.timing = plainCopy(timing);
  // The validator holds the timing block to the chip's SM count and clock.
  p.chip = { ...p.chip, sms: timing.sms, coreClockMHz: timing.clocks.coreMHz };
  p.provenance = { ...p.provenance, timing: 'assumed: a test block', 'timing.l1.mshrMergers': 'LASH Table II (8 merger fields per MSHR entry)', 'timing.sms': 'LASH Tables I, II (15 SMs)' };
  return p;
}

const byLabel = (list: DerivedValue[], label: string) => list.find((d) => d.label === label);

describe('the timing block in the form logic', () => {
  it('lists every timing number with its unit, its part and its provenance', () => {
    const rows = parameterRows(withTiming());
    const mergers = rows.find((r) => r.path === 'timing.l1.mshrMergers')!;
    expect(mergers).toMatchObject({ group: 'timing.l1', name: 'mshrMergers', unit: 'fields', text: '8 fields', provenance: { key: 'timing.l1.mshrMergers', text: 'LASH Table II (8 merger fields per MSHR entry)' } });
    expect(rows.find((r) => r.path === 'timing.sms')).toMatchObject({ group: 'timing', unit: 'SMs', text: '15 SMs' });
    expect(rows.find((r) => r.path === 'timing.l1.lineBytes')).toMatchObject({ unit: 'B', text: '128 B' });
    expect(rows.find((r) => r.path === 'timing.shared.bytesPerSM')).toMatchObject({ unit: 'B', text: '48 KB (49,152 B)' });
    expect(rows.find((r) => r.path === 'timing.l2.hitLatency')).toMatchObject({ unit: 'cycles', text: '120 cycles' });
    expect(rows.find((r) => r.path === 'timing.interconnect.bytesPerCyclePerSM')).toMatchObject({ unit: 'B/cycle', text: '32 B/cycle' });
    expect(rows.find((r) => r.path === 'timing.clocks.memoryMHz')).toMatchObject({ unit: 'MHz', text: '1,800 MHz' });
    // A number without its own entry takes the block's.
    expect(rows.find((r) => r.path === 'timing.dram.channels')?.provenance).toEqual({ key: 'timing', text: 'assumed: a test block' });
    expect(groupTitle('timing.l1', withTiming())).toBe('Timing: L1 data cache (per SM)');
    expect(groupTitle('timing', withTiming())).toBe('Timing: SMs, warps and schedulers');
  });

  it('derives L1 size, the MLP bound, L2 capacity, bandwidths in GB/s and residency, and flags contradictions', () => {
    expect(byLabel(timingDerived(TIMING, 'l1'), 'L1 size')).toMatchObject({ text: '16 KB', how: '32 sets x 4 ways x 128 B', ok: true });
    expect(byLabel(timingDerived(TIMING, 'l1'), 'MLP bound')).toMatchObject({ text: '256 requests', how: '8 mergers x min(128 lines, 32 MSHRs)' });
    const few = { ...TIMING, l1: { ...TIMING.l1!, sets: 4, ways: 4, mshrEntries: 32 } };
    expect(byLabel(timingDerived(few, 'l1'), 'MLP bound')?.text).toBe('128 requests'); // 8 x min(16, 32)
    // The latency tier's L1 beside the timing tier's: a clone whose L1 grew in one tier only is flagged.
    const titan = findPreset('titan')!;
    const same = byLabel(timingDerived(titan.timing, 'l1', titan), "Latency tier's L1");
    expect(same).toMatchObject({ text: '16 KB', ok: true });
    const grown = cloneForEditing(titan, []);
    grown.spaces.global.levels[0]!.sizeBytes = 32 * 1024;
    expect(byLabel(timingDerived(grown.timing, 'l1', grown), "Latency tier's L1")).toMatchObject({ ok: false, text: '32 KB', how: expect.stringMatching(/this L1 16 KB: edit both$/) });
    expect(byLabel(timingDerived(TIMING, 'l2'), 'Slice size')?.text).toBe('64 KB');
    expect(byLabel(timingDerived(TIMING, 'l2'), 'Slice total')?.text).toBe('768 KB');
    expect(byLabel(timingDerived(TIMING, 'l2'), 'MLP bound')?.text).toBe('128 requests');
    expect(gbPerSecond(32, 1400)).toBeCloseTo(44.8, 9);
    expect(byLabel(timingDerived(TIMING, 'interconnect'), 'Per SM')?.text).toBe('44.8 GB/s');
    expect(byLabel(timingDerived(TIMING, 'interconnect'), 'Bound of a full GPU')).toMatchObject({ text: 'the total', ok: true }); // 15 x 32 = 480 > 384
    expect(byLabel(timingDerived(TIMING, 'dram'), 'Peak bandwidth')?.text).toBe('172.8 GB/s');
    expect(byLabel(timingDerived(TIMING, ''), 'Threads the warp slots hold')).toMatchObject({ text: '1,536 threads', ok: true });
    const over = timingDerived({ ...TIMING, maxThreadsPerSM: 2048 }, '');
    expect(byLabel(over, 'Threads the warp slots hold')).toMatchObject({ ok: false, text: '1,536 threads < 2,048 threads per SM' });
    expect(byLabel(timingDerived({ ...TIMING, coalesceBytes: 96 }, 'l1'), 'Coalescing')?.ok).toBe(false);
    expect(timingDerived(undefined, 'l1')).toEqual([]);
  });

  it('the built-in presets with a timing block: every timing number has a unit-bearing row with provenance, every part a section', () => {
    const timed = PRESETS.filter((p) => p.timing);
    expect(timed.length).toBeGreaterThan(0);
    for (const p of timed) {
      const rows = parameterRows(p).filter((r) => r.path.startsWith('timing.'));
      expect(rows.length).toBeGreaterThan(25);
      expect(rows.filter((r) => typeof r.value === 'number' && !r.provenance).map((r) => `${p.id} ${r.path}`)).toEqual([]);
      const parts = timingSections(p).map((s) => s.id);
      expect(parts).toEqual(expect.arrayContaining(['timing:sm', 'timing:l2', 'timing:interconnect', 'timing:dram', 'timing:shared', 'timing:clocks']));
      expect(parts.includes('timing:l1')).toBe(!!p.timing!.l1);
      const l1 = timingDerived(p.timing, 'l1');
      if (p.timing!.l1) expect(byLabel(l1, 'L1 size')?.how).toBe(`${p.timing!.l1.sets} sets x ${p.timing!.l1.ways} ways x ${p.timing!.l1.lineBytes} B`);
    }
  });

  it('makes one section per part from the block itself: kinds, units, no L1 where there is none, new fields included', () => {
    const sections = formSections(withTiming());
    const ids = sections.filter((s) => s.id.startsWith('timing:')).map((s) => s.id);
    expect(ids).toEqual(['timing:sm', 'timing:l1', 'timing:l2', 'timing:interconnect', 'timing:dram', 'timing:shared', 'timing:clocks']);
    const all = sections.flatMap((s) => s.fields);
    const kind = (id: string) => all.find((f) => f.id === id);
    // The block's SM count and core clock repeat the chip's: one field (in the chip section) writes both.
    expect(kind('timing.sms')).toBeUndefined();
    expect(kind('chip.sms')).toMatchObject({ kind: 'int', paths: ['chip.sms', 'timing.sms'] });
    expect(kind('chip.coreClockMHz')?.paths).toEqual(['chip.coreClockMHz', 'timing.clocks.coreMHz']);
    expect(formSections(withoutTiming()).flatMap((s) => s.fields).find((f) => f.id === 'chip.sms')?.paths).toEqual(['chip.sms']);
    expect(kind('timing.clocks.memoryMHz')).toMatchObject({ kind: 'number', unit: 'MHz' });
    expect(kind('timing.l1.lineBytes')).toMatchObject({ kind: 'bytes', label: 'Line' });
    expect(kind('timing.l1.mshrMergers')).toMatchObject({ kind: 'int', unit: 'fields', label: 'Merger fields per MSHR entry' });
    expect(kind('timing.l1.policy')).toMatchObject({ kind: 'enum', options: ['lru', 'fifo'] });
    const hashed = timingSections(withTiming({ ...TIMING, l1: { ...TIMING.l1!, setIndex: 'fermi-hash' } } as TimingConfig));
    expect(hashed.find((s) => s.id === 'timing:l1')!.fields.find((f) => f.id === 'timing.l1.setIndex')).toMatchObject({ kind: 'enum', options: ['linear', 'fermi-hash'], label: 'Set index function' });
    expect(kind('timing.dram.bytesPerCycle')).toMatchObject({ kind: 'number', unit: 'B/cycle' });
    expect(formSections(withoutTiming()).some((s) => s.id.startsWith('timing:'))).toBe(false);
    const { l1: _l1, ...noL1 } = TIMING;
    const tesla = timingSections(withTiming({ ...noL1, l2: { ...TIMING.l2, uncached: true, bytesPerCycle: 256 } } as TimingConfig));
    expect(tesla.map((s) => s.id)).not.toContain('timing:l1');
    const l2 = tesla.find((s) => s.id === 'timing:l2')!.fields;
    expect(l2.find((f) => f.id === 'timing.l2.uncached')).toMatchObject({ kind: 'boolean', label: 'No L2 for global memory' });
    expect(l2.find((f) => f.id === 'timing.l2.bytesPerCycle')).toMatchObject({ kind: 'number', unit: 'B/cycle', label: 'Bandwidth' });
  });
});

// ---------------------------------------------------------------------------------------------
// Components
// ---------------------------------------------------------------------------------------------

let wrapper: VueWrapper | null = null;
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
  setLab(null);
});

describe('the preset view and the editor', () => {
  it('the view lists the timing numbers with units and provenance, and what they imply', async () => {
    wrapper = mount(PresetParams, { props: { preset: withTiming() }, attachTo: document.body });
    const row = wrapper.get('[data-testid="param-row"][data-path="timing.l1.mshrMergers"]');
    expect(row.text()).toContain('8 fields');
    expect(row.get('[data-testid="param-provenance"]').text()).toContain('LASH Table II (8 merger fields per MSHR entry)');
    const derived = wrapper.findAll('[data-testid="param-derived"][data-group="timing.l1"]').map((r) => r.text());
    expect(derived).toContain('L1 size16 KBderived: 32 sets x 4 ways x 128 B');
    expect(derived.some((t) => t.startsWith('MLP bound256 requests'))).toBe(true);
    expect(wrapper.findAll('[data-testid="param-derived"][data-group="timing.dram"]').map((r) => r.text())[0]).toContain('172.8 GB/s');
  });

  it('a clone: editing a timing field updates what it implies live, refuses unreadable text, shows the server messages beside the field, saves the change with provenance', async () => {
    const base = withTiming();
    const start = cloneForEditing(base, ['fermi']);
    // As the store answers: src-sim's validator (the timing schema included) decides.
    const saveCustom = vi.fn(async ({ preset }: { preset: Record<string, unknown> }) => {
      const v = validatePreset(preset);
      if (!v.ok) throw new LabError('invalid-preset', `the preset is invalid:\n${formatIssues(v.issues)}`);
      return { id: v.preset.id, name: v.preset.name, device: v.preset.device, generation: v.preset.generation, builtin: false, updatedAt: 1 };
    });
    setLab({ presets: { saveCustom } } as unknown as LabApi);
    wrapper = mount(PresetEditor, { props: { base, start, mode: 'clone' }, attachTo: document.body });
    const w = wrapper;
    const l1 = () => w.get('[data-testid="derived-timing:l1"]').text();
    expect(l1()).toContain('L1 size 16 KB = 32 sets x 4 ways x 128 B');
    expect(l1()).toContain('MLP bound 256 requests');
    const input = w.get('[data-testid="field-timing.l1.mshrMergers"] input');
    expect((input.element as HTMLInputElement).value).toBe('8');
    expect(w.get('[data-testid="field-timing.l1.mshrMergers"]').text()).toContain('fields');
    await input.setValue('4');
    await flushPromises();
    expect(l1()).toContain('MLP bound 128 requests');
    // Fewer sets: with Fermi's 48 KB of shared memory a larger L1 would not fit the SM's 64 KB.
    await w.get('[data-testid="field-timing.l1.sets"] input').setValue('16');
    await flushPromises();
    expect(l1()).toContain('L1 size 8 KB = 16 sets x 4 ways x 128 B');
    // Text that is not a whole number stays in the field with a message, and blocks saving.
    await input.setValue('four');
    await flushPromises();
    expect(w.get('[data-testid="field-timing.l1.mshrMergers"] [data-testid="field-error"]').text()).toBe('write a whole number');
    await w.get('[data-testid="preset-editor"]').trigger('submit');
    await flushPromises();
    expect(saveCustom).not.toHaveBeenCalled();
    // The server refuses 0 mergers: its message appears beside the field.
    await input.setValue('0');
    await flushPromises();
    await w.get('[data-testid="preset-editor"]').trigger('submit');
    await flushPromises();
    expect(saveCustom).toHaveBeenCalledTimes(1);
    expect(w.get('[data-testid="field-timing.l1.mshrMergers"] [data-testid="field-error"]').text()).toMatch(/^Too small/);
    expect(w.get('[data-testid="preset-save-summary"]').text()).toContain('1 marked beside its field');
    await input.setValue('4');
    await flushPromises();
    // A rule of the engine's check, which names the whole block: its message goes beside the field it starts with.
    const bypass = w.get('[data-testid="field-timing.bypassBytes"] input');
    await bypass.setValue('256 B');
    await flushPromises();
    await w.get('[data-testid="preset-editor"]').trigger('submit');
    await flushPromises();
    expect(w.get('[data-testid="field-timing.bypassBytes"] [data-testid="field-error"]').text()).toBe('bypassBytes must not exceed coalesceBytes');
    await bypass.setValue('32 B');
    // The chip's SM count writes the block's too (the validator holds them equal).
    const resident = () => w.get('[data-testid="derived-timing:sm"]').text();
    expect(resident()).toContain('Resident warps, whole GPU 720 warps');
    await w.get('[data-testid="field-chip.sms"] input').setValue('16');
    await flushPromises();
    expect(resident()).toContain('Resident warps, whole GPU 768 warps = 16 SMs x 48');
    await w.get('[data-testid="preset-editor"]').trigger('submit');
    await flushPromises();
    expect(saveCustom).toHaveBeenCalledTimes(3);
    const sent = saveCustom.mock.calls[2]![0].preset as unknown as Preset & { timing: TimingConfig };
    expect([sent.chip.sms, sent.timing.sms]).toEqual([16, 16]);
    expect(sent.provenance['timing.sms']).toBe(editedProvenance('fermi'));
    expect(sent.timing.l1).toMatchObject({ mshrMergers: 4, sets: 16 });
    expect(sent.timing.l2).toEqual(TIMING.l2);
    expect(sent.provenance['timing.l1.mshrMergers']).toBe(editedProvenance('fermi'));
    expect(sent.provenance['timing.l1.sets']).toBe(editedProvenance('fermi'));
    expect(sent.provenance['timing.l2.mshrMergers']).toBeUndefined();
    expect(w.emitted('saved')?.[0]).toEqual([start.id, start.name]);
  });
});
