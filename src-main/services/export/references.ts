/**
 * The paper's values beside a run's findings. Pure: src-sim data only.
 *
 * Which rows: the REPRODUCTION_ROWS that the run's experiment declares it reproduces
 * (`Experiment.reproduces`) and that the paper measured on the run's preset (`row.presets`, by
 * preset id: a custom preset is not a GPU the paper measured, so it gets no paper values). A row
 * says which experiments it runs only when it is measured, which an export must not do; the
 * experiment's own list is the static record of the same relation.
 *
 * Which finding a reference sits beside: when the reference names its finding (`Reference.finding`:
 * an experiment, a finding key and parameters), the finding with that key in a run of that experiment
 * whose parameters include those; otherwise the one whose label (or the part of it after the first
 * ": ", e.g. "shared: odd strides conflict-free") is the reference's name or starts with it
 * followed by a non-alphanumeric character ("Pattern 1 (data hit, ...)" for "pattern 1"), ignoring
 * case, with the same unit. Only one-to-one matches count: a reference that fits several findings
 * or a finding that fits several references stays unmatched, and the report lists it under
 * "Paper values" instead. References repeated by several rows count once: the same name, value and
 * unit, or, for references that name their finding, the same finding, value, unit and tolerance.
 */
import { findExperiment } from '../../../src-sim/experiments';
import type { Finding, ParamValues } from '../../../src-sim/experiments/types';
import type { Preset } from '../../../src-sim/presets/types';
import { REPRODUCTION_ROWS } from '../../../src-sim/reference';
import { checkOne, kindOf } from '../../../src-sim/reference/check';
import type { CheckResult, Reference, ReproductionRow } from '../../../src-sim/reference/types';

export interface PaperRow {
  id: string;
  paper: ReproductionRow['paper'];
  title: string;
  /** The row's references, each with its kind resolved (its own, else its row's). */
  references: Reference[];
}

/** A reference with the rows that cite it. */
export interface PaperValue {
  rowIds: string[];
  reference: Reference;
}

export interface FindingBeside {
  finding: Finding;
  /** The paper's value for the same quantity, when one matches unambiguously. */
  paper?: PaperValue;
  /** The finding held to the reference's tolerance (src-sim/reference/check.ts). */
  check?: CheckResult;
}

export interface PaperComparison {
  rows: PaperRow[];
  findings: FindingBeside[];
  /** References of those rows that no finding matched. */
  unmatched: PaperValue[];
}

/** The rows that reproduce with this experiment on this preset, with their references for it. */
export function paperRows(experimentId: string, presetId: string, preset: Preset | null): PaperRow[] {
  const experiment = findExperiment(experimentId);
  // A real run (no preset) is held to no paper's values: the papers measured other GPUs.
  if (!experiment || !preset) return [];
  return REPRODUCTION_ROWS.filter((r) => experiment.reproduces.includes(r.id) && r.presets.includes(presetId))
    .map((r) => ({ id: r.id, paper: r.paper, title: r.title, references: r.references(preset).map((ref) => ({ ...ref, kind: kindOf(ref, r.kind) })) }))
    .filter((r) => r.references.length > 0);
}

const norm = (s: string): string => s.toLowerCase().replace(/\s+/g, ' ').trim();

/** Whether a finding is about the quantity a reference names (see the module comment). */
export function namesMatch(reference: Pick<Reference, 'name' | 'unit'>, finding: Pick<Finding, 'label' | 'unit'>): boolean {
  if (reference.unit !== finding.unit) return false;
  const name = norm(reference.name);
  if (!name) return false;
  const label = norm(finding.label);
  const colon = label.indexOf(': ');
  const candidates = colon >= 0 ? [label, label.slice(colon + 2)] : [label];
  return candidates.some((c) => c === name || (c.startsWith(name) && /^[^a-z0-9]/.test(c.slice(name.length))));
}

/** The run a comparison is for: its experiment and resolved parameters (for `Reference.finding`). */
export interface RunContext {
  experiment: string;
  params: ParamValues;
}

/** Whether a reference sits beside a finding of this run (see the module comment). */
export function referenceFits(reference: Reference, finding: Pick<Finding, 'key' | 'label' | 'unit'>, run?: RunContext): boolean {
  const hint = reference.finding;
  if (!hint) return namesMatch(reference, finding);
  if (!run || run.experiment !== hint.experiment || finding.key !== hint.key) return false;
  return Object.entries(hint.params ?? {}).every(([k, v]) => run.params[k] !== undefined && String(run.params[k]) === String(v));
}

/** A hint as a string that does not depend on the order its parameters were written in. */
function hintIdentity(hint: NonNullable<Reference['finding']>): string {
  const params = Object.entries(hint.params ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([hint.experiment, hint.key, params]);
}

/** Whether two references are one paper value: same value, unit and check, about the same finding. */
function sameValue(a: Reference, b: Reference): boolean {
  if (a.unit !== b.unit || String(a.value) !== String(b.value)) return false;
  if (!a.finding || !b.finding) return !a.finding && !b.finding && a.name === b.name;
  return hintIdentity(a.finding) === hintIdentity(b.finding) && a.tolerance === b.tolerance && String(a.range) === String(b.range);
}

/**
 * Merges references that several rows repeat: without hints, the same name, value and unit; with
 * hints, the same finding, value, unit and tolerance whatever the rows call it (MEI Table 4's
 * "L1 data size" and MEI 3.2's "step 1: C" are one value beside one finding). The first row's
 * reference stands for them.
 */
function distinctValues(rows: readonly PaperRow[]): PaperValue[] {
  const out: PaperValue[] = [];
  for (const row of rows)
    for (const ref of row.references) {
      const same = out.find((v) => sameValue(v.reference, ref));
      if (same) {
        if (!same.rowIds.includes(row.id)) same.rowIds.push(row.id);
      } else out.push({ rowIds: [row.id], reference: ref });
    }
  return out;
}

/** Pairs findings with paper values one to one (see the module comment). */
export function besidePaper(findings: readonly Finding[], rows: readonly PaperRow[], run?: RunContext): PaperComparison {
  const values = distinctValues(rows);
  const fits = values.map((v) => findings.map((f, i) => (referenceFits(v.reference, f, run) ? i : -1)).filter((i) => i >= 0));
  const fitCount = findings.map((_, i) => fits.filter((list) => list.includes(i)).length);
  const pairedWith = new Map<number, PaperValue>();
  const unmatched: PaperValue[] = [];
  values.forEach((v, k) => {
    const only = fits[k].length === 1 ? fits[k][0] : -1;
    if (only >= 0 && fitCount[only] === 1) pairedWith.set(only, v);
    else unmatched.push(v);
  });
  return {
    rows: [...rows],
    findings: findings.map((finding, i) => {
      const paper = pairedWith.get(i);
      return paper ? { finding, paper, check: checkOne(paper.reference, finding.value, paper.reference.kind) } : { finding };
    }),
    unmatched,
  };
}

/** The paper comparison of one run. */
export function paperComparison(run: { experiment: string; presetId: string; preset: Preset | null; params?: ParamValues }, findings: readonly Finding[]): PaperComparison {
  return besidePaper(findings, paperRows(run.experiment, run.presetId, run.preset), { experiment: run.experiment, params: run.params ?? {} });
}
