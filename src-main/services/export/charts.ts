/**
 * ECharts options from experiment series: which series share a chart, the option of each chart,
 * colours, and downsampling so that a chart holds about as many points as it has pixels.
 *
 * Pure: no Node, DOM or ECharts runtime imports (types only), so that the renderer can build the
 * same options for its interactive charts. The PDF export renders them server-side to SVG.
 *
 * Series that name a `group` share a chart; others share one when their axes match. Bars (style
 * 'bar') draw on a category axis (the series' `xCategories`, else the distinct x values with their
 * unit); bars sharing a `stack` are stacked, per run in a comparison (segments in shades of the
 * run's colour, one stacked bar per run at each category).
 */
import type { BarSeriesOption, EChartsOption, LineSeriesOption, ScatterSeriesOption } from 'echarts';
import { formatBytes } from '../../../src-sim/experiments/params';
import type { Series } from '../../../src-sim/experiments/types';

/** One drawn series. */
export interface ChartLine {
  name: string;
  x: ArrayLike<number>;
  y: ArrayLike<number>;
  style?: Series['style'];
  color?: string;
  dash?: 'solid' | 'dashed' | 'dotted';
  /** Bars with the same stack are stacked (a comparison prefixes it with the run's label). */
  stack?: string;
  /** A categorical x: x holds indices into these labels. */
  xCategories?: string[];
}

/** A chart: its axes and the series drawn on them. */
export interface ChartSpec {
  title: string;
  xLabel: string;
  xUnit: string;
  yLabel: string;
  yUnit: string;
  logX: boolean;
  lines: ChartLine[];
}

/** Series of one run, with the colour of its preset and an offset that varies dashes between runs of the same preset. */
export interface ChartRun {
  label: string;
  color: string;
  dashOffset?: number;
  series: readonly Series[];
}

export interface ChartSize {
  width: number;
  height: number;
  fontSize?: number;
  /** Points drawn per line series at most (default: four per unit of plot width, see `downsampleLine`; bounded per chart). */
  maxPoints?: number;
  /** Draw the title inside the chart (the PDF writes it as text above instead). */
  showTitle?: boolean;
}

/** Colours of the built-in presets (one per GPU), then a palette for the others. */
export const PRESET_COLORS: Readonly<Record<string, string>> = {
  tesla: '#c0392b',
  fermi: '#2e6fb7',
  fermi480: '#17a2a0',
  kepler: '#3f9a3a',
  titan: '#e07b12',
};
export const PALETTE: readonly string[] = ['#2e6fb7', '#c0392b', '#3f9a3a', '#e07b12', '#8e44ad', '#17a2a0', '#b8860b', '#7f6a5a', '#d6508f', '#555f6b'];
const DASHES = ['solid', 'dashed', 'dotted'] as const;
const FONT = 'Helvetica, Arial, sans-serif';
/**
 * Size of a scatter symbol (a square: squares tile, so a dense cloud reads as a filled area), and
 * of the grid cells that scatter downsampling keeps one point of.
 */
const SCATTER_CELL = 3;
/** Points one chart draws at most, all series together (a comparison of many runs shares it). */
const CHART_POINTS = 40_000;
/** Scatter symbols one chart draws at most (each is a path of its own, slow to convert into the PDF). */
const SCATTER_POINTS = 10_000;
const MAX_LEGEND_ITEMS = 32;
const MAX_LEGEND_ROWS = 6;

/** Every k-th point, so that at most `max` remain (first and last kept). */
function thin(data: [number, number][], max: number): [number, number][] {
  if (data.length <= max) return data;
  const step = (data.length - 1) / (max - 1);
  return Array.from({ length: max }, (_, i) => data[Math.round(i * step)]);
}

/** One colour per preset id: built-in presets keep theirs; others take palette colours not yet used. */
export function presetColors(presetIds: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const used = new Set<string>();
  for (const id of presetIds) {
    const c = PRESET_COLORS[id];
    if (c && !out.has(id)) {
      out.set(id, c);
      used.add(c);
    }
  }
  let next = 0;
  for (const id of presetIds) {
    if (out.has(id)) continue;
    const free = PALETTE.filter((c) => !used.has(c));
    const c = free.length ? free[0] : PALETTE[next++ % PALETTE.length];
    out.set(id, c);
    used.add(c);
  }
  return out;
}

/** Series drawn on the same chart: those naming the same group, else those with the same axes (labels, units and scale). */
export function axesKey(s: Pick<Series, 'xLabel' | 'xUnit' | 'yLabel' | 'yUnit' | 'logX' | 'group'>): string {
  return s.group ? JSON.stringify(['group', s.group]) : JSON.stringify([s.xLabel, s.xUnit, s.yLabel, s.yUnit, !!s.logX]);
}

/** Whether a chart draws on a category axis: it has bars, or labelled categories. */
export function isCategorical(spec: Pick<ChartSpec, 'lines'>): boolean {
  return spec.lines.some((l) => l.style === 'bar' || (l.xCategories?.length ?? 0) > 0);
}

/** A colour mixed with white by `amount` (0..1): the shades of one run's stacked segments. */
export function tint(hex: string, amount: number): string {
  const m = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!m) return hex;
  const n = parseInt(m[1], 16);
  const mix = (c: number): number => Math.round(c + (255 - c) * Math.max(0, Math.min(1, amount)));
  return `#${[mix((n >> 16) & 255), mix((n >> 8) & 255), mix(n & 255)].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

function withUnit(label: string, unit: string): string {
  return unit ? `${label} (${unit})` : label;
}

function specFor(s: Series): ChartSpec {
  return { title: `${s.yLabel} vs ${s.xLabel}`.trim(), xLabel: s.xLabel, xUnit: s.xUnit, yLabel: s.yLabel, yUnit: s.yUnit, logX: !!s.logX, lines: [] };
}

/** A group named in words ("Fig 5: L2 throughput vs threads per block") is the title; else the y labels (joined with " / " where they differ) vs the x label. */
function retitle(spec: ChartSpec, members: readonly Series[]): void {
  const group = members[0]?.group?.trim();
  if (group && /\s/.test(group)) spec.title = group;
  else spec.title = `${[...new Set(members.map((s) => s.yLabel))].join(' / ')} vs ${spec.xLabel}`.trim();
}

/** The charts of one run: one per set of axes, its series in palette colours. */
export function runCharts(series: readonly Series[]): ChartSpec[] {
  const charts = new Map<string, ChartSpec>();
  const members = new Map<string, Series[]>();
  for (const s of series) {
    const key = axesKey(s);
    members.set(key, [...(members.get(key) ?? []), s]);
    let c = charts.get(key);
    if (!c) charts.set(key, (c = specFor(s)));
    c.lines.push({ name: s.name, x: s.x, y: s.y, style: s.style, color: PALETTE[c.lines.length % PALETTE.length], dash: 'solid', stack: s.stack, xCategories: s.xCategories });
  }
  for (const [key, c] of charts) retitle(c, members.get(key) ?? []);
  return [...charts.values()];
}

/**
 * The charts of a comparison: one per set of axes, each run's series in its colour. A run with
 * several series on one chart draws them with different dashes (named "label: series").
 */
export function comparisonCharts(runs: readonly ChartRun[]): ChartSpec[] {
  const charts = new Map<string, ChartSpec>();
  const members = new Map<string, Series[]>();
  for (const run of runs) {
    const perChart = new Map<string, Series[]>();
    for (const s of run.series) {
      const key = axesKey(s);
      members.set(key, [...(members.get(key) ?? []), s]);
      if (!charts.has(key)) charts.set(key, specFor(s));
      perChart.set(key, [...(perChart.get(key) ?? []), s]);
    }
    for (const [key, list] of perChart) {
      const c = charts.get(key) as ChartSpec;
      list.forEach((s, i) => {
        // A run's stacked bars: one stack per run, its segments in shades of the run's colour.
        const peers = s.style === 'bar' && s.stack ? list.filter((o) => o.style === 'bar' && o.stack === s.stack) : [];
        const color = peers.length > 1 ? tint(run.color, (0.65 * peers.indexOf(s)) / (peers.length - 1)) : s.style === 'bar' && i > 0 ? tint(run.color, Math.min(0.6, 0.25 * i)) : run.color;
        c.lines.push({
          name: list.length === 1 ? run.label : `${run.label}: ${s.name}`,
          x: s.x,
          y: s.y,
          style: s.style,
          color,
          dash: DASHES[((run.dashOffset ?? 0) + i) % DASHES.length],
          stack: s.style === 'bar' && s.stack ? `${run.label}: ${s.stack}` : undefined,
          xCategories: s.xCategories,
        });
      });
    }
  }
  for (const [key, c] of charts) retitle(c, members.get(key) ?? []);
  return [...charts.values()];
}

/**
 * Keeps the shape of a line with at most `maxPoints` points: the points are cut into buckets of
 * consecutive indices and each bucket keeps its first, lowest, highest and last point (so spikes
 * and steps survive). Non-finite values are dropped.
 */
export function downsampleLine(x: ArrayLike<number>, y: ArrayLike<number>, maxPoints: number): [number, number][] {
  const keep: number[] = [];
  for (let i = 0; i < x.length; i++) if (Number.isFinite(x[i]) && Number.isFinite(y[i])) keep.push(i);
  if (keep.length <= maxPoints) return keep.map((i) => [x[i], y[i]]);
  const buckets = Math.max(1, Math.floor(maxPoints / 4));
  const out: [number, number][] = [];
  for (let b = 0; b < buckets; b++) {
    const from = Math.floor((b * keep.length) / buckets);
    const to = Math.floor(((b + 1) * keep.length) / buckets);
    if (to <= from) continue;
    let lo = from;
    let hi = from;
    for (let j = from; j < to; j++) {
      if (y[keep[j]] < y[keep[lo]]) lo = j;
      if (y[keep[j]] > y[keep[hi]]) hi = j;
    }
    for (const j of [...new Set([from, lo, hi, to - 1])].sort((a, b2) => a - b2)) out.push([x[keep[j]], y[keep[j]]]);
  }
  return out;
}

/**
 * Keeps one point per cell of a `columns` x `rows` grid over the data's range (x on a log scale
 * when `logX`): a scatter plot looks the same and holds at most columns x rows points.
 */
export function downsampleScatter(x: ArrayLike<number>, y: ArrayLike<number>, columns: number, rows: number, logX = false): [number, number][] {
  const fx = (v: number): number => (logX ? Math.log(v) : v);
  let x0 = Infinity;
  let x1 = -Infinity;
  let y0 = Infinity;
  let y1 = -Infinity;
  for (let i = 0; i < x.length; i++) {
    if (!Number.isFinite(x[i]) || !Number.isFinite(y[i])) continue;
    const u = fx(x[i]);
    x0 = Math.min(x0, u);
    x1 = Math.max(x1, u);
    y0 = Math.min(y0, y[i]);
    y1 = Math.max(y1, y[i]);
  }
  const seen = new Set<number>();
  const out: [number, number][] = [];
  const cw = x1 > x0 ? (columns - 1) / (x1 - x0) : 0;
  const rh = y1 > y0 ? (rows - 1) / (y1 - y0) : 0;
  for (let i = 0; i < x.length; i++) {
    if (!Number.isFinite(x[i]) || !Number.isFinite(y[i])) continue;
    const cell = Math.round((fx(x[i]) - x0) * cw) * rows + Math.round((y[i] - y0) * rh);
    if (seen.has(cell)) continue;
    seen.add(cell);
    out.push([x[i], y[i]]);
  }
  return out;
}

/** Rows the legend takes at this width (about 0.55 em per character); 0 when it is not drawn (one series, or too many to list). */
export function legendRows(spec: ChartSpec, width: number, fontSize = 9): number {
  if (spec.lines.length < 2 || spec.lines.length > MAX_LEGEND_ITEMS) return 0;
  const usable = width - 20;
  let rows = 1;
  let at = 0;
  for (const l of spec.lines) {
    const w = 25 + 5 + l.name.length * fontSize * 0.55 + 10;
    if (at > 0 && at + w > usable) {
      rows++;
      at = 0;
    }
    at += w;
  }
  return rows <= MAX_LEGEND_ROWS ? rows : 0;
}

/** Interval, min and max of a byte axis with power-of-two ticks (labels such as "16 KB" stay exact). */
function byteTicks(lo: number, hi: number): { interval: number; min: number; max: number } | null {
  if (!(hi > lo) || lo < 0) return null;
  let interval = 2 ** Math.floor(Math.log2((hi - lo) / 4));
  if (!(interval >= 1)) return null;
  while ((hi - lo) / interval > 8) interval *= 2;
  return { interval, min: Math.floor(lo / interval) * interval, max: Math.ceil(hi / interval) * interval };
}

/** The value (y) axis of every PDF chart: the label with its unit, rotated; ticks in the unit. */
function valueAxis(spec: { yLabel: string; yUnit: string }, fontSize: number) {
  return {
    type: 'value' as const,
    name: withUnit(spec.yLabel, spec.yUnit),
    nameGap: 44,
    nameRotate: 90,
    nameLocation: 'middle' as const,
    nameTextStyle: { fontSize, color: '#333' },
    axisLabel: { fontSize: fontSize - 1, color: '#444', hideOverlap: true, formatter: tickLabel(spec.yUnit) },
    splitLine: { show: true, lineStyle: { color: '#e4e6ea' } },
  };
}

function tickLabel(unit: string): ((v: number) => string) | undefined {
  if (unit === 'B') return (v: number) => (v >= 0 && Number.isInteger(v) ? formatBytes(v) : String(v));
  return undefined;
}

/** The labels of a category axis and each line's y per category (null where it has no point). */
export function categories(spec: ChartSpec): { labels: string[]; values: (number | null)[][] } {
  const labelled = spec.lines.some((l) => (l.xCategories?.length ?? 0) > 0);
  const labels: string[] = [];
  const at = new Map<string, number>();
  const add = (l: string): void => {
    if (!at.has(l)) {
      at.set(l, labels.length);
      labels.push(l);
    }
  };
  const text = (v: number): string => (spec.xUnit === 'B' && v >= 0 && Number.isInteger(v) ? formatBytes(v) : spec.xUnit ? `${v} ${spec.xUnit}` : String(v));
  if (labelled) for (const l of spec.lines) for (const c of l.xCategories ?? []) add(c);
  else {
    const xs = new Set<number>();
    for (const l of spec.lines) for (let i = 0; i < l.x.length; i++) if (Number.isFinite(l.x[i])) xs.add(l.x[i]);
    for (const v of [...xs].sort((a, b) => a - b)) add(text(v));
  }
  const values = spec.lines.map((l) => {
    const out = new Array<number | null>(labels.length).fill(null);
    const own = l.xCategories ?? [];
    for (let i = 0; i < Math.min(l.x.length, l.y.length); i++) {
      const label = labelled ? (own.length ? own[l.x[i]] : labels[l.x[i]]) : text(l.x[i]);
      const k = label === undefined ? undefined : at.get(label);
      if (k !== undefined && Number.isFinite(l.y[i])) out[k] = l.y[i];
    }
    return out;
  });
  return { labels, values };
}

/** The option of a chart on a category axis: bars (stacked where they share a stack) and lines or points beside them. */
/** What every PDF chart shares: no animation, the font, the title when shown, the grid and the legend. */
function frame(spec: ChartSpec, size: ChartSize, fontSize: number, o: { top: number; bottom: number; legend: boolean; legendItemWidth: number }): EChartsOption {
  return {
    animation: false,
    textStyle: { fontFamily: FONT, fontSize },
    ...(size.showTitle ? { title: { text: spec.title, left: 'center', textStyle: { fontSize: fontSize + 2, fontWeight: 'bold' } } } : {}),
    grid: { left: 64, right: 16, top: o.top, bottom: o.bottom },
    legend: o.legend
      ? { show: true, bottom: 2, left: 'center', itemWidth: o.legendItemWidth, itemHeight: 8, itemGap: 10, textStyle: { fontSize } }
      : { show: false },
  };
}

function categoryChartOption(spec: ChartSpec, size: ChartSize): EChartsOption {
  const fontSize = size.fontSize ?? 9;
  const legend = legendRows(spec, size.width, fontSize);
  const { labels, values } = categories(spec);
  const longest = labels.reduce((m, l) => Math.max(m, l.length), 0);
  // Long labels turn (and take room) when they would not fit side by side.
  const rotate = labels.length * longest * fontSize * 0.55 > Math.max(50, size.width - 80) ? 30 : 0;
  const top = size.showTitle ? 30 : 12;
  const bottom = 36 + (rotate ? Math.min(60, longest * fontSize * 0.3) : 0) + legend * (fontSize + 8);
  const bars = spec.lines.some((l) => l.style === 'bar');
  const labelled = spec.lines.some((l) => (l.xCategories?.length ?? 0) > 0);
  const series = spec.lines.map((l, i): BarSeriesOption | LineSeriesOption | ScatterSeriesOption => {
    const data = values[i];
    if (l.style === 'bar') return { type: 'bar', name: l.name, data, color: l.color, ...(l.stack ? { stack: l.stack } : {}), barMaxWidth: 36, itemStyle: { borderColor: '#ffffff', borderWidth: l.stack ? 0.4 : 0 } };
    if (l.style === 'scatter') return { type: 'scatter', name: l.name, data, color: l.color, symbol: 'rect', symbolSize: 5 };
    return { type: 'line', name: l.name, data, color: l.color, symbolSize: 4, connectNulls: true, lineStyle: { width: 1.4, type: l.dash ?? 'solid' } };
  });
  const axisName = { nameLocation: 'middle' as const, nameTextStyle: { fontSize, color: '#333' } };
  return {
    ...frame(spec, size, fontSize, { top, bottom, legend: legend > 0, legendItemWidth: 14 }),
    xAxis: {
      type: 'category',
      data: labels,
      name: withUnit(spec.xLabel, labelled ? '' : spec.xUnit),
      nameGap: 22 + (rotate ? Math.min(60, longest * fontSize * 0.3) : 0),
      ...axisName,
      axisTick: { alignWithLabel: true },
      axisLabel: { fontSize: fontSize - 1, color: '#444', interval: 0, rotate, hideOverlap: labels.length > 40 },
    },
    yAxis: { ...valueAxis(spec, fontSize), scale: !bars },
    series,
  };
}

/** The ECharts option of one chart (no animation: the same option serves the PDF and the screen). */
export function chartOption(spec: ChartSpec, size: ChartSize): EChartsOption {
  if (isCategorical(spec)) return categoryChartOption(spec, size);
  const fontSize = size.fontSize ?? 9;
  const legend = legendRows(spec, size.width, fontSize);
  const top = size.showTitle ? 30 : 12;
  const bottom = 36 + legend * (fontSize + 8);
  const plotWidth = Math.max(50, size.width - 80);
  const plotHeight = Math.max(40, size.height - top - bottom);
  const budget = Math.max(64, Math.floor(CHART_POINTS / Math.max(1, spec.lines.length)));
  const scatterBudget = Math.max(64, Math.floor(SCATTER_POINTS / Math.max(1, spec.lines.filter((l) => l.style === 'scatter').length)));
  const maxPoints = Math.min(size.maxPoints ?? Math.ceil(plotWidth) * 4, budget);
  let xLo = Infinity;
  let xHi = -Infinity;
  const series = spec.lines.map((l): LineSeriesOption | ScatterSeriesOption => {
    // Scatter: one point per cell of the symbol's size (more would only overdraw it).
    let data =
      l.style === 'scatter'
        ? downsampleScatter(l.x, l.y, Math.ceil(plotWidth / SCATTER_CELL), Math.ceil(plotHeight / SCATTER_CELL), spec.logX)
        : downsampleLine(l.x, l.y, maxPoints);
    if (spec.logX) data = data.filter((p) => p[0] > 0);
    data = thin(data, l.style === 'scatter' ? Math.min(budget, scatterBudget) : maxPoints);
    for (const p of data) {
      xLo = Math.min(xLo, p[0]);
      xHi = Math.max(xHi, p[0]);
    }
    if (l.style === 'scatter') return { type: 'scatter', name: l.name, data, symbol: 'rect', symbolSize: SCATTER_CELL, color: l.color, large: false };
    return {
      type: 'line',
      name: l.name,
      data,
      color: l.color,
      showSymbol: data.length <= 40,
      symbolSize: 4,
      step: l.style === 'step' ? 'end' : false,
      lineStyle: { width: 1.4, type: l.dash ?? 'solid' },
    };
  });
  const bytesX = !spec.logX && spec.xUnit === 'B' ? byteTicks(xLo, xHi) : null;
  const axisName = { nameLocation: 'middle' as const, nameTextStyle: { fontSize, color: '#333' } };
  const axisLabel = { fontSize: fontSize - 1, color: '#444', hideOverlap: true };
  return {
    ...frame(spec, size, fontSize, { top, bottom, legend: legend > 0, legendItemWidth: 20 }),
    xAxis: {
      type: spec.logX ? 'log' : 'value',
      ...(spec.logX ? { logBase: spec.xUnit === 'B' ? 2 : 10 } : {}),
      name: withUnit(spec.xLabel, spec.xUnit),
      nameGap: 22,
      ...axisName,
      ...(bytesX ? bytesX : { scale: true }),
      axisLabel: { ...axisLabel, formatter: tickLabel(spec.xUnit) },
      splitLine: { show: true, lineStyle: { color: '#e4e6ea' } },
    },
    yAxis: valueAxis(spec, fontSize),
    series,
  };
}
