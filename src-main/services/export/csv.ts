/**
 * CSV exports of one run and of several runs side by side, written with csv-stringify.
 *
 * One file, RFC 4180 records (fields quoted when they hold a comma, a quote or a line break), read
 * back by any CSV parser (the tests use csv-parse with `relax_column_count`). Records whose first
 * field starts with "# " are metadata or section markers; every section marker states how many
 * records follow it, so a reader never has to guess where a section ends.
 *
 * One run (`exportRunCsv`):
 *
 *     # gpulab run csv,1                      format and version
 *     # id,<run id>                           then one record per field: title, experiment, experiment title,
 *     ...                                     preset id, preset name, device, params (JSON), seed, simulator version,
 *                                             status, error (only when there is one), created, started, finished
 *                                             (ISO 8601 UTC, exact to the ms; empty when unknown), duration ms, tags
 *                                             (JSON), notes
 *     # series info,<n>                       then a header and n records: name, x label, x unit, y label, y unit,
 *                                             style, log x, points, stack, group, x categories (JSON list of
 *                                             labels that x indexes, e.g. ["int","short","char"]; empty when
 *                                             x is numeric)
 *     # series,wide,<rows>                    when every series has the same x values: a header (x, then one name
 *                                             per series) and one record per point: x, y1, y2, ...
 *     # series,long,<rows>                    otherwise: a header (series, x, y) and one record per point, the
 *                                             series one after the other in the order of "series info"
 *     # table,<name>,<rows>,<columns>         for each table: a header (column labels with units) and its rows
 *     # findings,<n>                          a header (key, label, value, kind, unit, evidence) and n records;
 *                                             kind says whether the value is a number or text
 *     # result notes,<n>                      n records of one field each
 *
 * Several runs (`exportComparisonCsv`): "# gpulab comparison csv,2", "# runs,<n>", then for each
 * run "# run,<k>" (k from 1), its metadata records and its "# series info" section; then
 * "# series groups,<g>" and, for each quantity on x (x label, unit and categories: an array size, an
 * access index, a missed address, a way), one "# series,wide,<rows>" section whose header names that
 * x with its unit and whose columns are every series of every run with that x (run by run, in
 * series-info order), aligned on x: the union of their x values in ascending order, a blank cell
 * where a series has no point at that x (an x repeated within a series takes as many rows as its
 * largest repeat count); then "# findings,<n>" with a leading run column (k). Version 1 put every
 * series on one x column named after the first series' x.
 *
 * Numbers are written exactly (`exactNumber`: Number(text) gives back the stored Float64, NaN,
 * ±Infinity and -0 included). Free text (titles, notes, names, labels) that a spreadsheet would
 * take for a formula (starting with =, +, @, a tab, a carriage return, or - when not a number),
 * or that starts with an apostrophe, gets one leading apostrophe; a reader removes one leading
 * apostrophe from such fields (`unguardText`).
 */
import { stringify } from 'csv-stringify/sync';
import type { FileResult, RunDetail, StoredSeries } from '../../contract';
import { findExperiment } from '../../../src-sim/experiments';
import type { Finding, Table } from '../../../src-sim/experiments/types';
import type { RunStore } from '../store';
import { exactNumber, isoTime, slug } from './format';
import { loadRuns } from './load';
import { deviceLine } from '../../../src-sim/cuda/run-record';

export const CSV_FORMAT_VERSION = 1;
/** Version 2: one wide section per quantity on x (version 1 had one for all series). */
export const COMPARISON_CSV_VERSION = 2;
export const RUN_CSV_MARK = '# gpulab run csv';
export const COMPARISON_CSV_MARK = '# gpulab comparison csv';
export const CSV_MIME = 'text/csv';

type Row = string[];

/** Guards free text against spreadsheet formula injection, reversibly (see the module comment). */
export function guardText(text: string): string {
  const risky = /^[=+@\t\r']/.test(text) || (text.length > 1 && text.startsWith('-') && !Number.isFinite(Number(text)));
  return risky ? `'${text}` : text;
}

/** Undoes `guardText`. */
export function unguardText(text: string): string {
  return text.startsWith("'") ? text.slice(1) : text;
}

/** The metadata records of a run (see the module comment for the order). */
function metadataRows(run: RunDetail): Row[] {
  const rows: Row[] = [
    ['# id', run.id],
    ['# title', guardText(run.title)],
    ['# experiment', run.experiment],
    ['# experiment title', guardText(findExperiment(run.experiment)?.title ?? '')],
    ['# preset id', run.presetId],
    ['# preset name', guardText(run.presetName)],
    ['# device', guardText(run.device ? `${deviceLine(run.device)} (real)` : (run.preset?.device ?? ''))],
    ['# params', JSON.stringify(run.params)],
    ['# seed', String(run.seed)],
    ['# simulator version', guardText(run.simVersion)],
    ['# status', run.status],
  ];
  if (run.error !== null) rows.push(['# error', guardText(run.error)]);
  rows.push(
    ['# created', isoTime(run.createdAt)],
    ['# started', isoTime(run.startedAt)],
    ['# finished', isoTime(run.finishedAt)],
    ['# duration ms', run.durationMs === null ? '' : exactNumber(run.durationMs)],
    ['# tags', JSON.stringify(run.tags)],
    ['# notes', guardText(run.notes)],
  );
  return rows;
}

function seriesInfoRows(series: readonly StoredSeries[]): Row[] {
  return [
    ['# series info', String(series.length)],
    ['name', 'x label', 'x unit', 'y label', 'y unit', 'style', 'log x', 'points', 'stack', 'group', 'x categories'],
    ...series.map((s) => [
      guardText(s.name),
      guardText(s.xLabel),
      guardText(s.xUnit),
      guardText(s.yLabel),
      guardText(s.yUnit),
      s.style ?? '',
      s.logX ? 'yes' : 'no',
      String(s.x.length),
      guardText(s.stack ?? ''),
      guardText(s.group ?? ''),
      s.xCategories?.length ? JSON.stringify(s.xCategories) : '',
    ]),
  ];
}

function axisHeader(s: StoredSeries | undefined): string {
  if (!s) return 'x';
  return guardText(s.xUnit ? `${s.xLabel} (${s.xUnit})` : s.xLabel || 'x');
}

/** True when every series has exactly the same x values (then one x column serves them all). */
function shareX(series: readonly StoredSeries[]): boolean {
  const first = series[0];
  if (!first) return true;
  return series.every((s) => s.x.length === first.x.length && s.x.every((v, i) => Object.is(v, first.x[i])));
}

function seriesRows(series: readonly StoredSeries[]): Row[] {
  if (shareX(series)) {
    const n = series[0]?.x.length ?? 0;
    const rows: Row[] = [['# series', 'wide', String(n)], [axisHeader(series[0]), ...series.map((s) => guardText(s.name))]];
    for (let i = 0; i < n; i++) rows.push([exactNumber(series[0].x[i]), ...series.map((s) => exactNumber(s.y[i]))]);
    return rows;
  }
  const total = series.reduce((a, s) => a + s.x.length, 0);
  const rows: Row[] = [['# series', 'long', String(total)], ['series', 'x', 'y']];
  for (const s of series) {
    const name = guardText(s.name);
    for (let i = 0; i < s.x.length; i++) rows.push([name, exactNumber(s.x[i]), exactNumber(s.y[i])]);
  }
  return rows;
}

function tableRows(t: Table): Row[] {
  const cell = (v: string | number | undefined): string => (v === undefined ? '' : typeof v === 'number' ? exactNumber(v) : guardText(v));
  return [
    ['# table', guardText(t.name), String(t.rows.length), String(t.columns.length)],
    t.columns.map((c) => guardText(c.unit ? `${c.label} (${c.unit})` : c.label)),
    ...t.rows.map((r) => t.columns.map((c) => cell(r[c.key]))),
  ];
}

const FINDING_HEADER = ['key', 'label', 'value', 'kind', 'unit', 'evidence'];

function findingCells(f: Finding): Row {
  const isNumber = typeof f.value === 'number';
  return [guardText(f.key), guardText(f.label), isNumber ? exactNumber(f.value as number) : guardText(String(f.value)), isNumber ? 'number' : 'text', guardText(f.unit), guardText(f.evidence)];
}

function toFile(rows: Row[], fileName: string): FileResult {
  const text = stringify(rows, { record_delimiter: '\n', quote_record_delimiter: true, eof: true });
  return { fileName, mimeType: CSV_MIME, bytes: new TextEncoder().encode(text) };
}

/** The rows of one run's CSV (see the module comment). */
export function runCsvRows(run: RunDetail): Row[] {
  const r = run.result;
  const series = r?.series ?? [];
  const rows: Row[] = [[RUN_CSV_MARK, String(CSV_FORMAT_VERSION)], ...metadataRows(run), ...seriesInfoRows(series), ...seriesRows(series)];
  for (const t of r?.tables ?? []) rows.push(...tableRows(t));
  const findings = r?.findings ?? [];
  rows.push(['# findings', String(findings.length)], FINDING_HEADER, ...findings.map(findingCells));
  const notes = r?.notes ?? [];
  rows.push(['# result notes', String(notes.length)], ...notes.map((n) => [guardText(n)]));
  return rows;
}

/** CSV of one run: its metadata, series, tables, findings and notes (a run without a result has empty sections). */
export function exportRunCsv(store: RunStore, runId: string): FileResult {
  const [run] = loadRuns(store, [runId]);
  return toFile(runCsvRows(run), `gpulab-${slug(run.experiment)}-${slug(run.presetId)}-${run.id.slice(0, 8)}.csv`);
}

/** Compares x values: ascending, -0 before 0, NaN last. */
function compareX(a: number, b: number): number {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number(Number.isNaN(a)) - Number(Number.isNaN(b));
  if (a !== b) return a < b ? -1 : 1;
  return Number(Object.is(b, -0)) - Number(Object.is(a, -0));
}

/**
 * Aligns series on x: the union of their x values, ascending; an x that a series repeats takes as
 * many rows as the largest repeat count, the k-th occurrence of each series on the k-th of them.
 * Returns the x of each row and, per series, the row of each of its points.
 */
export function alignOnX(series: readonly { x: ArrayLike<number> }[]): { x: number[]; rowOf: Int32Array[] } {
  const need = new Map<string, { x: number; count: number }>();
  for (const s of series) {
    const local = new Map<string, number>();
    for (let i = 0; i < s.x.length; i++) {
      const key = exactNumber(s.x[i]);
      const c = (local.get(key) ?? 0) + 1;
      local.set(key, c);
      const g = need.get(key);
      if (!g) need.set(key, { x: s.x[i], count: c });
      else if (g.count < c) g.count = c;
    }
  }
  const keys = [...need.entries()].sort((a, b) => compareX(a[1].x, b[1].x));
  const start = new Map<string, number>();
  const x: number[] = [];
  for (const [key, { x: v, count }] of keys) {
    start.set(key, x.length);
    for (let k = 0; k < count; k++) x.push(v);
  }
  const rowOf = series.map((s) => {
    const seen = new Map<string, number>();
    const rows = new Int32Array(s.x.length);
    for (let i = 0; i < s.x.length; i++) {
      const key = exactNumber(s.x[i]);
      const k = seen.get(key) ?? 0;
      seen.set(key, k + 1);
      rows[i] = (start.get(key) as number) + k;
    }
    return rows;
  });
  return { x, rowOf };
}

/** The rows of a comparison CSV (see the module comment). */
export function comparisonCsvRows(runs: readonly RunDetail[]): Row[] {
  const rows: Row[] = [[COMPARISON_CSV_MARK, String(COMPARISON_CSV_VERSION)], ['# runs', String(runs.length)]];
  runs.forEach((run, k) => {
    rows.push(['# run', String(k + 1)], ...metadataRows(run), ...seriesInfoRows(run.result?.series ?? []));
  });
  const columns = runs.flatMap((run, k) => (run.result?.series ?? []).map((s) => ({ run: k, s })));
  // One section per quantity on x, in the order the quantities first appear.
  const groups = new Map<string, typeof columns>();
  for (const c of columns) {
    const key = JSON.stringify([c.s.xLabel, c.s.xUnit, c.s.xCategories ?? null]);
    const g = groups.get(key);
    if (g) g.push(c);
    else groups.set(key, [c]);
  }
  const label = (k: number): string => `run ${k + 1} ${runs[k].presetName}`;
  rows.push(['# series groups', String(groups.size)]);
  for (const group of groups.values()) {
    const { x, rowOf } = alignOnX(group.map((c) => c.s));
    const cells: string[][] = x.map((v) => [exactNumber(v), ...group.map(() => '')]);
    group.forEach((c, j) => {
      const at = rowOf[j];
      for (let i = 0; i < at.length; i++) cells[at[i]][j + 1] = exactNumber(c.s.y[i]);
    });
    rows.push(['# series', 'wide', String(x.length)], [axisHeader(group[0].s), ...group.map((c) => guardText(`${label(c.run)}: ${c.s.name}`))], ...cells);
  }
  const findings = runs.flatMap((run, k) => (run.result?.findings ?? []).map((f) => [String(k + 1), ...findingCells(f)]));
  rows.push(['# findings', String(findings.length)], ['run', ...FINDING_HEADER], ...findings);
  return rows;
}

/** CSV of several runs: a metadata block per run, their series aligned on x, their findings. */
export function exportComparisonCsv(store: RunStore, runIds: readonly string[]): FileResult {
  const runs = loadRuns(store, runIds);
  const experiments = [...new Set(runs.map((r) => r.experiment))];
  const what = experiments.length === 1 ? slug(experiments[0]) : 'runs';
  return toFile(comparisonCsvRows(runs), `gpulab-comparison-${what}-${runs.length}-runs-${runs[0].id.slice(0, 8)}.csv`);
}

/** `exports.csv`: one run alone, several as a comparison. */
export function exportCsv(store: RunStore, runIds: readonly string[]): FileResult {
  return runIds.length === 1 ? exportRunCsv(store, runIds[0]) : exportComparisonCsv(store, runIds);
}
