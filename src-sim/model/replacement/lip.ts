/**
 * LRU-insertion policy (LIP): the victim is the least recently used line, as under LRU, but a line
 * that replaces another is inserted at the least-recently-used position instead of the most recently
 * used one; a hit moves a line to the most-recently-used position. While a set still has an invalid
 * way a miss fills it and the line becomes the newest (as under LRU). Once a set is full, consecutive
 * misses of the set therefore replace the same way, and a line that is reused climbs out of reach of
 * the misses: a cyclic scan a little larger than the cache misses only on its overflow, and a sparse
 * access after a large array evicts one line of its set.
 *
 * This is the model's reading of JIA18 §3.1.2 (the Volta V100 L1 data cache): "When the L1 data cache
 * saturates, Volta replaces the same four cache lines first. These four cache lines are from
 * different cache sets" (the L1 has 4 sets); the lines have "different priorities for preservation",
 * the same four having the lowest; and the policy "better preserves large arrays from being evicted
 * by sparse memory accesses" than LRU. The paper names no policy; LRU insertion is the simplest one
 * with the behaviour it reports.
 */
export const LIP_NAME = 'lip';
export const LIP_DESCRIPTION =
  'LRU insertion (the model\'s reading of JIA18 §3.1.2, Volta L1): once a set is full a new line takes the least-recently-used place, so the same line of each set is replaced first; hits make a line the newest.';
