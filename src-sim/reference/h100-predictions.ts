import { hopper } from '../presets/hopper';
import type { Preset } from '../presets/types';
import { provenanceOf } from '../presets/provenance';

/**
 * What the Hopper preset predicts for a real H100, quantity by quantity, for holding against runs on
 * one (reproduction rows of kind 'predicted'). The preset was built from LUO24, NVIDIA's documents
 * and stated assumptions, never from runs on an H100; each entry names the preset field its value
 * comes from (`path`, a dotted path into the preset) and that field's source (the preset's own
 * provenance). Read-only data: the values are computed from the preset here, never typed twice.
 */
export interface H100Prediction {
  /** Short name of the quantity, e.g. "L1 hit latency". */
  quantity: string;
  value: number;
  unit: 'cycles' | 'B' | 'cycles per way';
  /** Dotted path of the preset field that holds it (e.g. "spaces.global.latency.L1/-"). */
  path: string;
  /** The provenance of that field in the preset: paper and table, NVIDIA document, or "assumed: why". */
  source: string;
  /** The carveout it applies to (an `l1Config` id), where it depends on one. */
  l1Config?: string;
}

/** The provenance that covers a dotted path (the longest matching prefix, as the validator reads it). */
function sourceOf(preset: Preset, path: string): string {
  return provenanceOf(path, preset.provenance)?.text ?? '(no provenance)';
}

function read(preset: Preset, path: string): number {
  // Latency keys contain '/', never '.': split on '.' only.
  let cur: unknown = preset;
  for (const part of path.split('.')) cur = (cur as Record<string, unknown>)[part];
  if (typeof cur !== 'number') throw new Error(`${path} is not a number in ${preset.id}`);
  return cur;
}

function predictionsOf(preset: Preset): H100Prediction[] {
  const one = (quantity: string, path: string, unit: H100Prediction['unit'], l1Config?: string): H100Prediction => ({
    quantity,
    value: read(preset, path),
    unit,
    path,
    source: sourceOf(preset, path),
    ...(l1Config ? { l1Config } : {}),
  });
  const out: H100Prediction[] = [
    one('L1 hit latency', 'spaces.global.latency.L1/-', 'cycles'),
    one('L2 hit latency', 'spaces.global.latency.L2/l1', 'cycles'),
    one('DRAM latency', 'spaces.global.latency.memory/l1', 'cycles'),
    one('L1 capacity (default carveout)', 'spaces.global.levels.0.sizeBytes', 'B', 'default'),
  ];
  (preset.l1Configs ?? []).forEach((c, i) => out.push(one(`L1 capacity at the ${c.id} carveout`, `l1Configs.${i}.sizeBytes`, 'B', c.id)));
  out.push(
    one('L1 line size', 'spaces.global.levels.0.geometry.lineBytes', 'B'),
    one('L1 sector size', 'spaces.global.levels.0.geometry.sectorBytes', 'B'),
    one('L2 line size', 'spaces.global.levels.1.geometry.lineBytes', 'B'),
    one('L2 sector size', 'spaces.global.levels.1.geometry.sectorBytes', 'B'),
    one('L2 size', 'spaces.global.levels.1.sizeBytes', 'B'),
    one('shared memory latency', 'shared.latency.base', 'cycles'),
    one('shared memory cost per further conflict way', 'shared.latency.perConflict', 'cycles per way'),
    one('L1 TLB reach', 'spaces.global.translation.l1.sizeBytes', 'B'),
    one('L1 TLB entry (page) size', 'spaces.global.translation.l1.geometry.lineBytes', 'B'),
  );
  return out;
}

/** The Hopper preset's predictions for a real H100 (see H100Prediction). */
export const H100_PREDICTIONS: readonly H100Prediction[] = predictionsOf(hopper);
