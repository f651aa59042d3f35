/**
 * The compare view's logic, pure functions over runs as the API returns them:
 *  - refuse runs of different experiments (a comparison overlays runs of one experiment);
 *  - a colour and a legend name per run ("preset · series"), series grouped by their axes (same
 *    labels and units share one chart) and overlaid as ECharts options with units on the axes, log x
 *    where the experiment asks for it, LTTB sampling and zoom for long series;
 *  - the side-by-side findings table: one row per finding key, one column per run, and the
 *    difference of every other run from the first.
 */
import type { EChartsOption, LineSeriesOption, ScatterSeriesOption } from 'echarts';
import type { RunDetail, RunSummary, StoredSeries } from '../../../src-main/contract';
import type { Finding } from '../../../src-sim/experiments/types';
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

type AnySeries = Pick<StoredSeries, 'name' | 'x' | 'y' | 'xLabel' | 'xUnit' | 'yLabel' | 'yUnit' | 'style' | 'logX'>;

function axisKey(s: AnySeries): string {
  return JSON.stringify([s.xLabel, s.xUnit, s.yLabel, s.yUnit]);
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
    charts.push({ key, title: `${s0.yLabel || 'y'} vs ${s0.xLabel || 'x'}`, xName, yName, logX, seriesCount: series.length, points: total, option });
  }
  return charts;
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
