/**
 * The contract's base: the types and constants that the call tables (contract.ts, gpu-contract.ts,
 * sweep-contract.ts) all use. It imports nothing of theirs, so the contract is one tree without
 * cycles: contract-base <- gpu-contract, sweep-contract <- contract (which re-exports all of it).
 */
import type { Preset } from '../src-sim/presets/types';

export const RUN_STATUSES = ['queued', 'running', 'done', 'failed', 'cancelled', 'interrupted'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export interface PresetSummary {
  id: string;
  name: string;
  device: string;
  generation: Preset['generation'];
  builtin: boolean;
  /** For custom presets: when saved last (ms). */
  updatedAt: number | null;
}

/** A file made by the main process, for the renderer to save (see the wire notes in contract.ts). */
export interface FileResult {
  /** A suggested name, without any directory. */
  fileName: string;
  mimeType: string;
  bytes: Uint8Array;
}

/** Phantom marker carrying a result type (no runtime value beyond a tag). */
export interface Returns<T> {
  readonly __result?: T;
}

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

export type LabErrorCode =
  | 'invalid-args'
  | 'not-found'
  | 'conflict'
  | 'immutable'
  | 'invalid-preset'
  | 'invalid-bundle'
  | 'database-too-new'
  | 'database-invalid'
  | 'internal'
  /** Transports only: the browser mode's token is missing or wrong. */
  | 'unauthorized'
  /** Transports only: the main process (the browser mode's server) cannot be reached. */
  | 'unreachable';

/** An error a user can act on; `code` survives the transports as `{ code, message }`. */
export class LabError extends Error {
  override name = 'LabError';
  constructor(
    readonly code: LabErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** The shape errors take on the wire. */
export interface LabErrorPayload {
  code: LabErrorCode;
  message: string;
}

export function toErrorPayload(err: unknown): LabErrorPayload {
  if (err instanceof LabError) return { code: err.code, message: err.message };
  return { code: 'internal', message: err instanceof Error ? err.message : String(err) };
}

/** `lab.<namespace>.<method>(args)` for each call name, each calling `invoke(name, args)` (T: the calls' type). */
export function buildCallsFrom<N extends string, T>(names: readonly N[], invoke: (name: N, args: unknown) => Promise<unknown>): T {
  const api: Record<string, Record<string, (args?: unknown) => Promise<unknown>>> = {};
  for (const name of names) {
    const [ns, method] = name.split('.') as [string, string];
    (api[ns] ??= {})[method] = (args?: unknown) => invoke(name, args ?? {});
  }
  return api as T;
}
