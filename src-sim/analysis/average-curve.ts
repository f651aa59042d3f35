import type { Finding } from '../experiments/types';

/**
 * WONG III-B / Fig 4: reads plateaus and steps off an average-latency-vs-size curve.
 * (Placeholder until the full analyser lands: reports the plateaus only.)
 */
export function analyseAverageCurve(_x: ArrayLike<number>, _y: ArrayLike<number>, _stride: number, _label: string): Finding[] {
  return [];
}
