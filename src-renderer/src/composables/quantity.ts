/**
 * Numbers with their units, the way the compare, presets, reports and scorecard views show them:
 * sizes in B / KB / MB as the papers write them, other quantities with grouping and their unit.
 * Pure functions (no DOM, no API).
 */

const BYTE_STEPS = [
  ['GB', 1024 ** 3],
  ['MB', 1024 ** 2],
  ['KB', 1024],
] as const;

/** 512 B, 12 KB, 1.5 MB; sizes that are not a round fraction of a unit stay in bytes (exact). */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const sign = n < 0 ? '−' : '';
  const a = Math.abs(n);
  for (const [u, f] of BYTE_STEPS) if (a >= f && a % (f / 16) === 0) return `${sign}${+(a / f).toFixed(4)} ${u}`;
  return `${sign}${formatNumber(a)} B`;
}

/** A short tick label for a byte axis: 1 KB, 1.5 MB, 300 B (rounded, not exact). */
export function formatBytesShort(n: number): string {
  const a = Math.abs(n);
  for (const [u, f] of BYTE_STEPS) if (a >= f) return `${+(n / f).toFixed(a / f >= 100 ? 0 : 1)} ${u}`;
  return `${+n.toFixed(0)} B`;
}

/** 1,259 or 37.4 or 0.000123 (at most 3 decimals for ordinary values, significant digits for tiny ones). */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const a = Math.abs(n);
  if (a !== 0 && a < 0.01) return n.toPrecision(3).replace('-', '−');
  return n.toLocaleString('en-US', { maximumFractionDigits: a >= 100 ? 1 : 3 }).replace('-', '−');
}

/** A value with its unit: "16 KB", "116 cycles", "LRU", "1645 MHz". */
export function formatQuantity(value: number | string | boolean | null | undefined, unit = ''): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string') return unit && unit !== 'B' ? `${value} ${unit}` : value;
  if (unit === 'B') return formatBytes(value);
  return unit ? `${formatNumber(value)} ${unit}` : formatNumber(value);
}

/** An axis name: "Array size (B)", "Latency (cycles)", "Access" when there is no unit. */
export function axisTitle(label: string, unit: string): string {
  const l = label || 'value';
  return unit ? `${l} (${unit})` : l;
}

/** A tick label for an axis in this unit. */
export function tickFormatter(unit: string): (v: number) => string {
  if (unit === 'B') return (v) => formatBytesShort(v);
  return (v) => {
    const a = Math.abs(v);
    if (a >= 1e6) return `${+(v / 1e6).toFixed(1)}M`;
    if (a >= 1e4) return `${+(v / 1e3).toFixed(0)}k`;
    return formatNumber(v);
  };
}

/** A relative deviation in percent with its sign: "+2.3 %", "−0.4 %", "0 %". */
export function formatPercent(ratio: number | null | undefined, signed = false): string {
  if (ratio === null || ratio === undefined || !Number.isFinite(ratio)) return '—';
  const p = ratio * 100;
  const digits = Math.abs(p) >= 10 ? 1 : 2;
  const text = `${+Math.abs(p).toFixed(digits)} %`;
  const sign = p > 0 ? (signed ? '+' : '') : p < 0 ? '−' : '';
  return `${sign}${text}`;
}
