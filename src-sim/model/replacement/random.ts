import type { Draws } from './draws';

/** Seeded random: a uniformly chosen way is evicted. */
export const RANDOM_NAME = 'random';
export const RANDOM_DESCRIPTION = 'Random (seeded): evicts a uniformly chosen way.';

export function randomVictim(rng: Draws, ways: number): number {
  return rng.int(ways);
}
