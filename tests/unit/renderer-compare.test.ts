// @vitest-environment happy-dom
/**
 * The compare, reports and scorecard views (src-renderer/src/views/CompareView.vue, ReportsView.vue,
 * ScorecardView.vue, components/Compare*.vue, Report*.vue, composables/compare.ts, download.ts,
 * scorecard.ts) against a fake LabApi: series of several runs overlaid (one chart per kind of
 * axes, a colour per run, legend "preset · series", units and log x), the findings side by side with
 * differences, mixed experiments refused, saving and exporting a comparison as a download, the
 * reports' run picker, and the scorecard's counts, checks and "Open as run".
 */
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import * as echarts from 'echarts';
import type { LineSeriesOption } from 'echarts';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defineComponent } from 'vue';
import { createMemoryHistory, createRouter, type Router } from 'vue-router';
import type { Comparison, ExperimentInfo, FileResult, LabApi, PresetSummary, RunDetail, StoredSeries } from '../../src-main/contract';
import { LabError } from '../../src-main/contract';
import type { Finding } from '../../src-sim/experiments/types';
import { fermi } from '../../src-sim/presets/fermi';
import { kepler } from '../../src-sim/presets/kepler';
import type { RowResult } from '../../src-sim/reference/types';
import { setLab } from '../../src-renderer/src/api';
import { compareDraft } from '../../src-renderer/src/composables/builderdraft';
import MChart from '../../src-renderer/src/components/MChart.vue';
import { compareCharts, compareFindings, findingDiff, mixedExperiments, runColumns } from '../../src-renderer/src/composables/compare';
import { safeFileName } from '../../src-renderer/src/composables/download';
import { lastScore, rowSource } from '../../src-renderer/src/composables/scorecard';
import CompareView from '../../src-renderer/src/views/CompareView.vue';
import ReportsView from '../../src-renderer/src/views/ReportsView.vue';
import ScorecardView from '../../src-renderer/src/views/ScorecardView.vue';

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const CMP = '11111111-0000-4000-8000-000000000001';

const PRESETS: PresetSummary[] = [
  { id: 'fermi', name: 'Fermi', device: 'GeForce GTX 560 Ti', generation: 'Fermi', builtin: true, updatedAt: null },
  { id: 'kepler', name: 'Kepler', device: 'GeForce GTX 780', generation: 'Kepler', builtin: true, updatedAt: null },
];
const EXPERIMENTS: ExperimentInfo[] = [
  { id: 'pchase-average', title: 'Average P-chase', description: 'd', reproduces: [], params: [] },
  { id: 'pchase-fine', title: 'Fine-grained P-chase', description: 'd', reproduces: [], params: [] },
];

function series(name: string, xs: number[], ys: number[], over: Partial<StoredSeries> = {}): StoredSeries {
  return { name, x: Float64Array.from(xs), y: Float64Array.from(ys), xLabel: 'Array size', xUnit: 'B', yLabel: 'Average latency', yUnit: 'cycles', ...over };
}
const finding = (key: string, label: string, value: number | string, unit: string): Finding => ({ key, label, value, unit, evidence: 'the step in the curve' });

function detail(n: number, over: Partial<RunDetail> & { findings?: Finding[]; series?: StoredSeries[] } = {}): RunDetail {
  const onKepler = over.presetId === 'kepler';
  const { findings, series: s, ...rest } = over;
  return {
    id: uuid(n),
    experiment: 'pchase-average',
    title: `Run ${n}`,
    presetId: 'fermi',
    presetName: 'Fermi',
    seed: 1,
    simVersion: '1',
    status: 'done',
    error: null,
    createdAt: Date.UTC(2026, 0, 1) + n * 60_000,
    startedAt: null,
    finishedAt: null,
    durationMs: 120,
    tags: [],
    notes: '',
    preset: onKepler ? kepler : fermi,
    params: {},
    result: {
      series: s ?? [series('stride 128 B', [1024, 2048, 4096], [100, 110, 300]), series('stride 256 B', [1024, 2048, 4096], [100, 100, 120])],
      tables: [],
      findings: findings ?? [finding('l1.sizeBytes', 'L1 size', 16384, 'B'), finding('l1.hitLatency', 'L1 hit latency', 116, 'cycles'), finding('l1.policy', 'Replacement', 'non-LRU', '')],
      notes: [],
    },
    ...rest,
  };
}

function fakeLab(runs: RunDetail[], extra: Record<string, unknown> = {}) {
  const saved = new Map<string, Comparison>();
  const file = (fileName: string, mimeType: string): FileResult => ({ fileName, mimeType, bytes: new TextEncoder().encode('x,y\n1,2\n') });
  const lab = {
    runs: {
      get: vi.fn(async ({ id }: { id: string }) => {
        const r = runs.find((x) => x.id === id);
        if (!r) throw new LabError('not-found', `no run with id "${id}"`);
        return r;
      }),
      list: vi.fn(async (q: { text?: string } = {}) => {
        const items = runs.filter((r) => !q.text || r.title.toLowerCase().includes(q.text.toLowerCase()));
        return { total: items.length, items };
      }),
      start: vi.fn(async () => ({ runId: uuid(999) })),
    },
    comparisons: {
      save: vi.fn(async (a: { id?: string; name: string; notes?: string; runIds: string[] }) => {
        const c: Comparison = { id: a.id ?? CMP, name: a.name, notes: a.notes ?? '', runIds: a.runIds, createdAt: 1, updatedAt: 2 };
        saved.set(c.id, c);
        return c;
      }),
      list: vi.fn(async () => [...saved.values()].map((c) => ({ id: c.id, name: c.name, notes: c.notes, runCount: c.runIds.length, createdAt: c.createdAt, updatedAt: c.updatedAt }))),
      get: vi.fn(async ({ id }: { id: string }) => {
        const c = saved.get(id);
        if (!c) throw new LabError('not-found', 'no comparison');
        return c;
      }),
      delete: vi.fn(async ({ id }: { id: string }) => ({ deleted: saved.delete(id) })),
    },
    exports: {
      csv: vi.fn(async () => file('runs.csv', 'text/csv')),
      pdf: vi.fn(async () => file('../report.pdf', 'application/pdf')),
    },
    presets: { list: vi.fn(async () => PRESETS) },
    experiments: { list: vi.fn(async () => EXPERIMENTS) },
    on: vi.fn(() => () => {}),
    ...extra,
  };
  return { lab: lab as unknown as LabApi, calls: lab, saved };
}

const Stub = defineComponent({ template: '<div>elsewhere</div>' });
let pinia: Pinia;
let router: Router;
let wrapper: VueWrapper | null = null;
let downloads: { name: string; href: string }[] = [];

async function mountView(component: unknown, lab: LabApi, path: string): Promise<VueWrapper> {
  setLab(lab);
  router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/compare', component: Stub },
      { path: '/reports', component: Stub },
      { path: '/scorecard', component: Stub },
      { path: '/runs', component: Stub },
      { path: '/runs/:id', component: Stub },
      { path: '/experiments', component: Stub },
    ],
  });
  await router.push(path);
  await router.isReady();
  // MChart is stubbed: the tests read the option it is given (ECharts itself is not under test here).
  wrapper = mount(component as Parameters<typeof mount>[0], { global: { plugins: [pinia, router], stubs: { MChart: true } }, attachTo: document.body } as never);
  await flushPromises();
  return wrapper;
}

beforeEach(() => {
  pinia = createPinia();
  setActivePinia(pinia);
  compareDraft.query = null;
  compareDraft.picked = [];
  downloads = [];
  URL.createObjectURL = vi.fn(() => 'blob:fake');
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push({ name: this.download, href: this.getAttribute('href') ?? '' });
  });
});
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
  setLab(null);
  vi.restoreAllMocks();
});

describe('overlaying runs', () => {
  it('draws one chart per kind of axes with every run\'s series, a colour per run and units on the axes', () => {
    const a = detail(1, { series: [series('stride 128 B', [1024, 2048], [100, 300], { logX: true }), series('stride 256 B', [1024, 2048], [100, 120]), series('trace', [0, 1, 2], [116, 116, 404], { xLabel: 'Access', xUnit: '', yLabel: 'Latency', yUnit: 'cycles', style: 'scatter' })] });
    const b = detail(2, { presetId: 'kepler', presetName: 'Kepler', series: [series('stride 128 B', [1024, 2048], [200, 220], { logX: true })] });
    const cols = runColumns([a, b]);
    expect(cols.map((c) => c.label)).toEqual(['Fermi', 'Kepler']);
    expect(cols[0]!.color).not.toBe(cols[1]!.color);
    const charts = compareCharts([
      { column: cols[0]!, series: a.result!.series },
      { column: cols[1]!, series: b.result!.series },
    ]);
    expect(charts.map((c) => c.seriesCount)).toEqual([3, 1]);
    const [latency, trace] = charts;
    expect(latency!.xName).toBe('Array size (B)');
    expect(latency!.yName).toBe('Average latency (cycles)');
    expect(latency!.logX).toBe(true);
    const s = latency!.option.series as LineSeriesOption[];
    expect(s.map((x) => x.name)).toEqual(['Fermi · stride 128 B', 'Fermi · stride 256 B', 'Kepler · stride 128 B']);
    expect(s.map((x) => (x.lineStyle as { color: string }).color)).toEqual([cols[0]!.color, cols[0]!.color, cols[1]!.color]);
    expect((s[0]!.lineStyle as { type: string }).type).not.toBe((s[1]!.lineStyle as { type: string }).type);
    expect(s[2]!.data).toEqual([
      [1024, 200],
      [2048, 220],
    ]);
    const xAxis = latency!.option.xAxis as { type: string; logBase: number; name: string };
    expect(xAxis).toMatchObject({ type: 'log', logBase: 2, name: 'Array size (B)' });
    expect(trace!.option.series as { type: string }[]).toEqual([expect.objectContaining({ type: 'scatter', name: 'Fermi · trace' })]);
    expect((trace!.option.xAxis as { type: string }).type).toBe('value');
  });

  it('samples long series and adds a zoom slider; names runs that share a preset apart', () => {
    const n = 5000;
    const xs = Array.from({ length: n }, (_, i) => i);
    const a = detail(1, { series: [series('trace', xs, xs, { xUnit: '', xLabel: 'Access' })] });
    const b = detail(2, { series: [series('trace', xs, xs, { xUnit: '', xLabel: 'Access' })] });
    const cols = runColumns([a, b]);
    expect(cols.map((c) => c.label)).toEqual(['Fermi (1)', 'Fermi (2)']);
    const [chart] = compareCharts(cols.map((c, i) => ({ column: c, series: [a, b][i]!.result!.series })));
    const s = chart!.option.series as LineSeriesOption[];
    expect(s.every((x) => x.sampling === 'lttb' && x.showSymbol === false)).toBe(true);
    expect((chart!.option.dataZoom as { type: string }[]).map((z) => z.type)).toEqual(['inside', 'slider']);
  });

  it('puts findings side by side with the difference from the first run, in units', () => {
    const rows = compareFindings([
      { findings: [finding('l1.sizeBytes', 'L1 size', 16384, 'B'), finding('l1.hitLatency', 'L1 hit', 116, 'cycles'), finding('l1.policy', 'Policy', 'non-LRU', '')] },
      { findings: [finding('l1.sizeBytes', 'L1 size', 49152, 'B'), finding('l1.hitLatency', 'L1 hit', 116, 'cycles'), finding('l1.policy', 'Policy', 'LRU', ''), finding('l2.sizeBytes', 'L2 size', 1572864, 'B')] },
      { findings: [finding('l1.sizeBytes', 'L1 size', 8192, 'B'), finding('l1.hitLatency', 'L1 hit', 92.5, 'cycles')] },
    ]);
    expect(rows.map((r) => r.key)).toEqual(['l1.sizeBytes', 'l1.hitLatency', 'l1.policy', 'l2.sizeBytes']);
    const size = rows[0]!;
    expect(size.cells.map((c) => c.text)).toEqual(['16 KB', '48 KB', '8 KB']);
    expect(size.diffs.map((d) => d.text)).toEqual(['+32 KB (+200 %)', '−8 KB (−50 %)']);
    expect(rows[1]!.diffs.map((d) => [d.text, d.changed])).toEqual([
      ['same', false],
      ['−23.5 cycles (−20.3 %)', true],
    ]);
    expect(rows[2]!.diffs.map((d) => d.text)).toEqual(['differs', '—']);
    expect(rows[3]!.cells.map((c) => c.text)).toEqual(['—', '1.5 MB', '—']);
    expect(findingDiff(finding('k', 'k', 1, 'B'), finding('k', 'k', 2, 'cycles')).text).toContain('units differ');
  });

  it('refuses runs of different experiments with a message naming them', () => {
    expect(mixedExperiments([{ experiment: 'a' }, { experiment: 'a' }])).toBeNull();
    const msg = mixedExperiments([{ experiment: 'pchase-average' }, { experiment: 'pchase-fine' }, { experiment: 'pchase-fine' }], (id) => EXPERIMENTS.find((e) => e.id === id)?.title);
    expect(msg).toContain('different experiments');
    expect(msg).toContain('Average P-chase (1 run)');
    expect(msg).toContain('Fine-grained P-chase (2 runs)');
  });
});

describe('finding differences', () => {
  it("a value an analyser could not tell is no difference ('—'), not 'differs'", () => {
    const f = (value: number | string) => ({ key: 'k', label: 'k', value, unit: '', evidence: 'e' });
    expect(findingDiff(f(0), f('cannot tell'))).toEqual({ text: '—', changed: false });
    expect(findingDiff(f('cannot tell'), f('cannot tell'))).toEqual({ text: 'both cannot tell', changed: false });
    expect(findingDiff(f('LRU'), f('not LRU'))).toEqual({ text: 'differs', changed: true });
  });
});

describe('the compare view', () => {
  it('loads the runs, overlays their series and shows the findings with differences', async () => {
    const a = detail(1);
    const b = detail(2, { presetId: 'kepler', presetName: 'Kepler', findings: [finding('l1.sizeBytes', 'L1 size', 49152, 'B'), finding('l1.hitLatency', 'L1 hit latency', 116, 'cycles')] });
    const fake = fakeLab([a, b]);
    const w = await mountView(CompareView, fake.lab, `/compare?runs=${a.id},${b.id}`);
    expect(fake.calls.runs.get.mock.calls.map((c) => c[0])).toEqual([{ id: a.id, full: true }, { id: b.id, full: true }]);
    const charts = w.findAllComponents(MChart);
    expect(charts).toHaveLength(1);
    const option = charts[0]!.props('option') as { series: { name: string }[] };
    expect(option.series.map((s) => s.name)).toEqual(['Fermi · stride 128 B', 'Fermi · stride 256 B', 'Kepler · stride 128 B', 'Kepler · stride 256 B']);
    expect(w.get('[data-testid="compare-chart"]').attributes('data-series')).toBe('4');
    // A linear byte axis ticks at a power of two (512 B here), from and to a multiple of it.
    expect((option as unknown as { xAxis: object }).xAxis).toMatchObject({ type: 'value', name: 'Array size (B)', interval: 512, min: 1024, max: 4096 });
    expect(w.findAll('[data-testid="compare-run"]').map((r) => r.text())).toEqual([expect.stringContaining('Fermi'), expect.stringContaining('Kepler')]);

    const table = w.get('[data-testid="compare-findings"]');
    expect(table.findAll('thead th').map((th) => th.text())).toEqual(['Finding', 'Fermi', 'Kepler', 'Δ Kepler − Fermi']);
    const size = w.get('[data-testid="finding-row-l1.sizeBytes"]');
    expect(size.findAll('td').map((td) => td.text())).toEqual(['16 KB', '48 KB', '+32 KB (+200 %)']);
    expect(size.get('[data-testid="finding-diff"]').classes()).toContain('changed');
    expect(w.get('[data-testid="finding-row-l1.hitLatency"]').findAll('td').map((td) => td.text())).toEqual(['116 cycles', '116 cycles', 'same']);
    expect(w.get('[data-testid="finding-row-l1.policy"]').findAll('td').map((td) => td.text())).toEqual(['non-LRU', '—', '—']);
  });

  it('warns under the findings when a run\'s size step was too coarse to resolve the associativity, with the step that would', async () => {
    const evidence =
      'the rise lies within 1 size step of 64 KB, too coarse to resolve the associativity: its width (one way, size / ways) is at most 64 KB, so any associativity from 8 up fits (8, 16, 17, ... ways fit equally); to decide: a size step of at most 4 KB over N = 448 KB..640 KB';
    const a = detail(1, { findings: [{ ...finding('s = 64 B.level1.ways', 's = 64 B: level 1 associativity', 16, ''), evidence: 'all 16-way' }] });
    const b = detail(2, { presetId: 'kepler', presetName: 'Kepler', findings: [{ ...finding('s = 64 B.level1.ways', 's = 64 B: level 1 associativity', 'cannot tell', ''), evidence }] });
    const fake = fakeLab([a, b]);
    const w = await mountView(CompareView, fake.lab, `/compare?runs=${a.id},${b.id}`);
    const note = w.get('[data-testid="compare-coarse-step"]');
    expect(note.text()).toContain('Size step too coarse.');
    expect(note.text()).toContain('Kepler, s = 64 B: level 1 associativity: the rise lies within 1 size step of 64 KB, too coarse');
    expect(note.text()).toContain('a size step of at most 4 KB over N = 448 KB..640 KB');
    expect(note.text()).not.toContain('Fermi,');
    // Runs whose steps resolved their findings: no warning.
    w.unmount();
    const fine = fakeLab([a, detail(3, { presetId: 'kepler', presetName: 'Kepler', findings: [finding('s = 64 B.level1.ways', 's = 64 B: level 1 associativity', 16, '')] })]);
    const w2 = await mountView(CompareView, fine.lab, `/compare?runs=${a.id},${uuid(3)}`);
    expect(w2.find('[data-testid="compare-coarse-step"]').exists()).toBe(false);
  });

  it('shows at most 64 runs, the first chosen, and says so', async () => {
    const many = Array.from({ length: 70 }, (_, i) => detail(i + 1, { title: `run ${i + 1}` }));
    const fake = fakeLab(many);
    const w = await mountView(CompareView, fake.lab, `/compare?runs=${many.map((r) => r.id).join(',')}`);
    expect(fake.lab.runs.get).toHaveBeenCalledTimes(64);
    expect(w.get('[data-testid="compare-problems"]').text()).toContain('A comparison holds at most 64 runs: the first 64 of the 70 chosen are shown.');
  });

  it('comes back to the runs it showed when opened bare (the sidebar link), until they are all removed', async () => {
    const a = detail(1);
    const b = detail(2, { presetId: 'kepler', presetName: 'Kepler' });
    const fake = fakeLab([a, b]);
    let w = await mountView(CompareView, fake.lab, `/compare?runs=${a.id},${b.id}`);
    w.unmount();
    wrapper = null;
    w = await mountView(CompareView, fake.lab, '/compare');
    await flushPromises();
    expect(router.currentRoute.value.query).toEqual({ runs: `${a.id},${b.id}` });
    expect(w.findAll('[data-testid="compare-run"]')).toHaveLength(2);
    // Removing every run forgets them: a bare /compare is the picker again.
    compareDraft.query = null;
    w.unmount();
    wrapper = null;
    await mountView(CompareView, fake.lab, '/compare');
    expect(router.currentRoute.value.query).toEqual({});
  });

  it('refuses to overlay runs of different experiments', async () => {
    const a = detail(1);
    const b = detail(2, { experiment: 'pchase-fine', presetId: 'kepler', presetName: 'Kepler' });
    const c = detail(3, { experiment: 'pchase-fine' });
    const fake = fakeLab([a, b, c]);
    const w = await mountView(CompareView, fake.lab, `/compare?runs=${a.id},${b.id},${c.id}`);
    const mixed = w.get('[data-testid="compare-mixed"]');
    expect(mixed.text()).toContain('different experiments');
    expect(mixed.text()).toContain('Average P-chase (1 run)');
    expect(w.findAllComponents(MChart)).toHaveLength(0);
    expect(w.find('[data-testid="compare-findings"]').exists()).toBe(false);
    expect(w.find('[data-testid="save-comparison"]').exists()).toBe(false);
    // One click compares the runs of one experiment.
    const only = mixed.findAll('button').find((x) => x.text().includes('Fine-grained'))!;
    await only.trigger('click');
    await flushPromises();
    expect(router.currentRoute.value.query.runs).toBe(`${b.id},${c.id}`);
    expect(w.find('[data-testid="compare-mixed"]').exists()).toBe(false);
    expect(w.findAllComponents(MChart)).toHaveLength(1);
  });

  it('reports a run without results and one that cannot be loaded, and compares the rest', async () => {
    const a = detail(1);
    const b = detail(2, { presetId: 'kepler', presetName: 'Kepler' });
    const failed = detail(3, { status: 'failed', error: 'too much work', result: null });
    const fake = fakeLab([a, b, failed]);
    const w = await mountView(CompareView, fake.lab, `/compare?runs=${a.id},${b.id},${failed.id},${uuid(77)}`);
    const problems = w.get('[data-testid="compare-problems"]').text();
    expect(problems).toContain('is failed: it has no results to compare (too much work)');
    expect(problems).toContain(`Run ${uuid(77).slice(0, 8)} could not be loaded: no run with id`);
    expect(w.findAll('[data-testid="compare-run"]')).toHaveLength(2);
  });

  it('saves the comparison, lists it, exports CSV and PDF as downloads, and deletes it after a confirmation', async () => {
    const a = detail(1);
    const b = detail(2, { presetId: 'kepler', presetName: 'Kepler' });
    const fake = fakeLab([a, b]);
    const w = await mountView(CompareView, fake.lab, `/compare?runs=${a.id},${b.id}`);
    expect(w.get('[data-testid="saved-comparisons"]').text()).toContain('No saved comparisons yet');

    await w.get('[data-testid="save-comparison"]').trigger('click');
    const name = w.get('[data-testid="comparison-name-input"]');
    expect((name.element as HTMLInputElement).value).toBe('Average P-chase: Fermi vs Kepler');
    await name.setValue('L1 across GPUs');
    await w.get('[data-testid="comparison-notes-input"]').setValue('for lab 3');
    await w.get('#save-form').trigger('submit');
    await flushPromises();
    expect(fake.calls.comparisons.save).toHaveBeenCalledWith({ name: 'L1 across GPUs', notes: 'for lab 3', runIds: [a.id, b.id] });
    expect(router.currentRoute.value.query).toEqual({ comparison: CMP });
    expect(w.get('[data-testid="comparison-name"]').text()).toContain('L1 across GPUs');
    expect(w.findAll('[data-testid="saved-comparison"]').map((r) => r.text())).toEqual([expect.stringContaining('L1 across GPUs')]);
    // The notes in the list are clamped to three lines, the whole of them on hover.
    expect(w.get('[data-testid="saved-notes"]').attributes('title')).toBe('for lab 3');
    expect(w.findAllComponents(MChart)).toHaveLength(1);

    await w.get('[data-testid="export-csv"]').trigger('click');
    await flushPromises();
    expect(fake.calls.exports.csv).toHaveBeenCalledWith({ runIds: [a.id, b.id] });
    await w.get('[data-testid="export-pdf"]').trigger('click');
    await flushPromises();
    expect(fake.calls.exports.pdf).toHaveBeenCalledWith({ runIds: [a.id, b.id], title: 'L1 across GPUs' });
    // Blob + object URL + <a download>; a name with directories is cut to its last part.
    expect(downloads).toEqual([
      { name: 'runs.csv', href: 'blob:fake' },
      { name: 'report.pdf', href: 'blob:fake' },
    ]);
    expect(URL.createObjectURL).toHaveBeenCalledTimes(2);
    expect(safeFileName('a/b\\c:d.csv')).toBe('c_d.csv');

    // Reordering keeps the saved comparison open; saving again replaces it.
    await w.findAll('[data-testid="compare-run"]')[1]!.findAll('button').find((x) => x.text() === 'Make reference')!.trigger('click');
    await flushPromises();
    expect(router.currentRoute.value.query).toEqual({ comparison: CMP, runs: `${b.id},${a.id}` });
    expect(w.get('thead').text()).toContain('Δ Fermi − Kepler');
    await w.get('[data-testid="save-comparison"]').trigger('click');
    await w.get('#save-form').trigger('submit');
    await flushPromises();
    expect(fake.calls.comparisons.save).toHaveBeenLastCalledWith({ id: CMP, name: 'L1 across GPUs', notes: 'for lab 3', runIds: [b.id, a.id] });

    await w.get('[data-testid="delete-comparison"]').trigger('click');
    const dialog = w.get('[data-testid="confirm-delete-comparison"]');
    await dialog.trigger('keydown', { key: 'Escape' });
    expect(w.find('[data-testid="confirm-delete-comparison"]').exists()).toBe(false);
    expect(fake.calls.comparisons.delete).not.toHaveBeenCalled();
    await w.get('[data-testid="delete-comparison"]').trigger('click');
    await w.get('[data-testid="confirm-delete"]').trigger('click');
    await flushPromises();
    expect(fake.calls.comparisons.delete).toHaveBeenCalledWith({ id: CMP });
    expect(router.currentRoute.value.query).toEqual({ runs: `${b.id},${a.id}` });
    expect(w.get('[data-testid="saved-comparisons"]').text()).toContain('No saved comparisons yet');
  });

  it('opens a saved comparison by its id', async () => {
    const a = detail(1);
    const b = detail(2, { presetId: 'kepler', presetName: 'Kepler' });
    const fake = fakeLab([a, b]);
    fake.saved.set(CMP, { id: CMP, name: 'Saved one', notes: 'why', runIds: [b.id, a.id], createdAt: 1, updatedAt: 2 });
    const w = await mountView(CompareView, fake.lab, `/compare?comparison=${CMP}`);
    expect(fake.calls.comparisons.get).toHaveBeenCalledWith({ id: CMP });
    expect(w.get('[data-testid="comparison-name"]').text()).toContain('Saved one');
    expect(w.findAll('[data-testid="compare-run"]').map((r) => r.find('strong').text())).toEqual(['Kepler', 'Fermi']);
  });

  it('lets the user choose runs when none are given', async () => {
    const a = detail(1);
    const b = detail(2, { presetId: 'kepler', presetName: 'Kepler' });
    const fake = fakeLab([a, b]);
    const w = await mountView(CompareView, fake.lab, '/compare');
    const go = w.get('[data-testid="compare-picked"]');
    expect(go.attributes('disabled')).toBeDefined();
    for (const row of w.findAll('[data-testid="pick-row"]')) await row.get('input[type="checkbox"]').setValue(true);
    expect(go.attributes('disabled')).toBeUndefined();
    await go.trigger('click');
    await flushPromises();
    expect(router.currentRoute.value.query.runs).toBe(`${a.id},${b.id}`);
    expect(w.findAllComponents(MChart)).toHaveLength(1);
  });
});

describe('the reports view', () => {
  it('exports the runs chosen in the searchable list, or a saved comparison, as CSV and PDF', async () => {
    const a = detail(1, { title: 'L1 on Fermi' });
    const b = detail(2, { title: 'L2 on Kepler', presetId: 'kepler', presetName: 'Kepler' });
    const fake = fakeLab([a, b]);
    const w = await mountView(ReportsView, fake.lab, `/reports?runs=${b.id}`);
    expect(w.findAll('[data-testid="picked-run"]').map((c) => c.text())).toEqual([expect.stringContaining('L2 on Kepler')]);
    expect(fake.calls.runs.list).toHaveBeenCalledWith(expect.objectContaining({ status: 'done' }));

    await w.get('[data-testid="run-search"]').setValue('fermi');
    await w.get('[data-testid="run-search"]').trigger('keydown', { key: 'Enter' });
    await flushPromises();
    const rows = w.findAll('[data-testid="pick-row"]');
    expect(rows).toHaveLength(1);
    await rows[0]!.get('input').setValue(true);
    expect(w.get('[data-testid="report-count"]').text()).toBe('2 runs');

    await w.get('[data-testid="report-title"]').setValue('Lab 3');
    await w.get('form.export').trigger('submit');
    await flushPromises();
    expect(fake.calls.exports.pdf).toHaveBeenCalledWith({ runIds: [b.id, a.id], title: 'Lab 3' });
    expect(w.get('[data-testid="report-saved"]').text()).toContain('report.pdf');
    await w.get('[data-testid="report-csv"]').trigger('click');
    await flushPromises();
    expect(fake.calls.exports.csv).toHaveBeenCalledWith({ runIds: [b.id, a.id] });
    expect(downloads.map((d) => d.name)).toEqual(['report.pdf', 'runs.csv']);

    // A saved comparison: its runs, with its name as the PDF's title.
    fake.saved.set(CMP, { id: CMP, name: 'Saved one', notes: '', runIds: [a.id], createdAt: 1, updatedAt: 2 });
    wrapper!.unmount();
    const w2 = await mountView(ReportsView, fake.lab, `/reports?comparison=${CMP}`);
    expect((w2.get('[data-testid="report-comparison"]').element as HTMLSelectElement).value).toBe(CMP);
    await w2.get('form.export').trigger('submit');
    await flushPromises();
    expect(fake.calls.exports.pdf).toHaveBeenLastCalledWith({ runIds: [a.id], title: 'Saved one' });
  });

  it('leaves the raw data out of the PDF unless asked, and asks for it with the checkbox', async () => {
    const a = detail(1);
    const fake = fakeLab([a]);
    const w = await mountView(ReportsView, fake.lab, `/reports?runs=${a.id}`);
    const box = w.get('[data-testid="report-raw"]');
    expect((box.element as HTMLInputElement).checked).toBe(false);
    await w.get('form.export').trigger('submit');
    await flushPromises();
    expect(fake.calls.exports.pdf).toHaveBeenLastCalledWith({ runIds: [a.id] });
    await box.setValue(true);
    await w.get('form.export').trigger('submit');
    await flushPromises();
    expect(fake.calls.exports.pdf).toHaveBeenLastCalledWith({ runIds: [a.id], raw: true });
    // CSV has every value anyway: the checkbox does not change it.
    await w.get('[data-testid="report-csv"]').trigger('click');
    await flushPromises();
    expect(fake.calls.exports.csv).toHaveBeenLastCalledWith({ runIds: [a.id] });
  });

  it('shows an export failure in words', async () => {
    const a = detail(1);
    const fake = fakeLab([a]);
    fake.calls.exports.csv.mockRejectedValueOnce(new LabError('not-found', 'no run with id "x"'));
    const w = await mountView(ReportsView, fake.lab, `/reports?runs=${a.id}`);
    await w.get('[data-testid="report-csv"]').trigger('click');
    await flushPromises();
    expect(w.get('[data-testid="report-problem"]').text()).toBe('no run with id "x"');
    expect(downloads).toEqual([]);
  });
});

describe('the scorecard', () => {
  const ROWS: RowResult[] = [
    {
      id: 'MEI-T3',
      preset: 'fermi',
      target: 'pattern 1 116 cycles; pattern 5 1259 cycles',
      simulated: 'pattern 1 116 cycles; pattern 5 1262 cycles',
      deviation: 0.0024,
      pass: true,
      checks: [
        { name: 'pattern 1', target: '116 cycles', rule: "within 5 % of the paper's value: 110.2..121.8 cycles", simulated: '116 cycles', deviation: 0, pass: true, kind: 'calibrated', kindReason: 'the preset was set from Table 3' },
        { name: 'pattern 5', target: '1259 cycles', rule: "within 5 % of the paper's value: 1196.1..1322 cycles", simulated: '1262 cycles', deviation: 0.0024, pass: true, kind: 'calibrated', kindReason: 'the preset was set from Table 3' },
      ],
      runs: [{ experiment: 'pchase-fine', params: { space: 'global', strideBytes: 128 } }],
    },
    {
      id: 'MEI-T4',
      preset: 'kepler',
      target: 'L2 size 1.5 MB',
      simulated: 'L2 size 1 MB',
      deviation: 0.333,
      pass: false,
      checks: [{ name: 'L2 size', target: '1.5 MB', rule: 'exactly the paper\'s value', simulated: '1 MB', deviation: 0.333, pass: false, citation: 'MEI Table 4 (L2)', note: 'the probe stops at 1 MB', kind: 'predicted' }],
      runs: [{ experiment: 'pchase-average', params: { sizeFrom: 1024 } }],
    },
    {
      id: 'WONG-F10..F12',
      preset: 'fermi',
      target: 'texture L1 5 KB',
      simulated: 'texture L1 5 KB',
      pass: true,
      checks: [{ name: 'L1 size', target: '5 KB', rule: "exactly the paper's value", simulated: '5 KB', deviation: 0, pass: true, kind: 'recovered', kindReason: 'the analyser infers the size the preset was set to' }],
      runs: [],
    },
  ];

  it('runs every row with a spinner, then shows pass/fail counts, the rows and their checks', async () => {
    lastScore.value = null;
    let resolve!: (r: RowResult[]) => void;
    const rows = vi.fn(() => new Promise<RowResult[]>((r) => (resolve = r)));
    const fake = fakeLab([], { reproduce: { rows } });
    const w = await mountView(ScorecardView, fake.lab, '/scorecard');
    expect(w.text()).toContain('Press “Run all”');
    await w.get('[data-testid="score-paper"]').setValue('MEI');
    await w.get('[data-testid="score-preset"]').setValue('kepler');
    await w.get('form.controls').trigger('submit');
    await flushPromises();
    expect(rows).toHaveBeenCalledWith({ selector: 'MEI', preset: 'kepler' });
    const running = w.get('[data-testid="score-running"]');
    expect(running.text()).toContain("Reproducing MEI's rows on Kepler");
    // The lab's progress events move the bar and name the rows being reproduced (one per process).
    const onCall = (fake.lab.on as unknown as { mock: { calls: [string, (p: unknown) => void][] } }).mock.calls.find((c) => c[0] === 'reproduce.progress');
    expect(onCall).toBeDefined();
    onCall![1]({ done: 1, total: 3, phase: 'MEI-T4 on kepler, MEI-T5 on kepler' });
    await flushPromises();
    expect(w.get('[data-testid="score-progress-phase"]').text()).toBe('MEI-T4 on kepler, MEI-T5 on kepler');
    expect(w.get('[data-testid="score-running"]').text()).toContain('1 of 3 done; running: MEI-T4 on kepler, MEI-T5 on kepler');
    expect((w.get('[data-testid="score-progress"]').element as HTMLProgressElement).value).toBe(1);
    expect(w.get('[data-testid="score-run-all"]').attributes('disabled')).toBeDefined();
    resolve(ROWS);
    await flushPromises();
    expect(w.find('[data-testid="score-running"]').exists()).toBe(false);
    expect(w.get('[data-testid="score-passed"]').text()).toBe('2 passed');
    expect(w.get('[data-testid="score-failed"]').text()).toBe('1 failed');
    expect(w.get('[data-testid="score-failed"]').classes()).toContain('fail');
    // The headline counts predicted checks; recovered ones (method checks) stand beside it, not in it;
    // calibrated and specification ones are consistency; one sentence says what each count means.
    expect(w.get('[data-testid="score-predicted"]').text()).toBe('Predicted checks: 0 of 1 passed (0 %)');
    const method = w.get('[data-testid="score-recovered"]');
    expect(method.text()).toBe('Method checks (recovered): 1 of 1 passed (100 %)');
    expect(method.find('.kind-recovered').text()).toBe('recovered');
    expect(w.get('[data-testid="score-predicted"]').find('[data-testid="score-recovered"]').exists()).toBe(false);
    expect(w.get('[data-testid="score-consistency"]').text()).not.toContain('recovered');
    const meaning = w.get('[data-testid="score-kinds-meaning"]').text();
    for (const k of ['Predicted:', 'recovered:', 'calibrated:', 'specification:']) expect(meaning).toContain(k);
    expect(w.get('[data-testid="score-consistency"]').text()).toContain('calibrated 2 of 2');
    expect(w.get('[data-testid="score-consistency"]').text()).toContain('specification 0 of 0');
    expect(w.get('[data-testid="score-failed-detail"]').text()).toContain('1 only on known deviations, 0 with a new failure');
    expect(w.find('[data-testid="score-unexpected"]').exists()).toBe(false);

    const trs = w.findAll('[data-testid="score-row"]');
    expect(trs.map((r) => r.attributes('data-row'))).toEqual(['MEI-T3', 'MEI-T4', 'WONG-F10..F12']);
    expect(trs[0]!.text()).toContain('Mei et al. 2014 · Table 3');
    expect(trs[0]!.text()).toContain('Fine-grained P-chase');
    expect(trs[0]!.text()).toContain('0.24 %');
    expect(trs[1]!.get('[data-testid="score-verdict"]').attributes('data-gate')).toBe('known');
    expect(trs[1]!.get('[data-testid="score-verdict"]').text()).toBe('✗ fail (known)');
    expect(trs[1]!.text()).toContain('33.3 %');
    expect(trs[2]!.text()).toContain('Figs 10–12');
    expect(trs[2]!.get('[data-testid="score-open-run"]').attributes('disabled')).toBeDefined();
    // A recovered check shows its label and its reason.
    await trs[2]!.get('button.expand').trigger('click');
    const recovered = w.get('[data-testid="score-checks"]').get('[data-testid="score-kind"]');
    expect(recovered.text()).toBe('recovered1');
    expect(recovered.classes()).toContain('kind-recovered');
    expect(w.get('[data-testid="score-kind-reasons"]').text()).toBe('recovered: the analyser infers the size the preset was set to');
    await trs[2]!.get('button.expand').trigger('click');

    expect(w.find('[data-testid="score-checks"]').exists()).toBe(false);
    await trs[0]!.get('button.expand').trigger('click');
    const checks = w.get('[data-testid="score-checks"]');
    expect(checks.findAll('tbody tr').map((r) => r.findAll('td').map((td) => td.text()))).toEqual([
      ['pattern 1', 'calibrated1', "116 cycles within 5 % of the paper's value: 110.2..121.8 cycles", '116 cycles', '0 %', 'pass'],
      ['pattern 5', 'calibrated1', "1259 cycles within 5 % of the paper's value: 1196.1..1322 cycles", '1262 cycles', '0.24 %', 'pass'],
    ]);
    // The reason of each kind is listed once above the checks, numbered.
    expect(w.get('[data-testid="score-kind-reasons"]').findAll('li').map((li) => li.text())).toEqual(['calibrated: the preset was set from Table 3']);

    expect(checks.find('[data-testid="score-known"]').exists()).toBe(false);

    await w.get('[data-testid="score-failed-only"]').setValue(true);
    expect(w.findAll('[data-testid="score-row"]').map((r) => r.attributes('data-row'))).toEqual(['MEI-T4']);
    // A failing check shows its citation and its known deviation.
    await w.get('[data-testid="score-row"][data-row="MEI-T4"] button.expand').trigger('click');
    const failing = w.findAll('[data-testid="score-checks"]').at(-1)!;
    expect(failing.text()).toContain('MEI Table 4 (L2)');
    expect(failing.get('[data-testid="score-known"]').text()).toBe('Known deviation: the probe stops at 1 MB');
  });

  it('opens a row as a run: queues its first run tagged with the row id and goes to it', async () => {
    lastScore.value = { preset: '', rows: ROWS, at: Date.now() };
    const fake = fakeLab([], { reproduce: { rows: vi.fn(async () => ROWS) } });
    const w = await mountView(ScorecardView, fake.lab, '/scorecard');
    // The last scorecard is still there when the view is opened again.
    expect(w.get('[data-testid="score-passed"]').text()).toBe('2 passed');
    await w.findAll('[data-testid="score-open-run"]')[0]!.trigger('click');
    await flushPromises();
    expect(fake.calls.runs.start).toHaveBeenCalledWith({ experiment: 'pchase-fine', preset: 'fermi', params: { space: 'global', strideBytes: 128 }, tags: ['MEI-T3'] });
    expect(router.currentRoute.value.path).toBe(`/runs/${uuid(999)}`);
    expect(rowSource('MEI-F10/F11').figure).toBe('Figs 10/11');
    expect(rowSource('WONG-SHM')).toEqual({ paper: 'WONG', paperName: 'Wong et al. 2010', figure: 'SHM' });
    lastScore.value = null;
  });

  it('stops a running scorecard: the lab cancels it and the view says so without an error', async () => {
    lastScore.value = null;
    let reject!: (e: unknown) => void;
    const rows = vi.fn(() => new Promise<RowResult[]>((_, r) => (reject = r)));
    const cancel = vi.fn(async () => {
      reject(new LabError('conflict', 'the scorecard was cancelled'));
      return { cancelled: true };
    });
    const fake = fakeLab([], { reproduce: { rows, cancel } });
    const w = await mountView(ScorecardView, fake.lab, '/scorecard');
    expect(w.find('[data-testid="score-cancel"]').exists()).toBe(false);
    await w.get('form.controls').trigger('submit');
    await flushPromises();
    await w.get('[data-testid="score-cancel"]').trigger('click');
    await flushPromises();
    expect(cancel).toHaveBeenCalledWith({});
    expect(w.find('[data-testid="score-running"]').exists()).toBe(false);
    expect(w.find('[data-testid="score-error"]').exists()).toBe(false);
    expect(w.get('[data-testid="score-stopped"]').text()).toContain('Stopped');
    expect(w.get('[data-testid="score-run-all"]').attributes('disabled')).toBeUndefined();
  });

  it('shows a failure of reproduce.rows in words', async () => {
    lastScore.value = null;
    const fake = fakeLab([], { reproduce: { rows: vi.fn(async () => Promise.reject(new LabError('not-found', 'no preset with id "gone"'))) } });
    const w = await mountView(ScorecardView, fake.lab, '/scorecard');
    await w.get('form.controls').trigger('submit');
    await flushPromises();
    expect(w.get('[data-testid="score-error"]').text()).toContain('no preset with id "gone"');
  });
});

describe('the chart wrapper', () => {
  it('draws with ECharts in SVG and disposes on unmount', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {}); // happy-dom lays nothing out: ECharts warns of a 0 px box
    const a = detail(1);
    const [chart] = compareCharts([{ column: runColumns([a])[0]!, series: a.result!.series }]);
    const w = mount(MChart, { props: { option: chart!.option, label: 'test chart', height: '200px' }, attachTo: document.body });
    await flushPromises();
    expect(w.get('[role="img"]').attributes('aria-label')).toBe('test chart');
    expect(w.find('svg').exists()).toBe(true);
    const el = w.get('[role="img"]').element as HTMLElement;
    expect(echarts.getInstanceByDom(el)).toBeDefined();
    w.unmount();
    expect(echarts.getInstanceByDom(el)).toBeUndefined();
  });
});
