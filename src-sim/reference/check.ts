import type { CheckResult, Reference, ReproductionRow, RowResult } from './types';
import type { Preset } from '../presets/types';
import { formatBytes } from '../experiments/params';

/** REPRODUCTION.md: latencies within 5 % of the paper's value. */
export const LATENCY_TOLERANCE = 0.05;

function fmt(v: number | string, unit: string): string {
  if (typeof v === 'string') return v;
  if (unit === 'B' && Number.isInteger(v) && v > 0) return formatBytes(v);
  const n = Number.isInteger(v) ? String(v) : v.toFixed(1);
  return unit ? `${n} ${unit}` : n;
}

export function checkOne(ref: Reference, measured: number | string | undefined): CheckResult {
  const target =
    ref.tolerance === 'range' && ref.range ? `${fmt(ref.range[0], '')}..${fmt(ref.range[1], ref.unit)}` : fmt(ref.value, ref.unit);
  if (measured === undefined) return { name: ref.name, target, simulated: '(not measured)', pass: false };
  const simulated = fmt(measured, ref.unit);
  if (typeof ref.value === 'number' && typeof measured === 'number') {
    const deviation = ref.value === 0 ? Math.abs(measured) : Math.abs(measured - ref.value) / Math.abs(ref.value);
    let pass: boolean;
    if (ref.tolerance === 'latency') pass = deviation <= LATENCY_TOLERANCE + 1e-12;
    else if (ref.tolerance === 'range' && ref.range) pass = measured >= ref.range[0] && measured <= ref.range[1];
    else pass = measured === ref.value;
    return { name: ref.name, target, simulated, deviation, pass };
  }
  return { name: ref.name, target, simulated, pass: String(measured) === String(ref.value) };
}

export function runRow(row: ReproductionRow, preset: Preset, seed = 1): RowResult {
  const refs = row.references(preset);
  const { measured, runs } = row.measure(preset, seed);
  const checks = refs.map((r) => checkOne(r, measured[r.name]));
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
