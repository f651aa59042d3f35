import { findPreset } from '../presets';
import type { Preset } from '../presets/types';
import { checkOne, runRow } from './check';
import { ROWS as CORE } from './rows-core';
import { ROWS as CORE_WONG } from './rows-core-wong';
import { ROWS as LASH } from './rows-lash';
import { ROWS as STRUCTURE } from './rows-structure';
import { ROWS as TLB } from './rows-tlb';
import { ROWS as WONG } from './rows-wong';
import { ROWS as SL1 } from './rows-sl1';
import { ROWS as SIMT } from './rows-simt';
import { ROWS as MODERN } from './rows-modern';
import { ROWS as H100 } from './rows-h100';
import type { ReproductionRow, RowResult } from './types';

export type { ReproductionRow, RowResult, Reference, CheckResult, CheckKind, KindDecl } from './types';
export { CHECK_KINDS } from './types';
export { checkStatus, gateOpen, kindTotals, KIND_LABELS, rowGate } from './gate';
export { rowPlans } from './plan';
export type { PlanParams, RowPlan } from './plan';
export type { CheckStatus, KindTotals, RowGate } from './gate';

/** Every implemented row of REPRODUCTION.md (MEI and WONG memory rows, WONG's SIMT rows, LASH and SL1 timing rows) and the modern presets' rows (JIA18, JIA19, ABD22, LUO24). */
export const REPRODUCTION_ROWS: readonly ReproductionRow[] = [...CORE, ...STRUCTURE, ...TLB, ...WONG, ...CORE_WONG, ...SIMT, ...LASH, ...SL1, ...MODERN, ...H100];

/** Selects rows by id ("MEI-T3"), paper ("MEI", "WONG") or "all"; throws with the known ids otherwise. */
export function selectRows(selector: string): ReproductionRow[] {
  const s = selector.trim();
  if (s.toLowerCase() === 'all') return [...REPRODUCTION_ROWS];
  const byPaper = REPRODUCTION_ROWS.filter((r) => r.paper.toLowerCase() === s.toLowerCase());
  if (byPaper.length) return byPaper;
  const byId = REPRODUCTION_ROWS.filter((r) => r.id.toLowerCase() === s.toLowerCase());
  if (byId.length) return byId;
  throw new Error(`unknown row "${selector}"; use all, MEI, WONG, LASH, SL1, JIA18, JIA19, ABD22, LUO24, H100, H200 or one of: ${REPRODUCTION_ROWS.map((r) => r.id).join(', ')}`);
}

/** One step of `reproduce`: which (row, preset) is about to run, and how many there are. */
export interface RowProgress {
  done: number;
  total: number;
  /** "LASH-F4 on fermi480". */
  phase: string;
}

/**
 * Runs the rows `selector` names, each on its own presets (or all on `presetOverride`), one (row,
 * preset) at a time, telling `onProgress` before each and once at the end (the timing tier's rows
 * take seconds to a minute each). A row that throws is reported as failed with the reason, and the
 * others go on.
 */
export function reproduce(selector: string, presetOverride?: Preset, seed = 1, onProgress?: (p: RowProgress) => void): RowResult[] {
  const rows = selectRows(selector);
  const steps: [ReproductionRow, Preset][] = [];
  for (const row of rows) {
    const presets = presetOverride ? [presetOverride] : row.presets.map((id) => findPreset(id)).filter((p): p is Preset => p !== undefined);
    for (const p of presets) steps.push([row, p]);
  }
  const out: RowResult[] = [];
  steps.forEach(([row, preset], i) => {
    onProgress?.({ done: i, total: steps.length, phase: `${row.id} on ${preset.id}` });
    try {
      out.push(runRow(row, preset, seed));
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      let target = '';
      try {
        target = row.references(preset).map((r) => `${r.name} ${checkOne(r, undefined, row.kind).target}`).join('; ');
      } catch {
        // The references themselves failed: no target to show.
      }
      out.push({ id: row.id, preset: preset.id, target, simulated: `error: ${reason.split('\n')[0]}`, pass: false, checks: [], runs: [] });
    }
  });
  onProgress?.({ done: steps.length, total: steps.length, phase: 'done' });
  return out;
}
