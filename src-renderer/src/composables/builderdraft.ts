/**
 * The builder's and the compare view's state for the session: module state, so that it outlives the
 * views (check the queue, come back, and the experiment, GPUs and parameters are still there). The
 * builder's last state also survives a reload (localStorage); a stored state that no longer fits
 * the catalogue (a removed experiment or preset) is dropped field by field when it is applied.
 */
import { reactive } from 'vue';
import type { FieldValue } from './params';

export interface BuilderDraft {
  experiment: string | null;
  /** The form's fields of that experiment, as typed. */
  fields: Record<string, FieldValue>;
  presets: string[];
  seed: string;
  title: string;
  tags: string;
}

const KEY = 'gpulab.builder.v1';

function initial(): BuilderDraft {
  return { experiment: null, fields: {}, presets: [], seed: '1', title: '', tags: '' };
}

function isDraft(v: unknown): v is BuilderDraft {
  if (!v || typeof v !== 'object') return false;
  const d = v as Record<string, unknown>;
  return (
    (d.experiment === null || typeof d.experiment === 'string') &&
    !!d.fields &&
    typeof d.fields === 'object' &&
    Object.values(d.fields as object).every((x) => typeof x === 'string' || typeof x === 'boolean') &&
    Array.isArray(d.presets) &&
    d.presets.every((p) => typeof p === 'string') &&
    typeof d.seed === 'string' &&
    typeof d.title === 'string' &&
    typeof d.tags === 'string'
  );
}

/** The builder state stored by the last session in this browser, or null (none, unreadable or malformed). */
export function loadStoredDraft(): BuilderDraft | null {
  try {
    const text = globalThis.localStorage?.getItem(KEY);
    if (!text) return null;
    const v: unknown = JSON.parse(text);
    return isDraft(v) ? v : null;
  } catch {
    return null;
  }
}

export const builderDraft = reactive<BuilderDraft>(loadStoredDraft() ?? initial());

/** Keeps the builder's state for the session and for the next one. */
export function saveBuilderDraft(d: BuilderDraft): void {
  Object.assign(builderDraft, { ...d, fields: { ...d.fields }, presets: [...d.presets] });
  try {
    globalThis.localStorage?.setItem(KEY, JSON.stringify(builderDraft));
  } catch {
    // A full or disabled storage keeps the state for this session only.
  }
}

/** Back to no state, in memory and stored (tests, and "Reset"). */
export function resetBuilderDraft(): void {
  Object.assign(builderDraft, initial());
  try {
    globalThis.localStorage?.removeItem(KEY);
  } catch {
    // nothing stored
  }
}

/** The compare view's last query (runs or a saved comparison) and the runs picked before comparing. */
export const compareDraft = reactive<{ query: Record<string, string> | null; picked: string[] }>({ query: null, picked: [] });
