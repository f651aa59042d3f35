/**
 * Formatting shared by the CSV and PDF exports. Pure: no Node imports.
 *
 * Two kinds of number formatting, never mixed up:
 * - `exactNumber` for files that must read back (CSV): the shortest text that parses back to the
 *   same Float64 (JavaScript's own number-to-string), with -0 kept as "-0".
 * - `displayValue` for people (PDF): rounded, with units and byte sizes as "16 KB".
 */
import { formatBytes } from '../../../src-sim/experiments/params';
import type { ParamSpec, ParamValue, ParamValues } from '../../../src-sim/experiments/types';

/** The text of a number that `Number(text)` turns back into exactly the same value (NaN and ±Infinity included). */
export function exactNumber(v: number): string {
  return Object.is(v, -0) ? '-0' : String(v);
}

/** Reads what `exactNumber` wrote; an empty cell is `undefined`. Throws on anything else. */
export function readExactNumber(text: string): number | undefined {
  if (text === '') return undefined;
  const v = Number(text);
  if (Number.isNaN(v) && text !== 'NaN') throw new Error(`"${text.slice(0, 40)}" is not a number`);
  return v;
}

/** A number for people: whole numbers as they are, others to 4 significant digits (no exponent for ordinary sizes). */
export function displayNumber(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (Number.isInteger(v) && Math.abs(v) < 1e15) return String(v);
  const a = Math.abs(v);
  if (a !== 0 && (a < 1e-3 || a >= 1e9)) return v.toExponential(3);
  return String(Number(v.toPrecision(4)));
}

/** A value with its unit for people: byte counts as "16 KB", latencies as "116 cycles", words as they are. */
export function displayValue(v: number | string, unit: string): string {
  if (typeof v === 'string') {
    const text = v.replace(/,(?=\S)/g, ', '); // lists such as "6,10,12" may break between items
    return unit ? `${text} ${unit}` : text;
  }
  if (unit === 'B' && Number.isInteger(v) && v >= 0) return formatBytes(v);
  const n = displayNumber(v);
  return unit ? `${n} ${unit}` : n;
}

/** An instant (ms since the epoch) as ISO 8601 UTC, exact to the millisecond; '' for null. */
export function isoTime(ms: number | null): string {
  return ms === null ? '' : new Date(ms).toISOString();
}

/** An instant for people: "2026-11-01 12:00:05 UTC"; '-' for null. */
export function displayTime(ms: number | null): string {
  return ms === null ? '-' : `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** A duration for people: "850 ms", "12.4 s", "3 min 05 s". */
export function displayDuration(ms: number | null): string {
  if (ms === null) return '-';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/** One parameter's value for people, using its spec when the experiment still declares it. */
export function displayParam(value: ParamValue, spec: ParamSpec | undefined): string {
  const isBytes = spec?.kind === 'bytes' || spec?.kind === 'bytes-list';
  const one = (v: number | string | boolean): string => {
    if (typeof v === 'number') return isBytes && Number.isInteger(v) && v >= 0 ? formatBytes(v) : displayNumber(v);
    return String(v);
  };
  const text = Array.isArray(value) ? value.map(one).join(', ') : one(value);
  const unit = spec && !isBytes && spec.unit ? ` ${spec.unit}` : '';
  return `${text}${unit}`;
}

/** Parameters as rows for a table: label (name), value, description; in the experiment's order, then any others. */
export function paramRows(params: ParamValues, specs: readonly ParamSpec[]): { name: string; label: string; value: string; description: string }[] {
  const known = specs.filter((s) => Object.prototype.hasOwnProperty.call(params, s.name));
  const others = Object.keys(params)
    .filter((k) => !specs.some((s) => s.name === k))
    .sort();
  return [
    ...known.map((s) => ({ name: s.name, label: s.label, value: displayParam(params[s.name], s), description: s.description })),
    ...others.map((k) => ({ name: k, label: k, value: displayParam(params[k], undefined), description: '' })),
  ];
}

/** A file-name fragment: lower-case letters, digits and dashes only. */
export function slug(text: string, max = 40): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, max)
      .replace(/-+$/, '') || 'x'
  );
}

/** "2026-11-01-12-00-05" (UTC) for file names. */
export function fileStamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace(/[:T]/g, '-');
}
