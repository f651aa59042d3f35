import { describe, expect, it } from 'vitest';
import { EXPERIMENTS, resolveParams } from '../../src-sim/experiments';
import { findPreset } from '../../src-sim/presets';
import { REPRODUCTION_ROWS, rowPlans } from '../../src-sim/reference';
import { paperComparison } from '../../src-main/services/export/references';

/**
 * "Reproduce a figure": every template of the gallery (a row and an experiment that reproduces it)
 * starts the row's runs (src-sim/reference/plan.ts). Each such run, stored as the run view stores
 * it, must show at least one of the row's paper values beside a finding, judged by its check.
 * Runs the experiments of every row, the timing tier's too: a few minutes.
 */
const pairs = EXPERIMENTS.flatMap((e) => REPRODUCTION_ROWS.filter((r) => e.reproduces.includes(r.id)).map((row) => ({ row, e, named: rowPlans(row, e.id).some((p) => p.named) })));
/** As the gallery lists them (composables/builder.ts): where a row names its experiments, only those. */
const templates = pairs.filter((t) => t.named || !pairs.some((o) => o.row === t.row && o.named));

describe("every gallery template starts runs that show their row's paper values", () => {
  it.each(templates.map((t) => [`${t.row.id} / ${t.e.id}`, t] as const))('%s', (_name, { row, e }) => {
    const plans = rowPlans(row, e.id);
    expect(plans.length).toBeGreaterThan(0);
    for (const plan of plans) {
      const preset = findPreset(plan.preset)!;
      const judged = plan.params.map((raw) => {
        const params = resolveParams(e.params, raw);
        const result = e.run(preset, params, 1, () => {});
        const cmp = paperComparison({ experiment: e.id, presetId: preset.id, preset, params }, result.findings);
        return cmp.findings.filter((f) => f.paper && f.check).length;
      });
      // Every run of the template shows at least one paper value, judged.
      expect(judged.every((n) => n > 0), `${row.id} on ${plan.preset}: ${e.id} runs ${JSON.stringify(plan.params)} judged ${judged.join(', ')}`).toBe(true);
    }
  });
});
