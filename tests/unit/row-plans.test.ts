import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src-sim/presets';
import { REPRODUCTION_ROWS, rowPlans } from '../../src-sim/reference';

const row = (id: string) => REPRODUCTION_ROWS.find((r) => r.id === id)!;

describe("a row's plan: the runs its paper values sit beside, for the gallery's templates", () => {
  it("names one run per parameter set the row's references name, lists (strides) included", () => {
    const [plan] = rowPlans(row('WONG-F10..F12'), 'pchase-average');
    expect(plan!.preset).toBe('tesla');
    expect(plan!.named).toBe(true);
    const refs = row('WONG-F10..F12').references(findPreset('tesla')!).filter((r) => r.finding?.experiment === 'pchase-average');
    const distinct = new Set(refs.map((r) => JSON.stringify(r.finding!.run ?? r.finding!.params)));
    expect(plan!.params).toHaveLength(distinct.size);
    // Each run carries its stride list, which the finding hint leaves to the key.
    for (const p of plan!.params) expect(Array.isArray(p.strides)).toBe(true);
  });

  it("starts the row's own settings, not the experiment's defaults (MEI-T4's walk)", () => {
    const plans = rowPlans(row('MEI-T4'), 'cache-structure');
    expect(plans.map((p) => p.preset)).toEqual(row('MEI-T4').presets.filter((id) => findPreset(id)));
    const fermi = plans.find((p) => p.preset === 'fermi')!;
    const hinted = row('MEI-T4').references(findPreset('fermi')!).find((r) => r.finding?.experiment === 'cache-structure')!.finding!;
    expect(fermi.params).toContainEqual(hinted.run ?? hinted.params);
  });

  it('an experiment the row does not name runs once with its defaults, marked unnamed', () => {
    const plans = rowPlans(row('MEI-T3'), 'pchase-fine');
    expect(plans.every((p) => !p.named && p.params.length === 1 && Object.keys(p.params[0]!).length === 0)).toBe(true);
  });
});
