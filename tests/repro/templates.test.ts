import { describe, expect, it } from 'vitest';
import { resolveParams } from '../../src-sim/experiments';
import { findPreset } from '../../src-sim/presets';
import { rowPlans } from '../../src-sim/reference';
import { galleryTemplates } from './gallery';
import { paperComparison } from '../../src-main/services/export/references';

/**
 * "Reproduce a figure": every template of the gallery (a row and an experiment that reproduces it)
 * starts the row's runs (src-sim/reference/plan.ts). Each such run, stored as the run view stores
 * it, must show at least one of the row's paper values beside a finding, judged by its check.
 * Runs the experiments of every row, the timing tier's too: a few minutes.
 */
const templates = galleryTemplates();

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
