/**
 * The PDF report of one or many runs (PDFKit): a report a student hands in.
 *
 * Layout: a summary first (title, date, the runs with their GPU and experiment, and per run its
 * verdicts: each quantity it reproduces with the inferred, the preset's true and the paper's value
 * and pass, fail or cannot tell); then per run a section with its charts, its findings (inferred,
 * true and paper values side by side, the check's rule and kind), the evidence, its parameters and
 * notes; then a comparison section for every experiment that two or more finished runs of the
 * report share (series overlaid, one colour per preset; parameters and findings side by side).
 * Raw data (the runs' result tables and the paper values that no finding of a run matched) come
 * last, only when asked for (`PdfOptions.raw`); the CSV export holds every value.
 *
 * The true values are the run view's (src-main/shared/findings.ts, pure functions over
 * the run's preset snapshot): the same table on screen and on paper, never fed to an analyser.
 *
 * Charts are ECharts options (charts.ts) rendered server-side to SVG and drawn into the PDF with
 * svg-to-pdfkit: vectors and extractable text, no images. Series are downsampled for the chart
 * (charts.ts: about four points per point of plot width for lines, one per symbol-sized cell for
 * scatter plots, and a bound per chart), which keeps the file small.
 */
import * as echarts from 'echarts';
import type { EChartsOption } from 'echarts';
import type { FileResult, RunDetail } from '../../contract';
import { isCannotTell } from '../../../src-sim/analysis/cannot-tell';
import { findExperiment } from '../../../src-sim/experiments';
import type { Finding, Series, Table } from '../../../src-sim/experiments/types';
import { findPreset } from '../../../src-sim/presets';
import { SIM_VERSION } from '../../../src-sim/version';
import { findingRows, paperRefs } from '../../shared/findings';
import type { RunStore } from '../store';
import type { ChartRun, ChartSpec } from './charts';
import { chartOption, comparisonCharts, legendRows, presetColors, runCharts } from './charts';
import { displayDuration, displayParam, displayTime, displayValue, fileStamp, paramRows, slug } from './format';
import { loadRuns } from './load';
import { PdfWriter } from './pdf-writer';
import type { PaperComparison, PaperValue } from './references';
import { paperComparison } from './references';
import { deviceLine } from '../../../src-sim/cuda/run-record';

export const PRODUCT_NAME = 'GPU Memory Lab';
export const PDF_MIME = 'application/pdf';
/** Charts of a run in a handout (the report without the evidence); the full report has them all. */
const HANDOUT_CHARTS = 2;

export interface PdfOptions {
  /** The report's title (default: the run's title, or "Run report"). */
  title?: string;
  /** The report's date, ms since the epoch (default: now). */
  now?: number;
  /** The app's version, printed on the summary page. */
  appVersion?: string;
  /**
   * Appends the raw data (default false): each run's result tables and the paper values of its rows
   * that no finding matched. Without it the report names them and the CSV export holds them.
   */
  raw?: boolean;
  /**
   * The full report (default false): every chart, every finding with its evidence, the parameters
   * with their descriptions and the run's notes. Without it each run is a handout of about a page:
   * its first two charts, the findings that have a value or a verdict (the others named in a line),
   * the parameters in a line.
   */
  evidence?: boolean;
  /** Rows of an experiment's table printed at most in the raw data (default 80); the CSV holds them all. */
  maxTableRows?: number;
  /** Chart height in points, without the legend (default 180). */
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
  if (run.device || !run.preset) return run.device ? `${run.presetName} - measured: ${deviceLine(run.device)}` : run.presetName;
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
  return r.tolerance === 'range' && r.range ? `${displayValue(r.range[0], '')} to ${displayValue(r.range[1], r.unit)}` : displayValue(r.value, r.unit);
}

/** A signed deviation in the standard fonts' characters: "+2.1 %", "-0.4 %", "0 %". */
function deviationText(d: number | null | undefined): string {
  if (d === null || d === undefined || !Number.isFinite(d)) return '';
  const pct = d * 100;
  if (Math.abs(pct) < 0.05) return '0 %';
  return `${pct > 0 ? '+' : '-'}${Math.abs(pct) >= 10 ? Math.abs(pct).toFixed(0) : Math.abs(pct).toFixed(1)} %`;
}

export type Verdict = 'pass' | 'fail' | 'cannot tell';

/** One finding of a run as the report shows it: inferred, true and paper values and the verdict. */
export interface ReportFinding {
  finding: Finding;
  inferred: string;
  /** The preset's true value (run view's mapping), '' when the mapping does not know the key. */
  truth: string;
  /** The paper's value, '' when no reference sits beside the finding. */
  paper: string;
  paperValue?: PaperValue;
  /** Against the paper's value where there is one, else against the preset's; null: measurement only. */
  verdict: Verdict | null;
  against: 'paper' | 'preset' | null;
  deviation: number | null;
  /** The paper check's rule, kind, context and known deviation (a failing check's), when there is one. */
  rule?: string;
  kind?: string;
  context?: string;
  note?: string;
}

/** A run's findings for the report: each beside the preset's true value and the paper's (one rule for summary and section). */
export function reportFindings(run: RunDetail, cmp: PaperComparison = paperComparison(run, run.result?.findings ?? [])): ReportFinding[] {
  const findings = run.result?.findings ?? [];
  const refs = paperRefs({ findings: cmp.findings.flatMap((b) => (b.paper && b.check ? [{ key: b.finding.key, paper: b.paper, check: b.check }] : [])) });
  const rows = findingRows(findings, run.preset, run.params, refs, run.experiment);
  return rows.map((row, i) => {
    const beside = cmp.findings[i];
    const cannot = isCannotTell(row.finding.value);
    const hasRef = row.truth !== null || row.paper !== null;
    const verdict: Verdict | null = cannot ? (hasRef ? 'cannot tell' : null) : row.verdict ? (row.verdict.pass ? 'pass' : 'fail') : null;
    const against = cannot ? (row.paper ? 'paper' : row.truth ? 'preset' : null) : (row.verdict?.against ?? null);
    return {
      finding: row.finding,
      inferred: findingValue(row.finding),
      truth: row.truth ? displayValue(row.truth.value, row.finding.unit) : '',
      paper: beside?.paper ? paperValueText(beside.paper) : '',
      ...(beside?.paper ? { paperValue: beside.paper } : {}),
      verdict,
      against,
      deviation: against === 'paper' ? row.vsPaper.deviation : against === 'preset' ? row.vsTruth.deviation : null,
      ...(beside?.check?.rule ? { rule: beside.check.rule } : {}),
      ...(beside?.check?.kind ? { kind: beside.check.kind } : {}),
      ...(beside?.check?.context ? { context: beside.check.context } : {}),
      ...(beside?.check?.note ? { note: beside.check.note } : {}),
    };
  });
}

/** "3 pass, 1 fail, 1 cannot tell" (only the counts that are not zero), or '' when nothing was judged. */
export function verdictCounts(rows: readonly ReportFinding[]): string {
  const n = (v: Verdict): number => rows.filter((r) => r.verdict === v).length;
  return (['pass', 'fail', 'cannot tell'] as const)
    .filter((v) => n(v) > 0)
    .map((v) => `${n(v)} ${v}`)
    .join(', ');
}

/** The verdict cell: "pass (+1.2 %)", "fail (known deviation)", "cannot tell". */
function verdictText(r: ReportFinding): string {
  if (!r.verdict) return '-';
  const dev = r.verdict !== 'cannot tell' && r.deviation ? ` (${deviationText(r.deviation)})` : '';
  return `${r.verdict}${dev}${r.verdict === 'fail' && r.note ? '\nknown deviation' : ''}`;
}

interface RunInfo {
  run: RunDetail;
  cmp: PaperComparison;
  rows: ReportFinding[];
}

class Report {
  readonly w: PdfWriter;
  private readonly chartHeight: number;
  private readonly maxTableRows: number;
  private readonly info: RunInfo[];
  private figure = 0;
  /** The full report (PdfOptions.evidence), or a handout of about a page a run. */
  private readonly full: boolean;

  constructor(
    private readonly runs: readonly RunDetail[],
    private readonly options: PdfOptions,
    private readonly title: string,
    private readonly now: number,
  ) {
    this.w = new PdfWriter({ title, subject: `${runs.length} run${runs.length === 1 ? '' : 's'}`, creationDate: new Date(now) }, `${PRODUCT_NAME} - ${title}`);
    this.full = options.evidence === true;
    this.chartHeight = options.chartHeight ?? (this.full ? 180 : 140);
    this.maxTableRows = options.maxTableRows ?? 80;
    this.info = runs.map((run) => {
      const cmp = paperComparison(run, run.result?.findings ?? []);
      return { run, cmp, rows: reportFindings(run, cmp) };
    });
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
    this.summary(comparisons);
    this.w.newPage();
    this.info.forEach((r, i) => this.runSection(r, i + 1));
    for (const c of comparisons) this.comparisonSection(c.experiment, c.indices);
    if (this.options.raw) this.rawData();
    return this.w.finish();
  }

  private summary(comparisons: { experiment: string; indices: number[] }[]): void {
    const w = this.w;
    w.doc.font('Helvetica-Bold').fontSize(11).fillColor('#1d3557').text(PRODUCT_NAME, w.left, w.y, { width: w.width });
    w.gap(2);
    w.paragraph(this.title, { size: 19, bold: true, gapAfter: 4 });
    const versions = [this.options.appVersion ? `app ${this.options.appVersion}` : null, `simulator ${SIM_VERSION}`].filter(Boolean).join(', ');
    w.paragraph(`Generated ${displayTime(this.now)} (${versions}). Simulated measurements of the GPU memory hierarchy, reproducing the studies of Mei et al. 2014, Wong et al. 2010, Lashgar and Baniasadi 2014, and Mokhtari and Stumm 2015.`, {
      size: 8.5,
      muted: true,
      gapAfter: 6,
    });
    w.heading(`Runs in this report (${this.runs.length})`, 2, 40);
    w.table(
      [
        { header: '#', weight: 3 },
        { header: 'Title', weight: 24 },
        { header: 'GPU (preset)', weight: 17 },
        { header: 'Experiment', weight: 23 },
        { header: 'Seed', weight: 6, align: 'right' },
        { header: 'Status', weight: 8 },
        { header: 'Verdicts', weight: 19 },
      ],
      this.info.map(({ run, rows }, i) => [
        String(i + 1),
        run.title,
        `${run.presetName} (${run.presetId})`,
        experimentLine(run.experiment),
        String(run.seed),
        run.status,
        run.result ? verdictCounts(rows) || 'no reference values' : 'no result',
      ]),
    );
    if (comparisons.length)
      w.paragraph(
        `Compared after the runs: ${comparisons.map((c) => `${experimentLine(c.experiment)}, runs ${c.indices.map((i) => i + 1).join(', ')}`).join('; ')}.`,
        { size: 8.5 },
      );
    w.heading('Verdicts', 2, 60);
    w.paragraph(
      "Each quantity a run infers that the preset or the papers give a value for: the inferred value, the simulated GPU's true value (read from the run's preset snapshot, never seen by the analysers) and the paper's. The verdict holds the inferred value to the paper's where there is one (latencies within 5 %, structure exactly, ranges and relative figures within their band), else to the preset's; cannot tell is an analyser's honest answer where its measurements do not decide (the run's section says why and what to run next).",
      { size: 8, muted: true, gapAfter: 6 },
    );
    this.info.forEach(({ run, rows, cmp }, i) => {
      w.heading(`Run ${i + 1}: ${run.title} - ${run.presetName}, ${run.experiment}`, 3, 30);
      if (!run.result) {
        w.paragraph(run.error ? `No result (${run.status}): ${run.error}` : `No result (${run.status}).`, { size: 8.5, italic: true });
        return;
      }
      const judged = rows.filter((r) => r.verdict !== null);
      const rowIds = cmp.rows.map((r) => r.id);
      if (judged.length)
        w.table(
          [
            { header: 'Quantity', weight: 34 },
            { header: 'Inferred', weight: 15 },
            { header: 'Preset (true)', weight: 15 },
            { header: 'Paper', weight: 18 },
            { header: 'Verdict', weight: 18 },
          ],
          judged.map((r) => [r.finding.label, r.inferred, r.truth || '-', r.paper || '-', verdictText(r)]),
          { fontSize: 7.5 },
        );
      const rest = rows.length - judged.length;
      const notes = [
        rest > 0 ? `${rest} further finding${rest === 1 ? '' : 's'} without a true or paper value (measurement only) in the run's section.` : '',
        rowIds.length ? `Paper rows: ${rowIds.join(', ')}.` : 'No reproduction row of the papers covers this experiment on this preset.',
        !judged.length && !rows.length ? 'The analysers reported no findings.' : '',
      ].filter(Boolean);
      w.paragraph(notes.join(' '), { size: 7.5, muted: true });
    });
  }

  /** Label/value pairs, two pairs a row. */
  private pairsTable(pairs: readonly (readonly [string, string])[]): void {
    const rows: string[][] = [];
    for (let i = 0; i < pairs.length; i += 2) rows.push([pairs[i][0], pairs[i][1], pairs[i + 1]?.[0] ?? '', pairs[i + 1]?.[1] ?? '']);
    this.w.table(
      [
        { header: '', weight: 13 },
        { header: '', weight: 37 },
        { header: '', weight: 13 },
        { header: '', weight: 37 },
      ],
      rows,
      { header: false, fontSize: 8, zebra: true, maxCellChars: 4000 },
    );
  }

  private metadata(run: RunDetail, k: number): void {
    const w = this.w;
    w.heading(`Run ${k}: ${run.title}`, 1, 150);
    w.keyValues(
      [
        ['GPU', presetLine(run)],
        ['Experiment', experimentLine(run.experiment)],
        ...(run.error ? [['Error', run.error] as [string, string]] : []),
        ...(run.notes ? [['Notes', run.notes] as [string, string]] : []),
      ],
      70,
      8,
    );
    const pairs: [string, string][] = [
      ['Seed', String(run.seed)],
      ['Status', run.status],
      ['Simulator', run.simVersion],
      ['Ran', `${displayTime(run.startedAt)} (${displayDuration(run.durationMs)})`],
      ['Run id', run.id],
    ];
    if (run.tags.length) pairs.push(['Tags', run.tags.join(', ')]);
    this.pairsTable(pairs);
  }

  private parameters(run: RunDetail): void {
    const specs = findExperiment(run.experiment)?.params ?? [];
    const params = paramRows(run.params, specs);
    if (!params.length) return;
    if (!this.full) {
      this.w.paragraph(`Parameters: ${params.map((p) => `${p.name} = ${p.value}`).join('; ')}.`, { size: 7.5, muted: true, gapAfter: 3 });
      return;
    }
    this.w.heading('Parameters', 3, 30);
    this.w.table(
      [{ header: 'Parameter', weight: 28 }, { header: 'Value', weight: 20 }, { header: 'Description', weight: 52, muted: true }],
      params.map((p) => [`${p.label} (${p.name})`, p.value, p.description]),
      { fontSize: 7.5 },
    );
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
    w.paragraph(`${spec.lines.length} series, ${points} points${spec.logX ? '; x on a log scale' : ''}.`, { size: 7.5, muted: true, gapAfter: 4 });
  }

  private findings({ run, cmp, rows: all }: RunInfo): void {
    const w = this.w;
    w.heading('Findings', 2, 50);
    // A handout keeps the findings that say something: a value, or a verdict against a paper or the preset.
    const open = this.full ? [] : all.filter((r) => r.verdict === null && isCannotTell(r.finding.value));
    const rows = this.full ? all : all.filter((r) => !open.includes(r));
    if (!all.length) {
      w.paragraph('The analysers reported no findings.', { size: 9 });
      return;
    }
    const rowIds = cmp.rows.map((r) => r.id);
    w.paragraph(
      rowIds.length
        ? `Paper values of ${rowIds.join(', ')} where a finding names the same quantity, with the check's rule and kind: predicted (the model produced the value from inputs that do not contain it: a reproduction), recovered (an analyser inferred from simulated timings alone what the preset was set to: a method check), calibrated (a preset number was set from this value: consistency only) or specification (read back from preset data).`
        : run.device
          ? `A run measured on a real GPU (${run.presetName}): no preset's true values and no paper's values stand beside its findings.`
          : `No reproduction row of the papers covers ${run.experiment} on the preset "${run.presetId}"; the verdicts hold the findings to the preset's true values.`,
      { size: 8, muted: true },
    );
    w.table(
      [
        { header: 'Finding', weight: 25 },
        { header: 'Inferred', weight: 12 },
        { header: 'Preset (true)', weight: 12 },
        { header: 'Paper', weight: 35 },
        { header: 'Verdict', weight: 16 },
      ],
      rows.map((r) => [
        r.finding.label,
        r.inferred,
        r.truth || '-',
        r.paperValue ? [r.paper, r.rule, r.paperValue.reference.citation, r.context ? `context: ${r.context}` : ''].filter(Boolean).join('\n') : '-',
        [verdictText(r), r.kind ?? ''].filter(Boolean).join('\n'),
      ]),
      { fontSize: 7.5 },
    );
    if (open.length)
      w.paragraph(`Cannot tell (${open.length}): ${open.map((r) => r.finding.label).join('; ')}. The report with the evidence says why, and what to run next.`, { size: 7.5, muted: true, gapAfter: 3 });
    const known = rows.filter((r) => r.note);
    if (known.length) {
      w.heading('Known deviations', 3, 40);
      w.paragraph("Why the model is known to differ from the paper on these findings, at the reproduction rows' parameters (docs/TIMING.md and docs/SL1.md measure each cause).", { size: 8, muted: true });
      for (const r of known) w.paragraph(`${r.finding.label}: ${r.note}`, { size: 8 });
    }
    if (!this.full) return;
    w.heading('Evidence', 3, 30);
    for (const r of rows) if (r.finding.evidence) w.paragraph(`${r.finding.label}: ${r.finding.evidence}`, { size: 7.5, muted: true, gapAfter: 2 });
    w.gap(2);
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

  private runSection(info: RunInfo, k: number): void {
    const w = this.w;
    const { run } = info;
    // A handout gives each run its own page.
    if (!this.full && k > 1) w.newPage();
    this.metadata(run, k);
    const r = run.result;
    if (!r) {
      const why =
        run.status === 'done' ? 'This run has no stored result.' : run.status === 'queued' || run.status === 'running' ? `This run is ${run.status}; it has no result yet.` : `This run ended ${run.status}; it has no result.`;
      w.paragraph(why, { italic: true });
      return;
    }
    const charts = runCharts(r.series as Series[]);
    const shown = this.full ? charts : charts.slice(0, HANDOUT_CHARTS);
    for (const spec of shown) this.chart(spec);
    if (shown.length < charts.length) w.paragraph(`${charts.length - shown.length} more figure${charts.length - shown.length === 1 ? '' : 's'} of this run in the report with the evidence.`, { size: 7.5, muted: true, gapAfter: 3 });
    this.findings(info);
    this.parameters(run);
    if (r.notes.length && this.full) {
      w.heading('Notes', 3, 20);
      for (const n of r.notes) w.paragraph(`- ${n}`, { size: 8.5 });
    }
    const raw = [
      r.tables.length ? `${r.tables.length === 1 ? 'a table' : `${r.tables.length} tables`} (${r.tables.map((t) => `${t.name}, ${t.rows.length} rows`).join('; ')})` : '',
      info.cmp.unmatched.length ? `${info.cmp.unmatched.length} paper value${info.cmp.unmatched.length === 1 ? '' : 's'} of ${info.cmp.rows.map((x) => x.id).join(', ')} that no finding of this run names (other parameters or experiments measure them)` : '',
    ].filter(Boolean);
    if (raw.length)
      w.paragraph(`Raw data: ${raw.join('; ')}: ${this.options.raw ? `in "Raw data" at the end of the report.` : 'in the CSV export, or in a report exported with raw data.'}`, { size: 7.5, muted: true });
  }

  private rawData(): void {
    const w = this.w;
    const withRaw = this.info.filter(({ run, cmp }) => (run.result?.tables.length ?? 0) > 0 || cmp.unmatched.length > 0);
    if (!withRaw.length) return;
    w.newPage();
    w.heading('Raw data', 1, 60);
    w.paragraph("Each run's result tables and the paper values of its rows that no finding of the run names.", { size: 8, muted: true });
    for (const { run, cmp } of withRaw) {
      const k = this.runs.indexOf(run) + 1;
      w.heading(`Run ${k}: ${run.title}`, 2, 60);
      if (cmp.unmatched.length) {
        w.heading('Paper values', 3, 40);
        w.paragraph('Published values of the rows that reproduce with this experiment on this preset, for which no finding of this run names the same quantity (some need other parameters or other experiments).', { size: 8, muted: true });
        w.table(
          [{ header: 'Row', weight: 17 }, { header: 'Quantity', weight: 30 }, { header: 'Paper value', weight: 18 }, { header: 'Citation', weight: 35, muted: true }],
          cmp.unmatched.map((v) => [v.rowIds.join(', '), v.reference.name, paperValueText(v), v.reference.citation]),
          { fontSize: 7.5 },
        );
      }
      for (const t of run.result?.tables ?? []) this.resultTable(t);
    }
  }

  /** Tables with one column per run, at most `per` runs wide (repeated for the others). */
  private sideBySide(first: string, labels: readonly string[], rows: readonly (readonly string[])[], per = 4): void {
    for (let from = 0; from < labels.length; from += per) {
      const cols = labels.slice(from, from + per);
      this.w.table(
        [{ header: first, weight: 30 }, ...cols.map((l) => ({ header: l, weight: 70 / cols.length }))],
        rows.map((r) => [r[0], ...r.slice(1 + from, 1 + from + cols.length)]),
        { fontSize: 7.5 },
      );
    }
  }

  private comparisonSection(experiment: string, indices: readonly number[]): void {
    const w = this.w;
    const runs = indices.map((i) => this.runs[i]);
    const numbers = indices.map((i) => i + 1);
    const labels = runLabels(runs, numbers);
    const colors = presetColors(runs.map((r) => r.presetId));
    w.heading(`Comparison: ${findExperiment(experiment)?.title ?? experiment}`, 1, this.chartHeight + 80);
    w.paragraph(`${runs.length} runs of ${experiment}, one colour per preset.`, { size: 9 });
    w.swatches(runs.map((r, i) => ({ color: colors.get(r.presetId) as string, text: `${labels[i]}: run ${numbers[i]}, "${r.title}", seed ${r.seed}` })));

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
