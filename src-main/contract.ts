/**
 * The API between the renderer and the main process, declared once.
 *
 * Every call has a name (`namespace.method`), a zod schema for its argument and a result type;
 * every event has a name and a payload type. The Electron IPC handlers, the HTTP routes of the
 * browser mode and the CLI all validate through `parseArgs` (never through a schema directly:
 * `parseArgs` also refuses hostile shapes that zod would silently drop, such as `__proto__` keys).
 * The preload exposes exactly `LabApi` as `window.lab`; the browser mode implements the same
 * interface over HTTP; the renderer is written against the interface only (type imports).
 *
 * Wire notes:
 * - Results hold typed arrays (`Float64Array` series, trace arrays) and `Uint8Array` file bytes.
 *   Electron IPC (structured clone) carries them as they are; an HTTP transport must encode them
 *   and restore the same types on the other side.
 * - Files (CSV, PDF, bundles) travel as bytes (`FileResult`): the renderer saves them as a
 *   download (the browser's, or Electron's save dialog). The renderer never names a path on disk,
 *   so an untrusted renderer cannot make the main process write or read arbitrary files. The CLI
 *   writes the same bytes to the path its user gave.
 * - Times are milliseconds since the Unix epoch (UTC).
 * - A failed call rejects with an error whose `code` is a `LabErrorCode` (see `LabError`).
 *
 * This module imports zod only (and types from src-sim), so the preload can bundle it cheaply.
 */
import { z } from 'zod';
import type { ExperimentResult, Finding, ParamSpec, ParamValues, Series, Table, Trace } from '../src-sim/experiments/types';
import type { Preset } from '../src-sim/presets/types';
import type { CheckResult, Reference, ReproductionRow, RowResult } from '../src-sim/reference/types';
import type { RowPlan } from '../src-sim/reference/plan';
import { buildCallsFrom, RUN_STATUSES } from './contract-base';
import type { FileResult, PresetSummary, Returns, RunStatus } from './contract-base';
import { SWEEP_CALLS, SWEEP_ID_SCHEMA } from './sweep-contract';
import { GPU_CALLS, GPU_PROGRESS_SCHEMA } from './gpu-contract';
import type { GpuProgressEvent } from './gpu-contract';

export { RUN_STATUSES } from './contract-base';
export type { FileResult, PresetSummary, Returns, RunStatus } from './contract-base';
import type { MeasuredDevice } from '../src-sim/cuda/run-record';

// ---------------------------------------------------------------------------------------------
// Limits and primitives
// ---------------------------------------------------------------------------------------------

// The bounds as plain data (the renderer imports them without zod).
import { LIMITS } from './shared/limits';
export { LIMITS } from './shared/limits';

/** A run or comparison id: a lower-case RFC 4122 UUID (what `crypto.randomUUID()` makes). */
export const ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Preset ids: the same rule as src-sim/presets/validate.ts. */
export const PRESET_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,39}$/;
export const EXPERIMENT_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;
/** Parameter names: identifiers (never __proto__, constructor or prototype: see FORBIDDEN_KEYS). */
export const PARAM_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
/** Keys refused anywhere in an argument (prototype pollution). */
export const FORBIDDEN_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex
const CONTROL_BUT_NEWLINE_TAB = /[\u0000-\u0008\u000b-\u001f\u007f]/;

/** A run in one of these states is finished: immutable except its title, tags and notes. */
export const FINISHED_STATUSES: readonly RunStatus[] = ['done', 'failed', 'cancelled', 'interrupted'];

export const RUN_SORT_KEYS = ['created', 'title', 'experiment', 'preset', 'duration', 'status'] as const;
export type RunSortKey = (typeof RUN_SORT_KEYS)[number];

const runId = z.string().regex(ID_PATTERN, 'must be a run id (a lower-case UUID)');
const comparisonId = z.string().regex(ID_PATTERN, 'must be a comparison id (a lower-case UUID)');
const presetId = z.string().regex(PRESET_ID_PATTERN, 'must be a preset id: 1-40 lower-case letters, digits and dashes');
const experimentId = z.string().regex(EXPERIMENT_ID_PATTERN, 'must be an experiment id: lower-case letters, digits and dashes');

/** A one-line string: bounded, no control characters. */
function line(max: number, min = 0) {
  return z
    .string()
    .min(min)
    .max(max, `at most ${max} characters`)
    .refine((s) => !CONTROL.test(s), 'must not contain control characters');
}
/** Multi-line text: bounded; newlines and tabs allowed, other control characters not. */
function text(max: number) {
  return z
    .string()
    .max(max, `at most ${max} characters`)
    .refine((s) => !CONTROL_BUT_NEWLINE_TAB.test(s), 'must not contain control characters');
}
const title = line(LIMITS.titleChars);
const notes = text(LIMITS.notesChars);
const tag = line(LIMITS.tagChars, 1).refine((s) => s.trim() === s && s.length > 0, 'a tag has no leading or trailing spaces');
const tags = z.array(tag).max(LIMITS.tagsPerRun, `at most ${LIMITS.tagsPerRun} tags`);
const seed = z.int().min(0).max(0xffffffff, 'a seed is a whole number from 0 to 4294967295');
/**
 * Milliseconds since the epoch, or an ISO 8601 date-time with its offset or a date (converted to
 * milliseconds; a date alone means its midnight UTC).
 */
const instant = z.union([
  z.int().min(0).max(8.64e15),
  z
    .union([z.iso.datetime({ offset: true }), z.iso.date()])
    .transform((s) => Date.parse(s))
    .pipe(z.int('is not a real date').min(0, 'is before 1970')),
]);

function uniqueIds(schema: z.ZodString, min: number, max: number, what: string) {
  return z
    .array(schema)
    .min(min, `name at least ${min} ${what}`)
    .max(max, `at most ${max} ${what} per call`)
    .refine((ids) => new Set(ids).size === ids.length, `${what} must not repeat`);
}

/** One experiment parameter as the user gave it: resolveParams (src-sim) checks it against its spec. */
const paramValue = z.union([
  z.number(),
  line(LIMITS.paramStringChars),
  text(LIMITS.paramTextChars),
  z.boolean(),
  z.array(z.number()).max(LIMITS.paramListItems, `at most ${LIMITS.paramListItems} items`),
]);
const params = z
  .record(z.string().regex(PARAM_NAME_PATTERN, 'is not a parameter name').refine((k) => !FORBIDDEN_KEYS.includes(k), 'is a reserved name'), paramValue)
  .refine((p) => Object.keys(p).length <= LIMITS.paramKeys, `at most ${LIMITS.paramKeys} parameters`);

/**
 * Plain JSON data of bounded size and depth: no functions, no class instances, finite numbers,
 * no prototype-polluting keys. Used for custom presets, which src-sim's validatePreset then checks
 * field by field (in the store).
 */
export function boundedJson(maxBytes: number, maxDepth: number) {
  return z.custom<Record<string, unknown>>((value) => jsonProblem(value, maxDepth) === null && jsonBytes(value) <= maxBytes, {
    error: (iss) => {
      const problem = jsonProblem(iss.input, maxDepth);
      return problem ?? `is larger than ${maxBytes} bytes as JSON`;
    },
  });
}

function jsonBytes(value: unknown): number {
  try {
    return new TextEncoder().encode(JSON.stringify(value) ?? '').byteLength;
  } catch {
    return Infinity;
  }
}

/** Why a value is not plain bounded JSON, or null. */
function jsonProblem(value: unknown, maxDepth: number): string | null {
  if (!isPlainObject(value)) return 'must be a JSON object';
  const walk = (v: unknown, depth: number, path: string): string | null => {
    if (depth > maxDepth) return `${path || '(root)'} nests deeper than ${maxDepth} levels`;
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return null;
    if (typeof v === 'number') return Number.isFinite(v) ? null : `${path} is not a finite number`;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const p = walk(v[i], depth + 1, `${path}.${i}`);
        if (p) return p;
      }
      return null;
    }
    if (isPlainObject(v)) {
      for (const key of Object.keys(v)) {
        if (FORBIDDEN_KEYS.includes(key)) return `${path ? `${path}.` : ''}${key} is a forbidden key`;
        const p = walk(v[key], depth + 1, path ? `${path}.${key}` : key);
        if (p) return p;
      }
      return null;
    }
    return `${path} is not JSON data`;
  };
  return walk(value, 0, '');
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/** File bytes as an argument (bundle import). */
const bytes = (max: number) =>
  z
    .instanceof(Uint8Array, { error: 'must be file bytes (a Uint8Array)' })
    .refine((b) => b.byteLength > 0, 'the file is empty')
    .refine((b) => b.byteLength <= max, `the file is larger than ${max} bytes`);

const noArgs = z.strictObject({});

/** The field schemas, for code that validates stored or imported records (bundles). */
export const FIELDS = {
  runId,
  /** 1 to LIMITS.idsPerCall distinct run ids. */
  runIds: uniqueIds(runId, 1, LIMITS.idsPerCall, 'runs'),
  comparisonId,
  presetId,
  experimentId,
  title,
  notes,
  tag,
  tags,
  seed,
  params,
  line,
  text,
} as const;

// ---------------------------------------------------------------------------------------------
// Data types (results)
// ---------------------------------------------------------------------------------------------

/** A run as the library lists it (no preset snapshot, parameters or results). */
export interface RunSummary {
  id: string;
  experiment: string;
  title: string;
  /** Id and name of the preset snapshot the run used. */
  presetId: string;
  presetName: string;
  seed: number;
  /** src-sim/version.ts SIM_VERSION of the simulator that ran it. */
  simVersion: string;
  status: RunStatus;
  /** Why the run failed, was cancelled or interrupted; null otherwise. */
  error: string | null;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  /** Simulation time in milliseconds (null until finished). */
  durationMs: number | null;
  tags: string[];
  notes: string;
  /** A run measured on a real GPU (its preset id and name are the device's: "real-...", "<name> (real)"). */
  real?: boolean;
  /** In `runs.list`: the sweep the run belongs to and its point there (absent for a run of no sweep). */
  sweepId?: string;
  sweepPoint?: number;
}

/** A series as stored: x and y come back as Float64Array, byte for byte as they were written. */
export type StoredSeries = Omit<Series, 'x' | 'y'> & { x: Float64Array; y: Float64Array };
/** An ExperimentResult as read back from the store (assignable to ExperimentResult). */
export interface StoredResult {
  series: StoredSeries[];
  tables: Table[];
  findings: Finding[];
  notes: string[];
  trace?: Trace;
  /**
   * Set by `runs.get` (which leaves the trace out) when the run recorded a trace: its size, and the
   * per-access series left out with it because they repeat it. `runs.trace` returns the trace.
   */
  traceInfo?: TraceInfo;
}

/** A recorded trace, described without its data (see `StoredResult.traceInfo`). */
export interface TraceInfo {
  /** Recorded accesses. */
  accesses: number;
  /** Accesses run but not recorded. */
  dropped: number;
  levelNames: string[];
  /** Names of the series that hold one value per recorded access, left out of `runs.get`. */
  series: string[];
}

/** Everything about one run: the summary, the preset as it was, the parameters and the result. */
export interface RunDetail extends RunSummary {
  /** The preset snapshot; null for a real run, which has its measured device instead. */
  preset: Preset | null;
  /** A real run's measured-device record (src-sim/cuda/run-record.ts); absent or null for a simulated run. */
  device?: MeasuredDevice | null;
  /** The parameters as resolved (defaults filled in, sizes in bytes). */
  params: ParamValues;
  /** Present when status is 'done'. */
  result: StoredResult | null;
}

export interface RunPage {
  /** Runs matching the filters (all pages). */
  total: number;
  items: RunSummary[];
  /**
   * With `sweep: "none"`: the runs of sweeps that the other filters match, by sweep (left out of
   * `items` and `total`), newest sweep first; sweeps with no matching run are not listed.
   */
  sweeps?: { id: string; runs: number }[];
}

export interface PresetRecord {
  preset: Preset;
  builtin: boolean;
}

export interface ExperimentInfo {
  id: string;
  title: string;
  description: string;
  reproduces: string[];
  /**
   * The REPRODUCTION.md rows among `reproduces` (the other entries name a figure without a row of
   * their own): paper, title and the presets the paper measured. Absent from older callers.
   */
  rows?: {
    id: string;
    paper: ReproductionRow['paper'];
    title: string;
    presets: string[];
    /** The runs of this experiment the row's paper values sit beside, per GPU the paper measured (src-sim/reference/plan.ts). */
    plans?: RowPlan[];
  }[];
  params: ParamSpec[];
}

export interface ComparisonSummary {
  id: string;
  name: string;
  notes: string;
  runCount: number;
  createdAt: number;
  updatedAt: number;
}

export interface Comparison extends Omit<ComparisonSummary, 'runCount'> {
  /** In the order the user arranged them; a deleted run drops out of its comparisons. */
  runIds: string[];
}

export interface BundleImportReport {
  /** Runs added to this database. */
  imported: string[];
  /** Runs already present (same id): left as they were. */
  skipped: string[];
}

export interface AppVersion {
  app: string;
  simulator: string;
  /** Database schema version this app writes. */
  schema: number;
  node: string;
  /** Electron's version in the desktop app; null in the browser mode and the CLI. */
  electron: string | null;
}

/** app.checkDatabase: the full integrity check of the database file ("gpulab db check"). */
export interface DatabaseCheck {
  /** The database file checked. */
  file: string;
  ok: boolean;
  /** What SQLite's integrity_check found (at most 50 lines); none when ok. */
  problems: string[];
  /** What to do about a damaged file; null when ok. */
  advice: string | null;
  durationMs: number;
}

/** A paper's value for one quantity, with the REPRODUCTION.md rows that cite it. */
export interface PaperValue {
  rowIds: string[];
  reference: Reference;
}

/**
 * The paper's values beside a run's findings (src-main/services/export/references.ts): the rows
 * the run's experiment reproduces on the run's preset, each finding matched one to one with a
 * paper value (by name and unit) and checked against it, and the paper values no finding matched.
 * Reading it runs no simulation.
 */
export interface RunReferences {
  runId: string;
  rows: { id: string; paper: ReproductionRow['paper']; title: string }[];
  /** Findings that have a paper value, by finding key. */
  findings: { key: string; paper: PaperValue; check: CheckResult }[];
  unmatched: PaperValue[];
}

// ---------------------------------------------------------------------------------------------
// Argument schemas
// ---------------------------------------------------------------------------------------------

export const runStartArgs = z.strictObject({
  experiment: experimentId,
  /** A built-in or custom preset id; the run stores a snapshot of it. */
  preset: presetId,
  params: params.default({}),
  seed: seed.default(1),
  title: title.optional(),
  tags: tags.optional(),
  notes: notes.optional(),
});

/** runs.start's arguments that decide whether a run is accepted (no title, tags or notes). */
export const runCheckArgs = z.strictObject({ experiment: experimentId, preset: presetId, params: params.default({}), seed: seed.default(1) });

/**
 * What runs.check says: accepted with its estimated work (simulated accesses) and, once a run of the
 * experiment has finished on this machine, its expected duration; or refused with the parameter it names.
 */
export type RunCheck = { ok: true; estimate: number; seconds?: number } | { ok: false; param: string | null; message: string };

export const runListArgs = z.strictObject({
  experiment: experimentId.optional(),
  preset: presetId.optional(),
  status: z.union([z.enum(RUN_STATUSES), z.array(z.enum(RUN_STATUSES)).min(1).max(RUN_STATUSES.length)]).optional(),
  tag: tag.optional(),
  /** Case-insensitive substring of the title, notes or experiment id. */
  text: line(LIMITS.textQueryChars).optional(),
  /** Created at or after (inclusive). */
  from: instant.optional(),
  /** Created at or before (inclusive). */
  to: instant.optional(),
  /**
   * A sweep's id: only its runs. "none": only the runs of no sweep, and the answer's `sweeps` counts
   * the runs of each sweep that the other filters match (the run library groups them under their sweep).
   */
  sweep: z.union([z.literal('none'), SWEEP_ID_SCHEMA]).optional(),
  sort: z.enum(RUN_SORT_KEYS).default('created'),
  order: z.enum(['asc', 'desc']).default('desc'),
  limit: z.int().min(1).max(LIMITS.listPageMax).default(50),
  offset: z.int().min(0).max(1e9).default(0),
});

export const runUpdateArgs = z
  .strictObject({ id: runId, title: title.optional(), tags: tags.optional(), notes: notes.optional() })
  .refine((a) => a.title !== undefined || a.tags !== undefined || a.notes !== undefined, 'give a title, tags or notes to change');

export const comparisonSaveArgs = z.strictObject({
  /** Omit to create; give to replace a saved comparison. */
  id: comparisonId.optional(),
  name: line(LIMITS.nameChars, 1),
  runIds: uniqueIds(runId, 1, LIMITS.runsPerReport, 'runs'),
  notes: notes.optional(),
});

// ---------------------------------------------------------------------------------------------
// The contract
// ---------------------------------------------------------------------------------------------

const returns = <T>(): Returns<T> => ({});

interface CallSpec {
  args: z.ZodType;
  result: Returns<unknown>;
  /** One line for docs, `gpulab --help` and error messages. */
  summary: string;
}

/**
 * Every call between renderer and main. The key is the channel name (IPC), the route
 * (`POST /api/<name>` in the browser mode) and the method path on `window.lab`.
 */
export const CONTRACT = {
  'runs.start': { args: runStartArgs, result: returns<{ runId: string }>(), summary: 'Queue a run of an experiment on a preset.' },
  'runs.check': {
    args: runCheckArgs,
    result: returns<RunCheck>(),
    summary: 'Whether runs.start would accept these arguments, without queuing anything: the estimated work, or the parameter and the reason it would be refused.',
  },
  'runs.list': { args: runListArgs, result: returns<RunPage>(), summary: 'Filter, sort and page the saved runs.' },
  'runs.get': {
    args: z.strictObject({
      id: runId,
      /**
       * false (default): the result without its per-access trace and the series that repeat it
       * (`result.traceInfo` describes them; `runs.trace` returns the trace). true: as stored.
       */
      full: z.boolean().default(false),
    }),
    result: returns<RunDetail>(),
    summary: 'One run with its preset snapshot, parameters and result (the trace apart unless full).',
  },
  'runs.trace': {
    args: z.strictObject({ id: runId }),
    result: returns<Trace | null>(),
    summary: "A done run's per-access trace (typed arrays), or null when it recorded none.",
  },
  'runs.cancel': {
    args: z.strictObject({ id: runId }),
    result: returns<{ cancelled: boolean }>(),
    summary: 'Cancel a queued or running run (false when it had already finished).',
  },
  'runs.update': { args: runUpdateArgs, result: returns<RunSummary>(), summary: "Change a run's title, tags or notes (nothing else ever changes)." },
  'runs.delete': {
    args: z.strictObject({ ids: uniqueIds(runId, 1, LIMITS.idsPerCall, 'runs') }),
    result: returns<{ deleted: number }>(),
    summary: 'Delete finished runs with their results.',
  },
  'presets.list': { args: noArgs, result: returns<PresetSummary[]>(), summary: 'Built-in and custom presets.' },
  'presets.get': { args: z.strictObject({ id: presetId }), result: returns<PresetRecord>(), summary: 'One preset, built-in or custom.' },
  'presets.saveCustom': {
    args: z.strictObject({ preset: boundedJson(LIMITS.presetJsonBytes, LIMITS.presetDepth) }),
    result: returns<PresetSummary>(),
    summary: "Save (or replace) a custom preset; refused with the validator's messages when invalid.",
  },
  'presets.deleteCustom': { args: z.strictObject({ id: presetId }), result: returns<{ deleted: boolean }>(), summary: 'Delete a custom preset.' },
  'experiments.list': { args: noArgs, result: returns<ExperimentInfo[]>(), summary: 'The experiments with their parameter schemas.' },
  'comparisons.save': { args: comparisonSaveArgs, result: returns<Comparison>(), summary: 'Create or replace a saved comparison of runs.' },
  'comparisons.list': { args: noArgs, result: returns<ComparisonSummary[]>(), summary: 'Saved comparisons, newest first.' },
  'comparisons.get': { args: z.strictObject({ id: comparisonId }), result: returns<Comparison>(), summary: 'One saved comparison.' },
  'comparisons.delete': { args: z.strictObject({ id: comparisonId }), result: returns<{ deleted: boolean }>(), summary: 'Delete a saved comparison (not its runs).' },
  'bundles.export': {
    args: z.strictObject({ runIds: uniqueIds(runId, 1, LIMITS.idsPerCall, 'runs') }),
    result: returns<FileResult>(),
    summary: 'Finished runs with their preset snapshots as one bundle file.',
  },
  'bundles.import': {
    args: z.strictObject({ bytes: bytes(LIMITS.bundleBytes) }),
    result: returns<BundleImportReport>(),
    summary: 'Import a bundle: all of it or (when refused) nothing.',
  },
  'exports.csv': {
    args: z.strictObject({ runIds: uniqueIds(runId, 1, LIMITS.runsPerReport, 'runs') }),
    result: returns<FileResult>(),
    summary: 'CSV of one run, or of several runs aligned on x.',
  },
  'exports.pdf': {
    /**
     * raw: append the runs' result tables and the paper values no finding matched (default off).
     * evidence: the full report, every chart and finding with its evidence (default off: a handout of about a page a run).
     */
    args: z.strictObject({ runIds: uniqueIds(runId, 1, LIMITS.runsPerReport, 'runs'), title: title.optional(), raw: z.boolean().optional(), evidence: z.boolean().optional() }),
    result: returns<FileResult>(),
    summary: 'PDF report of one or many runs: a summary with the verdicts, a handout page per run (every chart and the evidence on request), raw data on request.',
  },
  'reproduce.rows': {
    args: z.strictObject({
      /** "all", a paper ("MEI", "WONG") or a row id ("MEI-T3"). */
      selector: z.string().regex(/^[A-Za-z0-9-]{1,40}$/, 'use all, MEI, WONG or a row id').default('all'),
      /** Run every selected row on this preset instead of the rows' own presets. */
      preset: presetId.optional(),
      seed: seed.default(1),
    }),
    result: returns<RowResult[]>(),
    summary: "Reproduce the papers' rows and check them against the published values.",
  },
  'reproduce.cancel': {
    args: noArgs,
    result: returns<{ cancelled: boolean }>(),
    summary: 'Stop the scorecard running now (its reproduce.rows call is refused as cancelled); false when none runs.',
  },
  'reproduce.references': {
    args: z.strictObject({ runId }),
    result: returns<RunReferences>(),
    summary: "The papers' values beside a run's findings, matched and checked (no simulation).",
  },
  'app.version': { args: noArgs, result: returns<AppVersion>(), summary: 'Versions of the app, simulator, schema and runtime.' },
  'app.checkDatabase': { args: noArgs, result: returns<DatabaseCheck>(), summary: "The full integrity check of the database file: ok, or SQLite's problems and what to do." },
  // Sweeps: plans of many runs (src-main/sweep-contract.ts).
  ...SWEEP_CALLS,
  // Real GPUs: emitted programs, their outputs imported and run here (src-main/gpu-contract.ts).
  ...GPU_CALLS,
} as const satisfies Record<string, CallSpec>;

export type Contract = typeof CONTRACT;
export type CallName = keyof Contract;
export const CALL_NAMES = Object.keys(CONTRACT) as CallName[];
/** What a caller passes (defaults optional). */
export type ArgsOf<K extends CallName> = z.input<Contract[K]['args']>;
/** What a handler receives after `parseArgs` (defaults filled in, dates as ms). */
export type ParsedArgs<K extends CallName> = z.output<Contract[K]['args']>;
export type ResultOf<K extends CallName> = Contract[K]['result'] extends Returns<infer T> ? T : never;

export type RunStartArgs = ParsedArgs<'runs.start'>;
export type RunQuery = ParsedArgs<'runs.list'>;
export type RunUpdate = Omit<ParsedArgs<'runs.update'>, 'id'>;

// ---------------------------------------------------------------------------------------------
// Events (main -> renderer)
// ---------------------------------------------------------------------------------------------

export interface RunProgressEvent {
  runId: string;
  done: number;
  total: number;
  phase: string;
}
export interface RunFinishedEvent {
  runId: string;
  status: Exclude<RunStatus, 'queued' | 'running'>;
  error: string | null;
}
export interface QueueChangedEvent {
  /** In queue order. */
  queued: string[];
  running: string[];
}

/** The scorecard (reproduce.rows) is about to run step `done` of `total`: "LASH-F4 on fermi480". */
export interface ReproduceProgressEvent {
  done: number;
  total: number;
  phase: string;
}

export const EVENT_SCHEMAS = {
  'run.progress': z.strictObject({ runId, done: z.number().min(0), total: z.number().min(0), phase: line(200) }),
  'run.finished': z.strictObject({ runId, status: z.enum(['done', 'failed', 'cancelled', 'interrupted']), error: z.string().nullable() }),
  'queue.changed': z.strictObject({ queued: z.array(runId), running: z.array(runId) }),
  'reproduce.progress': z.strictObject({ done: z.number().min(0), total: z.number().min(0), phase: line(200) }),
  'gpu.progress': GPU_PROGRESS_SCHEMA,
} as const;

export interface LabEvents {
  'run.progress': RunProgressEvent;
  'run.finished': RunFinishedEvent;
  'queue.changed': QueueChangedEvent;
  'reproduce.progress': ReproduceProgressEvent;
  'gpu.progress': GpuProgressEvent;
}
export type EventName = keyof LabEvents;
export const EVENT_NAMES = Object.keys(EVENT_SCHEMAS) as EventName[];

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

// The errors are plain classes and types (contract-base.ts), so that a client can throw them without zod.
export { LabError, toErrorPayload } from './contract-base';
export type { LabErrorCode, LabErrorPayload } from './contract-base';
import { LabError } from './contract-base';

// ---------------------------------------------------------------------------------------------
// Validation gateway
// ---------------------------------------------------------------------------------------------

export function isCallName(name: unknown): name is CallName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(CONTRACT, name);
}

/**
 * Validates the argument of a call: the one gate for IPC, HTTP and CLI. `undefined` counts as `{}`.
 * Throws LabError('invalid-args') with every problem as `path: message`.
 */
export function parseArgs<K extends CallName>(name: K, input: unknown): ParsedArgs<K> {
  if (!isCallName(name)) throw new LabError('invalid-args', `unknown call "${String(name).slice(0, 60)}"`);
  const raw = input === undefined ? {} : input;
  const hostile = findHostileShape(raw);
  if (hostile) throw new LabError('invalid-args', `${name}: ${hostile}`);
  const parsed = CONTRACT[name].args.safeParse(raw);
  if (!parsed.success) {
    // A refusal meant for the user as it is (an imported file's, say) stands alone.
    const plain = parsed.error.issues.find((i) => i.code === 'custom' && (i.params as { plain?: unknown } | undefined)?.plain === true);
    if (plain) throw new LabError('invalid-args', plain.message);
    const lines = parsed.error.issues.slice(0, 10).map((i) => `${i.path.length ? i.path.join('.') : '(argument)'}: ${i.message}`);
    throw new LabError('invalid-args', `${name}: ${lines.join('; ')}`);
  }
  return parsed.data as ParsedArgs<K>;
}

/**
 * Why a value is not plain data, or null. Refuses what zod would accept or quietly repair: keys
 * that pollute prototypes (zod drops `__proto__` from records without a word), objects with a
 * foreign prototype, symbol keys, cycles, deep nesting, and more than `maxNodes` objects and arrays
 * (shared references are allowed, as structured clone makes them, but each visit counts, so a
 * small graph of shared references cannot expand into an endless walk).
 */
export function findHostileShape(value: unknown, maxNodes = 100_000): string | null {
  const ancestors = new Set<object>();
  const keys: (string | number)[] = [];
  const where = () => (keys.length ? keys.join('.') : '(argument)');
  let nodes = 0;
  const walk = (v: unknown): string | null => {
    if (v === null || typeof v !== 'object' || ArrayBuffer.isView(v)) return null;
    if (keys.length > LIMITS.argDepth) return `${where()} nests deeper than ${LIMITS.argDepth} levels`;
    if (ancestors.has(v)) return `${where()} refers to itself`;
    if (++nodes > maxNodes) return `the argument holds more than ${maxNodes} objects and arrays`;
    const isArray = Array.isArray(v);
    if (!isArray && !isPlainObject(v)) return `${where()} must be plain data`;
    ancestors.add(v);
    const own = isArray ? null : Reflect.ownKeys(v);
    const count = isArray ? v.length : own!.length;
    for (let i = 0; i < count; i++) {
      const key = isArray ? i : own![i];
      if (typeof key === 'symbol') return `${where()} has a symbol key`;
      keys.push(key);
      if (typeof key === 'string' && FORBIDDEN_KEYS.includes(key)) return `${where()}: the key "${key}" is not allowed`;
      const problem = walk((v as Record<string | number, unknown>)[key]);
      if (problem) return problem;
      keys.pop();
    }
    ancestors.delete(v);
    return null;
  };
  return walk(value);
}

// ---------------------------------------------------------------------------------------------
// The API object
// ---------------------------------------------------------------------------------------------

type NamespaceOf<K> = K extends `${infer NS}.${string}` ? NS : never;
export type Namespace = NamespaceOf<CallName>;

type Method<K extends CallName> =
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  {} extends ArgsOf<K> ? (args?: ArgsOf<K>) => Promise<ResultOf<K>> : (args: ArgsOf<K>) => Promise<ResultOf<K>>;

export type LabCalls = {
  [NS in Namespace]: { [K in CallName as K extends `${NS}.${infer M}` ? M : never]: Method<K> };
};

/** The shape of `window.lab`: `lab.runs.start({...})`, `lab.on('run.progress', ...)`. */
export interface LabApi extends LabCalls {
  /** Subscribes to an event; returns the unsubscribe function. */
  on<E extends EventName>(event: E, listener: (payload: LabEvents[E]) => void): () => void;
}

/**
 * Builds the namespaced call object from one transport function (the preload's ipcRenderer.invoke
 * wrapper, the browser mode's fetch wrapper, a test's direct dispatcher).
 */
export function buildCalls(invoke: (name: CallName, args: unknown) => Promise<unknown>): LabCalls {
  return buildCallsFrom<CallName, LabCalls>(CALL_NAMES, invoke);
}

/** Compile-time check: a stored result is an ExperimentResult (fails to compile otherwise). */
type Assert<T extends true> = T;
export type _StoredResultIsResult = Assert<StoredResult extends ExperimentResult ? true : false>;

export type { GpuEmitResult, GpuExperimentInfo, GpuImportResult, GpuJob, GpuPresetResult, GpuProgressEvent, GpuStatus } from './gpu-contract';
export type { MeasuredDevice } from '../src-sim/cuda/run-record';
