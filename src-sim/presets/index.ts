import { fermi } from './fermi';
import { fermi480 } from './fermi480';
import { kepler } from './kepler';
import { tesla } from './tesla';
import { titan } from './titan';
import { volta } from './volta';
import { turing } from './turing';
import { ampere } from './ampere';
import { h200, hopper } from './hopper';
import type { Preset } from './types';

export type { Preset, SpaceId } from './types';
export { SPACE_IDS } from './types';

/** The built-in simulated GPUs, in generation order. */
export const PRESETS: readonly Preset[] = [tesla, fermi, fermi480, kepler, titan, volta, turing, ampere, hopper, h200];

export function findPreset(id: string): Preset | undefined {
  return PRESETS.find((p) => p.id === id);
}
