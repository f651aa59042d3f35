/**
 * The two cache models agree where both apply: the latency tier's Cache (src-sim/model/cache.ts) and
 * the timing tier's TagArray (src-sim/timing/tcache.ts), on the geometries both serve (bit-selected
 * sets, LRU or FIFO) and the accesses both serve (a miss fills at once: the timing tier's reserved
 * lines only arise with fills outstanding, which the latency tier never has). Access by access, the
 * same hits and misses and the same line evicted.
 */
import { describe, expect, it } from 'vitest';
import { Cache } from '../../src-sim/model/cache';
import type { CacheGeometry } from '../../src-sim/model/types';
import { TagArray, VALID } from '../../src-sim/timing/tcache';
import { mixedTrace } from './access-trace';

/** The timing tier's lookup of one line, its miss filled at once; the evicted line or -1, and whether it hit. */
function timingAccess(t: TagArray, line: number): { hit: boolean; evicted: number } {
  const slot = t.find(line);
  if (slot >= 0) {
    t.touch(slot);
    return { hit: true, evicted: -1 };
  }
  const v = t.victim(line);
  const evicted = t.tags[v]!;
  t.install(v, line, VALID, 0);
  return { hit: false, evicted };
}


const shapes: [string, number, number, number][] = [
  ['Fermi L1, 32 x 4 x 128 B', 32, 4, 128],
  ['Fermi L1 of 48 KB, 64 x 6 x 128 B', 64, 6, 128],
  ['an L2 slice, 64 x 8 x 128 B', 64, 8, 128],
  ['direct mapped, 64 x 1 x 32 B', 64, 1, 32],
  ['fully associative, 1 x 16 x 64 B', 1, 16, 64],
];

describe("the latency tier's Cache and the timing tier's TagArray", () => {
  for (const policy of ['lru', 'fifo'] as const)
    for (const [name, sets, ways, lineBytes] of shapes)
      it(`${policy}, ${name}: the same hits, misses and evictions access by access`, () => {
        const g: CacheGeometry = { lineBytes, sets, ways, index: { kind: 'bits' }, policy: { kind: policy } };
        const latency = new Cache(g, 7);
        const timing = new TagArray(sets, ways, policy);
        let misses = 0;
        let differ = 0;
        let evictionsDiffer = 0;
        for (const a of mixedTrace(sets * 131 + ways, 30_000, 3 * sets * ways * lineBytes)) {
          const hit = latency.access(a);
          const t = timingAccess(timing, Math.floor(a / lineBytes));
          if (hit !== t.hit) differ++;
          else if (!hit && latency.lastEvicted !== t.evicted) evictionsDiffer++;
          if (!hit) misses++;
        }
        expect(misses).toBeGreaterThan(2_000); // replacement is exercised, not only hits
        expect(differ).toBe(0);
        expect(evictionsDiffer).toBe(0);
      });
});
