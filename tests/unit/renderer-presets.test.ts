// @vitest-environment happy-dom
/**
 * The presets view (src-renderer/src/views/PresetsView.vue, components/Preset*.vue and
 * composables/presetform.ts) against a fake LabApi whose saveCustom runs src-sim's real validator
 * and refuses like the store does: the provenance of every number (longest dotted prefix), clone ->
 * edit -> save sending a valid preset with provenance for the changed paths, the derived geometry and
 * its mismatch, the validator's messages beside the fields they name, the diff, caches shared by
 * several spaces edited once, deleting a custom preset behind a confirmation that Escape closes.
 */
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defineComponent } from 'vue';
import { createMemoryHistory, createRouter, type Router } from 'vue-router';
import { LabError, type LabApi, type PresetSummary } from '../../src-main/contract';
import { fermi } from '../../src-sim/presets/fermi';
import { kepler } from '../../src-sim/presets/kepler';
import type { Preset } from '../../src-sim/presets/types';
import { formatIssues, validatePreset } from '../../src-sim/presets/validate';
import { setLab } from '../../src-renderer/src/api';
import {
  applyField,
  cloneForEditing,
  diffPresets,
  editedProvenance,
  formSections,
  parameterRows,
  parseIssues,
  placeIssues,
  plainCopy,
  provenanceOf,
  withProvenance,
} from '../../src-renderer/src/composables/presetform';
import { useCatalog } from '../../src-renderer/src/stores/catalog';
import PresetsView from '../../src-renderer/src/views/PresetsView.vue';

const BUILTIN: Preset[] = [fermi, kepler];

function summary(p: Preset, builtin: boolean): PresetSummary {
  return { id: p.id, name: p.name, device: p.device, generation: p.generation, builtin, updatedAt: builtin ? null : Date.UTC(2026, 0, 2) };
}

/** presets.* as the store answers them: saveCustom validates with src-sim's validatePreset. */
function fakeLab() {
  const custom = new Map<string, Preset>();
  const presets = {
    list: vi.fn(async () => [...BUILTIN.map((p) => summary(p, true)), ...[...custom.values()].map((p) => summary(p, false))]),
    get: vi.fn(async ({ id }: { id: string }) => {
      const b = BUILTIN.find((p) => p.id === id);
      if (b) return { preset: plainCopy(b), builtin: true };
      const c = custom.get(id);
      if (c) return { preset: plainCopy(c), builtin: false };
      throw new LabError('not-found', `no preset with id "${id}"`);
    }),
    saveCustom: vi.fn(async ({ preset }: { preset: Record<string, unknown> }) => {
      const v = validatePreset(preset);
      if (!v.ok) throw new LabError('invalid-preset', `the preset is invalid:\n${formatIssues(v.issues)}`);
      if (BUILTIN.some((p) => p.id === v.preset.id)) throw new LabError('conflict', `"${v.preset.id}" is the id of a built-in preset; give your preset another id`);
      custom.set(v.preset.id, plainCopy(v.preset));
      return summary(v.preset, false);
    }),
    deleteCustom: vi.fn(async ({ id }: { id: string }) => ({ deleted: custom.delete(id) })),
  };
  const lab = {
    presets,
    experiments: { list: vi.fn(async () => []) },
    on: vi.fn(() => () => {}),
  };
  return { lab: lab as unknown as LabApi, presets, custom };
}

const Stub = defineComponent({ template: '<div>elsewhere</div>' });
let pinia: Pinia;
let router: Router;
let wrapper: VueWrapper | null = null;

async function mountPresets(lab: LabApi, path = '/presets?id=fermi'): Promise<VueWrapper> {
  setLab(lab);
  router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/presets', component: Stub },
      { path: '/experiments', component: Stub },
    ],
  });
  await router.push(path);
  await router.isReady();
  wrapper = mount(PresetsView, { global: { plugins: [pinia, router] }, attachTo: document.body });
  await flushPromises();
  return wrapper;
}

const field = (w: VueWrapper, path: string) => w.get(`[data-testid="field-${path}"]`);
async function type(w: VueWrapper, path: string, text: string): Promise<void> {
  await field(w, path).get('input').setValue(text);
  await flushPromises();
}

beforeEach(() => {
  pinia = createPinia();
  setActivePinia(pinia);
});
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
  setLab(null);
});

describe('provenance, units and the parameter list', () => {
  it('takes the provenance of a number from the longest matching dotted prefix', () => {
    const prov = {
      spaces: 'assumed: too broad to be chosen',
      'spaces.global.levels.0': 'MEI Table 4 (L1)',
      'spaces.global.levels.0.geometry.policy': 'MEI Fig 8 (policy)',
      'chip.sms': 'assumed: NVIDIA specification',
    };
    expect(provenanceOf('spaces.global.levels.0.geometry.policy.hotWay', prov)).toEqual({ key: 'spaces.global.levels.0.geometry.policy', text: 'MEI Fig 8 (policy)' });
    expect(provenanceOf('spaces.global.levels.0.sizeBytes', prov)?.key).toBe('spaces.global.levels.0');
    expect(provenanceOf('spaces.global.levels.1.sizeBytes', prov)?.key).toBe('spaces');
    expect(provenanceOf('chip.sms', prov)?.text).toBe('assumed: NVIDIA specification');
    // A prefix of a component is not a prefix of the path.
    expect(provenanceOf('chip.smsPerTpc', prov)).toBeNull();
    expect(provenanceOf('alu.spLatency', prov)).toBeNull();

    // The real Fermi preset: its L1 policy and its L2 TLB index come from their own, deeper entries.
    expect(provenanceOf('spaces.global.levels.0.geometry.policy.hotProbability', fermi.provenance)?.text).toMatch(/^MEI Fig 8/);
    expect(provenanceOf('spaces.global.levels.0.geometry.sets', fermi.provenance)?.text).toMatch(/^MEI Table 4/);
    expect(provenanceOf('spaces.global.translation.l2.geometry.index.kind', fermi.provenance)?.key).toBe('spaces.global.translation.l2.geometry.index');
  });

  it('lists every number with its unit and a provenance', () => {
    const rows = parameterRows(fermi);
    const numbers = rows.filter((r) => typeof r.value === 'number');
    expect(numbers.length).toBeGreaterThan(80);
    expect(numbers.every((r) => r.provenance !== null)).toBe(true);
    const l1 = rows.find((r) => r.path === 'spaces.global.levels.0.sizeBytes')!;
    expect(l1).toMatchObject({ unit: 'B', text: '16 KB (16,384 B)', group: 'spaces.global' });
    expect(rows.find((r) => r.path === 'spaces.global.latency.L1/l1')).toMatchObject({ unit: 'cycles', text: '116 cycles' });
    expect(rows.find((r) => r.path === 'chip.coreClockMHz')).toMatchObject({ unit: 'MHz', text: '1,645 MHz' });
    expect(rows.some((r) => r.path === 'provenance' || r.path.startsWith('provenance.'))).toBe(false);
  });

  it('shows each parameter with its provenance in the view', async () => {
    const fake = fakeLab();
    const w = await mountPresets(fake.lab);
    expect(fake.presets.get).toHaveBeenCalledWith({ id: 'fermi' });
    expect(w.get('[data-testid="preset-detail"]').text()).toContain('GeForce GTX 560 Ti');
    const row = w.get('[data-testid="param-row"][data-path="spaces.global.levels.0.geometry.ways"]');
    expect(row.text()).toContain('4 ways');
    expect(row.get('[data-testid="param-provenance"]').text()).toContain('MEI Table 4, Fig 8');
    expect(row.get('[data-testid="param-provenance"]').text()).toContain('via spaces.global.levels.0');
    const sms = w.get('[data-testid="param-row"][data-path="chip.sms"]');
    expect(sms.get('[data-testid="param-provenance"]').classes()).toContain('assumed');

    await w.get('[data-testid="param-filter"]').setValue('hotProbability');
    const shown = w.findAll('[data-testid="param-row"]').map((r) => r.attributes('data-path'));
    expect(shown).toContain('spaces.global.levels.0.geometry.policy.hotProbability');
    expect(shown.every((p) => p!.includes('hotProbability'))).toBe(true);
  });
});

describe('the form logic', () => {
  it('writes a cache shared by several spaces everywhere it lives, and keeps unequal sets consistent', () => {
    const draft = cloneForEditing(fermi, ['fermi', 'kepler']);
    expect(draft.id).toBe('fermi-custom');
    expect(cloneForEditing(fermi, ['fermi', 'fermi-custom']).id).toBe('fermi-custom-2');
    expect(cloneForEditing(fermi, [], ['Fermi', 'Fermi (custom)']).name).toBe('Fermi (custom 2)');
    // The clone's description says what it was cloned from, not the source's alone.
    expect(draft.description).toMatch(/^A clone of Fermi \(GeForce GTX 560 Ti\): edit this/);
    expect(draft.description).toContain(fermi.description);
    const sections = formSections(draft);
    const l2 = sections.find((s) => s.id === 'cache:L2@chip')!;
    expect(l2.note).toContain('global, global-cg, texture');
    const size = l2.fields.find((f) => f.label === 'Size')!;
    expect(size.paths).toEqual(['spaces.global.levels.1.sizeBytes', 'spaces.global-cg.levels.0.sizeBytes', 'spaces.texture.levels.1.sizeBytes']);
    applyField(draft, size, 1024 * 1024);
    expect([draft.spaces.global.levels[1]!.sizeBytes, draft.spaces['global-cg']!.levels[0]!.sizeBytes, draft.spaces.texture!.levels[1]!.sizeBytes]).toEqual([1 << 20, 1 << 20, 1 << 20]);

    const tlb = sections.find((s) => s.id === 'cache:L2 TLB@chip')!;
    const setWays = tlb.fields.find((f) => f.kind === 'int-list')!;
    applyField(draft, setWays, [16, 8, 8, 8]);
    expect(draft.spaces.global.translation!.l2.geometry).toMatchObject({ sets: 4, ways: 16, setWays: [16, 8, 8, 8] });
  });

  it('sets provenance for changed paths, keeps the user\'s own, and drops entries for fields that are gone', () => {
    const base: Preset = { ...plainCopy(fermi), provenance: { ...fermi.provenance, 'spaces.global.levels.0.geometry.policy.hotWay': 'MEI Fig 8 (the hot way)' } };
    const draft = plainCopy(base);
    draft.id = 'fermi-lru';
    const sections = formSections(draft);
    const policy = sections.find((s) => s.id === 'cache:L1@sm')!.fields.find((f) => f.label === 'Replacement')!;
    applyField(draft, policy, 'lru');
    // The chip's SM count: one field that also writes the timing block's copy (the validator holds them equal).
    applyField(draft, sections.find((s) => s.id === 'chip')!.fields.find((f) => f.id === 'chip.sms')!, 16);
    expect(draft.timing?.sms).toBe(16);
    const saved = withProvenance(draft, base, { 'chip.sms': 'NVIDIA GTX 560 Ti 448-core edition specification' });
    expect(saved.provenance['chip.sms']).toBe('NVIDIA GTX 560 Ti 448-core edition specification');
    expect(saved.provenance['spaces.global.levels.0.geometry.policy.kind']).toBe(editedProvenance('fermi'));
    expect(saved.provenance['spaces.global.levels.0.geometry.policy.hotWay']).toBeUndefined();
    expect(saved.provenance.id).toBeUndefined();
    const v = validatePreset(saved);
    expect(v.ok ? [] : v.issues).toEqual([]);
    // The diff names what changed, old -> new.
    const changes = diffPresets(base, draft);
    expect(changes).toContainEqual({ path: 'chip.sms', before: 8, after: 16 });
    expect(changes).toContainEqual({ path: 'spaces.global.levels.0.geometry.policy.kind', before: 'fermi', after: 'lru' });
    expect(changes).toContainEqual({ path: 'spaces.global.levels.0.geometry.policy.hotWay', before: 1, after: undefined });
  });

  it('reads the validator\'s lines and places them beside fields, above-field paths included', () => {
    const message = [
      'the preset is invalid:',
      'spaces.global.levels.0.sizeBytes: L1: size 20480 B does not equal 32 sets x 4 ways x 128 B = 16384 B (128 lines); change the size or the geometry',
      'spaces.texture.latency.Tex L1/-: Too small: expected number to be >0',
      'measurement.tpcOffsets.3: has no provenance: add one',
      'provenance.chip.sms: "my guess" names no source',
      'spaces.global.latency.L9/l1: "L9/l1" is not an outcome this path can produce',
    ].join('\n');
    const issues = parseIssues(message);
    expect(issues.map((i) => i.path)).toEqual([
      'spaces.global.levels.0.sizeBytes',
      'spaces.texture.latency.Tex L1/-',
      'measurement.tpcOffsets.3',
      'provenance.chip.sms',
      'spaces.global.latency.L9/l1',
    ]);
    expect(parseIssues("Error invoking remote method 'presets.saveCustom': the preset is invalid:")).toEqual([]);
    const placed = placeIssues(issues, formSections(fermi).flatMap((s) => s.fields), ['chip.sms']);
    expect(placed.fields['spaces.global.levels.0.sizeBytes']?.[0]).toContain('does not equal');
    expect(placed.fields['spaces.texture.latency.Tex L1/-']).toEqual(['Too small: expected number to be >0']);
    expect(placed.fields['measurement.tpcOffsets']).toEqual(['has no provenance: add one']);
    expect(placed.provenance['chip.sms']).toEqual(['"my guess" names no source']);
    expect(placed.other).toEqual(['spaces.global.latency.L9/l1: "L9/l1" is not an outcome this path can produce']);
  });
});

describe('clone, edit and save', () => {
  it('clones Fermi, shows derived values live, places the validator\'s message beside the field, and saves a valid preset with provenance for the changes', async () => {
    const fake = fakeLab();
    const w = await mountPresets(fake.lab);
    await w.get('[data-testid="preset-clone"]').trigger('click');
    await flushPromises();
    expect(w.find('[data-testid="preset-editor"]').exists()).toBe(true);
    expect((field(w, 'id').get('input').element as HTMLInputElement).value).toBe('fermi-custom');
    const derived = () => w.get('[data-testid="derived-cache:L1@sm"]');
    expect(derived().text()).toContain('16 KB / 128 B = 128 lines');
    expect(derived().text()).toContain('32 sets x 4 ways x 128 B = 16 KB');
    expect(derived().classes()).not.toContain('mismatch');

    // A bigger L1 without a bigger geometry: the mismatch shows at once...
    await type(w, 'spaces.global.levels.0.sizeBytes', '32 KB');
    expect(derived().classes()).toContain('mismatch');
    expect(derived().text()).toContain('≠ size 32 KB');
    expect(field(w, 'spaces.global.levels.0.sizeBytes').text()).toContain('= 32,768 B');
    // ...a field that cannot be read keeps the form from being sent...
    await type(w, 'chip.coreClockMHz', 'fast');
    expect(field(w, 'chip.coreClockMHz').text()).toContain('write a number');
    await w.get('[data-testid="preset-editor"]').trigger('submit');
    await flushPromises();
    expect(fake.presets.saveCustom).not.toHaveBeenCalled();
    expect(w.get('[data-testid="preset-save-summary"]').text()).toContain('cannot be read');
    await type(w, 'chip.coreClockMHz', '1700');

    // ...and the server's validator puts its message beside the size field.
    await w.get('[data-testid="preset-editor"]').trigger('submit');
    await flushPromises();
    expect(fake.presets.saveCustom).toHaveBeenCalledTimes(1);
    const sizeErrors = field(w, 'spaces.global.levels.0.sizeBytes').findAll('[data-testid="field-error"]');
    expect(sizeErrors.map((e) => e.text()).join(' ')).toContain('does not equal 32 sets x 4 ways x 128 B = 16384 B');
    expect(w.get('[data-testid="preset-save-summary"]').text()).toContain('marked beside');
    expect(fake.custom.size).toBe(0);

    // Eight ways make it consistent; the diff lists the changed paths, old -> new.
    await type(w, 'spaces.global.levels.0.geometry.ways', '8');
    expect(derived().classes()).not.toContain('mismatch');
    const diff = w.findAll('[data-testid="diff-row"]');
    const byPath = Object.fromEntries(diff.map((d) => [d.attributes('data-path'), d.text()]));
    // The core clock field writes the timing block's copy too.
    expect(Object.keys(byPath).sort()).toEqual(['chip.coreClockMHz', 'description', 'id', 'name', 'spaces.global.levels.0.geometry.ways', 'spaces.global.levels.0.sizeBytes', 'timing.clocks.coreMHz']);
    expect(byPath['spaces.global.levels.0.sizeBytes']).toMatch(/16 KB\s*→\s*becomes\s*32 KB/);
    expect(byPath['spaces.global.levels.0.geometry.ways']).toMatch(/4 ways\s*→\s*becomes\s*8 ways/);

    // The user's own source for the clock; the others get "assumed: edited by the user from fermi".
    const clockProv = w.findAll('[data-testid="diff-row"]').find((d) => d.attributes('data-path') === 'chip.coreClockMHz')!;
    await clockProv.get('[data-testid="diff-provenance"]').setValue('NVIDIA GTX 560 Ti 448-core specification');
    await w.get('[data-testid="preset-editor"]').trigger('submit');
    await flushPromises();

    // A 32 KB L1 beside 48 KB of shared memory is more than the SM's 64 KB: refused, the message beside the shared size.
    expect(fake.presets.saveCustom).toHaveBeenCalledTimes(2);
    expect(fake.custom.size).toBe(0);
    expect(field(w, 'shared.onChipBytes').text()).toContain('= 65,536 B');
    expect(field(w, 'shared.sizeBytes').findAll('[data-testid="field-error"]').map((e) => e.text()).join(' ')).toContain(
      "shared memory (48 KB) plus the L1 (32 KB, spaces.global.levels.0) is 80 KB, more than the SM's 64 KB of on-chip memory (shared.onChipBytes); make one of them smaller",
    );
    await type(w, 'shared.sizeBytes', '32 KB');
    await w.get('[data-testid="preset-editor"]').trigger('submit');
    await flushPromises();

    expect(fake.presets.saveCustom).toHaveBeenCalledTimes(3);
    const sent = fake.presets.saveCustom.mock.calls[2]![0].preset as unknown as Preset;
    expect(sent.shared.sizeBytes).toBe(32 * 1024);
    expect(validatePreset(sent).ok).toBe(true);
    expect(sent.id).toBe('fermi-custom');
    expect(sent.spaces.global.levels[0]).toMatchObject({ sizeBytes: 32 * 1024, geometry: { sets: 32, ways: 8, lineBytes: 128 } });
    expect(sent.chip.coreClockMHz).toBe(1700);
    expect(sent.provenance['spaces.global.levels.0.sizeBytes']).toBe('assumed: edited by the user from fermi');
    expect(sent.provenance['spaces.global.levels.0.geometry.ways']).toBe('assumed: edited by the user from fermi');
    expect(sent.provenance['chip.coreClockMHz']).toBe('NVIDIA GTX 560 Ti 448-core specification');
    // Unchanged numbers keep their published sources.
    expect(sent.provenance['spaces.global.levels.0']).toBe(fermi.provenance['spaces.global.levels.0']);
    expect(sent.provenance['spaces.global.latency.L1/l1']).toBe(fermi.provenance['spaces.global.latency.L1/l1']);

    // Saved: the catalog (the builder's preset list) reloads and the new preset is selected.
    expect(fake.presets.list).toHaveBeenCalledTimes(2);
    expect(useCatalog().presets.map((p) => p.id)).toContain('fermi-custom');
    expect(router.currentRoute.value.query.id).toBe('fermi-custom');
    expect(w.find('[data-testid="preset-editor"]').exists()).toBe(false);
    expect(w.get('[data-testid="preset-item-fermi-custom"]').text()).toContain('Fermi (custom)');
    expect(w.get('[data-testid="preset-detail"]').text()).toContain('custom');
  });

  it('shows a bad provenance of the user\'s beside its change and a built-in id beside the id', async () => {
    const fake = fakeLab();
    const w = await mountPresets(fake.lab);
    await w.get('[data-testid="preset-clone"]').trigger('click');
    await flushPromises();
    await type(w, 'alu.spLatency', '20');
    const row = () => w.findAll('[data-testid="diff-row"]').find((d) => d.attributes('data-path') === 'alu.spLatency')!;
    await row().get('[data-testid="diff-provenance"]').setValue('my guess');
    await w.get('[data-testid="preset-editor"]').trigger('submit');
    await flushPromises();
    expect(row().text()).toContain('names no source');
    expect(fake.custom.size).toBe(0);

    await row().get('[data-testid="diff-provenance"]').setValue('');
    await type(w, 'id', 'kepler');
    await w.get('[data-testid="preset-editor"]').trigger('submit');
    await flushPromises();
    expect(field(w, 'id').text()).toContain('is the id of a built-in preset');
    await type(w, 'id', 'fermi-slow-alu');
    await w.get('[data-testid="preset-editor"]').trigger('submit');
    await flushPromises();
    expect(fake.custom.get('fermi-slow-alu')?.provenance['alu.spLatency']).toBe('assumed: edited by the user from fermi');
  });

  it('changes a policy to Fermi\'s, adding its hot way, and edits a shared L2 once', async () => {
    const fake = fakeLab();
    const w = await mountPresets(fake.lab, '/presets?id=kepler');
    await w.get('[data-testid="preset-clone"]').trigger('click');
    await flushPromises();
    expect(w.find('[data-testid="field-spaces.global.levels.0.geometry.policy.hotWay"]').exists()).toBe(false);
    await field(w, 'spaces.global.levels.0.geometry.policy.kind').get('select').setValue('fermi');
    await flushPromises();
    expect(w.find('[data-testid="field-spaces.global.levels.0.geometry.policy.hotWay"]').exists()).toBe(true);
    await type(w, 'spaces.global.levels.0.sizeBytes', '3 MB');
    await type(w, 'spaces.global.levels.0.geometry.sets', '1536');
    await w.get('[data-testid="preset-editor"]').trigger('submit');
    await flushPromises();
    const sent = fake.custom.get('kepler-custom')!;
    expect(sent.spaces.global.levels[0]!.geometry.policy).toEqual({ kind: 'fermi', hotWay: 0, hotProbability: 0.5 });
    expect(sent.spaces.texture!.levels[1]).toMatchObject({ name: 'L2', sizeBytes: 3 << 20, geometry: { sets: 1536 } });
    expect(sent.provenance['spaces.texture.levels.1.sizeBytes']).toBe('assumed: edited by the user from kepler');
    expect(sent.provenance['spaces.global.levels.0.geometry.policy.hotWay']).toBe('assumed: edited by the user from kepler');
  });
});

describe('the simulator memory bound in the editor', () => {
  it('refuses a 32 GB L2 as it is entered, beside its size, with the size asked and the limit, and saves nothing', async () => {
    const fake = fakeLab();
    const w = await mountPresets(fake.lab);
    await w.get('[data-testid="preset-clone"]').trigger('click');
    await flushPromises();
    const size = 'spaces.global.levels.1.sizeBytes';
    const errors = () => field(w, size).findAll('[data-testid="field-error"]').map((e) => e.text()).join(' ');
    expect(errors()).toBe('');

    // 32 GB of 128 B lines in 16 ways: 16,777,216 sets. The refusal shows before anything is sent.
    await type(w, size, '32 GB');
    await type(w, 'spaces.global.levels.1.geometry.sets', '16777216');
    expect(w.get('[data-testid="derived-cache:L2@chip"]').classes()).not.toContain('mismatch');
    expect(errors()).toMatch(/asks for [\d.]+ GB of simulator memory, over the limit of 512 MB/);
    expect(errors()).toContain('is a 32 GB cache');
    expect(errors()).toContain('make it smaller');
    expect(fake.presets.saveCustom).not.toHaveBeenCalled();

    // Save refuses it without sending it.
    await w.get('[data-testid="preset-editor"]').trigger('submit');
    await flushPromises();
    expect(fake.presets.saveCustom).not.toHaveBeenCalled();
    expect(fake.custom.size).toBe(0);
    expect(w.get('[data-testid="preset-save-summary"]').text()).toContain('not saved');
    expect(w.find('[data-testid="preset-editor"]').exists()).toBe(true);

    // Back within the bound, the message goes and the preset saves.
    await type(w, size, '1 MB');
    await type(w, 'spaces.global.levels.1.geometry.sets', '512');
    expect(errors()).toBe('');
    await w.get('[data-testid="preset-editor"]').trigger('submit');
    await flushPromises();
    expect(fake.presets.saveCustom).toHaveBeenCalledTimes(1);
    expect(fake.custom.get('fermi-custom')?.spaces.global.levels[1]).toMatchObject({ sizeBytes: 1 << 20, geometry: { sets: 512 } });
  });
});

describe('deleting a custom preset', () => {
  it('asks first (Escape keeps it), then deletes and reloads the catalog', async () => {
    const fake = fakeLab();
    const mine = { ...cloneForEditing(fermi, ['fermi']), id: 'my-fermi', name: 'My Fermi' };
    fake.custom.set('my-fermi', mine);
    const w = await mountPresets(fake.lab, '/presets?id=my-fermi');
    expect(w.find('[data-testid="preset-delete"]').exists()).toBe(true);
    await w.get('[data-testid="preset-delete"]').trigger('click');
    const dialog = w.get('[data-testid="confirm-delete-preset"]');
    expect(dialog.text()).toContain('My Fermi');
    await dialog.trigger('keydown', { key: 'Escape' });
    expect(w.find('[data-testid="confirm-delete-preset"]').exists()).toBe(false);
    expect(fake.presets.deleteCustom).not.toHaveBeenCalled();

    await w.get('[data-testid="preset-delete"]').trigger('click');
    await w.get('[data-testid="confirm-delete"]').trigger('click');
    await flushPromises();
    expect(fake.presets.deleteCustom).toHaveBeenCalledWith({ id: 'my-fermi' });
    expect(useCatalog().presets.map((p) => p.id)).toEqual(['fermi', 'kepler']);
    expect(w.find('[data-testid="preset-item-my-fermi"]').exists()).toBe(false);
    expect(router.currentRoute.value.query.id).toBe('fermi');

    // Built-in presets offer no delete.
    await flushPromises();
    expect(w.find('[data-testid="preset-delete"]').exists()).toBe(false);
  });
});

describe('leaving the editor', () => {
  /** The view as the app shows it: a route's component, so that its leave guard runs. */
  async function mountRouted(lab: LabApi): Promise<VueWrapper> {
    setLab(lab);
    router = createRouter({
      history: createMemoryHistory(),
      routes: [
        { path: '/presets', component: PresetsView },
        { path: '/experiments', component: Stub },
      ],
    });
    await router.push('/presets?id=fermi');
    await router.isReady();
    wrapper = mount(defineComponent({ template: '<RouterView />' }), { global: { plugins: [pinia, router] }, attachTo: document.body });
    await flushPromises();
    return wrapper;
  }

  it('asks before an unsaved clone is dropped, and stays when told to', async () => {
    const fake = fakeLab();
    const w = await mountRouted(fake.lab);
    const confirm = vi.fn().mockReturnValueOnce(false).mockReturnValueOnce(true);
    window.confirm = confirm;
    try {
      await w.get('[data-testid="preset-clone"]').trigger('click');
      await flushPromises();
      await router.push('/experiments').catch(() => {});
      await flushPromises();
      expect(confirm).toHaveBeenCalledWith('Leave the preset editor? The clone is not saved.');
      expect(router.currentRoute.value.path).toBe('/presets');
      expect(w.find('[data-testid="preset-editor"]').exists()).toBe(true);
      await router.push('/experiments');
      await flushPromises();
      expect(router.currentRoute.value.path).toBe('/experiments');
    } finally {
      Reflect.deleteProperty(window, 'confirm');
    }
  });

  it('leaves without asking when no editor is open', async () => {
    const fake = fakeLab();
    await mountRouted(fake.lab);
    const confirm = vi.fn(() => true);
    window.confirm = confirm;
    try {
      await router.push('/experiments');
      await flushPromises();
      expect(router.currentRoute.value.path).toBe('/experiments');
      expect(confirm).not.toHaveBeenCalled();
    } finally {
      Reflect.deleteProperty(window, 'confirm');
    }
  });
});
