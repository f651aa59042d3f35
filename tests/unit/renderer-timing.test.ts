// @vitest-environment happy-dom
/**
 * The timing tier in the renderer: bar and stacked-bar series on categorical axes, `group`, epoch
 * series over cycles with LTTB sampling (composables/runcharts.ts, LabChart.vue), the overlay of
 * several runs' bars in Compare (composables/compare.ts), the timeline with its window of cycles
 * bound to the chart's zoom (RunTimeline.vue), and the run view choosing between them (RunView.vue).
 */
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryHistory, createRouter } from 'vue-router';
import type { ExperimentInfo, LabApi, RunDetail, RunSummary } from '../../src-main/contract';
import { setLab } from '../../src-renderer/src/api';
import LabChart from '../../src-renderer/src/components/LabChart.vue';
import RunTimeline from '../../src-renderer/src/components/RunTimeline.vue';
import { compareCharts, runColumns, segmentColor, tint } from '../../src-renderer/src/composables/compare';
import { categoriesOf, categoryData, chartGroups, formatWithUnit, isCategorical, isTimeline, seriesOption, wantsLogX, windowStats } from '../../src-renderer/src/composables/runcharts';
import RunView from '../../src-renderer/src/views/RunView.vue';
import { fermi } from '../../src-sim/presets/fermi';
import { EPOCH, epochSeries, mshr, REASONS, stall, stallSeries, throughputSeries, timingResult, TYPES } from './renderer-timing-fixtures';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

const tick = () => new Promise((r) => setTimeout(r, 40));

// ---------------------------------------------------------------------------------------------
// runcharts.ts
// ---------------------------------------------------------------------------------------------

describe('bars on a category axis', () => {
  it('series naming one group share a chart whatever their axes; others are grouped by axes', () => {
    const bars = stallSeries();
    const other = { ...stallSeries()[0]!, name: 'time', yLabel: 'Time', group: 'Stall breakdown' };
    const [a, b, c] = chartGroups([...bars, other, throughputSeries(), { ...throughputSeries(), name: 'DRAM' }]);
    expect(a!.series.map((s) => s.name)).toEqual([...REASONS, 'time']);
    expect(a!.title).toBe('Stall breakdown'); // a group named in words is the title
    // A group named by an id is titled from its series (their y labels joined where they differ).
    const byId = chartGroups([...stallSeries().map((x) => ({ ...x, group: 'stalls' })), { ...other, group: 'stalls' }]);
    expect(byId.map((g) => g.title)).toEqual(['LSU stall cycles / Time vs data type']);
    expect(chartGroups(stallSeries().map((x) => ({ ...x, group: 'stalls' })))[0]!.title).toBe('LSU stall cycles vs data type');
    expect(b!.series.map((s) => s.name)).toEqual(['L2', 'DRAM']);
    expect(b!.title).toBe('Throughput vs threads per block');
    expect(c).toBeUndefined();
  });

  it('maps x (indices into xCategories, in any order) onto the labels', () => {
    const s = stallSeries()[1]!;
    const cats = categoriesOf([s]);
    expect(cats.labels).toEqual(TYPES);
    expect(categoryData(s, cats)).toEqual([stall(1, 0), stall(1, 1), stall(1, 2)]);
    // A series with other labels: its x indexes its own labels; missing categories stay empty.
    const partial = { ...s, x: [0], y: [5], xCategories: ['char'] };
    expect(categoryData(partial, categoriesOf([s, partial]))).toEqual([null, null, 5]);
    // Bars without labels: the distinct x values with their unit, ascending.
    const plain = { ...throughputSeries(), style: 'bar' as const, x: [256, 32, 1024], y: [3, 1, 9] };
    const c2 = categoriesOf([plain]);
    expect(c2.labels).toEqual(['32 threads', '256 threads', '1,024 threads']);
    expect(categoryData(plain, c2)).toEqual([1, 3, 9]);
    expect(isCategorical([plain])).toBe(true);
    expect(isCategorical([throughputSeries()])).toBe(false);
    expect(wantsLogX([{ ...plain, logX: true }])).toBe(false);
  });

  it('stacked bars: one bar series per reason on the stack, labels, units, legend, y from zero and a tooltip with the total', () => {
    const o = seriesOption(stallSeries(), { title: 'T' }) as Loose;
    expect(o.xAxis.type).toBe('category');
    expect(o.xAxis.data).toEqual(TYPES);
    expect(o.xAxis.name).toBe('Data type');
    expect(o.yAxis.name).toBe('LSU stall cycles (cycles)');
    expect(o.yAxis.scale).toBe(false);
    expect(o.legend).toBeTruthy();
    expect(o.series).toHaveLength(4);
    for (const [r, s] of (o.series as Loose[]).entries()) {
      expect(s).toMatchObject({ type: 'bar', name: REASONS[r], stack: 'stalls' });
      expect(s.data).toEqual(TYPES.map((_, t) => stall(r, t)));
    }
    const at = (r: number) => ({ seriesName: REASONS[r], seriesIndex: r, marker: '', value: stall(r, 1), axisValueLabel: 'short' });
    const text: string = o.tooltip.formatter([0, 1, 2, 3].map(at));
    expect(text).toContain('Data type: <b>short</b>');
    expect(text).toContain('nomerger: <b>1,100 cycles</b>');
    expect(text).toContain('coalescing: <b>4,100 cycles</b>');
    expect(text).toContain(`stalls total: <b>${(1100 + 2100 + 3100 + 4100).toLocaleString('en-US')} cycles</b>`);
    // Plain bars side by side: no stack, no total.
    const plain = seriesOption([{ ...stallSeries()[0]!, stack: undefined }, { ...stallSeries()[1]!, stack: undefined }]) as Loose;
    expect(plain.series.map((s: Loose) => s.stack)).toEqual([undefined, undefined]);
    expect(plain.tooltip.formatter([{ seriesName: 'a', seriesIndex: 0, marker: '', value: 1, axisValueLabel: 'int' }, { seriesName: 'b', seriesIndex: 1, marker: '', value: 2, axisValueLabel: 'int' }])).not.toContain('total');
  });

  it('long category labels (the ten SL1 applications) turn so they do not overlap; three types stay level', () => {
    const apps = ['BFS', 'CUTCP', 'HISTO', 'LBM', 'MRI-GRIDDING', 'MRI-Q', 'SAD', 'SGEMM', 'SPMV', 'STENCIL'];
    const perApp = { ...throughputSeries(), style: 'bar' as const, x: Float64Array.from(apps, (_, i) => i), y: Float64Array.from(apps, (_, i) => 1 + i / 10), xCategories: apps, xLabel: 'Application', xUnit: '', yLabel: 'Speedup', yUnit: '' };
    const o = seriesOption([perApp]) as Loose;
    expect(o.xAxis.data).toEqual(apps);
    expect(o.xAxis.axisLabel).toMatchObject({ interval: 0, rotate: 30 });
    expect(o.grid.bottom).toBeGreaterThan(48);
    expect((seriesOption(stallSeries()) as Loose).xAxis.axisLabel.rotate).toBe(0);
    const cols = runColumns([summary('a', 'titan', 'Titan')]);
    const [c] = compareCharts([{ column: cols[0]!, series: [perApp] }]);
    expect((c!.option as Loose).xAxis.axisLabel.rotate).toBe(30);
  });

  it('epoch series over 100k cycles: typed-array lines with LTTB sampling, no symbols, no animation', () => {
    const series = epochSeries(100_000);
    expect(isTimeline(series)).toBe(true);
    expect(isTimeline(stallSeries())).toBe(false);
    expect(isTimeline([throughputSeries()])).toBe(false);
    const o = seriesOption(series) as Loose;
    expect(o.xAxis.type).toBe('value');
    expect(o.xAxis.name).toBe('Cycle (cycles)');
    expect(o.animation).toBe(false);
    for (const s of o.series) {
      expect(s).toMatchObject({ type: 'line', sampling: 'lttb', showSymbol: false });
      expect(s.data).toBeInstanceOf(Float64Array);
      expect(s.data.length).toBe(200_000);
    }
    expect(o.dataZoom.map((z: Loose) => z.filterMode)).toEqual(['filter', 'filter']);
  });

  it("window statistics: a series' mean and largest value over the points inside [from, to]", () => {
    const [s] = epochSeries(5000);
    const w = windowStats(s!, 1000 * EPOCH, 2000 * EPOCH);
    let sum = 0;
    let max = -Infinity;
    for (let i = 1000; i <= 2000; i++) {
      sum += mshr(i);
      max = Math.max(max, mshr(i));
    }
    expect(w.points).toBe(1001);
    expect(w.mean).toBeCloseTo(sum / 1001, 9);
    expect(w.max).toBe(max);
    expect(windowStats(s!, -10, -1)).toMatchObject({ points: 0 });
  });
});

// ---------------------------------------------------------------------------------------------
// compare.ts
// ---------------------------------------------------------------------------------------------

function summary(id: string, presetId: string, presetName: string): RunSummary {
  return { id, experiment: 'lash-stencil', title: '', presetId, presetName, seed: 1, simVersion: '1', status: 'done', error: null, createdAt: 0, startedAt: 0, finishedAt: 0, durationMs: 1, tags: [], notes: '' };
}

describe('Compare: bars of several runs', () => {
  it('one stacked bar per run at each data type, in shades of the run colour; legend "preset · reason"', () => {
    const cols = runColumns([summary('a', 'fermi480', 'GTX 480'), summary('b', 'titan', 'Titan')]);
    const charts = compareCharts([
      { column: cols[0]!, series: stallSeries() },
      { column: cols[1]!, series: stallSeries(2) },
    ]);
    expect(charts).toHaveLength(1);
    const c = charts[0]!;
    expect(c.title).toBe('Stall breakdown');
    expect(c.seriesCount).toBe(8);
    const o = c.option as Loose;
    expect(o.xAxis).toMatchObject({ type: 'category', data: TYPES });
    expect(o.yAxis.name).toBe('LSU stall cycles (cycles)');
    const stacks = new Set(o.series.map((s: Loose) => s.stack));
    expect([...stacks]).toEqual(['GTX 480 · stalls', 'Titan · stalls']);
    expect(o.series[0].name).toBe('GTX 480 · nomerger');
    expect(o.series[4].name).toBe('Titan · nomerger');
    expect(o.series[5].data).toEqual(TYPES.map((_, t) => stall(1, t, 2)));
    // The first segment has the run's colour, the others lighter shades of it.
    expect(o.series[0].itemStyle.color).toBe(cols[0]!.color);
    expect(o.series[4].itemStyle.color).toBe(cols[1]!.color);
    expect(o.series[3].itemStyle.color).toBe(segmentColor(cols[0]!.color, 3, 4));
    expect(new Set(o.series.slice(0, 4).map((s: Loose) => s.itemStyle.color)).size).toBe(4);
    // Tooltip (rich text): every series at the category with its unit, and each run's total.
    const items = o.series.map((s: Loose, i: number) => ({ seriesName: s.name, seriesIndex: i, value: s.data[0], axisValueLabel: 'int' }));
    const text: string = o.tooltip.formatter(items);
    expect(text).toContain('Data type: int');
    expect(text).toContain('Titan · coalescing: 8,000 cycles');
    expect(text).toContain(`GTX 480 · stalls total: ${(1000 + 2000 + 3000 + 4000).toLocaleString('en-US')} cycles`);
    expect(text).toContain(`Titan · stalls total: ${(2 * 10_000).toLocaleString('en-US')} cycles`);
  });

  it('unstacked bars of several runs stand side by side; lines over cycles still overlay with sampling', () => {
    const cols = runColumns([summary('a', 'fermi480', 'GTX 480'), summary('b', 'titan', 'Titan')]);
    const time = timingResult(3000).series[0]!;
    const charts = compareCharts([
      { column: cols[0]!, series: [time, ...epochSeries(3000)] },
      { column: cols[1]!, series: [time, ...epochSeries(3000)] },
    ]);
    expect(charts.map((c) => c.title)).toEqual(['Time vs Data type', 'Occupancy per SM vs Cycle']);
    const bars = charts[0]!.option as Loose;
    expect(bars.series.map((s: Loose) => [s.type, s.stack])).toEqual([
      ['bar', undefined],
      ['bar', undefined],
    ]);
    expect(bars.series.map((s: Loose) => s.itemStyle.color)).toEqual([cols[0]!.color, cols[1]!.color]);
    const lines = charts[1]!.option as Loose;
    expect(lines.series.every((s: Loose) => s.type === 'line' && s.sampling === 'lttb')).toBe(true);
    expect(tint('#000000', 0.5)).toBe('#808080');
  });
});

// ---------------------------------------------------------------------------------------------
// RunTimeline.vue
// ---------------------------------------------------------------------------------------------

let wrapper: VueWrapper | null = null;
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
  setLab(null);
});

function chartOf(w: VueWrapper): Loose {
  return (w.findComponent(LabChart).vm as unknown as { chart: Loose }).chart;
}

describe('RunTimeline: a window of cycles bound to the chart zoom', () => {
  const epochs = 20_000;
  const last = (epochs - 1) * EPOCH;

  async function mountTimeline(): Promise<VueWrapper> {
    wrapper = mount(RunTimeline, { props: { series: epochSeries(epochs), title: 'MSHR occupancy' }, attachTo: document.body });
    await flushPromises();
    return wrapper;
  }
  const input = (w: VueWrapper, which: 'from' | 'to') => w.find(`[data-testid="timeline-${which}"]`);
  const zoomOf = (w: VueWrapper) => chartOf(w).getOption().dataZoom[0];

  it('opens on the whole run; typed cycles zoom the chart and the statistics follow the window', async () => {
    const w = await mountTimeline();
    expect((input(w, 'from').element as HTMLInputElement).value).toBe('0');
    expect((input(w, 'to').element as HTMLInputElement).value).toBe(String(last));
    expect(w.find('[data-testid="timeline-message"]').text()).toBe(`${last.toLocaleString('en-US')} cycles shown of ${last.toLocaleString('en-US')} cycles`);
    await input(w, 'from').setValue('100000');
    await input(w, 'to').setValue('200000');
    await input(w, 'to').trigger('change');
    await flushPromises();
    expect(zoomOf(w)).toMatchObject({ startValue: 100_000, endValue: 200_000 });
    expect(w.find('[data-testid="timeline-message"]').text()).toContain('100,000 cycles shown');
    // Mean and largest MSHR occupancy over epochs 1000..2000.
    let sum = 0;
    let max = -Infinity;
    for (let i = 1000; i <= 2000; i++) {
      sum += mshr(i);
      max = Math.max(max, mshr(i));
    }
    const row = w.find('[data-series="MSHR entries in use"]');
    expect(row.find('[data-testid="timeline-mean"]').text()).toBe(formatWithUnit(sum / 1001, 'entries'));
    expect(row.find('[data-testid="timeline-max"]').text()).toBe(formatWithUnit(max, 'entries'));
    expect(formatWithUnit(max, 'entries')).toMatch(/^28(\.\d+)? entries$/);
  });

  it('Earlier / Later move the window by its width (stopping at the ends); Whole run resets; Enter applies', async () => {
    const w = await mountTimeline();
    await input(w, 'from').setValue('500000');
    await input(w, 'to').setValue('600000');
    await w.find('[data-testid="timeline-window"]').trigger('submit');
    await w.find('[data-testid="timeline-earlier"]').trigger('click');
    expect(zoomOf(w)).toMatchObject({ startValue: 400_000, endValue: 500_000 });
    expect((input(w, 'from').element as HTMLInputElement).value).toBe('400000');
    await w.find('[data-testid="timeline-later"]').trigger('click');
    await w.find('[data-testid="timeline-later"]').trigger('click');
    expect(zoomOf(w)).toMatchObject({ startValue: 600_000, endValue: 700_000 });
    await input(w, 'from').setValue('1950000');
    await input(w, 'to').setValue(String(last));
    await w.find('[data-testid="timeline-window"]').trigger('submit');
    expect(w.find('[data-testid="timeline-later"]').attributes('disabled')).toBeDefined();
    await w.find('[data-testid="timeline-earlier"]').trigger('click');
    expect(zoomOf(w)).toMatchObject({ startValue: 1_950_000 - (last - 1_950_000), endValue: 1_950_000 });
    await w.find('[data-testid="timeline-whole"]').trigger('click');
    expect(zoomOf(w)).toMatchObject({ start: 0, end: 100 });
    expect((input(w, 'to').element as HTMLInputElement).value).toBe(String(last));
  });

  it('refuses a window that ends before it starts, in words; dragging the slider rewrites the inputs', async () => {
    const w = await mountTimeline();
    await input(w, 'from').setValue('300000');
    await input(w, 'to').setValue('200000');
    await input(w, 'to').trigger('change');
    expect(w.find('[data-testid="timeline-message"]').text()).toBe('The window must end after it starts.');
    expect(input(w, 'to').attributes('aria-invalid')).toBe('true');
    await input(w, 'to').setValue('');
    await input(w, 'to').trigger('change');
    expect(w.find('[data-testid="timeline-message"]').text()).toBe('Write the window as two numbers of cycles.');
    // The user zooms the chart itself (slider or wheel): the inputs follow.
    chartOf(w).dispatchAction({ type: 'dataZoom', start: 25, end: 50 });
    await tick();
    expect(Number((input(w, 'from').element as HTMLInputElement).value)).toBe(Math.round(0.25 * last));
    expect(Number((input(w, 'to').element as HTMLInputElement).value)).toBe(Math.round(0.5 * last));
    expect(w.find('[data-testid="timeline-message"]').text()).toContain(`${Math.round(0.25 * last).toLocaleString('en-US')} cycles shown`);
  });
});

// ---------------------------------------------------------------------------------------------
// RunView with a timing result
// ---------------------------------------------------------------------------------------------

const ID = '00000000-0000-4000-8000-0000000000aa';
const EXPERIMENTS: ExperimentInfo[] = [{ id: 'lash-stencil', title: 'LASH stencil', description: 'd', reproduces: ['LASH-F6'], params: [] }];

function detail(): RunDetail {
  return {
    ...summary(ID, 'fermi480', 'GTX 480'),
    preset: fermi,
    params: {},
    result: timingResult(20_000),
  };
}

function fakeLab(run: RunDetail): LabApi {
  return {
    runs: { get: vi.fn(async () => run), start: vi.fn(), list: vi.fn(async () => ({ total: 0, items: [] })), cancel: vi.fn(), update: vi.fn(), delete: vi.fn() },
    presets: { list: vi.fn(async () => []), get: vi.fn() },
    experiments: { list: vi.fn(async () => EXPERIMENTS) },
    reproduce: { references: vi.fn(async () => []), rows: vi.fn(async () => []) },
    app: { version: vi.fn() },
    on: () => () => {},
  } as unknown as LabApi;
}

describe('RunView with a timing result', () => {
  it('draws the time per type and the stall breakdown as bars, and the epoch series as a timeline with its window', async () => {
    setLab(fakeLab(detail()));
    setActivePinia(createPinia());
    const router = createRouter({ history: createMemoryHistory(), routes: [{ path: '/:p(.*)*', component: { template: '<div />' } }] });
    await router.push(`/runs/${ID}`);
    wrapper = mount(RunView, { props: { id: ID }, global: { plugins: [router] }, attachTo: document.body });
    await flushPromises();
    const charts = wrapper.findAllComponents(LabChart);
    expect(charts).toHaveLength(3);
    const [time, stalls, timeline] = charts;
    expect(time!.attributes('data-categorical')).toBe('true');
    expect(stalls!.attributes('data-categorical')).toBe('true');
    const so = (stalls!.vm as unknown as { chart: Loose }).chart.getOption();
    expect(so.title[0].text).toBe('Stall breakdown');
    expect(so.xAxis[0].data).toEqual(TYPES);
    expect(so.series.map((s: Loose) => [s.type, s.stack])).toEqual(REASONS.map(() => ['bar', 'stalls']));
    // The epoch series: one timeline chart with the window controls, its own row.
    const tl = wrapper.find('[data-testid="run-timeline"]');
    expect(tl.exists()).toBe(true);
    expect(tl.classes()).toContain('wide');
    expect(timeline!.attributes('data-categorical')).toBe('false');
    expect(timeline!.attributes('data-points')).toBe(String(2 * 20_000));
    expect(tl.find('[data-testid="timeline-from"]').exists()).toBe(true);
    expect(tl.findAll('[data-testid="timeline-stats"] tbody tr')).toHaveLength(2);
  });
});
