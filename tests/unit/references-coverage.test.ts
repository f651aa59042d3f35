/**
 * Every MEI and WONG reference that a finding measures names that finding (`Reference.finding`), so
 * a run of the experiment with the row's parameters shows the paper's value beside it. For each row
 * on each preset the paper measured, the row's own runs (and, for a hint on an experiment the row does
 * not run, that experiment with the hinted parameters) are run again as the lab runs them (validated,
 * defaults filled), paired with the papers' values by the lab's own matching (paperComparison), and
 * the pairing is held to what `reproduce` reports for the row.
 */
import { describe, expect, it } from 'vitest';
import { paperComparison, referenceFits } from '../../src-main/services/export/references';
import { validateRun } from '../../src-main/services/pool/validate';
import type { Finding, ParamValues } from '../../src-sim/experiments/types';
import { findPreset } from '../../src-sim/presets';
import type { Preset } from '../../src-sim/presets/types';
import { REPRODUCTION_ROWS } from '../../src-sim/reference';
import { runRow } from '../../src-sim/reference/check';
import type { Reference, ReproductionRow, RowResult } from '../../src-sim/reference/types';

const SEED = 1;
const ROWS = REPRODUCTION_ROWS.filter((r) => r.paper === 'MEI' || r.paper === 'WONG');

interface LabRun {
  experiment: string;
  params: ParamValues;
  findings: Finding[];
  comparison: ReturnType<typeof paperComparison>;
}

/** Runs an experiment as the lab does (runs.start validates and resolves; the worker runs) and compares it as reproduce.references does. */
function labRun(experiment: string, raw: Record<string, unknown>, presetId: string, preset: Preset): LabRun {
  const { experiment: e, params } = validateRun({ experiment, preset, params: raw, seed: SEED });
  const findings = e.run(preset, params, SEED, () => {}).findings;
  return { experiment, params, findings, comparison: paperComparison({ experiment, presetId, preset, params }, findings) };
}

/** The row's runs and the hinted runs it does not make, each once. */
function runsFor(row: ReproductionRow, result: RowResult, refs: Reference[], presetId: string, preset: Preset): LabRun[] {
  const specs = new Map<string, { experiment: string; params: Record<string, unknown> }>();
  for (const r of result.runs) specs.set(`${r.experiment} ${JSON.stringify(r.params)}`, r);
  const out = [...specs.values()].map((s) => labRun(s.experiment, s.params, presetId, preset));
  for (const ref of refs) {
    const hint = ref.finding;
    if (!hint || out.some((r) => r.experiment === hint.experiment && r.findings.some((f) => referenceFits(ref, f, r)))) continue;
    out.push(labRun(hint.experiment, hint.params ?? {}, presetId, preset));
  }
  return out;
}

const cases = ROWS.flatMap((row) => row.presets.map((presetId) => ({ row, presetId })));

describe('MEI and WONG references beside the findings that measure them', () => {
  it.each(cases.map((c) => [c.row.id, c.presetId, c] as const))('%s on %s', (_id, presetId, { row }) => {
    const preset = findPreset(presetId) as Preset;
    const refs = row.references(preset);
    const result = runRow(row, preset, SEED);
    const runs = runsFor(row, result, refs, presetId, preset);
    for (const ref of refs.filter((r) => r.finding)) {
      const hint = ref.finding!;
      const where = `${row.id} on ${presetId}: "${ref.name}" (${hint.experiment} ${hint.key})`;
      // Exactly one finding of all these runs is the one the reference names ...
      const fits = runs.flatMap((r) => r.findings.filter((f) => referenceFits(ref, f, r)).map((f) => ({ run: r, finding: f })));
      expect(fits.length, where).toBe(1);
      const [{ run, finding }] = fits;
      // ... the lab's comparison of that run puts this row's value beside it (merged with other rows' equal values) ...
      const beside = run.comparison.findings.find((b) => b.finding === finding);
      expect(beside?.paper?.rowIds, where).toContain(row.id);
      expect(String(beside!.paper!.reference.value), where).toBe(String(ref.value));
      expect(beside!.paper!.reference.unit, where).toBe(ref.unit);
      // ... and its verdict is the one reproduce reports for the row.
      const reported = result.checks.find((c) => c.name === ref.name)!;
      expect(beside!.check!.pass, where).toBe(reported.pass);
      expect(beside!.check!.simulated, where).toBe(reported.simulated);
      expect(beside!.check!.target, where).toBe(reported.target);
    }
  });

  it('leaves without a finding only the values no experiment reports as one', () => {
    // Specification facts read from the preset, values read off a curve or a table rather than an
    // analyser, spreads over several runs, and a run on a modified preset.
    const unhinted = ROWS.flatMap((row) => row.presets.flatMap((id) => row.references(findPreset(id) as Preset).filter((r) => !r.finding).map((r) => `${row.id} ${r.name}`)));
    expect([...new Set(unhinted)].sort()).toEqual(
      [
        'MEI-T1 shared memory size',
        'MEI-T1 bank-width modes',
        'MEI-T1 texture units',
        'MEI-T1 global memory cached',
        'MEI-T1 L1 size',
        'MEI-T1 L2 size',
        'MEI-F5 2-way conflict',
        'MEI-F5 32-way conflict',
        'MEI-F7 stride 2, 4-byte mode',
        'MEI-F7 stride 2, 8-byte mode',
        'MEI-F7 stride 4, 4-byte mode',
        'MEI-F7 stride 6, 4-byte mode',
        'MEI-F7 stride 6, 8-byte mode',
        'MEI-F9 max miss rate, LRU of the same geometry',
        'WONG-SHM cache levels',
        'WONG-GLB fastest placement',
        'WONG-GLB slowest placement',
        'WONG-F10..F12 L1 latency depends on TPC placement',
        'WONG-F10..F12 L2 latency depends on TPC placement',
        'WONG-F17/F18 L2 latency depends on TPC placement',
        'WONG-F17/F18 L3 latency depends on TPC placement',
      ].sort(),
    );
  });
});
