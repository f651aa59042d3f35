/**
 * The PDF report of one or many runs (PDFKit).
 *
 * Layout: a title page (product, title, date, the runs, the comparisons); for each run a section
 * with its metadata, parameters, charts, findings beside the paper's values, the paper values no
 * finding matched, its tables and notes; then a comparison section for every experiment that two
 * or more finished runs of the report share (series overlaid, one colour per preset; parameters
 * and findings side by side).
 *
 * Charts are ECharts options (charts.ts) rendered server-side to SVG and drawn into the PDF with
 * svg-to-pdfkit: vectors and extractable text, no images. Series are downsampled for the chart
 * (charts.ts: about four points per point of plot width for lines, one per symbol-sized cell for
 * scatter plots, and a bound per chart),
 * which keeps the file small; the CSV export holds every value.
 */
import * as echarts from 'echarts';
import type { EChartsOption } from 'echarts';
import type { FileResult, RunDetail } from '../../contract';
import { findExperiment } from '../../../src-sim/experiments';
import type { Finding, Series, Table } from '../../../src-sim/experiments/types';
import { findPreset } from '../../../src-sim/presets';
import { SIM_VERSION } from '../../../src-sim/version';
import type { RunStore } from '../store';
import type { ChartRun, ChartSpec } from './charts';
import { chartOption, comparisonCharts, legendRows, presetColors, runCharts } from './charts';
import { displayDuration, displayParam, displayTime, displayValue, fileStamp, paramRows, slug } from './format';
import { loadRuns } from './load';
import { PdfWriter } from './pdf-writer';
import type { PaperValue } from './references';
import { paperComparison } from './references';

export const PRODUCT_NAME = 'GPU Memory Lab';
export const PDF_MIME = 'application/pdf';

export interface PdfOptions {
  /** The report's title (default: the run's title, or "Run report"). */
  title?: string;
  /** The report's date, ms since the epoch (default: now). */
  now?: number;
  /** The app's version, printed on the title page. */
  appVersion?: string;
  /** Rows of an experiment's table printed at most (default 80); the CSV holds them all. */
  maxTableRows?: number;
  /** Chart height in points, without the legend (default 210). */
  chartHeight?: number;
}

/** Renders an ECharts option to an SVG string, server-side (no DOM). */
export function renderChartSvg(option: EChartsOption, width: number, height: number): string {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption(option);
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

/** How a run is named in comparisons: its preset, and its number when a preset appears twice. */
function runLabels(runs: readonly RunDetail[], numbers: readonly number[]): string[] {
  return runs.map((r, i) => (runs.filter((o) => o.presetId === r.presetId).length > 1 ? `${r.presetName} (run ${numbers[i]})` : r.presetName));
}

function presetLine(run: RunDetail): string {
  const builtin = findPreset(run.presetId) !== undefined;
  return `${run.presetName} - ${run.preset.device} (preset "${run.presetId}"${builtin ? '' : ', custom'}; ${run.preset.generation})`;
}

function experimentLine(id: string): string {
  const e = findExperiment(id);
  return e ? `${e.title} (${id})` : id;
}

function findingValue(f: Finding): string {
  return displayValue(f.value, f.unit);
}

function paperValueText(v: PaperValue): string {
  const r = v.reference;
  const value = r.tolerance === 'range' && r.range ? `${displayValue(r.range[0], '')} to ${displayValue(r.range[1], r.unit)}` : displayValue(r.value, r.unit);
  return value;
}

class Report {
  readonly w: PdfWriter;
  private readonly chartHeight: number;
  private readonly maxTableRows: number;
  private figure = 0;

  constructor(
    private readonly runs: readonly RunDetail[],
    private readonly options: PdfOptions,
    private readonly title: string,
    private readonly now: number,
  ) {
    this.w = new PdfWriter({ title, subject: `${runs.length} run${runs.length === 1 ? '' : 's'}`, creationDate: new Date(now) }, `${PRODUCT_NAME} - ${title}`);
    this.chartHeight = options.chartHeight ?? 210;
    this.maxTableRows = options.maxTableRows ?? 80;
  }

  /** Experiments with two or more finished runs, with those runs' positions in the report. */
  comparisons(): { experiment: string; indices: number[] }[] {
    const groups = new Map<string, number[]>();
    this.runs.forEach((r, i) => {
      if (r.status !== 'done' || !r.result) return;
      groups.set(r.experiment, [...(groups.get(r.experiment) ?? []), i]);
    });
    return [...groups.entries()].filter(([, idx]) => idx.length > 1).map(([experiment, indices]) => ({ experiment, indices }));
  }

  async build(): Promise<Uint8Array> {
    const comparisons = this.comparisons();
    this.titlePage(comparisons);
    this.runs.forEach((r, i) => this.runSection(r, i + 1));
    for (const c of comparisons) this.comparisonSection(c.experiment, c.indices);
    return this.w.finish();
  }

  private titlePage(comparisons: { experiment: string; indices: number[] }[]): void {
    const w = this.w;
    w.gap(120);
    w.doc.font('Helvetica-Bold').fontSize(30).fillColor('#1d3557').text(PRODUCT_NAME, w.left, w.y, { width: w.width });
    w.gap(6);
    w.paragraph(this.title, { size: 17, bold: true, gapAfter: 10 });
    const versions = [this.options.appVersion ? `app ${this.options.appVersion}` : null, `simulator ${SIM_VERSION}`].filter(Boolean).join(', ');
    w.paragraph(`Generated ${displayTime(this.now)} (${versions}).`, { muted: true });
    w.paragraph('Simulated measurements of the GPU memory hierarchy, reproducing the studies of Mei et al. 2014, Wong et al. 2010, Lashgar and Baniasadi 2014, and Mokhtari and Stumm 2015.', { muted: true, gapAfter: 24 });
    w.heading(`Runs in this report (${this.runs.length})`, 2, 40);
    w.table(
      [{ header: '#', weight: 4 }, { header: 'Title', weight: 30 }, { header: 'Experiment', weight: 20 }, { header: 'Preset', weight: 14 }, { header: 'Seed', weight: 8, align: 'right' }, { header: 'Status', weight: 10 }, { header: 'Finished', weight: 18 }],
      this.runs.map((r, i) => [String(i + 1), r.title, r.experiment, r.presetName, String(r.seed), r.status, displayTime(r.finishedAt)]),
    );
    if (comparisons.length) {
      w.heading('Comparisons', 2, 30);
      w.table(
        [{ header: 'Experiment', weight: 45 }, { header: 'Runs', weight: 55 }],
        comparisons.map((c) => [experimentLine(c.experiment), c.indices.map((i) => `${i + 1} (${this.runs[i].presetName})`).join(', ')]),
      );
    }
    w.gap(8);
    w.paragraph(
      'Charts are vector drawings of the stored series, thinned to about four points per point of plot width (lines) or one point per symbol-sized cell (scatter plots); the CSV export holds every value. Paper values are those of the reproduction rows that the experiment reproduces on the preset the paper measured.',
      { size: 8.5, muted: true },
    );
  }

  private metadata(run: RunDetail, k: number): void {
    const w = this.w;
    w.heading(`Run ${k}: ${run.title}`, 1, 120);
    const pairs: [string, string][] = [
      ['Run id', run.id],
      ['Experiment', experimentLine(run.experiment)],
      ['Preset', presetLine(run)],
      ['Seed', String(run.seed)],
      ['Simulator version', run.simVersion],
      ['Status', run.status],
    ];
    if (run.error) pairs.push(['Error', run.error]);
    pairs.push(['Created', displayTime(run.createdAt)], ['Ran', `${displayTime(run.startedAt)} to ${displayTime(run.finishedAt)} (duration ${displayDuration(run.durationMs)})`]);
    if (run.tags.length) pairs.push(['Tags', run.tags.join(', ')]);
    if (run.notes) pairs.push(['Notes', run.notes]);
    w.keyValues(pairs);
    const specs = findExperiment(run.experiment)?.params ?? [];
    const params = paramRows(run.params, specs);
    if (params.length) {
      w.heading('Parameters', 3, 30);
      w.table([{ header: 'Parameter', weight: 24 }, { header: 'Value', weight: 26 }, { header: 'Description', weight: 50, muted: true }], params.map((p) => [`${p.label} (${p.name})`, p.value, p.description]));
    }
  }

  private chart(spec: ChartSpec): void {
    const w = this.w;
    const width = Math.floor(w.width);
    const height = this.chartHeight + legendRows(spec, width) * 17;
    this.figure++;
    w.heading(`Figure ${this.figure}. ${spec.title}`, 3, height + 14);
    const svg = renderChartSvg(chartOption(spec, { width, height, fontSize: 9 }), width, height);
    w.svg(svg, width, height);
    const points = spec.lines.reduce((a, l) => a + l.x.length, 0);
    w.paragraph(`${spec.lines.length} series, ${points} points${spec.logX ? '; x on a log scale' : ''}.`, { size: 7.5, muted: true, gapAfter: 8 });
  }

  private findings(run: RunDetail): void {
    const w = this.w;
    const findings = run.result?.findings ?? [];
    const cmp = paperComparison(run, findings);
    w.heading('Findings', 2, 40);
    if (cmp.rows.length)
      w.paragraph(
        cmp.findings.some((b) => b.paper)
          ? `Beside the paper's values of ${cmp.rows.map((r) => r.id).join(', ')} where a finding names the same quantity. Check: the rule shown under each paper value (latencies within 5 %, structure exactly, ranges and relative figures within their band). Kind: predicted (the model produced the value from inputs that do not contain it: a reproduction), calibrated (a preset number was set from this value: consistency only) or specification (read back from preset data).`
          : `No finding names a quantity of ${cmp.rows.map((r) => r.id).join(', ')} unambiguously; their values are listed under "Paper values".`,
        { size: 8.5, muted: true },
      );
    else w.paragraph(`No reproduction row of the papers covers ${run.experiment} on the preset "${run.presetId}".`, { size: 8.5, muted: true });
    const besidePaper = cmp.findings.some((b) => b.paper);
    if (findings.length && besidePaper)
      w.table(
        [
          { header: 'Finding', weight: 25 },
          { header: 'Measured', weight: 12 },
          { header: 'Paper', weight: 22 },
          { header: 'Check', weight: 10 },
          { header: 'Kind', weight: 10 },
          { header: 'Evidence', weight: 21, muted: true },
        ],
        cmp.findings.map((b) => [
          b.finding.label,
          findingValue(b.finding),
          b.paper ? `${paperValueText(b.paper)}${b.check?.rule ? `\n${b.check.rule}` : ''}\n${b.paper.reference.citation}${b.check?.context ? `\ncontext: ${b.check.context}` : ''}` : '',
          b.check ? (b.check.pass ? 'agrees' : 'differs') + (b.check.deviation !== undefined && b.check.deviation > 0 ? ` (${(b.check.deviation * 100).toFixed(1)} %)` : '') : '',
          b.check?.kind ?? '',
          b.finding.evidence,
        ]),
      );
    else if (findings.length)
      w.table(
        [{ header: 'Finding', weight: 35 }, { header: 'Measured', weight: 20 }, { header: 'Evidence', weight: 45, muted: true }],
        cmp.findings.map((b) => [b.finding.label, findingValue(b.finding), b.finding.evidence]),
      );
    else w.paragraph('The analysers reported no findings.', { size: 9 });
    const known = cmp.findings.filter((b) => b.check?.note);
    if (known.length) {
      w.heading('Known deviations', 3, 40);
      w.paragraph("Why the model is known to differ from the paper on these findings, at the reproduction rows' parameters (docs/TIMING.md and docs/SL1.md measure each cause).", { size: 8.5, muted: true });
      for (const b of known) w.paragraph(`${b.finding.label}: ${b.check?.note}`, { size: 8.5 });
    }
    if (cmp.unmatched.length) {
      w.heading('Paper values', 3, 40);
      w.paragraph('Published values of the rows that reproduce with this experiment on this preset, for which no finding above names the same quantity (some need other parameters or other experiments).', { size: 8.5, muted: true });
      w.table(
        [{ header: 'Row', weight: 17 }, { header: 'Quantity', weight: 30 }, { header: 'Paper value', weight: 18 }, { header: 'Citation', weight: 35, muted: true }],
        cmp.unmatched.map((v) => [v.rowIds.join(', '), v.reference.name, paperValueText(v), v.reference.citation]),
      );
    }
  }

  private resultTable(t: Table): void {
    const w = this.w;
    w.heading(t.name, 3, 50);
    const rows = t.rows.slice(0, this.maxTableRows);
    const headers = t.columns.map((c) => (c.unit ? `${c.label} (${c.unit})` : c.label));
    const cells = rows.map((r) => t.columns.map((c) => (r[c.key] === undefined ? '' : typeof r[c.key] === 'number' ? displayValue(r[c.key] as number, '') : String(r[c.key]))));
    // A table wider than the page is printed in parts of whole columns, each with the row labels.
    const parts = w.columnParts(headers, cells);
    parts.forEach((cols, i) => {
      if (parts.length > 1) w.paragraph(`Columns ${cols.slice(1).map((j) => j + 1).join(', ')} of ${headers.length} (part ${i + 1} of ${parts.length}; column 1 repeated)`, { size: 8, muted: true });
      w.table(
        cols.map((j) => ({ header: headers[j], align: 'left' as const })),
        cells.map((r) => cols.map((j) => r[j])),
      );
    });
    if (t.rows.length > rows.length) w.paragraph(`The first ${rows.length} of ${t.rows.length} rows; the CSV export holds them all.`, { size: 8, muted: true });
  }

  private runSection(run: RunDetail, k: number): void {
    const w = this.w;
    w.newPage();
    this.metadata(run, k);
    const r = run.result;
    if (!r) {
      const why =
        run.status === 'done' ? 'This run has no stored result.' : run.status === 'queued' || run.status === 'running' ? `This run is ${run.status}; it has no result yet.` : `This run ended ${run.status}; it has no result.`;
      w.paragraph(why, { italic: true });
      return;
    }
    const charts = runCharts(r.series as Series[]);
    if (charts.length) {
      w.heading('Charts', 2, this.chartHeight + 30);
      for (const spec of charts) this.chart(spec);
    }
    this.findings(run);
    if (r.tables.length) {
      w.heading('Tables', 2, 130); // keeps with the first table's name and some of its rows
      for (const t of r.tables) this.resultTable(t);
    }
    if (r.notes.length) {
      w.heading('Notes', 3, 20);
      for (const n of r.notes) w.paragraph(`- ${n}`, { size: 9 });
    }
  }

  /** Tables with one column per run, at most `per` runs wide (repeated for the others). */
  private sideBySide(first: string, labels: readonly string[], rows: readonly (readonly string[])[], per = 4): void {
    for (let from = 0; from < labels.length; from += per) {
      const cols = labels.slice(from, from + per);
      this.w.table(
        [{ header: first, weight: 30 }, ...cols.map((l) => ({ header: l, weight: 70 / cols.length }))],
        rows.map((r) => [r[0], ...r.slice(1 + from, 1 + from + cols.length)]),
      );
    }
  }

  private comparisonSection(experiment: string, indices: readonly number[]): void {
    const w = this.w;
    const runs = indices.map((i) => this.runs[i]);
    const numbers = indices.map((i) => i + 1);
    const labels = runLabels(runs, numbers);
    const colors = presetColors(runs.map((r) => r.presetId));
    w.newPage();
    w.heading(`Comparison: ${findExperiment(experiment)?.title ?? experiment}`, 1, 120);
    w.paragraph(`${runs.length} runs of ${experiment}, one colour per preset.`, { size: 9 });
    w.swatches(runs.map((r, i) => ({ color: colors.get(r.presetId) as string, text: `${labels[i]}: run ${numbers[i]}, "${r.title}", seed ${r.seed}` })));

    const keys = [...new Set(runs.flatMap((r) => Object.keys(r.params)))];
    const specs = findExperiment(experiment)?.params ?? [];
    const paramTable = keys.map((key) => {
      const spec = specs.find((s) => s.name === key);
      return [spec ? spec.label : key, ...runs.map((r) => (r.params[key] === undefined ? '-' : displayParam(r.params[key], spec)))];
    });
    if (paramTable.length) {
      w.heading('Parameters side by side', 3, 40);
      this.sideBySide('Parameter', labels, paramTable);
    }

    const seen = new Map<string, number>();
    const chartRuns: ChartRun[] = runs.map((r, i) => {
      const dashOffset = seen.get(r.presetId) ?? 0;
      seen.set(r.presetId, dashOffset + 1);
      return { label: labels[i], color: colors.get(r.presetId) as string, dashOffset, series: (r.result?.series ?? []) as Series[] };
    });
    const charts = comparisonCharts(chartRuns);
    if (charts.length) {
      w.heading('Series overlaid', 2, this.chartHeight + 30);
      for (const spec of charts) this.chart(spec);
    }

    const findingKeys: { key: string; label: string }[] = [];
    for (const r of runs) for (const f of r.result?.findings ?? []) if (!findingKeys.some((k) => k.key === f.key)) findingKeys.push({ key: f.key, label: f.label });
    w.heading('Findings side by side', 2, 40);
    if (findingKeys.length)
      this.sideBySide(
        'Finding',
        labels,
        findingKeys.map((k) => [
          k.label,
          ...runs.map((r) => {
            const f = r.result?.findings.find((x) => x.key === k.key);
            return f ? findingValue(f) : '-';
          }),
        ]),
      );
    else w.paragraph('The analysers reported no findings.', { size: 9 });
  }
}

/** The PDF report's bytes for runs already read from the store. */
export async function renderReport(runs: readonly RunDetail[], options: PdfOptions = {}): Promise<Uint8Array> {
  const now = options.now ?? Date.now();
  const title = options.title ?? (runs.length === 1 ? runs[0].title : 'Run report');
  return new Report(runs, options, title, now).build();
}

/** `exports.pdf`: the PDF report of the runs, in the order given. */
export async function exportPdf(store: RunStore, runIds: readonly string[], options: PdfOptions = {}): Promise<FileResult> {
  const runs = loadRuns(store, runIds);
  const now = options.now ?? Date.now();
  const bytes = await renderReport(runs, { ...options, now });
  const what = runs.length === 1 ? `${slug(runs[0].experiment)}-${slug(runs[0].presetId)}` : `${runs.length}-runs`;
  return { fileName: `gpulab-report-${what}-${fileStamp(now)}.pdf`, mimeType: PDF_MIME, bytes };
}
