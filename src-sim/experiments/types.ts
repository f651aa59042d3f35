import type { Preset } from '../presets/types';
import type { Finding, Series, Table, Trace } from '../results';

export type { Finding, Series, Table, Trace, TraceStart } from '../results';
export { MAX_TRACE_START } from '../results';

/** One parameter of an experiment: used by the CLI, the validator and (later) the builder forms. */
export type ParamSpec =
  | ({ kind: 'integer' | 'number'; default: number; min: number; max: number } & ParamBase)
  /** A size in bytes; accepts 4096, "4KB", "2 MB", "1.5GB". */
  | ({ kind: 'bytes'; default: number; min: number; max: number } & ParamBase)
  /** A list of sizes in bytes: "4,8,16" or "64B,128B". */
  | ({ kind: 'bytes-list'; default: number[]; min: number; max: number; maxItems: number } & ParamBase)
  | ({ kind: 'integer-list'; default: number[]; min: number; max: number; maxItems: number } & ParamBase)
  | ({ kind: 'enum'; default: string; options: readonly string[] } & ParamBase)
  | ({ kind: 'boolean'; default: boolean } & ParamBase)
  /** Free text of at most maxLength characters (a kernel's source); newlines allowed. */
  | ({ kind: 'text'; default: string; maxLength: number } & ParamBase);

interface ParamBase {
  name: string;
  label: string;
  unit: string;
  description: string;
}

export type ParamValue = number | string | boolean | number[];
export type ParamValues = Record<string, ParamValue>;
/** Parameters as a user gave them (strings from a form or the CLI, numbers, lists): every experiment resolves and validates them. */
export type RawParams = Record<string, unknown>;

export interface ExperimentResult {
  series: Series[];
  tables: Table[];
  findings: Finding[];
  notes: string[];
  trace?: Trace;
}

export type Progress = (done: number, total: number, phase: string) => void;

export interface Experiment {
  id: string;
  title: string;
  description: string;
  /** REPRODUCTION.md row ids and paper figures this experiment reproduces. */
  reproduces: string[];
  params: ParamSpec[];
  /** Estimated simulated accesses for the given parameters (for progress and limits). */
  estimate(preset: Preset, params: RawParams): number;
  /** Pure: no I/O, deterministic for (preset, params, seed). Throws ExperimentError on bad input. */
  run(preset: Preset, params: RawParams, seed: number, progress: Progress): ExperimentResult;
  /**
   * The checks of run() that need the preset (a TPC it has, a memory space, a stride within the
   * array, threads an SM holds), without simulating: a run is refused before it is queued rather
   * than stored as failed. Throws ExperimentError as run() would; run() makes the same checks.
   */
  check?(preset: Preset, params: ParamValues): void;
}

/** A user-facing error: bad parameter, unsupported space on a preset, too much work. */
export class ExperimentError extends Error {
  constructor(
    message: string,
    readonly param?: string,
  ) {
    super(message);
    this.name = 'ExperimentError';
  }
}

/** Simulated accesses one run may perform; beyond it the user is told to shrink the sweep. */
export const MAX_ACCESSES = 400_000_000;
/** Accesses a stored trace may hold (about 40 bytes each: well under 512 MiB). */
export const MAX_TRACE = 2_000_000;
