/**
 * Latency levels: the distinct latencies a set of measurements falls into (plateaus of a P-chase,
 * the patterns of a fine-grained trace, bank-conflict degrees). Measurements only.
 */

export interface LatencyLevel {
  /** Mean latency of the members, cycles. */
  latency: number;
  min: number;
  max: number;
  count: number;
}

/**
 * Groups latencies into levels: sorted values are split wherever two neighbours differ by more than
 * `minGap` cycles. Levels closer together than the measurement jitter cannot be told apart; choose
 * `minGap` above the jitter (the default suits jitter-free runs and the papers' 6-cycle steps).
 */
export function latencyLevels(values: ArrayLike<number>, minGap = 3): LatencyLevel[] {
  const n = values.length;
  if (n === 0) return [];
  const sorted = Float64Array.from(values).sort();
  const levels: LatencyLevel[] = [];
  let start = 0;
  let sum = sorted[0];
  for (let i = 1; i <= n; i++) {
    if (i === n || sorted[i] - sorted[i - 1] > minGap) {
      levels.push({ latency: sum / (i - start), min: sorted[start], max: sorted[i - 1], count: i - start });
      if (i < n) {
        start = i;
        sum = sorted[i];
      }
    } else sum += sorted[i];
  }
  return levels;
}

/** Index of the level a latency belongs to (nearest level by range), for classifying a trace. */
export function levelOf(levels: readonly { min: number; max: number }[], v: number): number {
  let best = 0;
  let bestD = Infinity;
  for (let i = 0; i < levels.length; i++) {
    const l = levels[i];
    const d = v < l.min ? l.min - v : v > l.max ? v - l.max : 0;
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

/** The most populated level: what a curve or trace mostly shows. */
export function dominantLevel(levels: readonly LatencyLevel[]): LatencyLevel | undefined {
  let best: LatencyLevel | undefined;
  for (const l of levels) if (!best || l.count > best.count) best = l;
  return best;
}
