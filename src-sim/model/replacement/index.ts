import { FERMI_DESCRIPTION } from './fermi';
import { FIFO_DESCRIPTION } from './fifo';
import { LIP_DESCRIPTION } from './lip';
import { LRU_DESCRIPTION } from './lru';
import { RANDOM_DESCRIPTION } from './random';

export { lruVictim } from './lru';
export { fifoVictim } from './fifo';
export { randomVictim } from './random';
export { fermiVictim } from './fermi';

export const POLICY_DESCRIPTIONS = {
  lru: LRU_DESCRIPTION,
  fifo: FIFO_DESCRIPTION,
  random: RANDOM_DESCRIPTION,
  fermi: FERMI_DESCRIPTION,
  lip: LIP_DESCRIPTION,
} as const;

/** Small integer codes the cache's hot loop switches on (no closures, no megamorphic calls). */
export const POLICY_CODE = { lru: 0, fifo: 1, random: 2, fermi: 3, lip: 4 } as const;
