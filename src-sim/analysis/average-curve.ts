import type { Finding } from '../results';
import { xorSet } from '../model/index/xor';
import { cannotTell } from './cannot-tell';

/**
 * WONG III-B / Fig 4: reads cache structure off an average-latency-vs-array-size curve, the way the
 * paper reads its plots. It sees the curve only (sizes x in bytes, average latencies y in cycles, and the
 * stride the benchmark used); never a preset or a geometry.
 *
 * How an LRU set-associative cache of size C, line b, S sets and a ways shows on a stride-s curve:
 *  - while N <= C every access hits: a flat plateau; C is the last N before the rise;
 *  - past C the sets overflow one after another, each overflowing set missing on every visit, so the
 *    latency rises in steps until N = C + C/a (one way more): the rising region is one way wide;
 *  - with s < b each step begins where N crosses a line boundary: the steps are b apart, and there are
 *    S of them (Fig 4: four steps of 32 B for a 4-set, 32 B-line cache); with s >= b every sample rises
 *    and the line size is not visible (it is at most s);
 *  - ways = C / (width of the rising region), needing neither b nor S.
 * With s < b the curve past the region is not perfectly flat: each new line adds one miss, a sawtooth
 * whose rises are 1/(a+1) of a step's. Steps are therefore grouped by size, and a group whose net rise
 * is no real level change (a sawtooth, noise) is discarded. Direct-mapped caches (a = 1) read with
 * s < b are outside what this separates. A cache that is not LRU climbs irregularly past its size: the
 * size is still read, the region is flagged irregular and no line size or ways are claimed; the slow
 * creep that follows such a climb (and a climb cut in two by a noisy pause) stays part of it, so it is
 * not read as further levels (see analyseCurve).
 *
 * analyseCurve finds the plateaus and rises; the findings come from readCurve (below), which checks
 * each of WONG's readings on the curve (LRU geometries fitted to the rise, flat plateaus, the noise)
 * and says "cannot tell" with the reason where they do not hold. readHierarchy combines the curves of
 * several strides. The staircase numbers above are read directly for curves no data chase makes
 * (staircaseFindings), each checked for what it assumes (steps the sweep resolves, quiet plateaus,
 * rises a second sweep does not move) and "cannot tell" where that fails.
 */

/** A flat stretch of the curve: one latency level. */
export interface Plateau {
  /** Index range [from, to] of the points, inclusive. */
  from: number;
  to: number;
  xFrom: number;
  xTo: number;
  /** Median latency of its points (robust to jitter and to the sub-line sawtooth). */
  latency: number;
}

/** One rising region: the overflow of one cache level. */
export interface Ramp {
  /** Indices i of the steps: the curve rises between x[i] and x[i+1]. */
  steps: number[];
  /** Rise of each step, cycles. */
  rises: number[];
  /** Last size before the first step: the cache size as seen with this stride. */
  sizeBytes: number;
  /** Distance between consecutive steps (median), bytes. */
  spacing: number;
  /** Width of the rising region: steps x spacing, bytes (one way of the cache when complete). */
  widthBytes: number;
  /** Net latency increase across the region, cycles. */
  netRise: number;
  /** True when a quiet stretch follows the last step; false when the sweep ends inside the region or the
   *  curve keeps climbing (the width and ways are then unknown). */
  complete: boolean;
  /**
   * True for the staircase of an LRU cache (WONG Fig 4): the curve does not fall between its steps by
   * more than half a step, and the steps sit whole spacings apart. A cache that is not LRU (random,
   * Fermi's policy) climbs with falls in between; its line size and ways are then not read.
   */
  regular: boolean;
  /** Line size, when the steps are further apart than both the sampling step and the stride. */
  lineBytes?: number;
  /** Number of sets (= number of steps), when the line size is visible. */
  sets?: number;
  /** Associativity: size / width, when the region is complete and regular and the ratio is whole. */
  ways?: number;
}

export interface CurveAnalysis {
  /** Estimated noise of one point (cycles, robust standard deviation). */
  noise: number;
  /** Smallest rise counted as a step. */
  threshold: number;
  /** Sampling step of x (median), bytes. */
  dx: number;
  plateaus: Plateau[];
  ramps: Ramp[];
  /** The curve itself and its stride, for the checks of readCurve. */
  x: Float64Array;
  y: Float64Array;
  stride: number;
  loads?: (N: number) => number;
  /** Points by which a rise's first step may miss its onset (rises found on a smoothed curve). */
  onsetSlack?: number;
  /** Cycles within which two latencies of a noise-free curve are the same reading (CurveOptions.resolution). */
  resolution?: number;
}

export interface CurveOptions {
  /** Steps are at least this many noise standard deviations of a difference (default 4). */
  sigmas?: number;
  /** A step joins a region when its rise is within [1/ratio, ratio] of the region's recent steps (default 2.5). */
  ratio?: number;
  /** Timed loads of the point of array size N (after one untimed traversal), when the caller knows them: the LRU fits then use every point. */
  loads?: (N: number) => number;
  /**
   * Cycles within which two latencies of a noise-free curve are the same reading (default 0: only
   * equal values). A measured curve's: its plateau may drift by thousandths of a cycle from size to
   * size (a fixed start-up cost over more loads) without a single miss.
   */
  resolution?: number;
}

export function median(values: ArrayLike<number>): number {
  const n = values.length;
  if (n === 0) return NaN;
  const a = Float64Array.from(values).sort();
  return n % 2 ? a[(n - 1) >> 1] : (a[n / 2 - 1] + a[n / 2]) / 2;
}

/** Robust spread: 1.4826 x the median absolute deviation (the standard deviation for normal noise). */
function mad(d: Float64Array): number {
  const m = median(d);
  const a = new Float64Array(d.length);
  for (let i = 0; i < d.length; i++) a[i] = Math.abs(d[i] - m);
  return 1.4826 * median(a);
}

/**
 * Robust noise of one point. From the first differences (MAD / sqrt 2) and from the second differences
 * (MAD / sqrt 6), whichever is smaller: on plateaus both see pure noise, while a rising region that fills
 * much of a zoomed sweep inflates the first (a steady slope) or the second (steps a line apart), rarely
 * both. Where the curve is long enough, the quietest quarter of 16-point windows bounds it too, so that
 * a long irregular climb (a cache that is not LRU) cannot hide a clean plateau's first step.
 */
export function noiseSigma(y: ArrayLike<number>): number {
  if (y.length < 4) return 0;
  const d1 = new Float64Array(y.length - 1);
  for (let i = 0; i < d1.length; i++) d1[i] = y[i + 1] - y[i];
  const d2 = new Float64Array(y.length - 2);
  for (let i = 0; i < d2.length; i++) d2[i] = d1[i + 1] - d1[i];
  let sigma = Math.min(mad(d1) / Math.SQRT2, mad(d2) / Math.sqrt(6));
  const W = 16;
  const windows = Math.floor(d1.length / W);
  if (windows >= 4) {
    const local = new Float64Array(windows);
    for (let w = 0; w < windows; w++) local[w] = mad(d1.subarray(w * W, (w + 1) * W)) / Math.SQRT2;
    local.sort();
    // The quietest quarter of 16-point estimates reads about 0.8 of the true spread on pure noise.
    sigma = Math.min(sigma, 1.25 * local[Math.floor(windows / 4)]);
  }
  return sigma;
}

function checkCurve(x: ArrayLike<number>, y: ArrayLike<number>): void {
  if (x.length !== y.length) throw new Error(`curve has ${x.length} sizes but ${y.length} latencies`);
  for (let i = 1; i < x.length; i++) if (!(x[i] > x[i - 1])) throw new Error('curve sizes must increase');
}

interface Group {
  steps: number[];
  rises: number[];
}

function recentRise(g: Group): number {
  return median(g.rises.slice(-3));
}

function groupSpacing(x: ArrayLike<number>, g: Group, dx: number): number {
  if (g.steps.length < 2) return dx;
  const gaps = [];
  for (let k = 1; k < g.steps.length; k++) gaps.push(x[g.steps[k]] - x[g.steps[k - 1]]);
  return median(gaps);
}

/** Finds the steps of the curve and groups them into rising regions (before validation). */
function groupSteps(x: ArrayLike<number>, y: ArrayLike<number>, threshold: number, dx: number, ratio: number): Group[] {
  const groups: Group[] = [];
  let open: Group | null = null;
  for (let i = 0; i + 1 < x.length; i++) {
    const rise = y[i + 1] - y[i];
    if (!(rise > threshold)) continue;
    if (open) {
      const ref = recentRise(open);
      const last = open.steps[open.steps.length - 1];
      const gap = x[i] - x[last];
      // A first step's partner comes within half the size (a region is at most one way, C / 2 for a >= 2);
      // later ones within 2.5 spacings (a step lost in the noise is bridged).
      const window = open.steps.length < 2 ? Math.max(x[open.steps[0]] / 2, 2 * dx) : 2.5 * groupSpacing(x, open, dx);
      if (gap <= window) {
        if (rise * ratio < ref) continue; // a sawtooth rise inside or just past the region: not a step
        if (rise <= ref * ratio) {
          open.steps.push(i);
          open.rises.push(rise);
          continue;
        }
      }
      groups.push(open);
    }
    open = { steps: [i], rises: [rise] };
  }
  if (open) groups.push(open);
  return groups;
}

/** Median of y over [from, to] (inclusive), clamped to the curve. */
function medianOf(y: ArrayLike<number>, from: number, to: number): number {
  const a = Math.max(0, from);
  const b = Math.min(y.length - 1, to);
  const vals: number[] = [];
  for (let i = a; i <= b; i++) vals.push(y[i]);
  return median(vals);
}

/** A group after an irregular climb is its tail when its net rise is under this share of the climb's. */
const TAIL_SHARE = 0.25;
/** Points the curve must stay flat just before a small rise for it to count as a level after an irregular climb. */
const TAIL_SETTLE = 32;

/**
 * Analyses one average-latency curve measured with stride `stride` (bytes): its plateaus and the
 * rising regions between them, each read as one cache level (WONG Fig 4).
 */
export function analyseCurve(x: ArrayLike<number>, y: ArrayLike<number>, stride: number, options: CurveOptions = {}): CurveAnalysis {
  const raw = analyseCurveOnce(x, y, stride, options);
  // A noisy rise of many small steps, each under the noise, shows no step: look again on a running
  // median of SMOOTH points (its noise is lower), and keep the rises found there (the reading then
  // allows for the onset to be off by half the window). Plateaus stay medians of the raw points.
  if (raw.ramps.length > 0 || !(raw.noise > 0) || x.length < 4 * SMOOTH) return raw;
  const h = SMOOTH >> 1;
  const ys = Array.from({ length: x.length }, (_, i) => medianOf(y, Math.max(0, i - h), Math.min(x.length - 1, i + h)));
  const sm = analyseCurveOnce(x, ys, stride, options);
  if (sm.ramps.length === 0) return raw;
  // The smoothed points are not independent: every rise found must stand out of the raw points' noise
  // (medians of up to 8 points on either side, six standard errors apart), else none is kept.
  for (const r of sm.ramps) {
    const f = r.steps[0];
    const l = r.steps[r.steps.length - 1] + 1;
    const m = Math.min(8, f + 1, x.length - l);
    if (m < 3) return raw;
    const rise = medianOf(y, l, l + m - 1) - medianOf(y, f - m + 1, f);
    if (!(rise > 6 * 1.25 * raw.noise * Math.sqrt(2 / m))) return raw;
  }
  const plateaus = sm.plateaus.map((p) => ({ ...p, latency: medianOf(y, p.from, p.to) }));
  return { ...sm, noise: raw.noise, threshold: raw.threshold, plateaus, y: Float64Array.from(y), onsetSlack: h };
}

/** Points of the running median that analyseCurve looks again with. */
const SMOOTH = 9;

/** The smallest step between two points that can mark a change of level, cycles. */
const MIN_STEP_CYCLES = 0.1;

function analyseCurveOnce(x: ArrayLike<number>, y: ArrayLike<number>, stride: number, options: CurveOptions = {}): CurveAnalysis {
  checkCurve(x, y);
  const n = x.length;
  const sigmas = options.sigmas ?? 4;
  const ratio = options.ratio ?? 2.5;
  const gaps: number[] = [];
  for (let i = 1; i < n; i++) gaps.push(x[i] - x[i - 1]);
  const dx = n > 1 ? median(gaps) : 0;
  const noise = noiseSigma(y);
  let scale = 0;
  for (let i = 0; i < n; i++) scale = Math.max(scale, Math.abs(y[i]));
  // A step is at least a tenth of a cycle: a rise of a few hundredths of a cycle (a handful of hits that a
  // random policy lets survive in a curve of misses) is no change of level, even on exact data.
  const threshold = Math.max(sigmas * noise * Math.SQRT2, 1e-9 * (1 + scale), MIN_STEP_CYCLES);

  const groups = n > 1 ? groupSteps(x, y, threshold, dx, ratio) : [];
  // A point's noise falls as its loads grow with N: a net rise must clear the noise where it is.
  const noiseAt = noiseModel(Float64Array.from(x), Float64Array.from(y), noise, loadsFor(options.loads, stride));
  const netRiseOf = (g: Group): number => medianOf(y, g.steps[g.steps.length - 1] + 1, g.steps[g.steps.length - 1] + 3) - medianOf(y, g.steps[0] - 2, g.steps[0]);
  // Complete when a quiet stretch follows: over 2.5 spacings past the last step (at least three points)
  // the curve strays from its first value by less than a step of this region could (sub-line sawtooth
  // rises are a fraction a+1 smaller). A cache that is not LRU keeps climbing past its first few
  // regular-looking steps, and a sweep may end inside a region.
  const spanOf = (g: Group): number => Math.max(3, Math.ceil((2.5 * groupSpacing(x, g, dx)) / Math.max(dx, 1e-9)) - 1);
  const calmOf = (g: Group): number => Math.max(threshold, recentRise(g) / ratio);
  /** True when somewhere in [from, to] the curve stays within `calm` of a point for `span` points. */
  const settles = (from: number, to: number, span: number, calm: number): boolean => {
    for (let j = from; j + span <= to; j++) {
      let ok = true;
      for (let i = j + 1; ok && i <= j + span; i++) if (Math.abs(y[i] - y[j]) > calm) ok = false;
      if (ok) return true;
    }
    return false;
  };
  const quiet = (g: Group): { complete: boolean } => {
    const last = g.steps[g.steps.length - 1];
    const span = spanOf(g);
    const stop = last + 1 + span;
    let complete = stop <= n - 1;
    const calm = calmOf(g);
    for (let i = last + 2; complete && i <= stop; i++) if (Math.abs(y[i] - y[last + 1]) > calm) complete = false;
    return { complete };
  };
  /**
   * True for the staircase of an LRU cache (WONG Fig 4): the curve does not fall between the steps by
   * more than half a step, and the steps sit whole spacings apart.
   */
  const staircase = (g: Group): boolean => {
    const first = g.steps[0];
    const last = g.steps[g.steps.length - 1];
    const spacing = groupSpacing(x, g, dx);
    const step = median(g.rises);
    for (let i = first; i < last; i++) if (y[i] - y[i + 1] > 0.5 * step + threshold) return false;
    for (let j = 1; j < g.steps.length; j++) {
      const q = (x[g.steps[j]] - x[g.steps[j - 1]]) / spacing;
      if (Math.abs(q - Math.round(q)) * spacing > dx / 2) return false;
    }
    return true;
  };
  /**
   * True when the TAIL_SETTLE points up to `end` (all after `start`) form a plateau: the median of
   * their last quarter stays within half the step threshold of the median of their first quarter.
   * A creeping tail drifts up across the window; a plateau's medians differ by noise only.
   */
  const flatBefore = (start: number, end: number): boolean => {
    const from = end - TAIL_SETTLE + 1;
    if (from < start) return false;
    const q = TAIL_SETTLE >> 2;
    return Math.abs(medianOf(y, end - q + 1, end) - medianOf(y, from, from + q - 1)) <= threshold / 2;
  };
  // A group is a level change when its net rise (a few points after against a few before) carries at
  // least half its steps: a sawtooth or noise has none. Level changes that follow one another without a
  // quiet stretch between them are one irregular climb.
  //
  // A cache that is not LRU (random, Fermi's policy) does not reach its next plateau in one climb:
  // past the climb the curve keeps creeping up for many sizes (every larger N evicts a little more),
  // that creep crosses the step threshold now and then, and a noisy pause can cut the climb itself in
  // two. After a climb that is no LRU staircase, a group under a quarter of the climb's net rise is
  // its tail, never a level of its own. And while the curve before a group is still drifting up (no
  // flat TAIL_SETTLE points, see flatBefore), the group is more of the climb when it is no staircase
  // itself, or when it follows a climb that is none no further from its end than the climb is wide.
  // A real next level rises like one (a comparable latency step) after a plateau or far from the climb.
  const regions: (Group & { irregular: boolean; net: number })[] = [];
  for (const g of groups) {
    const net = netRiseOf(g);
    if (!(net >= 0.5 * g.rises.reduce((a, b) => a + b, 0) && net > sigmas * Math.max(noise, noiseAt(x[g.steps[0]])))) continue;
    const prev = regions[regions.length - 1];
    if (prev) {
      const prevLast = prev.steps[prev.steps.length - 1];
      const climbing = !quiet(prev).complete && !settles(prevLast + 1, g.steps[0], spanOf(prev), calmOf(prev));
      const near = x[g.steps[0]] - x[prevLast] <= x[prevLast] - x[prev.steps[0]] + groupSpacing(x, prev, dx);
      const afterNonLru = prev.irregular || !staircase(prev);
      const creeping = (afterNonLru && net < TAIL_SHARE * prev.net) || ((!staircase(g) || (afterNonLru && near)) && !flatBefore(prevLast + 1, g.steps[0]));
      if (climbing || creeping) {
        prev.steps.push(...g.steps);
        prev.rises.push(...g.rises);
        prev.irregular = true;
        if (climbing) prev.net = netRiseOf(prev);
        continue;
      }
    }
    regions.push({ steps: [...g.steps], rises: [...g.rises], irregular: false, net });
  }

  const ramps: Ramp[] = [];
  regions.forEach((g, k) => {
    const first = g.steps[0];
    const last = g.steps[g.steps.length - 1];
    const spacing = groupSpacing(x, g, dx);
    const { complete } = quiet(g);
    const widthBytes = x[last] - x[first] + spacing;
    let regular = !g.irregular;
    // Past an irregular climb only a long quiet stretch (16 points) shows that the climb is over; until
    // then a further region is more of the same climb.
    if (k > 0 && !ramps[k - 1].regular) {
      const prev = regions[k - 1];
      if (!settles(prev.steps[prev.steps.length - 1] + 1, first, Math.max(16, spanOf(prev)), calmOf(prev))) regular = false;
    }
    if (!staircase(g)) regular = false;
    const ramp: Ramp = { steps: g.steps, rises: g.rises, sizeBytes: x[first], spacing, widthBytes, netRise: netRiseOf(g), complete, regular };
    const pow2 = Number.isInteger(Math.log2(spacing));
    if (regular && pow2 && spacing > 1.5 * dx && spacing > stride) {
      ramp.lineBytes = spacing;
      if (complete) ramp.sets = Math.round(widthBytes / spacing);
    }
    if (regular && complete && widthBytes > 0) {
      const w = ramp.sizeBytes / widthBytes;
      const r = Math.round(w);
      if (r >= 1 && Math.abs(w - r) <= 0.02 * r) ramp.ways = r;
    }
    ramps.push(ramp);
  });

  const plateaus: Plateau[] = [];
  let from = 0;
  const addPlateau = (a: number, b: number): void => {
    if (b < a) return;
    plateaus.push({ from: a, to: b, xFrom: x[a], xTo: x[b], latency: medianOf(y, a, b) });
  };
  for (const r of ramps) {
    addPlateau(from, r.steps[0]);
    from = r.steps[r.steps.length - 1] + 1;
  }
  if (n > 0 && (ramps.length === 0 || ramps[ramps.length - 1].complete)) addPlateau(from, n - 1);
  return { noise, threshold, dx, plateaus, ramps, x: Float64Array.from(x), y: Float64Array.from(y), stride, loads: options.loads, ...(options.resolution ? { resolution: options.resolution } : {}) };
}

function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

/** A rise's steps as a finding: how many, how far apart, and whether the sweep ends inside it. */
function stepsFinding(k: string, lv: string, r: Ramp): Finding {
  return {
    key: `${k}.steps`,
    label: `${lv} steps in the rise`,
    value: r.steps.length,
    unit: '',
    evidence: `${r.steps.length} step(s) ${fmt(r.spacing)} B apart${r.complete ? '' : ' (sweep ends inside the rise)'}`,
  };
}

// ---- Reading: what the curve decides, checked against the measurements ---------------------------------
//
// The staircase above is WONG's reading; it assumes an LRU cache whose sets are picked by the line
// number's low bits, a sweep that starts before the rise and ends past it, and steps well above the
// noise. readCurve checks each of these on the curve instead of asserting them:
//  - every geometry an LRU (or FIFO: the same on a cyclic chase) level could have is tried: line size,
//    sets, ways, and a set index of the line number's low bits, of groups of 2 or 4 consecutive lines
//    (texture-style) or an XOR fold. Each one predicts the miss count of every array size exactly; it
//    fits when the curve is a constant plus a multiple of its miss share, within the noise, over the
//    plateau before the rise, the rise and the plateau after it. A quantity is read when every
//    geometry that fits agrees on it; otherwise the finding is "cannot tell" with the alternatives;
//  - a curve no LRU geometry fits is called irregular only when it falls between two sizes by more
//    than any LRU cache allows (more sizes of the same misses lower the average, nothing else does);
//  - a level is counted, and its rank trusted, only when the plateaus around it are long and flat (or
//    explained by a fit): a plateau that keeps creeping up hides an unresolved rise;
//  - the noise of a point is estimated from the curve (it falls as 1/sqrt N: more loads per point).

/** One geometry an LRU level could have (the hypotheses readCurve tries). */
export interface Hypothesis {
  lineBytes: number;
  sets: number;
  ways: number;
  /** 'bits': `run` consecutive lines go to one set, then the next (1: the line number's low bits); 'xor': an XOR fold of the line number. */
  index: 'bits' | 'xor';
  run: number;
  sizeBytes: number;
}

/** A decided value with the evidence, or the reason it is not decided and what would decide it. */
export type Verdict<T> = { value: T; evidence: string } | { value?: undefined; reason: string; next: string };

export interface LevelReading {
  /** The array size past which the curve rises: the cache size as this stride sees it. */
  sizeBytes: Verdict<number>;
  lineBytes: Verdict<number>;
  sets: Verdict<number>;
  ways: Verdict<number>;
  /** 'yes' for the staircase of an LRU (or FIFO) cache, 'no' for a climb no such cache makes. */
  regular: Verdict<'yes' | 'no'>;
  /** The LRU geometries that fit the rise (empty when none does). */
  fits: Hypothesis[];
  /** Cache capacity (sets x ways x line) when every fitting geometry agrees on it. */
  capacityBytes: Verdict<number>;
  /** True when a grouped (texture-style) index fits too and reads another line, sets or ways than the line-number index. */
  groupedDiffers?: boolean;
  /** Bytes per load that reach the level (the stride, or the line of a thrashing level above); absent when unknown. */
  reach?: number;
  /** True when the rises before this one are resolved: the level's rank on its curve is certain. */
  ranked?: boolean;
  /** The points the fits were judged on (see jointFits). */
  fitData?: FitData;
  /** The first level's line, sets and capacity as the fits read them when no level above hides in the noise. */
  lineIfAlone?: Verdict<number>;
  setsIfAlone?: Verdict<number>;
  capacityIfAlone?: Verdict<number>;
}

export interface CurveReading {
  levels: Verdict<number>;
  plateaus: Verdict<number>[];
  level: LevelReading[];
  /** Noise of one point at array size N, cycles (sigma(N) = noiseAt(N)). */
  noiseAt: ((N: number) => number) & { windows: number };
}

const decided = <T>(value: T, evidence: string): Verdict<T> => ({ value, evidence });
const open = <T>(reason: string, next: string): Verdict<T> => ({ reason, next });

/** Round-robin occupancy: items 0..M-1 go R at a time to Q sets in turn. Largest count of a set. */
function rrMax(M: number, R: number, Q: number): number {
  const full = Math.floor(M / (R * Q));
  return full * R + Math.min(R, M - full * R * Q);
}

/** Round-robin occupancy: items in sets holding more than `ways` of them (all of those miss under LRU). */
function rrOverflow(M: number, R: number, Q: number, ways: number): number {
  const full = Math.floor(M / (R * Q));
  const rem = M - full * R * Q;
  const big = Math.floor(rem / R);
  const part = rem - big * R;
  let over = 0;
  const hi = (full + 1) * R;
  if (hi > ways) over += big * hi;
  const mid = full * R + part;
  if (part > 0 && mid > ways) over += mid;
  const lo = full * R;
  if (lo > ways) over += (Q - big - (part > 0 ? 1 : 0)) * lo;
  return over;
}

/** The lines a chase of N bytes with stride s touches, as round-robin parameters (bit-selection index). */
function bitsShape(h: Pick<Hypothesis, 'lineBytes' | 'sets' | 'run'>, N: number, s: number): { M: number; R: number; Q: number } {
  const b = h.lineBytes;
  if (s <= b) return { M: Math.ceil(N / b), R: h.run, Q: h.sets };
  const k = s / b;
  const M = Math.ceil(N / s);
  if (k >= h.run) {
    const q = k / h.run;
    return { M, R: 1, Q: h.sets / Math.min(h.sets, q) };
  }
  return { M, R: h.run / k, Q: h.sets };
}

/** Line numbers a chase of N bytes with stride s touches, in order (XOR index). */
function* linesTouched(b: number, s: number, upTo: number): Generator<number> {
  if (s <= b) for (let l = 0; l * b < upTo; l++) yield l;
  else for (let a = 0; a < upTo; a += s) yield a / b;
}

/** Items i < m with floor(i / R) mod Q in the sets [0, upTo) (round-robin occupancy of a prefix). */
function rrPrefix(m: number, R: number, Q: number, upTo: number): number {
  const cycle = R * Q;
  const full = Math.floor(m / cycle);
  const rem = m - full * cycle;
  const f = Math.floor(rem / R);
  return full * R * upTo + R * Math.min(upTo, f) + (f < upTo ? rem - f * R : 0);
}

/** The sets [0, k) that overflow (hold more than `ways` items) under round-robin occupancy; the rest do not. */
function rrOverflowSets(M: number, R: number, Q: number, ways: number): number {
  const full = Math.floor(M / (R * Q));
  const rem = M - full * R * Q;
  const big = Math.floor(rem / R);
  const part = rem - big * R;
  if (full * R > ways) return Q;
  if (part > 0 && full * R + part > ways) return big + 1;
  if ((full + 1) * R > ways && big > 0) return big;
  return 0;
}

/** Items the first r loads of a traversal touch (lines when s <= line, else one per load). */
function itemsOfLoads(r: number, b: number, s: number, sr: number): number {
  if (r <= 0) return 0;
  return sr <= b ? Math.floor(((r - 1) * s) / b) + 1 : Math.floor(((r - 1) * s) / sr) + 1;
}

/**
 * Per array size: the share of timed loads that miss a level of geometry h (LRU, cyclic chase after one
 * untimed traversal): every line of a set that holds more lines than ways misses once per traversal. A
 * point of `loads(N)` loads covers whole traversals and the start of one more.
 */
function missShare(h: Hypothesis, Ns: number[], s: number, loads: (N: number) => number, reach = s): Float64Array {
  const out = new Float64Array(Ns.length);
  // The loads that reach the level: one per `sr` bytes (the line of the level above, when larger).
  const sr = Math.max(s, reach);
  if (h.index === 'bits') {
    Ns.forEach((N, i) => {
      const { M, R, Q } = bitsShape(h, N, sr);
      const E = N / s;
      const L = loads(N);
      const T = Math.floor(L / E);
      const r = L - T * E;
      const per = rrOverflow(M, R, Q, h.ways);
      const part = r > 0 ? rrPrefix(itemsOfLoads(r, h.lineBytes, s, sr), R, Q, rrOverflowSets(M, R, Q, h.ways)) : 0;
      out[i] = (T * per + part) / L;
    });
    return out;
  }
  if (sr <= h.lineBytes && isPow2(h.sets)) return xorMissShareConsecutive(h, Ns, s, loads, sr);
  return xorMissShareWalk(h, Ns, s, loads, sr);
}

const isPow2 = (n: number): boolean => n >= 1 && (n & (n - 1)) === 0;

/**
 * missShare of an XOR-indexed hypothesis whose chase touches every line (the stride no larger than
 * the line) and whose sets are a power of two, in closed form: within each aligned block of `sets`
 * consecutive lines the low digit runs over every set and the higher digits XOR a constant into it,
 * so every set holds floor(L / sets) of the first L lines, and the `L mod sets` sets of the last,
 * partial block (j ^ xorSet(block)) one more. The same numbers as xorMissShareWalk, without walking
 * millions of lines for each hypothesis of a large cache.
 */
export function xorMissShareConsecutive(h: Hypothesis, Ns: number[], s: number, loads: (N: number) => number, sr: number): Float64Array {
  const out = new Float64Array(Ns.length);
  const S = h.sets;
  Ns.forEach((N, i) => {
    const Ln = Math.ceil(N / h.lineBytes);
    const q = Math.floor(Ln / S);
    const rem = Ln - q * S;
    const C = xorSet(q, S);
    const over = (q + 1 > h.ways ? rem * (q + 1) : 0) + (q > h.ways ? (S - rem) * q : 0);
    const E = N / s;
    const L = loads(N);
    const T = Math.floor(L / E);
    const r = L - T * E;
    const m = itemsOfLoads(r, h.lineBytes, s, sr);
    let part = 0;
    if (m > Ln) {
      out[i] = xorMissShareWalk(h, [N], s, loads, sr)[0];
      return;
    }
    if (q > h.ways) part = m;
    else if (q === h.ways && rem > 0) for (let l = 0; l < m; l++) if ((xorSet(l, S) ^ C) < rem) part++;
    out[i] = (T * over + part) / L;
  });
  return out;
}

/** The walk of an XOR index over the lines a chase touches: each size's per-set counts, and each touched line's set. */
interface XorWalk {
  key: string;
  /** Per size of Ns, the lines each set holds. */
  counts: Int32Array[];
  /** Per size of Ns, the lines touched up to it. */
  lines: number[];
  /** The set of each touched line, in chase order. */
  setOf: Int32Array;
}

/** The last walk: the fits try several ways for one line and set count in a row, all on the same walk. */
let lastWalk: XorWalk | null = null;

function xorWalk(lineBytes: number, sets: number, sr: number, Ns: readonly number[]): XorWalk {
  const key = `${lineBytes}|${sets}|${sr}|${Ns.join(',')}`;
  if (lastWalk?.key === key) return lastWalk;
  const c = new Int32Array(sets);
  const counts: Int32Array[] = [];
  const lines: number[] = [];
  const setOf: number[] = [];
  // The lines of linesTouched, without a generator: every line, or one every sr / lineBytes.
  const step = sr <= lineBytes ? 1 : sr / lineBytes;
  let l = 0;
  for (const N of Ns) {
    for (; l * lineBytes < N; l += step) {
      const k = xorSet(l, sets);
      setOf.push(k);
      c[k]++;
    }
    counts.push(c.slice());
    lines.push(setOf.length);
  }
  lastWalk = { key, counts, lines, setOf: Int32Array.from(setOf) };
  return lastWalk;
}

/** missShare of an XOR-indexed hypothesis by walking the lines the chase touches (the walk shared between the ways tried). */
export function xorMissShareWalk(h: Hypothesis, Ns: number[], s: number, loads: (N: number) => number, sr: number): Float64Array {
  const out = new Float64Array(Ns.length);
  const w = xorWalk(h.lineBytes, h.sets, sr, Ns);
  Ns.forEach((N, i) => {
    const counts = w.counts[i];
    // Every line of a set past its ways misses, once a traversal.
    let over = 0;
    for (let k = 0; k < counts.length; k++) if (counts[k] > h.ways) over += counts[k];
    const E = N / s;
    const L = loads(N);
    const T = Math.floor(L / E);
    const r = L - T * E;
    let part = 0;
    const m = itemsOfLoads(r, h.lineBytes, s, sr);
    // The partial traversal's first m items (past the lines touched so far: set 0, as an empty slot reads).
    for (let j = 0; j < m; j++) if (counts[j < w.lines[i] ? w.setOf[j] : 0] > h.ways) part++;
    out[i] = (T * over + part) / L;
  });
  return out;
}

/**
 * Loads per point when the caller does not say: whole traversals only. A point qualifies when its
 * traversal divides 256 loads or has at least 256 loads (either way a whole number of traversals for the
 * usual rule of at least 256 loads); other points return 0 and are left out of the fits.
 */
function wholeTraversals(s: number): (N: number) => number {
  return (N: number) => {
    const E = N / s;
    return E >= 256 ? E : 256 % E === 0 ? 256 : 0;
  };
}

/** Largest number of lines one set holds for a chase of N bytes (no ways assumed). */
function maxLines(h: Omit<Hypothesis, 'ways' | 'sizeBytes'>, N: number, s: number): number {
  if (h.index === 'bits') {
    const { M, R, Q } = bitsShape(h, N, s);
    return rrMax(M, R, Q);
  }
  // Every line touched and sets a power of two: each aligned block of `sets` lines puts one in every set.
  if (s <= h.lineBytes && isPow2(h.sets)) return Math.ceil(Math.ceil(N / h.lineBytes) / h.sets);
  const counts = new Int32Array(h.sets);
  let m = 0;
  // The lines of linesTouched (one every s / lineBytes), without a generator.
  const step = s <= h.lineBytes ? 1 : s / h.lineBytes;
  for (let l = 0; l * h.lineBytes < N; l += step) {
    const c = ++counts[xorSet(l, h.sets)];
    if (c > m) m = c;
  }
  return m;
}

/** Least squares of y on the columns (with a constant); returns coefficients and residuals, or null. */
function leastSquares(cols: Float64Array[], y: Float64Array): { coef: number[]; res: Float64Array } | null {
  const k = cols.length + 1;
  const n = y.length;
  if (n < k + 2) return null;
  const X = (r: number, c: number): number => (c === 0 ? 1 : cols[c - 1][r]);
  const A = Array.from({ length: k }, () => new Float64Array(k + 1));
  for (let r = 0; r < n; r++)
    for (let i = 0; i < k; i++) {
      const xi = X(r, i);
      for (let j = 0; j < k; j++) A[i][j] += xi * X(r, j);
      A[i][k] += xi * y[r];
    }
  for (let c = 0; c < k; c++) {
    let piv = c;
    for (let r = c + 1; r < k; r++) if (Math.abs(A[r][c]) > Math.abs(A[piv][c])) piv = r;
    if (Math.abs(A[piv][c]) < 1e-12 * (1 + Math.abs(A[c][c]))) return null;
    [A[c], A[piv]] = [A[piv], A[c]];
    for (let r = 0; r < k; r++) {
      if (r === c) continue;
      const f = A[r][c] / A[c][c];
      for (let j = c; j <= k; j++) A[r][j] -= f * A[c][j];
    }
  }
  const coef = A.map((row, i) => row[k] / row[i]);
  const res = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    let p = 0;
    for (let i = 0; i < k; i++) p += coef[i] * X(r, i);
    res[r] = y[r] - p;
  }
  return { coef, res };
}

/**
 * Noise of one point as a function of N: zero when the curve repeats a value exactly four times running
 * (measurement noise never does: the data are exact); else sigma(N) = c / sqrt(loads(N)) (a point averages its loads),
 * c from 16-point windows (second differences) that are no busier than twice the quietest quarter (a
 * climb is no noise); the curve-wide estimate where there are fewer than two windows. Without the loads, a point is taken to
 * average max(256, N / stride) of them.
 */
function noiseModel(x: Float64Array, y: Float64Array, global: number, loadsOf: (N: number) => number): ((N: number) => number) & { windows: number } {
  // Exact data: a run of EXACT equal points (jitter never repeats a value) means no measurement noise.
  const EXACT = 4;
  for (let i = 0, run = 1; i + 1 < y.length; i++) {
    run = y[i + 1] === y[i] ? run + 1 : 1;
    if (run >= EXACT) return Object.assign(() => 0, { windows: Infinity });
  }
  const W = 16;
  const est: number[] = [];
  for (let w = 0; w + W + 2 <= y.length; w += W) {
    const d2 = new Float64Array(W);
    for (let i = 0; i < W; i++) d2[i] = y[w + i + 2] - 2 * y[w + i + 1] + y[w + i];
    est.push((mad(d2) / Math.sqrt(6)) * Math.sqrt(loadsOf(x[w + (W >> 1)])));
  }
  if (est.length < 2) return Object.assign(() => global, { windows: est.length });
  est.sort((a, b) => a - b);
  const q = est[Math.floor((est.length - 1) / 4)];
  const c = median(est.filter((e) => e <= 2 * q));
  return Object.assign((N: number) => c / Math.sqrt(loadsOf(N)), { windows: est.length });
}

/** Loads of the point of size N: the caller's count, else at least 256 and one per stride. */
function loadsFor(loads: ((N: number) => number) | undefined, stride: number): (N: number) => number {
  return (N: number) => {
    const L = loads ? loads(N) : 0;
    return L > 0 ? L : Math.max(256, Math.ceil(N / stride));
  };
}

interface RampContext {
  a: CurveAnalysis;
  noiseAt: ((N: number) => number) & { windows: number };
  /** Index range of the plateau before ramp k and of the stretch after it (to the next ramp or the end). */
  before: [number, number];
  after: [number, number];
}

function tolAt(c: RampContext, i: number): number {
  return Math.max(5 * c.noiseAt(c.a.x[i]) + 1e-6 * (1 + Math.abs(c.a.y[i])), MIN_STEP_CYCLES / 2);
}

/** True when every point of [from, to] lies within the noise of the stretch's median. */
function flat(c: RampContext, from: number, to: number): boolean {
  if (to < from) return false;
  const m = medianOf(c.a.y, from, to);
  for (let i = from; i <= to; i++) if (Math.abs(c.a.y[i] - m) > tolAt(c, i)) return false;
  return true;
}

/**
 * True when the stretch [from, to] climbs: split in up to eight segments, a later segment's median lies
 * above an earlier one's beyond the noise of medians (and half the typical spread inside a segment, the
 * teeth of a sub-line sawtooth). A short step at either end counts as much as a slow creep.
 */
function creeps(c: RampContext, from: number, to: number): boolean {
  const n = to - from + 1;
  if (n < 6) return false;
  const m = Math.max(3, Math.floor(n / 8));
  const meds: number[] = [];
  const sig: number[] = [];
  const spreads: number[] = [];
  for (let j = from; j + m - 1 <= to; j += m) {
    meds.push(medianOf(c.a.y, j, j + m - 1));
    sig.push(c.noiseAt(c.a.x[j + (m >> 1)]));
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = j; i < j + m; i++) {
      lo = Math.min(lo, c.a.y[i]);
      hi = Math.max(hi, c.a.y[i]);
    }
    spreads.push(hi - lo);
  }
  // The last partial segment, when long enough, ends the stretch.
  const tail = from + meds.length * m;
  if (to - tail + 1 >= 3) {
    meds.push(medianOf(c.a.y, tail, to));
    sig.push(c.noiseAt(c.a.x[to]));
  }
  const teeth = 0.5 * median(spreads);
  let low = Infinity;
  let lowSig = 0;
  for (let j = 0; j < meds.length; j++) {
    if (meds[j] - low > Math.max(5 * 1.25 * Math.max(sig[j], lowSig) * Math.sqrt(2 / m) + teeth + 1e-6 * (1 + Math.abs(low)), MIN_STEP_CYCLES)) return true;
    if (meds[j] < low) {
      low = meds[j];
      lowSig = sig[j];
    }
  }
  return false;
}

const POW2 = (lo: number, hi: number): number[] => {
  const out: number[] = [];
  for (let v = lo; v <= hi; v *= 2) out.push(v);
  return out;
};

/**
 * The LRU geometries that fit ramp k: over the plateau before it, the rise and the stretch after it,
 * the curve is a constant plus a multiple of the geometry's miss share (plus the level above's, when
 * the plateau before is not flat and the level above's fit is known), within the noise.
 */
interface RampFit {
  fits: Hypothesis[];
  why?: string;
  /** Bytes per load that reaches the level (the stride, or the line of a thrashing level above). */
  reach: number;
  /** False when which loads reach the level is not known. */
  streamKnown: boolean;
  /** True when `reach` is the line of a thrashing level before the window, read off the plateau before the rise. */
  edge?: boolean;
  /** Residuals of the first fit (curve indices and values). */
  resid?: { idx: number[]; r: Float64Array };
  /** The points the fits were judged on, for fits across curves (see jointFits). */
  data?: FitData;
}

/** The points a level's fits were judged on: sizes, latencies, tolerances, and the stream that reaches the level. */
export interface FitData {
  Ns: number[];
  ys: Float64Array;
  tol: Float64Array;
  loads: (N: number) => number;
  stride: number;
  reach: number;
  /** True when the fit is a constant plus the level's own miss share (no level above's column). */
  plain: boolean;
}

/**
 * True when the residuals of a fit climb over [from, to]: the last third's mean lies above the first
 * third's beyond six standard errors. A rise the fit's tolerance hides (a level whose latency is close
 * to the next, read below its line) shows as a shift of the residuals' mean.
 */
function residualsClimb(c: RampContext, fit: { idx: number[]; r: Float64Array } | undefined, from: number, to: number): boolean {
  if (!fit) return false;
  const pts: { i: number; r: number }[] = [];
  fit.idx.forEach((i, j) => {
    if (i >= from && i <= to) pts.push({ i, r: fit.r[j] });
  });
  if (pts.length < 9) return false;
  const t = Math.floor(pts.length / 3);
  const mean = (p: { r: number }[]): number => p.reduce((acc, e) => acc + e.r, 0) / p.length;
  const first = pts.slice(0, t);
  const last = pts.slice(pts.length - t);
  // The residuals' own spread (per load: a point's noise falls as 1 / sqrt of its loads) is the noise
  // here; the curve-wide estimate may carry a sawtooth's teeth.
  const loads = loadsFor(c.a.loads, c.a.stride);
  const scaled = Float64Array.from(fit.idx, (i, j) => fit.r[j] * Math.sqrt(loads(c.a.x[i])));
  const unit = mad(scaled);
  const se = (p: { i: number }[]): number => Math.sqrt(p.reduce((acc, e) => acc + (unit * unit) / loads(c.a.x[e.i]), 0)) / p.length;
  return mean(last) - mean(first) > 6 * Math.hypot(se(first), se(last)) + 1e-6 * (1 + Math.abs(c.a.y[from]));
}

/**
 * The first size at which every set of geometry h holds more lines than ways (the level's rise is
 * over: from there on each of its lines misses once a traversal), or Infinity.
 */
function fullOverflow(h: Hypothesis, xs: ArrayLike<number>, s: number, reach: number): number {
  const sr = Math.max(s, reach);
  if (h.index === 'bits') {
    for (let i = 0; i < xs.length; i++) {
      const { M, R, Q } = bitsShape(h, xs[i], sr);
      if (rrOverflowSets(M, R, Q, h.ways) === Q && Math.floor(M / (R * Q)) * R > h.ways) return xs[i];
    }
    return Infinity;
  }
  const counts = new Int32Array(h.sets);
  let full = 0;
  const it = linesTouched(h.lineBytes, sr, xs[xs.length - 1]);
  let next = it.next();
  for (let i = 0; i < xs.length; i++) {
    while (!next.done && next.value * h.lineBytes < xs[i]) {
      if (++counts[xorSet(next.value, h.sets)] === h.ways + 1) full++;
      next = it.next();
    }
    if (full === h.sets) return xs[i];
  }
  return Infinity;
}

/** True when every fitting geometry's rise is over three sizes or more before the sweep ends. */
function fitsComplete(a: CurveAnalysis, l: LevelReading): boolean {
  if (!l.fits.length || l.reach === undefined) return false;
  const n = a.x.length;
  if (n < 4) return false;
  const end = a.x[n - 4];
  return l.fits.every((h) => fullOverflow(h, a.x, a.stride, l.reach as number) <= end);
}

/**
 * Fits ramp k: first as exact data (a deterministic hierarchy reproduces an exact curve to rounding;
 * noise never does), then within the noise estimated from the curve.
 */
function fitRamp(c: RampContext, k: number, above: Hypothesis[] | null, aboveReach: number, reach0: number, known0: boolean): RampFit {
  const exact: RampContext = { ...c, noiseAt: Object.assign(() => 0, { windows: Infinity }) };
  const e = fitRampWithin(exact, k, above, aboveReach, reach0, known0);
  if (e.fits.length || c.noiseAt(c.a.x[c.a.ramps[k].steps[0]]) === 0) return e;
  return fitRampWithin(c, k, above, aboveReach, reach0, known0);
}

function fitRampWithin(c: RampContext, k: number, above: Hypothesis[] | null, aboveReach: number, reach0: number, known0: boolean): RampFit {
  const { a } = c;
  const s = a.stride;
  const r = a.ramps[k];
  const first = r.steps[0];
  let reach = reach0;
  let streamKnown = known0;
  let edge = false;
  const fail = (why: string): RampFit => ({ fits: [], why, reach, streamKnown, edge });
  const idx: number[] = [];
  for (let i = c.before[0]; i <= c.after[1]; i++) if (a.x[i] % s === 0 && a.x[i] >= s && (a.loads || wholeTraversals(s)(a.x[i]) > 0)) idx.push(i);
  if (idx.length < 6) return fail(`too few sizes that are whole multiples of the stride around the rise (${idx.length})`);
  // With noise, a fit is only as good as the noise estimate: it needs a few windows of the curve.
  if (c.noiseAt.windows < 3 && c.noiseAt(a.x[first]) > 0) return fail(`too few sizes (${a.x.length}) to estimate the noise a fit is judged by`);
  const Ns = idx.map((i) => a.x[i]);
  const ys = Float64Array.from(idx, (i) => a.y[i]);
  const loads = a.loads ?? wholeTraversals(s);
  const cols: Float64Array[] = [];
  if (!flat(c, c.before[0], c.before[1])) {
    if (above && above.length) {
      const u0 = missShare(above[0], Ns, s, loads, aboveReach);
      for (const h of above.slice(1)) {
        const u = missShare(h, Ns, s, loads, aboveReach);
        for (let j = 0; j < u.length; j++) if (Math.abs(u[j] - u0[j]) > 1e-12) return fail('the plateau before the rise is not flat and the level above is not identified');
      }
      cols.push(u0);
    } else {
      // A level above that thrashes (out of the window or unidentified) misses once per line of it:
      // find the one line size that makes the plateau before the rise a constant plus its miss share.
      const before = idx.filter((i) => i <= first);
      if (before.length < 4) return fail('the plateau before the rise is not flat and too short to identify the level above');
      const bN = before.map((i) => a.x[i]);
      const by = Float64Array.from(before, (i) => a.y[i]);
      // Only exact data identify it: with noise the sawtooth of a level above is not resolved.
      const btol = before.map((i) => 1e-6 * (1 + Math.abs(a.y[i])));
      const found: number[] = [];
      for (const b of POW2(8, 1 << 13)) {
        if (b <= s) continue;
        const thrash: Hypothesis = { lineBytes: b, sets: 1, ways: 0, index: 'bits', run: 1, sizeBytes: 0 };
        const u = missShare(thrash, bN, s, loads, reach);
        const f = leastSquares([u], by);
        if (f && f.coef[1] > 0 && f.res.every((e, j) => Math.abs(e) <= btol[j])) found.push(b);
      }
      if (found.length !== 1)
        return fail(found.length ? `the plateau before the rise fits a level above with lines of ${list(found, ' B')}` : 'the plateau before the rise is not flat and no level above explains it');
      const thrash: Hypothesis = { lineBytes: found[0], sets: 1, ways: 0, index: 'bits', run: 1, sizeBytes: 0 };
      cols.push(missShare(thrash, Ns, s, loads, reach));
      reach = Math.max(reach, found[0]);
      streamKnown = true;
      edge = true;
    }
  }
  // The onset: no set overflows at the last size before the first step; one does two sizes later at most.
  const slack = a.onsetSlack ?? 0;
  const xLo = a.x[Math.max(0, first - slack)];
  const xHi = a.x[Math.min(a.x.length - 1, first + 2 + slack)];
  const tol = Float64Array.from(idx, (i) => tolAt(c, i));
  const fits: Hypothesis[] = [];
  let resid: { idx: number[]; r: Float64Array } | undefined;
  for (const b of POW2(4, Math.min(1 << 16, xHi))) {
    for (const S of POW2(1, Math.min(1 << 14, Math.floor(xHi / b)))) {
      const shapes: Omit<Hypothesis, 'ways' | 'sizeBytes'>[] = [{ lineBytes: b, sets: S, index: 'bits', run: 1 }];
      if (S > 1) shapes.push({ lineBytes: b, sets: S, index: 'bits', run: 2 }, { lineBytes: b, sets: S, index: 'bits', run: 4 }, { lineBytes: b, sets: S, index: 'xor', run: 1 });
      for (const shape of shapes) {
        const aLo = Math.max(1, maxLines(shape, xLo, Math.max(s, reach)));
        const aHi = maxLines(shape, xHi, Math.max(s, reach)) - 1;
        for (let w = aLo; w <= Math.min(aHi, aLo + 3 + 2 * slack); w++) {
          const h: Hypothesis = { ...shape, ways: w, sizeBytes: b * S * w };
          const g = missShare(h, Ns, s, loads, reach);
          let gMax = 0;
          for (const v of g) gMax = Math.max(gMax, v);
          if (gMax === 0) continue;
          const fit = leastSquares([...cols, g], ys);
          if (!fit) continue;
          const D = fit.coef[fit.coef.length - 1];
          if (!(D > 0)) continue;
          let ok = true;
          let tMax = 0;
          for (let j = 0; ok && j < ys.length; j++) {
            if (Math.abs(fit.res[j]) > tol[j]) ok = false;
            tMax = Math.max(tMax, tol[j]);
          }
          // The rise must be resolved: far above the noise, or the fit says nothing.
          if (ok && D * gMax >= 10 * tMax) {
            if (!fits.length) resid = { idx, r: fit.res };
            fits.push(h);
          }
        }
      }
    }
  }
  const data: FitData = { Ns, ys, tol, loads, stride: s, reach, plain: cols.length === 0 };
  return fits.length ? { fits, reach, streamKnown, edge, resid, data } : fail('no LRU geometry (line, sets, ways, bit-selection, grouped or XOR index) reproduces the rise within the noise');
}

/**
 * True when the curve falls somewhere in [from, to] by more than any LRU (or FIFO) hierarchy allows.
 * Past one untimed traversal, an LRU hierarchy misses a fixed weighted count W(N) per traversal
 * (latency above the fastest level times misses, summed over levels), and W never falls as N grows:
 * every set holds at least the lines it held. A point of L loads covering T whole traversals and part
 * of one more averages between base + W T / L and base + W (T + 1) / L, so it bounds W both ways; a
 * larger size whose upper bound lies below a smaller size's lower bound (by more than the noise) is
 * no LRU hierarchy. `base` must not exceed the fastest level's latency.
 */
function fallsBelowLru(c: RampContext, from: number, to: number, base: number): boolean {
  const { x, y, stride } = c.a;
  const loads = loadsFor(c.a.loads, stride);
  let best = -Infinity;
  for (let i = Math.max(0, from); i <= Math.min(x.length - 1, to); i++) {
    if (x[i] % stride !== 0 || !c.a.loads) continue;
    const E = x[i] / stride;
    const L = loads(x[i]);
    const T = Math.floor(L / E);
    if (T < 1) continue;
    const part = L - T * E > 0;
    const sigma = 6 * c.noiseAt(x[i]) + 1e-6 * (1 + Math.abs(y[i]));
    const lo = ((y[i] - sigma - base) * L) / (part ? T + 1 : T);
    const hi = ((y[i] + sigma - base) * L) / T;
    if (hi < best) return true;
    best = Math.max(best, lo);
  }
  return false;
}

function agree<T extends number>(fits: Hypothesis[], pick: (h: Hypothesis) => T): T[] {
  return [...new Set(fits.map(pick))].sort((p, q) => p - q);
}

function list(vals: number[], unit = ''): string {
  const shown = vals.slice(0, 5).map((v) => `${v}${unit}`);
  return vals.length > 5 ? `${shown.join(', ')}, ...` : shown.join(' or ');
}

/**
 * Reads one analysed curve: the number of levels, each plateau's latency and each level's size,
 * line, sets, ways and regularity, each decided by the checks above or left open with the reason.
 */
export function readCurve(a: CurveAnalysis): CurveReading {
  const n = a.x.length;
  const noiseAt = noiseModel(a.x, a.y, a.noise, loadsFor(a.loads, a.stride));
  const R = a.ramps.length;
  const s = a.stride;
  const ctxFor = (k: number): RampContext => {
    const r = a.ramps[k];
    const beforeFrom = k === 0 ? 0 : a.ramps[k - 1].steps[a.ramps[k - 1].steps.length - 1] + 1;
    const afterFrom = r.steps[r.steps.length - 1] + 1;
    const afterTo = k + 1 < R ? a.ramps[k + 1].steps[0] : n - 1;
    return { a, noiseAt, before: [beforeFrom, r.steps[0]], after: [afterFrom, afterTo] };
  };
  const base: RampContext = { a, noiseAt, before: [0, n - 1], after: [0, n - 1] };
  /** True when the plateau after ramp k is at least half as wide as the size the ramp starts at (or it is the last). */
  const wideAfter = (k: number): boolean => {
    const c = ctxFor(k);
    return k + 1 >= R || a.x[c.after[1]] - a.x[c.after[0]] >= 0.5 * a.x[a.ramps[k].steps[0]];
  };
  const level: LevelReading[] = [];
  const plateauOk: boolean[] = [];
  const afterOk: boolean[] = [];
  /** True where the stretch before ramp k creeps up or (the first) is not flat: plateau k is then no plateau. */
  const beforeBad: boolean[] = [];
  let rankOk = true;
  let rankWhy = '';
  let above: Hypothesis[] | null = null;
  let aboveReach = s;
  // Below every level's latency: the lowest point, less its noise.
  let floor0 = Infinity;
  for (let i = 0; i < n; i++) floor0 = Math.min(floor0, a.y[i] - 6 * noiseAt(a.x[i]));
  for (let k = 0; k < R; k++) {
    const c = ctxFor(k);
    const r = a.ramps[k];
    const beforeLen = c.before[1] - c.before[0] + 1;
    // The rise must stand out of the noise: medians of up to 8 points either side, six standard errors apart.
    if (rankOk) {
      const f = r.steps[0];
      const l = r.steps[r.steps.length - 1] + 1;
      const m = Math.min(8, f + 1 - c.before[0], n - l);
      const sigma = Math.max(noiseAt(a.x[f]), noiseAt(a.x[Math.min(n - 1, l)]));
      const rise = m >= 1 ? medianOf(a.y, l, l + m - 1) - medianOf(a.y, f - m + 1, f) : NaN;
      if (!(rise > 6 * 1.25 * sigma * Math.sqrt(2 / Math.max(1, m)) + 1e-9 * (1 + Math.abs(a.y[f])))) {
        rankOk = false;
        rankWhy = `the rise at ${a.x[f]} B does not stand out of the noise (${fmt(sigma)} cycles a point)`;
      }
    }
    // The plateau before the rise: long enough, and flat or explained by the fit of the level above.
    if (beforeLen < 2 && k === 0) {
      rankOk = false;
      rankWhy = 'the sweep starts at the rise: no plateau before it';
    }
    // The loads that reach this level: every load for the first; past a level whose line is known,
    // one per line of it (the others hit it). Past a level of unknown line the stream is unknown, and
    // this level's line, sets and ways are not read (a line at most the one above would not show).
    const upLines = above ? agree(above, (h) => h.lineBytes) : [];
    const known0 = k === 0 || upLines.length === 1 || (upLines.length > 0 && upLines[upLines.length - 1] <= s);
    const reach0 = k === 0 || !known0 ? s : Math.max(s, upLines[upLines.length - 1]);
    let fitted: RampFit = rankOk ? fitRamp(c, k, above, aboveReach, reach0, known0) : { fits: [], why: rankWhy, reach: reach0, streamKnown: known0 };
    // Without a fit, the plateau before the rise must not creep up: a creep is a rise of its own (an
    // unresolved level, or the tail of a climb), and this rise's rank is then uncertain.
    if (rankOk && fitted.fits.length === 0 && creeps(c, c.before[0], c.before[1])) {
      rankOk = false;
      rankWhy = `the curve creeps up before the rise at ${a.x[r.steps[0]]} B: an unresolved rise`;
      beforeBad[k] = true;
      fitted = { fits: [], why: rankWhy, reach: reach0, streamKnown: known0 };
    } else if (rankOk && k === 0 && fitted.fits.length === 0 && !flat(c, c.before[0], c.before[1])) {
      // The first plateau must start flat too: a point below it at the window's start is a rise there.
      rankOk = false;
      rankWhy = `the curve is not flat before the rise at ${a.x[r.steps[0]]} B: a rise at the start of the sweep?`;
      beforeBad[k] = true;
      fitted = { fits: [], why: rankWhy, reach: reach0, streamKnown: known0 };
    }
    const { reach, streamKnown, edge } = fitted;
    const fits: Hypothesis[] = fitted.fits;
    const why = fitted.why;
    const fitsAfter: boolean = fits.length > 0;
    // Plateau k+1 (after the rise): explained by a fit, or flat without creeping; long when another rise follows.
    const afterLen = c.after[1] - c.after[0] + 1;
    const afterFlat = fitsAfter ? !residualsClimb(c, fitted.resid, c.after[0], c.after[1]) : !creeps(c, c.after[0], c.after[1]) && afterLen >= 3;
    afterOk[k] = afterFlat;
    const wideEnough = wideAfter(k);
    plateauOk[k] = rankOk && beforeLen >= 2;
    const next = 'a sweep that starts well before this size';
    const rd: LevelReading = {
      sizeBytes: open('an earlier rise is not resolved, so this rise may belong to another level', next),
      lineBytes: open('not read', ''),
      sets: open('not read', ''),
      ways: open('not read', ''),
      regular: open('not read', ''),
      fits,
      capacityBytes: open('not read', ''),
      reach: streamKnown ? reach : undefined,
      ranked: rankOk,
      fitData: fitted.data,
    };
    if (!rankOk) {
      const o = open<never>(rankWhy || 'an earlier rise is not resolved', 'a wider sweep, more traversals (less noise) or a finer step');
      rd.sizeBytes = o;
      rd.lineBytes = o;
      rd.sets = o;
      rd.ways = o;
      rd.regular = o;
      rd.capacityBytes = o;
      level.push(rd);
      continue;
    }
    const xs = a.x[r.steps[0]];
    const sigma0 = noiseAt(xs);
    if (beforeLen < 2) rd.sizeBytes = open('the sweep starts at the rise: no plateau before it', 'a sweep that starts at a smaller size');
    else if (fitsAfter)
      rd.sizeBytes = decided(xs, `last size before the rise (${r.steps.length} step(s) follow); an LRU geometry reproduces the rise`);
    else if (sigma0 < 1e-6) {
      // Exact data: the level's first misses show however few they are, where the curve first leaves
      // the value it started the plateau at (the step detector may pass over the first small steps).
      const p0 = c.before[0];
      const v = a.y[p0];
      let d = p0;
      while (d <= r.steps[0] && Math.abs(a.y[d] - v) <= Math.max(1e-9 * (1 + Math.abs(v)), a.resolution ?? 0)) d++;
      rd.sizeBytes =
        d - p0 >= 2
          ? decided(a.x[d - 1], `the curve is exact (no noise) and leaves its plateau of ${fmt(v)} cycles after ${a.x[d - 1]} B`)
          : open('the rise fits no LRU cache and the plateau before it is not constant', 'a sweep that starts well before the rise');
    } else
      rd.sizeBytes = open(
        `the rise fits no LRU cache and its first misses may hide in the noise (${fmt(sigma0)} cycles a point)`,
        'more traversals (less noise) or jitter-free measurements',
      );
    if (fitsAfter) {
      // Read from the geometries whose set index comes from the line number (WONG's reading) when any
      // fits; a grouped (texture-style) index that fits as well and reads otherwise is named in the
      // evidence: only a stride below the line over the whole rise tells the two apart.
      // Past a thrashing level before the window, one load per line of it arrives: a line of that size
      // or less would not show. The window's level is then read with the line no smaller than the
      // line above (as caches are built), and the evidence says so.
      const sized = edge && fits.some((h) => h.lineBytes >= reach) ? fits.filter((h) => h.lineBytes >= reach) : fits;
      const edgeNote = sized !== fits ? `; assuming the line is no smaller than the ${reach} B line of the level before the window` : '';
      const lineIndexed = sized.filter((h) => h.run === 1);
      const pool = lineIndexed.length ? lineIndexed : sized;
      const grouped = sized.filter((h) => h.run > 1);
      const lines = agree(pool, (h) => h.lineBytes);
      const sets = agree(pool, (h) => h.sets);
      const ways = agree(pool, (h) => h.ways);
      const caps = agree(pool, (h) => h.sizeBytes);
      const ev = `${pool.length} LRU geometr${pool.length > 1 ? 'ies' : 'y'} reproduce the rise${edgeNote}`;
      const alt = (pick: (h: Hypothesis) => number, v: number, unit = ''): string => {
        const other = lineIndexed.length ? agree(grouped, pick).filter((g) => g !== v) : [];
        return other.length
          ? `; assuming the set index comes from the line number (WONG): with 2 or 4 lines to a set (texture-style) it would be ${list(other, unit)}, which a stride below the line over the whole rise tells apart`
          : '';
      };
      rd.groupedDiffers = lineIndexed.length > 0 && grouped.some((g) => !lineIndexed.some((h) => h.lineBytes === g.lineBytes && h.sets === g.sets && h.ways === g.ways));
      rd.lineBytes =
        lines.length === 1
          ? decided(lines[0], `${ev}, all with ${lines[0]} B lines${alt((h) => h.lineBytes, lines[0], ' B')}`)
          : open(`lines of ${list(lines, ' B')} fit equally`, lines[0] <= s ? `a stride below ${s} B with a size step of at most the stride` : 'a finer size step or less noise');
      rd.sets =
        sets.length === 1 ? decided(sets[0], `${ev}, all with ${sets[0]} set(s)${alt((h) => h.sets, sets[0])}`) : open(`${list(sets)} sets fit equally`, 'a smaller stride (the sets a stride skips are not seen) or a finer size step');
      rd.ways = ways.length === 1 ? decided(ways[0], `${ev}, all ${ways[0]}-way${alt((h) => h.ways, ways[0])}`) : open(`${list(ways)} ways fit equally`, 'a finer size step or less noise');
      rd.capacityBytes =
        caps.length === 1 ? decided(caps[0], `${ev}, all of ${caps[0]} B${alt((h) => h.sizeBytes, caps[0], ' B')}`) : open(`capacities of ${list(caps, ' B')} fit equally`, 'a stride below the line');
      rd.regular = decided('yes', `${ev} within the noise`);
      const hidden = !streamKnown
        ? 'the level above is not identified, so which loads reach this level is unknown'
        : reach > s && !edgeNote && lines.some((b) => b <= reach)
          ? `the level above lets one load per ${reach} B through, so a line of ${reach} B or less does not show`
          : '';
      if (hidden) {
        const o = open<never>(hidden, 'a stride below this level\'s line that the level above still passes (a stride of its line), or identify the level above first');
        rd.lineBytes = o;
        rd.sets = o;
        // With the stream known, the fits tried every line, the hidden ones included: a capacity they
        // all agree on holds (the sets a coarser stream skips are the ones a shorter line adds).
        if (!streamKnown) {
          rd.ways = o;
          rd.capacityBytes = o;
        }
      }
      // With noise, a level above whose line is longer than the stride could hide in the plateau
      // before the first rise (its sawtooth under the noise): it passes one load per line of it, and the
      // line and sets read would be its granularity. The ways and the size seen hold either way. Two
      // strides whose first plateaus read alike rule it out (see readHierarchy).
      if (!hidden && k === 0 && !edge && noiseAt(xs) > 0) {
        rd.lineIfAlone = rd.lineBytes;
        rd.setsIfAlone = rd.sets;
        rd.capacityIfAlone = rd.capacityBytes;
        const o = open<never>(
          'with noise a level above with lines longer than the stride could hide in the plateau before this rise and set the granularity seen',
          'a second stride whose first plateau reads the same (no level above), or jitter-free measurements',
        );
        rd.lineBytes = o;
        rd.sets = o;
        rd.capacityBytes = o;
      }
    } else {
      const reason = why ?? 'no LRU geometry fits';
      const o = open<never>(reason, 'more traversals (less noise), a finer size step, or a stride below the line');
      rd.lineBytes = o;
      rd.sets = o;
      rd.ways = o;
      rd.capacityBytes = o;
      // The climb: this rise and the ones after it that follow short pauses (one climb cut in pieces).
      let j = k;
      while (j + 1 < R && !wideAfter(j)) j++;
      const climbEnd = a.ramps[j].steps[a.ramps[j].steps.length - 1] + 2;
      // A climb past twice its start may hold another level's rise: its falls are then no one level's.
      const oneLevel = (a.x[Math.min(n - 1, climbEnd)] ?? Infinity) <= 2 * xs;
      const falls = oneLevel && flat(c, c.before[0], c.before[1]) && fallsBelowLru(c, c.before[0], Math.min(ctxFor(j).after[1], climbEnd), floor0);
      rd.regular = falls
          ? decided('no', 'the latency falls between sizes by more than any LRU cache allows (more loads of no fewer misses), beyond six noise deviations: not the staircase of WONG Fig 4')
          : open(`${reason}, and the curve never falls by more than an LRU cache allows`, 'more traversals (less noise) or a wider sweep past the rise');
    }
    level.push(rd);
    // Later levels: their rank holds only when this rise ended in a long plateau, and (without a fit)
    // within twice its start: a longer climb may hold the rise of another level.
    const span = a.x[r.steps[r.steps.length - 1] + 1] ?? a.x[n - 1];
    if (!fitsAfter && span > 2 * xs) {
      rankOk = false;
      rankWhy = `the climb from ${xs} B to ${span} B fits no LRU cache and spans more than twice its start: it may hold more than one level`;
    } else if (!afterFlat) {
      rankOk = false;
      rankWhy = `the curve keeps creeping up past the rise at ${xs} B: an unresolved rise or a cache that is not LRU`;
    } else if (!wideEnough) {
      rankOk = false;
      rankWhy = `the plateau past the rise at ${xs} B is short: it may be a pause inside one rise`;
    }
    above = fitsAfter ? fits : null;
    aboveReach = reach;
  }

  // Levels and plateaus.
  let levels: Verdict<number>;
  const plateaus: Verdict<number>[] = [];
  if (R === 0) {
    const up = creeps(base, 0, n - 1) || !flat(base, 0, n - 1) || n < 3;
    const limit = 4 * noiseAt(a.x[n - 1] ?? 1);
    levels = n < 8
      ? open(`only ${n} size(s)`, 'a sweep of more sizes')
      : !up && limit > 0
        ? open(`no rise above ${fmt(limit)} cycles, but with noise of ${fmt(noiseAt(a.x[n - 1]))} cycles a point a level closer than that to the next would not show`, 'more traversals (less noise) or a stride of at least the line')
        : up
      ? open(`the curve climbs by ${fmt(medianOf(a.y, n - Math.max(1, Math.floor(n / 3)), n - 1) - medianOf(a.y, 0, Math.max(0, Math.floor(n / 3) - 1)))} cycles but in no clear step`, 'more traversals (less noise), a finer size step or a wider sweep')
      : n > 0
        ? decided(0, `flat curve: no rise above ${fmt(a.threshold)} cycles between neighbouring sizes, no drift beyond the noise`)
        : open('no sizes', 'a sweep');
    const same = n > 0 && Math.max(...a.y) - Math.min(...a.y) <= 1e-9 * (1 + Math.abs(a.y[0]));
    // The ends must sit on the plateau too: a rise at the first or last size is no plateau of its own.
    const mid = n > 0 ? medianOf(a.y, 0, n - 1) : 0;
    const endsAgree = n > 0 && [0, n - 1].every((i) => Math.abs(a.y[i] - mid) <= Math.max(3 * noiseAt(a.x[i]) + 1e-9 * (1 + Math.abs(mid)), MIN_STEP_CYCLES / 2));
    if (a.plateaus.length)
      plateaus.push(
        (n < 8 && !same && n > 1) || (n >= 8 && (up || !endsAgree))
          ? open('the curve creeps up or has too few sizes to tell a plateau', 'a narrower window, more sizes or more traversals')
          : decided(a.plateaus[0].latency, n === 1 ? `average latency at ${a.x[0]} B` : `median of ${n} points`),
      );
  } else {
    const last = a.ramps[R - 1];
    const lastCtx = ctxFor(R - 1);
    const lastLen = lastCtx.after[1] - lastCtx.after[0] + 1;
    const lastOk = afterOk[R - 1] && (level[R - 1].fits.length > 0 || lastLen >= 3);
    if (!rankOk) levels = open(rankWhy, 'more traversals (less noise), a finer size step or a wider sweep');
    else if (!(last.complete || fitsComplete(a, level[R - 1])) || !lastOk) levels = open('the sweep ends inside a rise, or the curve still creeps up at its end', 'a sweep to larger sizes');
    else if (!plateauOk[0]) levels = open('the sweep starts at a rise', 'a sweep that starts at a smaller size');
    else levels = decided(R, `${R} rising region(s) between flat plateaus`);
    a.plateaus.forEach((p, i) => {
      const k = i; // plateau i+1 lies before ramp i (after ramp i-1)
      const c: RampContext = { a, noiseAt, before: [p.from, p.to], after: [p.from, p.to] };
      const len = p.to - p.from + 1;
      const explained = k > 0 && level[k - 1]?.fits.length > 0;
      const okRank = k === 0 ? true : k - 1 < level.length && plateauOk[k - 1] && (k - 1 === 0 || level[k - 2] !== undefined);
      // Not flat and not explained by a fit: only a stretch creeps can judge (six points or more) and
      // no short pause between two rises (one climb, see wideAfter) is a plateau.
      const pause = k >= 1 && k < R && !explained && !wideAfter(k - 1);
      const fine = len >= 2 && !pause && !beforeBad[k] && (flat(c, p.from, p.to) || (explained && !creeps(c, p.from, p.to)) || (!creeps(c, p.from, p.to) && len >= 6));
      const rankHere = k === 0 || (k - 1 < R && (k === 1 || !level.slice(0, k - 1).some((l) => 'reason' in l.sizeBytes && l.sizeBytes.reason.startsWith('an earlier'))));
      plateaus.push(
        fine && okRank && rankHere && (k < R || levels.value !== undefined)
          ? decided(p.latency, `median of ${len} points, N = ${p.xFrom}..${p.xTo} B`)
          : open(`plateau ${k + 1} is short, creeps up or its rank is uncertain`, 'a wider sweep or more traversals'),
      );
    });
  }
  return { levels, plateaus, level, noiseAt };
}

function pushVerdict<T extends number | string>(out: Finding[], key: string, label: string, unit: string, v: Verdict<T>): void {
  if ('evidence' in v) out.push({ key, label, value: v.value, unit, evidence: v.evidence });
  else if (v.reason !== 'not read') out.push(cannotTell(key, label, v.reason, v.next));
}

// ---- The staircase reading (no LRU fits) ----------------------------------------------------------------

/** A staircase's step (a line) is read only when it spans at least this many size steps: one or two are not resolved. */
const STAIR_POINTS = 3;
/** A staircase's rise (one way) is read only when it spans at least this many size steps (its width is known to one). */
const WAY_POINTS = 4;
/** A staircase's plateau spreads (scatter or drift) over at most this share of the step height beside it. */
const STAIR_QUIET = 0.25;
/** Steps stand this many noise deviations of a difference out of the plateaus' own noise (analyseCurve's default). */
const STAIR_SIGMAS = 4;

/** Options of staircaseFindings. */
export interface StaircaseOptions {
  /**
   * The same code or array swept at another stride or size offset (the sizes shifted, or another size
   * step). A cache's rises do not move with either: a rise this curve does not show within the coarser
   * size step is read from neither, and a line or way the two curves resolve differently is not read.
   */
  second?: CurveAnalysis;
}

/** Largest power of two at most v (at least 1). */
const pow2Below = (v: number): number => 2 ** Math.max(0, Math.floor(Math.log2(Math.max(1, v))));

/** A latency in cycles, to three significant digits. */
const cyc = (v: number): string => (Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(3))));

/**
 * Why plateau i is no quiet plateau of a staircase, or '' when it is one: at least three points whose
 * scatter about their median (robust) and drift (median of the last third against the first) stay
 * under STAIR_QUIET of the smallest step height beside it, and whose own noise (noiseSigma of its
 * points, or the curve's where larger) the steps stand out of. The sub-line sawtooth of WONG Fig 4
 * (rises of 1/(a+1) of a step) stays well under that.
 */
function unquietPlateau(a: CurveAnalysis, i: number): string {
  const p = a.plateaus[i];
  const steps = [a.ramps[i - 1], a.ramps[i]].filter((r): r is Ramp => r !== undefined).map((r) => median(r.rises));
  if (!p || !steps.length) return '';
  const step = Math.min(...steps);
  const n = p.to - p.from + 1;
  const where = `plateau ${i + 1} (N = ${p.xFrom}..${p.xTo} B)`;
  if (n < 3) return `${where} has ${n} point(s), too few to tell a flat plateau`;
  const ys = a.y.subarray(p.from, p.to + 1);
  const scatter = 1.4826 * median(ys.map((v) => Math.abs(v - p.latency)));
  const third = Math.floor(n / 3);
  const drift = Math.abs(medianOf(ys, n - third, n - 1) - medianOf(ys, 0, third - 1));
  if (Math.max(scatter, drift) > STAIR_QUIET * step)
    return `${where} ${drift > scatter ? `drifts by ${cyc(drift)}` : `scatters by ${cyc(scatter)}`} cycles, comparable to the ${cyc(step)}-cycle steps beside it: not the flat plateau of a staircase`;
  const sigma = Math.max(a.noise, noiseSigma(ys));
  if (!(step > STAIR_SIGMAS * Math.SQRT2 * sigma)) return `the ${cyc(step)}-cycle steps beside ${where} do not stand out of its noise (${cyc(sigma)} cycles a point)`;
  return '';
}

/** Leading steps of a rise that sit one spacing apart (to half a size step): its staircase proper. */
function regularPrefix(a: CurveAnalysis, r: Ramp): number {
  if (r.steps.length < 2) return r.steps.length;
  const g = a.x[r.steps[1]] - a.x[r.steps[0]];
  let j = 2;
  while (j < r.steps.length && Math.abs(a.x[r.steps[j]] - a.x[r.steps[j - 1]] - g) <= a.dx / 2) j++;
  return j;
}

/**
 * Why the curve past rise i is too noisy for the rise's steps to be read, or '': the plateau after it
 * (see unquietPlateau) when the rise is one staircase; else (a last rise that no quiet stretch follows,
 * or one whose later steps break its spacing) the stretch past its evenly spaced steps up to the next
 * rise, which must be quiet as a plateau is when the rise is even (scatter and noise) and, when it is
 * not, have noise (the plain spread of its differences) its even steps stand out of: noise there can
 * pass for steps, or for the falls of a cache that is not LRU.
 */
function unquietAfter(a: CurveAnalysis, i: number, quiet: string[]): string {
  const r = a.ramps[i];
  const P = regularPrefix(a, r);
  if (P === r.steps.length && i + 1 < a.plateaus.length) return quiet[i + 1];
  const from = r.steps[P - 1] + 1;
  const to = i + 1 < a.ramps.length ? a.ramps[i + 1].steps[0] : a.x.length - 1;
  if (to - from + 1 < 3) return '';
  const ys = a.y.subarray(from, to + 1);
  const step = median(r.rises.slice(0, P));
  const where = `the curve past the rise at ${r.sizeBytes} B${P < r.steps.length ? `'s ${P} evenly spaced steps` : ''} (N = ${a.x[from]}..${a.x[to]} B)`;
  if (P === r.steps.length) {
    const med = median(ys);
    const scatter = 1.4826 * median(ys.map((v) => Math.abs(v - med)));
    if (scatter > STAIR_QUIET * step) return `${where} scatters by ${cyc(scatter)} cycles, comparable to the rise's ${cyc(step)}-cycle steps: no plateau follows, and noise may pass for steps`;
  }
  // Past steps that break the spacing no sawtooth is expected: the plain spread of the differences
  // counts (a robust one would pass over half the points being noise).
  let ss = 0;
  for (let j = 1; j < ys.length; j++) ss += (ys[j] - ys[j - 1]) ** 2;
  const rms = P < r.steps.length ? Math.sqrt(ss / (ys.length - 1) / 2) : 0;
  const sigma = Math.max(a.noise, noiseSigma(ys), rms);
  if (!(step > STAIR_SIGMAS * Math.SQRT2 * sigma)) return `the rise's ${cyc(step)}-cycle steps do not stand out of the noise of ${where} (${cyc(sigma)} cycles a point): noise there may pass for steps or falls`;
  return '';
}

/** What the sweep resolves of one rise: '' or why not, for its step spacing (the line) and its width (one way). */
interface StairResolution {
  /** Steps further apart than the size step: a line is candidate (as analyseCurve reads it). */
  lineCandidate: boolean;
  line: string;
  lineNext: string;
  way: string;
  wayNext: string;
}

function stairResolution(a: CurveAnalysis, r: Ramp, stride: number): StairResolution {
  const { x, dx } = a;
  const n = x.length;
  const first = r.steps[0];
  const last = r.steps[r.steps.length - 1];
  const lineCandidate = r.regular && Number.isInteger(Math.log2(r.spacing)) && r.spacing > stride && r.spacing > dx;
  const out: StairResolution = { lineCandidate, line: '', lineNext: '', way: '', wayNext: '' };
  const fineLine = pow2Below(r.spacing / 4);
  const fineWay = pow2Below(r.widthBytes / 8);
  const wayWindow = `over N = ${sizeText(Math.max(fineWay, r.sizeBytes - r.widthBytes))}..${sizeText(r.sizeBytes + 2 * r.widthBytes)}`;
  // The size step must be one across the rise (and a point either side): else its steps' spacing is the sweep's.
  let lo = Infinity;
  let hi = 0;
  for (let i = Math.max(0, first - 1); i + 1 < n && i <= last + 1; i++) {
    lo = Math.min(lo, x[i + 1] - x[i]);
    hi = Math.max(hi, x[i + 1] - x[i]);
  }
  if (hi - lo > 1e-9 * hi || Math.abs(hi - dx) > 1e-9 * hi) {
    out.line = out.way = `the size step is not one across the rise at ${r.sizeBytes} B (${fmt(lo)}..${fmt(hi)} B): the steps' spacing and the rise's width are the sweep's`;
    out.lineNext = out.wayNext = `a sweep of one size step across the rise, ${wayWindow}`;
    return out;
  }
  const q = r.spacing / dx;
  if (Math.abs(q - Math.round(q)) > 1e-6) {
    out.line = out.way = `the steps are ${fmt(r.spacing)} B apart, not a whole number of size steps of ${fmt(dx)} B: the sweep does not resolve them`;
    out.lineNext = out.wayNext = `a sweep whose size step divides the steps' spacing (at most ${sizeText(fineLine)})`;
    return out;
  }
  if (q < STAIR_POINTS) {
    out.line = `the steps are ${fmt(r.spacing)} B apart, ${Math.round(q)} size step(s) of ${fmt(dx)} B: a step read from ${Math.round(q)} point(s) is not resolved`;
    out.lineNext = `a sweep with a finer size step (at most ${sizeText(fineLine)})`;
  }
  const spans = r.widthBytes / dx;
  if (spans < WAY_POINTS) {
    out.way = `the rise lies within ${fmt(spans)} size step(s) of ${sizeText(dx)}, too few to resolve its width (one way)`;
    out.wayNext = `a size step of at most ${sizeText(fineWay)} ${wayWindow}`;
  }
  return out;
}

/**
 * Why the ways of a resolved rise are not read, or '': the size (the last size before the rise) and the
 * width (one way) are each known to a size step, and every associativity size / width those allow must
 * round to one.
 */
function unresolvedWays(a: CurveAnalysis, r: Ramp): string {
  const { dx } = a;
  const lo = r.sizeBytes / (r.widthBytes + dx);
  const hi = (r.sizeBytes + dx) / (r.widthBytes - dx);
  const from = Math.ceil(lo);
  const to = Math.floor(hi);
  if (to <= from) return '';
  return `with the size and the rise's width (one way) each known to a size step of ${sizeText(dx)}, ${from}..${to} ways fit`;
}

/**
 * Why a rise read as no staircase may be the sweep's doing, or '': its steps sit k or k + 1 size steps
 * apart (as the steps of a spacing the size step does not divide do) and the curve never falls between
 * them by more than half a step (analyseCurve's test), so only the uneven spacing made it irregular.
 */
function aliasedSteps(a: CurveAnalysis, r: Ramp): string {
  if (r.steps.length < 3 || !(a.dx > 0)) return '';
  const gaps = r.steps.slice(1).map((s, j) => Math.round((a.x[s] - a.x[r.steps[j]]) / a.dx));
  const lo = Math.min(...gaps);
  const hi = Math.max(...gaps);
  if (hi - lo !== 1) return '';
  const step = median(r.rises);
  for (let i = r.steps[0]; i < r.steps[r.steps.length - 1]; i++) if (a.y[i] - a.y[i + 1] > 0.5 * step + a.threshold) return '';
  return `the steps of the rise at ${r.sizeBytes} B are ${lo} or ${hi} size steps of ${fmt(a.dx)} B apart, as those of a spacing the size step does not divide are, and the curve does not fall between them`;
}

/** The rise of `other` that sits where r does (within `tol`), or undefined; `nearest` is the closest one. */
function matchRise(other: CurveAnalysis, r: Ramp, tol: number): { same?: Ramp; nearest?: Ramp } {
  let nearest: Ramp | undefined;
  for (const q of other.ramps) if (!nearest || Math.abs(q.sizeBytes - r.sizeBytes) < Math.abs(nearest.sizeBytes - r.sizeBytes)) nearest = q;
  return { same: nearest && Math.abs(nearest.sizeBytes - r.sizeBytes) <= tol ? nearest : undefined, nearest };
}

/**
 * WONG's staircase reading: the levels, plateaus, and each rise's size, way size, ways and line size as
 * the staircase shows them (WONG Fig 4, read as IV-K reads Figs 22 and 23). For curves that are no
 * cyclic chase of a data array (instruction fetch with prefetching), where the LRU fits of readCurve do
 * not apply; the experiment that asks for it says so in its notes. Each reading is checked for what it
 * assumes, and is "cannot tell" with the reason and what to sweep next where that does not hold:
 *  - the sweep resolves the steps: a line is read from steps at least STAIR_POINTS size steps apart and
 *    a whole number of them, over a uniform size step; a way (and the ways) from a rise at least
 *    WAY_POINTS size steps wide; the ways only when every ratio the size and width allow (each known
 *    to a size step) rounds to one;
 *  - quiet plateaus: each plateau beside a rise is flat to within STAIR_QUIET of the step height and the
 *    steps stand out of its own noise (see unquietPlateau); else the plateau's latency, the rises beside
 *    it and the level count are not read;
 *  - rises the sweep does not move: with `options.second` (the same code at another stride or size
 *    offset) each rise must show there within the coarser size step, as many of them, and a line or
 *    way both curves resolve must read alike.
 */
export function staircaseFindings(a: CurveAnalysis, stride: number, label: string, options: StaircaseOptions = {}): Finding[] {
  const out: Finding[] = [];
  const { second } = options;
  const tol = second ? Math.max(a.dx, second.dx) : a.dx;
  const secondName = second ? `the second sweep (size step ${sizeText(second.dx)} from ${sizeText(second.x[0] ?? 0)})` : '';
  const moveNext = 'a finer size step, and sweeps at more size offsets or strides';
  const quiet = a.plateaus.map((_, i) => unquietPlateau(a, i));
  const afters = a.ramps.map((_, i) => unquietAfter(a, i, quiet));
  const matches = a.ramps.map((r) => (second ? matchRise(second, r, tol) : undefined));
  // Levels: every plateau quiet, and (with a second curve) as many rises there, each at the same size.
  const noisy = [...quiet, ...afters].find((w) => w !== '');
  const moved = matches.findIndex((m) => m !== undefined && !m.same);
  if (noisy) out.push(cannotTell(`${label}.levels`, `${label}: cache levels seen`, `${noisy}, so a rise may hide in it`, 'more passes (less noise) or a finer size step over the plateau'));
  else if (second && second.ramps.length !== a.ramps.length)
    out.push(cannotTell(`${label}.levels`, `${label}: cache levels seen`, `this curve rises ${a.ramps.length} time(s), ${secondName} ${second.ramps.length}: a rise moves with the sweep`, moveNext));
  else if (moved >= 0) out.push(cannotTell(`${label}.levels`, `${label}: cache levels seen`, `the rise at ${a.ramps[moved].sizeBytes} B does not show at that size in ${secondName}`, moveNext));
  else
    out.push({
      key: `${label}.levels`,
      label: `${label}: cache levels seen`,
      value: a.ramps.length,
      unit: '',
      evidence: a.ramps.length
        ? `${a.ramps.length} rising region(s) between plateaus${second ? `; ${secondName} rises as often, at the same sizes` : ''}`
        : `flat curve: no rise above ${fmt(a.threshold)} cycles between neighbouring sizes`,
    });
  a.plateaus.forEach((p, i) => {
    const key = `${label}.plateau${i + 1}.latency`;
    const lab = `${label}: plateau ${i + 1} latency`;
    if (quiet[i]) out.push(cannotTell(key, lab, quiet[i], 'more passes (less noise), or a sweep that resolves the steps beside it'));
    else out.push({ key, label: lab, value: Math.round(p.latency * 10) / 10, unit: 'cycles', evidence: `median of ${p.to - p.from + 1} points, N = ${p.xFrom}..${p.xTo} B` });
  });
  a.ramps.forEach((r, i) => {
    const k = `${label}.level${i + 1}`;
    const lv = `${label}: level ${i + 1}`;
    // The rise itself: quiet plateaus either side, and not moved by the second sweep.
    // The size needs the plateau before the rise; its steps, width and line the stretch after it too.
    const m = matches[i];
    const movedWhy =
      m && !m.same
        ? m.nearest
          ? `the rise at ${r.sizeBytes} B is at ${m.nearest.sizeBytes} B in ${secondName}, more than a size step (${sizeText(tol)}) away: the sweep moves it, so it is no cache's size`
          : `${secondName} shows no rise near ${r.sizeBytes} B: the sweep moves it, so it is no cache's size`
        : '';
    const after = afters[i];
    const sizeWhy = quiet[i] || movedWhy;
    const sizeNext = quiet[i] ? 'more passes (less noise), or a sweep that resolves the steps' : moveNext;
    const rise = quiet[i] || after || movedWhy;
    const riseNext = quiet[i] || after ? 'more passes (less noise), or a sweep that resolves the steps' : moveNext;
    const same = m?.same;
    if (sizeWhy) out.push(cannotTell(`${k}.sizeBytes`, `${lv} size`, sizeWhy, sizeNext));
    else
      out.push({
        key: `${k}.sizeBytes`,
        label: `${lv} size`,
        value: r.sizeBytes,
        unit: 'B',
        evidence: `last size before the rise at ${r.sizeBytes} B (${r.steps.length} step(s) follow)${same ? `; ${secondName} rises at ${same.sizeBytes} B` : ''}`,
      });
    if (rise) out.push(cannotTell(`${k}.steps`, `${lv} steps in the rise`, rise, riseNext));
    else out.push(stepsFinding(k, lv, r));
    const aliased = r.regular ? '' : aliasedSteps(a, r);
    if (!r.regular)
      out.push(
        rise || aliased
          ? cannotTell(`${k}.regular`, `${lv} rises like an LRU cache`, rise || aliased, rise ? riseNext : `a size step that divides the steps' spacing (a power of two, at most ${sizeText(pow2Below(r.spacing / 4))})`)
          : {
              key: `${k}.regular`,
              label: `${lv} rises like an LRU cache`,
              value: 'no',
              unit: '',
              evidence: 'the latency falls between steps or the steps are unevenly spaced: not the staircase of WONG Fig 4, so line size and ways are not read',
            },
      );
    const res = stairResolution(a, r, stride);
    const res2 = same && second ? stairResolution(second, same, second.stride) : undefined;
    // One way: the rise's width, resolved, and alike on the second sweep where that resolves it too.
    if (r.complete && r.regular) {
      const wayBoth = same && res2 && same.complete && same.regular && !res2.way && Math.abs(same.widthBytes - r.widthBytes) > tol;
      const wayWhy = rise || res.way || (wayBoth ? `the rise is ${r.widthBytes} B wide here and ${same.widthBytes} B in ${secondName}: the sweep moves its width` : '');
      const wayNext = rise ? riseNext : res.way ? res.wayNext : moveNext;
      if (wayWhy) out.push(cannotTell(`${k}.waySizeBytes`, `${lv} way size`, wayWhy, wayNext));
      else out.push({ key: `${k}.waySizeBytes`, label: `${lv} way size`, value: r.widthBytes, unit: 'B', evidence: `the rise spans ${r.sizeBytes}..${r.sizeBytes + r.widthBytes} B` });
      if (r.ways !== undefined) {
        const waysWhy = wayWhy || unresolvedWays(a, r);
        const waysNext = wayWhy ? wayNext : `a size step of at most ${sizeText(pow2Below(r.widthBytes / (2 * r.ways + 2)))} ${`over N = ${sizeText(Math.max(1, r.sizeBytes - r.widthBytes))}..${sizeText(r.sizeBytes + 2 * r.widthBytes)}`}`;
        if (waysWhy) out.push(cannotTell(`${k}.ways`, `${lv} associativity`, waysWhy, waysNext));
        else out.push({ key: `${k}.ways`, label: `${lv} associativity`, value: r.ways, unit: '', evidence: `size ${r.sizeBytes} B / way size ${r.widthBytes} B` });
      }
    }
    // The line: the steps' spacing, resolved, and alike on the second sweep where that resolves it too.
    if (res.lineCandidate) {
      const lineBoth = same && res2 && res2.lineCandidate && !res2.line && same.spacing !== r.spacing;
      const lineWhy = rise || res.line || (lineBoth ? `the steps are ${fmt(r.spacing)} B apart here and ${fmt(same.spacing)} B in ${secondName}: their spacing follows the sweep, not a line` : '');
      const lineNext = rise ? riseNext : res.line ? res.lineNext : 'a stride and size step below the line, at two of them';
      if (lineWhy) {
        out.push(cannotTell(`${k}.lineBytes`, `${lv} line size`, lineWhy, lineNext));
        if (r.complete) out.push(cannotTell(`${k}.sets`, `${lv} sets`, lineWhy, lineNext));
      } else {
        out.push({ key: `${k}.lineBytes`, label: `${lv} line size`, value: r.spacing, unit: 'B', evidence: `steps ${fmt(r.spacing)} B apart with stride ${stride} B < line (WONG Fig 4)` });
        if (r.complete) out.push({ key: `${k}.sets`, label: `${lv} sets`, value: Math.round(r.widthBytes / r.spacing), unit: '', evidence: `${Math.round(r.widthBytes / r.spacing)} steps of one line each` });
      }
    }
  });
  return out;
}


const sizeText = (n: number): string => (n >= 1024 && n % 1024 === 0 ? `${n / 1024} KB` : `${fmt(n)} B`);

/**
 * An open associativity whose whole rise lies within one or two size steps: the step, not the noise,
 * hides the rise's width (one way: size / ways), so the reading says so, the least associativity the
 * rise still allows, and the step that resolves it (a sixteenth of the widest way the rise allows, a
 * power of two, at least the stride) over a window around the size.
 */
function coarseWays(L: LevelReading, r: Ramp, dx: number, stride: number): Verdict<number> {
  const v = L.ways;
  if (v.value !== undefined || v.reason === 'not read' || L.sizeBytes.value === undefined || !r.complete || !(dx > 0)) return v;
  const spans = r.steps.length > 0 ? Math.round(r.widthBytes / dx) : 0;
  if (spans < 1 || spans > 2) return v;
  const widest = spans * dx;
  const size = L.sizeBytes.value;
  const step = Math.max(stride, 2 ** Math.floor(Math.log2(widest / 16)));
  if (step >= dx) return v;
  const from = Math.max(step, size - widest);
  return open(
    `the rise lies within ${spans} size step${spans === 1 ? '' : 's'} of ${sizeText(dx)}, too coarse to resolve the associativity: its width (one way, size / ways) is at most ${sizeText(widest)}, so any associativity from ${Math.ceil(size / widest)} up fits (${v.reason})`,
    `a size step of at most ${sizeText(step)} over N = ${sizeText(from)}..${sizeText(size + 2 * widest)}`,
  );
}

/** Turns a curve analysis into findings keyed `${label}.plateauK.latency`, `${label}.levelK.sizeBytes`, ... */
export function curveFindings(a: CurveAnalysis, stride: number, label: string): Finding[] {
  const rd = readCurve(a.stride === stride ? a : { ...a, stride });
  return readingFindings(a, rd, stride, label);
}

/** Findings of a reading (see curveFindings). */
export function readingFindings(a: CurveAnalysis, rd: CurveReading, stride: number, label: string): Finding[] {
  const out: Finding[] = [];
  pushVerdict(out, `${label}.levels`, `${label}: cache levels seen`, '', rd.levels);
  rd.plateaus.forEach((p, i) => {
    const v: Verdict<number> = p.value !== undefined ? { value: Math.round(p.value * 10) / 10, evidence: p.evidence } : p;
    pushVerdict(out, `${label}.plateau${i + 1}.latency`, `${label}: plateau ${i + 1} latency`, 'cycles', v);
  });
  a.ramps.forEach((r, i) => {
    const k = `${label}.level${i + 1}`;
    const lv = `${label}: level ${i + 1}`;
    const L = rd.level[i];
    pushVerdict(out, `${k}.sizeBytes`, `${lv} size seen with stride ${stride} B`, 'B', L.sizeBytes);
    out.push(stepsFinding(k, lv, r));
    pushVerdict(out, `${k}.regular`, `${lv} rises like an LRU cache`, '', L.regular);
    if (L.ways.value !== undefined && L.sizeBytes.value !== undefined)
      out.push({ key: `${k}.waySizeBytes`, label: `${lv} way size`, value: L.sizeBytes.value / L.ways.value, unit: 'B', evidence: `size ${L.sizeBytes.value} B / ${L.ways.value} ways` });
    pushVerdict(out, `${k}.ways`, `${lv} associativity`, '', coarseWays(L, r, a.dx, stride));
    pushVerdict(out, `${k}.lineBytes`, `${lv} line size`, 'B', L.lineBytes);
    pushVerdict(out, `${k}.sets`, `${lv} sets`, '', L.sets);
  });
  return out;
}

/** WONG III-B / Fig 4: plateaus, cache sizes, line sizes and ways read off one average-latency curve. */
export function analyseAverageCurve(x: ArrayLike<number>, y: ArrayLike<number>, stride: number, label: string, options: CurveOptions = {}): Finding[] {
  return curveFindings(analyseCurve(x, y, stride, options), stride, label);
}

/** How a level's observed size changes when a second stream runs beside the measured one (WONG IV-J4). */
export type SharingVerdict = 'shared' | 'private' | 'unclear';

/**
 * WONG IV-J4: two concurrent streams of equal footprint that compete for a cache halve the size each
 * observes; a cache the other stream cannot reach keeps its size. Compares the size seen alone with
 * the size seen beside the other stream (both read off curves by the analyser).
 */
export function sharingVerdict(aloneBytes: number | undefined, pairedBytes: number | undefined): { verdict: SharingVerdict; ratio: number } {
  if (!aloneBytes || pairedBytes === undefined) return { verdict: 'unclear', ratio: NaN };
  const ratio = pairedBytes / aloneBytes;
  const verdict = Math.abs(ratio - 0.5) <= 0.1 ? 'shared' : Math.abs(ratio - 1) <= 0.1 ? 'private' : 'unclear';
  return { verdict, ratio };
}

// ---- The hierarchy from several curves ------------------------------------------------------------------

/** One analysed curve and its reading (see readHierarchy). */
export interface ReadCurve {
  a: CurveAnalysis;
  rd: CurveReading;
}

/**
 * Two plateaus read alike only when their difference is known to a cycle or better (six standard
 * errors): then two levels whose latencies are two cycles apart never pass for one.
 */
const ALIKE_CYCLES = 1;

/** Points a plateau needs for its own scatter to bound its noise (see plateauError). */
const OWN_SCATTER = 12;

/**
 * Standard error of plateau k's median (1.25 sigma / sqrt n, with the noise of its smallest size);
 * Infinity when absent. The curve-wide noise is estimated from its quietest stretches, and a sub-line
 * sawtooth elsewhere on the curve inflates it: a plateau of OWN_SCATTER points or more bounds its
 * noise by its own scatter too (1.5 times its robust spread about its median, to allow for the spread
 * of that estimate).
 */
function plateauError(c: ReadCurve, k: number): number {
  const p = c.a.plateaus[k];
  if (!p) return Infinity;
  const n = p.to - p.from + 1;
  let sigma = c.rd.noiseAt(p.xFrom);
  if (n >= OWN_SCATTER && sigma > 0) {
    const d = new Float64Array(n);
    for (let i = 0; i < n; i++) d[i] = c.a.y[p.from + i] - p.latency;
    sigma = Math.min(sigma, 1.5 * 1.4826 * median(d.map(Math.abs)));
  }
  return (1.25 * sigma) / Math.sqrt(n);
}

const hypKey = (h: Hypothesis): string => `${h.lineBytes}/${h.sets}/${h.ways}/${h.index}/${h.run}`;

/**
 * The geometries that fit one level on several curves at once. Each curve is a constant plus the miss
 * penalty times the geometry's miss share, and both are the level's own: the constant its hit latency,
 * the penalty the next level's latency less its own, the same at every stride. Below the line a stride
 * misses once per line, at or past it once per load, so the ratio of the curves' rises tells apart
 * geometries that each curve alone fits equally (a line of 2b against lines of b grouped two to a set,
 * or any line at most the stride). Null when a curve's fit is no plain one (a level above contributes
 * or thins the stream) or the curves have no geometry in common.
 */
export function jointFits(levels: LevelReading[]): Hypothesis[] | null {
  const data = levels.map((l) => l.fitData);
  if (levels.length < 2) return null;
  const ds: FitData[] = [];
  for (const d of data) {
    if (!d || !d.plain || d.reach !== d.stride) return null;
    ds.push(d);
  }
  const common = levels[0].fits.filter((h) => levels.every((l) => l.fits.some((g) => hypKey(g) === hypKey(h))));
  if (!common.length) return null;
  const ys = Float64Array.from(ds.flatMap((d) => Array.from(d.ys)));
  const tol = ds.flatMap((d) => Array.from(d.tol));
  const out: Hypothesis[] = [];
  for (const h of common) {
    const g = Float64Array.from(ds.flatMap((d) => Array.from(missShare(h, d.Ns, d.stride, d.loads, d.reach))));
    const fit = leastSquares([g], ys);
    if (!fit || !(fit.coef[1] > 0)) continue;
    if (fit.res.every((e, j) => Math.abs(e) <= tol[j])) out.push(h);
  }
  return out;
}

/**
 * Fits level k (k >= 1) of one curve again once the level above is identified across the curves: its
 * geometries (one line) say which loads reach level k (one per line of it past the stride) and, where
 * the plateau before the rise is not flat, how much of that plateau is the level above's misses. The
 * curve alone could not tell (its own fits of the level above disagreed). Null when no geometry fits.
 */
function refitBelow(c: ReadCurve, k: number, above: Hypothesis[]): { fits: Hypothesis[]; reach: number } | null {
  const { a, rd } = c;
  const R = a.ramps.length;
  const n = a.x.length;
  if (k < 1 || k >= R) return null;
  const lines = agree(above, (h) => h.lineBytes);
  if (lines.length !== 1) return null;
  const r = a.ramps[k];
  const prev = a.ramps[k - 1];
  const ctx: RampContext = {
    a,
    noiseAt: rd.noiseAt,
    before: [prev.steps[prev.steps.length - 1] + 1, r.steps[0]],
    after: [r.steps[r.steps.length - 1] + 1, k + 1 < R ? a.ramps[k + 1].steps[0] : n - 1],
  };
  const f = fitRamp(ctx, k, above, a.stride, Math.max(a.stride, lines[0]), true);
  return f.fits.length ? { fits: f.fits, reach: f.reach } : null;
}

/** Sizes within one sweep step of each other are the same size. */
function near(p: number, q: number, step: number): boolean {
  return Math.abs(p - q) <= step;
}

/** The one value all entries agree on (numbers within `slack`), or the list of the different ones. */
function consensus(values: { v: number; from: string }[], slack = 0): { value?: number; from: string[]; all: number[] } {
  const all = [...new Set(values.map((e) => e.v))].sort((p, q) => p - q);
  if (all.length && all[all.length - 1] - all[0] <= slack) return { value: all[0], from: values.map((e) => e.from), all };
  return { from: values.map((e) => e.from), all };
}

/**
 * The hierarchy read off several curves of one sweep (strides differ, sizes the same): a level is
 * matched across curves by its rank where the curves see the same number of levels, else by the size
 * it rises at; each quantity is taken where a curve decides it (its fits agree, the grouped index
 * included) and only when every curve that decides it agrees. A size the stride does not move is the
 * capacity (a stride past the way skips sets and moves it); a plateau two strides read alike is a
 * level's latency (below the line a plateau mixes hits and misses, and moves with the stride).
 */
export function readHierarchy(curves: ReadCurve[], label = 'hierarchy'): Finding[] {
  const out: Finding[] = [];
  if (curves.length === 0) return out;
  const step = Math.max(...curves.map((c) => c.a.dx));
  const name = (c: ReadCurve): string => `stride ${c.a.stride} B`;
  const byStride = [...curves].sort((p, q) => p.a.stride - q.a.stride);
  const counted = byStride.filter((c) => c.rd.levels.value !== undefined);
  // Levels: every curve decides the same count.
  const counts = [...new Set(counted.map((c) => c.rd.levels.value as number))];
  let L: number | undefined;
  if (counted.length === curves.length && counts.length === 1) L = counts[0];
  // A first plateau that reads alike at every stride hides no level above (its sawtooth would move it),
  // and the curves start at the same level; else their levels of one rank may be different caches.
  const firsts = curves.map((c) => ({ p: c.rd.plateaus[0]?.value, sigma: plateauError(c, 0) }));
  const firstAlike =
    curves.length >= 2 &&
    firsts.every((e) => e.p !== undefined) &&
    6 * Math.SQRT2 * Math.max(...firsts.map((e) => e.sigma)) <= ALIKE_CYCLES &&
    Math.max(...firsts.map((e) => e.p as number)) - Math.min(...firsts.map((e) => e.p as number)) <= 6 * Math.SQRT2 * Math.max(...firsts.map((e) => e.sigma)) + 1e-6 * (1 + Math.abs(firsts[0].p as number));
  let why = '';
  if (L !== undefined && L > 0 && !firstAlike) why = 'the curves\' first plateaus differ: they may start at different levels, so their levels of one rank are not matched';
  // Levels of one rank must be one cache: where the fits of two curves each agree on a capacity, the same one.
  for (let k = 0; L !== undefined && !why && k < L; k++) {
    const caps = curves.map((c) => agree(c.rd.level[k].fits, (h) => h.sizeBytes)).filter((v) => v.length === 1).map((v) => v[0]);
    if (new Set(caps).size > 1) why = `the curves' level ${k + 1} fits caches of ${list(caps, ' B')}: not one cache`;
  }
  pushVerdict(
    out,
    `${label}.levels`,
    `${label}: cache levels that rise inside the sweep`,
    '',
    L !== undefined && !why
      ? decided<number>(L, `every curve (${curves.map(name).join(', ')}) sees ${L} level(s)`)
      : open<number>(
          why ||
            (counted.length < curves.length
              ? `the curves of ${byStride.filter((c) => c.rd.levels.value === undefined).map(name).join(', ')} do not decide their levels`
              : `the curves see ${counts.join(' and ')} levels (a stride can put two levels at one size)`),
          'more traversals (less noise), a wider sweep, or a stride at which the levels rise apart',
        ),
  );
  // Without a count, the leading levels whose rank every curve is sure of are still matched by rank
  // (the same checks: first plateaus alike, one cache per rank).
  let K = L !== undefined && !why ? L : 0;
  if (K === 0 && firstAlike) {
    K = Math.min(...curves.map((c) => {
      let j = 0;
      while (j < c.rd.level.length && c.rd.level[j].ranked) j++;
      return j;
    }));
    for (let k = 0; k < K; k++) {
      const caps = curves.map((c) => agree(c.rd.level[k].fits, (h) => h.sizeBytes)).filter((v) => v.length === 1).map((v) => v[0]);
      if (new Set(caps).size > 1) K = k;
    }
  }
  const counted2 = L !== undefined && !why;
  // Level k of each curve (matched by rank).
  const hLine: (number | undefined)[] = [];
  // The first level's geometries when the curves together identify its line (see jointFits).
  let firstIdentified: Hypothesis[] | null = null;
  const hRegular: (string | undefined)[] = [];
  for (let k = 0; k < K; k++) {
    const lv = `${label}.level${k + 1}`;
    const txt = `${label}: level ${k + 1}`;
    const at = curves.map((c) => ({ c, l: c.rd.level[k], x: c.a.x[c.a.ramps[k].steps[0]] }));
    // The first level, when no level above hides before it (first plateaus alike): the geometries that
    // fit every curve with one hit latency and one miss penalty.
    const joint = k === 0 && firstAlike ? jointFits(at.map(({ l }) => l)) : null;
    const jointFrom = `one LRU geometry fits the curves of ${curves.map(name).join(' and ')} with one hit latency and one miss penalty`;
    if (joint && joint.length && agree(joint, (h) => h.lineBytes).length === 1) firstIdentified = joint;
    // The second level on a curve whose own reading left the level above unidentified: fitted again
    // with the first level the curves identify together.
    const refits = at.map(({ c, l }) => (k === 1 && firstIdentified && l.ranked && l.reach === undefined ? refitBelow(c, k, firstIdentified) : null));
    const refitValue = (i: number, pick: (h: Hypothesis) => number): number | undefined => {
      const f = refits[i];
      if (!f) return undefined;
      const vals = agree(f.fits, pick);
      return vals.length === 1 ? vals[0] : undefined;
    };
    const refitFrom = (i: number): string => `the fits of ${name(at[i].c)} with the first level identified (one load per ${refits[i]?.reach} B reaches this one)`;
    const jointValue = (pick: (h: Hypothesis) => number): number | undefined => {
      if (!joint || !joint.length) return undefined;
      const vals = agree(joint, pick);
      return vals.length === 1 ? vals[0] : undefined;
    };
    // Capacity: the fits' capacity where they all agree, and sizes seen alike at different strides.
    const caps: { v: number; from: string }[] = [];
    for (const { c, l } of at) {
      const all = agree(l.fits, (h) => h.sizeBytes);
      const capV = k === 0 && firstAlike && l.capacityIfAlone ? l.capacityIfAlone : l.capacityBytes;
      // Every fit, grouped index included, has this capacity: the index does not matter to it.
      if (all.length === 1 && capV.value !== undefined) caps.push({ v: all[0], from: `the fits of ${name(c)}` });
    }
    at.forEach((_, i) => {
      const v = refitValue(i, (h) => h.sizeBytes);
      if (v !== undefined) caps.push({ v, from: refitFrom(i) });
    });
    const jointCap = jointValue((h) => h.sizeBytes);
    if (jointCap !== undefined) caps.push({ v: jointCap, from: jointFrom });
    const seen = at.filter(({ l }) => l.sizeBytes.value !== undefined);
    for (let i = 0; i < seen.length; i++)
      for (let j = i + 1; j < seen.length; j++)
        if (seen[i].l.reach !== undefined && seen[j].l.reach !== undefined && seen[i].l.reach !== seen[j].l.reach && near(seen[i].l.sizeBytes.value as number, seen[j].l.sizeBytes.value as number, step))
          caps.push({ v: Math.min(seen[i].l.sizeBytes.value as number, seen[j].l.sizeBytes.value as number), from: `the rise at the same size with ${name(seen[i].c)} and ${name(seen[j].c)}` });
    const cap = consensus(caps, step - 1);
    pushVerdict(
      out,
      `${lv}.sizeBytes`,
      `${txt} size`,
      'B',
      cap.value !== undefined
        ? decided<number>(cap.value, `${[...new Set(cap.from)].join('; ')}`)
        : open<number>(
            caps.length ? `readings disagree: ${list(cap.all, ' B')}` : 'no curve fits an LRU geometry to it and the strides see it rise at different sizes',
            'a stride below the line, or two strides below the way size',
          ),
    );
    // Line, sets, ways: where a curve's fits all agree (grouped index included).
    const q = (pick: (l: LevelReading) => Verdict<number>, what: string, unit: string, jointPick: (h: Hypothesis) => number): Verdict<number> => {
      const vals: { v: number; from: string }[] = [];
      for (const { c, l } of at) {
        const v = pick(l);
        // A grouped index that fits as well must read the same (or the curve's reading assumed WONG's index).
        const every = agree(l.fits, jointPick);
        if (v.value !== undefined && (!l.groupedDiffers || (every.length === 1 && every[0] === v.value))) vals.push({ v: v.value, from: `the fits of ${name(c)}` });
      }
      const jv = jointValue(jointPick);
      if (jv !== undefined) vals.push({ v: jv, from: jointFrom });
      at.forEach((_, i) => {
        const v = refitValue(i, jointPick);
        if (v !== undefined) vals.push({ v, from: refitFrom(i) });
      });
      const r = consensus(vals);
      return r.value !== undefined
        ? decided(r.value, [...new Set(r.from)].join('; '))
        : open(vals.length ? `the curves read ${list(r.all, unit)}` : `no curve decides the ${what}`, `a stride below the line over the whole rise`);
    };
    const lineV = q((l) => (k === 0 && firstAlike && l.lineIfAlone ? l.lineIfAlone : l.lineBytes), 'line', ' B', (h) => h.lineBytes);
    hLine.push(lineV.value);
    pushVerdict(out, `${lv}.lineBytes`, `${txt} line size`, 'B', lineV);
    pushVerdict(out, `${lv}.sets`, `${txt} sets`, '', q((l) => (k === 0 && firstAlike && l.setsIfAlone ? l.setsIfAlone : l.sets), 'sets', '', (h) => h.sets));
    pushVerdict(out, `${lv}.ways`, `${txt} associativity`, '', q((l) => l.ways, 'ways', '', (h) => h.ways));
    const regs: ('yes' | 'no')[] = [...new Set(at.map(({ l }) => l.regular.value).filter((v): v is 'yes' | 'no' => v !== undefined))];
    hRegular.push(regs.length === 1 ? regs[0] : undefined);
    pushVerdict(
      out,
      `${lv}.regular`,
      `${txt} rises like an LRU cache`,
      '',
      regs.length === 1 ? decided<'yes' | 'no'>(regs[0], `the curves of ${at.filter(({ l }) => l.regular.value !== undefined).map(({ c }) => name(c)).join(' and ')}`) : open<'yes' | 'no'>(regs.length ? 'the curves disagree' : 'no curve decides it', 'more traversals (less noise) or a wider sweep past the rise'),
    );
  }
  // Latencies: plateau k is level k's latency where two strides read it alike (a plateau past a level
  // whose line the stride undercuts mixes hits and misses, and moves with the stride).
  for (let k = 0; k <= (counted2 ? K : K - 1); k++) {
    const key = `${label}.latency${k + 1}`;
    const txt = `${label}: ${counted2 && k === K ? 'memory' : `level ${k + 1}`} latency`;
    const ps = curves.map((c) => ({ c, p: c.rd.plateaus[k], sigma: plateauError(c, k) }));
    const ok = ps.filter((e) => e.p?.value !== undefined);
    let v: Verdict<number>;
    if (k === 0 && ok.length) {
      const vals = ok.map((e) => e.p.value as number);
      const spread = Math.max(...vals) - Math.min(...vals);
      const tol = 6 * Math.SQRT2 * Math.max(...ok.map((e) => e.sigma)) + 1e-6 * (1 + Math.abs(vals[0]));
      v = spread <= tol && tol <= ALIKE_CYCLES ? decided(Math.round(median(vals) * 10) / 10, `plateau 1 of ${ok.map((e) => name(e.c)).join(' and ')}`) : open(
              spread > tol ? `the first plateaus differ by ${fmt(spread)} cycles` : `the first plateaus agree only to ${fmt(tol)} cycles (six standard errors)`,
              spread > tol ? 'a sweep that starts well inside the first level' : 'more traversals (less noise) or longer plateaus',
            );
    } else if (
      // Past LRU levels of known lines, a stride of every line above reaches level k with every load.
      hLine.slice(0, k).every((b) => b !== undefined) &&
      hRegular.slice(0, k).every((r) => r === 'yes') &&
      ok.some((e) => e.c.a.stride >= Math.max(...(hLine.slice(0, k) as number[])))
    ) {
      const full = ok.filter((e) => e.c.a.stride >= Math.max(...(hLine.slice(0, k) as number[])));
      const vals = full.map((e) => e.p.value as number);
      const spread = Math.max(...vals) - Math.min(...vals);
      const tol = 6 * Math.SQRT2 * Math.max(...full.map((e) => e.sigma)) + 1e-6 * (1 + Math.abs(vals[0]));
      v =
        spread <= tol && tol <= ALIKE_CYCLES
          ? decided(Math.round(median(vals) * 10) / 10, `plateau ${k + 1} of ${full.map((e) => name(e.c)).join(' and ')}, a stride of every line above (LRU levels: every load misses them)`)
          : open(`plateau ${k + 1} reads ${list(vals.map((x) => Math.round(x * 10) / 10), ' cycles')} at strides of every line above`, 'more traversals (less noise)');
    } else if (ok.length >= 2) {
      const vals = ok.map((e) => e.p.value as number);
      const spread = Math.max(...vals) - Math.min(...vals);
      const tol = 6 * Math.SQRT2 * Math.max(...ok.map((e) => e.sigma)) + 1e-6 * (1 + Math.abs(vals[0]));
      v =
        spread <= tol && tol <= ALIKE_CYCLES
          ? decided(Math.round(median(vals) * 10) / 10, `plateau ${k + 1} reads alike with ${ok.map((e) => name(e.c)).join(' and ')}`)
          : spread > tol
            ? open(`plateau ${k + 1} moves with the stride (${list(vals.map((x) => Math.round(x * 10) / 10), ' cycles')}): a stride below a line above mixes hits and misses`, 'a stride of at least every line above, at two strides')
            : open(`plateau ${k + 1} reads alike only to ${fmt(tol)} cycles (six standard errors)`, 'more traversals (less noise) or longer plateaus');
    } else v = open(`plateau ${k + 1} is decided on ${ok.length} curve(s); it takes two strides that read it alike`, 'a second stride of at least every line above');
    pushVerdict(out, key, txt, 'cycles', v);
  }
  return out;
}
