import { median } from './average-curve';

/** One block's clock() readings (WONG Fig 5): where it ran and the timestamps it read. */
export interface BlockStamp {
  launch: number;
  block: number;
  sm: number;
  /** The cluster the SM belongs to (3 SMs per TPC on GT200, WONG Table I). */
  tpc: number;
  start: number;
  end: number;
}

export type ClockScope = 'SM' | 'TPC' | 'chip' | 'unclear';

/**
 * Cost of clock() read off pairs of readings: `deltas[k]` is the difference between two clock() reads
 * with k independent operations between them. The overhead is the delta with none; the cost of one
 * operation is the median growth per added operation.
 */
export function clockCost(deltas: ArrayLike<number>): { overhead: number; perOp: number } {
  const growth: number[] = [];
  for (let k = 1; k < deltas.length; k++) growth.push(deltas[k] - deltas[k - 1]);
  return { overhead: deltas[0], perOp: growth.length ? median(growth) : NaN };
}

/**
 * WONG IV-A: which unit owns a clock register, from the start stamps of blocks launched together
 * (they start at about the same moment). One register per chip: every block of a launch reads about the
 * same start. One per TPC: blocks of one TPC agree, blocks of different TPCs do not. One per SM: blocks
 * on different SMs of one TPC already disagree.
 */
export function inferClockScope(stamps: readonly BlockStamp[], tolerance: number): ClockScope {
  const launches = new Map<number, BlockStamp[]>();
  for (const s of stamps) {
    const l = launches.get(s.launch) ?? [];
    l.push(s);
    launches.set(s.launch, l);
  }
  let chipWide = true;
  let withinTpc = true;
  let tpcPairs = 0;
  for (const blocks of launches.values()) {
    const starts = blocks.map((b) => b.start);
    if (Math.max(...starts) - Math.min(...starts) > tolerance) chipWide = false;
    const byTpc = new Map<number, BlockStamp[]>();
    for (const b of blocks) byTpc.set(b.tpc, [...(byTpc.get(b.tpc) ?? []), b]);
    for (const group of byTpc.values()) {
      if (new Set(group.map((b) => b.sm)).size < 2) continue;
      tpcPairs++;
      const st = group.map((b) => b.start);
      if (Math.max(...st) - Math.min(...st) > tolerance) withinTpc = false;
    }
  }
  if (chipWide) return 'chip';
  if (tpcPairs === 0) return 'unclear';
  return withinTpc ? 'TPC' : 'SM';
}

/**
 * WONG Fig 5: two launches are serialised when, on every clock the analyser can compare, the second
 * launch starts after the first has ended. Blocks that ran on one SM read one register whatever its
 * scope, so the comparison is made SM by SM.
 */
export function launchesSerialised(stamps: readonly BlockStamp[], first: number, second: number): boolean {
  const sms = new Set(stamps.map((s) => s.sm));
  let compared = 0;
  for (const sm of sms) {
    const a = stamps.filter((s) => s.sm === sm && s.launch === first);
    const b = stamps.filter((s) => s.sm === sm && s.launch === second);
    if (!a.length || !b.length) continue;
    compared++;
    if (Math.min(...b.map((s) => s.start)) < Math.max(...a.map((s) => s.end))) return false;
  }
  return compared > 0;
}
