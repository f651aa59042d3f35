/**
 * The memory bound of a preset: the simulator state (typed arrays of every cache and TLB model) it
 * asks for, and the refusal of one over the limit. Apart from the validator (validate.ts re-exports
 * it) so that the preset editor can check a draft as it is typed without the whole schema.
 */
import type { CacheLevelConfig } from '../model/path';
import type { Preset } from './types';

/** A problem of a preset: the dotted path it concerns and what is wrong (validate.ts PresetIssue). */
export interface StateIssue {
  path: string;
  message: string;
}

/**
 * Largest simulator state (typed arrays of every cache and TLB model) a preset may ask for. A
 * simulation process holds it in memory for the whole run; 512 MiB admits caches of several GB of
 * simulated capacity (a 1 GB L2 with 128 B lines is 256 MiB of state) and keeps a hostile or
 * mistyped custom preset from taking the machine's memory.
 */
export const MAX_STATE_BYTES = 512 * 1024 * 1024;
/** Bytes of model state per cache line (tag, LRU links, set of the slot, filter bucket: cache.ts). */
export const STATE_BYTES_PER_LINE = 32;
/** ... and per set (set base, ways, oldest, fill count, presence filter). */
export const STATE_BYTES_PER_SET = 16;

/** One cache of a preset and the model state it needs. */
export interface StateEntry {
  path: string;
  /** Lines of all its copies. */
  lines: number;
  /** Simulated capacity of all its copies (lines x line size). */
  capacity: number;
  /** Model state of all its copies. */
  bytes: number;
}

function stateOfGeometry(path: string, sets: number, lines: number, lineBytes: number, copies = 1): StateEntry {
  const bytes = (lines * STATE_BYTES_PER_LINE + sets * STATE_BYTES_PER_SET) * copies;
  return { path, lines: lines * copies, capacity: lines * lineBytes * copies, bytes };
}

/**
 * The simulator state a preset's caches and TLBs take, cache by cache: every level and TLB of every
 * memory space, every alternative L1 configuration, and the timing tier's L1 (one per SM) and L2
 * (per partition). Reads only numbers already checked by the schema; safe on any shape.
 */
export function presetStateEntries(preset: Preset): StateEntry[] {
  const out: StateEntry[] = [];
  const lvl = (path: string, level: CacheLevelConfig | undefined): void => {
    const g = level?.geometry;
    if (!g) return;
    const lines = Array.isArray(g.setWays) ? g.setWays.reduce((a, b) => a + b, 0) : g.sets * g.ways;
    out.push(stateOfGeometry(path, g.sets, lines, g.lineBytes));
  };
  for (const [space, p] of Object.entries(preset.spaces ?? {})) {
    if (!p) continue;
    p.levels.forEach((l, i) => lvl(`spaces.${space}.levels.${i}`, l));
    if (p.translation) {
      lvl(`spaces.${space}.translation.l1`, p.translation.l1);
      lvl(`spaces.${space}.translation.l2`, p.translation.l2);
    }
  }
  (preset.l1Configs ?? []).forEach((c, i) => lvl(`l1Configs.${i}`, { name: c.id, scope: 'sm', sizeBytes: c.sizeBytes, geometry: c.geometry }));
  const t = preset.timing;
  if (t) {
    if (t.l1) out.push(stateOfGeometry('timing.l1', t.l1.sets, t.l1.sets * t.l1.ways, t.l1.lineBytes, t.sms));
    out.push(stateOfGeometry('timing.l2', t.l2.sets, t.l2.sets * t.l2.ways, t.l2.lineBytes, t.l2.partitions));
  }
  return out;
}

/** Total bytes of simulator state a preset asks for (see presetStateEntries). */
export function presetStateBytes(preset: Preset): number {
  return presetStateEntries(preset).reduce((a, e) => a + e.bytes, 0);
}

const mib = (n: number): string => (n >= 1024 ** 3 ? `${+(n / 1024 ** 3).toFixed(2)} GB` : `${+(n / 1024 ** 2).toFixed(1)} MB`);

/** The refusal of a preset over the state limit, naming the size asked for, the limit and the largest cache; null within it. */
export function stateMemoryProblem(preset: Preset, limit = MAX_STATE_BYTES): StateIssue | null {
  const entries = presetStateEntries(preset);
  const total = entries.reduce((a, e) => a + e.bytes, 0);
  if (total <= limit) return null;
  const big = entries.reduce((a, e) => (e.bytes > a.bytes ? e : a));
  return {
    path: big.path,
    message: `the preset asks for ${mib(total)} of simulator memory, over the limit of ${mib(limit)}: ${big.path} alone is a ${mib(big.capacity)} cache of ${big.lines} lines (${mib(big.bytes)} to simulate); make it smaller`,
  };
}

