/**
 * The compare view's logic, pure functions over runs as the API returns them:
 *  - refuse runs of different experiments (a comparison overlays runs of one experiment);
 *  - a colour and a legend name per run ("preset · series"), series grouped by their `group` or
 *    else their axes (same labels and units share one chart) and overlaid as ECharts options with
 *    units on the axes, log x where the experiment asks for it, LTTB sampling and zoom for long
 *    series; bars on a category axis grouped side by side per run (a stack per run where the
 *    series stack, its segments in shades of the run's colour);
 *  - the side-by-side findings table: one row per finding key, one column per run, and the
 *    difference of every other run from the first.
 */
import type { BarSeriesOption, EChartsOption, LineSeriesOption, ScatterSeriesOption } from 'echarts';
import type { RunDetail, RunSummary, StoredSeries } from '../../../src-main/contract';
import type { Finding } from '../../../src-sim/experiments/types';
import { isCannotTell } from '../../../src-sim/analysis/cannot-tell';
import { axisTitle, formatBytes, formatNumber, formatPercent, formatQuantity, tickFormatter } from './quantity';

/** Ten colours that read on light and dark backgrounds (Tableau 10). */
export const RUN_COLORS = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];
const DASHES = ['solid', 'dashed', 'dotted'] as const;
const SYMBOLS = ['circle', 'triangle', 'rect', 'diamond', 'pin', 'arrow'];

/** Above this many points a series is sampled (LTTB) and drawn without symbols; the chart gets a zoom slider. */
export const LARGE_SERIES = 2000;

export interface RunColumn {
  id: string;
  /** "Fermi", or "Fermi (2)" when two runs share a preset. */
  label: string;
  title: string;
  presetId: string;
  presetName: string;
  experiment: string;
  color: string;
}

/** Null when every run is of one experiment; else a message naming each experiment and its runs. */
export function mixedExperiments(runs: readonly Pick<RunSummary, 'experiment'>[], titleOf: (id: string) => string | undefined = () => undefined): string | null {
  const counts = new Map<string, number>();
  for (const r of runs) counts.set(r.experiment, (counts.get(r.experiment) ?? 0) + 1);
  if (counts.size <= 1) return null;
  const parts = [...counts].map(([id, n]) => `${titleOf(id) ?? id} (${n} run${n === 1 ? '' : 's'})`);
  return `These runs come from different experiments: ${parts.join(', ')}. A comparison overlays runs of one experiment on shared axes; compare the runs of each experiment separately.`;
}

/** The runs' columns: a colour each (in order) and a name that tells runs on the same preset apart. */
export function runColumns(runs: readonly RunSummary[]): RunColumn[] {
  const total = new Map<string, number>();
  for (const r of runs) total.set(r.presetName, (total.get(r.presetName) ?? 0) + 1);
  const seen = new Map<string, number>();
  return runs.map((r, i) => {
    const n = (seen.get(r.presetName) ?? 0) + 1;
    seen.set(r.presetName, n);
    return {
      id: r.id,
      label: (total.get(r.presetName) ?? 0) > 1 ? `${r.presetName} (${n})` : r.presetName,
      title: r.title,
      presetId: r.presetId,
      presetName: r.presetName,
      experiment: r.experiment,
      color: RUN_COLORS[i % RUN_COLORS.length]!,
    };
  });
}

export interface ChartTheme {
  fg: string;
  muted: string;
  border: string;
  panel: string;
}

export interface CompareChart {
  key: string;
  title: string;
  xName: string;
  yName: string;
  logX: boolean;
  /** Series drawn (runs x series of this group). */
  seriesCount: number;
  /** Points across its series. */
  points: number;
  option: EChartsOption;
}

type AnySeries = Pick<StoredSeries, 'name' | 'x' | 'y' | 'xLabel' | 'xUnit' | 'yLabel' | 'yUnit' | 'style' | 'logX' | 'stack' | 'xCategories' | 'group'>;

/** The chart a series belongs to: its group when it names one, else its axes. */
function axisKey(s: AnySeries): string {
  return s.group ? JSON.stringify(['group', s.group]) : JSON.stringify([s.xLabel, s.xUnit, s.yLabel, s.yUnit]);
}

/** A colour mixed with white by `amount` (0: the colour, 1: white): the shades of one run's stacked segments. */
export function tint(hex: string, amount: number): string {
  const m = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!m) return hex;
  const n = parseInt(m[1]!, 16);
  const mix = (c: number) => Math.round(c + (255 - c) * Math.max(0, Math.min(1, amount)));
  const rgb = [mix((n >> 16) & 255), mix((n >> 8) & 255), mix(n & 255)];
  return `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

/** Segment k of n in a run's stack: from the run's colour towards white (never quite white). */
export function segmentColor(color: string, k: number, n: number): string {
  return n <= 1 ? color : tint(color, (0.65 * k) / (n - 1));
}

function isCategorical(series: readonly AnySeries[]): boolean {
  return series.some((s) => s.style === 'bar' || (s.xCategories?.length ?? 0) > 0);
}

/** Category labels (the series' xCategories, else the distinct x values with their unit) and each series' values per category. */
function categoryAxis(series: readonly AnySeries[]): { labels: string[]; data: (s: AnySeries) => (number | null)[] } {
  const labelled = series.some((s) => (s.xCategories?.length ?? 0) > 0);
  const labels: string[] = [];
  const at = new Map<string, number>();
  const add = (l: string) => {
    if (!at.has(l)) {
      at.set(l, labels.length);
      labels.push(l);
    }
  };
  if (labelled) for (const s of series) for (const l of s.xCategories ?? []) add(l);
  else {
    const xs = new Set<number>();
    for (const s of series) for (const x of s.x) if (Number.isFinite(x)) xs.add(x);
    for (const x of [...xs].sort((a, b) => a - b)) add(formatQuantity(x, series[0]?.xUnit ?? ''));
  }
  const unit = series[0]?.xUnit ?? '';
  return {
    labels,
    data: (s) => {
      const out = new Array<number | null>(labels.length).fill(null);
      const own = s.xCategories ?? [];
      for (let i = 0; i < Math.min(s.x.length, s.y.length); i++) {
        const x = s.x[i]!;
        const label = labelled ? (own.length ? own[x] : labels[x]) : formatQuantity(x, unit);
        const k = label === undefined ? undefined : at.get(label);
        if (k !== undefined && Number.isFinite(s.y[i]!)) out[k] = s.y[i]!;
      }
      return out;
    },
  };
}

/** Log x when a series asks for it and there is a positive x to draw. */
function wantsLog(series: readonly AnySeries[]): boolean {
  if (!series.some((s) => s.logX)) return false;
  return series.some((s) => Array.from(s.x).some((x) => x > 0));
}

function points(s: AnySeries, logX: boolean): [number, number][] {
  const n = Math.min(s.x.length, s.y.length);
  const out: [number, number][] = [];
  for (let i = 0; i < n; i++) {
    const x = s.x[i]!;
    const y = s.y[i]!;
    if (!Number.isFinite(x) || !Number.isFinite(y) || (logX && x <= 0)) continue;
    out.push([x, y]);
  }
  return out;
}

/**
 * One chart per kind of series (same axes and units), every run's series of that kind overlaid:
 * the run's colour, a dash and symbol per series of the run, legend "preset · series".
 */
export function compareCharts(runs: readonly { column: RunColumn; series: readonly AnySeries[] }[], theme?: ChartTheme): CompareChart[] {
  const groups = new Map<string, { sample: AnySeries; items: { column: RunColumn; series: AnySeries; index: number }[] }>();
  for (const r of runs) {
    const perKind = new Map<string, number>();
    for (const s of r.series) {
      const key = axisKey(s);
      const index = perKind.get(key) ?? 0;
      perKind.set(key, index + 1);
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { sample: s, items: [] }));
      g.items.push({ column: r.column, series: s, index });
    }
  }
  const charts: CompareChart[] = [];
  for (const [key, g] of groups) {
    const s0 = g.sample;
    if (isCategorical(g.items.map((i) => i.series))) {
      charts.push(categoryCompareChart(key, g.items, theme));
      continue;
    }
    const logX = wantsLog(g.items.map((i) => i.series));
    const xName = axisTitle(s0.xLabel, s0.xUnit);
    const yName = axisTitle(s0.yLabel, s0.yUnit);
    let total = 0;
    const series = g.items.map(({ column, series: s, index }): LineSeriesOption | ScatterSeriesOption => {
      const data = points(s, logX);
      total += data.length;
      const big = data.length > LARGE_SERIES;
      const name = `${column.label} · ${s.name}`;
      if (s.style === 'scatter') {
        return {
          type: 'scatter',
          name,
          data,
          symbol: SYMBOLS[index % SYMBOLS.length],
          symbolSize: big ? 2 : 5,
          itemStyle: { color: column.color },
          large: big,
          largeThreshold: LARGE_SERIES,
        };
      }
      return {
        type: 'line',
        name,
        data,
        ...(s.style === 'step' ? { step: 'end' as const } : {}),
        showSymbol: data.length <= 60,
        symbol: SYMBOLS[index % SYMBOLS.length],
        symbolSize: 5,
        lineStyle: { color: column.color, width: 1.6, type: DASHES[index % DASHES.length] },
        itemStyle: { color: column.color },
        ...(big ? { sampling: 'lttb' as const } : {}),
      };
    });
    const zoom = total > LARGE_SERIES;
    const ticks = !zoom && !logX && s0.xUnit === 'B' ? byteTicks(series) : null;
    const xFmt = tickFormatter(s0.xUnit);
    const yFmt = tickFormatter(s0.yUnit);
    const textColor = theme?.fg;
    const axisColor = theme?.muted;
    const gridColor = theme?.border;
    const option: EChartsOption = {
      animation: false,
      color: [...RUN_COLORS],
      textStyle: textColor ? { color: textColor } : {},
      legend: { type: 'scroll', top: 0, left: 0, right: 0, textStyle: textColor ? { color: textColor } : {} },
      grid: { left: 72, right: 28, top: 44, bottom: zoom ? 84 : 56 },
      tooltip: {
        // Rich text, drawn in the chart's SVG: HTML tooltips carry inline styles, which the CSP refuses.
        trigger: 'axis',
        renderMode: 'richText',
        confine: true,
        axisPointer: { type: 'line' },
        ...(theme ? { backgroundColor: theme.panel, borderColor: theme.border, textStyle: { color: theme.fg } } : {}),
        formatter: (raw: unknown) => {
          const items = (Array.isArray(raw) ? raw : [raw]) as { seriesName?: string; value?: [number, number]; marker?: string; axisValue?: number }[];
          const x = Number(items[0]?.axisValue ?? items[0]?.value?.[0] ?? NaN);
          const head = `${s0.xLabel || 'x'}: ${formatQuantity(x, s0.xUnit)}`;
          const lines = items.map((it) => {
            const v = it.value ?? [NaN, NaN];
            const at = v[0] !== x ? ` (at ${formatQuantity(v[0], s0.xUnit)})` : '';
            return `${it.marker ?? ''}${it.seriesName ?? ''}: ${formatQuantity(v[1], s0.yUnit)}${at}`;
          });
          return [head, ...lines].join('\n');
        },
      },
      xAxis: {
        type: logX ? 'log' : 'value',
        ...(logX ? { logBase: s0.xUnit === 'B' ? 2 : 10 } : {}),
        name: xName,
        nameLocation: 'middle',
        nameGap: 30,
        scale: true,
        ...(ticks ?? {}),
        axisLabel: { formatter: (v: number) => xFmt(v), hideOverlap: true, ...(axisColor ? { color: axisColor } : {}) },
        axisLine: gridColor ? { lineStyle: { color: gridColor } } : {},
        splitLine: { show: true, ...(gridColor ? { lineStyle: { color: gridColor, opacity: 0.6 } } : {}) },
      },
      yAxis: {
        type: 'value',
        name: yName,
        nameLocation: 'middle',
        nameGap: 56,
        scale: true,
        axisLabel: { formatter: (v: number) => yFmt(v), ...(axisColor ? { color: axisColor } : {}) },
        axisLine: gridColor ? { lineStyle: { color: gridColor } } : {},
        splitLine: gridColor ? { lineStyle: { color: gridColor, opacity: 0.6 } } : {},
      },
      dataZoom: zoom ? [{ type: 'inside', xAxisIndex: 0 }, { type: 'slider', xAxisIndex: 0, bottom: 8, height: 20 }] : [],
      series,
    };
    charts.push({ key, title: chartTitle(g.items.map((i) => i.series)), xName, yName, logX, seriesCount: series.length, points: total, option });
  }
  return charts;
}

/** A group named in words ("Fig 5: L2 throughput vs threads per block") is the title; else "Latency vs Array size" (y labels joined with " / " where they differ). */
function chartTitle(series: readonly AnySeries[]): string {
  const s0 = series[0]!;
  if (s0.group && /\s/.test(s0.group.trim())) return s0.group.trim();
  return `${[...new Set(series.map((s) => s.yLabel || 'y'))].join(' / ')} vs ${s0.xLabel || 'x'}`;
}

/**
 * A category chart of several runs: at each category, one bar per run and series side by side; a
 * run's series that share a stack become one stacked bar of that run (segments in shades of its
 * colour), so LASH Fig 6's stall breakdown of two GPUs reads as two stacked bars per data type.
 */
function categoryCompareChart(key: string, items: readonly { column: RunColumn; series: AnySeries; index: number }[], theme?: ChartTheme): CompareChart {
  const s0 = items[0]!.series;
  const axis = categoryAxis(items.map((i) => i.series));
  const yUnit = s0.yUnit;
  const yFmt = tickFormatter(yUnit);
  // Segments per (run, stack): the shade of each segment.
  const segments = new Map<string, AnySeries[]>();
  for (const { column, series: s } of items) if (s.style === 'bar' && s.stack) segments.set(`${column.id}\u0000${s.stack}`, [...(segments.get(`${column.id}\u0000${s.stack}`) ?? []), s]);
  let points = 0;
  const stackOf: (string | undefined)[] = [];
  const series = items.map(({ column, series: s, index }): BarSeriesOption | LineSeriesOption | ScatterSeriesOption => {
    const data = axis.data(s);
    points += data.filter((v) => v !== null).length;
    const name = `${column.label} · ${s.name}`;
    if (s.style === 'bar') {
      const stack = s.stack ? `${column.label} · ${s.stack}` : undefined;
      stackOf.push(stack);
      const peers = s.stack ? (segments.get(`${column.id}\u0000${s.stack}`) ?? [s]) : [s];
      const color = s.stack ? segmentColor(column.color, peers.indexOf(s), peers.length) : index ? tint(column.color, Math.min(0.6, 0.25 * index)) : column.color;
      return { type: 'bar', name, data, ...(stack ? { stack } : {}), barMaxWidth: 40, itemStyle: { color, ...(theme ? { borderColor: theme.panel } : {}), borderWidth: s.stack ? 0.5 : 0 }, emphasis: { focus: 'series' } };
    }
    stackOf.push(undefined);
    if (s.style === 'scatter') return { type: 'scatter', name, data, symbol: SYMBOLS[index % SYMBOLS.length], symbolSize: 7, itemStyle: { color: column.color } };
    return { type: 'line', name, data, symbol: SYMBOLS[index % SYMBOLS.length], lineStyle: { color: column.color, width: 1.6, type: DASHES[index % DASHES.length] }, itemStyle: { color: column.color }, connectNulls: true };
  });
  const bars = items.some((i) => i.series.style === 'bar');
  const labelled = items.some((i) => (i.series.xCategories?.length ?? 0) > 0);
  const xName = axisTitle(s0.xLabel, labelled ? '' : s0.xUnit);
  const yName = axisTitle(s0.yLabel, yUnit);
  const many = axis.labels.length > 24;
  const longest = axis.labels.reduce((m, l) => Math.max(m, l.length), 0);
  // Labels turn when they would not fit side by side (about 60 characters across a chart).
  const turn = !many && axis.labels.length * (longest + 2) > 60;
  const room = turn ? Math.min(60, longest * 5) : 0;
  const axisColor = theme?.muted;
  const gridColor = theme?.border;
  const option: EChartsOption = {
    animation: false,
    textStyle: theme ? { color: theme.fg } : {},
    legend: { type: 'scroll', top: 0, left: 0, right: 0, textStyle: theme ? { color: theme.fg } : {} },
    grid: { left: 72, right: 28, top: 44, bottom: (many ? 84 : 56) + room },
    tooltip: {
      // Rich text, drawn in the chart's SVG (the CSP refuses HTML tooltips' inline styles).
      trigger: 'axis',
      renderMode: 'richText',
      confine: true,
      axisPointer: { type: 'shadow' },
      ...(theme ? { backgroundColor: theme.panel, borderColor: theme.border, textStyle: { color: theme.fg } } : {}),
      formatter: (raw: unknown) => {
        const list = (Array.isArray(raw) ? raw : [raw]) as { seriesName?: string; seriesIndex?: number; value?: unknown; marker?: string; axisValueLabel?: string; name?: string }[];
        const head = `${s0.xLabel ? `${s0.xLabel}: ` : ''}${list[0]?.axisValueLabel ?? list[0]?.name ?? ''}`;
        const totals = new Map<string, { total: number; n: number }>();
        const lines: string[] = [];
        for (const it of list) {
          if (it.value === null || it.value === undefined || it.value === '-') continue;
          const v = Number(it.value);
          lines.push(`${it.marker ?? ''}${it.seriesName ?? ''}: ${formatQuantity(v, yUnit)}`);
          const stack = stackOf[it.seriesIndex ?? -1];
          if (stack && Number.isFinite(v)) {
            const t = totals.get(stack) ?? { total: 0, n: 0 };
            t.total += v;
            t.n++;
            totals.set(stack, t);
          }
        }
        for (const [stack, t] of totals) if (t.n > 1) lines.push(`${stack} total: ${formatQuantity(t.total, yUnit)}`);
        return [head, ...lines].join('\n');
      },
    },
    xAxis: {
      type: 'category',
      data: axis.labels,
      name: xName,
      nameLocation: 'middle',
      nameGap: 30 + room,
      axisTick: { alignWithLabel: true },
      axisLabel: { interval: many ? 'auto' : 0, hideOverlap: many, rotate: turn ? 30 : 0, ...(axisColor ? { color: axisColor } : {}) },
      axisLine: gridColor ? { lineStyle: { color: gridColor } } : {},
    },
    yAxis: {
      type: 'value',
      name: yName,
      nameLocation: 'middle',
      nameGap: 56,
      scale: !bars,
      axisLabel: { formatter: (v: number) => yFmt(v), ...(axisColor ? { color: axisColor } : {}) },
      axisLine: gridColor ? { lineStyle: { color: gridColor } } : {},
      splitLine: gridColor ? { lineStyle: { color: gridColor, opacity: 0.6 } } : {},
    },
    dataZoom: many ? [{ type: 'inside', xAxisIndex: 0 }, { type: 'slider', xAxisIndex: 0, bottom: 8, height: 20 }] : [],
    series,
  };
  return { key, title: chartTitle(items.map((i) => i.series)), xName, yName, logX: false, seriesCount: series.length, points, option };
}

/** Ticks at a power-of-two step for a linear byte axis (4 KB, 8 KB, ... rather than 4.9 KB, 9.8 KB). */
function byteTicks(series: readonly (LineSeriesOption | ScatterSeriesOption)[]): { min: number; max: number; interval: number } | null {
  let lo = Infinity;
  let hi = -Infinity;
  for (const s of series)
    for (const p of s.data as [number, number][]) {
      if (p[0] < lo) lo = p[0];
      if (p[0] > hi) hi = p[0];
    }
  if (!(hi > lo) || lo < 0) return null;
  const interval = 2 ** Math.ceil(Math.log2((hi - lo) / 8));
  return { min: Math.floor(lo / interval) * interval, max: Math.ceil(hi / interval) * interval, interval };
}

// ---------------------------------------------------------------------------------------------
// Findings side by side
// ---------------------------------------------------------------------------------------------

export interface FindingCell {
  finding: Finding | null;
  text: string;
}

export interface FindingDiff {
  text: string;
  /** True when the run's value differs from the first run's. */
  changed: boolean;
}

export interface FindingCompareRow {
  key: string;
  label: string;
  unit: string;
  cells: FindingCell[];
  /** One per run after the first: its difference from the first run. */
  diffs: FindingDiff[];
}

/** The difference of `b` from the reference `a`, with units and the relative change. */
export function findingDiff(a: Finding | null, b: Finding | null): FindingDiff {
  if (!a || !b) return { text: '—', changed: false };
  // A value an analyser could not tell is no value to difference.
  if (isCannotTell(a.value) || isCannotTell(b.value)) return { text: isCannotTell(a.value) && isCannotTell(b.value) ? 'both cannot tell' : '—', changed: false };
  if (typeof a.value === 'number' && typeof b.value === 'number') {
    if (a.unit !== b.unit) return { text: `units differ (${a.unit || 'none'} vs ${b.unit || 'none'})`, changed: true };
    const d = b.value - a.value;
    if (d === 0) return { text: 'same', changed: false };
    const sign = d > 0 ? '+' : '−';
    const mag = a.unit === 'B' ? formatBytes(Math.abs(d)) : `${formatNumber(Math.abs(d))}${a.unit ? ` ${a.unit}` : ''}`;
    const rel = a.value !== 0 ? ` (${formatPercent(d / Math.abs(a.value), true)})` : '';
    return { text: `${sign}${mag}${rel}`, changed: true };
  }
  const same = String(a.value) === String(b.value) && a.unit === b.unit;
  return { text: same ? 'same' : 'differs', changed: !same };
}

/** Rows = finding keys in the order they first appear; columns = runs; diffs against the first run. */
export function compareFindings(runs: readonly { findings: readonly Finding[] }[]): FindingCompareRow[] {
  const order: string[] = [];
  const meta = new Map<string, { label: string; unit: string }>();
  for (const r of runs)
    for (const f of r.findings) {
      if (!meta.has(f.key)) {
        meta.set(f.key, { label: f.label, unit: f.unit });
        order.push(f.key);
      }
    }
  return order.map((key) => {
    const found = runs.map((r) => r.findings.find((f) => f.key === key) ?? null);
    const cells = found.map((f) => ({ finding: f, text: f ? formatQuantity(f.value, f.unit) : '—' }));
    const first = found[0] ?? null;
    return { key, label: meta.get(key)!.label, unit: meta.get(key)!.unit, cells, diffs: found.slice(1).map((f) => findingDiff(first, f)) };
  });
}

/** The series of a run detail (none when it has no result). */
export function seriesOf(run: RunDetail): readonly StoredSeries[] {
  return run.result?.series ?? [];
}

/** "a,b,c" (or repeated query values) into distinct run ids, in order. */
export function idsFromQuery(value: unknown): string[] {
  const raw = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  const ids = raw.flatMap((v) => String(v ?? '').split(',')).map((s) => s.trim().toLowerCase()).filter(Boolean);
  return [...new Set(ids)];
}
