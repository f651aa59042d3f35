import type { Rng } from '../../rng';

/** Seeded random: a uniformly chosen way is evicted. */
export const RANDOM_NAME = 'random';
export const RANDOM_DESCRIPTION = 'Random (seeded): evicts a uniformly chosen way.';

export function randomVictim(rng: Rng, ways: number): number {
  return rng.int(ways);
}
