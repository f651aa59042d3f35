import type { Preset } from '../presets/types';
import type { Finding, Series, Table } from '../results';

export type { Finding, Series, Table } from '../results';

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

/** A per-access trace of a fine-grained P-chase (bounded: see MAX_TRACE). */
export interface Trace {
  /** Byte address of each access. */
  address: Float64Array;
  /** Measured latency of each access, cycles. */
  latency: Float64Array;
  /** Index (0-based) of the level that served it; levels.length = memory. */
  level: Uint8Array;
  /** TLB outcome code of each access: 0 none, 1 L1 TLB hit, 2 L2 TLB hit, 3 miss, 4 inactive page window. */
  tlb: Uint8Array;
  /** Set and way of the first cache level touched, and the line number it evicted (-1 none). */
  set: Int32Array;
  way: Int32Array;
  evicted: Float64Array;
  levelNames: string[];
  /** Accesses run but not recorded (trace bounded); 0 when complete. */
  dropped: number;
}

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
