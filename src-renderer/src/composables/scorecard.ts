/**
 * The reproduction scorecard's helpers: the paper and figure a REPRODUCTION.md row id names, the
 * pass/fail counts, and the run request that opens a row's first experiment run.
 */
import { shallowRef } from 'vue';
import type { ArgsOf } from '../../../src-main/contract';
import type { RowResult } from '../../../src-sim/reference/types';
import { kindTotals, rowGate, type KindTotals } from '../../../src-sim/reference/gate';

const PAPERS: Record<string, string> = { MEI: 'Mei et al. 2014', WONG: 'Wong et al. 2010', LASH: 'Lashgar et al. 2014', SL1: 'Mokhtari and Stumm 2015' };

/** The papers the scorecard can run on their own, in the order the workbench lists them. */
export const SCORE_PAPERS: readonly { id: string; name: string }[] = Object.entries(PAPERS).map(([id, name]) => ({ id, name }));

/** "MEI-T3" -> { paper: "MEI", paperName: "Mei et al. 2014", figure: "Table 3" }; "WONG-F10..F12" -> "Figs 10–12". */
export function rowSource(id: string): { paper: string; paperName: string; figure: string } {
  const dash = id.indexOf('-');
  const paper = dash > 0 ? id.slice(0, dash) : id;
  const rest = dash > 0 ? id.slice(dash + 1) : '';
  let figure = rest;
  const single = /^([TF])(\d+)$/.exec(rest);
  const multi = /^([TF])(\d+)(\.\.|\/)[TF]?(\d+)$/.exec(rest);
  if (single) figure = `${single[1] === 'T' ? 'Table' : 'Fig'} ${single[2]}`;
  else if (multi) figure = `${multi[1] === 'T' ? 'Tables' : 'Figs'} ${multi[2]}${multi[3] === '..' ? '–' : '/'}${multi[4]}`;
  return { paper, paperName: PAPERS[paper] ?? paper, figure };
}

export interface ScoreSummary {
  total: number;
  passed: number;
  failed: number;
  /** Rows that fail only on known deviations, rows with a new failure, rows with an unexpected pass. */
  known: number;
  newFailures: number;
  unexpectedPasses: number;
  /**
   * Checks passed of counted per kind: the headline counts the predicted ones, the recovered ones (method
   * checks) stand beside it, calibrated and specification ones below it as consistency.
   */
  totals: KindTotals;
}

export function summarize(rows: readonly Pick<RowResult, 'pass' | 'checks'>[]): ScoreSummary {
  const passed = rows.filter((r) => r.pass).length;
  const gates = rows.map(rowGate);
  return {
    total: rows.length,
    passed,
    failed: rows.length - passed,
    known: gates.filter((g) => g === 'known').length,
    newFailures: gates.filter((g) => g === 'fail').length,
    unexpectedPasses: gates.filter((g) => g === 'unexpected-pass').length,
    totals: kindTotals(rows),
  };
}

/** The request that queues a row's first run on the preset it was checked on, tagged with the row id. */
export function rowRunArgs(row: RowResult): ArgsOf<'runs.start'> | null {
  const first = row.runs[0];
  if (!first) return null;
  return { experiment: first.experiment, preset: row.preset, params: first.params as ArgsOf<'runs.start'>['params'], tags: [row.id] };
}

/** The last scorecard of this window, so that coming back to the view shows it again. */
export const lastScore = shallowRef<{ preset: string; paper?: string; rows: RowResult[]; at: number } | null>(null);

/**
 * The scorecard running now (it goes on when its view is left and shown again): which selection,
 * and the lab's last `reproduce.progress` (12 of 20 done; running "LASH-F7 on fermi480, SL1-F7 on titan":
 * the rows in the scorecard's processes now).
 */
export const scoreRunning = shallowRef<{ preset: string; paper: string; progress: { done: number; total: number; phase: string } | null } | null>(null);

/** A `reproduce.progress` event: the scorecard running now moves to that step. */
export function scoreProgressed(p: { done: number; total: number; phase: string }): void {
  const now = scoreRunning.value;
  if (now) scoreRunning.value = { ...now, progress: { done: p.done, total: p.total, phase: p.phase } };
}
