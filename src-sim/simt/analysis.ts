/**
 * WONG Figs 7 and 8 read from clock() stamps alone: each thread of a 32-way divergent warp stamped
 * clock() when its path started and when it ended (start[tid], stop[tid]); nothing else of the run
 * is looked at.
 */
export interface DivergenceAnalysis {
  /** Within every warp, no two paths overlap in time (each starts after the previous one ended). */
  serialised: boolean;
  /** Every pair of warps ran at overlapping times; null with one warp. */
  warpsOverlap: boolean | null;
  /** Per warp, its lanes in the order their paths started. */
  order: number[][];
  /** Lane whose path ran first and last in warp 0. */
  first: number;
  last: number;
  /** In every warp the paths ran in the reverse of the if / else-if chain's order c: each branch's taken (else) path first. */
  takenFirst: boolean;
  /** Median cycles of one path (stop - start) and median gap between consecutive paths of a warp. */
  pathCycles: number;
  gapCycles: number;
}

function median(v: number[]): number {
  if (v.length === 0) return 0;
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function analyseDivergence(start: ArrayLike<number>, stop: ArrayLike<number>, warps: number, c: readonly number[]): DivergenceAnalysis {
  const order: number[][] = [];
  let serialised = true;
  const durations: number[] = [];
  const gaps: number[] = [];
  const spans: [number, number][] = [];
  for (let w = 0; w < warps; w++) {
    const lanes = Array.from({ length: 32 }, (_, l) => l).sort((a, b) => start[w * 32 + a] - start[w * 32 + b] || a - b);
    order.push(lanes);
    for (let k = 0; k < 32; k++) {
      const t = w * 32 + lanes[k];
      durations.push(stop[t] - start[t]);
      if (k > 0) {
        const p = w * 32 + lanes[k - 1];
        gaps.push(start[t] - stop[p]);
        if (start[t] < stop[p]) serialised = false;
      }
    }
    spans.push([start[w * 32 + lanes[0]], stop[w * 32 + lanes[31]]]);
  }
  let warpsOverlap: boolean | null = null;
  if (warps > 1) {
    warpsOverlap = true;
    for (let a = 0; a < warps; a++)
      for (let b = a + 1; b < warps; b++) if (!(spans[a][0] < spans[b][1] && spans[b][0] < spans[a][1])) warpsOverlap = false;
  }
  const reversed = [...c].reverse();
  const takenFirst = order.every((lanes) => lanes.every((l, k) => l === reversed[k]));
  return {
    serialised,
    warpsOverlap,
    order,
    first: order[0][0],
    last: order[0][31],
    takenFirst,
    pathCycles: median(durations),
    gapCycles: median(gaps),
  };
}
