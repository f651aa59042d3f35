import type { Finding } from '../experiments/types';

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
}

export interface CurveOptions {
  /** Steps are at least this many noise standard deviations of a difference (default 4). */
  sigmas?: number;
  /** A step joins a region when its rise is within [1/ratio, ratio] of the region's recent steps (default 2.5). */
  ratio?: number;
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
  const threshold = Math.max(sigmas * noise * Math.SQRT2, 1e-9 * (1 + scale));

  const groups = n > 1 ? groupSteps(x, y, threshold, dx, ratio) : [];
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
    if (!(net >= 0.5 * g.rises.reduce((a, b) => a + b, 0) && net > sigmas * noise)) continue;
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
  return { noise, threshold, dx, plateaus, ramps };
}

function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

/** Turns a curve analysis into findings keyed `${label}.plateauK.latency`, `${label}.levelK.sizeBytes`, ... */
export function curveFindings(a: CurveAnalysis, stride: number, label: string): Finding[] {
  const out: Finding[] = [];
  out.push({
    key: `${label}.levels`,
    label: `${label}: cache levels seen`,
    value: a.ramps.length,
    unit: '',
    evidence: a.ramps.length
      ? `${a.ramps.length} rising region(s) between plateaus`
      : `flat curve: no rise above ${fmt(a.threshold)} cycles between neighbouring sizes`,
  });
  a.plateaus.forEach((p, i) => {
    out.push({
      key: `${label}.plateau${i + 1}.latency`,
      label: `${label}: plateau ${i + 1} latency`,
      value: Math.round(p.latency * 10) / 10,
      unit: 'cycles',
      evidence: `median of ${p.to - p.from + 1} points, N = ${p.xFrom}..${p.xTo} B`,
    });
  });
  a.ramps.forEach((r, i) => {
    const k = `${label}.level${i + 1}`;
    const lv = `${label}: level ${i + 1}`;
    out.push({
      key: `${k}.sizeBytes`,
      label: `${lv} size`,
      value: r.sizeBytes,
      unit: 'B',
      evidence: `last size before the rise at ${r.sizeBytes} B (${r.steps.length} step(s) follow)`,
    });
    out.push({
      key: `${k}.steps`,
      label: `${lv} steps in the rise`,
      value: r.steps.length,
      unit: '',
      evidence: `${r.steps.length} step(s) ${fmt(r.spacing)} B apart${r.complete ? '' : ' (sweep ends inside the rise)'}`,
    });
    if (!r.regular)
      out.push({
        key: `${k}.regular`,
        label: `${lv} rises like an LRU cache`,
        value: 'no',
        unit: '',
        evidence: 'the latency falls between steps or the steps are unevenly spaced: not the staircase of WONG Fig 4, so line size and ways are not read',
      });
    if (r.complete && r.regular)
      out.push({
        key: `${k}.waySizeBytes`,
        label: `${lv} way size`,
        value: r.widthBytes,
        unit: 'B',
        evidence: `the rise spans ${r.sizeBytes}..${r.sizeBytes + r.widthBytes} B`,
      });
    if (r.ways !== undefined)
      out.push({
        key: `${k}.ways`,
        label: `${lv} associativity`,
        value: r.ways,
        unit: '',
        evidence: `size ${r.sizeBytes} B / way size ${r.widthBytes} B`,
      });
    if (r.lineBytes !== undefined) {
      out.push({
        key: `${k}.lineBytes`,
        label: `${lv} line size`,
        value: r.lineBytes,
        unit: 'B',
        evidence: `steps ${fmt(r.spacing)} B apart with stride ${stride} B < line (WONG Fig 4)`,
      });
      if (r.sets !== undefined)
        out.push({
          key: `${k}.sets`,
          label: `${lv} sets`,
          value: r.sets,
          unit: '',
          evidence: `${r.sets} steps of one line each`,
        });
    }
  });
  return out;
}

/** WONG III-B / Fig 4: plateaus, cache sizes, line sizes and ways read off one average-latency curve. */
export function analyseAverageCurve(x: ArrayLike<number>, y: ArrayLike<number>, stride: number, label: string): Finding[] {
  return curveFindings(analyseCurve(x, y, stride), stride, label);
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
