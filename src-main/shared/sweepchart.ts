/**
 * The sweep view's charts as ECharts options: a result quantity over one axis (a line per value of
 * another axis, or per preset), or over two axes as a heatmap. Pure functions of the sweep, with
 * type-only imports: the sweep's PDF report (src-main/services/export/sweep-pdf.ts) builds its
 * chart with the same functions and renders it server-side.
 */
import type { EChartsOption } from 'echarts';
import type { SweepDetail, SweepMetric, SweepPointDetail } from '../sweep-contract';

/** The colours a chart takes from its surroundings (the compare view's ChartTheme fits). */
export interface SweepChartTheme {
  fg: string;
  muted: string;
  border: string;
}

/** An axis of the chart: one of the plan's axes, or "preset". */
export type ChartAxis = string;

export function axisOf(p: SweepPointDetail, axis: ChartAxis): string | number {
  if (axis === 'preset') return p.preset;
  const v = p.values[axis];
  return Array.isArray(v) ? v.join('/') : typeof v === 'boolean' ? String(v) : (v ?? '');
}

/** The axes a chart can use: the plan's, then "preset" when the sweep has several presets. */
export function chartAxes(d: Pick<SweepDetail, 'axes' | 'presets'>): ChartAxis[] {
  return [...d.axes, ...(d.presets.length > 1 ? ['preset'] : [])];
}

/** The quantities that some point has a number for (those a chart can draw). */
export function numericMetrics(d: Pick<SweepDetail, 'metrics' | 'points'>): SweepMetric[] {
  return d.metrics.filter((m) => d.points.some((p) => typeof p.metrics[m.key] === 'number'));
}

/** The distinct values of an axis, in the points' order (numbers sorted). */
export function axisLevels(d: SweepDetail, axis: ChartAxis): (string | number)[] {
  const seen = [...new Set(d.points.map((p) => axisOf(p, axis)))];
  return seen.every((x) => typeof x === 'number') ? (seen as number[]).sort((a, b) => a - b) : seen;
}

const numeric = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * The ratio of an axis whose values grow geometrically (at least three, positive, each the one before
 * times the same ratio, as a range with `times` gives them), else null: such an axis is drawn on a log
 * scale of that base, so that its points are evenly spaced.
 */
export function geometricRatio(xs: readonly (string | number)[]): number | null {
  if (xs.length < 3 || !xs.every((v) => typeof v === 'number' && Number.isFinite(v) && v > 0)) return null;
  const v = xs as number[];
  const r = v[1] / v[0];
  if (!(r > 1)) return null;
  for (let i = 2; i < v.length; i++) if (Math.abs(v[i] / v[i - 1] - r) > 1e-9 * r) return null;
  return r;
}

/** Lines: the metric over `x`, a line per value of `by` (or one line). Points with other values of the remaining axes are averaged. */
export function lineOption(d: SweepDetail, metric: string, x: ChartAxis, by: ChartAxis | null, theme: SweepChartTheme): EChartsOption {
  const m = d.metrics.find((k) => k.key === metric);
  const xs = axisLevels(d, x);
  const numericX = xs.every((v) => typeof v === 'number');
  const ratio = numericX ? geometricRatio(xs) : null;
  const groups = by ? axisLevels(d, by) : ['all'];
  const series = groups.map((g) => {
    const data = xs.map((xv) => {
      const ys = d.points.filter((p) => p.status === 'done' && axisOf(p, x) === xv && (!by || axisOf(p, by) === g)).map((p) => numeric(p.metrics[metric])).filter((v): v is number => v !== null);
      const y = ys.length ? ys.reduce((a, b) => a + b, 0) / ys.length : null;
      return numericX ? [xv, y] : y;
    });
    return { type: 'line' as const, name: by ? `${by}=${g}` : (m?.label ?? metric), data, connectNulls: false, showSymbol: true };
  });
  return {
    animation: false,
    textStyle: { color: theme.fg },
    tooltip: { trigger: 'axis' },
    legend: { top: 0, textStyle: { color: theme.fg } },
    grid: { left: 64, right: 24, top: 40, bottom: 48 },
    xAxis: numericX
      ? {
          ...(ratio !== null ? { type: 'log' as const, logBase: ratio, min: xs[0] as number, max: xs[xs.length - 1] as number } : { type: 'value' as const, scale: true }),
          name: x,
          nameLocation: 'middle',
          nameGap: 28,
          axisLine: { lineStyle: { color: theme.muted } },
          splitLine: { lineStyle: { color: theme.border } },
        }
      : { type: 'category', name: x, nameLocation: 'middle', nameGap: 28, data: xs.map(String), axisLine: { lineStyle: { color: theme.muted } } },
    yAxis: { type: 'value', name: m ? `${m.label}${m.unit ? ` (${m.unit})` : ''}` : metric, scale: true, axisLine: { lineStyle: { color: theme.muted } }, splitLine: { lineStyle: { color: theme.border } } },
    series,
  };
}

/** Heatmap: the metric over `x` and `y` (points with other values of the remaining axes averaged). */
export function heatmapOption(d: SweepDetail, metric: string, x: ChartAxis, y: ChartAxis, theme: SweepChartTheme): EChartsOption {
  const m = d.metrics.find((k) => k.key === metric);
  const xs = axisLevels(d, x);
  const ys = axisLevels(d, y);
  const data: [number, number, number][] = [];
  let lo = Infinity;
  let hi = -Infinity;
  xs.forEach((xv, i) =>
    ys.forEach((yv, j) => {
      const vals = d.points.filter((p) => p.status === 'done' && axisOf(p, x) === xv && axisOf(p, y) === yv).map((p) => numeric(p.metrics[metric])).filter((v): v is number => v !== null);
      if (!vals.length) return;
      const v = vals.reduce((a, b) => a + b, 0) / vals.length;
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
      data.push([i, j, v]);
    }),
  );
  return {
    animation: false,
    textStyle: { color: theme.fg },
    tooltip: { position: 'top' },
    grid: { left: 80, right: 24, top: 28, bottom: 110 },
    xAxis: { type: 'category', name: x, nameLocation: 'middle', nameGap: 28, data: xs.map(String), axisLine: { lineStyle: { color: theme.muted } } },
    yAxis: { type: 'category', name: y, data: ys.map(String), axisLine: { lineStyle: { color: theme.muted } } },
    visualMap: {
      min: Number.isFinite(lo) ? lo : 0,
      max: Number.isFinite(hi) ? (hi > lo ? hi : lo + 1) : 1,
      calculable: true,
      orient: 'horizontal',
      left: 'center',
      bottom: 0,
      text: [m?.unit ?? '', ''],
      textStyle: { color: theme.fg },
      inRange: { color: ['#2c7bb6', '#abd9e9', '#ffffbf', '#fdae61', '#d7191c'] },
    },
    series: [{ type: 'heatmap', name: m?.label ?? metric, data, label: { show: xs.length * ys.length <= 64, color: '#1b1b1b', formatter: (p) => formatValue((p.value as number[])[2]!) } }],
  };
}

export function formatValue(v: unknown): string {
  if (typeof v !== 'number') return v === undefined || v === null ? '—' : String(v);
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  return a !== 0 && (a >= 1e6 || a < 1e-3) ? v.toExponential(3) : String(Math.round(v * 1000) / 1000);
}
