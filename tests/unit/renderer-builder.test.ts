// @vitest-environment happy-dom
/**
 * The experiment builder (src-renderer/src/views/ExperimentsView.vue and composables/params.ts)
 * against a fake LabApi: the form made from each parameter kind, messages as the user types (the
 * same words as src-sim's resolveParams), Enter running on two presets with resolved values, the
 * server's message placed beside its field, the route prefill and the reproduction gallery.
 */
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defineComponent } from 'vue';
import { createMemoryHistory, createRouter, type Router } from 'vue-router';
import type { ExperimentInfo, LabApi, PresetSummary } from '../../src-main/contract';
import { resolveParams } from '../../src-sim/experiments/params';
import type { ParamSpec } from '../../src-sim/experiments/types';
import { setLab } from '../../src-renderer/src/api';
import { builderDraft, loadStoredDraft, resetBuilderDraft } from '../../src-renderer/src/composables/builderdraft';
import { describeRow, readPrefill, rowTemplates } from '../../src-renderer/src/composables/builder';
import { checkField, estimateWork, formatBytes, parseBytes, placeServerError, toFieldValue } from '../../src-renderer/src/composables/params';
import { useNotify } from '../../src-renderer/src/stores/notify';
import ExperimentsView from '../../src-renderer/src/views/ExperimentsView.vue';

const SPECS: ParamSpec[] = [
  { name: 'space', label: 'Memory space', unit: '', kind: 'enum', default: 'global', options: ['global', 'texture', 'constant'], description: 'Which memory space to chase.' },
  { name: 'strides', label: 'Strides', unit: 'B', kind: 'bytes-list', default: [64, 128], min: 4, max: 1 << 30, maxItems: 4, description: 'One curve per stride.' },
  { name: 'sizeFrom', label: 'Smallest array', unit: 'B', kind: 'bytes', default: 1024, min: 4, max: 2 ** 34, description: 'First array size N.' },
  { name: 'sizeTo', label: 'Largest array', unit: 'B', kind: 'bytes', default: 32768, min: 4, max: 2 ** 34, description: 'Last array size N (inclusive).' },
  { name: 'sizeStep', label: 'Size step', unit: 'B', kind: 'bytes', default: 256, min: 4, max: 2 ** 34, description: 'Increment of N.' },
  { name: 'traversals', label: 'Timed traversals', unit: '', kind: 'integer', default: 2, min: 1, max: 64, description: 'Timed passes over the array.' },
  { name: 'counts', label: 'Element counts', unit: '', kind: 'integer-list', default: [16, 17], min: 1, max: 4096, maxItems: 8, description: 'One curve per count.' },
  { name: 'jitter', label: 'Measurement jitter', unit: 'cycles', kind: 'number', default: 0, min: 0, max: 50, description: 'Seeded noise added to every access.' },
  { name: 'warmup', label: 'Warm-up traversal', unit: '', kind: 'boolean', default: false, description: 'Run one untimed traversal first.' },
];

const EXPERIMENTS: ExperimentInfo[] = [
  { id: 'sweep', title: 'Sweep experiment', description: 'An experiment with every kind of parameter.', reproduces: ['MEI-T3', 'WONG-F10..F12'], params: SPECS },
  {
    id: 'other',
    title: 'Other experiment',
    description: 'A second one.',
    reproduces: ['MEI-T3'],
    // MEI-T3's paper values sit beside runs of this experiment with k = 20 and k = 30 on Fermi, and with the defaults on Kepler.
    rows: [
      {
        id: 'MEI-T3',
        paper: 'MEI',
        title: 'Global memory latency by access pattern',
        presets: ['fermi', 'kepler'],
        plans: [
          { preset: 'fermi', named: true, params: [{ k: 20 }, { k: 30 }] },
          { preset: 'kepler', named: false, params: [{}] },
        ],
      },
    ],
    params: [{ name: 'k', label: 'Accesses', unit: '', kind: 'integer', default: 10, min: 1, max: 100, description: 'How many.' }],
  },
];

const PRESETS: PresetSummary[] = [
  { id: 'tesla', name: 'Tesla', device: 'GeForce GTX 280', generation: 'Tesla', builtin: true, updatedAt: null },
  { id: 'fermi', name: 'Fermi', device: 'GeForce GTX 560 Ti', generation: 'Fermi', builtin: true, updatedAt: null },
  { id: 'kepler', name: 'Kepler', device: 'GeForce GTX 780', generation: 'Kepler', builtin: true, updatedAt: null },
  { id: 'my-gpu', name: 'My GPU', device: 'edited Fermi', generation: 'Fermi', builtin: false, updatedAt: 1 },
] satisfies PresetSummary[];

class FakeLabError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

interface Fake {
  lab: LabApi;
  start: ReturnType<typeof vi.fn>;
}

type CheckFn = (args: { preset: string; params: Record<string, unknown> }) => Promise<{ ok: true; estimate: number } | { ok: false; param: string | null; message: string }>;

function fakeLab(start?: (args: { preset: string }) => Promise<{ runId: string }>, check?: CheckFn): Fake {
  let n = 0;
  const startFn = vi.fn(start ?? (async () => ({ runId: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}` })));
  const lab = {
    runs: {
      start: startFn,
      check: vi.fn(check ?? (async () => ({ ok: true, estimate: 1 }))),
      list: vi.fn(async () => ({ total: 0, items: [] })),
      get: vi.fn(),
      cancel: vi.fn(),
      update: vi.fn(),
      delete: vi.fn(),
    },
    presets: { list: vi.fn(async () => PRESETS), get: vi.fn(), saveCustom: vi.fn(), deleteCustom: vi.fn() },
    experiments: { list: vi.fn(async () => EXPERIMENTS) },
    on: vi.fn(() => () => {}),
  } as unknown as LabApi;
  return { lab, start: startFn };
}

const Stub = defineComponent({ template: '<div>elsewhere</div>' });

let pinia: Pinia;
let router: Router;
let wrapper: VueWrapper | null = null;

async function mountBuilder(fake: Fake, path = '/experiments'): Promise<VueWrapper> {
  setLab(fake.lab);
  router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/experiments', component: ExperimentsView },
      { path: '/runs/:id', component: Stub },
      { path: '/queue', component: Stub },
    ],
  });
  await router.push(path);
  await router.isReady();
  wrapper = mount(ExperimentsView, { global: { plugins: [pinia, router] }, attachTo: document.body });
  await flushPromises();
  return wrapper;
}

const field = (w: VueWrapper, name: string) => w.get(`[data-testid="param-${name}"]`);
const input = (w: VueWrapper, name: string) => field(w, name).get('input, select');

beforeEach(() => {
  pinia = createPinia();
  setActivePinia(pinia);
  resetBuilderDraft();
});
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
  setLab(null);
});

describe('parameter logic (composables/params.ts)', () => {
  it('parses and formats sizes as src-sim does', () => {
    for (const text of ['4096', '4KB', '4 kb', '2MB', '1.5GB', '64B', '12 KiB', 'x', '4XB', '', '-1']) {
      const mine = parseBytes(text);
      // src-sim's parseBytes through resolveParams: a bytes spec with a wide range.
      const spec: ParamSpec = { name: 'n', label: 'N', unit: 'B', kind: 'bytes', default: 4, min: 0, max: 2 ** 40, description: '' };
      let sim: number;
      try {
        sim = resolveParams([spec], { n: text }).n as number;
      } catch {
        sim = NaN;
      }
      expect(Number.isNaN(mine) ? NaN : mine, text).toEqual(Number.isNaN(sim) ? NaN : sim);
    }
    expect(formatBytes(4096)).toBe('4 KB');
    expect(formatBytes(2 * 1024 ** 2)).toBe('2 MB');
    expect(formatBytes(100)).toBe('100 B');
  });

  it('gives the messages resolveParams gives, without the parameter prefix', () => {
    const cases: [string, string][] = [
      ['traversals', 'abc'],
      ['traversals', ''],
      ['traversals', '2.5'],
      ['traversals', '100'],
      ['traversals', '0'],
      ['jitter', '60'],
      ['jitter', 'n/a'],
      ['sizeFrom', '4XB'],
      ['sizeFrom', '2'],
      ['sizeFrom', '32GB'],
      ['strides', '64, 128, 256, 512, 1024'],
      ['strides', ''],
      ['strides', '64, 2'],
      ['counts', '16, x'],
      ['counts', '16, 5000'],
      ['space', 'shared'],
    ];
    for (const [name, text] of cases) {
      const spec = SPECS.find((s) => s.name === name)!;
      const mine = checkField(spec, text);
      expect(mine.ok, `${name}=${text}`).toBe(false);
      let simMessage = '';
      try {
        resolveParams(SPECS, { [name]: text });
      } catch (e) {
        simMessage = (e as Error).message;
      }
      expect(simMessage, `${name}=${text}`).toBe(`parameter "${name}" ${(mine as { error: string }).error}`);
    }
  });

  it('resolves valid text to the values resolveParams returns', () => {
    const raw: Record<string, string | boolean> = { space: 'texture', strides: '64B, 4KB', sizeFrom: '2KB', sizeTo: '1MB', sizeStep: '512', traversals: '3', counts: '4, 5', jitter: '1.5', warmup: true };
    const mine: Record<string, unknown> = {};
    for (const spec of SPECS) {
      const c = checkField(spec, raw[spec.name]!);
      expect(c.ok, spec.name).toBe(true);
      mine[spec.name] = (c as { value: unknown }).value;
    }
    expect(mine).toEqual(resolveParams(SPECS, raw));
    // A value's form text reads back as the same value.
    for (const spec of SPECS) expect(checkField(spec, toFieldValue(spec, spec.default))).toEqual({ ok: true, value: spec.default });
  });

  it('places server messages on the parameter they name', () => {
    expect(placeServerError('runs.start: params.sizeTo: parameter "sizeTo" must not be smaller than "sizeFrom"', SPECS)).toEqual({
      param: 'sizeTo',
      message: 'must not be smaller than "sizeFrom"',
    });
    expect(placeServerError('runs.start: params.strides.1: must be a number', SPECS)).toEqual({ param: 'strides', message: 'must be a number' });
    expect(placeServerError('sizeStep: the sweep has 9000 sizes; at most 4000 (raise "sizeStep")', SPECS).param).toBe('sizeStep');
    expect(placeServerError('parameter "jitter" is 99; allowed: 0 to 50 cycles', SPECS)).toEqual({ param: 'jitter', message: 'is 99; allowed: 0 to 50 cycles' });
    expect(placeServerError('runs.start: the preset "zz" does not exist', SPECS).param).toBeNull();
    expect(placeServerError('runs.start: params.bogus: unknown', SPECS).param).toBeNull();
  });

  it('estimates the sweep points, or nothing without a sweep', () => {
    const values = resolveParams(SPECS, {});
    // (32768 - 1024) / 256 + 1 = 125 sizes, times 2 strides (the first list).
    expect(estimateWork(SPECS, values)).toEqual({ points: 250, detail: '125 sizes × 2 curves (strides)' });
    expect(estimateWork(EXPERIMENTS[1]!.params, { k: 10 })).toBeNull();
    expect(estimateWork(SPECS, { ...values, sizeStep: 0 })).toBeNull();
  });

  it('makes one template per reproduced row and reads the prefill query', () => {
    const t = rowTemplates(EXPERIMENTS, PRESETS);
    expect(t.map((x) => x.row)).toEqual(['MEI-T3', 'WONG-F10..F12']);
    // MEI-T3's paper values name the findings of 'other' (its plans): 'sweep', which also lists the row, is left out.
    expect(t[0]!.experiments.map((e) => e.id)).toEqual(['other']);
    expect(t[0]!.presets).toEqual(['fermi', 'kepler']);
    expect(t[1]!.presets).toEqual(['tesla']);
    expect(describeRow('WONG-F10..F12')).toMatchObject({ paper: 'Wong et al. 2010', figure: 'Figs 10–12' });
    expect(describeRow('MEI-F10/F11').figure).toBe('Figs 10/11');
    // Without the row from experiments.list, the figure is the title.
    expect(t[0]!.title).toBe('Table 3');
    // With it: the row's title and the GPUs the paper measured; an id naming no figure has no figure label.
    const withRows: ExperimentInfo[] = [
      {
        ...EXPERIMENTS[0]!,
        reproduces: ['MEI-K512', 'MEI-T3'],
        rows: [
          { id: 'MEI-K512', paper: 'MEI', title: 'Kepler page-table activation window', presets: ['kepler'] },
          { id: 'MEI-T3', paper: 'MEI', title: 'Global memory latency by access pattern', presets: ['fermi', 'kepler'] },
        ],
      },
    ];
    const named = rowTemplates(withRows, PRESETS);
    expect(named.map((x) => [x.row, x.figure, x.title, x.presets])).toEqual([
      ['MEI-K512', '', 'Kepler page-table activation window', ['kepler']],
      ['MEI-T3', 'Table 3', 'Global memory latency by access pattern', ['fermi', 'kepler']],
    ]);
    expect(readPrefill({ experiment: 'sweep', preset: 'fermi,kepler', params: '{"traversals":4}' })).toEqual({
      experiment: 'sweep',
      presets: ['fermi', 'kepler'],
      params: { traversals: 4 },
      problem: null,
    });
    expect(readPrefill({ params: '{oops' }).problem).toMatch(/not valid JSON/);
  });
});

describe('the builder view', () => {
  it('generates a field for each parameter kind with label, unit, default, range and help', async () => {
    const w = await mountBuilder(fakeLab());
    expect(w.get('#builder-title').text()).toBe('Sweep experiment');

    const space = input(w, 'space');
    expect(space.element.tagName).toBe('SELECT');
    expect(space.findAll('option').map((o) => o.text())).toEqual(['global', 'texture', 'constant']);
    expect((space.element as HTMLSelectElement).value).toBe('global');

    const warmup = input(w, 'warmup');
    expect(warmup.attributes('type')).toBe('checkbox');
    expect((warmup.element as HTMLInputElement).checked).toBe(false);

    for (const name of ['strides', 'sizeFrom', 'traversals', 'counts', 'jitter']) expect(input(w, name).attributes('type'), name).toBe('text');
    expect((input(w, 'strides').element as HTMLInputElement).value).toBe('64 B, 128 B');
    expect((input(w, 'sizeFrom').element as HTMLInputElement).value).toBe('1 KB');
    expect((input(w, 'counts').element as HTMLInputElement).value).toBe('16, 17');

    const traversals = field(w, 'traversals').text();
    expect(traversals).toContain('Timed traversals');
    expect(traversals).toContain('default 2');
    expect(traversals).toContain('1 to 64');
    expect(traversals).toContain('Timed passes over the array.');
    const jitter = field(w, 'jitter').text();
    expect(jitter).toContain('(cycles)');
    expect(jitter).toContain('0 to 50 cycles');
    expect(field(w, 'sizeTo').text()).toContain('4 B to 16 GB');
    expect(field(w, 'sizeFrom').text()).toContain('= 1,024 B');

    // The catalogue and the gallery.
    expect(w.get('[data-testid="experiment-other"]').text()).toContain('A second one.');
    expect(w.find('[data-testid="gallery"]').exists()).toBe(false);
    await w.get('[data-testid="tab-gallery"]').trigger('click');
    expect(w.get('[data-testid="template-MEI-T3"]').text()).toContain('Mei et al. 2014 · Table 3');
    await w.get('[data-testid="tab-build"]').trigger('click');
    // The estimate for the defaults, on the one default preset.
    expect(w.get('[data-testid="estimate"]').text()).toContain('250 points per GPU');
    // The first built-in preset is chosen; custom presets are offered too.
    expect((w.get('[data-testid="preset-tesla"] input').element as HTMLInputElement).checked).toBe(true);
    expect(w.get('[data-testid="preset-my-gpu"]').text()).toContain('My GPU');
  });

  it('shows messages while the user types and will not run until they are fixed', async () => {
    const fake = fakeLab();
    const w = await mountBuilder(fake);
    await input(w, 'traversals').setValue('abc');
    expect(field(w, 'traversals').get('[data-testid="param-error"]').text()).toBe('must be a number (1 to 64)');
    await input(w, 'traversals').setValue('100');
    expect(field(w, 'traversals').get('[data-testid="param-error"]').text()).toBe('is 100; allowed: 1 to 64');
    expect(input(w, 'traversals').attributes('aria-invalid')).toBe('true');

    await input(w, 'sizeFrom').setValue('4KB');
    expect(field(w, 'sizeFrom').get('[data-testid="parsed"]').text()).toContain('4,096 B');
    await input(w, 'sizeFrom').setValue('4XB');
    expect(field(w, 'sizeFrom').get('[data-testid="param-error"]').text()).toBe('must be a size such as 4096, 4KB or 2MB (4 B to 16 GB)');
    await input(w, 'strides').setValue('64, 128, 256, 512, 1024');
    expect(field(w, 'strides').get('[data-testid="param-error"]').text()).toBe('has 5 values; at most 4');

    expect(w.get('[data-testid="run"]').attributes('disabled')).toBeDefined();
    expect(w.get('[data-testid="estimate"]').text()).toContain('—');
    await w.get('[data-testid="builder-form"]').trigger('submit');
    await flushPromises();
    expect(fake.start).not.toHaveBeenCalled();

    // Reset brings the defaults back and clears every message.
    await w.get('[data-testid="reset"]').trigger('click');
    expect(w.findAll('[data-testid="param-error"]')).toHaveLength(0);
    expect((input(w, 'traversals').element as HTMLInputElement).value).toBe('2');
    expect(w.get('[data-testid="run"]').attributes('disabled')).toBeUndefined();
  });

  it('runs on every chosen preset when Enter is pressed, with resolved parameters', async () => {
    const fake = fakeLab();
    const w = await mountBuilder(fake);
    await w.get('[data-testid="preset-tesla"] input').setValue(false);
    await w.get('[data-testid="preset-fermi"] input').setValue(true);
    await w.get('[data-testid="preset-kepler"] input').setValue(true);
    await input(w, 'sizeTo').setValue('64KB');
    await input(w, 'strides').setValue('4KB, 256');
    await input(w, 'warmup').setValue(true);
    await input(w, 'space').setValue('texture');
    expect(w.get('[data-testid="run"]').text()).toBe('Run on 2 GPUs');
    expect(w.get('[data-testid="estimate"]').text()).toContain('253 sizes × 2 curves (strides)');
    expect(w.get('[data-testid="estimate"]').text()).toContain('1,012 points on 2 GPUs');

    await input(w, 'sizeTo').trigger('keydown', { key: 'Enter' });
    await flushPromises();

    expect(fake.start).toHaveBeenCalledTimes(2);
    const params = { space: 'texture', strides: [4096, 256], sizeFrom: 1024, sizeTo: 65536, sizeStep: 256, traversals: 2, counts: [16, 17], jitter: 0, warmup: true };
    expect(fake.start.mock.calls[0]![0]).toEqual({ experiment: 'sweep', preset: 'fermi', params, seed: 1 });
    expect(fake.start.mock.calls[1]![0]).toEqual({ experiment: 'sweep', preset: 'kepler', params, seed: 1 });
    // Links to the queued runs.
    const links = w.get('[data-testid="started"]');
    expect(links.get('[data-testid="started-fermi"]').attributes('href')).toBe('/runs/00000000-0000-4000-8000-000000000001');
    expect(links.get('[data-testid="started-kepler"]').attributes('href')).toBe('/runs/00000000-0000-4000-8000-000000000002');
    // The notice leads to them: two runs, to the queue.
    expect(useNotify().notices.find((n) => n.text.includes('Queued 2 runs'))?.link).toEqual({ to: '/queue', label: 'See them in the queue' });
  });

  it('asks for a preset when none is chosen', async () => {
    const fake = fakeLab();
    const w = await mountBuilder(fake);
    await w.get('[data-testid="preset-tesla"] input').setValue(false);
    await w.get('[data-testid="builder-form"]').trigger('submit');
    await flushPromises();
    expect(fake.start).not.toHaveBeenCalled();
    expect(w.get('[data-testid="preset-error"]').text()).toBe('Choose at least one GPU.');
  });

  it("shows the server's message beside the parameter it names, and others as a notice", async () => {
    const fake = fakeLab(async (a) => {
      if (a.preset === 'tesla') throw new FakeLabError('invalid-args', 'runs.start: params.sizeTo: parameter "sizeTo" must not be smaller than "sizeFrom"');
      throw new FakeLabError('not-found', 'no preset "kepler"');
    });
    const w = await mountBuilder(fake);
    await w.get('[data-testid="builder-form"]').trigger('submit');
    await flushPromises();
    expect(fake.start).toHaveBeenCalledTimes(1);
    expect(field(w, 'sizeTo').get('[data-testid="param-error"]').text()).toBe('must not be smaller than "sizeFrom"');
    expect(input(w, 'sizeTo').attributes('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(input(w, 'sizeTo').element);
    // Changing the field clears the server's message.
    await input(w, 'sizeTo').setValue('64KB');
    expect(field(w, 'sizeTo').find('[data-testid="param-error"]').exists()).toBe(false);

    // A message naming no parameter goes to the notices, in words.
    await w.get('[data-testid="preset-tesla"] input').setValue(false);
    await w.get('[data-testid="preset-kepler"] input').setValue(true);
    await w.get('[data-testid="builder-form"]').trigger('submit');
    await flushPromises();
    expect(useNotify().notices.at(-1)!.text).toBe('Could not start Sweep experiment on Kepler: no preset "kepler"');
    expect(w.findAll('[data-testid="param-error"]')).toHaveLength(0);
  });

  it('prefills from the route query (duplicate into builder) and clears the query', async () => {
    const fake = fakeLab();
    const params = encodeURIComponent(JSON.stringify({ sizeFrom: 2048, strides: [256], warmup: true, space: 'constant' }));
    const w = await mountBuilder(fake, `/experiments?experiment=sweep&preset=kepler,my-gpu&params=${params}`);
    expect((input(w, 'sizeFrom').element as HTMLInputElement).value).toBe('2 KB');
    expect((input(w, 'strides').element as HTMLInputElement).value).toBe('256 B');
    expect((input(w, 'warmup').element as HTMLInputElement).checked).toBe(true);
    expect((input(w, 'space').element as HTMLSelectElement).value).toBe('constant');
    expect((w.get('[data-testid="preset-kepler"] input').element as HTMLInputElement).checked).toBe(true);
    expect((w.get('[data-testid="preset-my-gpu"] input').element as HTMLInputElement).checked).toBe(true);
    expect((w.get('[data-testid="preset-tesla"] input').element as HTMLInputElement).checked).toBe(false);
    expect(router.currentRoute.value.query).toEqual({});

    await router.push('/experiments?experiment=other');
    await flushPromises();
    expect(w.get('#builder-title').text()).toBe('Other experiment');
    expect((input(w, 'k').element as HTMLInputElement).value).toBe('10');
  });

  it("runs a gallery template as its row does: the row's runs on the paper GPUs, tagged with the row", async () => {
    const fake = fakeLab();
    const w = await mountBuilder(fake);
    await w.get('[data-testid="tab-gallery"]').trigger('click');
    expect(w.get('[data-testid="template-MEI-T3"] [data-testid="template-settings"]').text()).toContain("the row's settings, 3 runs");
    await w.get('[data-testid="template-run-MEI-T3-other"]').trigger('click');
    await flushPromises();
    // Each run titled for the row and its GPU, and where one GPU has several, for the parameters that differ.
    expect(fake.start.mock.calls.map((c) => c[0])).toEqual([
      { experiment: 'other', preset: 'fermi', params: { k: 20 }, seed: 1, tags: ['MEI-T3'], title: 'MEI-T3: Other experiment on Fermi (k=20)' },
      { experiment: 'other', preset: 'fermi', params: { k: 30 }, seed: 1, tags: ['MEI-T3'], title: 'MEI-T3: Other experiment on Fermi (k=30)' },
      { experiment: 'other', preset: 'kepler', params: {}, seed: 1, tags: ['MEI-T3'], title: 'MEI-T3: Other experiment on Kepler' },
    ]);
    // The builder holds the row's first run's settings and its tag; links to the three runs.
    expect((w.get('#run-tags').element as HTMLInputElement).value).toBe('MEI-T3');
    expect(w.get('#builder-title').text()).toBe('Other experiment');
    expect((input(w, 'k').element as HTMLInputElement).value).toBe('20');
    expect(w.get('[data-testid="tab-build"]').attributes('aria-selected')).toBe('true');
    expect(w.findAll('[data-testid="started"] a[href^="/runs/"]')).toHaveLength(3);
  });

  it('keeps the experiment, GPUs, parameters, seed and tags across navigation and reloads', async () => {
    const fake = fakeLab();
    let w = await mountBuilder(fake);
    await router.push('/experiments?experiment=other');
    await flushPromises();
    await input(w, 'k').setValue('42');
    await w.get('[data-testid="preset-kepler"] input').setValue(true);
    await w.get('#run-seed').setValue('7');
    await flushPromises();
    // Away to another view and back: the builder comes back as it was left.
    w.unmount();
    wrapper = null;
    w = await mountBuilder(fake);
    expect(w.get('#builder-title').text()).toBe('Other experiment');
    expect((input(w, 'k').element as HTMLInputElement).value).toBe('42');
    expect((w.get('[data-testid="preset-kepler"] input').element as HTMLInputElement).checked).toBe(true);
    expect((w.get('#run-seed').element as HTMLInputElement).value).toBe('7');
    // A reload reads the same state from the browser's storage.
    expect(loadStoredDraft()).toMatchObject({ experiment: 'other', fields: { k: '42' }, seed: '7' });
    expect(loadStoredDraft()?.presets).toContain('kepler');
    // A stored experiment the catalogue no longer has is ignored: the first experiment, as on a first visit.
    builderDraft.experiment = 'gone';
    w.unmount();
    wrapper = null;
    w = await mountBuilder(fake);
    expect(w.get('#builder-title').text()).toBe('Sweep experiment');
  });

  it('checks the whole form as the user types: a refused run turns Run off, with the reason in the form\'s words', async () => {
    vi.useFakeTimers();
    try {
      // As runs.start would refuse it: the sweep's end before its start, on one GPU; too much work on another.
      const fake = fakeLab(undefined, async ({ preset, params }) => {
        if ((params.sizeTo as number) < (params.sizeFrom as number)) return { ok: false, param: 'sizeTo', message: 'must not be smaller than "sizeFrom"' };
        if (preset === 'kepler') return { ok: false, param: 'sizeStep', message: 'the sweep has 9000 sizes; at most 4000 (raise "sizeStep")' };
        return { ok: true, estimate: 100 };
      });
      const w = await mountBuilder(fake);
      await input(w, 'sizeTo').setValue('512');
      await vi.advanceTimersByTimeAsync(400);
      await flushPromises();
      expect(w.get('[data-testid="run"]').attributes('disabled')).toBeDefined();
      expect(w.get('[data-testid="run-refused"]').text()).toBe('Run is off: Largest array: must not be smaller than “Smallest array”');
      // Shown beside the field too.
      expect(field(w, 'sizeTo').text()).toContain('must not be smaller than “Smallest array”');
      await input(w, 'sizeTo').setValue('32768');
      await vi.advanceTimersByTimeAsync(400);
      await flushPromises();
      expect(w.find('[data-testid="run-refused"]').exists()).toBe(false);
      expect(w.get('[data-testid="run"]').attributes('disabled')).toBeUndefined();
      // A refusal on one of several GPUs names it.
      await w.get('[data-testid="preset-kepler"] input').setValue(true);
      await vi.advanceTimersByTimeAsync(400);
      await flushPromises();
      expect(w.get('[data-testid="run-refused"]').text()).toBe('Run is off: Size step: the sweep has 9000 sizes; at most 4000 (raise “Size step”) (Kepler)');
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows the expected duration beside Run for a long run, from the lab\'s finished runs', async () => {
    vi.useFakeTimers();
    try {
      const fake = fakeLab(undefined, async ({ preset }) => ({ ok: true, estimate: 1e9, seconds: preset === 'tesla' ? 150 : 3 }) as never);
      const w = await mountBuilder(fake);
      await vi.advanceTimersByTimeAsync(400);
      await flushPromises();
      // The default GPU (Tesla): 150 s.
      expect(w.get('[data-testid="run-duration"]').text()).toBe('· about 3 min on this machine');
      await w.get('[data-testid="preset-tesla"] input').setValue(false);
      await w.get('[data-testid="preset-fermi"] input').setValue(true);
      await vi.advanceTimersByTimeAsync(400);
      await flushPromises();
      // A short run says nothing.
      expect(w.find('[data-testid="run-duration"]').exists()).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a skip link takes the keyboard past the catalogue to the first parameter', async () => {
    const w = await mountBuilder(fakeLab());
    await w.get('[data-testid="skip-to-parameters"]').trigger('click');
    const first = w.get('[data-testid="builder-form"]').find('input, select, textarea');
    expect(document.activeElement).toBe(first.element);
  });

  it('the figures can be searched by paper, row, GPU or experiment', async () => {
    const fake = fakeLab();
    const w = await mountBuilder(fake);
    await w.get('[data-testid="tab-gallery"]').trigger('click');
    const shown = () => w.findAll('[data-testid^="template-"][class~="card"]').map((c) => c.attributes('data-testid'));
    expect(shown()).toEqual(['template-MEI-T3', 'template-WONG-F10..F12']);
    expect(w.get('[data-testid="template-count"]').text()).toBe('2 figures');
    await w.get('[data-testid="template-search"]').setValue('wong');
    expect(shown()).toEqual(['template-WONG-F10..F12']);
    expect(w.get('[data-testid="template-count"]').text()).toBe('1 of 2 figures');
    // Every word must match: the row's experiment and one of its GPUs.
    await w.get('[data-testid="template-search"]').setValue('other kepler');
    expect(shown()).toEqual(['template-MEI-T3']);
    await w.get('[data-testid="template-search"]').setValue('texture cache of 1999');
    expect(shown()).toEqual([]);
    expect(w.get('[data-testid="template-none"]').text()).toContain('texture cache of 1999');
  });

  it('a title and tags typed for one experiment are not carried to another', async () => {
    const fake = fakeLab();
    const w = await mountBuilder(fake);
    await w.get('[data-testid="experiment-sweep"]').trigger('click');
    await w.get('#run-title').setValue('Fermi L1, lab 1');
    await w.get('#run-tags').setValue('fermi, lab1');
    // The same experiment again keeps them; another clears both.
    await w.get('[data-testid="experiment-sweep"]').trigger('click');
    expect((w.get('#run-tags').element as HTMLInputElement).value).toBe('fermi, lab1');
    await w.get('[data-testid="experiment-other"]').trigger('click');
    await flushPromises();
    expect((w.get('#run-title').element as HTMLInputElement).value).toBe('');
    expect((w.get('#run-tags').element as HTMLInputElement).value).toBe('');
  });

  it('a template whose row names no parameters runs the defaults, and says so', async () => {
    const fake = fakeLab();
    const w = await mountBuilder(fake);
    await w.get('[data-testid="tab-gallery"]').trigger('click');
    expect(w.get('[data-testid="template-WONG-F10..F12"] [data-testid="template-settings"]').text()).toContain('default parameters, 1 run');
    await w.get('[data-testid="template-run-WONG-F10..F12-sweep"]').trigger('click');
    await flushPromises();
    expect(fake.start.mock.calls.map((c) => c[0])).toEqual([{ experiment: 'sweep', preset: 'tesla', params: {}, seed: 1, tags: ['WONG-F10..F12'], title: expect.stringMatching(/^WONG-F10\.\.F12: .* on Tesla/) }]);
  });

  it('says once when every preset refused a parameter for the same reason', async () => {
    const fake = fakeLab(async () => {
      throw new FakeLabError('invalid-args', 'runs.start: params.sizeStep: the sweep has 9000 sizes; at most 4000 (raise "sizeStep")');
    });
    const w = await mountBuilder(fake);
    await w.get('[data-testid="preset-fermi"] input').setValue(true);
    await w.get('[data-testid="builder-form"]').trigger('submit');
    await flushPromises();
    expect(fake.start).toHaveBeenCalledTimes(2);
    expect(field(w, 'sizeStep').get('[data-testid="param-error"]').text()).toBe('the sweep has 9000 sizes; at most 4000 (raise "sizeStep")');
    expect(w.get('[data-testid="started"]').text()).toContain('Not started');
    expect(useNotify().notices).toHaveLength(0);
  });
});
