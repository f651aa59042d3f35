import type { Preset } from '../presets/types';

/**
 * What a check can prove (REPRODUCTION.md, "Every check declares its kind" and "A fourth kind"):
 * - 'predicted': the value emerges from the model's mechanics and no single preset number determines
 *   it (orderings and ratios of many-thread runs, miss patterns of several numbers together): a
 *   reproduction, proven by perturbing the preset (tests/repro/perturbation.test.ts);
 * - 'recovered': an analyser infers, from simulated timings alone, a structure or latency that the
 *   preset was set to: a method check (the paper's method recovers what was configured);
 * - 'calibrated': a preset number was set from this very value (latency tables, bandwidth caps): a
 *   pass proves consistency only;
 * - 'specification': the value is read back from preset data (Table 1 facts, configuration rows).
 */
export type CheckKind = 'predicted' | 'recovered' | 'calibrated' | 'specification';
export const CHECK_KINDS: readonly CheckKind[] = ['predicted', 'recovered', 'calibrated', 'specification'];

/** A check's kind with its reason, which 'recovered', 'calibrated' and 'specification' must give (one line). */
export interface KindDecl {
  kind: CheckKind;
  reason?: string;
}

/** One published value: what the paper reports, where, and how close the simulation must come. */
export interface Reference {
  /** Short name of the quantity, e.g. "pattern 1" or "L1 size". */
  name: string;
  /** The paper's value: a number (latency, size) or a word (a policy, "periodic"). */
  value: number | string;
  unit: string;
  /**
   * 'latency': within 5 %; 'exact': equal; 'range': [min, max] in `range`; 'half': within half of the
   * paper's value either way (11 % passes 5.5-16.5 %: REPRODUCTION.md's rule for relative figures);
   * 'half-gain': a ratio whose gain over 1 is within half either way (1.9x passes 1.45x-2.35x).
   */
  tolerance: 'latency' | 'exact' | 'range' | 'half' | 'half-gain';
  range?: [number, number];
  citation: string;
  /**
   * The finding that measures it: the finding `key` of a run of `experiment` whose parameters
   * include `params`. Lets a run's findings table and report put the paper's value beside that
   * finding (src-main/services/export/references.ts); without it, names are matched with labels.
   */
  finding?: {
    experiment: string;
    key: string;
    params?: Record<string, string | number | boolean>;
    /**
     * The whole parameters of the row's run that gives the finding, lists included (`params` leaves
     * out lists such as strides, which the key names): what a template of the row starts
     * (src-sim/reference/plan.ts). Absent: `params`.
     */
    run?: Record<string, string | number | boolean | number[]>;
  };
  /**
   * Why the model is known to miss this value, where it does: the measured cause and the docs
   * section that shows it. Shown beside the check only when it fails; it never changes the verdict.
   */
  knownDeviation?: string;
  /**
   * Shown beside the result for context and never judged: a value of the paper's that is not the
   * simulator's target (a real-GPU measurement, say), with where it comes from.
   */
  context?: string;
  /** This check's kind where it differs from its row's (ReproductionRow.kind). */
  kind?: KindDecl;
}

export interface CheckResult {
  name: string;
  target: string;
  /** The rule the check applies and its band, at the precision that decides it ("within 5 % of the paper's value: 110.2..121.8 cycles"). */
  rule: string;
  simulated: string;
  /** Relative deviation for numeric checks (0.02 = 2 %), absent for exact words. */
  deviation?: number;
  pass: boolean;
  /** Where the paper's value comes from (the reference's citation). */
  citation?: string;
  /** The reference's known deviation, on a failing check only. */
  note?: string;
  /** What the check can prove, and why where it is not 'predicted'. */
  kind: CheckKind;
  kindReason?: string;
  /** A check with a known deviation that passes: the note is stale, and the gate fails until it goes. */
  unexpectedPass?: boolean;
  /** The reference's context (Reference.context), shown beside the result, never judged. */
  context?: string;
}

export interface RowResult {
  id: string;
  preset: string;
  target: string;
  simulated: string;
  /** Largest relative deviation among the numeric checks. */
  deviation?: number;
  pass: boolean;
  checks: CheckResult[];
  /** The experiment runs that produced it: experiment id and parameters, to open or rerun. */
  runs: { experiment: string; params: Record<string, unknown> }[];
}

/** A row of REPRODUCTION.md: which presets it applies to and how to check it. */
export interface ReproductionRow {
  id: string;
  paper: 'MEI' | 'WONG' | 'LASH' | 'SL1' | 'JIA18' | 'JIA19' | 'ABD22' | 'LUO24' | 'H100' | 'H200';
  title: string;
  /** The presets the paper measured it on; the first is the default. */
  presets: string[];
  /** The published values, as data with citations. */
  references: (preset: Preset) => Reference[];
  /** The kind of the row's checks (a reference may override it with its own `kind`). */
  kind: KindDecl;
  /** Runs the experiment(s) and measures what the references name. */
  measure: (preset: Preset, seed: number) => { measured: Record<string, number | string>; runs: RowResult['runs'] };
}
