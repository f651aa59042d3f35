import { findPreset } from '../presets';
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
    const seen = new Map<string, PlanParams>();
    for (const ref of row.references(preset)) {
      if (ref.finding?.experiment !== experiment) continue;
      const params: PlanParams = { ...(ref.finding.run ?? ref.finding.params ?? {}) };
      const key = JSON.stringify(Object.keys(params).sort().map((k) => [k, params[k]]));
      if (!seen.has(key)) seen.set(key, params);
    }
    out.push({ preset: id, named: seen.size > 0, params: seen.size ? [...seen.values()] : [{}] });
  }
  return out;
}
