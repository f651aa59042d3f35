import type { CheckResult, KindDecl, Reference, ReproductionRow, RowResult } from './types';
import type { Preset } from '../presets/types';
import { formatBytes } from '../experiments/params';

/** REPRODUCTION.md: latencies within 5 % of the paper's value. */
export const LATENCY_TOLERANCE = 0.05;

/**
 * A number at the precision that decides a check: integers whole, others to three significant digits
 * and at least one decimal (0.24, not 0.2; 0.179, not 0.2; 1209.4, not 1209).
 */
export function decidingNumber(v: number): string {
  if (!Number.isFinite(v) || Number.isInteger(v)) return String(v);
  const digits = Math.max(3, Math.floor(Math.log10(Math.abs(v))) + 2);
  return String(Number(v.toPrecision(Math.min(15, digits))));
}

function fmt(v: number | string, unit: string): string {
  if (typeof v === 'string') return v;
  if (unit === 'B' && Number.isInteger(v) && v > 0) return formatBytes(v);
  const n = decidingNumber(v);
  return unit ? `${n} ${unit}` : n;
}

/** REPRODUCTION.md: relative figures within half of the paper's value either way. */
export const HALF_TOLERANCE = 0.5;

/** The accepted interval of a 'range', 'half' or 'half-gain' reference; undefined for the others. */
export function bandOf(ref: Reference): [number, number] | undefined {
  if (ref.tolerance === 'range' && ref.range) return ref.range;
  if (typeof ref.value !== 'number') return undefined;
  const v = ref.value;
  if (ref.tolerance === 'half') {
    const d = Math.abs(v) * HALF_TOLERANCE;
    return [+(v - d).toFixed(6), +(v + d).toFixed(6)];
  }
  if (ref.tolerance === 'half-gain') {
    const d = Math.abs(v - 1) * HALF_TOLERANCE;
    return [+(v - d).toFixed(6), +(v + d).toFixed(6)];
  }
  return undefined;
}

/** The kind a reference's check declares: its own, else its row's. */
export function kindOf(ref: Reference, rowKind: KindDecl | undefined): KindDecl {
  const k = ref.kind ?? rowKind;
  if (!k) throw new Error(`reference "${ref.name}" (${ref.citation}) declares no kind, and neither does its row`);
  return k;
}

/**
 * A check with its reference's citation and kind, its known deviation when it fails, its context, and
 * `unexpectedPass` when a check with a known deviation passes (the deviation note is then stale).
 */
export function checkOne(ref: Reference, measured: number | string | undefined, rowKind?: KindDecl): CheckResult {
  const c = verdict(ref, measured);
  const k = kindOf(ref, rowKind);
  return {
    ...c,
    citation: ref.citation,
    kind: k.kind,
    ...(k.reason ? { kindReason: k.reason } : {}),
    ...(!c.pass && ref.knownDeviation ? { note: ref.knownDeviation } : {}),
    ...(c.pass && ref.knownDeviation ? { unexpectedPass: true } : {}),
    ...(ref.context ? { context: ref.context } : {}),
  };
}

type Verdict = Omit<CheckResult, 'kind'>;

/** The rule a check applies, with its band where it has one, at the precision that decides it. */
export function ruleOf(ref: Reference): string {
  const band = bandOf(ref);
  const b = band ? `${fmt(band[0], '')}..${fmt(band[1], ref.unit)}` : '';
  switch (ref.tolerance) {
    case 'latency': {
      if (typeof ref.value !== 'number') return 'the same value';
      const d = Math.abs(ref.value) * LATENCY_TOLERANCE;
      return `within 5 % of the paper's value: ${fmt(ref.value - d, '')}..${fmt(ref.value + d, ref.unit)}`;
    }
    case 'range':
      return `inside the paper's range: ${b}`;
    case 'half':
      return `within half of the paper's value either way: ${b}`;
    case 'half-gain':
      return `a gain (or loss) within half of the paper's, measured from 1: ${b}`;
    default:
      return typeof ref.value === 'number' ? 'exactly the paper\'s value' : 'the paper\'s word';
  }
}

function verdict(ref: Reference, measured: number | string | undefined): Verdict {
  const band = bandOf(ref);
  const target = band ? `${fmt(band[0], '')}..${fmt(band[1], ref.unit)}` : fmt(ref.value, ref.unit);
  const rule = ruleOf(ref);
  if (measured === undefined) return { name: ref.name, target, rule, simulated: '(not measured)', pass: false };
  const simulated = fmt(measured, ref.unit);
  if (typeof ref.value === 'number' && typeof measured === 'number') {
    const deviation = ref.value === 0 ? Math.abs(measured) : Math.abs(measured - ref.value) / Math.abs(ref.value);
    let pass: boolean;
    if (ref.tolerance === 'latency') pass = deviation <= LATENCY_TOLERANCE + 1e-12;
    else if (band) pass = measured >= band[0] - 1e-9 && measured <= band[1] + 1e-9;
    else pass = measured === ref.value;
    return { name: ref.name, target, rule, simulated, deviation, pass };
  }
  return { name: ref.name, target, rule, simulated, pass: String(measured) === String(ref.value) };
}

export function runRow(row: ReproductionRow, preset: Preset, seed = 1): RowResult {
  const refs = row.references(preset);
  const { measured, runs } = row.measure(preset, seed);
  const checks = refs.map((r) => checkOne(r, measured[r.name], row.kind));
  const devs = checks.map((c) => c.deviation).filter((d): d is number => d !== undefined);
  return {
    id: row.id,
    preset: preset.id,
    target: checks.map((c) => `${c.name} ${c.target}`).join('; '),
    simulated: checks.map((c) => `${c.name} ${c.simulated}`).join('; '),
    ...(devs.length ? { deviation: Math.max(...devs) } : {}),
    pass: checks.length > 0 && checks.every((c) => c.pass),
    checks,
    runs,
  };
}
