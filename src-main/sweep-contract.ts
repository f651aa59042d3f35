/**
 * The sweep calls of the contract (src-main/contract.ts spreads them into CONTRACT): their argument
 * schemas and result types. Kept apart so that the contract stays one list of calls while the sweep
 * types live with the plan (./sweep-plan.ts). Imports zod and the plan module only.
 */
import { z } from 'zod';
import type { FileResult, Returns, RunStatus } from './contract-base';
import type { SweepPlan, SweepValue } from './sweep-plan';
import { SWEEP_LIMITS, sweepPlanSchema } from './sweep-plan';
import { COLLECT_LIMITS } from './shared/sweep-folder';

const returns = <T>(): Returns<T> => ({});
const sweepId = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'must be a sweep id (a lower-case UUID)');
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
/** A name of the sweep's own (a quantity's key, an axis): checked against the sweep by the service. */
const sweepName = (max: number) =>
  z
    .string()
    .min(1, 'must not be empty')
    .max(max, `at most ${max} characters`)
    .refine((s) => !CONTROL.test(s), 'must not contain control characters');

/** The PDF report of a sweep: which quantity its chart and table show, over which axes. */
export const sweepPdfArgs = z
  .strictObject({
    id: sweepId,
    /** A key of SweepDetail.metrics (a finding's key, or "mean:<series>"); default: the first with a number. */
    quantity: sweepName(300).optional(),
    /** The chart's x axis: an axis name, or "preset"; default: the first axis. */
    x: sweepName(64).optional(),
    /** Lines: a line per value of this axis; heatmap: its y axis. Default: the first other axis, null for one line. */
    by: sweepName(64).nullable().optional(),
    chart: z.enum(['lines', 'heatmap']).default('lines'),
    /** The report's title (default: the sweep's name). */
    title: sweepName(200).optional(),
  })
  .refine((a) => a.by === undefined || a.by === null || a.x === undefined || a.by !== a.x, { message: 'by must be another axis than x', path: ['by'] })
  .refine((a) => a.chart !== 'heatmap' || a.by !== null, { message: 'a heatmap needs a second axis (by)', path: ['by'] });
export type SweepPdfArgs = z.output<typeof sweepPdfArgs>;

/** A point's state: pending (no run yet), or the state of its best run (done before the latest). */
export type SweepPointStatus = 'pending' | RunStatus;

export interface SweepCounts {
  points: number;
  pending: number;
  queued: number;
  running: number;
  done: number;
  failed: number;
  cancelled: number;
  interrupted: number;
}

/** A sweep as the list shows it. */
export interface SweepSummary {
  id: string;
  name: string;
  experiment: string;
  presets: string[];
  /** The axis names, in the plan's order. */
  axes: string[];
  counts: SweepCounts;
  createdAt: number;
}

/** One quantity of a point's result: a finding (by key) or a series' mean ("mean:<series>"). */
export interface SweepMetric {
  key: string;
  label: string;
  unit: string;
}

export interface SweepPointDetail {
  index: number;
  preset: string;
  values: Record<string, SweepValue>;
  seed: number;
  status: SweepPointStatus;
  /** The run that gives the point its status (null while pending). */
  runId: string | null;
  /** Runs of this point, every attempt. */
  runs: number;
  durationMs: number | null;
  error: string | null;
  /** By metric key; numbers for numeric findings and series means, words for the others. */
  metrics: Record<string, number | string>;
}

export interface SweepDetail extends SweepSummary {
  plan: SweepPlan;
  metrics: SweepMetric[];
  points: SweepPointDetail[];
}

export type SweepCheck =
  | { ok: true; points: number; estimate: number; seconds: number | null; longestSeconds: number | null }
  | { ok: false; point: number | null; preset: string | null; param: string | null; message: string; points: number };

export interface SweepStartResult {
  sweepId: string;
  /** Runs queued now. */
  queued: number;
  /** Points left alone: already done, or running. */
  skipped: number;
  /** Whether an earlier sweep of the same plan was taken up again. */
  resumed: boolean;
}

/** A file's name in a sweep's folder, without its folders. */
const fileName = z
  .string()
  .min(1, 'must not be empty')
  .max(255, 'at most 255 characters')
  .refine((s) => !CONTROL.test(s) && !/[\\/]/.test(s), 'must be a file name (no folders, no control characters)');

/** `sweeps.collect`: a Slurm folder's plan.json, custom presets and point bundles (a batch of them), and whether to answer resubmit.sh. */
export const sweepCollectArgs = z.strictObject({
  /** plan.json's text, as `gpulab sweep --slurm` wrote it (with the sweep's id). */
  plan: z.string().min(1, 'plan.json is empty').max(SWEEP_LIMITS.planBytes, `plan.json is larger than ${SWEEP_LIMITS.planBytes} bytes`),
  /** presets/<id>.json: the plan's custom presets, saved where the database lacks them. */
  presets: z
    .array(z.strictObject({ name: fileName, text: z.string().max(COLLECT_LIMITS.presetChars, `at most ${COLLECT_LIMITS.presetChars} characters`) }))
    .max(SWEEP_LIMITS.presets, `at most ${SWEEP_LIMITS.presets} presets`)
    .default([]),
  /** bundles/point-<index>.gmlbundle: each imported whole or (refused, with the reason) not at all. */
  bundles: z
    .array(z.strictObject({ name: fileName, bytes: z.instanceof(Uint8Array, { error: 'must be file bytes (a Uint8Array)' }) }))
    .max(COLLECT_LIMITS.bundlesPerCall, `at most ${COLLECT_LIMITS.bundlesPerCall} bundles a call`)
    .default([])
    .refine((list) => list.reduce((n, b) => n + b.bytes.byteLength, 0) <= COLLECT_LIMITS.bundleBytes, `the bundles of one call are larger than ${COLLECT_LIMITS.bundleBytes} bytes together`),
  /** Answer resubmit.sh (and resubmit.sbatch) for the points missing or failed after this call, from the folder's sweep.sbatch. */
  resubmit: z
    .strictObject({
      /** sweep.sbatch's text. */
      sbatch: z.string().min(1, 'sweep.sbatch is empty').max(COLLECT_LIMITS.scriptChars, `sweep.sbatch is larger than ${COLLECT_LIMITS.scriptChars} characters`),
      /** The most tasks of one job array; default: the one sweep.sbatch was written with (else 1000). */
      arrayMax: z.int().min(1).max(COLLECT_LIMITS.arrayMax).optional(),
      /** The most tasks running at once; default: sweep.sbatch's. */
      maxParallel: z.int().min(1).max(COLLECT_LIMITS.maxParallel).optional(),
    })
    .optional(),
});
export type SweepCollectArgs = z.output<typeof sweepCollectArgs>;

/** resubmit.sh (and resubmit.sbatch) for the points missing or failed, to save in the sweep's folder. */
export interface SweepResubmit {
  /** resubmit.sh: the sbatch calls of sweep.sbatch for just those points, each block of arrayMax as one array at its offset. */
  script: string;
  /** resubmit.sbatch: sweep.sbatch with `--array=` just those points, when one array from offset 0 runs them all; else null. */
  sbatch: string | null;
  /** The job arrays: a point is offset + a task id of the array. */
  arrays: { offset: number; array: string }[];
  arrayMax: number;
}

/** What `sweeps.collect` answers: what this call imported or refused, and the sweep's points after it. */
export interface SweepCollectResult {
  sweepId: string;
  name: string;
  /** Whether this call created the sweep from plan.json (the database had none with its id). */
  created: boolean;
  points: number;
  /** Bundles this call took. */
  bundles: number;
  /** Runs imported now. */
  imported: number;
  /** Runs already here (skipped): collecting again imports nothing twice. */
  alreadyHere: number;
  /** Bundles refused, nothing of them imported: the file and why. */
  unreadable: { file: string; reason: string }[];
  /** Points done. */
  done: number;
  /** Points with no run done or failed here: no bundle yet (or queued or running on this machine). */
  missing: number[];
  /** Points whose run failed, was cancelled or interrupted, with the reason. */
  failed: { point: number; status: SweepPointStatus; error: string | null }[];
  /** With `resubmit`, when some point is missing or failed; else null. */
  resubmit: SweepResubmit | null;
  /** Why resubmit.sh could not be made from this sweep.sbatch (one that predates GPULAB_OFFSET), else null. */
  resubmitError: string | null;
}

export const SWEEP_CALLS = {
  'sweeps.check': {
    args: z.strictObject({ plan: sweepPlanSchema }),
    result: returns<SweepCheck>(),
    summary: "Whether sweeps.start would accept a plan: its points, the estimated work and time, or the first point refused and why.",
  },
  'sweeps.start': {
    args: z.strictObject({
      plan: sweepPlanSchema,
      /** true (default): take up the sweep of the same plan (or id) again, queuing only the points without a done run. */
      resume: z.boolean().default(true),
    }),
    result: returns<SweepStartResult>(),
    summary: 'Record a sweep and queue a run per point without a done run.',
  },
  'sweeps.list': { args: z.strictObject({}), result: returns<SweepSummary[]>(), summary: 'The sweeps with their progress, newest first.' },
  'sweeps.get': { args: z.strictObject({ id: sweepId }), result: returns<SweepDetail>(), summary: 'One sweep: its plan and each point with its status and result.' },
  'sweeps.cancel': { args: z.strictObject({ id: sweepId }), result: returns<{ cancelled: number }>(), summary: "Cancel a sweep's queued and running runs." },
  'sweeps.delete': { args: z.strictObject({ id: sweepId }), result: returns<{ deleted: boolean }>(), summary: 'Delete a sweep and its runs (cancel it first).' },
  'sweeps.csv': { args: z.strictObject({ id: sweepId }), result: returns<FileResult>(), summary: 'CSV of a sweep: a row per point, its axis values, status and results.' },
  'sweeps.collect': {
    args: sweepCollectArgs,
    result: returns<SweepCollectResult>(),
    summary: "Collect a Slurm sweep's folder (plan.json, custom presets, point bundles): the sweep created from the plan when missing, each bundle imported and linked to its point (or refused with the reason), the points missing and failed, resubmit.sh on request.",
  },
  'sweeps.pdf': {
    args: sweepPdfArgs,
    result: returns<FileResult>(),
    summary: 'PDF report of a sweep: its plan, progress, a chart of one quantity over one axis (lines) or two (a heatmap), a row per point.',
  },
} as const;

export { sweepId as SWEEP_ID_SCHEMA };
export { COLLECT_LIMITS };
