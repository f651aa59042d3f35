import type { PathConfig } from '../model/path';
import type { Preset } from './types';

/** The value of an `l1Config` parameter that keeps the preset's own L1. */
export const DEFAULT_L1_CONFIG = 'default';

/**
 * Every L1 configuration id a built-in preset offers (Fermi's 48 KB L1; the carveouts of Volta,
 * Turing, Ampere and Hopper, each named by its L1 size), the choices of the `l1Config` parameter.
 * tests/unit/modern-presets.test.ts holds it equal to the presets' own lists.
 */
export const L1_CONFIG_IDS: readonly string[] = [
  DEFAULT_L1_CONFIG,
  ...[28, 32, 48, 60, 64, 92, 96, 112, 120, 124, 128, 156, 160, 176, 184, 192, 224, 240, 248, 256].map((kb) => `${kb}KB`),
];

function swapL1(path: PathConfig, cfg: NonNullable<Preset['l1Configs']>[number]): PathConfig {
  const first = path.levels[0];
  if (!first || first.scope !== 'sm') return path;
  return { ...path, levels: [{ ...first, sizeBytes: cfg.sizeBytes, geometry: cfg.geometry }, ...path.levels.slice(1)] };
}

/**
 * The preset with its global paths' SM-scoped L1 replaced by the named configuration (MEI 4.1:
 * Fermi's L1 can be 16 KB or 48 KB). Returns the preset itself for "default"; throws a message
 * listing the configurations the preset has when the id is unknown.
 */
export function withL1Config(preset: Preset, id: string): Preset {
  if (id === DEFAULT_L1_CONFIG) return preset;
  const cfg = preset.l1Configs?.find((c) => c.id === id);
  if (!cfg) {
    const known = [DEFAULT_L1_CONFIG, ...(preset.l1Configs ?? []).map((c) => c.id)].join(', ');
    throw new Error(`${preset.name} has no L1 configuration "${id}"; it has: ${known}`);
  }
  const spaces = { ...preset.spaces, global: swapL1(preset.spaces.global, cfg) };
  if (preset.spaces['global-cg']) spaces['global-cg'] = swapL1(preset.spaces['global-cg'], cfg);
  const shared = cfg.sharedBytes ? { ...preset.shared, sizeBytes: cfg.sharedBytes } : preset.shared;
  return { ...preset, shared, spaces };
}
