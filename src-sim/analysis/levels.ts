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

/**
 * Latency levels separated by what the data support. Each value comes with its standard error
 * (the scatter of its mean over the repeated accesses it averages: sample standard deviation over the
 * square root of the count); 0 for noise-free measurements, where any two distinct values are two
 * levels (two cycles apart is two levels), down to floating-point rounding.
 */
export interface SeparatedLevel extends LatencyLevel {
  /** Standard error of the level's mean latency, cycles (0: noise-free). */
  se: number;
}

export interface LevelGap {
  /** Distance between the two levels' means, cycles. */
  cycles: number;
  /** That distance in standard errors of the difference (Infinity when noise-free). */
  z: number;
  /** Two-sided confidence that the two levels differ (Gaussian tail of z). */
  confidence: number;
}

export interface LevelSeparation {
  levels: SeparatedLevel[];
  /** gaps[i] separates levels[i] and levels[i + 1]. */
  gaps: LevelGap[];
  /**
   * False when the data do not support the grouping: a level spreads wider than its members' noise
   * allows (levels closer than the noise merged), or two neighbouring levels are split by less than
   * `minZ` standard errors. `problem` then says which.
   */
  resolved: boolean;
  problem?: string;
}

/** Values closer than this (relative to their size, or 1e-9 cycles) are one value: floating-point rounding. */
const ROUNDING = 1e-9;

function roundingOf(v: number): number {
  return ROUNDING * Math.max(1, Math.abs(v));
}

/** Upper tail of the standard normal, both sides: P(|Z| > z) (Abramowitz-Stegun 7.1.26 for erfc). */
export function twoSidedTail(z: number): number {
  if (!Number.isFinite(z)) return 0;
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  return Math.min(1, poly * Math.exp(-x * x));
}

/** A confidence as text: "exact" without noise, else 1 - p with p to two significant digits. */
export function formatConfidence(z: number): string {
  if (!Number.isFinite(z)) return 'exact (no noise)';
  const p = twoSidedTail(z);
  if (p < 1e-15) return `${z.toFixed(1)} standard errors (p < 1e-15)`;
  return `${z.toFixed(1)} standard errors (p = ${p.toPrecision(2)})`;
}

/**
 * Splits sorted values wherever two neighbours differ by more than `splitZ` standard errors of their
 * difference (noise-free: by more than rounding), then checks the result against the noise: every
 * member within `spreadZ` standard errors of its level, neighbouring levels at least `minZ` apart.
 * `se` is one standard error for all values or one per value; NaN (unknown noise) leaves the levels
 * unresolved unless the values repeat exactly.
 */
export function separateLevels(
  values: ArrayLike<number>,
  se: number | ArrayLike<number>,
  options: { splitZ?: number; spreadZ?: number; minZ?: number } = {},
): LevelSeparation {
  const splitZ = options.splitZ ?? 4;
  const spreadZ = options.spreadZ ?? 4.5;
  const minZ = options.minZ ?? 6;
  const n = values.length;
  const seOf = (i: number): number => (typeof se === 'number' ? se : se[i]);
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => values[a] - values[b]);
  const unknownNoise = order.some((i) => Number.isNaN(seOf(i)));
  const levels: SeparatedLevel[] = [];
  const members: number[][] = [];
  let current: number[] = [];
  const close = (): void => {
    if (!current.length) return;
    const vs = current.map((i) => values[i]);
    const mean = vs.reduce((a, b) => a + b, 0) / vs.length;
    const seMean = Math.sqrt(current.reduce((a, i) => a + (seOf(i) || 0) ** 2, 0)) / current.length;
    levels.push({ latency: mean, min: Math.min(...vs), max: Math.max(...vs), count: vs.length, se: seMean });
    members.push(current);
    current = [];
  };
  for (let k = 0; k < n; k++) {
    const i = order[k];
    if (current.length) {
      const j = current[current.length - 1];
      const d = values[i] - values[j];
      const s = Math.hypot(seOf(i) || 0, seOf(j) || 0);
      if (d > Math.max(splitZ * s, roundingOf(values[i]))) close();
    }
    current.push(i);
  }
  close();
  const gaps: LevelGap[] = [];
  for (let k = 0; k + 1 < levels.length; k++) {
    const cycles = levels[k + 1].latency - levels[k].latency;
    const s = Math.hypot(levels[k].se, levels[k + 1].se);
    const z = s > 0 ? cycles / s : Infinity;
    gaps.push({ cycles, z, confidence: 1 - twoSidedTail(z) });
  }
  if (unknownNoise) {
    const repeats = levels.every((l) => l.max - l.min <= roundingOf(l.max));
    return repeats && levels.length < n
      ? { levels, gaps, resolved: true }
      : { levels, gaps, resolved: false, problem: 'the noise of the measurements is unknown (one access each): time more accesses per point' };
  }
  for (let k = 0; k < levels.length; k++) {
    const l = levels[k];
    const merged = {
      levels,
      gaps,
      resolved: false,
      problem: `the level near ${l.latency.toFixed(1)} cycles spreads from ${l.min.toFixed(1)} to ${l.max.toFixed(1)}, wider than its noise allows: levels closer than the noise may have merged`,
    };
    // Each member near the level, and all of them together no more scattered than their noise (chi-square).
    let chi2 = 0;
    let noisy = 0;
    for (const i of members[k]) {
      const s = seOf(i);
      const d = Math.abs(values[i] - l.latency);
      if (d > Math.max(spreadZ * s, roundingOf(l.latency))) return merged;
      if (s > 0) {
        chi2 += (d / s) ** 2;
        noisy++;
      }
    }
    const df = noisy - 1;
    if (df >= 2 && (chi2 - df) / Math.sqrt(2 * df) > spreadZ) return merged;
  }
  const weak = gaps.findIndex((g) => g.z < minZ);
  if (weak >= 0)
    return {
      levels,
      gaps,
      resolved: false,
      problem: `levels near ${levels[weak].latency.toFixed(1)} and ${levels[weak + 1].latency.toFixed(1)} cycles are only ${gaps[weak].z.toFixed(1)} standard errors apart (at least ${minZ} needed)`,
    };
  return { levels, gaps, resolved: true };
}

/** The levels and their separations as evidence text: "50, 52 (exact (no noise) above the previous), ...". */
export function describeLevels(sep: LevelSeparation, digits = 1): string {
  const parts = sep.levels.map((l, k) => (k === 0 ? l.latency.toFixed(digits) : `${l.latency.toFixed(digits)} (${formatConfidence(sep.gaps[k - 1].z)} above the previous)`));
  if (parts.length <= 12) return parts.join(', ');
  return [...parts.slice(0, 6), `... ${parts.length - 12} more`, ...parts.slice(-6)].join(', ');
}

/**
 * The period of a run of flags: q when flag i is set exactly for i = 0, q, 2q, ... (q >= 1), else
 * null; null too when fewer than two periods fit. A cold traversal at a stride below the unit a miss
 * brings in misses on every q-th access: q x stride is that unit (a sector or a line).
 */
export function flagPeriod(flags: readonly boolean[]): number | null {
  if (!flags[0]) return null;
  let q = 1;
  while (q < flags.length && !flags[q]) q++;
  if (q >= flags.length || 2 * q > flags.length) return null;
  for (let i = 0; i < flags.length; i++) if (flags[i] !== (i % q === 0)) return null;
  return q;
}
