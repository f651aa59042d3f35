/**
 * Unequal sets (MEI Fig 10): entry slot r = lineNo mod totalEntries is dealt round-robin over the
 * sets that still have room, so with sets of [17, 8, 8, 8, 8, 8, 8] slots 0..55 go round-robin and
 * slots 56..64 to the big set. Consecutive lines beyond the capacity then land in set 0, 1, 2, ...
 */
export const INTERLEAVE_DESCRIPTION =
  'Unequal sets: line number modulo the total entries, dealt round-robin over the sets with room left.';

export function interleaveTable(setWays: readonly number[]): Int32Array {
  const total = setWays.reduce((a, b) => a + b, 0);
  const table = new Int32Array(total);
  const left = setWays.slice();
  let r = 0;
  while (r < total) {
    for (let s = 0; s < left.length && r < total; s++) {
      if (left[s] > 0) {
        table[r++] = s;
        left[s]--;
      }
    }
  }
  return table;
}
