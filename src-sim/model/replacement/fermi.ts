import type { Draws } from './draws';

/**
 * The Fermi L1 data-cache policy read from MEI Fig 8: one "hot" way is replaced with probability
 * `hotProbability` (1/2), each other way with the rest shared uniformly (1/6 each of 4 ways). The
 * hot way is therefore refilled every two misses on average ("it is updated every two cache misses").
 */
export const FERMI_NAME = 'fermi';
export const FERMI_DESCRIPTION =
  'Fermi L1 (MEI Fig 8): one hot way replaced with probability 1/2, the others uniformly; not LRU, aperiodic.';

/** The reference form; Cache draws through PolicyDraws.fermiVictim, the same draws without branches. */
export function fermiVictim(rng: Draws, ways: number, hotWay: number, hotProbability: number): number {
  if (ways === 1) return 0;
  if (rng.next() < hotProbability) return hotWay;
  const other = rng.int(ways - 1);
  return other >= hotWay ? other + 1 : other;
}
