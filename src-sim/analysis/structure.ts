/**
 * Analysers of MEI's fine-grained P-chase (MEI 3.2, Listing 4): they read cache size, line size,
 * sets, ways, the set-index mapping and the replacement policy off recorded per-access latencies
 * and the addresses the chase visited. They see numbers only: never a preset or a geometry.
 *
 * Hit or miss is not given: it is read from the latencies. All latencies of an experiment are
 * pooled; the lowest latency cluster is a first-level hit, everything slower a miss (MEI: "the
 * smallest memory latency indicates cache hit and bigger latencies indicate cache misses").
 */

import { formatBytes } from '../bytes';

/** One fine-grained P-chase run, as MEI's kernel writes it out: every address and its latency. */
export interface ChaseRecord {
  /** Array size N and stride s, bytes (0 for a hand-initialised, non-uniform chase). */
  N: number;
  s: number;
  /** Byte offset of each access, in order. */
  address: Float64Array;
  /** Measured latency of each access, cycles. */
  latency: Float64Array;
  /** Accesses in one traversal of the array; the first traversal is the cold warm-up. */
  perTraversal: number;
}

// ---------------------------------------------------------------------------------------------
// Hit / miss: latency clusters

export interface LatencyCluster {
  from: number;
  to: number;
  count: number;
  mean: number;
}

export interface LatencySplit {
  /** Latencies below it are first-level hits. +Infinity when the latencies form one cluster. */
  threshold: number;
  /** Mean latency of the lowest cluster (first-level hits) and of the next one. */
  hitLatency: number;
  missLatency: number;
  /** False when all latencies fall in one cluster: hits and misses cannot be told apart. */
  separated: boolean;
  clusters: LatencyCluster[];
  /** 1 - the chance that the empty stretch between the two lowest clusters occurs inside one level. */
  confidence: number;
}

/** Histogram resolution, cycles. */
const BIN = 0.5;
/**
 * Two neighbouring groups of latencies are separate levels when what separates them is this unlikely
 * inside one level: an empty stretch as wide as theirs (chanceOfGap), or both groups as tight as they
 * are (chanceOfCrowding), under latencies spread evenly across the two.
 */
const SEPARATION_RISK = 1e-6;

interface Group {
  lo: number;
  hi: number;
  count: number;
  sum: number;
}

/**
 * Probability that `count` latencies spread over `width` cycles by one level's noise crowd into just
 * `occupied` cycles of it: (occupied / width)^(count - 2), the two extremes fixing the width. Two
 * tight groups far apart are two levels even when each holds few latencies.
 */
function chanceOfCrowding(occupied: number, count: number, width: number): number {
  if (count <= 2 || occupied >= width) return 1;
  return Math.exp((count - 2) * Math.log(occupied / width));
}

/** Probability that one level of `count` latencies over `width` cycles shows an empty stretch of `gap` cycles. */
function chanceOfGap(gap: number, count: number, width: number): number {
  if (width <= 0) return 0;
  return Math.min(1, count * Math.exp((-gap * count) / width));
}

/**
 * A pool of measured latencies kept as a histogram (half-cycle bins), split into clusters by
 * empty stretches. Adding data never allocates per value.
 */
export class LatencyPool {
  private counts = new Float64Array(0);
  private sums = new Float64Array(0);
  private base = 0;
  private total = 0;

  get size(): number {
    return this.total;
  }

  add(latency: ArrayLike<number>, from = 0, to = latency.length): void {
    if (to <= from) return;
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = from; i < to; i++) {
      const v = latency[i];
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    this.ensure(Math.floor(lo / BIN), Math.floor(hi / BIN));
    const counts = this.counts;
    const sums = this.sums;
    const base = this.base;
    for (let i = from; i < to; i++) {
      const v = latency[i];
      const b = Math.floor(v / BIN) - base;
      counts[b]++;
      sums[b] += v;
    }
    this.total += to - from;
  }

  private ensure(loBin: number, hiBin: number): void {
    const len = this.counts.length;
    if (len > 0 && loBin >= this.base && hiBin < this.base + len) return;
    const newLo = len > 0 ? Math.min(loBin, this.base) : loBin;
    const newHi = len > 0 ? Math.max(hiBin, this.base + len - 1) : hiBin;
    const counts = new Float64Array(newHi - newLo + 1);
    const sums = new Float64Array(newHi - newLo + 1);
    if (len > 0) {
      counts.set(this.counts, this.base - newLo);
      sums.set(this.sums, this.base - newLo);
    }
    this.counts = counts;
    this.sums = sums;
    this.base = newLo;
  }

  /**
   * Clusters of the pooled latencies; the lowest is the first-level hit. Runs of occupied bins are
   * merged with their neighbour while the empty stretch between them is no less likely than
   * SEPARATION_RISK inside one level (see chanceOfGap): without jitter two latencies a cycle apart
   * are two levels; with jitter the stretch must outgrow the spacing the noise leaves.
   */
  split(): LatencySplit {
    const c = this.counts;
    const groups: Group[] = [];
    for (let b = 0; b < c.length; b++) {
      if (c[b] === 0) continue;
      const last = groups[groups.length - 1];
      if (last && b === last.hi + 1) {
        last.hi = b;
        last.count += c[b];
        last.sum += this.sums[b];
      } else groups.push({ lo: b, hi: b, count: c[b], sum: this.sums[b] });
    }
    if (groups.length === 0) return { threshold: Infinity, hitLatency: NaN, missLatency: NaN, separated: false, clusters: [], confidence: 0 };
    // Merge the least separated neighbours until every remaining stretch is significant.
    const chance = (i: number): number => {
      const a = groups[i];
      const b = groups[i + 1];
      const gap = (b.lo - a.hi - 1) * BIN;
      const n = a.count + b.count;
      const width = (b.hi - a.lo + 1) * BIN;
      const occupied = (a.hi - a.lo + 1 + b.hi - b.lo + 1) * BIN;
      return Math.min(chanceOfGap(gap, n, width), chanceOfCrowding(occupied, n, width));
    };
    for (;;) {
      let worst = -1;
      let worstChance = SEPARATION_RISK;
      for (let i = 0; i + 1 < groups.length; i++) {
        const p = chance(i);
        if (p > worstChance) {
          worst = i;
          worstChance = p;
        }
      }
      if (worst < 0) break;
      const a = groups[worst];
      const b = groups[worst + 1];
      groups.splice(worst, 2, { lo: a.lo, hi: b.hi, count: a.count + b.count, sum: a.sum + b.sum });
    }
    const clusters: LatencyCluster[] = groups.map((g) => ({ from: (g.lo + this.base) * BIN, to: (g.hi + this.base + 1) * BIN, count: g.count, mean: g.sum / g.count }));
    if (clusters.length < 2) return { threshold: Infinity, hitLatency: clusters[0].mean, missLatency: NaN, separated: false, clusters, confidence: 0 };
    return {
      threshold: (clusters[0].to + clusters[1].from) / 2,
      hitLatency: clusters[0].mean,
      missLatency: clusters[1].mean,
      separated: true,
      clusters,
      confidence: 1 - chance(0),
    };
  }
}

/** Misses (latency at or above the threshold) among accesses [from, to). */
export function countMisses(latency: ArrayLike<number>, threshold: number, from = 0, to = latency.length): number {
  let n = 0;
  for (let i = from; i < to; i++) if (latency[i] >= threshold) n++;
  return n;
}

/** Misses after the cold first traversal. */
export function warmMisses(rec: ChaseRecord, threshold: number): number {
  return countMisses(rec.latency, threshold, rec.perTraversal);
}

/** Distinct byte addresses that missed after the cold first traversal, ascending. */
export function missedAddresses(rec: ChaseRecord, threshold: number): number[] {
  const seen = new Set<number>();
  for (let i = rec.perTraversal; i < rec.latency.length; i++) if (rec.latency[i] >= threshold) seen.add(rec.address[i]);
  return [...seen].sort((a, b) => a - b);
}

/**
 * Whether every warm traversal after the first misses at exactly the same positions (MEI 3.2
 * step 4: with LRU "the memory access process should be periodic"). Needs three warm traversals.
 */
export function isPeriodic(rec: ChaseRecord, threshold: number): boolean {
  const per = rec.perTraversal;
  const traversals = Math.floor(rec.latency.length / per);
  if (traversals < 4) return false;
  const lat = rec.latency;
  const ref = 2 * per;
  for (let t = 3; t < traversals; t++) {
    const o = t * per;
    for (let i = 0; i < per; i++) if (lat[o + i] >= threshold !== lat[ref + i] >= threshold) return false;
  }
  return true;
}

function gcd(a: number, b: number): number {
  a = Math.abs(a);
  b = Math.abs(b);
  while (b) [a, b] = [b, a % b];
  return a;
}

// ---------------------------------------------------------------------------------------------
// Step 1: cache size

export interface SizeAnalysis {
  /** Largest N with no miss after warm-up (undefined: every N missed). */
  sizeBytes?: number;
  /** Smallest N that missed after warm-up (undefined: none did). */
  firstMissBytes?: number;
  /** True when the probes are monotone (no fit above a miss). */
  consistent: boolean;
  /** N (ascending) and misses per warm traversal of each probe. */
  n: number[];
  missesPerTraversal: number[];
}

/** MEI 3.2 step 1: "C equals the maximum N where all memory accesses fit in the cache". */
export function analyseCacheSize(records: readonly ChaseRecord[], threshold: number): SizeAnalysis {
  const rows = records
    .map((r) => ({ N: r.N, m: warmMisses(r, threshold) / Math.max(1, r.latency.length / r.perTraversal - 1) }))
    .sort((a, b) => a.N - b.N);
  let size: number | undefined;
  let firstMiss: number | undefined;
  for (const r of rows) {
    if (r.m === 0) size = r.N;
    else if (firstMiss === undefined) firstMiss = r.N;
  }
  const consistent = size === undefined || firstMiss === undefined || size < firstMiss;
  return { sizeBytes: size, firstMissBytes: firstMiss, consistent, n: rows.map((r) => r.N), missesPerTraversal: rows.map((r) => r.m) };
}

/** A slower level hidden inside the hit cluster: warm accesses that all count as hits got slower with N. */
export interface HiddenLevel {
  /** The array size at which the slower level showed: the first level is smaller. */
  slowN: number;
  /** What showed it, in words. */
  evidence: string;
}

/** A rise of the mean warm latency this many standard errors above the baseline is no chance. */
const HIDDEN_T = 6;

/**
 * Step 1 assumes that every access below the threshold is a first-level hit. When the next level's
 * latency is within the jitter of the hit latency the two clusters overlap and the threshold falls
 * above both: the probes that "never miss" then include arrays that overflow the first level. The
 * sign is in the data: the mean warm latency of such a probe is higher than that of all the smaller
 * probes together, by more than chance allows (Welch's t above HIDDEN_T; any rise at all without
 * jitter). Returns the smallest such probe: the first level is smaller than it.
 */
export function findHiddenLevel(records: readonly ChaseRecord[], threshold: number): HiddenLevel | undefined {
  const fitting = records.filter((r) => r.latency.length > r.perTraversal && warmMisses(r, threshold) === 0).sort((a, b) => a.N - b.N);
  let n0 = 0;
  let sum0 = 0;
  let sq0 = 0;
  let prevN = 0;
  for (const r of fitting) {
    let n = 0;
    let sum = 0;
    let sq = 0;
    for (let i = r.perTraversal; i < r.latency.length; i++) {
      const v = r.latency[i];
      n++;
      sum += v;
      sq += v * v;
    }
    if (n0 > 1 && n > 1) {
      const m0 = sum0 / n0;
      const m = sum / n;
      const v0 = Math.max(0, (sq0 - n0 * m0 * m0) / (n0 - 1));
      const v = Math.max(0, (sq - n * m * m) / (n - 1));
      const diff = m - m0;
      const se = Math.sqrt(v / n + v0 / n0);
      // Sums of identical latencies differ by rounding only; no level is that close.
      const t = diff > 1e-6 ? (se > 1e-9 ? diff / se : Infinity) : 0;
      if (t > HIDDEN_T)
        return {
          slowN: r.N,
          evidence: `warm accesses average ${m0.toFixed(2)} cycles up to N = ${prevN} B and ${m.toFixed(2)} at N = ${r.N} B, none above the hit/miss threshold (t = ${Number.isFinite(t) ? t.toFixed(1) : 'infinite: no jitter'})`,
        };
    }
    n0 += n;
    sum0 += sum;
    sq0 += sq;
    prevN = r.N;
  }
  return undefined;
}

/** The spread of per-address mean latencies of a repeated chase against what the jitter alone gives. */
export interface AddressSpread {
  /** Addresses and warm traversals compared. */
  addresses: number;
  traversals: number;
  /** Variance ratio of per-address means to within-address noise (1 when all addresses are alike). */
  f: number;
  /** Standard scores of that ratio above 1. */
  z: number;
}

/** A variance ratio this many standard scores above 1 is no chance. */
const SPREAD_Z = 6;

/**
 * The second sign of a level hidden in the hit cluster, sharper than the mean: chase one array many
 * times and average each address over the warm traversals. If every access hits one level the
 * per-address means differ by noise only (variance ratio near 1, F(A - 1, A(T - 1))); if some
 * addresses go to a slower level every traversal their means stand out. Returns the ratio and its
 * score whether or not it is significant (see `isSpread`).
 */
export function addressSpread(rec: ChaseRecord): AddressSpread {
  const A = rec.perTraversal;
  const T = Math.floor(rec.latency.length / A) - 1;
  if (A < 2 || T < 2) return { addresses: A, traversals: Math.max(0, T), f: NaN, z: 0 };
  let within = 0;
  let grand = 0;
  const means = new Float64Array(A);
  for (let i = 0; i < A; i++) {
    let sum = 0;
    for (let t = 1; t <= T; t++) sum += rec.latency[t * A + i];
    const m = sum / T;
    means[i] = m;
    grand += m;
    for (let t = 1; t <= T; t++) within += (rec.latency[t * A + i] - m) ** 2;
  }
  grand /= A;
  let between = 0;
  for (let i = 0; i < A; i++) between += (means[i] - grand) ** 2;
  const msBetween = (T * between) / (A - 1);
  const msWithin = within / (A * (T - 1));
  if (msWithin <= 1e-12) return { addresses: A, traversals: T, f: msBetween > 1e-9 ? Infinity : 1, z: msBetween > 1e-9 ? Infinity : 0 };
  const f = msBetween / msWithin;
  const sd = Math.sqrt(2 / (A - 1) + 2 / (A * (T - 1)));
  return { addresses: A, traversals: T, f, z: (f - 1) / sd };
}

export function isSpread(a: AddressSpread): boolean {
  return a.z > SPREAD_Z;
}

// ---------------------------------------------------------------------------------------------
// Step 2: line size

export interface LineAnalysis {
  /** Greatest common divisor of every address that missed: the line size (undefined: no miss). */
  lineBytes?: number;
  /** Per probe: N, distinct lines that missed, misses per warm traversal. */
  n: number[];
  missedLines: number[];
  missesPerTraversal: number[];
  /** MEI's jump: the first N at which more distinct lines miss than at the first probe. */
  jumpBytes?: number;
  /** Every missed address (bytes) against the N of its probe: the missed-index pattern. */
  patternN: number[];
  patternAddress: number[];
}

/**
 * MEI 3.2 step 2, with s = one element and N just above C: only the first element of a line can
 * miss (the rest of the line was loaded with it), so every missed address is a multiple of the line
 * size, and once two adjacent lines miss their greatest common divisor is the line size. The
 * paper's own reading, the N at which a second set starts missing (C + b + 1 element), is reported
 * alongside.
 */
export function analyseLineSize(records: readonly ChaseRecord[], threshold: number): LineAnalysis {
  const sorted = [...records].sort((a, b) => a.N - b.N);
  let g = 0;
  const patternN: number[] = [];
  const patternAddress: number[] = [];
  const missed = sorted.map((r) => missedAddresses(r, threshold));
  missed.forEach((addrs, i) => {
    for (const a of addrs) {
      g = gcd(g, a);
      patternN.push(sorted[i].N);
      patternAddress.push(a);
    }
  });
  const lineBytes = g > 0 ? g : undefined;
  const missedLines = missed.map((addrs) => (lineBytes ? new Set(addrs.map((a) => Math.floor(a / lineBytes))).size : 0));
  let jumpBytes: number | undefined;
  for (let i = 1; i < sorted.length; i++) {
    if (missedLines[i] > missedLines[0]) {
      jumpBytes = sorted[i].N;
      break;
    }
  }
  return {
    lineBytes,
    n: sorted.map((r) => r.N),
    missedLines,
    missesPerTraversal: sorted.map((r) => warmMisses(r, threshold) / Math.max(1, r.latency.length / r.perTraversal - 1)),
    jumpBytes,
    patternN,
    patternAddress,
  };
}

// ---------------------------------------------------------------------------------------------
// Step 3: sets and ways

/** A bit-selection set mapping: set = floor(address / granularityBytes) mod sets. */
export interface BitMapping {
  sets: number;
  granularityBytes: number;
}

export interface SetAnalysis {
  sets?: number;
  ways?: number;
  /** Bytes of consecutive addresses that go to one set before the next set is used. */
  granularityBytes?: number;
  /** "7-8": the address bits that select the set (undefined when the sets are not a power of two). */
  setIndexBits?: string;
  /** True when the set index is the line number's low bits (granularity = line size). */
  lineNumberBits?: boolean;
  /** The bit-selection mapping that explains every first miss of the sweep and the conflict set (undefined: none does). */
  mapping?: BitMapping;
  /**
   * How the set index was read: bit selection (`mapping`); hashed (no bit selection explains the
   * conflict set, the sets counted from the overflows of a periodic sweep); unequal sets (those
   * overflows made different numbers of lines miss); undefined when the evidence does not decide.
   */
  indexKind?: 'bits' | 'hashed' | 'unequal';
  /** The conflict set at N = C + b, when one was measured. */
  conflict?: ConflictSet;
  /** Why the index, the sets or the ways could not be told, and what would decide them. */
  undecided?: { reason: string; next: string };
  /** Unequal sets: the ways of each set, in the order the sets overflowed. */
  setWays?: number[];
  /** Sets x ways x line when it differs from C: the largest contiguous array that fits is smaller than the cache. */
  capacityBytes?: number;
  /** How an unmapped sweep's sets were counted: minimal eviction sets, or the overflows of a periodic sweep. */
  setsFrom?: 'eviction sets' | 'overflows';
  /** A hashed index's XOR function, recovered from the eviction sets where they allow it. */
  xor?: XorFunction;
  /** MEI's own reading: the steps at which many lines started missing at once, and their count. */
  bigSteps: number[];
  countSets: number;
  /** Mean number of lines that started missing at those steps (ways + 1 for LRU). */
  meanOverflowLines: number;
  /** Whether every line of the largest array missed at least once: all sets overflowed. */
  saturated: boolean;
  /** Per probe: N, new lines that started missing, all lines missed so far, misses per traversal, miss rate. */
  n: number[];
  newMissedLines: number[];
  cumulativeMissedLines: number[];
  missesPerTraversal: number[];
  missRate: number[];
  /** Per line of the cache-sized array [0, C): the step (N = C + step x b) at which it first missed; -1 never. */
  firstMissStep: Int32Array;
}

/**
 * The lines that evict each other at N = C + b, s = b: one set and the line that overflowed it
 * (MEI Fig 3: ways + 1 lines). A periodic miss pattern (LRU, FIFO) misses every one of them every
 * traversal; under another policy a member shows only once it has been evicted, so the set is
 * complete only when enough misses were seen that a member never seen is unlikely.
 */
export interface ConflictSet {
  /** Lines (address / b) that missed after warm-up, ascending. */
  lines: number[];
  /** Warm misses of those lines. */
  misses: number;
  periodic: boolean;
  /** Whether every member has been seen (periodic, or enough misses that one never seen is unlikely). */
  complete: boolean;
}

/**
 * Misses needed, per member seen, before a member never seen is unlikely: k members each missing
 * with chance at least 1 / (4k) per miss (a hot way takes half the misses, MEI Fig 8) are all
 * seen within 4k ln(1000k) misses but with chance 1/1000.
 */
function conflictNeeds(k: number): number {
  return Math.ceil(4 * k * Math.log(1000 * k));
}

export function conflictSet(records: readonly ChaseRecord[], threshold: number, lineBytes: number): ConflictSet {
  const seen = new Set<number>();
  let misses = 0;
  let periodic = records.length > 0;
  for (const r of records) {
    if (!isPeriodic(r, threshold)) periodic = false;
    for (let i = r.perTraversal; i < r.latency.length; i++)
      if (r.latency[i] >= threshold) {
        seen.add(Math.floor(r.address[i] / lineBytes));
        misses++;
      }
  }
  const lines = [...seen].sort((a, b) => a - b);
  return { lines, misses, periodic, complete: lines.length >= 2 && (periodic || misses >= conflictNeeds(lines.length)) };
}

/** Misses still wanted before a non-periodic conflict set counts as complete (0 when it is). */
export function conflictShortfall(c: ConflictSet): number {
  return c.complete ? 0 : Math.max(1, conflictNeeds(Math.max(2, c.lines.length)) - c.misses);
}

/** Mean misses per warm traversal and the miss rate (misses / accesses) after warm-up. */
function warmRate(r: ChaseRecord, threshold: number): { perTraversal: number; rate: number } {
  const warm = r.latency.length - r.perTraversal;
  const m = warmMisses(r, threshold);
  return { perTraversal: warm > 0 ? (m * r.perTraversal) / warm : 0, rate: warm > 0 ? m / warm : 0 };
}

function setBitsLabel(granularityBytes: number, sets: number): string | undefined {
  const shift = Math.log2(granularityBytes);
  const bits = Math.log2(sets);
  if (!Number.isInteger(shift) || !Number.isInteger(bits)) return undefined;
  if (bits === 0) return 'none';
  return bits === 1 ? `${shift}` : `${shift}-${shift + bits - 1}`;
}

/**
 * The step-3 sweep (s = b, N = C + j x b for j = 0, 1, 2, ...), read probe by probe. For each line of
 * the cache-sized array it keeps the step at which the line first missed; the experiment asks after
 * every probe whether the sweep can stop.
 *
 * Two facts hold for any replacement policy and make a set mapping checkable: a line never misses
 * before its set first overflows (until then the set holds all its lines), and when a set first
 * overflows at least one of its old lines misses in that very probe (the new line's compulsory miss
 * in the cold traversal evicts one of them, which misses when the next traversal reaches it). A
 * bit-selection mapping (set = floor(address / g) mod S) is consistent with the sweep when both hold
 * for every set it predicts. The true mapping always is; merging its sets (fewer sets) keeps it
 * consistent, splitting them (more sets) does not once each set has missed a few lines. So the
 * consistent mapping with the most sets is the cache's.
 */
export class SetSweep {
  readonly cacheLines: number;
  readonly firstMissStep: Int32Array;
  /** Per probe added: whether every line of its array had missed by then. */
  readonly covered: boolean[] = [];
  private readonly seen = new Set<number>();
  private readonly records: ChaseRecord[] = [];
  private readonly fresh: number[] = [];
  /** Per probe added: the lines (any, also beyond C) that missed for the first time. */
  private readonly freshLines: number[][] = [];
  private maxStep = 0;
  /** How far past C the probes added reach (the last N - C). */
  get beyondBytes(): number {
    return this.maxStep * this.lineBytes;
  }
  /**
   * Minimal eviction sets found by the walker for the overflows of an unmapped sweep: each the
   * ways + 1 lines of one set, disjoint (see readUnmapped).
   */
  evictionSets?: number[][];
  /** The conflict set at N = C + b (see ConflictSet): a mapping must predict it too. */
  conflict?: ConflictSet;

  constructor(
    private readonly threshold: number,
    readonly sizeBytes: number,
    readonly lineBytes: number,
  ) {
    this.cacheLines = Math.floor(sizeBytes / lineBytes);
    this.firstMissStep = new Int32Array(this.cacheLines).fill(-1);
  }

  /** The probes at which two or more lines started missing (an overflow), with those lines, in order of N. */
  overflowGroups(): { N: number; lines: number[] }[] {
    const out: { N: number; lines: number[] }[] = [];
    this.freshLines.forEach((lines, i) => lines.length >= 2 && out.push({ N: this.records[i].N, lines: lines.slice() }));
    return out;
  }

  /** The step of a probe: N = C + step x b. */
  stepOf(rec: ChaseRecord): number {
    return Math.round((rec.N - this.sizeBytes) / this.lineBytes);
  }

  /** Adds the next probe (in order of N); returns the number of lines that missed for the first time. */
  add(rec: ChaseRecord): number {
    const step = this.stepOf(rec);
    this.maxStep = Math.max(this.maxStep, step);
    this.records.push(rec);
    let added = 0;
    const lines: number[] = [];
    for (const a of missedAddresses(rec, this.threshold)) {
      const line = Math.floor(a / this.lineBytes);
      if (this.seen.has(line)) continue;
      this.seen.add(line);
      added++;
      lines.push(line);
      if (line < this.cacheLines) this.firstMissStep[line] = step;
    }
    this.fresh.push(added);
    this.freshLines.push(lines);
    this.covered.push(this.seen.size >= Math.ceil(rec.N / this.lineBytes));
    return added;
  }

  /**
   * Whether the mapping of `sets` sets of `run` consecutive lines explains the sweep: returns the step
   * at which its last set overflowed (Infinity if one never did), or -1 when it is contradicted.
   */
  check(sets: number, run: number): number {
    const L = this.cacheLines;
    const overflow = new Float64Array(sets).fill(Infinity);
    for (let j = this.maxStep; j >= 1; j--) overflow[Math.floor((L + j - 1) / run) % sets] = j;
    const minFirst = new Float64Array(sets).fill(Infinity);
    const f = this.firstMissStep;
    for (let l = 0; l < L; l++) {
      if (f[l] < 0) continue;
      const s = Math.floor(l / run) % sets;
      if (f[l] < overflow[s]) return -1;
      if (f[l] < minFirst[s]) minFirst[s] = f[l];
    }
    let last = 0;
    for (let s = 0; s < sets; s++) {
      if (overflow[s] !== minFirst[s]) return -1;
      last = Math.max(last, overflow[s]);
    }
    return last;
  }

  /**
   * Whether a mapping predicts the conflict set: the lines of [0, C + b) in the set of line C / b.
   * A complete conflict set must be exactly those lines. An incomplete one (a policy that is not
   * periodic, not every member seen yet) must lie inside them, and must not be far smaller than
   * the misses seen would have revealed: members each missing with chance at least 1 / (4P) per
   * miss show P (1 - exp(-M / 4P)) of P members on average after M misses; seeing under half of
   * that contradicts the mapping.
   */
  fitsConflict(sets: number, run: number): boolean {
    const c = this.conflict;
    if (!c || c.lines.length === 0) return true;
    const L = this.cacheLines;
    const setOf = (l: number): number => Math.floor(l / run) % sets;
    const target = setOf(L);
    let predicted = 0;
    for (let l = 0; l <= L; l++) if (setOf(l) === target) predicted++;
    for (const l of c.lines) if (l > L || setOf(l) !== target) return false;
    if (c.complete) return c.lines.length === predicted;
    const expected = predicted * (1 - Math.exp(-c.misses / (4 * predicted)));
    return c.lines.length >= expected / 2;
  }

  /**
   * The consistent bit-selection mapping with the most sets (ties: the finest granularity); sets
   * that fill the cache-sized array evenly (sets x ways = C / b, ways a multiple of the run). With a
   * conflict set measured, the mapping must predict it as well (see fitsConflict).
   */
  mapping(): (BitMapping & { lastOverflow: number }) | undefined {
    const L = this.cacheLines;
    for (let sets = L; sets >= 1; sets--) {
      if (L % sets !== 0) continue;
      const ways = L / sets;
      for (let run = 1; run <= ways; run *= 2) {
        if (ways % run !== 0) continue;
        const last = this.check(sets, run);
        if (last >= 0 && this.fitsConflict(sets, run)) return { sets, granularityBytes: run * this.lineBytes, lastOverflow: last };
      }
    }
    return undefined;
  }

  /** The full reading of the sweep so far. */
  analyse(): SetAnalysis {
    const t = this.threshold;
    const recs = this.records;
    const fresh = this.fresh;
    const cumulative: number[] = [];
    fresh.reduce((acc, x) => {
      cumulative.push(acc + x);
      return acc + x;
    }, 0);
    const rates = recs.map((r) => warmRate(r, t));
    const maxFresh = Math.max(0, ...fresh);
    const big: number[] = [];
    if (maxFresh >= 2) fresh.forEach((x, i) => x >= (maxFresh + 1) / 2 && big.push(i));
    const bigSteps = big.map((i) => this.stepOf(recs[i]));
    const out: SetAnalysis = {
      bigSteps,
      countSets: bigSteps.length,
      meanOverflowLines: big.length ? big.reduce((a, i) => a + fresh[i], 0) / big.length : 0,
      saturated: this.covered.length > 0 && this.covered[this.covered.length - 1],
      n: recs.map((r) => r.N),
      newMissedLines: fresh.slice(),
      cumulativeMissedLines: cumulative,
      missesPerTraversal: rates.map((r) => r.perTraversal),
      missRate: rates.map((r) => r.rate),
      firstMissStep: this.firstMissStep,
    };
    const m = this.mapping();
    let sets: number | undefined;
    let gran: number | undefined;
    const c = this.conflict;
    if (c) out.conflict = c;
    if (m) {
      out.mapping = { sets: m.sets, granularityBytes: m.granularityBytes };
      out.indexKind = 'bits';
      sets = m.sets;
      gran = m.granularityBytes;
    } else if (c) {
      this.readUnmapped(out, c, fresh);
      return out;
    } else if (bigSteps.length) {
      // No bit-selection mapping explains the sweep (a hashed index?): MEI's count of overflows.
      sets = bigSteps.length;
      const gaps = bigSteps.slice(1).map((x, i) => x - bigSteps[i]);
      if (gaps.every((d) => d === (gaps[0] ?? 1))) gran = (gaps[0] ?? 1) * this.lineBytes;
    }
    if (sets === undefined) return out;
    out.sets = sets;
    const ways = this.sizeBytes / (sets * this.lineBytes);
    if (Number.isInteger(ways)) out.ways = ways;
    if (gran !== undefined) {
      out.granularityBytes = gran;
      out.lineNumberBits = gran === this.lineBytes;
      out.setIndexBits = setBitsLabel(gran, sets);
    }
    return out;
  }

  /**
   * No bit selection explains the sweep and the conflict set: the index is hashed, or the sets are
   * unequal. The ways come from the conflict set (its lines less the one that overflowed it), when
   * complete. The sets are counted as MEI counts them, from the overflows of a periodic sweep that
   * reached every line: each overflow makes exactly the lines of one set start missing (ways + 1),
   * whatever the index. Equal overflows: a hashed index of that many sets; unequal: unequal sets.
   * Without a periodic, saturated sweep the sets are not told.
   */
  private readUnmapped(out: SetAnalysis, c: ConflictSet, fresh: readonly number[]): void {
    const b = this.lineBytes;
    const L = this.cacheLines;
    const ways = c.complete ? c.lines.length - 1 : undefined;
    const ev = this.evictionSets;
    // Sets read off minimal eviction sets: every set that held a line of the array overflowed once
    // every line had missed, and the sets found must hold at least the lines that fit.
    let setWays: number[] | undefined;
    let source = '';
    if (ev && ev.length && out.saturated) {
      setWays = ev.map((e) => e.length - 1);
      source = 'eviction';
    } else if (c.periodic && out.saturated) {
      const overflows = fresh.filter((x) => x >= 2);
      if (overflows.length) setWays = overflows.map((x) => x - 1);
      source = 'overflows';
    }
    if (setWays && setWays.reduce((a, w) => a + w, 0) >= L && (ways === undefined || setWays.includes(ways))) {
      out.sets = setWays.length;
      out.setsFrom = source === 'eviction' ? 'eviction sets' : 'overflows';
      if (setWays.every((w) => w === setWays[0])) {
        out.indexKind = 'hashed';
        out.ways = setWays[0];
        if (ev && source === 'eviction') out.xor = recoverXor(ev, b);
      } else {
        out.indexKind = 'unequal';
        out.setWays = setWays;
      }
      const capacity = setWays.reduce((a, w) => a + w, 0) * b;
      if (capacity !== this.sizeBytes) out.capacityBytes = capacity;
      return;
    }
    const held = setWays ? setWays.reduce((a, w) => a + w, 0) : 0;
    out.undecided = {
      reason: `no bit-selection mapping explains the conflict set (${c.lines.length} lines evict each other at N = C + b${c.complete ? '' : ', not all seen yet'})${
        !out.saturated
          ? ' and the step-3 sweep ended before every line had missed, so not every set has been seen'
          : `, and the ${setWays?.length ?? 0} sets found hold ${held} lines, not the ${L} that fit`
      }`,
      next: !out.saturated ? `a longer step-3 sweep (raise "sweepBeyond" to ${formatBytes(Math.max(2 * this.beyondBytes, this.sizeBytes))})` : 'more warm traversals per step-3 probe (raise "passes")',
    };
  }
}

/**
 * MEI 3.2 step 3: s = b, N from C upward by b. Each step adds one line; when that line's set had
 * room to spare before, the set now overflows and its lines start missing (LRU: ways + 1 at once,
 * MEI Fig 3); when its set was overflowing already, only the new line is new. MEI counts the
 * overflowing steps (reported as `bigSteps`); the sets, their granularity (1 line: line-number bits;
 * 4 lines of 32 B: texture bits 7-8) and the ways = C / (sets x b) come from the bit-selection
 * mapping that explains every first miss (see SetSweep), which holds for any replacement policy,
 * and predicts the conflict set of `conflictRecords` (probes at N = C + b) where given; the walker's
 * minimal eviction sets count the sets of an unmapped sweep (see SetSweep.readUnmapped).
 */
export function analyseSetsWays(
  records: readonly ChaseRecord[],
  threshold: number,
  sizeBytes: number,
  lineBytes: number,
  conflictRecords?: readonly ChaseRecord[],
  evictionSets?: number[][],
): SetAnalysis {
  const sweep = new SetSweep(threshold, sizeBytes, lineBytes);
  sweep.evictionSets = evictionSets;
  if (conflictRecords?.length) sweep.conflict = conflictSet(conflictRecords, threshold, lineBytes);
  for (const r of [...records].sort((a, b) => a.N - b.N)) sweep.add(r);
  return sweep.analyse();
}

/**
 * The XOR function of a hashed index, where the eviction sets allow it: with 2^k sets and each set
 * bit the XOR of some address bits, lines of one set agree on every such bit, so the XOR of any two
 * of them lies in the function's null space. The set bits span the vectors orthogonal to all those
 * XORs (over GF(2)); they are kept only when there are exactly k of them and they send the lines
 * of every set found to one value and different sets to different values. Bits above the lines seen
 * are not told (they did not vary).
 */
export interface XorFunction {
  /** Per set bit: a mask of the address bits XORed into it. */
  rows: number[];
  /** The highest address bit the lines seen vary. */
  topBit: number;
}

function rrefLow(rows: number[]): number[] {
  const out = rows.filter((r) => r !== 0);
  for (let i = 0; i < out.length; i++) {
    // Pivot: the row (from i) with the lowest lowest-set-bit.
    let best = i;
    for (let j = i + 1; j < out.length; j++) if ((out[j] & -out[j]) >>> 0 < (out[best] & -out[best]) >>> 0) best = j;
    [out[i], out[best]] = [out[best], out[i]];
    const pivot = out[i] & -out[i];
    for (let j = 0; j < out.length; j++) if (j !== i && out[j] & pivot) out[j] ^= out[i];
    for (let j = out.length - 1; j > i; j--) if (out[j] === 0) out.splice(j, 1);
  }
  return out.sort((a, b) => (a & -a) - (b & -b));
}

export function recoverXor(sets: readonly number[][], lineBytes: number): XorFunction | undefined {
  const k = Math.log2(sets.length);
  const shift = Math.log2(lineBytes);
  if (!Number.isInteger(k) || k < 1 || !Number.isInteger(shift)) return undefined;
  let maxLine = 0;
  for (const set of sets) for (const l of set) maxLine = Math.max(maxLine, l);
  const n = Math.max(1, Math.ceil(Math.log2(maxLine + 1)));
  if (n + shift > 30) return undefined;
  // The null space: XORs of lines of one set, reduced to a basis.
  const diffs: number[] = [];
  for (const set of sets) for (let i = 1; i < set.length; i++) diffs.push(set[i] ^ set[0]);
  const basis = rrefLow(diffs);
  if (n - basis.length !== k) return undefined;
  // Its orthogonal complement: one vector per free bit (a bit that is no pivot).
  const pivots = basis.map((r) => Math.log2(r & -r));
  const free: number[] = [];
  for (let bit = 0; bit < n; bit++) if (!pivots.includes(bit)) free.push(bit);
  const rows = free.map((f) => {
    let v = 1 << f;
    basis.forEach((r, i) => {
      if (r & (1 << f)) v |= 1 << pivots[i];
    });
    return v;
  });
  const canonical = rrefLow(rows);
  const parity = (x: number): number => {
    let p = 0;
    while (x) {
      p ^= 1;
      x &= x - 1;
    }
    return p;
  };
  const h = (line: number): number => canonical.reduce((acc, r, i) => acc | (parity(r & line) << i), 0);
  const seen = new Set<number>();
  for (const set of sets) {
    const v = h(set[0]);
    if (set.some((l) => h(l) !== v) || seen.has(v)) return undefined;
    seen.add(v);
  }
  return { rows: canonical.map((r) => r * lineBytes), topBit: n + shift - 1 };
}

/** "set bit 0 = a6 ^ a11; set bit 1 = a7 ^ a12" */
export function xorLabel(x: XorFunction): string {
  return x.rows
    .map((r, i) => {
      const bits: string[] = [];
      for (let b = 0; b <= x.topBit; b++) if (r & (1 << b)) bits.push(`a${b}`);
      return `set bit ${i} = ${bits.join(' ^ ')}`;
    })
    .join('; ');
}

// ---------------------------------------------------------------------------------------------
// Fig 12: which set each line goes to

export interface SetMappingAnalysis {
  /** Per line of [0, C): the inferred set (sets numbered in the order they overflowed), -1 unknown. */
  lineSet: Int32Array;
  lineBytes: number;
  sets: number;
  /** Lines of [0, C) assigned to each set. */
  linesPerSet: number[];
  /** Lines that went to one set before the next, and the period (lines) after which the sets repeat. */
  runLines?: number;
  periodLines?: number;
  /** True when lineSet[l] = floor(l / runLines) mod sets for every line, up to the sets' naming. */
  bitSelected: boolean;
  granularityBytes?: number;
  setIndexBits?: string;
  /** Lines that started missing in the probe where their set first overflowed. */
  exactLines: number;
}

/**
 * MEI Fig 12 from the step-3 sweep: which set each line of [0, C) goes to, the sets named in the
 * order they overflowed. With a consistent bit-selection mapping (see SetSweep) a line's set is the
 * mapping's; `exactLines` counts the lines that started missing in the very probe their set first
 * overflowed (all of them under LRU, which is how MEI could read the figure off the misses). Without
 * one, a line goes to the set whose overflow (a step where many lines started missing) it missed at.
 */
export function analyseSetMapping(sets: SetAnalysis, lineBytes: number): SetMappingAnalysis {
  const first = sets.firstMissStep;
  const L = first.length;
  const lineSet = new Int32Array(L).fill(-1);
  let exactLines = 0;
  let count: number;
  if (sets.mapping) {
    const S = sets.mapping.sets;
    const run = sets.mapping.granularityBytes / lineBytes;
    const overflow = new Float64Array(S).fill(Infinity);
    for (let l = 0; l < L; l++) {
      const s = Math.floor(l / run) % S;
      if (first[l] >= 0 && first[l] < overflow[s]) overflow[s] = first[l];
    }
    const order = Array.from({ length: S }, (_, s) => s).sort((a, b) => overflow[a] - overflow[b] || a - b);
    const name = new Int32Array(S);
    order.forEach((s, i) => (name[s] = i));
    for (let l = 0; l < L; l++) {
      const s = Math.floor(l / run) % S;
      lineSet[l] = name[s];
      if (first[l] === overflow[s]) exactLines++;
    }
    count = S;
  } else {
    const order = new Map<number, number>();
    sets.bigSteps.forEach((s, i) => order.set(s, i));
    for (let l = 0; l < L; l++) {
      lineSet[l] = order.get(first[l]) ?? -1;
      if (lineSet[l] >= 0) exactLines++;
    }
    count = sets.bigSteps.length;
  }
  const linesPerSet = new Array<number>(count).fill(0);
  for (const s of lineSet) if (s >= 0) linesPerSet[s]++;
  const out: SetMappingAnalysis = { lineSet, lineBytes, sets: count, linesPerSet, bitSelected: false, exactLines };
  if (!L || count === 0) return out;
  let run = 1;
  while (run < L && lineSet[run] === lineSet[0]) run++;
  const period = run * count;
  out.runLines = run;
  out.periodLines = period;
  // Bit selection: each run of `run` lines holds one set, the runs of one period are all different
  // sets, and the pattern repeats with the period.
  const firstPeriod = new Set<number>();
  for (let r = 0; r < count && r * run < L; r++) firstPeriod.add(lineSet[r * run]);
  let ok = firstPeriod.size === Math.min(count, Math.ceil(L / run)) && !firstPeriod.has(-1);
  for (let l = 0; ok && l < L; l++) if (lineSet[l] !== lineSet[Math.floor((l % period) / run) * run]) ok = false;
  out.bitSelected = ok;
  if (ok) {
    const gran = run * lineBytes;
    out.granularityBytes = gran;
    out.setIndexBits = setBitsLabel(gran, count);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Step 4: replacement policy

export interface PolicyAnalysis {
  /** MEI: the miss pattern repeats every traversal once warm. */
  periodic: boolean;
  /** Lines (address / lineBytes) of the overflowing set, in the order they were first loaded. */
  setLines: number[];
  /** Ways of the overflowing set (its lines minus one). */
  ways: number;
  /** Misses of the overflowing set after it filled, in order: line numbers. */
  missSequence: number[];
  /** The way (0-based, in first-load order) each of those misses replaced. */
  evictedWay: number[];
  /** Share of the replacements that hit each way (0-based). */
  wayShare: number[];
  /** The way replaced most often (0-based), and the mean number of misses between its replacements. */
  hotWay: number;
  hotInterval: number;
  /** Warm traversals in the trace. */
  traversals: number;
}

/**
 * MEI 3.2 step 4 and Fig 8. With N = C + b and s = b one set holds one line more than it has ways;
 * at any moment exactly one of its lines is out of the cache, so the victim of each miss is the
 * line that misses next. The ways are named as MEI does: by the order in which the set's lines were
 * first loaded; a line then takes over the way of the line it replaced.
 *
 * `sameSet(address)` tells the lines of the overflowing set apart using the mapping inferred in
 * step 3; without it, the lines that missed after warm-up are taken as the set.
 */
export function analysePolicy(
  rec: ChaseRecord,
  threshold: number,
  lineBytes: number,
  mapping?: { granularityBytes: number; sets: number },
): PolicyAnalysis {
  const per = rec.perTraversal;
  const traversals = Math.floor(rec.latency.length / per) - 1;
  const periodic = isPeriodic(rec, threshold);
  const lineOf = (a: number): number => Math.floor(a / lineBytes);
  const extra = lineOf(rec.N - lineBytes);
  let members: Set<number>;
  if (mapping) {
    const setOf = (line: number): number => Math.floor((line * lineBytes) / mapping.granularityBytes) % mapping.sets;
    const target = setOf(extra);
    members = new Set<number>();
    for (let l = 0; l <= extra; l++) if (setOf(l) === target) members.add(l);
  } else {
    members = new Set(missedAddresses(rec, threshold).map(lineOf));
  }
  const setLines = [...members].sort((a, b) => a - b);
  const ways = Math.max(1, setLines.length - 1);
  // Every miss of the set, in trace order.
  const misses: number[] = [];
  for (let i = 0; i < rec.latency.length; i++) {
    const line = lineOf(rec.address[i]);
    if (members.has(line) && rec.latency[i] >= threshold) misses.push(line);
  }
  const wayOf = new Map<number, number>();
  // The cold fills: the first `ways` misses load the ways in order.
  let i = 0;
  for (; i < misses.length && wayOf.size < ways; i++) if (!wayOf.has(misses[i])) wayOf.set(misses[i], wayOf.size);
  const missSequence = misses.slice(i);
  const evictedWay: number[] = [];
  for (let m = 0; m + 1 < missSequence.length; m++) {
    const victim = missSequence[m + 1];
    const way = wayOf.get(victim);
    if (way === undefined) break;
    evictedWay.push(way);
    wayOf.set(missSequence[m], way);
  }
  const counts = new Array<number>(ways).fill(0);
  for (const w of evictedWay) counts[w]++;
  const total = evictedWay.length;
  const wayShare = counts.map((c) => (total ? c / total : 0));
  let hotWay = 0;
  for (let w = 1; w < ways; w++) if (counts[w] > counts[hotWay]) hotWay = w;
  let last = -1;
  let gaps = 0;
  let gapSum = 0;
  evictedWay.forEach((w, idx) => {
    if (w !== hotWay) return;
    if (last >= 0) {
      gapSum += idx - last;
      gaps++;
    }
    last = idx;
  });
  return {
    periodic,
    setLines,
    ways,
    missSequence: missSequence.slice(0, evictedWay.length),
    evictedWay,
    wayShare,
    hotWay,
    hotInterval: gaps ? gapSum / gaps : NaN,
    traversals,
  };
}

export interface RecencyAnalysis {
  rounds: number;
  /** Rounds in which the re-used line was still cached after the set overflowed. */
  survived: number;
}

/**
 * Beyond MEI (periodicity cannot tell FIFO from LRU on a cyclic chase): fill a set, re-use its
 * oldest line, overflow the set by one line, then time the re-used line. LRU keeps it (the victim
 * is the next-oldest); FIFO evicts it. Each record is one round; `probe` is the index of the timed
 * re-use.
 */
export function analyseRecency(records: readonly ChaseRecord[], threshold: number, probe: number): RecencyAnalysis {
  let survived = 0;
  for (const r of records) if (r.latency[probe] < threshold) survived++;
  return { rounds: records.length, survived };
}

/** MEI's policy verdict: LRU needs a periodic miss pattern and, with two or more ways, a re-used line kept. */
export function policyVerdict(policy: PolicyAnalysis, recency?: RecencyAnalysis): 'LRU' | 'not LRU' {
  if (!policy.periodic) return 'not LRU';
  if (policy.ways < 2 || !recency) return 'LRU';
  return recency.survived === recency.rounds ? 'LRU' : 'not LRU';
}
