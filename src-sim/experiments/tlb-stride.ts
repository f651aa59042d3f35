import type { Preset } from '../presets/types';
import type { ParamValues } from './types';

const KB = 1024;
const MB = 1024 * KB;

/**
 * The element stride of a tlb-probes run (its `stride` parameter, 0 meaning the papers' stride for the
 * preset: 512 KB on Tesla global memory, 256 KB on Tesla texture, 2 MB on Fermi and Kepler). Its own
 * module so that the run view can read it without loading the experiment.
 */
export function tlbProbeStride(preset: Preset, params: ParamValues): number {
  const tesla = preset.generation === 'Tesla';
  const auto = tesla ? (params.space === 'texture' ? 256 * KB : 512 * KB) : 2 * MB;
  return (params.stride as number) || auto;
}
