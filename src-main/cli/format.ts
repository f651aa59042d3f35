/**
 * Formatting for the command line: aligned text tables, CSV and JSON views of results. Nothing here
 * simulates or reads files; it turns plain records into text.
 */
import { formatBytes } from '../../src-sim/experiments/params';
import type { ExperimentResult, ParamSpec, ParamValue, Series, Trace } from '../../src-sim/experiments/types';

/** A number as a person reads it: integers whole, others to six significant digits. */
export function formatNumber(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(6)));
}

/** A value with its unit; byte counts in the papers' units (16 KB, 2 MB). */
export function formatValue(v: number | string, unit: string): string {
  if (typeof v === 'string') return unit ? `${v} ${unit}` : v;
  if (unit === 'B' && Number.isInteger(v) && v >= 0) return formatBytes(v);
  return unit ? `${formatNumber(v)} ${unit}` : formatNumber(v);
}

export function formatParam(spec: ParamSpec | undefined, v: ParamValue): string {
  if (Array.isArray(v)) return v.map((x) => (spec?.kind === 'bytes-list' ? formatBytes(x) : String(x))).join(',');
  if (typeof v === 'number' && spec?.kind === 'bytes') return formatBytes(v);
  if (typeof v === 'string' && spec?.kind === 'text') {
    // One line for a kernel's source: its first line and its size.
    const lines = v.split('\n');
    const first = lines[0].length > 40 ? `${lines[0].slice(0, 40)}...` : lines[0];
    return `"${first}" (${lines.length} lines)`;
  }
  return String(v);
}

/** Columns padded to their widest cell; `rightAligned` lists the numeric columns. */
export function textTable(headers: string[], rows: string[][], rightAligned: readonly number[] = []): string {
  const widths = headers.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: string[]): string =>
    cells
      .map((cell, c) => (rightAligned.includes(c) ? cell.padStart(widths[c]) : cell.padEnd(widths[c])))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** RFC 4180 field: quoted when it holds a comma, quote or line break. */
export function csvField(v: string | number): string {
  const s = typeof v === 'number' ? String(v) : v;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * Series in long form, one row per point: `series,x,y`. Series of different lengths and x values
 * fit one file, and every spreadsheet or data-frame library pivots it. Numbers keep full precision;
 * a missing measurement (NaN) is an empty field.
 */
export function seriesCsv(series: readonly Series[]): string {
  const out = ['series,x,y'];
  for (const s of series) {
    const name = csvField(s.name);
    const n = Math.min(s.x.length, s.y.length);
    for (let i = 0; i < n; i++) {
      const x = s.x[i];
      const y = s.y[i];
      out.push(`${name},${Number.isFinite(x) ? x : ''},${Number.isFinite(y) ? y : ''}`);
    }
  }
  return out.join('\n') + '\n';
}

/** Trace entries the JSON view keeps by default; the rest are counted in `dropped`. */
export const DEFAULT_TRACE_LIMIT = 10_000;

function traceJson(t: Trace, limit: number): Record<string, unknown> {
  const n = Math.min(t.address.length, limit);
  const cut = <T extends ArrayLike<number>>(a: T): number[] => Array.from({ length: n }, (_, i) => a[i]);
  return {
    levelNames: t.levelNames,
    address: cut(t.address),
    latency: cut(t.latency),
    level: cut(t.level),
    tlb: cut(t.tlb),
    set: cut(t.set),
    way: cut(t.way),
    evicted: cut(t.evicted),
    dropped: t.dropped + (t.address.length - n),
    // After a warm-up pass: the traced structure's state before the first access (one entry a slot).
    ...(t.start ? { start: { accesses: t.start.accesses, lines: Array.from(t.start.lines), age: Array.from(t.start.age) } } : {}),
  };
}

/** The whole result as plain JSON data: typed arrays become arrays, the trace is cut to `traceLimit`. */
export function resultJson(r: ExperimentResult, traceLimit: number): Record<string, unknown> {
  return {
    series: r.series.map((s) => ({ ...s, x: Array.from(s.x), y: Array.from(s.y) })),
    tables: r.tables,
    findings: r.findings,
    notes: r.notes,
    ...(r.trace ? { trace: traceJson(r.trace, traceLimit) } : {}),
  };
}

function range(values: ArrayLike<number>): [number, number, number] {
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isFinite(v)) continue;
    if (v < min) min = v;
    if (v > max) max = v;
    sum += v;
    n++;
  }
  return n ? [min, max, sum / n] : [NaN, NaN, NaN];
}

/** The result for a terminal: findings, a one-line summary per series, tables, the trace in brief, notes. */
export function resultText(r: ExperimentResult): string {
  const parts: string[] = [];
  parts.push('Findings');
  parts.push(
    r.findings.length
      ? textTable(
          ['key', 'finding', 'value', 'evidence'],
          r.findings.map((f) => [f.key, f.label, formatValue(f.value, f.unit), f.evidence]),
        )
      : '(none: the analysers inferred nothing from these measurements)',
  );
  parts.push('', 'Series');
  parts.push(
    r.series.length
      ? textTable(
          ['series', 'points', 'x from', 'x to', 'y min', 'y max', 'y mean'],
          r.series.map((s) => {
            const [x0, x1] = range(s.x);
            const [y0, y1, ym] = range(s.y);
            return [
              s.name,
              String(s.y.length),
              formatValue(x0, s.xUnit),
              formatValue(x1, s.xUnit),
              formatValue(y0, s.yUnit),
              formatValue(y1, s.yUnit),
              formatValue(ym, s.yUnit),
            ];
          }),
          [1, 2, 3, 4, 5, 6],
        )
      : '(none)',
  );
  for (const t of r.tables) {
    parts.push('', `Table: ${t.name}`);
    parts.push(
      textTable(
        t.columns.map((c) => (c.unit ? `${c.label} (${c.unit})` : c.label)),
        t.rows.map((row) => t.columns.map((c) => (row[c.key] === undefined ? '' : typeof row[c.key] === 'number' ? formatNumber(row[c.key] as number) : String(row[c.key])))),
      ),
    );
  }
  if (r.trace) {
    const t = r.trace;
    const counts = new Map<number, number>();
    for (let i = 0; i < t.level.length; i++) counts.set(t.level[i], (counts.get(t.level[i]) ?? 0) + 1);
    const served = [...counts.entries()].sort((a, b) => a[0] - b[0]).map(([l, c]) => `${t.levelNames[l] ?? `level ${l}`} ${c}`);
    parts.push('', `Trace: ${t.address.length} accesses recorded, ${t.dropped} not recorded; served by ${served.join(', ') || '-'}`);
  }
  if (r.notes.length) parts.push('', 'Notes', ...r.notes.map((n) => `- ${n}`));
  return parts.join('\n') + '\n';
}
