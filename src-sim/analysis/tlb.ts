import { latencyLevels, levelOf } from './levels';
import type { Finding } from '../results';
import { formatBytes } from '../bytes';
import { cannotTell } from './cannot-tell';

/**
 * TLB analysers (WONG IV-I, Figs 13-16; MEI 4.2, Table 4, Figs 10-11). They read measured latencies,
 * sizes, strides and addresses only: never a preset or a geometry. The experimental design (the
 * stride, the element counts, the offset pattern) is an input, as it was for the papers' authors.
 */

// ---------------------------------------------------------------------------------------------
// Latency classes: the distinct latencies of a fine-grained trace (MEI Listing 4).
// ---------------------------------------------------------------------------------------------

/** One cluster of measured latencies. */
export interface LatencyClass {
  min: number;
  max: number;
  mean: number;
  count: number;
}

function quantile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1)))];
}

/**
 * Splits latencies into classes at gaps wider than the noise: sorted values are cut where two
 * neighbours differ by more than max(minGap, 10 x the median neighbour difference). A second pass
 * widens the cut to half the spread of the well-populated classes, so that a rare class under
 * jitter (a few page-table switches) is not broken apart where its few values lie far apart.
 */
export function latencyClasses(values: ArrayLike<number>, minGap = 4): LatencyClass[] {
  const n = values.length;
  if (n === 0) return [];
  const v = Float64Array.from(values).sort();
  const d = new Float64Array(Math.max(0, n - 1));
  for (let i = 0; i + 1 < n; i++) d[i] = v[i + 1] - v[i];
  const gap = Math.max(minGap, 10 * quantile(Float64Array.from(d).sort(), 0.5));
  const first = cutClasses(v, gap);
  let spread = 0;
  for (const c of first) if (c.count >= Math.max(20, 0.05 * n)) spread = Math.max(spread, c.max - c.min);
  return spread / 2 > gap ? cutClasses(v, spread / 2) : first;
}

function cutClasses(v: Float64Array, gap: number): LatencyClass[] {
  return latencyLevels(v, gap).map((l) => ({ min: l.min, max: l.max, mean: l.latency, count: l.count }));
}

/** Index of the class a latency belongs to (the nearest one when it falls between classes). */
export const classOf: (classes: readonly LatencyClass[], value: number) => number = levelOf;

// ---------------------------------------------------------------------------------------------
// Average-latency curves: plateaus and the steps between them (WONG III-B, Fig 4).
// ---------------------------------------------------------------------------------------------

export interface Plateau {
  fromX: number;
  toX: number;
  /** Mean latency over the plateau. */
  latency: number;
  points: number;
}

/** The rise (or fall) between two plateaus. */
export interface Step {
  /** Last x of the plateau before: the largest size that still fits. */
  lastFitX: number;
  /** First x of the plateau after: every element now misses. */
  firstFullX: number;
  /** Plateau latencies before and after. */
  lo: number;
  hi: number;
  /** The points from lastFitX to firstFullX inclusive. */
  xs: number[];
  ys: number[];
}

export interface Segmentation {
  plateaus: Plateau[];
  steps: Step[];
  /** Largest neighbour difference treated as flat, cycles. */
  tolerance: number;
}

/**
 * Cuts a curve into plateaus (runs of at least three points whose neighbours differ by at most the
 * tolerance; a shorter run only at either end of the curve) and the steps between them. The
 * tolerance is the largest of minStep, relStep x the median latency and 8 x the lower-quartile
 * neighbour difference: exact simulated data gives the first two, jittered data a multiple of its
 * noise. Two-point runs inside a step (odd/even element counts when two elements share an entry)
 * stay part of the step.
 */
export function segmentCurve(x: ArrayLike<number>, y: ArrayLike<number>, minStep = 1.5, relStep = 0.004): Segmentation {
  const n = Math.min(x.length, y.length);
  if (n === 0) return { plateaus: [], steps: [], tolerance: minStep };
  const absd = new Float64Array(Math.max(0, n - 1));
  for (let i = 0; i + 1 < n; i++) absd[i] = Math.abs(y[i + 1] - y[i]);
  const tolerance = Math.max(minStep, relStep * quantile(Float64Array.from({ length: n }, (_, i) => y[i]).sort(), 0.5), 8 * quantile(Float64Array.from(absd).sort(), 0.25));
  // Segments of points joined by flat differences.
  const segs: { a: number; b: number }[] = [];
  let a = 0;
  for (let i = 0; i < n; i++) {
    if (i === n - 1 || absd[i] > tolerance) {
      segs.push({ a, b: i });
      a = i + 1;
    }
  }
  const plateauSegs = segs.filter((s) => s.b - s.a >= 2 || s.a === 0 || s.b === n - 1);
  const plateaus: Plateau[] = plateauSegs.map((s) => {
    let sum = 0;
    for (let i = s.a; i <= s.b; i++) sum += y[i];
    return { fromX: x[s.a], toX: x[s.b], latency: sum / (s.b - s.a + 1), points: s.b - s.a + 1 };
  });
  const steps: Step[] = [];
  for (let k = 0; k + 1 < plateauSegs.length; k++) {
    const p = plateauSegs[k];
    const q = plateauSegs[k + 1];
    const xs: number[] = [];
    const ys: number[] = [];
    for (let i = p.b; i <= q.a; i++) {
      xs.push(x[i]);
      ys.push(y[i]);
    }
    steps.push({ lastFitX: x[p.b], firstFullX: x[q.a], lo: plateaus[k].latency, hi: plateaus[k + 1].latency, xs, ys });
  }
  return { plateaus, steps, tolerance };
}

// ---------------------------------------------------------------------------------------------
// Set sizes from miss counts (MEI Figs 10-11).
// ---------------------------------------------------------------------------------------------

export interface SetSizeInference {
  /** Sizes of the sets in the order they overflowed. */
  setSizes: number[];
  /** Elements that fit before the first miss. */
  fitted: number;
  /** True when the last point has every element missing: all sets accounted for. */
  complete: boolean;
  /** False when complete but the set sizes do not add up to the elements that fitted (not an LRU thrash pattern). */
  consistent: boolean;
  /** Entries replaced per traversal at each point: the summed size of the sets that overflowed so far. */
  missedEntries: number[];
}

/**
 * Elements are added one per point (n, n + 1, ...) to a cyclic chase over an LRU structure. When a set
 * of w entries receives its (w + 1)-th element all w + 1 of them miss every traversal, so the misses
 * per traversal jump by w + 1; a further element in an already overflowing set adds exactly one.
 * Hence each jump of d >= 2 is a new set of d - 1 entries (MEI: "N = 132 MB causes 17 missed entries
 * at once ... 8 more missed entries each time").
 */
export function setSizesFromMisses(elements: readonly number[], misses: readonly number[]): SetSizeInference | null {
  const n = elements.length;
  if (n < 2) return null;
  let first = -1;
  for (let i = 0; i < n; i++) if (misses[i] === 0) first = i;
  // `first` is the last zero-miss point; the walk starts there.
  if (first < 0 || first === n - 1) return null;
  const setSizes: number[] = [];
  const missedEntries: number[] = new Array<number>(n).fill(0);
  let cum = 0;
  for (let i = first + 1; i < n; i++) {
    if (elements[i] - elements[i - 1] !== 1) return null;
    const d = misses[i] - misses[i - 1];
    if (d >= 2) {
      setSizes.push(d - 1);
      cum += d - 1;
    } else if (d < 0) return null;
    missedEntries[i] = cum;
  }
  const complete = misses[n - 1] === elements[n - 1];
  const sum = setSizes.reduce((a, b) => a + b, 0);
  return { setSizes, fitted: elements[first], complete, consistent: !complete || sum === elements[first], missedEntries };
}

/** Misses per traversal at each point of a step, from the average latency between its plateaus. */
export function missesInStep(step: Step, stride: number): { elements: number[]; misses: number[] } {
  const elements: number[] = [];
  const misses: number[] = [];
  const span = step.hi - step.lo;
  for (let i = 0; i < step.xs.length; i++) {
    const el = Math.ceil(step.xs[i] / stride - 1e-9);
    elements.push(el);
    misses.push(i === 0 ? 0 : i === step.xs.length - 1 ? el : Math.round((el * (step.ys[i] - step.lo)) / span));
  }
  return { elements, misses };
}

// ---------------------------------------------------------------------------------------------
// (a) Reach: latency steps of an average-latency-vs-N curve at a large stride (WONG Figs 13, 16).
// ---------------------------------------------------------------------------------------------

export interface ReachLevel {
  /** 1 = L1 TLB, 2 = L2 TLB. */
  level: number;
  reachBytes: number;
  /** reach / stride: the entry count when the stride is one entry's coverage. */
  entries: number;
  /** Width of the step from the last fitting size to the first all-missing one. */
  widthBytes: number;
  /** Set sizes in overflow order, from the miss fraction of each point of the step (null: undetermined). */
  setSizes: number[] | null;
  /** Latency of the plateau before (this level hits) and after (this level misses). */
  hitLatency: number;
  missLatency: number;
}

export interface ReachAnalysis {
  levels: ReachLevel[];
  segmentation: Segmentation;
  findings: Finding[];
}

/**
 * Finds the latency steps of a TLB reach curve. The last `levels` rising steps are the TLB levels
 * (two for GT200, Fermi and Kepler: WONG IV-I, MEI 4.2); steps before them come from data or texture
 * caches overflowing at small sizes (WONG Fig 16's 5 KB texture L1). Reach = the largest N before
 * each step; entries = reach / stride; the step's width and the miss fraction of its points give the
 * sets overflowing one by one and their sizes.
 */
export function analyseReach(x: ArrayLike<number>, y: ArrayLike<number>, stride: number, levels = 2, label = ''): ReachAnalysis {
  const seg = segmentCurve(x, y);
  const rising = seg.steps.filter((s) => s.hi > s.lo);
  const tlbSteps = rising.slice(Math.max(0, rising.length - levels));
  const out: ReachLevel[] = tlbSteps.map((s, i) => {
    const m = missesInStep(s, stride);
    const inf = setSizesFromMisses(m.elements, m.misses);
    return {
      level: i + 1,
      reachBytes: s.lastFitX,
      entries: s.lastFitX / stride,
      widthBytes: s.firstFullX - s.lastFitX,
      setSizes: inf && inf.complete && inf.consistent ? inf.setSizes : null,
      hitLatency: s.lo,
      missLatency: s.hi,
    };
  });
  const findings: Finding[] = [];
  const src = `${label ? label + ': ' : ''}average latency vs N at stride ${formatBytes(stride)}`;
  for (const l of out) {
    const k = `tlb.l${l.level}`;
    const name = `L${l.level} TLB`;
    findings.push({
      key: `${k}.reachBytes`,
      label: `${name} reach`,
      value: l.reachBytes,
      unit: 'B',
      evidence: `${src}: latency flat up to N = ${formatBytes(l.reachBytes)} (${l.hitLatency.toFixed(1)} cycles), rising after it`,
    });
    findings.push({
      key: `${k}.entries`,
      label: `${name} entries`,
      value: l.entries,
      unit: '',
      evidence: `${formatBytes(l.reachBytes)} / ${formatBytes(stride)} stride: one entry per element when the stride is one entry's coverage`,
    });
    if (l.setSizes) {
      const equal = l.setSizes.every((v) => v === l.setSizes![0]);
      findings.push({
        key: `${k}.sets`,
        label: `${name} sets`,
        value: l.setSizes.length,
        unit: '',
        evidence: `the step from ${formatBytes(l.reachBytes)} to ${formatBytes(l.reachBytes + l.widthBytes)} rises ${l.setSizes.length} time(s), one set overflowing per ${formatBytes(stride)} (sets reached at this stride)`,
      });
      findings.push({
        key: `${k}.setSizes`,
        label: `${name} set sizes`,
        value: l.setSizes.join(','),
        unit: '',
        evidence: `misses per traversal from each point's average latency between ${l.hitLatency.toFixed(1)} and ${l.missLatency.toFixed(1)}: a set of w entries overflowing misses w + 1 elements at once`,
      });
      if (equal) {
        findings.push({
          key: `${k}.ways`,
          label: `${name} ways`,
          value: l.setSizes[0],
          unit: '',
          evidence:
            l.setSizes.length === 1
              ? `every element misses one stride past the reach: a single set of ${l.setSizes[0]} entries (fully associative)`
              : `equal sets of ${l.setSizes[0]}; reach ${formatBytes(l.reachBytes)} / way size ${formatBytes(l.widthBytes)} = ${(l.reachBytes / l.widthBytes).toFixed(2)}`,
        });
        if (l.setSizes.length > 1)
          findings.push({
            key: `${k}.waySizeBytes`,
            label: `${name} way size`,
            value: l.widthBytes,
            unit: 'B',
            evidence: `width of the step (WONG III-B: latency rises from the cache size to cache size + way size)`,
          });
      }
    }
  }
  for (const l of out) {
    if (l.setSizes || l.widthBytes <= stride) continue;
    // WONG III-B without set sizes: associativity = size / way size, when that is a whole number.
    const ways = l.reachBytes / l.widthBytes;
    if (Number.isInteger(ways) && ways > 1) {
      findings.push({
        key: `tlb.l${l.level}.ways`,
        label: `L${l.level} TLB ways`,
        value: ways,
        unit: '',
        evidence: `reach ${formatBytes(l.reachBytes)} / way size ${formatBytes(l.widthBytes)} (the width of the step, WONG III-B)`,
      });
      findings.push({ key: `tlb.l${l.level}.waySizeBytes`, label: `L${l.level} TLB way size`, value: l.widthBytes, unit: 'B', evidence: 'width of the step' });
    }
  }
  const lat = (key: string, lab: string, v: number, ev: string): void => {
    findings.push({ key, label: lab, value: Math.round(v * 10) / 10, unit: 'cycles', evidence: ev });
  };
  if (out[0]) {
    lat('tlb.latency.l1Hit', 'Latency, L1 TLB hit', out[0].hitLatency, `${src}: plateau before the L1 TLB step`);
    lat('tlb.latency.l2Hit', 'Latency, L1 TLB miss / L2 TLB hit', out[0].missLatency, `${src}: plateau after the L1 TLB step`);
  }
  if (out[1]) lat('tlb.latency.l2Miss', 'Latency, L2 TLB miss', out[1].missLatency, `${src}: plateau after the L2 TLB step`);
  return { levels: out, segmentation: seg, findings };
}

// ---------------------------------------------------------------------------------------------
// (d) Fixed element count vs stride (WONG Fig 14).
// ---------------------------------------------------------------------------------------------

export interface FixedCountAnalysis {
  /** Largest count that never misses at any stride (the L1 TLB's entries when fully associative). */
  entries: number | null;
  /** Smallest stride at which one element more than `entries` misses: one entry's coverage. */
  entryBytes: number | null;
  fullyAssociative: boolean | null;
  /** Smallest stride at which the larger count rises above its first miss level (L2 TLB conflicts). */
  l2ConflictStride: number | null;
  /** Smallest stride at which the larger count reaches its highest level (every element misses the L2). */
  l2FullConflictStride: number | null;
  findings: Finding[];
}

/**
 * WONG Fig 14: a fixed number of elements at varying strides. `count` elements fit whenever the
 * curve stays at the hit level; one more element misses from the stride at which every element
 * needs its own entry (the entry coverage). If misses then persist at every larger stride, powers of
 * two or not (608, 724, 821 KB), no stride spreads the elements over sets: one set, fully associative.
 */
export function analyseFixedCount(strides: readonly number[], curves: readonly { count: number; y: ArrayLike<number> }[], minStep = 1.5): FixedCountAnalysis {
  const res: FixedCountAnalysis = { entries: null, entryBytes: null, fullyAssociative: null, l2ConflictStride: null, l2FullConflictStride: null, findings: [] };
  if (curves.length === 0 || strides.length === 0) return res;
  // Latency levels of all averaged points together; the lowest is the hit level.
  const all: number[] = [];
  for (const c of curves) for (let i = 0; i < c.y.length; i++) all.push(c.y[i]);
  const levels = latencyClasses(all, minStep);
  const hit = levels[0].mean;
  const level = (v: number): number => classOf(levels, v);
  const order = strides.map((s, i) => ({ s, i })).sort((a, b) => a.s - b.s);
  const sorted = [...curves].sort((a, b) => a.count - b.count);
  const misses = (c: { y: ArrayLike<number> }, i: number): boolean => level(c.y[i]) > 0;
  const fitting = sorted.filter((c) => order.every((o) => !misses(c, o.i)));
  const lo = fitting.length ? fitting[fitting.length - 1] : null;
  const hiCurve = sorted.find((c) => (lo ? c.count > lo.count : true) && order.some((o) => misses(c, o.i)));
  if (lo) res.entries = lo.count;
  if (!hiCurve) return res;
  const firstMiss = order.findIndex((o) => misses(hiCurve, o.i));
  res.entryBytes = order[firstMiss].s;
  const after = order.slice(firstMiss);
  // One set needs counts E and E + 1 side by side: then E + 1 missing at every stride from the coverage up
  // says one set, and a stride where they all hit again says sets (no policy keeps E + 1 in E entries).
  // Counts further apart, or none that always fits, decide nothing.
  // Only strides past the first miss that are no power-of-two multiple of it (WONG's 608, 724, 821 KB past
  // 512 KB) can spread the elements over sets that the first miss's stride folded into one.
  const adjacent = lo !== null && hiCurve.count === lo.count + 1;
  const hitsAgain = after.some((o) => !misses(hiCurve, o.i));
  const s1 = order[firstMiss].s;
  const spreading = after.some((o) => {
    const q = o.s / s1;
    return !(Number.isInteger(q) && (q & (q - 1)) === 0);
  });
  res.fullyAssociative = !adjacent ? null : hitsAgain ? false : spreading ? true : null;
  const l1Miss = hiCurve.y[order[firstMiss].i];
  const l1Level = level(l1Miss);
  let topLevel = l1Level;
  for (const o of after) topLevel = Math.max(topLevel, level(hiCurve.y[o.i]));
  const top = levels[topLevel].mean;
  const conflict = after.find((o) => level(hiCurve.y[o.i]) > l1Level);
  if (conflict) {
    res.l2ConflictStride = conflict.s;
    res.l2FullConflictStride = (after.find((o) => level(hiCurve.y[o.i]) === topLevel) ?? conflict).s;
  }
  const F = res.findings;
  const ladder = order.map((o) => formatBytes(o.s)).join(', ');
  if (res.entries !== null)
    F.push({
      key: res.fullyAssociative ? 'tlb.l1.entries' : 'tlb.l1.alwaysFitting',
      label: res.fullyAssociative ? 'L1 TLB entries' : 'Elements that fit at every stride',
      value: res.entries,
      unit: '',
      evidence: `${res.entries} elements stay at the hit level (${hit.toFixed(1)} cycles) at every stride (${ladder})`,
    });
  F.push({
    key: 'tlb.l1.entryBytes',
    label: 'L1 TLB entry coverage',
    value: res.entryBytes,
    unit: 'B',
    evidence: `${hiCurve.count} elements miss from stride ${formatBytes(res.entryBytes)} up (${l1Miss.toFixed(1)} cycles) and hit below it`,
  });
  if (res.fullyAssociative !== null) {
    F.push({
      key: 'tlb.l1.fullyAssociative',
      label: 'L1 TLB fully associative',
      value: res.fullyAssociative ? 'yes' : 'no',
      unit: '',
      evidence: res.fullyAssociative
        ? `${hiCurve.count} elements miss at every stride >= ${formatBytes(res.entryBytes)}, powers of two or not, while ${lo?.count} always hit: no stride spreads them over sets`
        : `some stride above ${formatBytes(res.entryBytes)} lets ${hiCurve.count} elements hit again: more than one set`,
    });
    if (res.fullyAssociative)
      F.push({ key: 'tlb.l1.sets', label: 'L1 TLB sets', value: 1, unit: '', evidence: 'fully associative (WONG Fig 14 argument)' });
  } else
    F.push(
      cannotTell(
        'tlb.l1.fullyAssociative',
        'L1 TLB fully associative',
        lo === null ? `no count stays at the hit level at every stride` : !adjacent ? `the counts ${lo.count} and ${hiCurve.count} are not E and E + 1` : `${hiCurve.count} elements miss at every stride from ${formatBytes(s1)}, but every later stride is a power-of-two multiple of it, which may fold the elements into one set`,
        lo === null ? 'smaller counts' : !adjacent ? `counts ${lo.count} and ${lo.count + 1}` : `strides between ${formatBytes(s1)} and ${formatBytes(2 * s1)} as well`,
      ),
    );
  if (res.l2ConflictStride !== null)
    F.push({
      key: 'tlb.l2.conflictStride',
      label: 'L2 TLB conflicts from stride',
      value: res.l2ConflictStride,
      unit: 'B',
      evidence: `${hiCurve.count} elements rise above the L1-miss level (${l1Miss.toFixed(1)}) from stride ${formatBytes(res.l2ConflictStride)}, reaching ${top.toFixed(1)} from ${formatBytes(res.l2FullConflictStride ?? res.l2ConflictStride)}: the L2 TLB is not fully associative`,
    });
  if (res.l2FullConflictStride !== null)
    F.push({
      key: 'tlb.l2.fullConflictStride',
      label: 'Every element misses the L2 TLB from stride',
      value: res.l2FullConflictStride,
      unit: 'B',
      evidence: `${hiCurve.count} elements reach the highest level ${top.toFixed(1)} from stride ${formatBytes(res.l2FullConflictStride)}: all of them map to one L2 set (a stride of at least one L2 way)`,
    });
  return res;
}

// ---------------------------------------------------------------------------------------------
// (e) Offset experiment (WONG Fig 15).
// ---------------------------------------------------------------------------------------------

export interface OffsetAnalysis {
  /** Smallest offset at which the conflict misses vanish: the L2 TLB line (null: no effect seen). */
  lineBytes: number | null;
  conflictLatency: number;
  freeLatency: number;
  findings: Finding[];
}

/**
 * WONG Fig 15: two groups of `groupSize` elements at a fixed stride chosen so that at offset 0 both
 * groups crowd the same few L2 TLB sets and conflict. Shifting the second group by an offset changes
 * nothing while it stays within the same L2 TLB lines; once the offset reaches one line, the second
 * group moves to other sets, each set holds half as many elements and the conflict misses vanish.
 * The smallest such offset is the L2 TLB line (translation granularity). With `groupSize` per set
 * conflicting and half of it fitting, the associativity lies between groupSize / 2 and groupSize - 1.
 */
export function analyseOffset(offsets: readonly number[], y: ArrayLike<number>, groupSize: number, minStep = 1.5): OffsetAnalysis {
  const order = offsets.map((o, i) => ({ o, i })).sort((a, b) => a.o - b.o);
  let lo = Infinity;
  for (let i = 0; i < y.length; i++) lo = Math.min(lo, y[i]);
  const conflict = order.length ? y[order[0].i] : NaN;
  const res: OffsetAnalysis = { lineBytes: null, conflictLatency: conflict, freeLatency: lo, findings: [] };
  // A point is conflict-free when it lies nearer the lowest latency than the offset-0 latency.
  const mid = (conflict + lo) / 2;
  if (!(conflict > lo + minStep)) {
    res.findings.push({
      key: 'tlb.l2.offsetEffect',
      label: 'Offset effect',
      value: 'none',
      unit: '',
      evidence: `latency stays at ${lo.toFixed(1)} cycles for every offset: this arrangement causes no L2 TLB conflicts, so it cannot show the L2 TLB line`,
    });
    return res;
  }
  // Smallest offset from which the latency stays at the conflict-free level.
  let k = order.length;
  while (k > 0 && y[order[k - 1].i] < mid) k--;
  if (k >= order.length) return res;
  res.lineBytes = order[k].o;
  res.findings.push({
    key: 'tlb.l2.lineBytes',
    label: 'L2 TLB line',
    value: res.lineBytes,
    unit: 'B',
    evidence: `at offsets below ${formatBytes(res.lineBytes)} the two groups share L2 TLB lines and conflict (${conflict.toFixed(1)} cycles); from ${formatBytes(res.lineBytes)} the second group moves to other sets and the latency falls to ${lo.toFixed(1)}`,
  });
  if (groupSize >= 2)
    res.findings.push({
      key: 'tlb.l2.waysRange',
      label: 'L2 TLB ways (bounds)',
      value: `${Math.ceil(groupSize / 2)}..${groupSize - 1}`,
      unit: '',
      evidence: `${groupSize} elements per set conflict at offset 0; about ${Math.ceil(groupSize / 2)} per set fit once the groups separate`,
    });
  return res;
}

// ---------------------------------------------------------------------------------------------
// (c) Missed entries per traversal from fine-grained traces (MEI Figs 10-11).
// ---------------------------------------------------------------------------------------------

export interface MissPoint {
  sizeBytes: number;
  elements: number;
  /** Latencies of whole timed traversals (a multiple of `elements`). */
  latencies: ArrayLike<number>;
}

export interface MissedEntriesAnalysis {
  classes: LatencyClass[];
  /** Misses per traversal at each point (accesses in the slowest class). */
  misses: number[];
  inference: SetSizeInference | null;
  findings: Finding[];
}

/**
 * MEI Figs 10-11: fine-grained traces at N, N + s, ...; every access is classified by the latency
 * classes found in all traces together; the slowest class is the L2 TLB miss. Misses per traversal
 * give the set sizes (see setSizesFromMisses); the big first jump is the big set.
 */
export function analyseMissedEntries(points: readonly MissPoint[], stride: number): MissedEntriesAnalysis {
  let total = 0;
  for (const p of points) total += p.latencies.length;
  const all = new Float64Array(total);
  let o = 0;
  for (const p of points) for (let i = 0; i < p.latencies.length; i++) all[o++] = p.latencies[i];
  const classes = latencyClasses(all);
  const top = classes.length - 1;
  const misses = points.map((p) => {
    if (classes.length < 2) return 0;
    let c = 0;
    for (let i = 0; i < p.latencies.length; i++) if (classOf(classes, p.latencies[i]) === top) c++;
    return Math.round(c / Math.max(1, p.latencies.length / p.elements));
  });
  const inference = setSizesFromMisses(
    points.map((p) => p.elements),
    misses,
  );
  const findings: Finding[] = [];
  const res: MissedEntriesAnalysis = { classes, misses, inference, findings };
  if (!inference || inference.setSizes.length === 0) return res;
  const sizes = inference.setSizes;
  const firstIdx = misses.findIndex((m) => m > 0);
  const fp = points[firstIdx];
  findings.push({
    key: 'tlb.l2.firstMissedEntries',
    label: 'Entries missed at once at the first overflow',
    value: sizes[0],
    unit: '',
    evidence: `at N = ${formatBytes(fp.sizeBytes)} ${misses[firstIdx]} of ${fp.elements} accesses per traversal fall in the slowest class (${classes[top].mean.toFixed(1)} cycles): one set of ${sizes[0]} entries thrashed by ${sizes[0] + 1} elements`,
  });
  const rest = sizes.slice(1);
  if (rest.length && rest.every((v) => v === rest[0]))
    findings.push({
      key: 'tlb.l2.missedEntriesPerStep',
      label: `Entries missed per further ${formatBytes(stride)}`,
      value: rest[0],
      unit: '',
      evidence: `each further ${formatBytes(stride)} adds ${rest[0] + 1} missing accesses: one more set of ${rest[0]} entries overflows`,
    });
  if (inference.complete) {
    const entries = sizes.reduce((a, b) => a + b, 0);
    findings.push({
      key: 'tlb.l2.setSizes',
      label: 'L2 TLB set sizes',
      value: sizes.join(','),
      unit: '',
      evidence: `sets overflow one per ${formatBytes(stride)} until every access misses at N = ${formatBytes(points[points.length - 1].sizeBytes)}`,
    });
    findings.push({ key: 'tlb.l2.sets', label: 'L2 TLB sets', value: sizes.length, unit: '', evidence: `${sizes.length} jumps in the miss count` });
    findings.push({
      key: 'tlb.l2.entries',
      label: 'L2 TLB entries',
      value: entries,
      unit: '',
      evidence: `sum of the set sizes${entries === inference.fitted ? `, equal to the ${inference.fitted} elements that fit with no miss` : `; ${inference.fitted} elements fit with no miss`}`,
    });
    if (sizes.every((v) => v === sizes[0]))
      findings.push({ key: 'tlb.l2.ways', label: 'L2 TLB ways', value: sizes[0], unit: '', evidence: 'equal set sizes' });
  }
  const lastZero = misses.lastIndexOf(0);
  if (lastZero >= 0)
    findings.push({
      key: 'tlb.l2.reachBytes',
      label: 'L2 TLB reach',
      value: points[lastZero].sizeBytes,
      unit: 'B',
      evidence: `largest N with no access in the slowest class`,
    });
  if (classes.length >= 2) {
    findings.push({ key: 'tlb.latency.l2Miss', label: 'Latency, L2 TLB miss', value: Math.round(classes[top].mean * 10) / 10, unit: 'cycles', evidence: 'mean of the slowest latency class' });
    findings.push({ key: 'tlb.latency.l2Hit', label: 'Latency, L2 TLB hit', value: Math.round(classes[top - 1].mean * 10) / 10, unit: 'cycles', evidence: 'mean of the next latency class' });
  }
  return res;
}

// ---------------------------------------------------------------------------------------------
// (f) Replacement policy: is the miss pattern periodic? (MEI 3.2 (4))
// ---------------------------------------------------------------------------------------------

export interface PeriodicityAnalysis {
  periodic: boolean;
  traversals: number;
  /** Positions whose class differs from the previous traversal, summed over traversals. */
  mismatches: number;
  /** Accesses per traversal in the slowest class (the last traversal). */
  missesPerTraversal: number;
  classes: LatencyClass[];
  policy: 'LRU' | 'not LRU' | 'undetermined';
}

/**
 * MEI 3.2 (4): with the elements accessed in order, an LRU structure repeats the same hit/miss
 * sequence every traversal; an aperiodic sequence rules LRU out. `latencies` holds whole traversals of
 * `period` accesses each (warm-up excluded).
 */
export function analysePeriodicity(latencies: ArrayLike<number>, period: number): PeriodicityAnalysis {
  const traversals = Math.floor(latencies.length / period);
  const classes = latencyClasses(latencies);
  // One latency class: nothing to compare (no misses, or jitter hides them).
  if (traversals < 2 || period < 1 || classes.length < 2) return { periodic: false, traversals, mismatches: 0, missesPerTraversal: 0, classes, policy: 'undetermined' };
  let mismatches = 0;
  for (let t = 1; t < traversals; t++)
    for (let i = 0; i < period; i++)
      if (classOf(classes, latencies[t * period + i]) !== classOf(classes, latencies[(t - 1) * period + i])) mismatches++;
  let miss = 0;
  if (classes.length > 1)
    for (let i = (traversals - 1) * period; i < traversals * period; i++) if (classOf(classes, latencies[i]) === classes.length - 1) miss++;
  const periodic = mismatches === 0;
  return { periodic, traversals, mismatches, missesPerTraversal: miss, classes, policy: periodic ? 'LRU' : 'not LRU' };
}

// ---------------------------------------------------------------------------------------------
// Kepler's window of active page entries (MEI 4.2, pattern 6).
// ---------------------------------------------------------------------------------------------

export interface WindowPoint {
  sizeBytes: number;
  elements: number;
  latencies: ArrayLike<number>;
  addresses: ArrayLike<number>;
}

export interface WindowAnalysis {
  windowBytes: number | null;
  /** Lowest non-zero address at which a switch was seen. */
  firstSwitchAddress: number | null;
  switchLatency: number | null;
  belowLatency: number | null;
  switchesPerTraversal: number[];
  findings: Finding[];
}

/**
 * A latency class that appears only once N passes some size, a few times per traversal (where the
 * chase crosses into another region), is a page-table switch (MEI pattern 6). The window of active
 * page entries is the largest N without it; the lowest address at which a switch happened confirms it.
 */
export function analyseWindow(points: readonly WindowPoint[]): WindowAnalysis {
  const res: WindowAnalysis = { windowBytes: null, firstSwitchAddress: null, switchLatency: null, belowLatency: null, switchesPerTraversal: [], findings: [] };
  let total = 0;
  for (const p of points) total += p.latencies.length;
  const all = new Float64Array(total);
  let o = 0;
  for (const p of points) for (let i = 0; i < p.latencies.length; i++) all[o++] = p.latencies[i];
  const classes = latencyClasses(all);
  const top = classes.length - 1;
  res.switchesPerTraversal = points.map((p) => {
    if (classes.length < 2) return 0;
    let c = 0;
    for (let i = 0; i < p.latencies.length; i++) if (classOf(classes, p.latencies[i]) === top) c++;
    return c / Math.max(1, p.latencies.length / p.elements);
  });
  const quiet = points.filter((_, i) => res.switchesPerTraversal[i] === 0);
  const loud = points.filter((_, i) => res.switchesPerTraversal[i] > 0);
  const rare = loud.every((p) => res.switchesPerTraversal[points.indexOf(p)] <= Math.max(4, 0.05 * p.elements));
  const maxQuiet = quiet.length ? Math.max(...quiet.map((p) => p.sizeBytes)) : -1;
  const minLoud = loud.length ? Math.min(...loud.map((p) => p.sizeBytes)) : Infinity;
  const range = `sizes ${formatBytes(points[0]?.sizeBytes ?? 0)} to ${formatBytes(points[points.length - 1]?.sizeBytes ?? 0)}`;
  if (classes.length < 2 || !quiet.length || !loud.length || !rare || maxQuiet > minLoud) {
    // No switch seen proves no window only where the chase misses the L2 TLB, which this probe does not establish.
    res.findings.push(
      cannotTell(
        'tlb.window.bytes',
        'Window of active page entries',
        `no rare slowest latency class that appears only beyond some N (${range}); a page-table switch shows only on an L2 TLB miss, and this probe does not establish that the chase misses the L2 TLB`,
        'the reach probe to find the L2 TLB reach, then this probe over sizes beyond it',
      ),
    );
    return res;
  }
  let first = Infinity;
  let offBoundary = 0;
  for (const p of loud) {
    const stride = p.sizeBytes / Math.max(1, p.elements);
    for (let i = 0; i < p.latencies.length; i++) {
      if (classOf(classes, p.latencies[i]) !== top || p.addresses[i] <= 0) continue;
      first = Math.min(first, p.addresses[i]);
      // A switch happens where the chase enters another window: just past a multiple of the window.
      if (p.addresses[i] % maxQuiet >= stride) offBoundary++;
    }
  }
  res.firstSwitchAddress = Number.isFinite(first) ? first : null;
  if (offBoundary > 0) {
    res.findings.push(
      cannotTell(
        'tlb.window.bytes',
        'Window of active page entries',
        `switches appear from N = ${formatBytes(minLoud)}, but ${offBoundary} of them lie away from multiples of ${formatBytes(maxQuiet)} (the first at ${formatBytes(first)}): the sizes without a switch may only be sizes where the L2 TLB still hits`,
        'this probe with a finer size step and sizes beyond the L2 TLB reach',
      ),
    );
    return res;
  }
  res.windowBytes = maxQuiet;
  res.switchLatency = classes[top].mean;
  res.belowLatency = classes[top - 1].mean;
  res.findings.push({
    key: 'tlb.window.bytes',
    label: 'Window of active page entries',
    value: maxQuiet,
    unit: 'B',
    evidence: `no access in the slowest class up to N = ${formatBytes(maxQuiet)}; from ${formatBytes(minLoud)} on, ${res.switchesPerTraversal[points.indexOf(loud[0])]} per traversal${res.firstSwitchAddress !== null ? `, the first at address ${formatBytes(res.firstSwitchAddress)}` : ''}`,
  });
  res.findings.push({
    key: 'tlb.window.switchLatency',
    label: 'Latency, page-table switch (pattern 6)',
    value: Math.round(res.switchLatency * 10) / 10,
    unit: 'cycles',
    evidence: 'mean of the slowest class, seen only beyond the window',
  });
  res.findings.push({
    key: 'tlb.window.belowLatency',
    label: 'Latency of the next class (L2 TLB miss inside the window)',
    value: Math.round(res.belowLatency * 10) / 10,
    unit: 'cycles',
    evidence: 'mean of the second slowest class',
  });
  return res;
}

// ---------------------------------------------------------------------------------------------
// Page size: the finest translation granularity measured.
// ---------------------------------------------------------------------------------------------

/**
 * The page size is the smallest entry coverage any probe measured: the L1 TLB entry coverage of the
 * fixed-count sweep (MEI's brute force: 2 MB on Fermi and Kepler) unless the offset experiment shows
 * a finer L2 TLB line (WONG Fig 15: 4 KB, below the 512 KB L1 TLB entry).
 */
export function pageSizeFinding(l1EntryBytes: number | null, l2LineBytes: number | null): Finding | null {
  const c = [l1EntryBytes, l2LineBytes].filter((v): v is number => v !== null && v > 0);
  if (!c.length) return null;
  const page = Math.min(...c);
  const parts: string[] = [];
  if (l1EntryBytes !== null) parts.push(`L1 TLB entry coverage ${formatBytes(l1EntryBytes)} (fixed count vs stride)`);
  if (l2LineBytes !== null) parts.push(`L2 TLB line ${formatBytes(l2LineBytes)} (offset experiment)`);
  else parts.push('no finer L2 TLB line seen in the offset experiment');
  return { key: 'tlb.pageBytes', label: 'Page size', value: page, unit: 'B', evidence: `smallest translation granularity measured: ${parts.join('; ')}` };
}

// ---------------------------------------------------------------------------------------------
// Elements per entry: a fully associative level one element past its reach.
// ---------------------------------------------------------------------------------------------

export interface EntrySharing {
  /** Consecutive elements that share one entry (1: each element has its own). */
  elementsPerEntry: number;
  entries: number;
  entryBytes: number;
  findings: Finding[];
}

/**
 * One element past the reach of a fully associative LRU level every element should miss it. If only
 * every k-th access is slow, with a regular spacing of k, then k consecutive elements share one entry
 * (the stride is 1/k of the entry's coverage: WONG Fig 16's 256 KB stride against 512 KB L1 TLB
 * entries): entries = reach / (k x stride).
 */
export function analyseEntrySharing(latencies: ArrayLike<number>, period: number, reachBytes: number, stride: number, level = 1): EntrySharing | null {
  const traversals = Math.floor(latencies.length / period);
  if (traversals < 1 || period < 2) return null;
  const classes = latencyClasses(latencies);
  let k = 1;
  if (classes.length >= 2) {
    const top = classes.length - 1;
    const start = (traversals - 1) * period;
    let prev = -1;
    let gap = -1;
    for (let i = 0; i < period; i++) {
      if (classOf(classes, latencies[start + i]) !== top) continue;
      if (prev >= 0) {
        const g = i - prev;
        if (gap < 0) gap = g;
        else if (g !== gap) return null;
      }
      prev = i;
    }
    if (gap < 1) return null;
    k = gap;
  }
  const entryBytes = k * stride;
  const entries = reachBytes / entryBytes;
  const name = `L${level} TLB`;
  const findings: Finding[] = [];
  if (k > 1) {
    findings.push({
      key: `tlb.l${level}.elementsPerEntry`,
      label: `Elements per ${name} entry at this stride`,
      value: k,
      unit: '',
      evidence: `one element past the reach only 1 access in ${k} is slow (${classes[classes.length - 1].mean.toFixed(1)} cycles): ${k} consecutive elements share one entry`,
    });
    findings.push({ key: `tlb.l${level}.entries`, label: `${name} entries`, value: entries, unit: '', evidence: `reach ${formatBytes(reachBytes)} / (${k} x ${formatBytes(stride)})` });
    findings.push({ key: `tlb.l${level}.entryBytes`, label: `${name} entry coverage`, value: entryBytes, unit: 'B', evidence: `${k} elements of ${formatBytes(stride)} per entry` });
    findings.push({ key: `tlb.l${level}.setSizes`, label: `${name} set sizes`, value: String(entries), unit: '', evidence: 'one set: every entry misses one stride past the reach' });
    findings.push({ key: `tlb.l${level}.ways`, label: `${name} ways`, value: entries, unit: '', evidence: 'a single set of all entries (fully associative)' });
  }
  return { elementsPerEntry: k, entries, entryBytes, findings };
}

// ---------------------------------------------------------------------------------------------
// Which rise is a TLB level: control sweeps that move a TLB step and keep a data-cache step.
// ---------------------------------------------------------------------------------------------

/** Average latency against the element count of a chase (one point per count). */
export interface ElementCurve {
  elements: readonly number[];
  y: ArrayLike<number>;
}

/** A rise of the main sweep, in elements: `fit` elements fit, from `full` on every element pays it. */
export interface Rise {
  fit: number;
  full: number;
  lo: number;
  hi: number;
}

export type RiseVerdict = 'tlb' | 'data' | 'window' | 'undecided';

export interface RiseCheck extends Rise {
  verdict: RiseVerdict;
  /** Rise over the same counts with pairs of elements one 64 KB block apart in one page (the data caches see the same sets). */
  pairRise: number | null;
  /** Rise over the same counts with pairs of elements 2 KB apart in one page. */
  nearPairRise: number | null;
  /** Rise over the same counts with each element in its own page, at the near pairs' in-page offsets (the same data view as the near pairs). */
  ownPageRise: number | null;
  /** At twice the stride the rise stays at the same counts (each element has its own entry) or moves to half of them. */
  doubleSame: boolean | null;
  doubleHalf: boolean | null;
  reason: string;
}

/** Largest measured index whose count is at most n (lower) or smallest at least n (upper); -1: none. */
function indexNear(c: ElementCurve, n: number, upper: boolean): number {
  let best = -1;
  for (let i = 0; i < c.elements.length; i++) {
    const e = c.elements[i];
    if (upper ? e >= n && (best < 0 || e < c.elements[best]) : e <= n && (best < 0 || e > c.elements[best])) best = i;
  }
  return best;
}

/** How much a curve rises from count a to count b (null: not measured there). */
export function riseBetween(c: ElementCurve | null, a: number, b: number): number | null {
  if (!c) return null;
  const i = indexNear(c, a, false);
  const j = indexNear(c, b, true);
  if (i < 0 || j < 0 || j === i) return null;
  return c.y[j] - c.y[i];
}

/** The rising steps of a curve over element counts. */
export function risesOf(c: ElementCurve, minStep = 1.5): { rises: Rise[]; segmentation: Segmentation } {
  const seg = segmentCurve(c.elements, c.y, minStep);
  const rises = seg.steps.filter((s) => s.hi > s.lo).map((s) => ({ fit: s.lastFitX, full: s.firstFullX, lo: s.lo, hi: s.hi }));
  return { rises, segmentation: seg };
}

/**
 * Classifies each rise of the main sweep by what moves it:
 * - the block-pair control keeps every element's address modulo 64 KB (the data caches, whose set
 *   index lies below that, see the same sets and as many lines) and puts two elements 64 KB apart in
 *   one 128 KB block: a TLB whose entries cover 128 KB or more sees one entry per pair and its step
 *   moves; a data-cache step stays;
 * - the near-pair and own-page controls put every element at in-page offset 0 or 2 KB (odd elements),
 *   two per page in the first and one per page in the second: the data caches see the same lines in
 *   both, a TLB with entries of 4 KB or more sees half the entries in the first. A step in both is a
 *   data cache's; in the own-page control only, a translation step;
 * - the double-stride sweep keeps a TLB step at the same count when each element has its own entry.
 * Anything else is undecided. A rise that appears past some count and then fades as the array grows
 * (a fixed number of slow accesses per traversal, such as a page-table switch at a window boundary) is
 * no TLB level.
 */
export function classifyRises(main: ElementCurve, pair: ElementCurve | null, nearPair: ElementCurve, ownPage: ElementCurve, dbl: ElementCurve | null, minStep = 1.5): { checks: RiseCheck[]; segmentation: Segmentation } {
  const { rises, segmentation } = risesOf(main, minStep);
  const checks = rises.map((r, k): RiseCheck => {
    const need = r.hi - r.lo;
    const has = (v: number | null): boolean => v !== null && v >= need / 2;
    const lacks = (v: number | null): boolean => v !== null && v <= need / 4;
    const pr = riseBetween(pair, r.fit, r.full);
    const nr = riseBetween(nearPair, r.fit, r.full);
    const or = riseBetween(ownPage, r.fit, r.full);
    // The onset of the rise: the first point past the last count that fits. At twice the stride the same
    // level starts to miss at the same count (each element has its own entry) or at half of it (two
    // elements share one entry at the probe's stride); another level's rise there is no match.
    const onset = riseBetween(main, r.fit, r.fit + 1) ?? 0;
    const ds = riseBetween(dbl, r.fit, r.fit + 1);
    const dh = riseBetween(dbl, Math.floor(r.fit / 2), Math.floor(r.fit / 2) + 1);
    // At the last count that fits, the double-stride sweep must still be at the main sweep's level (no misses yet).
    const atFit = (c: ElementCurve | null): number | null => {
      const i = c ? indexNear(c, r.fit, false) : -1;
      return c && i >= 0 && c.elements[i] === r.fit ? c.y[i] : null;
    };
    const d0 = atFit(dbl);
    const m0 = atFit(main);
    const level = d0 !== null && m0 !== null && Math.abs(d0 - m0) <= 0.1 * onset + 0.5;
    // (A larger rise is allowed: at twice the stride a set-associative level behind may start to miss too.)
    const match = (v: number | null): boolean => v !== null && onset > 0 && level && v >= 0.75 * onset - 0.5;
    const base: RiseCheck = {
      ...r,
      verdict: 'undecided',
      pairRise: pr,
      nearPairRise: nr,
      ownPageRise: or,
      doubleSame: ds === null ? null : match(ds),
      doubleHalf: dh === null ? null : !match(ds) && dh > 0.5 + 0.25 * onset,
      reason: '',
    };
    // A fading rise: the plateau after it sinks back towards the level before it.
    const next = segmentation.plateaus.find((p) => p.fromX >= r.full);
    if (next && next.points >= 3 && k > 0) {
      const last = main.y[indexNear(main, next.toX, false)];
      const first = main.y[indexNear(main, next.fromX, true)];
      if (last - r.lo < 0.75 * (first - r.lo))
        return { ...base, verdict: 'window', reason: `the rise at ${r.fit} elements fades as the array grows (from ${(first - r.lo).toFixed(1)} to ${(last - r.lo).toFixed(1)} cycles): a fixed number of slow accesses per traversal, not a level that every element misses` };
    }
    const f = (v: number | null): string => (v === null ? '-' : v.toFixed(1));
    const measured = `controls rise by ${f(pr)} (block pairs), ${f(nr)} (near pairs), ${f(or)} (own pages) of ${need.toFixed(1)} cycles`;
    if (lacks(pr)) return { ...base, verdict: 'tlb', reason: `pairs of elements in one 128 KB block, at the same addresses modulo 64 KB, move the rise away from ${r.fit} elements: a translation step (entries of 128 KB or more; ${measured})` };
    if (has(or) && lacks(nr)) return { ...base, verdict: 'tlb', reason: `with the same in-page offsets the rise stays at ${r.fit} elements with one element per page and moves with two: a translation step (${measured})` };
    if (has(or) && has(nr)) return { ...base, verdict: 'data', reason: `with the same in-page offsets the rise stays at ${r.fit} elements whether two elements share a page or not: the data caches overflow here (${measured})` };
    return { ...base, reason: `the rise at ${r.fit} elements is neither a clean data-cache nor a clean translation step (${measured})` };
  });
  return { checks, segmentation };
}

/**
 * The TLB levels among classified rises, in order: the first translation rise is the L1 TLB (the L2
 * TLB is looked up only when the L1 misses), the next the L2. A data-cache rise is skipped when the
 * translation view did not change it (the pair control rises as much); otherwise translation and data
 * overflowed together and the order of the levels is lost. An undecided rise stops the walk.
 */
export function tlbLevelsOf(checks: readonly RiseCheck[], tolerance: number): { levels: { check: RiseCheck; level: number }[]; stop: string | null; hiddenL1: string | null } {
  const levels: { check: RiseCheck; level: number }[] = [];
  let hiddenL1: string | null = null;
  for (const c of checks) {
    if (levels.length === 2 || (hiddenL1 && levels.length === 1)) break;
    if (c.verdict === 'tlb') levels.push({ check: c, level: hiddenL1 ? 2 : levels.length + 1 });
    else if (c.verdict === 'window') continue;
    else if (c.verdict === 'data') {
      const ctl = c.nearPairRise ?? 0;
      const own = c.ownPageRise ?? 0;
      const tol = Math.max(2 * tolerance, 0.1 * (c.hi - c.lo));
      // Pure data: the rise is the same whether the pages pair up or not, so translation did not change here.
      const pure = Math.abs(ctl - own) <= tol || (c.pairRise !== null && Math.abs(c.pairRise - (c.hi - c.lo)) <= tol);
      if (pure) continue;
      // Translation changed inside the first data rise with no TLB rise before it: the L1 TLB (looked up
      // first) overflowed there, hidden by the data cache; a later translation rise is the L2 TLB's.
      if (levels.length === 0 && !hiddenL1) {
        hiddenL1 = `the L1 TLB overflows inside the data-cache rise at ${c.fit} elements (one element per page rises ${own.toFixed(1)} cycles there, two per page ${ctl.toFixed(1)}), so its entries are not seen`;
        continue;
      }
      return { levels, stop: `at ${c.fit} elements a data-cache rise (${c.reason}) differs from its pair control: translation changed there too, so the order of the TLB levels after it is unknown`, hiddenL1 };
    } else return { levels, stop: `at ${c.fit} elements ${c.reason}`, hiddenL1 };
  }
  return { levels, stop: null, hiddenL1 };
}

// ---------------------------------------------------------------------------------------------
// Fully associative or not: a fixed count at many strides (WONG Fig 14 argument, generalised).
// ---------------------------------------------------------------------------------------------

/** Stride multipliers that spread elements over the sets of any power-of-two set count: powers and 1 + 2^-m. */
export function associativityLadder(unit: number, minStep = 4096, word = 4): number[] {
  const out = new Set<number>([unit, 2 * unit, 4 * unit, 3 * unit]);
  for (let m = 1; unit / 2 ** m >= minStep; m++) {
    const t = unit + unit / 2 ** m;
    if (Number.isInteger(t) && t % word === 0) out.add(t);
  }
  return [...out].sort((a, b) => a - b);
}

export interface AssociativityCheck {
  fullyAssociative: boolean;
  /** Strides at which `entries` elements did not fit, or `entries + 1` did. */
  exceptions: number[];
}

/**
 * `entries` elements fit at every stride and `entries + 1` miss at every stride (each judged against the
 * middle of the level's step, from `lo` to `hi`): no stride spreads the elements over sets, one set.
 */
export function checkFullyAssociative(strides: readonly number[], fit: ArrayLike<number>, over: ArrayLike<number>, lo: number, hi: number): AssociativityCheck {
  const mid = (lo + hi) / 2;
  const exceptions: number[] = [];
  strides.forEach((s, i) => {
    if (!(fit[i] < mid) || !(over[i] > mid)) exceptions.push(s);
  });
  return { fullyAssociative: exceptions.length === 0, exceptions };
}

// ---------------------------------------------------------------------------------------------
// LRU or FIFO: a re-used element in a thrashing set (refines MEI 3.2 (4)).
// ---------------------------------------------------------------------------------------------

/** Misses of each access of `seq` (element ids) in one set of `ways` ways, after a warm-up pass of `warm`. */
export function simulateSet(seq: readonly number[], warm: readonly number[], ways: number, policy: 'lru' | 'fifo'): boolean[] {
  const set: number[] = [];
  const touch = (e: number): boolean => {
    const i = set.indexOf(e);
    if (i >= 0) {
      if (policy === 'lru') {
        set.splice(i, 1);
        set.push(e);
      }
      return false;
    }
    if (set.length >= ways) set.shift();
    set.push(e);
    return true;
  };
  for (const e of warm) touch(e);
  return seq.map(touch);
}

export interface ReuseAnalysis {
  policy: 'LRU' | 'FIFO' | 'neither' | 'undecided';
  reason: string;
}

/**
 * The plain cyclic chase one element past a level's reach misses the same `thrash` elements every
 * traversal under LRU and FIFO alike. The reuse chase adds one more access of the last of them half
 * way through the traversal: LRU keeps it, FIFO does not. The observed misses of the thrashing
 * elements (`slow`, per access of `seq`) are compared with both predictions for a set of
 * thrash.length - 1 ways.
 */
export function analyseReuse(seq: readonly number[], slow: readonly boolean[], thrash: readonly number[], warm: readonly number[]): ReuseAnalysis {
  const ways = thrash.length - 1;
  if (ways < 1) return { policy: 'undecided', reason: 'no set overflows by one element' };
  const inSet = new Set(thrash);
  const idx: number[] = [];
  seq.forEach((e, i) => {
    if (inSet.has(e)) idx.push(i);
  });
  const sub = idx.map((i) => seq[i]);
  const obs = idx.map((i) => slow[i]);
  const w = warm.filter((e) => inSet.has(e));
  const lru = simulateSet(sub, w, ways, 'lru');
  const fifo = simulateSet(sub, w, ways, 'fifo');
  const same = (a: boolean[]): boolean => a.every((v, i) => v === obs[i]);
  const differ = lru.some((v, i) => v !== fifo[i]);
  if (!differ) return { policy: 'undecided', reason: 'LRU and FIFO predict the same misses for this chase' };
  if (same(lru)) return { policy: 'LRU', reason: `the re-used element hits as LRU predicts (${ways}-way set), where FIFO would evict it` };
  if (same(fifo)) return { policy: 'FIFO', reason: `the re-used element is evicted as FIFO predicts (${ways}-way set): hits do not refresh an entry` };
  return { policy: 'neither', reason: `the misses of the ${thrash.length} thrashing elements match neither LRU nor FIFO` };
}
