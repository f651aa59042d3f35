/**
 * The perturbation suites (npm run test:repro) prove the kinds of the rows they run: every row with
 * a predicted or recovered check must have a place in their plan, on every preset its paper
 * measured, or its kinds would go unproven.
 */
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src-sim/presets';
import { REPRODUCTION_ROWS } from '../../src-sim/reference';
import { kindOf } from '../../src-sim/reference/check';
import { PLAN } from '../repro/perturbation-plan';

describe('the perturbation plan', () => {
  it('covers every row with predicted or recovered checks on every preset its paper measured', () => {
    const planned = new Set<string>();
    for (const groups of Object.values(PLAN))
      for (const g of groups) for (const id of g.rows) planned.add(`${id} on ${g.preset ?? REPRODUCTION_ROWS.find((r) => r.id === g.rows[0])!.presets[0]}`);
    const missing: string[] = [];
    for (const row of REPRODUCTION_ROWS)
      for (const id of row.presets) {
        const judged = row.references(findPreset(id)!).some((r) => ['predicted', 'recovered'].includes(kindOf(r, row.kind).kind));
        if (judged && !planned.has(`${row.id} on ${id}`)) missing.push(`${row.id} on ${id}`);
      }
    expect(missing).toEqual([]);
  });

  it('names only rows that exist', () => {
    const ids = new Set(REPRODUCTION_ROWS.map((r) => r.id));
    const unknown = Object.values(PLAN).flatMap((gs) => gs.flatMap((g) => g.rows)).filter((id) => !ids.has(id));
    expect(unknown).toEqual([]);
  });
});
