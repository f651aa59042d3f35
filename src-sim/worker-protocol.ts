/**
 * The messages between a simulation process (src-sim/worker.ts) and its owner
 * (src-main/services/pool/sim-process.ts). Types only, plus one shape check: the pool imports this
 * file without pulling in the worker.
 *
 * Transport: structured clone (Electron's utilityProcess, or child_process.fork with
 * `serialization: 'advanced'`), so typed arrays in a result arrive as typed arrays.
 *
 * A run is synchronous inside the worker, so a worker cannot react to messages while it runs:
 * cancelling (and the time limit) is the owner killing the process.
 */
import type { ExperimentResult, ParamValues } from './experiments/types';
import type { Preset } from './presets/types';
import type { RowResult } from './reference/types';

/** Owner -> worker: run one experiment. */
export interface RunRequest {
  type: 'run';
  runId: string;
  experiment: string;
  /** The full preset (a snapshot), not an id: custom presets run the same way as built-in ones. */
  preset: Preset;
  /** Resolved parameters (the owner validated them before queuing). */
  params: ParamValues;
  seed: number;
}

/**
 * Owner -> worker: reproduce the papers' rows (the scorecard; src-sim/reference reproduce).
 * `runId` names the request in the answers as for a run; progress comes per (row, preset).
 */
export interface RowsRequest {
  type: 'rows';
  runId: string;
  /** "all", a paper or a row id (the owner checked it). */
  selector: string;
  /** Every row on this preset (a snapshot) instead of the rows' own presets. */
  preset?: Preset;
  seed: number;
}

export type WorkerRequest = RunRequest | RowsRequest;

/** Worker -> owner: the worker is listening (sent once, after start-up). */
export interface ReadyMessage {
  type: 'ready';
  /** Experiments this worker can run (the test-only ones included when enabled). */
  experiments: string[];
}

/** Worker -> owner: progress of the current run (throttled by the worker to about 10 a second). */
export interface ProgressMessage {
  type: 'progress';
  runId: string;
  done: number;
  total: number;
  phase: string;
}

/** Worker -> owner: the run finished. */
export interface ResultMessage {
  type: 'result';
  runId: string;
  result: ExperimentResult;
  /** Time spent in the experiment's run(), milliseconds, measured inside the worker. */
  elapsedMs: number;
}

/** Worker -> owner: the rows of a RowsRequest, measured. */
export interface RowsResultMessage {
  type: 'rows-result';
  runId: string;
  rows: RowResult[];
  elapsedMs: number;
}

/** Worker -> owner: the run threw. The worker goes on serving runs. */
export interface ErrorMessage {
  type: 'error';
  runId: string;
  message: string;
  /** The parameter an ExperimentError names. */
  param?: string;
  /** 'ExperimentError' for a user-facing error; otherwise the error's name (an internal fault). */
  name: string;
  stack?: string;
}

export type WorkerMessage = ReadyMessage | ProgressMessage | ResultMessage | RowsResultMessage | ErrorMessage;

/** Set to "1" in a worker's environment to register the test-only experiments (src-sim/worker-test-experiments.ts). */
export const TEST_EXPERIMENTS_ENV = 'GPULAB_TEST_EXPERIMENTS';

/** A cheap shape check of what arrives from a worker (the owner ignores anything else). */
export function isWorkerMessage(m: unknown): m is WorkerMessage {
  if (typeof m !== 'object' || m === null) return false;
  const o = m as Record<string, unknown>;
  switch (o.type) {
    case 'ready':
      return Array.isArray(o.experiments);
    case 'progress':
      return typeof o.runId === 'string' && typeof o.done === 'number' && typeof o.total === 'number' && typeof o.phase === 'string';
    case 'result':
      return typeof o.runId === 'string' && typeof o.result === 'object' && o.result !== null && typeof o.elapsedMs === 'number';
    case 'rows-result':
      return typeof o.runId === 'string' && Array.isArray(o.rows) && typeof o.elapsedMs === 'number';
    case 'error':
      return typeof o.runId === 'string' && typeof o.message === 'string' && typeof o.name === 'string';
    default:
      return false;
  }
}
