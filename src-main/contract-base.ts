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
