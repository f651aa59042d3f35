/**
 * Kinds proven by perturbation (REPRODUCTION.md, "Kinds are proven, not declared"): each group of
 * rows is re-run with every preset number its predicted and recovered checks could depend on scaled
 * by 1.25 and by 0.8 (src-sim/reference/perturb.ts). A check whose measured value follows one number
 * alone is not a reproduction: the test fails when such a check declares 'predicted', and names the
 * number. Every check's derived kind is written to test-results/perturbation/<suite>.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { findPreset } from '../../src-sim/presets';
import { REPRODUCTION_ROWS } from '../../src-sim/reference';
import { perturbRows, type CheckPerturbation } from '../../src-sim/reference/perturb';
import type { PerturbGroup } from './perturbation-plan';

/** A one-line account of a check that one number determines. */
export function flaggedLine(c: CheckPerturbation): string {
  const by = c.determinedBy
    .map((p) => {
      const e = c.effects.find((x) => x.path === p);
      return `${p}${e?.provenance ? ` (${e.provenance.slice(0, 60)})` : ''}`;
    })
    .join('; ');
  return `${c.row} on ${c.preset}: "${c.check}" declares ${c.declared} but follows ${by}`;
}

export function perturbationSuite(suite: string, groups: PerturbGroup[]): void {
  const all: CheckPerturbation[] = [];
  afterAll(() => {
    const dir = join('test-results', 'perturbation');
    mkdirSync(dir, { recursive: true });
    const slim = all.map(({ effects, ...c }) => ({ ...c, effects: effects.map((e) => ({ path: e.path, factor: e.factor, value: e.value, measured: e.measured, follows: e.follows })) }));
    writeFileSync(join(dir, `${suite}.json`), JSON.stringify(slim, null, 1) + '\n');
    const count = (k: string): number => all.filter((c) => c.derived === k).length;
    console.log(`perturbation ${suite}: ${all.length} checks; derived predicted ${count('predicted')}, recovered ${count('recovered')}, calibrated ${count('calibrated')}; report in ${join(dir, `${suite}.json`)}`);
  });
  for (const g of groups) {
    const rows = g.rows.map((id) => {
      const r = REPRODUCTION_ROWS.find((x) => x.id === id);
      if (!r) throw new Error(`no row ${id}`);
      return r;
    });
    const presetId = g.preset ?? rows[0].presets[0];
    it(`${g.rows.join(', ')} on ${presetId}: no predicted check follows one preset number`, () => {
      const preset = findPreset(presetId);
      expect(preset, presetId).toBeDefined();
      const res = perturbRows(rows, preset!, g.opts);
      all.push(...res);
      // Every judged check was perturbed by at least one number.
      expect(res.filter((c) => c.tried === 0).map((c) => `${c.row}: ${c.check}`)).toEqual([]);
      expect(res.filter((c) => c.declared === 'predicted' && c.determinedBy.length).map(flaggedLine)).toEqual([]);
    });
  }
}
