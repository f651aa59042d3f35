import { findPreset } from '../presets';
import type { Preset } from '../presets/types';
import type { ReproductionRow } from './types';

/** The parameters of one run of a row's experiment, as its references name them. */
export type PlanParams = Record<string, string | number | boolean | number[]>;

/** A row's runs of one experiment on one of the paper's GPUs. */
export interface RowPlan {
  preset: string;
  /** Whether the row's references name this experiment's findings (else they match findings by label). */
  named: boolean;
  /** One entry per run: the parameters its references' findings come from ({} for the experiment's defaults). */
  params: PlanParams[];
}

/**
 * The runs of `experiment` that a row's paper values sit beside, on each GPU the paper measured: one
 * run per distinct parameter set its references name (`Reference.finding.run`, else `.params`). A row
 * whose references name no finding of the experiment is matched by label: one run with the defaults.
 * Static: it reads the references, never runs the row.
 */
export function rowPlans(row: ReproductionRow, experiment: string): RowPlan[] {
  const out: RowPlan[] = [];
  for (const id of row.presets) {
    const preset = findPreset(id);
    if (!preset) continue;
    const params = referencedRuns(row, preset)
      .filter((r) => r.experiment === experiment)
      .map((r) => r.params);
    out.push({ preset: id, named: params.length > 0, params: params.length ? params : [{}] });
  }
  return out;
}

/** One run a row's references name: its experiment and parameters, and a key that is the same for the same run. */
export interface ReferencedRun {
  experiment: string;
  params: PlanParams;
  key: string;
}

/**
 * The distinct runs a row's references name on `preset` (`Reference.finding.run`, else `.params`),
 * in the references' order. Static: it reads the references, never runs the row.
 */
export function referencedRuns(row: ReproductionRow, preset: Preset): ReferencedRun[] {
  const seen = new Map<string, ReferencedRun>();
  for (const ref of row.references(preset)) {
    if (!ref.finding) continue;
    const params: PlanParams = { ...(ref.finding.run ?? ref.finding.params ?? {}) };
    const key = `${ref.finding.experiment}\u0000${JSON.stringify(Object.keys(params).sort().map((k) => [k, params[k]]))}`;
    if (!seen.has(key)) seen.set(key, { experiment: ref.finding.experiment, params, key });
  }
  return [...seen.values()];
}
