import type { CheckKind, CheckResult, RowResult } from './types';
import { CHECK_KINDS } from './types';

/**
 * The gate over reproduction results. A check passes, fails with a known deviation (an expected
 * failure: its reference says why, measured and documented), fails without one (a new failure), or
 * passes although it carries a known deviation (an unexpected pass: the note is stale). A row is
 * gated green when none of its checks is a new failure or an unexpected pass; a row that could not
 * be measured (it threw, no checks) is a failure.
 */
export type CheckStatus = 'pass' | 'known' | 'fail' | 'unexpected-pass';
export type RowGate = CheckStatus;

export function checkStatus(c: Pick<CheckResult, 'pass' | 'note' | 'unexpectedPass'>): CheckStatus {
  if (c.unexpectedPass) return 'unexpected-pass';
  if (c.pass) return 'pass';
  return c.note ? 'known' : 'fail';
}

/** The worst status among a row's checks: unexpected pass and new failure first, then known deviation. */
export function rowGate(r: Pick<RowResult, 'checks' | 'pass'>): RowGate {
  if (!r.checks.length) return r.pass ? 'pass' : 'fail';
  const s = r.checks.map(checkStatus);
  if (s.includes('unexpected-pass')) return 'unexpected-pass';
  if (s.includes('fail')) return 'fail';
  if (s.includes('known')) return 'known';
  return 'pass';
}

/** Whether the gate lets these rows through: no new failure, no unexpected pass. */
export function gateOpen(rows: readonly Pick<RowResult, 'checks' | 'pass'>[]): boolean {
  return rows.every((r) => {
    const g = rowGate(r);
    return g === 'pass' || g === 'known';
  });
}

export type KindTotals = Record<CheckKind, { passed: number; total: number }>;

/** Checks passed and counted per kind over every row (the scorecard's headline counts 'predicted'; 'recovered' stands beside it as method checks). */
export function kindTotals(rows: readonly Pick<RowResult, 'checks'>[]): KindTotals {
  const out = Object.fromEntries(CHECK_KINDS.map((k) => [k, { passed: 0, total: 0 }])) as KindTotals;
  for (const r of rows)
    for (const c of r.checks) {
      const t = out[c.kind];
      if (!t) continue;
      t.total++;
      if (c.pass) t.passed++;
    }
  return out;
}

/** How each kind is named to a user, with what a pass shows. */
export const KIND_LABELS: Record<CheckKind, { label: string; means: string }> = {
  predicted: { label: 'predicted', means: 'the value emerges from the model and no single preset number determines it: a reproduction' },
  recovered: { label: 'recovered', means: "an analyser infers, from simulated timings alone, what the preset was set to: a method check" },
  calibrated: { label: 'calibrated', means: 'a preset number was set from this value: a pass shows consistency only' },
  specification: { label: 'specification', means: 'read back from preset data, no simulation: consistency only' },
};
