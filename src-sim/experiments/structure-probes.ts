/**
 * The probes of MEI's four-step method (MEI 3.2), shared by the cache-structure and
 * texture-set-mapping experiments. Each probe is one fine-grained P-chase kernel launch (cold
 * caches) whose every address and latency is recorded; what the next probe is comes from the
 * analysers' reading of the probes before it (src-sim/analysis/structure.ts), never from the preset.
 */
import type { PathModel } from '../model/path';
import { DEFAULT_L1_CONFIG, L1_CONFIG_IDS, withL1Config } from '../presets/l1-config';
import type { Preset, SpaceId } from '../presets/types';
import { Rng } from '../rng';
import type { ChaseRecord, HiddenLevel, LatencySplit, LineAnalysis, PolicyAnalysis, RecencyAnalysis, SetAnalysis, SizeAnalysis } from '../analysis/structure';
import {
  analyseCacheSize,
  analyseLineSize,
  analysePolicy,
  analyseRecency,
  addressSpread,
  analyseSetsWays,
  conflictSet,
  conflictShortfall,
  findHiddenLevel,
  isSpread,
  LatencyPool,
  SetSweep,
  warmMisses,
} from '../analysis/structure';
import { formatBytes } from './params';
import { Measurement, openSpace, TraceRecorder } from './pchase';
import type { ParamSpec, Progress, Trace } from './types';
import { ExperimentError, MAX_TRACE } from './types';

export const L1_CONFIG_PARAM: ParamSpec = {
  name: 'l1Config',
  label: 'L1 configuration',
  unit: '',
  kind: 'enum',
  default: DEFAULT_L1_CONFIG,
  options: [...L1_CONFIG_IDS],
  description: "The SM's L1 data-cache configuration for global memory, named by its L1 size: the preset's default, 48KB (Fermi, MEI 4.1), or an L1 / shared-memory carveout of Volta and later.",
};

/** Something to launch fine-grained P-chase kernels on: a fresh, cold model per launch. */
export interface StructureTarget {
  launch(n: number): { model: PathModel; m: Measurement };
}

/** The first cache level of one memory space of a preset, with the chosen L1 configuration. */
export function presetTarget(
  preset: Preset,
  space: SpaceId,
  l1Config: string,
  measurement: { jitter?: unknown; clockOverhead?: unknown },
  seed: number,
): StructureTarget {
  let p: Preset;
  try {
    p = withL1Config(preset, l1Config);
  } catch (e) {
    throw new ExperimentError(`parameter "l1Config": ${(e as Error).message}`, 'l1Config');
  }
  if (l1Config !== DEFAULT_L1_CONFIG && space !== 'global' && space !== 'global-cg')
    throw new ExperimentError(`parameter "l1Config" applies to global memory; space is ${space}`, 'l1Config');
  const cfg = space === 'global-cg' && !p.spaces['global-cg'] ? p.spaces.global : p.spaces[space];
  if (cfg && cfg.levels.length === 0)
    throw new ExperimentError(`${preset.name} ${space} memory has no cache level to probe (the papers probe its TLBs instead: see tlb-probes)`, 'space');
  openSpace(p, space, seed); // validates the space (throws ExperimentError naming it)
  return {
    launch(n: number) {
      const s = Rng.derive(seed, n);
      return { model: openSpace(p, space, s), m: Measurement.from(p, measurement, s) };
    },
  };
}

export interface FourStepOptions {
  /** Bytes of one array element (MEI: one unsigned int). */
  element: number;
  /** Largest cache size searched in step 1. */
  maxSize: number;
  /** Largest line size step 2 is sure to resolve. */
  maxLine: number;
  /** Accesses of the step-4 trace. */
  k: number;
  /** Warm traversals per step-3 probe when the miss pattern is not periodic. */
  passes: number;
  /** Step 3 continues to at least N = C + this (MEI Fig 9 goes 8 KB beyond 16 KB). */
  sweepBeyond: number;
  /** Stop after this step (1..4). */
  lastStep: number;
  /**
   * Keep the step-4 long trace (N = C + b, s = b, from a cold start: MEI Fig 8's) as a per-access
   * trace (level, set, way, evicted line), so that the cache view can replay it. Off by default: the
   * blind suites walk targets of their own.
   */
  keepTrace?: boolean;
}

export interface FourSteps {
  split: LatencySplit;
  size: SizeAnalysis;
  sizeRecords: ChaseRecord[];
  line?: LineAnalysis;
  lineRecords: ChaseRecord[];
  sets?: SetAnalysis;
  setRecords: ChaseRecord[];
  policy?: PolicyAnalysis;
  policyRecord?: ChaseRecord;
  /** The step-4 long trace as the cache view reads it (FourStepOptions.keepTrace). */
  policyTrace?: Trace;
  recency?: RecencyAnalysis;
  /** Mean latency of the smallest step-1 probe's warm accesses (all first-level hits), cycles. */
  smallestMean?: number;
  /** Step 1 found a slower level inside the hit cluster: the walk stopped there (see findHiddenLevel). */
  hidden?: HiddenLevel;
  /** The first warm miss follows pages (a TLB's reach), not lines: the walk stopped after step 2. */
  pages?: { evidence: string };
  notes: string[];
  accesses: number;
  /** Simulated accesses of each step walked. */
  stepAccesses: number[];
}

/** What a work estimate may know of the level probed (the preset's declaration; findings never use it). */
export interface EstimateShape {
  sizeBytes: number;
  lineBytes: number;
  sets: number;
  /** Lines that go to one set before the next (1: line-number bits). */
  run: number;
  /** Whether a cyclic chase misses periodically (three traversals per step-3 probe suffice). */
  periodic: boolean;
}

/** Rough number of simulated accesses of a walk, for the work limit and the progress bar. */
export function fourStepEstimate(shape: EstimateShape | undefined, o: FourStepOptions): number {
  if (!shape || shape.sizeBytes > o.maxSize) {
    // Step 1 doubles N up to maxSize and stops there.
    return Math.round((4 * o.maxSize) / o.element);
  }
  const per = shape.sizeBytes / o.element;
  const step1 = 4 * per + Math.log2(Math.max(2, per)) * 2 * 1.3 * per;
  const step2 = (Math.log2(Math.max(2, (4 * o.maxLine) / o.element)) / 2 + 3) * 2 * per;
  const lines = shape.sizeBytes / shape.lineBytes;
  const steps = Math.max(shape.sets * shape.run, o.sweepBeyond / shape.lineBytes) + 4;
  const step3 = steps * (lines + steps / 2) * (shape.periodic ? 4 : o.passes + 1);
  const step4 = o.k + 4 * (lines + 3);
  return Math.round(step1 + (o.lastStep >= 2 ? step2 : 0) + (o.lastStep >= 3 ? step3 : 0) + (o.lastStep >= 4 ? step4 : 0));
}

/** Mean of the warm accesses of the smallest probe (N = one element: a first-level hit every time). */
function smallestMean(records: readonly ChaseRecord[]): number | undefined {
  if (!records.length) return undefined;
  const r = records.reduce((a, b) => (b.N < a.N ? b : a));
  let sum = 0;
  for (let i = r.perTraversal; i < r.latency.length; i++) sum += r.latency[i];
  return r.latency.length > r.perTraversal ? sum / (r.latency.length - r.perTraversal) : undefined;
}

/** Simulated accesses step 3 may spend beyond its first probes (an unmapped sweep under a policy that is not periodic is the costly case). */
const STEP3_BUDGET = 20_000_000;

/** `addresses` visited in order, `traversals` times. */
function repeated(addresses: readonly number[], traversals: number): Float64Array {
  const per = addresses.length;
  const all = new Float64Array(per * traversals);
  for (let t = 0; t < traversals; t++) for (let i = 0; i < per; i++) all[t * per + i] = addresses[i];
  return all;
}

/** Launch numbers of the control launches, apart from the walk's own. */
const CONTROL_LAUNCH = 1_000_000;

class Walker {
  launches = 0;
  controls = 0;
  accesses = 0;
  readonly pool = new LatencyPool();

  constructor(
    private readonly target: StructureTarget,
    private readonly progress: Progress,
    private readonly budget: number,
  ) {}

  /** One launch of a uniform-stride fine-grained chase: `traversals` passes, the first cold. */
  chase(N: number, s: number, traversals: number, phase: string, keep?: (trace: Trace) => void): ChaseRecord {
    const per = Math.ceil(N / s);
    const total = per * traversals;
    if (total > MAX_TRACE) throw new ExperimentError(`a probe of ${formatBytes(N)} would record ${total} accesses (limit ${MAX_TRACE}); lower "maxSize" or raise "element"`, 'maxSize');
    // MEI Listing 3: A[i] = (i + s) mod N, visited from 0; the array itself is never allocated.
    const address = new Float64Array(total);
    let j = 0;
    for (let i = 0; i < total; i++) {
      address[i] = j;
      j += s;
      if (j >= N) j -= N;
    }
    return this.run(N, s, per, address, phase, keep);
  }

  /** One launch of a hand-initialised chase that visits `addresses` in order, `traversals` times (the first cold). */
  cycle(addresses: readonly number[], traversals: number, phase: string): ChaseRecord {
    return this.run(0, 0, addresses.length, repeated(addresses, traversals), phase);
  }

  /**
   * A control launch that leaves the walk as it was: its own launch numbers (its own randomness), its
   * latencies kept out of the hit/miss split and its accesses out of the walk's count, so that a walk the
   * control does not stop is the walk without it.
   */
  control(addresses: readonly number[], traversals: number): ChaseRecord {
    const { model, m } = this.target.launch(CONTROL_LAUNCH + this.controls++);
    const address = repeated(addresses, traversals);
    const latency = new Float64Array(address.length);
    for (let i = 0; i < address.length; i++) latency[i] = m.read(model.access(address[i]));
    return { N: 0, s: 0, address, latency, perTraversal: addresses.length };
  }

  /** One launch of a hand-initialised chase over `addresses` (non-uniform strides). */
  sequence(addresses: readonly number[], phase: string): ChaseRecord {
    return this.run(0, 0, addresses.length, Float64Array.from(addresses), phase);
  }

  private run(N: number, s: number, per: number, address: Float64Array, phase: string, keep?: (trace: Trace) => void): ChaseRecord {
    const { model, m } = this.target.launch(this.launches++);
    const total = address.length;
    const latency = new Float64Array(total);
    if (keep) {
      // The launch starts cold: the trace needs no start state.
      const rec = new TraceRecorder(total, [...model.config.levels.map((l) => l.name), 'memory']);
      for (let i = 0; i < total; i++) {
        latency[i] = m.read(model.access(address[i]));
        rec.record(model, address[i], latency[i]);
      }
      keep(rec.trace);
    } else for (let i = 0; i < total; i++) latency[i] = m.read(model.access(address[i]));
    this.accesses += total;
    this.pool.add(latency);
    this.progress(Math.min(this.accesses, this.budget), Math.max(this.budget, this.accesses), phase);
    return { N, s, address, latency, perTraversal: per };
  }
}

/**
 * Minimal eviction sets of an unmapped sweep (a hashed index, unequal sets). Each overflow of the
 * sweep made lines of one set start missing; a chase over a pool of such lines misses while some set
 * holds more of them than its ways (any policy misses at least once a traversal then), and removing
 * lines one at a time while it still misses leaves the ways + 1 lines of one set: with one line fewer
 * no policy misses. The pool takes the overflows in order; each set found leaves it, and the lines
 * of a set not yet complete (a policy that is not periodic shows members late) wait for the next.
 */
function evictionSets(w: Walker, groups: { N: number; lines: number[] }[], b: number): number[][] {
  const evicts = (lines: readonly number[]): boolean => {
    const rec = w.cycle(
      lines.map((l) => l * b),
      4,
      'step 3: eviction sets',
    );
    return warmMisses(rec, w.pool.split().threshold) > 0;
  };
  const found: number[][] = [];
  let pool: number[] = [];
  for (const g of groups) {
    pool = [...new Set([...pool, ...g.lines])];
    while (pool.length >= 2 && evicts(pool)) {
      let m = pool.slice();
      for (const l of pool) {
        if (m.length <= 2) break;
        const without = m.filter((x) => x !== l);
        if (evicts(without)) m = without;
      }
      m.sort((x, y) => x - y);
      found.push(m);
      const taken = new Set(m);
      pool = pool.filter((l) => !taken.has(l));
    }
  }
  return found;
}

/** The page size of the pages-or-lines control: the smallest page of the GPUs modelled (assumed for others). */
const PAGE_PROBE = 4096;

/**
 * Walks MEI 3.2: (1) C with s = one element, (2) b with N = C + 1 element and up, (3) sets and ways
 * with s = b and N from C upward by b, (4) the replacement policy from the periodicity of a long
 * trace at N = C + b, then which way each miss replaces.
 */
export function walkFourSteps(target: StructureTarget, o: FourStepOptions, progress: Progress, budget: number): FourSteps {
  const w = new Walker(target, progress, budget);
  const e = o.element;
  const notes: string[] = [];
  const stepAccesses: number[] = [];
  const mark = (): void => {
    stepAccesses.push(w.accesses - stepAccesses.reduce((a, b) => a + b, 0));
  };
  let hidden: HiddenLevel | undefined;
  let pages: { evidence: string } | undefined;
  const result = (): FourSteps => ({
    hidden,
    pages,
    smallestMean: smallestMean(sizeRecords),
    split: w.pool.split(),
    size: analyseCacheSize(sizeRecords, w.pool.split().threshold),
    sizeRecords,
    lineRecords,
    setRecords,
    notes,
    accesses: w.accesses,
    stepAccesses,
  });

  // ---- Step 1: C. Double N until a warm traversal misses, then bisect to one element.
  const sizeRecords: ChaseRecord[] = [];
  const lineRecords: ChaseRecord[] = [];
  const setRecords: ChaseRecord[] = [];
  const fits = (N: number): boolean => {
    const per = Math.ceil(N / e);
    const rec = w.chase(N, e, 1 + Math.max(1, Math.ceil(64 / per)), `step 1: N = ${formatBytes(N)}`);
    sizeRecords.push(rec);
    return warmMisses(rec, w.pool.split().threshold) === 0;
  };
  let lo = 0;
  let hi = 0;
  for (let N = e; ; N *= 2) {
    const n = Math.min(N, o.maxSize - (o.maxSize % e));
    if (fits(n)) lo = n;
    else {
      hi = n;
      break;
    }
    if (n >= o.maxSize - (o.maxSize % e)) break;
  }
  if (!w.pool.split().separated) {
    notes.push('The latencies form a single cluster: hits and misses cannot be told apart.');
    return result();
  }
  const hiddenNote = (h: HiddenLevel): string =>
    `A slower level hides in the hit cluster: ${h.evidence}. Its latency lies within the jitter of the hit latency, so the first level's hits and misses cannot be told apart access by access; the first level is smaller than ${formatBytes(h.slowN)}.`;
  /**
   * With jitter (a hit cluster wider than a cycle) a slower level can hide inside it: chase N many
   * times and compare the per-address means (addressSpread). Without jitter the clusters of two
   * levels a cycle apart are already separate.
   */
  const spreadCheck = (N: number): HiddenLevel | undefined => {
    const s0 = w.pool.split();
    const hit = s0.clusters[0];
    if (!hit || hit.to - hit.from <= 1) return undefined;
    const per = Math.ceil(N / e);
    const T = Math.max(4, Math.min(32, Math.floor(1_000_000 / per)));
    const rec = w.chase(N, e, 1 + T, `step 1: N = ${formatBytes(N)}, ${T} traversals (is the hit cluster one level?)`);
    if (warmMisses(rec, w.pool.split().threshold) > 0) return undefined;
    const a = addressSpread(rec);
    if (!isSpread(a)) return undefined;
    return {
      slowN: N,
      evidence: `chased ${T} times, the ${a.addresses} addresses of N = ${formatBytes(N)} differ in mean latency ${a.f === Infinity ? 'without any jitter' : `${a.f.toFixed(2)} times more than the jitter explains (z = ${a.z.toFixed(1)})`}, though none is above the hit/miss threshold`,
    };
  };
  if (hi === 0) {
    hidden = findHiddenLevel(sizeRecords, w.pool.split().threshold) ?? spreadCheck(lo);
    if (hidden) {
      notes.push(hiddenNote(hidden));
      return result();
    }
    notes.push(`No miss up to ${formatBytes(lo)}: the first cache level is larger than "maxSize".`);
    return result();
  }
  if (lo === 0) {
    notes.push(`Even one ${e}-byte element misses after warm-up: no cache, or a cache smaller than one element.`);
    return result();
  }
  while (hi - lo > e) {
    const mid = lo + Math.floor((hi - lo) / (2 * e)) * e;
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  mark();
  const size1 = analyseCacheSize(sizeRecords, w.pool.split().threshold);
  const C = size1.sizeBytes;
  if (C === undefined || !size1.consistent) {
    notes.push('Step 1 probes are not monotone in N (a larger array fitted where a smaller one missed).');
    return result();
  }
  hidden = findHiddenLevel(sizeRecords, w.pool.split().threshold) ?? spreadCheck(C);
  if (hidden) {
    notes.push(hiddenNote(hidden));
    return result();
  }
  if (o.lastStep < 2) return result();

  // ---- Step 2: b. N = C + j elements, j = 1, 8, 32, 128, ... up to 4 x maxLine: the misses fall on
  // line starts, and once lines of two neighbouring sets miss their common divisor is the line.
  const reach = Math.max(1, Math.floor((4 * o.maxLine) / e));
  const js = [1];
  for (let j = 8; j < reach; j *= 4) js.push(j);
  if (reach > 1) js.push(reach);
  for (const j of js) lineRecords.push(w.chase(C + j * e, e, 2, `step 2: N = C + ${formatBytes(j * e)}`));
  let line = analyseLineSize(lineRecords, w.pool.split().threshold);
  const b = line.lineBytes;
  if (b === undefined) {
    notes.push('Step 2 saw no miss beyond C: the line size is not resolved.');
    return result();
  }
  if (b === e) notes.push(`Every element missed on its own: the line is ${e} B or smaller (rerun with a smaller "element" to tell).`);
  // MEI's own reading: the miss count is flat up to N = C + b and jumps at C + b + 1 element.
  for (const N of [C + b, C + b + e]) if (!lineRecords.some((r) => r.N === N)) lineRecords.push(w.chase(N, e, 2, 'step 2: confirming the jump'));
  line = analyseLineSize(lineRecords, w.pool.split().threshold);
  mark();
  // Pages, not lines: the first warm miss may be a TLB's reach (small pages, arrays of megabytes). One
  // element per 4 KB page over the same N, each at a line of its own spread over the sets, touches the same
  // pages and a few lines: a data cache of size C holds them, a TLB of that reach misses them again.
  const firstMiss = size1.firstMissBytes ?? C + e;
  if (firstMiss >= 2 * PAGE_PROBE) {
    const n = Math.ceil(firstMiss / PAGE_PROBE);
    // Each element one line further into its page than the last (128 B where the line found is a page or more).
    const shift = b < PAGE_PROBE ? b : 128;
    const addresses = Array.from({ length: n }, (_, i) => i * PAGE_PROBE + ((i * shift) % PAGE_PROBE));
    const rec = w.control(addresses, 4);
    const m = warmMisses(rec, w.pool.split().threshold);
    if (m > 0) {
      pages = {
        evidence: `one element in each of the ${n} 4 KB pages of N = ${formatBytes(firstMiss)} (${n} lines on as many sets) misses too (${m} warm misses): what overflows at N = C = ${formatBytes(C)} follows pages, a TLB's reach, not a data cache's size`,
      };
      notes.push(`Step 2 control: ${pages.evidence}.`);
      return result();
    }
  }
  if (o.lastStep < 3) return { ...result(), line };

  // ---- Step 3: sets and ways. s = b, N = C, C + b, C + 2b, ... until every set has overflowed.
  const limit = Math.max(2 * C + 2 * b, C + o.sweepBeyond);
  const sweep = new SetSweep(w.pool.split().threshold, C, b);
  const add = (rec: ChaseRecord): void => {
    setRecords.push(rec);
    sweep.add(rec);
  };
  add(w.chase(C, b, 3, 'step 3: N = C'));
  const first = w.chase(C + b, b, 1 + Math.max(3, o.passes), 'step 3: N = C + b');
  add(first);
  // The conflict set at N = C + b: the lines that evict each other. A periodic miss pattern shows
  // them all; otherwise N = C + b is chased again until a member never seen is unlikely.
  const conflictRecords = [first];
  let conflict = conflictSet(conflictRecords, w.pool.split().threshold, b);
  const perC = Math.ceil((C + b) / b);
  for (let extra = 0; !conflict.complete && !conflict.periodic && extra < 3; extra++) {
    const warm = conflictRecords.reduce((a, r) => a + r.latency.length / r.perTraversal - 1, 0);
    const rate = Math.max(conflict.misses / warm, 0.05);
    const T = Math.max(4, Math.min(Math.floor(MAX_TRACE / 4 / perC), Math.ceil(conflictShortfall(conflict) / rate)));
    conflictRecords.push(w.chase(C + b, b, 1 + T, `step 3: N = C + b, ${T} traversals (the whole conflict set)`));
    conflict = conflictSet(conflictRecords, w.pool.split().threshold, b);
  }
  sweep.conflict = conflict;
  // A periodic miss pattern (LRU, FIFO) misses every line of an overflowing set every traversal:
  // three traversals show them all. Otherwise each probe gets `passes` traversals, or, while no
  // bit-selection mapping explains the sweep (a hashed index, unequal sets), as many as the conflict
  // set needed to show all its lines: each overflow must show its whole set (see evictionSets).
  const passes = conflict.periodic ? 3 : Math.max(3, o.passes);
  const conflictTraversals = conflictRecords.reduce((a, r) => a + Math.floor(r.latency.length / r.perTraversal) - 1, 0);
  const unmappedPasses = conflict.periodic ? passes : Math.max(passes, Math.min(conflictTraversals, 4 * passes, Math.floor(MAX_TRACE / 4 / perC)));
  const step3Budget = w.accesses + STEP3_BUDGET;
  let stable = 0;
  let previous = '';
  for (let N = C + 2 * b; N <= limit; N += b) {
    const step = (N - C) / b - 1;
    if (N - b >= C + o.sweepBeyond) {
      // Stop once every line has missed (twice running), or once the set mapping that explains the
      // sweep has seen all its sets overflow and has not changed for three probes. Without a mapping
      // (a hashed index, unequal sets) the sweep goes on until every line has missed.
      const cov = sweep.covered;
      if (cov.length >= 2 && cov[cov.length - 1] && cov[cov.length - 2]) break;
      const m = sweep.mapping();
      const key = m ? `${m.sets}/${m.granularityBytes}` : '';
      stable = m && m.lastOverflow <= step - 2 && key === previous ? stable + 1 : 0;
      previous = key;
      if (stable >= 2) break;
    }
    if (w.accesses > step3Budget) {
      notes.push(`Step 3 stopped at N = ${formatBytes(N - b)} after ${STEP3_BUDGET} simulated accesses, before every line had missed.`);
      break;
    }
    add(w.chase(N, b, 1 + (sweep.mapping() ? passes : unmappedPasses), `step 3: N = C + ${(N - C) / b} lines`));
  }
  if (!sweep.mapping() && sweep.covered[sweep.covered.length - 1]) sweep.evictionSets = evictionSets(w, sweep.overflowGroups(), b);
  mark();
  const sets = sweep.analyse();
  if (!sets.saturated && sets.mapping === undefined) notes.push('Step 3 ended before every line had missed and no set mapping explains it: the set count may be low.');
  if (o.lastStep < 4 || (sets.ways === undefined && !sets.setWays && !conflict.complete)) return { ...result(), line, sets: analyseSetsWays(setRecords, w.pool.split().threshold, C, b, conflictRecords, sweep.evictionSets) };

  // ---- Step 4: policy. N = C + b, s = b, k accesses; then the re-use probe where the pattern is periodic.
  const per = C / b + 1;
  let policyTrace: Trace | undefined;
  const policyRecord = w.chase(C + b, b, Math.max(5, Math.floor(o.k / per)), 'step 4: long trace', o.keepTrace ? (t) => (policyTrace = t) : undefined);
  const mapping = sets.mapping;
  let policy = analysePolicy(policyRecord, w.pool.split().threshold, b, mapping);
  let recency: RecencyAnalysis | undefined;
  const rounds: ChaseRecord[] = [];
  const group = policy.setLines;
  const ways = group.length - 1;
  const probeAt = ways + 2;
  if (policy.periodic && ways >= 2) {
    const seq = [...group.slice(0, ways), group[0], group[ways], group[0], group[1]].map((l) => l * b);
    for (let r = 0; r < 4; r++) rounds.push(w.sequence(seq, 'step 4: re-use probe'));
  }
  mark();
  // Final reading with every latency pooled.
  const t = w.pool.split().threshold;
  const finalSets = analyseSetsWays(setRecords, t, C, b, conflictRecords, sweep.evictionSets);
  policy = analysePolicy(policyRecord, t, b, finalSets.mapping);
  if (rounds.length) recency = analyseRecency(rounds, t, probeAt);
  return {
    ...result(),
    line: analyseLineSize(lineRecords, t),
    sets: finalSets,
    policy,
    policyRecord,
    policyTrace,
    recency,
  };
}
