/** Least recently used: the way with the oldest use stamp is evicted; a hit refreshes the stamp. */
export const LRU_NAME = 'lru';
export const LRU_DESCRIPTION = 'Least recently used: evicts the line whose last access is oldest.';

export function lruVictim(stamp: Float64Array, base: number, ways: number): number {
  let victim = 0;
  let oldest = stamp[base];
  for (let w = 1; w < ways; w++) {
    const s = stamp[base + w];
    if (s < oldest) {
      oldest = s;
      victim = w;
    }
  }
  return victim;
}
