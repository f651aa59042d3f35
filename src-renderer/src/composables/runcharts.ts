/**
 * ECharts options for a run's series and for a fine-grained trace. Pure: plain data in, option
 * objects out (no DOM), so they can be tested without a canvas.
 *
 * Large data stays smooth: series travel to ECharts as flat typed arrays (x0, y0, x1, y1, ...),
 * lines use LTTB sampling (an epoch series over 100k cycles draws about two points per pixel
 * column of the visible window), scatters use large mode, and traces open zoomed into their start.
 *
 * Bars (style 'bar') draw on a category axis: the series' `xCategories` (x holds indices into
 * them, e.g. the data types of LASH Fig 6), or else the distinct x values with their unit. Bars of
 * series sharing a `stack` name are stacked; `group` names the chart a series belongs to.
 */
import type { EChartsOption, SeriesOption } from 'echarts';
import type { Series, Trace } from '../../../src-sim/experiments/types';
import { formatBytes, formatNumber } from '../../../src-main/shared/findings';

/** A series as a chart needs it: a Series (a StoredSeries is one). */
export type ChartSeries = Series;

export interface ChartGroup {
  key: string;
  title: string;
  series: ChartSeries[];
}

/** The key of the chart a series belongs to: its group when it names one, else its axes (labels and units). */
export function chartKey(s: Pick<ChartSeries, 'xLabel' | 'xUnit' | 'yLabel' | 'yUnit' | 'group'>): string {
  return s.group !== undefined && s.group !== '' ? `group\u0000${s.group}` : [s.xLabel, s.xUnit, s.yLabel, s.yUnit].join('\u0000');
}

/** Whether a group name reads as a title ("Fig 5: L2 throughput vs threads per block") rather than an id ("stalls"). */
export function groupIsTitle(group: string | undefined): group is string {
  return !!group && /\s/.test(group.trim());
}

/**
 * A chart's title: a group named in words is the title; otherwise "Latency vs array size" from the
 * series (their y labels joined with " / " where they differ).
 */
export function chartTitle(series: readonly Pick<ChartSeries, 'xLabel' | 'yLabel' | 'group'>[]): string {
  const s = series[0];
  if (!s) return '';
  if (groupIsTitle(s.group)) return s.group.trim();
  const x = `${s.xLabel.charAt(0).toLowerCase()}${s.xLabel.slice(1)}`;
  return `${[...new Set(series.map((t) => t.yLabel))].join(' / ')} vs ${x}`;
}

/**
 * Series share one chart when they name the same `group`, or (naming none) when they have the same
 * x and y labels and units; charts in the order their first series appears.
 */
export function chartGroups(series: readonly ChartSeries[]): ChartGroup[] {
  const groups = new Map<string, ChartGroup>();
  for (const s of series) {
    const key = chartKey(s);
    let g = groups.get(key);
    if (!g) {
      g = { key, title: '', series: [] };
      groups.set(key, g);
    }
    g.series.push(s);
  }
  for (const g of groups.values()) g.title = chartTitle(g.series);
  return [...groups.values()];
}

/** Whether a chart of these series draws on a category x axis (bars, or labelled categories). */
export function isCategorical(series: readonly Pick<ChartSeries, 'style' | 'xCategories'>[]): boolean {
  return series.some((s) => s.style === 'bar' || (s.xCategories?.length ?? 0) > 0);
}

export interface Categories {
  /** The axis labels, in order. */
  labels: string[];
  /** Per series: the category index of each of its points (-1: no such category). */
  slot: (s: Pick<ChartSeries, 'x' | 'xCategories'>) => Int32Array;
}

/**
 * The categories of a category axis: the labels of the first series that has `xCategories` (other
 * series' labels appended where they differ), else the distinct x values in ascending order,
 * written with their unit (256 threads, 16 KB). Maps each series' x to its category.
 */
export function categoriesOf(series: readonly Pick<ChartSeries, 'x' | 'xCategories' | 'xUnit'>[], format: (v: number, unit: string) => string = formatWithUnit): Categories {
  const labelled = series.some((s) => (s.xCategories?.length ?? 0) > 0);
  if (labelled) {
    const labels: string[] = [];
    const at = new Map<string, number>();
    for (const s of series)
      for (const l of s.xCategories ?? [])
        if (!at.has(l)) {
          at.set(l, labels.length);
          labels.push(l);
        }
    return {
      labels,
      slot: (s) => {
        const out = new Int32Array(s.x.length).fill(-1);
        const own = s.xCategories ?? [];
        for (let i = 0; i < s.x.length; i++) {
          const k = s.x[i];
          // x indexes the series' own labels; a series without labels indexes the axis directly.
          const label = own.length ? own[k] : labels[k];
          if (Number.isInteger(k) && label !== undefined) out[i] = at.get(label) ?? -1;
        }
        return out;
      },
    };
  }
  const values = new Set<number>();
  for (const s of series) for (let i = 0; i < s.x.length; i++) if (Number.isFinite(s.x[i])) values.add(s.x[i]);
  const sorted = [...values].sort((a, b) => a - b);
  const index = new Map(sorted.map((v, i) => [v, i]));
  const unit = series[0]?.xUnit ?? '';
  return {
    labels: sorted.map((v) => format(v, unit)),
    slot: (s) => {
      const out = new Int32Array(s.x.length).fill(-1);
      for (let i = 0; i < s.x.length; i++) out[i] = index.get(s.x[i]) ?? -1;
      return out;
    },
  };
}

/** A series' y values per category (null where it has no point), for a category axis. */
export function categoryData(s: Pick<ChartSeries, 'x' | 'y' | 'xCategories'>, cats: Categories): (number | null)[] {
  const out: (number | null)[] = new Array<number | null>(cats.labels.length).fill(null);
  const slot = cats.slot(s);
  for (let i = 0; i < slot.length; i++) if (slot[i] >= 0 && Number.isFinite(s.y[i])) out[slot[i]] = s.y[i];
  return out;
}

/** Sizes spanning more than this ratio (three decades) get a log axis, as the papers draw them. */
export const LOG_SPAN = 1000;

/** A log x axis when a series asks for one, or when byte sizes span more than three decades (never on a category axis). */
export function wantsLogX(series: readonly ChartSeries[]): boolean {
  if (isCategorical(series)) return false;
  if (series.some((s) => s.logX)) return true;
  if (!series.length || series.some((s) => s.xUnit !== 'B')) return false;
  let min = Infinity;
  let max = -Infinity;
  for (const s of series)
    for (let i = 0; i < s.x.length; i++) {
      const v = s.x[i];
      if (v > 0 && v < min) min = v;
      if (v > max) max = v;
    }
  return min > 0 && Number.isFinite(min) && max / min > LOG_SPAN;
}

/** "Latency (cycles)", or the label alone when the unit is empty. */
export function axisName(label: string, unit: string): string {
  return unit ? `${label} (${unit})` : label;
}

/** A tick or tooltip value with its unit: bytes as KB/MB, other numbers grouped. */
export function formatWithUnit(v: number, unit: string): string {
  if (unit === 'B') return formatBytes(v);
  const s = formatNumber(v);
  return unit ? `${s} ${unit}` : s;
}

/** A tick label: bytes as KB/MB, large numbers compact. */
export function tickLabel(v: number, unit: string): string {
  if (unit === 'B') return formatBytes(v);
  const a = Math.abs(v);
  if (a >= 1e9) return `${Number((v / 1e9).toPrecision(3))}G`;
  if (a >= 1e6) return `${Number((v / 1e6).toPrecision(3))}M`;
  if (a >= 1e4) return `${Number((v / 1e3).toPrecision(3))}k`;
  return formatNumber(v);
}

/** x, y as one flat typed array (x0, y0, x1, y1, ...), dropping points a log axis cannot show. */
export function interleave(x: ArrayLike<number>, y: ArrayLike<number>, positiveX = false): Float64Array {
  const n = Math.min(x.length, y.length);
  let keep = n;
  if (positiveX) {
    keep = 0;
    for (let i = 0; i < n; i++) if (x[i] > 0) keep++;
  }
  const out = new Float64Array(keep * 2);
  let j = 0;
  for (let i = 0; i < n; i++) {
    if (positiveX && !(x[i] > 0)) continue;
    out[j++] = x[i];
    out[j++] = y[i];
  }
  return out;
}

/** Smallest and largest x of the series (positive x only on a log axis); [0, 0] when empty. */
export function xExtent(series: readonly ChartSeries[], positiveOnly = false): [number, number] {
  let min = Infinity;
  let max = -Infinity;
  for (const s of series)
    for (let i = 0; i < s.x.length; i++) {
      const v = s.x[i];
      if (positiveOnly && !(v > 0)) continue;
      if (v < min) min = v;
      if (v > max) max = v;
    }
  return Number.isFinite(min) ? [min, max] : [0, 0];
}

/**
 * Tick spacing for a linear byte axis: a power of two giving 5 to 10 ticks over `span` bytes, so
 * the ticks read 0, 32 KB, 64 KB... as in the papers rather than 48.8 KB, 97.7 KB.
 */
export function byteInterval(span: number): number {
  if (!(span > 0)) return 1;
  return 2 ** Math.max(0, Math.ceil(Math.log2(span / 10)));
}

/** Multiples of a power-of-two byte spacing (5 to 10 of them) between lo and hi: the ticks of a byte axis. */
export function byteTicks(lo: number, hi: number): number[] {
  const step = byteInterval(hi - lo);
  const out: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9 && out.length < 64; v += step) out.push(v);
  return out;
}

/** The extent of a linear byte axis: whole ticks around the data. */
export function byteExtent(series: readonly ChartSeries[]): { min: number; max: number } {
  const [lo, hi] = xExtent(series);
  const step = byteInterval(hi - lo);
  const min = Math.floor(lo / step) * step;
  return { min, max: Math.max(Math.ceil(hi / step) * step, min + step) };
}

/** A linear byte axis from and to whole ticks around the data, labelled at powers of two (ticks follow zoom: see LabChart). */
function byteAxis(series: readonly ChartSeries[]) {
  const { min, max } = byteExtent(series);
  const ticks = byteTicks(min, max);
  return { min, max, axisTick: { customValues: ticks }, axisLabelValues: ticks };
}

/** A log axis pinned to the data, ticking at whole powers about ten times across it. */
function logExtent(series: readonly ChartSeries[], base: number): { min: number; max: number; interval: number } {
  const [min, max] = xExtent(series, true);
  const powers = min > 0 ? Math.log(max / min) / Math.log(base) : 0;
  return { min, max, interval: Math.max(1, Math.ceil(powers / 10)) };
}

/** Above this many points a series draws in ECharts' large mode without symbols. */
export const LARGE = 2000;

export interface ChartColors {
  fg: string;
  muted: string;
  border: string;
}

const LIGHT: ChartColors = { fg: '#1b1b1b', muted: '#666b73', border: '#d9dce1' };
const DARK: ChartColors = { fg: '#e4e6ea', muted: '#9aa1ab', border: '#353a42' };

export function chartColors(dark: boolean): ChartColors {
  return dark ? DARK : LIGHT;
}

function axisStyle(c: ChartColors) {
  return {
    nameTextStyle: { color: c.muted },
    axisLabel: { color: c.muted },
    axisLine: { lineStyle: { color: c.border } },
    splitLine: { lineStyle: { color: c.border, opacity: 0.6 } },
  };
}

/** The value (y) axis every run chart draws: its label with the unit, ticks in the unit. */
function valueAxis(label: string, unit: string, scale: boolean, c: ChartColors) {
  return {
    type: 'value' as const,
    name: axisName(label, unit),
    nameLocation: 'middle' as const,
    nameGap: 48,
    scale,
    ...axisStyle(c),
    axisLabel: { color: c.muted, formatter: (v: number) => tickLabel(v, unit) },
  };
}

function zoom(start?: number, end?: number, extra: Record<string, unknown> = {}): EChartsOption['dataZoom'] {
  const range = start !== undefined && end !== undefined ? { startValue: start, endValue: end } : {};
  return [
    { type: 'inside', xAxisIndex: 0, filterMode: 'filter', ...range },
    { type: 'slider', xAxisIndex: 0, filterMode: 'filter', height: 18, bottom: 8, ...range, ...extra },
  ];
}

const TOOLBOX: EChartsOption['toolbox'] = {
  right: 8,
  top: 0,
  feature: { dataZoom: { yAxisIndex: 'none', title: { zoom: 'Zoom to a range', back: 'Undo zoom' } }, restore: { title: 'Reset zoom' }, saveAsImage: { title: 'Save as PNG' } },
};

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/** Categories beyond which a category axis gets a zoom slider (and labels may skip). */
export const MANY_CATEGORIES = 24;

interface StackTotal {
  stack: string;
  total: number;
  members: number;
}

/** Per stack with more than one series drawn at this category: the total of its bars. */
function stackTotals(items: readonly { seriesIndex: number; value: unknown }[], stackOf: readonly (string | undefined)[]): StackTotal[] {
  const totals = new Map<string, StackTotal>();
  for (const it of items) {
    const stack = stackOf[it.seriesIndex];
    const v = Number(it.value);
    if (!stack || it.value === null || it.value === undefined || !Number.isFinite(v)) continue;
    const t = totals.get(stack) ?? { stack, total: 0, members: 0 };
    t.total += v;
    t.members++;
    totals.set(stack, t);
  }
  return [...totals.values()].filter((t) => t.members > 1);
}

/**
 * The option for series on a category axis: bars (stacked where they share a `stack`), and lines
 * or points beside them. Tooltips list every series at the category with its unit and the total of
 * each stack; the y axis starts at zero where bars are drawn.
 */
export function categoryOption(series: readonly ChartSeries[], opts: { dark?: boolean; title?: string } = {}): EChartsOption {
  const c = chartColors(!!opts.dark);
  const first = series[0];
  const cats = categoriesOf(series);
  const xUnit = first?.xUnit ?? '';
  const yUnit = first?.yUnit ?? '';
  const labelled = series.some((s) => (s.xCategories?.length ?? 0) > 0);
  const bars = series.some((s) => s.style === 'bar');
  const stackOf = series.map((s) => (s.style === 'bar' && s.stack ? s.stack : undefined));
  const many = cats.labels.length > MANY_CATEGORIES;
  const longest = cats.labels.reduce((m, l) => Math.max(m, l.length), 0);
  // Labels turn when they would not fit side by side (about 60 characters across a chart).
  const turn = !many && cats.labels.length * (longest + 2) > 60;
  const out: SeriesOption[] = series.map((s, i) => {
    const data = categoryData(s, cats);
    if (s.style === 'bar')
      return { type: 'bar', name: s.name, data, stack: stackOf[i], barMaxWidth: 56, emphasis: { focus: 'series' }, large: data.length > LARGE, largeThreshold: LARGE } as SeriesOption;
    if (s.style === 'scatter') return { type: 'scatter', name: s.name, data, symbolSize: 6 } as SeriesOption;
    return { type: 'line', name: s.name, data, step: s.style === 'step' ? 'end' : undefined, showSymbol: data.length <= 200, symbolSize: 5, lineStyle: { width: 1.6 }, connectNulls: true } as SeriesOption;
  });
  return {
    backgroundColor: 'transparent',
    animation: cats.labels.length * series.length < 20_000,
    title: opts.title ? { text: opts.title, left: 8, top: 0, textStyle: { fontSize: 13, fontWeight: 600, color: c.fg } } : undefined,
    grid: { left: 64, right: 28, top: 56, bottom: many ? 78 : turn ? 48 + Math.min(60, longest * 5) : 48, containLabel: false },
    legend: { type: 'scroll', top: 24, left: 8, right: 90, textStyle: { color: c.fg } },
    toolbox: { ...TOOLBOX, feature: { saveAsImage: { title: 'Save as PNG' } } },
    tooltip: {
      trigger: 'axis',
      confine: true,
      axisPointer: { type: 'shadow' },
      formatter: (params: unknown) => {
        const list = (Array.isArray(params) ? params : [params]) as { seriesName: string; seriesIndex: number; marker: string; value: unknown; axisValueLabel?: string; name?: string }[];
        if (!list.length) return '';
        const label = list[0].axisValueLabel ?? list[0].name ?? '';
        const head = `${escapeHtml(first?.xLabel ? `${first.xLabel}: ` : '')}<b>${escapeHtml(label)}</b>`;
        const lines = list
          .filter((p) => p.value !== null && p.value !== undefined && p.value !== '-')
          .map((p) => `${p.marker}${escapeHtml(p.seriesName)}: <b>${formatWithUnit(Number(p.value), yUnit)}</b>`);
        const totals = stackTotals(list, stackOf).map((t) => `${escapeHtml(t.stack)} total: <b>${formatWithUnit(t.total, yUnit)}</b>`);
        return [head, ...lines, ...totals].join('<br/>');
      },
    },
    xAxis: {
      type: 'category',
      data: cats.labels,
      name: axisName(first?.xLabel ?? '', labelled ? '' : xUnit),
      nameLocation: 'middle',
      nameGap: turn ? 28 + Math.min(60, longest * 5) : 28,
      axisLabel: { color: c.muted, interval: many ? 'auto' : 0, hideOverlap: many, rotate: turn ? 30 : 0 },
      axisTick: { alignWithLabel: true },
      axisLine: { lineStyle: { color: c.border } },
      splitLine: { show: false },
      nameTextStyle: { color: c.muted },
    },
    yAxis: valueAxis(first?.yLabel ?? '', yUnit, !bars && !startsAtZero(series), c),
    dataZoom: many ? zoom() : undefined,
    series: out,
  };
}

/** The option for a group of series sharing axes (a category axis where they are bars or labelled categories). */
/**
 * A chart of shares or rates (every y from 0 to 1, the y label naming a share, rate or fraction)
 * starts its y axis at zero: auto-scaled, equal shares of 0.1635 and 0.1675 look far apart.
 */
export function startsAtZero(series: readonly Pick<ChartSeries, 'y' | 'yLabel'>[]): boolean {
  if (!series.length || !series.every((s) => /\b(share|rate|fraction)\b/i.test(s.yLabel))) return false;
  for (const s of series) for (let i = 0; i < s.y.length; i++) if (!(s.y[i]! >= 0 && s.y[i]! <= 1)) return false;
  return true;
}

export function seriesOption(series: readonly ChartSeries[], opts: { dark?: boolean; logX?: boolean; title?: string } = {}): EChartsOption {
  if (isCategorical(series)) return categoryOption(series, opts);
  const c = chartColors(!!opts.dark);
  const first = series[0];
  const logX = opts.logX ?? wantsLogX(series);
  const xUnit = first?.xUnit ?? '';
  const yUnit = first?.yUnit ?? '';
  const total = series.reduce((a, s) => a + s.x.length, 0);
  const anyLine = series.some((s) => s.style !== 'scatter');
  const bytes = !logX && xUnit === 'B' && series.length ? byteAxis(series) : null;
  const out: SeriesOption[] = series.map((s) => {
    const data = interleave(s.x, s.y, logX);
    const n = data.length / 2;
    const large = n > LARGE;
    if (s.style === 'scatter')
      return { type: 'scatter', name: s.name, data, dimensions: ['x', 'y'], symbolSize: large ? 2 : 5, large, largeThreshold: LARGE, progressive: 200_000 } as SeriesOption;
    return {
      type: 'line',
      name: s.name,
      data,
      dimensions: ['x', 'y'],
      step: s.style === 'step' ? 'end' : undefined,
      showSymbol: n <= 200,
      symbolSize: 5,
      sampling: 'lttb',
      lineStyle: { width: 1.6 },
      // Typed-array data is supported at runtime for every series (ECharts' typedArray source format);
      // the line series' typings list plain arrays only.
    } as unknown as SeriesOption;
  });
  return {
    backgroundColor: 'transparent',
    animation: total < 20_000,
    title: opts.title ? { text: opts.title, left: 8, top: 0, textStyle: { fontSize: 13, fontWeight: 600, color: c.fg } } : undefined,
    grid: { left: 64, right: 28, top: 56, bottom: 78, containLabel: false },
    legend: { type: 'scroll', top: 24, left: 8, right: 90, textStyle: { color: c.fg } },
    toolbox: TOOLBOX,
    tooltip: {
      trigger: anyLine && total <= 50_000 ? 'axis' : 'item',
      confine: true,
      axisPointer: { type: 'cross', label: { formatter: (p: { axisDimension?: string; value: unknown }) => formatWithUnit(Number(p.value), p.axisDimension === 'y' ? yUnit : xUnit) } },
      formatter: (params: unknown) => {
        const list = (Array.isArray(params) ? params : [params]) as { seriesName: string; marker: string; value: ArrayLike<number> }[];
        if (!list.length) return '';
        const x = list[0].value[0];
        const head = `${escapeHtml(axisName(first?.xLabel ?? 'x', ''))}: <b>${formatWithUnit(x, xUnit)}</b>`;
        const lines = list.map((p) => `${p.marker}${escapeHtml(p.seriesName)}: <b>${formatWithUnit(p.value[1], yUnit)}</b>`);
        return [head, ...lines].join('<br/>');
      },
    },
    xAxis: {
      type: logX ? 'log' : 'value',
      ...(bytes ? { min: bytes.min, max: bytes.max, axisTick: bytes.axisTick } : {}),
      // A log axis would round its extent out to whole powers (1 KB..4 MB drawn to 1 GB): pin it to the data.
      ...(logX ? logExtent(series, xUnit === 'B' ? 2 : 10) : {}),
      name: axisName(first?.xLabel ?? '', xUnit),
      nameLocation: 'middle',
      nameGap: 28,
      scale: !logX,
      logBase: logX && xUnit === 'B' ? 2 : 10,
      axisLabel: { color: c.muted, formatter: (v: number) => tickLabel(v, xUnit), hideOverlap: true, ...(bytes ? { customValues: bytes.axisLabelValues } : {}) },
      axisLine: { lineStyle: { color: c.border } },
      splitLine: { show: false },
      nameTextStyle: { color: c.muted },
    },
    yAxis: valueAxis(first?.yLabel ?? '', yUnit, !startsAtZero(series), c),
    dataZoom: zoom(),
    series: out,
  };
}

/** Whether a chart's series form a timeline: lines over cycles (per-epoch occupancy, stalls...), inspected through a window. */
export function isTimeline(series: readonly Pick<ChartSeries, 'xUnit' | 'style' | 'xCategories'>[]): boolean {
  return series.length > 0 && !isCategorical(series) && series.every((s) => s.xUnit === 'cycles' && s.style !== 'scatter');
}

export interface WindowStats {
  /** Points with from <= x <= to. */
  points: number;
  /** Mean y over them (NaN when none). */
  mean: number;
  /** Largest y among them (NaN when none). */
  max: number;
}

/** A series' mean and largest y over the points whose x lies in [from, to] (non-finite y skipped). */
export function windowStats(s: Pick<ChartSeries, 'x' | 'y'>, from: number, to: number): WindowStats {
  let points = 0;
  let sum = 0;
  let max = -Infinity;
  const n = Math.min(s.x.length, s.y.length);
  for (let i = 0; i < n; i++) {
    const x = s.x[i];
    const y = s.y[i];
    if (!(x >= from && x <= to) || !Number.isFinite(y)) continue;
    points++;
    sum += y;
    if (y > max) max = y;
  }
  return points ? { points, mean: sum / points, max } : { points: 0, mean: NaN, max: NaN };
}

/** Colours of the served levels: hits green, memory red, levels between amber, blue, purple. */
export function levelColors(levels: number): string[] {
  const middle = ['#d99a1e', '#3f7fcf', '#8e5bc4', '#c45b9a'];
  return Array.from({ length: levels }, (_, i) => (i === 0 ? '#2e9d5b' : i === levels - 1 ? '#d64541' : middle[(i - 1) % middle.length]));
}

/** Accesses a trace chart shows when it opens (zoom out with the slider). */
export const TRACE_WINDOW = 4000;
/** Buckets across the visible span when a trace is decimated (about two per pixel column). */
export const TRACE_BUCKETS = 3000;

type TraceLike = Pick<Trace, 'address' | 'latency' | 'level' | 'levelNames'>;

export interface TraceWindow {
  /** Per served level: interleaved (access, latency) points. */
  levels: Float64Array[];
  /** Interleaved (access, array index) points. */
  index: Float64Array;
  /** Accesses per bucket (1: every point). */
  bucket: number;
  from: number;
  to: number;
}

/**
 * Per-level extremes of a trace over blocks of 16, 256 and 4096 accesses, built once per trace, so
 * that a zoomed-out window is assembled from blocks instead of from every access.
 */
interface Tier {
  size: number;
  /** Per block and level (block * levels + level): the access with the lowest / highest latency, -1 none. */
  minAt: Int32Array;
  maxAt: Int32Array;
  /** Per block: the access with the lowest / highest address. */
  lowAt: Int32Array;
  highAt: Int32Array;
}

const TIER_FACTOR = 16;
const tiersOf = new WeakMap<object, Tier[]>();

/** Builds a trace's blocks ahead of the first zoom-out (call when idle). */
export function prepareTraceWindows(trace: TraceLike): void {
  tiers(trace);
}

function tiers(trace: TraceLike): Tier[] {
  const cached = tiersOf.get(trace);
  if (cached) return cached;
  const n = trace.latency.length;
  const levels = trace.levelNames.length;
  const lat = trace.latency;
  const addr = trace.address;
  const out: Tier[] = [];
  let prev: Tier | null = null;
  for (let size = TIER_FACTOR; size < n; size *= TIER_FACTOR) {
    const blocks = Math.ceil(n / size);
    const t: Tier = {
      size,
      minAt: new Int32Array(blocks * levels).fill(-1),
      maxAt: new Int32Array(blocks * levels).fill(-1),
      lowAt: new Int32Array(blocks),
      highAt: new Int32Array(blocks),
    };
    for (let b = 0; b < blocks; b++) {
      const o = b * levels;
      const first = b * size;
      t.lowAt[b] = first;
      t.highAt[b] = first;
      if (!prev) {
        const end = Math.min(n, first + size);
        for (let i = first; i < end; i++) {
          const l = Math.min(trace.level[i], levels - 1);
          const lo = t.minAt[o + l];
          if (lo < 0 || lat[i] < lat[lo]) t.minAt[o + l] = i;
          const hi = t.maxAt[o + l];
          if (hi < 0 || lat[i] > lat[hi]) t.maxAt[o + l] = i;
          if (addr[i] < addr[t.lowAt[b]]) t.lowAt[b] = i;
          if (addr[i] > addr[t.highAt[b]]) t.highAt[b] = i;
        }
      } else {
        const p: Tier = prev;
        const subs = Math.min(p.lowAt.length, (b + 1) * TIER_FACTOR);
        for (let c = b * TIER_FACTOR; c < subs; c++) {
          for (let l = 0; l < levels; l++) {
            const a = p.minAt[c * levels + l];
            if (a >= 0 && (t.minAt[o + l] < 0 || lat[a] < lat[t.minAt[o + l]])) t.minAt[o + l] = a;
            const z = p.maxAt[c * levels + l];
            if (z >= 0 && (t.maxAt[o + l] < 0 || lat[z] > lat[t.maxAt[o + l]])) t.maxAt[o + l] = z;
          }
          if (addr[p.lowAt[c]] < addr[t.lowAt[b]]) t.lowAt[b] = p.lowAt[c];
          if (addr[p.highAt[c]] > addr[t.highAt[b]]) t.highAt[b] = p.highAt[c];
        }
      }
    }
    out.push(t);
    prev = t;
  }
  tiersOf.set(trace, out);
  return out;
}

/**
 * The points a trace chart draws for the visible accesses [from, to]: every point of that span and
 * one span either side (so panning shows data at once), or, when a pixel column would hold several
 * accesses, per bucket of accesses and per level only the fastest and the slowest access (and the
 * lowest and highest array index). Nothing visible is lost (a lone miss among hits survives), and a
 * 2 M-access trace draws a few thousand points instead of millions. Wide buckets are assembled from
 * precomputed blocks (see tiers), so even the whole trace takes a few milliseconds.
 */
export function traceWindow(trace: TraceLike, from: number, to: number, elementBytes = 4, buckets = TRACE_BUCKETS): TraceWindow {
  const n = trace.latency.length;
  const levels = trace.levelNames.length;
  const lo0 = Math.max(0, Math.min(n - 1, Math.floor(from)));
  const hi0 = Math.max(lo0, Math.min(n - 1, Math.ceil(to)));
  const span = hi0 - lo0 + 1;
  let bucket = Math.max(1, Math.ceil(span / buckets));
  // Whole blocks of the largest tier that fits in a bucket (the bucket rounded down to its multiple).
  const tier = bucket >= TIER_FACTOR ? tiers(trace).filter((t) => t.size <= bucket).pop() : undefined;
  const unit = tier ? tier.size : 1;
  if (tier) bucket = Math.floor(bucket / unit) * unit;
  const lo = Math.floor(Math.max(0, lo0 - span) / unit) * unit;
  const hi = Math.min(n - 1, hi0 + span);
  const count = hi - lo + 1;
  const nb = Math.ceil(count / bucket);
  const cap = bucket === 1 ? count : nb * 2;
  const out = Array.from({ length: levels }, () => new Float64Array(cap * 2));
  const fill = new Int32Array(levels);
  const index = new Float64Array(cap * 2);
  let fi = 0;
  const lat = trace.latency;
  const addr = trace.address;
  if (bucket === 1) {
    for (let i = lo; i <= hi; i++) {
      const l = Math.min(trace.level[i], levels - 1);
      out[l][fill[l]++] = i;
      out[l][fill[l]++] = lat[i];
      index[fi++] = i;
      index[fi++] = Math.floor(addr[i] / elementBytes);
    }
  } else {
    const minI = new Int32Array(levels);
    const maxI = new Int32Array(levels);
    for (let b = lo; b <= hi; b += bucket) {
      const end = Math.min(hi, b + bucket - 1);
      minI.fill(-1);
      maxI.fill(-1);
      let iLow = b;
      let iHigh = b;
      if (tier) {
        for (let c = b / unit; c * unit <= end; c++) {
          for (let l = 0; l < levels; l++) {
            const a = tier.minAt[c * levels + l];
            if (a >= 0 && (minI[l] < 0 || lat[a] < lat[minI[l]])) minI[l] = a;
            const z = tier.maxAt[c * levels + l];
            if (z >= 0 && (maxI[l] < 0 || lat[z] > lat[maxI[l]])) maxI[l] = z;
          }
          if (addr[tier.lowAt[c]] < addr[iLow]) iLow = tier.lowAt[c];
          if (addr[tier.highAt[c]] > addr[iHigh]) iHigh = tier.highAt[c];
        }
      } else {
        for (let i = b; i <= end; i++) {
          const l = Math.min(trace.level[i], levels - 1);
          if (minI[l] < 0 || lat[i] < lat[minI[l]]) minI[l] = i;
          if (maxI[l] < 0 || lat[i] > lat[maxI[l]]) maxI[l] = i;
          if (addr[i] < addr[iLow]) iLow = i;
          if (addr[i] > addr[iHigh]) iHigh = i;
        }
      }
      for (let l = 0; l < levels; l++) {
        if (minI[l] < 0) continue;
        const a = Math.min(minI[l], maxI[l]);
        const z = Math.max(minI[l], maxI[l]);
        out[l][fill[l]++] = a;
        out[l][fill[l]++] = lat[a];
        if (z !== a) {
          out[l][fill[l]++] = z;
          out[l][fill[l]++] = lat[z];
        }
      }
      const a = Math.min(iLow, iHigh);
      const z = Math.max(iLow, iHigh);
      index[fi++] = a;
      index[fi++] = Math.floor(addr[a] / elementBytes);
      if (z !== a) {
        index[fi++] = z;
        index[fi++] = Math.floor(addr[z] / elementBytes);
      }
    }
  }
  return { levels: out.map((o, l) => o.subarray(0, fill[l])), index: index.subarray(0, fi), bucket, from: lo, to: hi };
}

/** Series data for a trace window, as a partial option that replaces the data of the trace chart's series. */
export function traceWindowUpdate(trace: TraceLike, startPercent: number, endPercent: number, elementBytes = 4): EChartsOption {
  const n = trace.latency.length;
  const from = (startPercent / 100) * Math.max(0, n - 1);
  const to = (endPercent / 100) * Math.max(0, n - 1);
  const w = traceWindow(trace, from, to, elementBytes);
  const series: SeriesOption[] = [];
  w.levels.forEach((data, l) => series.push({ id: `level${l}`, data } as unknown as SeriesOption));
  series.push({ id: 'index', data: w.index } as unknown as SeriesOption);
  return { series };
}

/**
 * The per-access latency trace: one scatter series per served level (trace.level with
 * trace.levelNames; level 0 = a hit in the first level), and the array index (address / 4 bytes)
 * on a second y axis. It opens on the first TRACE_WINDOW accesses; as the user zooms, the chart
 * asks traceWindowUpdate for the visible span's points (see RunTraceChart).
 */
export function traceOption(trace: TraceLike, opts: { dark?: boolean; title?: string; elementBytes?: number } = {}): EChartsOption {
  const c = chartColors(!!opts.dark);
  const n = trace.latency.length;
  const levels = trace.levelNames.length;
  const counts = new Int32Array(levels);
  for (let i = 0; i < n; i++) counts[Math.min(trace.level[i], levels - 1)]++;
  const end = Math.min(n - 1, TRACE_WINDOW - 1);
  const w = traceWindow(trace, 0, end, opts.elementBytes ?? 4);
  const colors = levelColors(levels);
  const names = trace.levelNames.map((name, l) => `${l === 0 ? `${name} hit` : name} (${counts[l].toLocaleString('en-US')})`);
  const series: SeriesOption[] = [];
  for (let l = 0; l < levels; l++) {
    // Every level gets a series (an empty one when it served nothing), so window updates address them by id.
    series.push({
      id: `level${l}`,
      type: 'scatter',
      name: names[l],
      data: w.levels[l],
      dimensions: ['access', 'latency'],
      yAxisIndex: 0,
      // Squares: large mode fills them as rectangles, far cheaper than circles for thousands of points.
      symbol: 'rect',
      symbolSize: 3,
      itemStyle: { color: colors[l] },
      large: true,
      largeThreshold: LARGE,
      z: 3,
    } as SeriesOption);
  }
  series.push({
    id: 'index',
    type: 'line',
    name: 'array index',
    data: w.index,
    dimensions: ['access', 'index'],
    yAxisIndex: 1,
    showSymbol: false,
    lineStyle: { width: 1, opacity: 0.4, color: c.muted },
    itemStyle: { color: c.muted },
    z: 1,
  } as unknown as SeriesOption);
  return {
    backgroundColor: 'transparent',
    animation: false,
    title: opts.title ? { text: opts.title, left: 8, top: 0, textStyle: { fontSize: 13, fontWeight: 600, color: c.fg } } : undefined,
    grid: { left: 64, right: 76, top: 56, bottom: 78 },
    legend: { type: 'scroll', top: 24, left: 8, right: 90, textStyle: { color: c.fg }, data: names.filter((_, l) => counts[l] > 0).concat('array index') },
    toolbox: TOOLBOX,
    tooltip: {
      trigger: 'item',
      confine: true,
      formatter: (p: unknown) => {
        const q = p as { seriesName: string; marker: string; value: ArrayLike<number> };
        const i = q.value[0];
        const isIndex = q.seriesName === 'array index';
        const lvl = trace.level[i];
        const lines = [`Access <b>${formatNumber(i)}</b>`];
        if (isIndex) lines.push(`${q.marker}array index: <b>${formatNumber(q.value[1])} elements</b>`);
        else lines.push(`${q.marker}latency: <b>${formatNumber(q.value[1])} cycles</b>`, `served by: <b>${escapeHtml(trace.levelNames[lvl] ?? String(lvl))}</b>`);
        lines.push(`address: ${formatBytes(trace.address[i])} (0x${Math.floor(trace.address[i]).toString(16)})`);
        return lines.join('<br/>');
      },
    },
    xAxis: {
      type: 'value',
      name: 'Access',
      nameLocation: 'middle',
      nameGap: 28,
      min: 0,
      max: Math.max(0, n - 1),
      axisLabel: { color: c.muted, formatter: (v: number) => tickLabel(v, ''), hideOverlap: true },
      axisLine: { lineStyle: { color: c.border } },
      splitLine: { show: false },
      nameTextStyle: { color: c.muted },
    },
    yAxis: [
      {
        type: 'value',
        name: 'Latency (cycles)',
        nameLocation: 'middle',
        nameGap: 48,
        scale: true,
        ...axisStyle(c),
        axisLabel: { color: c.muted, formatter: (v: number) => tickLabel(v, '') },
      },
      {
        type: 'value',
        name: 'Array index (elements)',
        nameLocation: 'middle',
        nameGap: 56,
        position: 'right',
        scale: true,
        ...axisStyle(c),
        splitLine: { show: false },
        axisLabel: { color: c.muted, formatter: (v: number) => tickLabel(v, '') },
      },
    ],
    // The slider's preview would show only the loaded window: off.
    dataZoom: n > TRACE_WINDOW ? zoom(0, end, { showDataShadow: false }) : zoom(undefined, undefined, { showDataShadow: false }),
    series,
  };
}
