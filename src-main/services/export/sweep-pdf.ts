/**
 * The PDF report of a sweep (PDFKit, through pdf-writer.ts), for `sweeps.pdf`:
 *
 * - the plan: experiment, presets, base parameters, each axis (what it varies and its values), the
 *   points (a cross product or a given list) and the seed rule;
 * - the progress: points done, failed (failed, cancelled or interrupted) and missing (no run yet,
 *   queued or running), as a bar and a table;
 * - a chart of one result quantity over one axis with a line per value of another (or one line), or
 *   over two axes as a heatmap; points that differ in the other axes are averaged. The chart is the
 *   sweep view's: the same option builders (src-main/shared/sweepchart.ts, pure), set
 *   in print sizes here, rendered server-side to SVG and drawn as vectors;
 * - a row per point: its value of each axis, its status and the quantity; then the failed points
 *   with their reasons. The CSV export (`sweeps.csv`) holds every quantity of every point.
 */
import type { EChartsOption } from 'echarts';
import type { FileResult } from '../../contract';
import { LabError } from '../../contract';
import type { SweepDetail, SweepMetric, SweepPdfArgs, SweepPointDetail } from '../../sweep-contract';
import type { SweepAxis, SweepPlan, SweepValue } from '../../sweep-plan';
import { axisName, axisValues } from '../../sweep-plan';
import { axisLevels, axisOf, chartAxes, heatmapOption, lineOption, numericMetrics } from '../../shared/sweepchart';
import type { SweepChartTheme } from '../../shared/sweepchart';
import { findExperiment } from '../../../src-sim/experiments';
import { SIM_VERSION } from '../../../src-sim/version';
import { displayDuration, displayNumber, displayTime, fileStamp, slug } from './format';
import { PDF_MIME, PRODUCT_NAME, renderChartSvg } from './pdf';
import { PdfWriter } from './pdf-writer';

/** What the report shows, as `sweeps.pdf` takes it (the id aside), and how it is printed. */
export interface SweepPdfOptions extends Partial<Omit<SweepPdfArgs, 'id'>> {
  /** The report's date, ms since the epoch (default: now). */
  now?: number;
  /** The app's version, printed under the title. */
  appVersion?: string;
  /** Points printed in the table at most (default 2000); the CSV holds them all. */
  maxRows?: number;
  /** The chart's plot height in points, without legend and colour scale (default 180). */
  chartHeight?: number;
}

/** The chart a report draws: its quantity and axes, resolved against the sweep. */
export interface SweepChartChoice {
  /** null: the sweep has no quantity with a number (no point done yet, or only words). */
  quantity: SweepMetric | null;
  x: string | null;
  by: string | null;
  chart: 'lines' | 'heatmap';
}

const PRINT: SweepChartTheme = { fg: '#222222', muted: '#666666', border: '#e3e3e3' };
const FONT = 'Helvetica, Arial, sans-serif';
const STATUS_COLORS = { done: '#3f9a3a', failed: '#c0392b', missing: '#c9ced6' } as const;

/**
 * The quantity and axes of the chart: those asked for (each checked against the sweep; a wrong one
 * is refused with the names it could be), else the sweep view's defaults: the first quantity with a
 * number, the first axis, a line per value of the next axis.
 */
export function chooseChart(d: SweepDetail, o: Partial<Omit<SweepPdfArgs, 'id'>> = {}): SweepChartChoice {
  const axes = chartAxes(d);
  const numeric = numericMetrics(d);
  const known = (what: string, v: string, list: readonly string[]): void => {
    if (!list.includes(v)) throw new LabError('invalid-args', `sweeps.pdf: ${what}: the sweep has no ${what === 'quantity' ? 'quantity' : 'axis'} "${v.slice(0, 80)}"; ${list.length ? `it has: ${list.slice(0, 20).join(', ')}` : `it has none${what === 'quantity' ? ' yet (no point is done)' : ''}`}`);
  };
  let quantity: SweepMetric | null = numeric[0] ?? null;
  if (o.quantity !== undefined) {
    known('quantity', o.quantity, d.metrics.map((m) => m.key));
    quantity = d.metrics.find((m) => m.key === o.quantity)!;
  }
  if (o.x !== undefined) known('x', o.x, axes);
  if (o.by !== undefined && o.by !== null) known('by', o.by, axes);
  const x = o.x ?? (o.by ? (axes.find((a) => a !== o.by) ?? null) : (axes[0] ?? null));
  if (x !== null && o.by === x) throw new LabError('invalid-args', 'sweeps.pdf: by must be another axis than x');
  const by = o.by === undefined ? (axes.find((a) => a !== x) ?? null) : o.by;
  const chart = o.chart ?? 'lines';
  if (chart === 'heatmap' && (by === null || x === null)) throw new LabError('invalid-args', `sweeps.pdf: a heatmap needs two axes; the sweep has ${axes.length ? `only ${axes[0]}` : 'none'}`);
  return { quantity, x, by, chart };
}

/** A value as the plan wrote it: numbers in full, lists joined. */
function valueText(v: SweepValue | undefined): string {
  if (v === undefined) return '';
  if (Array.isArray(v)) return v.map(displayNumber).join(', ');
  return typeof v === 'number' ? displayNumber(v) : String(v);
}

/** "32, 64, 128" (at most `max` values, then "... (n values)"). */
function listText(values: readonly SweepValue[], max = 24): string {
  const shown = values.slice(0, max).map(valueText).join(', ');
  return values.length > max ? `${shown}, ... (${values.length} values)` : shown;
}

function axisValuesText(a: SweepAxis): string {
  if (a.range) {
    const n = axisValues(a).length;
    const step = a.range.step !== undefined ? `step ${displayNumber(a.range.step)}` : `times ${displayNumber(a.range.times!)}`;
    return `${displayNumber(a.range.from)} to ${displayNumber(a.range.to)}, ${step}: ${listText(axisValues(a), 12)}${n > 12 ? '' : ` (${n} value${n === 1 ? '' : 's'})`}`;
  }
  if (a.values) return listText(a.values);
  return 'as the points give';
}

function seedText(seed: SweepPlan['seed']): string {
  if (typeof seed === 'number') return `${seed} for every point`;
  if (seed.rule === 'fixed') return `${seed.value} for every point`;
  return `one per point, mixed from the base ${seed.base} and the point's preset and values (it does not move when points are added or reordered)`;
}

function experimentLine(id: string): string {
  const e = findExperiment(id);
  return e ? `${e.title} (${id})` : id;
}

/** The counts the report speaks of: done, failed (failed, cancelled, interrupted), missing (pending, queued, running). */
export function progressCounts(d: Pick<SweepDetail, 'counts'>): { points: number; done: number; failed: number; missing: number } {
  const c = d.counts;
  return { points: c.points, done: c.done, failed: c.failed + c.cancelled + c.interrupted, missing: c.pending + c.queued + c.running };
}

function quantityTitle(m: SweepMetric): string {
  return m.unit ? `${m.label} (${m.unit})` : m.label;
}

function quantityCell(p: SweepPointDetail, m: SweepMetric | null): string {
  if (!m) return '';
  const v = p.metrics[m.key];
  if (v === undefined) return '-';
  return typeof v === 'number' ? displayNumber(v) : v;
}

function axisCell(p: SweepPointDetail, axis: string): string {
  const v = axisOf(p, axis);
  return typeof v === 'number' ? displayNumber(v) : v;
}

/** Legend rows at this width (about 0.55 em per character, as charts.ts estimates). */
function legendRows(names: readonly string[], width: number, fontSize: number): number {
  let rows = 1;
  let at = 0;
  for (const n of names) {
    const w = 25 + 5 + n.length * fontSize * 0.55 + 10;
    if (at > 0 && at + w > width - 20) {
      rows++;
      at = 0;
    }
    at += w;
  }
  return rows;
}

type Option = Record<string, unknown>;
const obj = (v: unknown): Option => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Option) : {});

/**
 * The view's option set for paper: the font and its sizes, the axis names beside their axes (the
 * y name turned along it), the legend under the plot, no tooltips or handles. Returns the option
 * and the height it needs at this width.
 */
export function printOption(option: EChartsOption, width: number, plotHeight: number, fontSize = 9): { option: EChartsOption; height: number } {
  const o = option as Option;
  const series = (Array.isArray(o.series) ? o.series : [o.series]).map(obj);
  const heat = series.some((s) => s.type === 'heatmap');
  const names = series.map((s) => String(s.name ?? ''));
  const legend = !heat && names.length > 1 ? legendRows(names, width, fontSize) : 0;
  const xAxis = obj(o.xAxis);
  const yAxis = obj(o.yAxis);
  const xLabels = Array.isArray(xAxis.data) ? (xAxis.data as unknown[]).map(String) : [];
  const longest = Math.max(0, ...xLabels.map((l) => l.length));
  const rotate = xLabels.length * (longest + 2) * fontSize * 0.55 > width - 120 ? 40 : 0;
  const xLabelRoom = rotate ? Math.min(70, longest * fontSize * 0.45) : 0;
  const yLabels = Array.isArray(yAxis.data) ? (yAxis.data as unknown[]).map(String) : [];
  const left = heat ? Math.min(140, 44 + Math.max(0, ...yLabels.map((l) => l.length)) * fontSize * 0.55) : 70;
  const scale = heat ? 46 : 0;
  const legendRoom = legend * (fontSize + 8);
  const top = 12;
  const bottom = 38 + xLabelRoom + legendRoom + scale;
  // A heatmap's rows need no more than about 30 points each.
  const plot = heat && yLabels.length ? Math.min(plotHeight, Math.max(90, yLabels.length * 30)) : plotHeight;
  const height = top + plot + bottom;
  const axisName = { nameLocation: 'middle' as const, nameTextStyle: { fontSize, color: '#333333' } };
  const axisLabel = { fontSize: fontSize - 1, color: '#444444' };
  const printed: Option = {
    ...o,
    animation: false,
    tooltip: { show: false },
    textStyle: { fontFamily: FONT, fontSize, color: PRINT.fg },
    grid: { left, right: 18, top, bottom, containLabel: false },
    xAxis: { ...xAxis, ...axisName, nameGap: 22 + xLabelRoom, axisLabel: { ...obj(xAxis.axisLabel), ...axisLabel, ...(rotate ? { rotate, interval: 0 } : { hideOverlap: true }) } },
    yAxis: { ...yAxis, ...axisName, nameRotate: 90, nameGap: heat ? left - 14 : 48, axisLabel: { ...obj(yAxis.axisLabel), ...axisLabel } },
    legend: legend ? { show: true, type: 'plain', bottom: 2 + scale, left: 'center', itemWidth: 20, itemHeight: 8, itemGap: 10, textStyle: { fontSize, color: PRINT.fg } } : { show: false },
    series: series.map((s) =>
      s.type === 'heatmap'
        ? { ...s, label: { ...obj(s.label), fontSize: fontSize - 1, formatter: (p: { value: unknown }) => displayNumber((p.value as number[])[2]!) } }
        : { ...s, symbolSize: 4, lineStyle: { width: 1.4 } },
    ),
  };
  if (heat) {
    // The colour scale with its ends in numbers (the view shows them on hover).
    const map = obj(o.visualMap);
    const unit = Array.isArray(map.text) ? String(map.text[0] ?? '') : '';
    const end = (v: unknown): string => (typeof v === 'number' ? `${displayNumber(v)}${unit ? ` ${unit}` : ''}` : '');
    printed.visualMap = { ...map, calculable: false, orient: 'horizontal', left: 'center', bottom: 0, itemWidth: 10, itemHeight: 160, text: [end(map.max), end(map.min)], textGap: 6, textStyle: { fontSize: fontSize - 1, color: PRINT.fg } };
    printed.series = (printed.series as Option[]).map((s) => ({ ...s, itemStyle: { borderColor: '#ffffff', borderWidth: 1 } }));
  }
  return { option: printed as EChartsOption, height };
}

class SweepReport {
  readonly w: PdfWriter;

  constructor(
    private readonly d: SweepDetail,
    private readonly choice: SweepChartChoice,
    private readonly options: SweepPdfOptions,
    private readonly title: string,
    private readonly now: number,
  ) {
    this.w = new PdfWriter({ title, subject: `sweep of ${d.points.length} point${d.points.length === 1 ? '' : 's'}`, creationDate: new Date(now) }, `${PRODUCT_NAME} - ${title}`);
  }

  build(): Promise<Uint8Array> {
    this.header();
    this.plan();
    this.progress();
    this.chart();
    this.points();
    this.failures();
    return this.w.finish();
  }

  private header(): void {
    const w = this.w;
    w.doc.font('Helvetica-Bold').fontSize(11).fillColor('#1d3557').text(PRODUCT_NAME, w.left, w.y, { width: w.width });
    w.gap(2);
    w.paragraph(this.title, { size: 19, bold: true, gapAfter: 4 });
    const versions = [this.options.appVersion ? `app ${this.options.appVersion}` : null, `simulator ${SIM_VERSION}`].filter(Boolean).join(', ');
    w.paragraph(`Sweep report, generated ${displayTime(this.now)} (${versions}). One experiment run over a grid of points; each point is a run of its own in the lab's database.`, {
      size: 8.5,
      muted: true,
      gapAfter: 6,
    });
  }

  private plan(): void {
    const { w, d } = this;
    const plan = d.plan;
    w.heading('Plan', 2, 60);
    const params = Object.entries(plan.params);
    const given = plan.points !== undefined;
    w.keyValues(
      [
        ['Sweep', `${d.name} (${d.id})`],
        ['Experiment', experimentLine(d.experiment)],
        [`Preset${plan.presets.length === 1 ? '' : 's'}`, plan.presets.join(', ')],
        ['Base parameters', params.length ? params.map(([k, v]) => `${k} = ${valueText(v)}`).join('; ') : "the experiment's defaults"],
        ['Points', given ? `${d.points.length}: the ${plan.points!.length} points the plan lists, for each preset` : `${d.points.length}: the cross product of the axes, for each preset`],
        ['Seed', seedText(plan.seed)],
        ['Created', displayTime(d.createdAt)],
      ],
      100,
      8.5,
    );
    if (!plan.axes.length) {
      w.paragraph('No axes: one point per preset.', { size: 8.5, italic: true });
      return;
    }
    w.heading(`Axes (${plan.axes.length})`, 3, 40);
    w.table(
      [
        { header: 'Axis', weight: 18 },
        { header: 'Varies', weight: 30 },
        { header: 'Values', weight: 52 },
      ],
      plan.axes.map((a) => [axisName(a), a.param !== undefined ? `the parameter ${a.param}` : `the preset field ${a.field}`, axisValuesText(a)]),
      { fontSize: 8 },
    );
  }

  private progress(): void {
    const { w, d } = this;
    const n = progressCounts(d);
    const c = d.counts;
    w.heading('Progress', 2, 70);
    // A bar: done, failed, missing, in proportion.
    const width = w.width;
    const y = w.y;
    let x = w.left;
    for (const [key, count] of [['done', n.done], ['failed', n.failed], ['missing', n.missing]] as const) {
      if (!count || !n.points) continue;
      const part = (count / n.points) * width;
      w.doc.rect(x, y, part, 9).fillColor(STATUS_COLORS[key]).fill();
      x += part;
    }
    w.doc.rect(w.left, y, width, 9).lineWidth(0.5).strokeColor('#9aa0a6').stroke();
    w.doc.y = y + 15;
    w.table(
      [
        { header: 'Points', weight: 1, align: 'right' },
        { header: 'Done', weight: 1, align: 'right' },
        { header: 'Failed', weight: 1, align: 'right' },
        { header: 'Missing', weight: 1, align: 'right' },
      ],
      [[String(n.points), String(n.done), String(n.failed), String(n.missing)]],
      { fontSize: 9, width: Math.min(width, 240), zebra: false },
    );
    const parts = [
      n.failed ? `failed: ${[c.failed ? `${c.failed} failed` : '', c.cancelled ? `${c.cancelled} cancelled` : '', c.interrupted ? `${c.interrupted} interrupted` : ''].filter(Boolean).join(', ')}` : '',
      n.missing ? `missing: ${[c.pending ? `${c.pending} never run` : '', c.queued ? `${c.queued} queued` : '', c.running ? `${c.running} running` : ''].filter(Boolean).join(', ')}` : '',
    ].filter(Boolean);
    const time = d.points.reduce((a, p) => a + (p.status === 'done' ? (p.durationMs ?? 0) : 0), 0);
    w.paragraph(
      [
        n.done === n.points ? 'Every point is done.' : `${n.done} of ${n.points} points done${parts.length ? `; ${parts.join('; ')}` : ''}.`,
        n.done ? `Simulation time of the done points: ${displayDuration(time)}.` : '',
        n.failed || n.missing ? 'Starting the sweep again runs only the points without a done run.' : '',
      ]
        .filter(Boolean)
        .join(' '),
      { size: 8.5 },
    );
  }

  private chart(): void {
    const { w, d } = this;
    const { quantity, x, by, chart } = this.choice;
    if (!quantity || x === null) {
      w.heading('Chart', 2, 30);
      w.paragraph(
        x === null ? 'No chart: the sweep has no axis (and one preset).' : 'No chart yet: no done point has a number for any quantity.',
        { size: 9, italic: true },
      );
      return;
    }
    const numeric = d.points.filter((p) => p.status === 'done' && typeof p.metrics[quantity.key] === 'number');
    if (!numeric.length) {
      w.heading('Chart', 2, 30);
      w.paragraph(`No chart: no done point has a number for ${quantity.label}.`, { size: 9, italic: true });
      return;
    }
    const heat = chart === 'heatmap' && by !== null;
    const title = heat ? `${quantityTitle(quantity)} over ${x} and ${by}` : `${quantityTitle(quantity)} over ${x}${by ? `, a line per ${by}` : ''}`;
    const width = Math.floor(w.width);
    const view = heat ? heatmapOption(d, quantity.key, x, by, PRINT) : lineOption(d, quantity.key, x, by, PRINT);
    const { option, height } = printOption(view, width, this.options.chartHeight ?? 180);
    // The caption under the chart (two short lines) keeps with it.
    w.heading(`Figure 1. ${title}`, 2, height + 26);
    w.svg(renderChartSvg(option, width, height), width, height);
    const others = chartAxes(d).filter((a) => a !== x && a !== by && axisLevels(d, a).length > 1);
    w.paragraph(
      [
        `${numeric.length} of ${d.points.length} points have a value${numeric.length < d.points.length ? ' (the others are not done, or gave none)' : ''}.`,
        others.length ? `Points that differ only in ${others.join(', ')} are averaged.` : '',
        heat ? 'Empty cells: no done point there.' : '',
      ]
        .filter(Boolean)
        .join(' '),
      { size: 7.5, muted: true, gapAfter: 4 },
    );
  }

  private points(): void {
    const { w, d } = this;
    const { quantity } = this.choice;
    const max = this.options.maxRows ?? 2000;
    const rows = d.points.slice(0, max);
    const presets = d.presets.length > 1;
    w.heading(`Points (${d.points.length})`, 2, 60);
    w.paragraph(
      `A row per point, in the sweep's order (preset first, then the axes as written, the last fastest)${quantity ? `, with ${quantity.label}` : ''}; the value of a point is that of its done run. The CSV export holds every quantity of every point.`,
      { size: 8, muted: true },
    );
    w.table(
      [
        { header: '#', align: 'right' },
        ...(presets ? [{ header: 'preset' }] : []),
        ...d.axes.map((a) => ({ header: a, align: 'right' as const })),
        { header: 'status' },
        ...(quantity ? [{ header: quantityTitle(quantity), align: 'right' as const }] : []),
      ],
      rows.map((p) => [String(p.index), ...(presets ? [p.preset] : []), ...d.axes.map((a) => axisCell(p, a)), p.status, ...(quantity ? [quantityCell(p, quantity)] : [])]),
      { fontSize: 7.5, maxCellChars: 120 },
    );
    if (d.points.length > rows.length) w.paragraph(`The first ${rows.length} of ${d.points.length} points; the CSV export holds them all.`, { size: 8, muted: true });
  }

  private failures(): void {
    const { w, d } = this;
    const bad = d.points.filter((p) => p.status === 'failed' || p.status === 'cancelled' || p.status === 'interrupted');
    if (!bad.length) return;
    w.heading(`Failed points (${bad.length})`, 2, 50);
    w.table(
      [
        { header: '#', weight: 6, align: 'right' },
        { header: 'Point', weight: 30 },
        { header: 'Status', weight: 12 },
        { header: 'Reason', weight: 52, muted: true },
      ],
      bad.slice(0, 500).map((p) => [
        String(p.index),
        [...(d.presets.length > 1 ? [p.preset] : []), ...d.axes.map((a) => `${a} = ${axisCell(p, a)}`)].join(', '),
        p.status,
        p.error ?? '',
      ]),
      { fontSize: 7.5 },
    );
    if (bad.length > 500) w.paragraph(`The first 500 of ${bad.length}; the CSV export lists them all.`, { size: 8, muted: true });
  }
}

/** The PDF report's bytes for a sweep already read (`sweeps.get`). */
export async function renderSweepReport(d: SweepDetail, options: SweepPdfOptions = {}): Promise<Uint8Array> {
  const choice = chooseChart(d, options);
  const now = options.now ?? Date.now();
  return new SweepReport(d, choice, options, options.title ?? d.name, now).build();
}

/** `sweeps.pdf`: the report as a file. */
export async function exportSweepPdf(d: SweepDetail, options: SweepPdfOptions = {}): Promise<FileResult> {
  const now = options.now ?? Date.now();
  const bytes = await renderSweepReport(d, { ...options, now });
  return { fileName: `gpulab-sweep-${slug(d.name)}-${fileStamp(now)}.pdf`, mimeType: PDF_MIME, bytes };
}
