import type { PathModel } from '../model/path';
import type { Preset, SpaceId } from '../presets/types';
import { Rng } from '../rng';
import type { LatencyClass } from '../analysis/tlb';
import type { ElementCurve, RiseCheck, Segmentation } from '../analysis/tlb';
import {
  analyseFixedCount,
  analyseMissedEntries,
  analyseOffset,
  analysePeriodicity,
  analyseReuse,
  simulateSet,
  analyseWindow,
  associativityLadder,
  checkFullyAssociative,
  classifyRises,
  latencyClasses,
  missesInStep,
  risesOf,
  setSizesFromMisses,
  tlbLevelsOf,
} from '../analysis/tlb';
import { CANNOT_TELL, cannotTell } from '../analysis/cannot-tell';
import { formatBytes, resolveParams, withoutImpossibleNext } from './params';
import { tlbProbeStride } from './tlb-stride';
import { checkWork, CLOCK_PARAM, fineChase, JITTER_PARAM, Measurement, openSpace, TPC_PARAM, traversal, WORD } from './pchase';
import type { Experiment, ExperimentResult, Finding, ParamSpec, ParamValues, Progress, Series, Table, Trace } from './types';
import { ExperimentError, MAX_TRACE } from './types';
import { withFollowUps } from './refine';

const KB = 1024;
const MB = 1024 * KB;
const GB = 1024 * MB;

export const TLB_PROBES = ['reach', 'fixed-count', 'offset', 'missed-entries', 'page-size', 'window'] as const;
export type TlbProbe = (typeof TLB_PROBES)[number];

/** WONG Fig 14's strides: powers of two and the non-powers 608, 724, 821 KB. */
const FIG14_STRIDES = [64, 128, 256, 384, 512, 608, 724, 821, 1024, 2048, 4096, 8192].map((k) => k * KB);
/** WONG Fig 15's offsets, finer around the 4 KB line. */
const FIG15_OFFSETS = [0, 512, 1024, 2048, 3072, 4096, 5120, 6144, 8192, 16384, 32768];

const params: ParamSpec[] = [
  {
    name: 'probe',
    label: 'Probe',
    unit: '',
    kind: 'enum',
    default: 'reach',
    options: TLB_PROBES,
    description:
      'reach: latency vs N at a large stride (WONG Figs 13, 16; MEI Table 4); fixed-count: counts vs stride (WONG Fig 14); offset: two groups shifted by an offset (WONG Fig 15); missed-entries: misses per traversal, N = 130..144 MB (MEI Figs 10, 11); page-size: brute force; window: Kepler 512 MB page window (MEI pattern 6).',
  },
  {
    name: 'space',
    label: 'Memory space',
    unit: '',
    kind: 'enum',
    default: 'global',
    options: ['global', 'global-cg', 'texture'],
    description: 'global; global-cg (L1 bypassed, -Xptxas -dlcm=cg); texture (tex1Dfetch on linear memory, its own TLBs on GT200).',
  },
  {
    name: 'stride',
    label: 'Stride',
    unit: 'B',
    kind: 'bytes',
    default: 0,
    min: 0,
    max: 4 * GB,
    description: 'Element spacing s for reach, missed-entries and window (0: 512 KB on Tesla global, 256 KB on Tesla texture, 2 MB on Fermi/Kepler).',
  },
  {
    name: 'sizeFrom',
    label: 'Smallest array',
    unit: 'B',
    kind: 'bytes',
    default: 0,
    min: 0,
    max: 64 * GB,
    description: 'First array size N (0: the probe default, e.g. 130 MB for missed-entries on Fermi/Kepler).',
  },
  {
    name: 'sizeTo',
    label: 'Largest array',
    unit: 'B',
    kind: 'bytes',
    default: 0,
    min: 0,
    max: 64 * GB,
    description: 'Last array size N, inclusive (0: the probe default, e.g. 160 MB for reach on Fermi/Kepler, 768 MB for window).',
  },
  {
    name: 'sizeStep',
    label: 'Size step',
    unit: 'B',
    kind: 'bytes',
    default: 0,
    min: 0,
    max: 64 * GB,
    description: 'Increment of N (0: one stride; 64 MB for window).',
  },
  {
    name: 'counts',
    label: 'Element counts',
    unit: '',
    kind: 'integer-list',
    default: [16, 17],
    min: 1,
    max: 4096,
    maxItems: 8,
    description: 'fixed-count: one curve per number of elements (WONG Fig 14: 16 and 17).',
  },
  {
    name: 'strides',
    label: 'Strides',
    unit: 'B',
    kind: 'bytes-list',
    default: FIG14_STRIDES,
    min: 4,
    max: 1 * GB,
    maxItems: 32,
    description: 'fixed-count and page-size: the strides swept (WONG Fig 14: 64 KB to 8 MB with 608, 724, 821 KB).',
  },
  {
    name: 'offsets',
    label: 'Offsets',
    unit: 'B',
    kind: 'bytes-list',
    default: FIG15_OFFSETS,
    min: 0,
    max: 64 * MB,
    maxItems: 32,
    description: 'offset and page-size: shifts of the second group (WONG Fig 15: 0 to 32 KB).',
  },
  {
    name: 'groupStride',
    label: 'Group stride',
    unit: 'B',
    kind: 'bytes',
    default: 0,
    min: 0,
    max: 1 * GB,
    description: 'offset: spacing of the elements within each group (0: 2 MB, WONG Fig 15).',
  },
  {
    name: 'groupSize',
    label: 'Group size',
    unit: '',
    kind: 'integer',
    default: 10,
    min: 1,
    max: 1024,
    description: 'offset: elements in each of the two groups (WONG Fig 15: 10, 20 in all).',
  },
  {
    name: 'skew',
    label: 'Skew',
    unit: 'B',
    kind: 'integer',
    default: -1,
    min: -1,
    max: 1 * MB,
    description:
      'Bytes added per element index (element i at i*s + (i*skew mod s)) so that the data caches keep hitting and only the TLBs change (-1: 128 B on Fermi/Kepler global, 0 on Tesla, texture and window).',
  },
  {
    name: 'traversals',
    label: 'Timed traversals',
    unit: '',
    kind: 'integer',
    default: 2,
    min: 1,
    max: 64,
    description: 'Timed passes after one untimed warm-up pass (averages use at least 256 timed loads).',
  },
  TPC_PARAM,
  JITTER_PARAM,
  CLOCK_PARAM,
];

/** Element i of a chase: i*stride, plus a skew that stays within the element's page, plus an offset for the second group. */
export class Layout {
  constructor(
    readonly stride: number,
    readonly skew: number,
    readonly groupSize = 0,
    readonly offset = 0,
  ) {}

  at(i: number): number {
    let a = i * this.stride;
    if (this.skew > 0) a += (i * this.skew) % this.stride;
    if (this.groupSize > 0 && i >= this.groupSize) a += this.offset;
    return a;
  }
}

/** Everything a run needs, with the automatic defaults resolved. */
interface Plan {
  probe: TlbProbe;
  space: SpaceId;
  stride: number;
  sizes: number[];
  skew: number;
  counts: number[];
  strides: number[];
  offsets: number[];
  groupStride: number;
  groupSize: number;
  traversals: number;
  /** For page-size: the reach sweep run first. */
  reachSizes: number[];
}

export function sizeList(from: number, to: number, step: number): number[] {
  if (to < from) throw new ExperimentError('parameter "sizeTo" must not be smaller than "sizeFrom"', 'sizeTo');
  if (step <= 0) throw new ExperimentError('parameter "sizeStep" must be positive', 'sizeStep');
  const count = Math.floor((to - from) / step) + 1;
  if (count > 4000) throw new ExperimentError(`the sweep has ${count} sizes; at most 4000 (raise "sizeStep")`, 'sizeStep');
  return Array.from({ length: count }, (_, i) => from + i * step);
}

/** Per-preset defaults: the strides and ranges the papers used (experimental design, not findings). */
function plan(preset: Preset, p: ParamValues): Plan {
  const probe = p.probe as TlbProbe;
  const space = p.space as SpaceId;
  const tesla = preset.generation === 'Tesla';
  const stride = tlbProbeStride(preset, p);
  if (stride % WORD !== 0) throw new ExperimentError(`parameter "stride" must be a multiple of ${WORD} B (one element)`, 'stride');
  const reachTop = tesla ? (space === 'texture' ? 24 * MB : 40 * MB) : 160 * MB;
  const auto = (probe: TlbProbe): [number, number, number] => {
    if (probe === 'missed-entries') {
      if (tesla) return space === 'texture' ? [16 * MB, 18 * MB, stride] : [32 * MB, 36 * MB, stride];
      return [130 * MB, 144 * MB, stride];
    }
    if (probe === 'window') return [384 * MB, 768 * MB, 64 * MB];
    return [stride, Math.max(stride, reachTop), stride];
  };
  const [f, t, s] = auto(probe);
  const from = (p.sizeFrom as number) || f;
  const to = (p.sizeTo as number) || Math.max(t, from);
  const step = (p.sizeStep as number) || s;
  const needsSizes = probe === 'reach' || probe === 'missed-entries' || probe === 'window';
  const sizes = needsSizes ? sizeList(from, to, step) : [];
  for (const N of sizes) {
    if (N % WORD !== 0) throw new ExperimentError(`parameter "sizeFrom"/"sizeStep" must give sizes that are multiples of ${WORD} B`, 'sizeFrom');
    if (N < stride) throw new ExperimentError(`parameter "sizeFrom" (${formatBytes(N)}) is smaller than the stride (${formatBytes(stride)})`, 'sizeFrom');
  }
  const [rf, rt, rs] = auto('reach');
  // The page-size probe's reach sweep; the missed-entries probe's own (at the probe defaults) measures the L2 TLB entry coverage.
  const reachSizes = probe === 'page-size' ? sizeList((p.sizeFrom as number) || rf, (p.sizeTo as number) || Math.max(rt, (p.sizeFrom as number) || rf), (p.sizeStep as number) || rs) : probe === 'missed-entries' ? sizeList(rf, rt, rs) : [];
  const skewRaw = p.skew as number;
  const skew = skewRaw >= 0 ? skewRaw : !tesla && space !== 'texture' && probe !== 'window' ? 128 : 0;
  const strides = p.strides as number[];
  for (const v of strides) if (v % WORD !== 0) throw new ExperimentError(`parameter "strides" must hold multiples of ${WORD} B`, 'strides');
  const groupStride = (p.groupStride as number) || 2 * MB;
  if (groupStride % WORD !== 0) throw new ExperimentError(`parameter "groupStride" must be a multiple of ${WORD} B`, 'groupStride');
  return {
    probe,
    space,
    stride,
    sizes,
    skew,
    counts: p.counts as number[],
    strides,
    offsets: p.offsets as number[],
    groupStride,
    groupSize: p.groupSize as number,
    traversals: p.traversals as number,
    reachSizes,
  };
}

function passesFor(n: number, traversals: number): number {
  return Math.max(traversals, Math.ceil(256 / n));
}

/** Simulated accesses of one averaged point (warm-up plus timed passes). */
function averageCost(n: number, traversals: number): number {
  return n * (1 + passesFor(n, traversals));
}

function traceCost(n: number, passes: number): number {
  return n * (1 + passes);
}

function tracePasses(pl: Plan): number {
  return Math.max(2, pl.traversals);
}

function estimatePlan(pl: Plan): number {
  const reachCost = (sizes: number[]): number => {
    let t = 0;
    for (const N of sizes) t += averageCost(traversal(N, pl.stride), pl.traversals);
    const top = sizes.length ? traversal(sizes[sizes.length - 1], pl.stride) + 1 : 0;
    // The pair and double-stride controls, the policy traces and the associativity ladder.
    return 3 * t + 6 * traceCost(top, Math.max(3, pl.traversals));
  };
  // Every count at every stride, and the pages-of-two control (twice the smallest count).
  const fixed = (counts: number[]): number => counts.reduce((a, c) => a + pl.strides.length * averageCost(c, pl.traversals), 0) + pl.strides.length * averageCost(2 * Math.min(...counts, 1 << 20), pl.traversals);
  const offset = pl.offsets.length * averageCost(2 * pl.groupSize, pl.traversals);
  const coverageCost = (): number => {
    const top = pl.reachSizes.length ? traversal(pl.reachSizes[pl.reachSizes.length - 1], pl.stride) : 16;
    return reachCost(pl.reachSizes) + fixed([top, top + 1]);
  };
  switch (pl.probe) {
    case 'reach':
      return reachCost(pl.sizes);
    case 'fixed-count':
      return fixed(pl.counts);
    case 'offset':
      return offset;
    case 'missed-entries':
      // The sweep, and the page-size probe's reach sweep and coverage ladders for the L2 TLB's entry coverage.
      return pl.sizes.reduce((a, N) => a + traceCost(traversal(N, pl.stride), tracePasses(pl)), 0) + coverageCost();
    case 'window':
      return pl.sizes.reduce((a, N) => a + traceCost(traversal(N, pl.stride), tracePasses(pl)), 0);
    case 'page-size':
      return coverageCost() + offset;
  }
}

/** One kernel launch per point: a fresh chip with its own seeded randomness. */
class Runner {
  done = 0;
  constructor(
    readonly preset: Preset,
    readonly p: ParamValues,
    readonly pl: Plan,
    readonly seed: number,
    readonly progress: Progress,
    readonly total: number,
  ) {}

  private open(stream: number): { model: PathModel; m: Measurement } {
    const s = Rng.derive(this.seed, stream);
    return { model: openSpace(this.preset, this.pl.space, s, this.p.tpc as number), m: Measurement.from(this.preset, this.p, s) };
  }

  /** Average latency over whole timed traversals of n elements. */
  average(stream: number, layout: { at(i: number): number }, n: number, phase: string, scale = 1): number {
    const { model, m } = this.open(stream);
    for (let i = 0; i < n; i++) model.access(layout.at(i));
    const passes = passesFor(n, this.pl.traversals) * scale;
    let sum = 0;
    for (let t = 0; t < passes; t++) for (let i = 0; i < n; i++) sum += m.read(model.access(layout.at(i)));
    this.tick(averageCost(n, this.pl.traversals), phase);
    return sum / (passes * n);
  }

  /** Fine-grained trace (MEI Listing 4) of `passes` timed traversals after one untimed warm-up pass. */
  trace(stream: number, layout: { at(i: number): number }, n: number, passes: number, phase: string): Trace {
    if (n * passes > MAX_TRACE)
      throw new ExperimentError(`a trace of ${n * passes} accesses exceeds ${MAX_TRACE}; use a larger stride or fewer traversals`, 'stride');
    const { model, m } = this.open(stream);
    for (let i = 0; i < n; i++) model.access(layout.at(i));
    const tr = fineChase(model, m, (i) => layout.at(i % n), n * passes);
    this.tick(traceCost(n, passes), phase);
    return tr;
  }

  /** Fine-grained trace of `passes` timed repetitions of the element sequence `seq`, after a warm-up pass over elements 0..n-1. */
  traceSeq(stream: number, layout: { at(i: number): number }, n: number, seq: readonly number[], passes: number, phase: string): Trace {
    const k = seq.length * passes;
    if (k > MAX_TRACE) throw new ExperimentError(`a trace of ${k} accesses exceeds ${MAX_TRACE}; use a larger stride or fewer traversals`, 'stride');
    const { model, m } = this.open(stream);
    for (let i = 0; i < n; i++) model.access(layout.at(i));
    const tr = fineChase(model, m, (i) => layout.at(seq[i % seq.length]), k);
    this.tick(n + k, phase);
    return tr;
  }

  private tick(cost: number, phase: string): void {
    this.done += cost;
    this.progress(Math.min(this.done, this.total), this.total, phase);
  }
}

function curve(name: string, x: number[] | Float64Array, y: ArrayLike<number>, xLabel: string, xUnit: string, yLabel = 'Average latency', yUnit = 'cycles', logX = false): Series {
  return { name, x: Float64Array.from(x), y: Float64Array.from(y), xLabel, xUnit, yLabel, yUnit, style: 'line', ...(logX ? { logX } : {}) };
}

function classTable(name: string, classes: readonly LatencyClass[]): Table {
  return {
    name,
    columns: [
      { key: 'class', label: 'Class' },
      { key: 'mean', label: 'Mean latency', unit: 'cycles' },
      { key: 'range', label: 'Range', unit: 'cycles' },
      { key: 'count', label: 'Accesses' },
    ],
    rows: classes.map((c, i) => ({ class: i + 1, mean: Math.round(c.mean * 10) / 10, range: `${c.min.toFixed(1)}..${c.max.toFixed(1)}`, count: c.count })),
  };
}

const STREAM = { reach: 0, policy: 900_000, reuse: 950_000, fixed: 1_000_000, offset: 2_000_000, missed: 3_000_000, window: 4_000_000, pair: 5_000_000, same: 6_000_000, double: 7_000_000, ladder: 8_000_000, coverage: 9_000_000, own: 10_000_000, repeat: 11_000_000 };

/** Anything that places element i of a chase. */
export interface Placement {
  at(i: number): number;
}

/**
 * The block-pair control: elements 2j and 2j + 1 in block j (blocks one stride apart), 64 KB apart
 * inside it, each at the address the main layout gives it modulo 64 KB. The data caches whose set index
 * lies below 64 KB see the same sets and as many lines; a TLB whose entries cover 128 KB or more sees
 * one entry per pair.
 */
export class BlockPairLayout implements Placement {
  constructor(
    readonly base: Placement,
    readonly stride: number,
  ) {}
  at(i: number): number {
    return Math.floor(i / 2) * this.stride + (i % 2) * PAIR_BLOCK + (this.base.at(i) % PAIR_BLOCK);
  }
}

/** The near-pair control: elements 2j and 2j + 1 at offsets 0 and 2 KB of block j: one page per pair for any page of 4 KB or more. */
export class NearPairLayout implements Placement {
  constructor(readonly stride: number) {}
  at(i: number): number {
    return Math.floor(i / 2) * this.stride + (i % 2) * NEAR;
  }
}

/** The own-page control: element i in block i at the near pairs' offset (0 or 2 KB): the same data view, one element per page. */
export class OwnPageLayout implements Placement {
  constructor(readonly stride: number) {}
  at(i: number): number {
    return i * this.stride + (i % 2) * NEAR;
  }
}

const NEAR = 2 * KB;

export const PAIR_BLOCK = 64 * KB;

/** k consecutive elements share each block of `unit` (k x stride = unit), blocks `spacing` apart. */
class LadderLayout implements Placement {
  constructor(
    readonly spacing: number,
    readonly stride: number,
    readonly k: number,
    readonly skew: number,
  ) {}
  at(i: number): number {
    // With several elements per entry the group starts on an entry boundary, so that it stays in one entry.
    const j = Math.floor(i / this.k);
    const unit = this.k * this.stride;
    const start = this.k > 1 ? Math.floor((j * this.spacing) / unit) * unit : j * this.spacing;
    return start + (i % this.k) * this.stride + (this.skew > 0 ? (i * this.skew) % this.stride : 0);
  }
}

/** What the reach probe established about one TLB level. */
interface ReachLevel {
  level: number;
  /** Stride of the sweep the level was read from. */
  stride: number;
  check: RiseCheck;
  reachBytes: number;
  widthBytes: number;
  /** Elements per entry at the probe's stride (1: each element its own entry); null: unknown. */
  perEntry: number | null;
  entries: number | null;
  sets: number | null;
  ways: number | string | null;
  setSizes: number[] | null;
  waySizeBytes: number | null;
  fullyAssociative: boolean | null;
  /** The associativity ladder shows sets for certain (see the reach analysis); always true for the L2 TLB. */
  setsShown?: boolean;
  policy: string;
  policyEvidence: string;
  /** Slowest latency class one element past the reach. */
  slowLatency: number | null;
  /** Spread of an averaged point on the plateaus next to the step, cycles. */
  noise: number;
  /** The plain trace one element past the reach repeats every traversal. */
  periodic: boolean;
  notes: string[];
}

/**
 * Spread of an averaged point next to a step: from the neighbour differences inside the plateaus just
 * before and after it (median absolute difference / 0.6745 / sqrt 2, robust to a slow drift).
 */
function plateauNoise(x: ArrayLike<number>, y: ArrayLike<number>, seg: Segmentation, step: { lastFitX: number; firstFullX: number } | undefined): number {
  const d: number[] = [];
  for (const p of seg.plateaus) {
    if (step && p.toX !== step.lastFitX && p.fromX !== step.firstFullX) continue;
    let prev: number | null = null;
    for (let i = 0; i < x.length; i++) {
      if (x[i] < p.fromX || x[i] > p.toX) continue;
      if (prev !== null) d.push(Math.abs(y[i] - y[prev]));
      prev = i;
    }
  }
  if (d.length < 2) return 0;
  d.sort((a, b) => a - b);
  return d[Math.floor(d.length / 2)] / 0.6745 / Math.SQRT2;
}

function runReach(r: Runner, sizes: number[], label: string, depth = 0): { result: ExperimentResult; levels: ReachLevel[]; stop: string | null } {
  const { stride, skew, traversals } = r.pl;
  const layout = new Layout(stride, skew);
  const elements = sizes.map((N) => traversal(N, stride));
  const y = new Float64Array(sizes.length);
  sizes.forEach((N, i) => {
    y[i] = r.average(STREAM.reach + i, layout, elements[i], `reach: N = ${formatBytes(N)}`);
  });
  const main: ElementCurve = { elements, y };
  // Controls over the counts up to the sixth rise: what moves each rise tells what it comes from.
  const first = risesOf(main).rises.slice(0, 6);
  const top = first.length ? Math.max(...first.map((x) => x.full)) : 0;
  const counts = elements.filter((n) => n <= top + 1);
  const control = (stream: number, place: Placement, phase: string, upTo = top + 1): ElementCurve => {
    const cs = elements.filter((n) => n <= upTo);
    // A sweep one element per point goes on past its last count where the control needs more.
    const unit = elements.length > 1 && elements.every((e, i) => i === 0 || e - elements[i - 1] === 1);
    if (unit) for (let n = elements[elements.length - 1] + 1; n <= upTo; n++) cs.push(n);
    const yc = new Float64Array(cs.length);
    cs.forEach((n, i) => {
      yc[i] = r.average(stream + i, place, n, `${phase}: ${n} elements`);
    });
    return { elements: cs, y: yc };
  };
  // Block pairs need two 64 KB halves per stride.
  const pair = stride % (2 * PAIR_BLOCK) === 0 ? control(STREAM.pair, new BlockPairLayout(layout, stride), 'block-pair control') : null;
  const near = control(STREAM.same, new NearPairLayout(stride), 'near-pair control');
  const own = control(STREAM.own, new OwnPageLayout(stride), 'own-page control');
  // Twice as far: the sets may overflow in another order there, over a wider step.
  const dbl = control(STREAM.double, new Layout(2 * stride, skew), 'double-stride control', 2 * top + 2);
  const { checks, segmentation: seg } = classifyRises(main, pair, near, own, dbl);
  const walk = tlbLevelsOf(checks, seg.tolerance);
  let stop = walk.stop;
  const found = walk.levels.slice();
  // A level is named by its order only where the latency before its rise is flat: from the first
  // point for the first level named (every element hits it), between the two rises for the second.
  // A drift means a level overflowing gradually, too little to show.
  // The noise is that of the points judged: an averaged point at a small count rests on fewer loads per
  // element than one at a large count, so the spread of the other plateaus understates it.
  const flat = (from: number, to: number): boolean => {
    let lo = Infinity;
    let hi = -Infinity;
    const d: number[] = [];
    let prev = -1;
    elements.forEach((e, i) => {
      if (e < from || e > to) return;
      lo = Math.min(lo, y[i]);
      hi = Math.max(hi, y[i]);
      if (prev >= 0) d.push(Math.abs(y[i] - y[prev]));
      prev = i;
    });
    d.sort((a, b) => a - b);
    const local = d.length >= 4 ? d[Math.floor(d.length / 2)] / 0.6745 / Math.SQRT2 : 0;
    return hi - lo <= Math.max(1, 8 * Math.max(local, plateauNoise(elements, y, seg, undefined)));
  };
  // Flat between consecutive rises (a data-cache rise before it is allowed), from the first point on.
  const flatUpTo = (fit: number, from: number): boolean => {
    let start = from;
    for (const c of checks) {
      if (c.fit > fit || c.fit < from) continue;
      if (!flat(start, c.fit)) return false;
      start = c.full;
    }
    return true;
  };
  if (found.length >= 1 && !(elements[0] <= 2 && flatUpTo(found[0].check.fit, elements[0]))) {
    stop = `the latency drifts before the first translation rise at ${found[0].check.fit} elements (or the sweep starts above 2 elements): a TLB level may overflow gradually there, so the rise cannot be named`;
    found.length = 0;
  } else if (found.length === 2 && !flatUpTo(found[1].check.fit, found[0].check.full)) {
    stop = `the latency drifts between the rises at ${found[0].check.fit} and ${found[1].check.fit} elements: the L1 TLB does not miss evenly, so the second rise cannot be named the L2 TLB's`;
    found.length = 1;
  }
  // The first translation rise is the L1 TLB's only where translation changed nowhere before it: the
  // own-page and near-pair controls give the data caches the same lines, so where one element per page
  // costs more than two per page at a count below that rise, a TLB already overflowed there (hidden inside
  // a data-cache rise, whose size would swamp it). The threshold is the noise of that difference itself.
  if (found.length >= 1 && found[0].level === 1) {
    const f1 = found[0].check.fit;
    const diffs: { n: number; d: number }[] = [];
    own.elements.forEach((n, i) => {
      if (n > f1) return;
      const j = near.elements.indexOf(n);
      if (j >= 0) diffs.push({ n, d: own.y[i] - near.y[j] });
    });
    const steps = diffs.slice(1).map((x, i) => Math.abs(x.d - diffs[i].d)).sort((a, b) => a - b);
    const sd = steps.length >= 4 ? steps[Math.floor(steps.length / 2)] / 0.6745 / Math.SQRT2 : 0;
    const thr = Math.max(1.5, 6 * sd);
    // A TLB that overflows at some count costs every larger count as much: the difference shifts up from
    // there on and stays up. The largest such shift over the split points, in units of its standard error,
    // with nearly every later point above zero (a data cache that replaces at random scatters the
    // difference both ways, a translation change lifts it), names a hidden overflow.
    let shift: { n: number; by: number; t: number } | null = null;
    const sdSafe = Math.max(sd, 0.05);
    const mean = (xs: { d: number }[]): number => xs.reduce((a, x) => a + x.d, 0) / xs.length;
    // At least six counts on each side: a data cache that replaces at random can lift a few counts at once.
    for (let k = 6; k + 6 <= diffs.length; k++) {
      const after = diffs.slice(k);
      const by = mean(after) - mean(diffs.slice(0, k));
      const t = by / (sdSafe * Math.sqrt(1 / k + 1 / after.length));
      const up = after.filter((x) => x.d > 0).length / after.length;
      if (by > Math.max(0.5, thr / 6) && t > 5 && up >= 0.8 && (!shift || t > shift.t)) shift = { n: diffs[k].n, by, t };
    }
    if (shift) {
      stop = `from ${shift.n} elements, below the first translation rise at ${f1}, one element per page costs ${shift.by.toFixed(1)} cycles more than two per page with the same data-cache lines (${shift.t.toFixed(1)} standard errors, nearly every count above zero): a TLB overflows before that rise, hidden in another rise, so the rise cannot be named the L1 TLB's`;
      found.length = 0;
    }
  }
  // The second rise is the L2 TLB's first overflow only where the L2 TLB still hits every access once the
  // L1 TLB misses them all: a trace at the first count where every element misses the L1 TLB must show no
  // access near the second rise's miss level (else the L2 TLB already overflows there, hidden in the L1 step).
  if (found.length === 2 && found[0].level === 1) {
    const c1 = found[0].check;
    const c2 = found[1].check;
    const tr = r.trace(STREAM.policy + 10, layout, c1.full, Math.max(3, traversals), 'L2 TLB: hit behind the L1 step');
    const mid = (c2.lo + c2.hi) / 2;
    const T = Math.floor(tr.latency.length / c1.full);
    let slow = 0;
    for (let i = (T - 1) * c1.full; i < T * c1.full; i++) if (tr.latency[i] > mid) slow++;
    if (slow > 0) {
      stop = `${slow} of ${c1.full} accesses reach the L2 TLB's miss level (${c2.hi.toFixed(1)} cycles) already at ${c1.full} elements, where every element first misses the L1 TLB: the L2 TLB overflows inside the L1 step, so the rise at ${c2.fit} elements is not its first overflow`;
      found.length = 1;
    }
  }
  const hiddenL1 = found.length && found[0].level === 2 ? walk.hiddenL1 : null;
  const src = `${label ? label + ': ' : ''}average latency vs N at stride ${formatBytes(stride)}`;
  const passes = Math.max(3, traversals);
  const levels: ReachLevel[] = [];
  let trace: Trace | undefined;
  found.forEach(({ check: c, level }) => {
    const step = seg.steps.find((s) => s.lastFitX === c.fit);
    const n = c.fit + 1;
    const lv: ReachLevel = {
      level,
      stride,
      check: c,
      reachBytes: c.fit * stride,
      widthBytes: (c.full - c.fit) * stride,
      perEntry: null,
      entries: null,
      sets: null,
      ways: null,
      setSizes: null,
      waySizeBytes: null,
      fullyAssociative: null,
      policy: CANNOT_TELL,
      policyEvidence: '',
      slowLatency: null,
      noise: plateauNoise(elements, y, seg, step),
      periodic: false,
      notes: [],
    };
    const tr = r.trace(STREAM.policy + level, layout, n, passes, `policy: L${level} TLB`);
    trace = tr;
    const classes = latencyClasses(tr.latency);
    lv.slowLatency = classes.length >= 2 ? classes[classes.length - 1].mean : null;
    // Elements per entry: the same counts at twice the stride (one each), or half of them (shared).
    if (c.doubleSame) lv.perEntry = 1;
    else {
      // Shared entries (or an inconclusive double-stride control): the spacing of the slow accesses
      // one element past the reach; the associativity ladder below checks the groups it implies.
      // A miss of this level is an access above its hit class (the L1 TLB) or above the middle of its
      // step (the L2 TLB): what a level behind it does to the missing accesses does not matter.
      const k = sharingOf(tr, n, c, level);
      // Shared entries show a step one element wide (the new entry thrashes them all at once, every k-th
      // access slow); elements spread over only some of the sets show a step as wide as the sets they reach.
      // Behind an L1 TLB whose entries several elements share, the L2 TLB sees only the accesses that miss
      // the L1 (every k-th), so the same spacing says nothing of the L2's own entries.
      const l1Each = level === 1 || levels.find((x) => x.level === 1)?.perEntry === 1;
      if (k !== null && k >= 2 && c.fit % k === 0 && c.full - c.fit === 1 && l1Each) lv.perEntry = k;
      else if (k !== null && k >= 2 && !l1Each) lv.notes.push(`one access in ${k} misses, but the L1 TLB in front is not shown to give each element its own entry, so it may filter the accesses`);
    }
    // Fully associative: E entries fit and E + 1 miss at every stride of the ladder.
    if (lv.perEntry !== null) {
      const k = lv.perEntry;
      const unit = k * stride;
      const ladder = associativityLadder(unit, 4 * KB, WORD).slice(0, 14);
      const yFit = ladder.map((t, i) => r.average(STREAM.ladder + level * 100 + i, new LadderLayout(t, stride, k, skew), c.fit, `associativity: L${level} TLB`));
      const yOver = ladder.map((t, i) => r.average(STREAM.ladder + level * 100 + 50 + i, new LadderLayout(t, stride, k, skew), c.fit + 1, `associativity: L${level} TLB`));
      const fa = checkFullyAssociative(ladder, yFit, yOver, c.lo, c.hi);
      // One set under LRU or FIFO: one element past the reach every element misses, so the main sweep's
      // step is one element wide; a wider step means sets overflowing one by one (an index no ladder stride
      // separates, such as entries dealt modulo a count that is no power of two).
      const oneWide = c.full - c.fit === 1;
      lv.fullyAssociative = fa.fullyAssociative && oneWide;
      // For the L1 TLB, E + 1 elements judged against the middle of its step say little: the step's top mixes
      // what the L2 TLB does with the misses (a randomly replacing L2 lowers it). Sets show for certain where
      // E elements do not fit at some stride, or E + 1 stay at the hit level itself.
      const hitBand = c.lo + Math.max(2, 4 * lv.noise + 1);
      lv.setsShown = level === 2 || ladder.some((_, i) => !(yFit[i] < (c.lo + c.hi) / 2) || yOver[i] <= hitBand);
      if (fa.fullyAssociative && !oneWide) lv.notes.push(`every ladder stride behaves as one set, but the step is ${c.full - c.fit} elements wide (${c.fit} fit, all miss from ${c.full}): sets overflow one by one, so not one set`);
      if (lv.fullyAssociative) {
        const e = c.fit / k;
        lv.entries = e;
        lv.sets = 1;
        lv.ways = e;
        lv.setSizes = [e];
      } else lv.notes.push(`not one set: at stride(s) ${fa.exceptions.map(formatBytes).join(', ')} ${c.fit} elements do not fit or ${c.fit + 1} do`);
    }
    // Set sizes from the miss fraction of each point of the step (an LRU or FIFO thrash pattern).
    // The L2 TLB's re-use test needs the re-used element out of the L1 TLB: known only for a fully associative L1.
    const l1 = levels.find((x) => x.level === 1);
    const l1Deterministic = level === 1 || (l1 !== undefined && (l1.policy === 'LRU' || l1.policyEvidence.endsWith('(FIFO)')));
    const pol =
      level === 2 && !(l1 && l1.fullyAssociative)
        ? policyOf(r, lv, layout, tr, n, -1, l1Deterministic)
        : policyOf(r, lv, layout, tr, n, level === 2 ? found[0].check.fit : 0, l1Deterministic);
    lv.policy = pol.policy;
    lv.policyEvidence = pol.evidence;
    lv.periodic = pol.periodic;
    // "Not one set" rests on one element past the reach missing everywhere, which only LRU and FIFO promise
    // (random or hot-way replacement keeps some of E + 1 elements in one full set, and widens the step), and,
    // for the L2 TLB, on every access reaching it (an L1 TLB in front that is not one periodic set keeps some).
    if (lv.fullyAssociative === false) {
      const deterministic = lv.policy === 'LRU' || lv.policyEvidence.endsWith('(FIFO)');
      const reached = level === 1 || (l1 !== undefined && l1.fullyAssociative === true && l1.periodic);
      if (!deterministic || !reached || !lv.setsShown) {
        lv.fullyAssociative = null;
        lv.notes.unshift(
          !deterministic
            ? 'whether the entries form one set needs LRU or FIFO replacement, which this level is not shown to have: under other policies one element past the reach need not miss'
            : !reached
              ? 'whether the entries form one set needs every access to reach this level, and the L1 TLB in front is not shown to be one periodic set'
              : `at no stride of the ladder do ${c.fit} elements miss or ${c.fit + 1} stay at the hit level: one element past the reach lifts the average less than half the step at some strides, which the L2 TLB behind can cause as well as sets`,
        );
      }
    }
    // For the L2 TLB every access must reach it: behind a fully associative L1 TLB with a periodic
    // (LRU or FIFO) miss pattern, which every element misses once the L2's step begins.
    const l2Clean = level === 1 || (l1 !== undefined && l1.fullyAssociative === true && l1.periodic && c.fit > l1.check.fit);
    // Where the L1 TLB overflowed inside a data-cache rise before, it thrashes throughout the L2's step:
    // equal sets overflowing one by one still give the ways, not the count of sets.
    const waysOnly = !l2Clean && level === 2 && l1 === undefined && hiddenL1 !== null;
    if (!lv.fullyAssociative && step && pol.periodic && (l2Clean || waysOnly)) {
      const span = c.hi - c.lo;
      let noise = plateauNoise(elements, y, seg, step);
      let err = Math.max(...step.xs.map((e) => (e * noise) / span));
      let st = step;
      // Too noisy to count misses per point: measure the points of the step again with more passes.
      if (err >= 0.1 && err < 1.5) {
        const scale = Math.min(64, Math.ceil((err / 0.08) ** 2));
        const ys = step.xs.map((e, i) => (i === 0 || i === step.xs.length - 1 ? step.ys[i] : r.average(STREAM.repeat + level * 1000 + i, layout, e, `set sizes: L${level} TLB`, scale)));
        st = { ...step, ys };
        noise /= Math.sqrt(scale);
        err /= Math.sqrt(scale);
      }
      // The levels right next to the step (a later rise may lift the far end of the plateau after it).
      const near = (from: number, to: number): number => {
        const v = elements.map((e, i) => (e >= from && e <= to ? y[i] : NaN)).filter((x) => x === x);
        return v.reduce((a, b) => a + b, 0) / Math.max(1, v.length);
      };
      st = { ...st, lo: near(c.fit - 2, c.fit), hi: near(c.full, c.full + 2) };
      const m = missesInStep(st, 1);
      const inf = setSizesFromMisses(m.elements, m.misses);
      // The reading takes the plateau after the step as every element missing; that must be shown: its
      // level must be the slowest class of the trace one element past the reach (a miss of this level), not
      // a level where only some sets overflow and each further element moves the average too little to see.
      const allMiss = lv.slowLatency !== null && Math.abs(st.hi - lv.slowLatency) <= Math.max(1, 4 * noise, 0.03 * (st.hi - st.lo));
      if (inf && inf.complete && inf.consistent && err < 0.15 && inf.setSizes.length && !allMiss)
        lv.notes.push(`the plateau after the step (${st.hi.toFixed(1)} cycles) is not the miss latency of single accesses (${lv.slowLatency === null ? '-' : lv.slowLatency.toFixed(1)}): not every element misses there, so set sizes are not read`);
      else if (inf && inf.complete && inf.consistent && err < 0.15 && inf.setSizes.length) {
        const equal = inf.setSizes.every((v) => v === inf.setSizes[0]);
        // The same sets must overflow at twice the stride too (in another order where the index deals
        // the entries differently): a pattern that changes with the stride is no set structure.
        const again = (): boolean => {
          const xs: number[] = [];
          const ys: number[] = [];
          // From the last count that fits to the first at which every element misses (the sets may
          // overflow in another order, so the step may be wider).
          for (let i = 0; i < dbl.elements.length; i++) {
            const e = dbl.elements[i];
            if (e < c.fit) continue;
            xs.push(e);
            ys.push(dbl.y[i]);
            if (e > c.fit && dbl.y[i] >= st.hi - Math.max(0.5, 0.02 * (st.hi - st.lo))) break;
          }
          if (xs.length < 2 || xs[xs.length - 1] - xs[0] !== xs.length - 1) return false;
          const md = missesInStep({ ...st, xs, ys }, 1);
          const id = setSizesFromMisses(md.elements, md.misses);
          const key = (v: number[]): string => [...v].sort((a, b) => a - b).join(',');
          return !!id && id.complete && id.consistent && key(id.setSizes) === key(inf.setSizes);
        };
        if (waysOnly && !equal) lv.notes.push('the L1 TLB in front is not measured: unequal set sizes are not read');
        else if (lv.perEntry === 1 && inf.setSizes.length >= 2 && !waysOnly && !again()) lv.notes.push(`the set sizes ${inf.setSizes.join(',')} do not overflow again at twice the stride: not read as the set structure`);
        else if (lv.perEntry === 1 && inf.setSizes.length >= 2 && !waysOnly) {
          lv.setSizes = inf.setSizes;
          lv.sets = inf.setSizes.length;
          lv.entries = inf.setSizes.reduce((a, b) => a + b, 0);
          lv.ways = equal ? inf.setSizes[0] : inf.setSizes.join(',');
        } else if (equal && inf.setSizes.length >= 2) {
          lv.ways = inf.setSizes[0];
          lv.setSizes = inf.setSizes;
          lv.notes.push(`${inf.setSizes.length} set(s) of ${inf.setSizes[0]} reached at this stride; the sets not reached are not counted`);
        }
        if (equal && inf.setSizes.length > 1) lv.waySizeBytes = lv.widthBytes;
      } else if (inf && err >= 0.15) lv.notes.push(`the miss count per point is uncertain by ${err.toFixed(2)} misses (noise ${noise.toFixed(2)} cycles): set sizes not read`);
    }
    levels.push(lv);
  });
  // A level whose entries stay unknown (several elements may share an entry at this stride, or an L1 TLB
  // shared that way filters the accesses behind it): the sweep runs again at twice the stride, with all its
  // controls. Its reading of the level is taken where it finds the same level overflowing at the same
  // array size in bytes (the same entries reached), and reads the entries there.
  if (depth === 0 && levels.some((l) => l.entries === null)) {
    const r2 = new Runner(r.preset, r.p, { ...r.pl, stride: 2 * stride }, r.seed + 1, r.progress, r.total);
    const sizes2 = sizes.filter((N) => N >= 2 * stride && N % (2 * stride) === 0);
    if (sizes2.length >= 8) {
      const again = runReach(r2, sizes2, `${label ? label + ', ' : ''}twice the stride`, 1);
      // Both sweeps must name every level they share at the same size.
      const agree = levels.every((l) => {
        const m = again.levels.find((x) => x.level === l.level);
        return !m || m.reachBytes === l.reachBytes;
      });
      if (agree)
        levels.forEach((l, i) => {
          const m = again.levels.find((x) => x.level === l.level);
          if (l.entries !== null || !m || m.entries === null) return;
          m.notes.unshift(`entries not read at ${formatBytes(stride)}; at ${formatBytes(2 * stride)} the same level overflows at the same ${formatBytes(l.reachBytes)} and its entries are read there`);
          levels[i] = m;
        });
    }
  }
  const findings = reachFindings(levels, stop ?? hiddenL1, src, stride, sizes[sizes.length - 1] ?? 0);
  const tables: Table[] = [
    {
      name: 'Latency plateaus',
      columns: [
        { key: 'from', label: 'From N', unit: 'B' },
        { key: 'to', label: 'To N', unit: 'B' },
        { key: 'latency', label: 'Latency', unit: 'cycles' },
      ],
      rows: seg.plateaus.map((pl) => ({ from: formatBytes(pl.fromX * stride), to: formatBytes(pl.toX * stride), latency: Math.round(pl.latency * 10) / 10 })),
    },
    {
      name: 'Rises and their controls',
      columns: [
        { key: 'fit', label: 'Last N that fits', unit: 'B' },
        { key: 'rise', label: 'Rise', unit: 'cycles' },
        { key: 'pair', label: 'Block-pair control rise', unit: 'cycles' },
        { key: 'near', label: 'Near-pair control rise', unit: 'cycles' },
        { key: 'own', label: 'Own-page control rise', unit: 'cycles' },
        { key: 'double', label: 'At twice the stride' },
        { key: 'verdict', label: 'From' },
        { key: 'why', label: 'Why' },
      ],
      rows: checks.map((c) => ({
        fit: formatBytes(c.fit * stride),
        rise: Math.round((c.hi - c.lo) * 10) / 10,
        pair: c.pairRise === null ? '-' : Math.round(c.pairRise * 10) / 10,
        near: c.nearPairRise === null ? '-' : Math.round(c.nearPairRise * 10) / 10,
        own: c.ownPageRise === null ? '-' : Math.round(c.ownPageRise * 10) / 10,
        double: c.doubleSame ? 'same count' : c.doubleHalf ? 'half the count' : '-',
        verdict: c.verdict === 'tlb' ? 'translation' : c.verdict === 'data' ? 'data cache' : c.verdict === 'window' ? 'fading (not a level)' : 'undecided',
        why: c.reason,
      })),
    },
    {
      name: 'TLB steps',
      columns: [
        { key: 'level', label: 'Level' },
        { key: 'reach', label: 'Reach (last N that fits)', unit: 'B' },
        { key: 'full', label: 'All missing from', unit: 'B' },
        { key: 'entries', label: 'Entries' },
        { key: 'sets', label: 'Set sizes' },
      ],
      rows: levels.map((l) => ({
        level: `L${l.level} TLB`,
        reach: formatBytes(l.reachBytes),
        full: formatBytes(l.reachBytes + l.widthBytes),
        entries: l.entries ?? '?',
        sets: l.setSizes ? l.setSizes.join(',') : '?',
      })),
    },
  ];
  const notes: string[] = [];
  if (stop) notes.push(`The walk over the rises stopped: ${stop}.`);
  else if (levels.length < 2)
    notes.push(
      levels.length === 0
        ? 'No translation step found in this range. On Fermi/Kepler texture the virtually indexed 96-way texture L1 serves every load at these strides and hides the TLBs (MEI studies the texture L1 only).'
        : 'Only one translation step found in this range; extend sizeTo to see the second level.',
    );
  for (const l of levels) for (const t of l.notes) notes.push(`L${l.level} TLB: ${t}.`);
  notes.push(
    `Each rise is checked against controls: pairs of elements 64 KB apart in one 128 KB block at the same addresses modulo 64 KB (a TLB step with entries of 128 KB or more moves, a data-cache step whose set index lies below 64 KB stays); elements at in-page offsets 0 and 2 KB, two per page or one per page (the same lines for the data caches: a step in both is a data cache's, in the second only a translation step); and twice the stride (a TLB step whose elements each have their own entry stays at the same count).`,
  );
  if (r.pl.skew > 0)
    notes.push(
      `Element i sits at i*${formatBytes(stride)} + (i*${r.pl.skew} mod stride): each element falls in its own data-cache set, so that the data caches keep hitting where they can (MEI Table 3 patterns 1-3); the block-pair control checks it.`,
    );
  return {
    result: { series: [curve(`s = ${formatBytes(stride)}`, sizes, y, 'Array size N', 'B'), curve('near-pair control', counts.map((c) => c * stride), near.y, 'Array size N', 'B'), ...(pair ? [curve('block-pair control', counts.map((c) => c * stride), pair.y, 'Array size N', 'B')] : [])], tables, findings, notes, ...(trace ? { trace } : {}) },
    levels,
    stop,
  };
}

/**
 * Elements per entry one element past a level's reach: the spacing of the accesses that miss the level
 * in the last traversal, when it is regular and they number one per entry plus the new one.
 */
function sharingOf(tr: Trace, n: number, c: RiseCheck, level: number): number | null {
  const classes = latencyClasses(tr.latency, 0.5);
  if (!classes.length) return null;
  const mid = (c.lo + c.hi) / 2;
  let hit = 0;
  for (let i = 1; i < classes.length; i++) if (Math.abs(classes[i].mean - c.lo) < Math.abs(classes[hit].mean - c.lo)) hit = i;
  const hitNear = Math.abs(classes[hit].mean - c.lo) <= (c.hi - c.lo) / 4;
  if (level === 1 && (!hitNear || classes[hit].max >= mid)) return null;
  if (level === 2 && classes.some((k) => k.min < mid && k.max > mid)) return null;
  const limit = level === 1 ? classes[hit].max : mid;
  const start = (Math.floor(tr.latency.length / n) - 1) * n;
  if (start < 0) return null;
  const slow: number[] = [];
  for (let i = 0; i < n; i++) if (tr.latency[start + i] > limit) slow.push(i);
  if (slow.length < 2) return null;
  const gap = slow[1] - slow[0];
  if (!slow.every((p, i) => i === 0 || p - slow[i - 1] === gap)) return null;
  return slow.length === Math.floor((n - 1) / gap) + 1 ? gap : null;
}

/**
 * Replacement of one level: the plain chase one element past the reach (periodic or not, MEI 3.2 (4)),
 * then a chase that re-uses one thrashing element (LRU keeps it, FIFO does not).
 */
function policyOf(r: Runner, lv: ReachLevel, layout: Placement, tr: Trace, n: number, l1Fit: number, l1Deterministic = true): { policy: string; evidence: string; periodic: boolean } {
  const c = lv.check;
  const mid = (c.lo + c.hi) / 2;
  // Classes of single accesses: without jitter two cycles apart are two classes.
  const classes = latencyClasses(tr.latency, 0.5);
  const at = `N = ${formatBytes(n * r.pl.stride)} (one element past the reach)`;
  // L1 TLB: a miss is any access slower than the hit class (the L2 TLB behind it may hit or miss).
  // L2 TLB: a miss is an access above the middle of its step.
  let hit = 0;
  for (let i = 1; i < classes.length; i++) if (Math.abs(classes[i].mean - c.lo) < Math.abs(classes[hit].mean - c.lo)) hit = i;
  // Near the hit latency: within the plateau's noise or the class's own spread of it, and never a quarter
  // of the step away. The top of the L1 TLB's step mixes L2 TLB hits and misses where the L2 TLB replaces
  // at random, so a quarter of that step can reach the L2 TLB's hit class, which is a miss of the L1 TLB.
  const spread = classes.length ? (classes[hit].max - classes[hit].min) / 2 : 0;
  const tol = Math.min((c.hi - c.lo) / 4, Math.max(2, 4 * (Number.isFinite(lv.noise) ? lv.noise : 0) + 1, spread));
  const hitNear = classes.length > 0 && Math.abs(classes[hit].mean - c.lo) <= tol;
  // Two classes are told apart only when the gap between them is at least as wide as either class.
  const apart = (a: LatencyClass | undefined, b: LatencyClass | undefined): boolean => !a || !b || b.min - a.max >= Math.max(a.max - a.min, b.max - b.min, 0.5);
  const below = [...classes].reverse().find((k) => k.mean < mid);
  const above = classes.find((k) => k.mean > mid);
  const separated = lv.level === 1 ? (hitNear ? classes[hit].max < mid && apart(classes[hit], classes[hit + 1]) : classes.length > 0 && classes[0].min > c.lo + tol) : !classes.some((k) => k.min < mid && k.max > mid) && apart(below, above);
  if (!separated || classes.length === 0)
    return {
      policy: CANNOT_TELL,
      evidence: `single accesses at ${at} cannot be classified: the latency classes (${classes.map((k) => `${k.min.toFixed(0)}..${k.max.toFixed(0)}`).join(', ')}) are not separated by more than their own spread around the middle of the step (${c.lo.toFixed(1)} to ${c.hi.toFixed(1)} cycles); to decide: a run with less jitter or more traversals`,
      periodic: false,
    };
  const T = Math.floor(tr.latency.length / n);
  const noReuse = l1Fit < 0;
  // With no access near the hit latency every access misses (a fully associative level thrashing).
  const hitMax = hitNear ? classes[hit].max : c.lo + tol;
  const slow = lv.level === 1 ? (v: number): boolean => v > hitMax : (v: number): boolean => v > mid;
  let mismatches = 0;
  for (let t = 1; t < T; t++) for (let i = 0; i < n; i++) if (slow(tr.latency[t * n + i]) !== slow(tr.latency[(t - 1) * n + i])) mismatches++;
  if (mismatches > 0 && !l1Deterministic)
    return { policy: CANNOT_TELL, evidence: `fine-grained trace at ${at}: ${mismatches} accesses change between traversals, but the L1 TLB in front is not shown to be LRU or FIFO, so it may cause them; to decide: the L1 TLB's policy first`, periodic: false };
  if (mismatches > 0) return { policy: 'not LRU', evidence: `fine-grained trace at ${at}, ${T} traversals: ${mismatches} accesses change between hit and miss from one traversal to the next (aperiodic: not LRU)`, periodic: false };
  const thrash: number[] = [];
  for (let i = 0; i < n; i++) if (slow(tr.latency[(T - 1) * n + i])) thrash.push(i);
  if (thrash.length < 2) return { policy: CANNOT_TELL, evidence: `periodic trace at ${at} but fewer than two thrashing elements; to decide: a wider sweep`, periodic: true };
  if (noReuse)
    return { policy: CANNOT_TELL, evidence: `periodic trace at ${at} (LRU or FIFO); the re-use test needs the L1 TLB shown fully associative, so that the re-used element leaves it; to decide: the L1 TLB's structure first`, periodic: true };
  const h = thrash[thrash.length - 1];
  const warm = Array.from({ length: n }, (_, i) => i);
  // Where to re-use h: a point where LRU and FIFO predict different misses and, for the L2 TLB, far
  // enough from h's own access that the fully associative L1 TLB has dropped it (more than its reach).
  const build = (after: number): number[] => {
    const seq: number[] = [];
    for (let i = 0; i < n; i++) {
      seq.push(i);
      if (i === after) seq.push(h);
    }
    return seq;
  };
  const inSet = new Set(thrash);
  let seq: number[] | null = null;
  let after = -1;
  for (let d = 0; d < n && !seq; d++) {
    for (const q of [(h + Math.floor(n / 2) + d) % n, (h + Math.floor(n / 2) - d + n) % n]) {
      if (q === h || seq) continue;
      const cand = build(q);
      const p1 = cand.indexOf(h);
      const p2 = cand.lastIndexOf(h);
      const gap = Math.min(p2 - p1 - 1, cand.length - (p2 - p1) - 1);
      if (l1Fit > 0 && gap < l1Fit + 1) continue;
      const sub = cand.filter((e) => inSet.has(e));
      const sub3 = [...sub, ...sub, ...sub];
      const lru = simulateSet(sub3, warm.filter((e) => inSet.has(e)), thrash.length - 1, 'lru');
      const fifo = simulateSet(sub3, warm.filter((e) => inSet.has(e)), thrash.length - 1, 'fifo');
      if (lru.some((v, i) => v !== fifo[i])) {
        seq = cand;
        after = q;
      }
    }
  }
  if (!seq)
    return {
      policy: CANNOT_TELL,
      evidence: `periodic at ${at} (LRU or FIFO); no re-use point tells them apart${l1Fit > 0 ? ` while keeping the re-used element out of the L1 TLB (${l1Fit} fit it)` : ''}; to decide: a level with more entries`,
      periodic: true,
    };
  const passes = Math.max(3, r.pl.traversals);
  const rt = r.traceSeq(STREAM.reuse + lv.level, layout, n, seq, passes, `policy: L${lv.level} TLB re-use`);
  const full: number[] = [];
  const flags: boolean[] = [];
  for (let i = 0; i < rt.latency.length; i++) {
    full.push(seq[i % seq.length]);
    flags.push(slow(rt.latency[i]));
  }
  // For the L2 TLB the re-used element must reach it: an access faster than any of the plain chase hit
  // the L1 TLB in front (it kept the element), and the comparison says nothing about the L2.
  let fastest = Infinity;
  for (let i = 0; i < rt.latency.length; i++) fastest = Math.min(fastest, rt.latency[i]);
  if (lv.level === 2 && classes.length && fastest < classes[0].min - Math.max(0.5, classes[0].max - classes[0].min))
    return { policy: CANNOT_TELL, evidence: `periodic at ${at} (LRU or FIFO); in the re-use chase an access is faster than any of the plain chase: a level in front kept the re-used element; to decide: a level with more entries`, periodic: true };
  const ru = analyseReuse(full, flags, thrash, warm);
  const base = `periodic plain trace at ${at} (${thrash.length} elements thrash); re-using element ${h} after element ${after}: ${ru.reason}`;
  if (ru.policy === 'LRU') return { policy: 'LRU', evidence: base, periodic: true };
  if (ru.policy === 'FIFO') return { policy: 'not LRU', evidence: `${base} (FIFO)`, periodic: true };
  return { policy: CANNOT_TELL, evidence: `${base}; to decide: the L1 TLB's policy first, or a level with more entries`, periodic: true };
}

function reachFindings(levels: ReachLevel[], stop: string | null, src: string, stride: number, lastN: number): Finding[] {
  const findings: Finding[] = [];
  const missing = (lvl: number): string =>
    stop ? `${stop}` : lvl === 1 ? `no translation step in the sweep up to N = ${formatBytes(lastN)}` : `no second translation step up to N = ${formatBytes(lastN)} (or the L2 TLB holds no more than the L1, so both overflow at once)`;
  for (const lvl of [1, 2]) {
    const k = `tlb.l${lvl}`;
    const name = `L${lvl} TLB`;
    const l = levels.find((x) => x.level === lvl);
    if (!l) {
      findings.push(cannotTell(`${k}.entries`, `${name} entries`, missing(lvl), lvl === 1 ? 'a sweep from a smaller N or at another stride' : stop ? 'a sweep at a smaller stride' : 'a wider sweep (raise "sizeTo"), or a smaller stride'));
      continue;
    }
    const c = l.check;
    findings.push({
      key: `${k}.reachBytes`,
      label: `${name} reach`,
      value: l.reachBytes,
      unit: 'B',
      evidence: `${src}: latency flat up to N = ${formatBytes(l.reachBytes)} (${c.lo.toFixed(1)} cycles), rising after it; ${c.reason}`,
    });
    const per = l.perEntry === null ? 'elements per entry unknown' : l.perEntry === 1 ? 'each element has its own entry (the same count overflows at twice the stride)' : `${l.perEntry} elements share one entry`;
    if (l.entries !== null)
      findings.push({
        key: `${k}.entries`,
        label: `${name} entries`,
        value: l.entries,
        unit: '',
        evidence: l.fullyAssociative
          ? `${c.fit} elements fit, one more misses, at every stride of the ladder (powers of two and 1 + 2^-m multiples): one set; ${per}`
          : `sum of the set sizes ${l.setSizes?.join(',')}; ${per}, and the sets overflow one by one, the last with every element missing`,
      });
    else
      findings.push(
        cannotTell(
          `${k}.entries`,
          `${name} entries`,
          `${c.fit} elements fit at this stride, but ${l.perEntry === null ? per : 'the elements may reach only some of the sets'}${l.notes.length ? ` (${l.notes.join('; ')})` : ''}`,
          'a sweep at a smaller stride, or fixed-count at the strides listed',
        ),
      );
    if (l.sets !== null) findings.push({ key: `${k}.sets`, label: `${name} sets`, value: l.sets, unit: '', evidence: l.fullyAssociative ? 'fully associative: no stride spreads the elements over sets' : `${l.sets} jumps in the miss count, each a set overflowing` });
    else findings.push(cannotTell(`${k}.sets`, `${name} sets`, 'the elements at this stride may reach only some of the sets', 'a sweep at a smaller stride'));
    if (l.setSizes && l.sets !== null)
      findings.push({ key: `${k}.setSizes`, label: `${name} set sizes`, value: l.setSizes.join(','), unit: '', evidence: 'misses per traversal at each point of the step: a set of w entries overflowing misses w + 1 elements at once' });
    else if (l.setSizes)
      findings.push({
        key: `${k}.setSizes`,
        label: `${name} set sizes (the sets this stride reaches)`,
        value: l.setSizes.join(','),
        unit: '',
        evidence: `misses per traversal at each point of the step: ${l.setSizes.length} sets reached at this stride overflow one by one; the sets it does not reach are not counted`,
      });
    // Unequal sets have no single way count: their sizes are the set-size finding above.
    if (typeof l.ways === 'number')
      findings.push({
        key: `${k}.ways`,
        label: `${name} ways`,
        value: l.ways,
        unit: '',
        evidence: l.fullyAssociative ? `a single set of all ${l.entries} entries` : `every set reached at this stride overflows at ${String(l.ways)} entries (set sizes from the miss count of each point of the step)`,
      });
    else if (l.ways === null) findings.push(cannotTell(`${k}.ways`, `${name} ways`, 'the step does not show whole sets overflowing one by one (not LRU or FIFO, noise, or several elements per entry)', 'a run without jitter, or at a stride where each element has its own entry'));
    if (l.waySizeBytes !== null)
      findings.push({ key: `${k}.waySizeBytes`, label: `${name} way size`, value: l.waySizeBytes, unit: 'B', evidence: `width of the step: equal sets overflowing one per stride (WONG III-B)` });
    if (l.perEntry !== null && l.perEntry > 1)
      findings.push({ key: `${k}.entryBytes`, label: `${name} entry coverage`, value: l.perEntry * stride, unit: 'B', evidence: `${l.perEntry} elements of ${formatBytes(stride)} per entry: one element past the reach only every ${l.perEntry}-th access is slow` });
    findings.push(l.policy === CANNOT_TELL ? cannotTell(`${k}.policy`, `${name} replacement`, l.policyEvidence.split('; to decide: ')[0], l.policyEvidence.split('; to decide: ')[1] ?? 'a run with less jitter') : { key: `${k}.policy`, label: `${name} replacement`, value: l.policy, unit: '', evidence: l.policyEvidence });
    if (l.fullyAssociative !== null) findings.push({ key: `${k}.fullyAssociative`, label: `${name} fully associative`, value: l.fullyAssociative ? 'yes' : 'no', unit: '', evidence: l.fullyAssociative ? 'one more element than the reach misses at every stride of the ladder' : l.notes[0] ?? '' });
    else if (l.perEntry !== null) findings.push(cannotTell(`${k}.fullyAssociative`, `${name} fully associative`, l.notes[0] ?? 'the associativity ladder was not decisive', ''));
  }
  const lat = (key: string, lab: string, v: number, ev: string): void => {
    findings.push({ key, label: lab, value: Math.round(v * 10) / 10, unit: 'cycles', evidence: ev });
  };
  const l1 = levels.find((x) => x.level === 1);
  const l2 = levels.find((x) => x.level === 2);
  if (l1) {
    lat('tlb.latency.l1Hit', 'Latency, L1 TLB hit', l1.check.lo, `${src}: plateau before the L1 TLB step`);
    lat('tlb.latency.l2Hit', 'Latency, L1 TLB miss / L2 TLB hit', l1.slowLatency ?? l1.check.hi, l1.slowLatency !== null ? 'slowest latency class of the fine-grained trace one element past the L1 TLB reach' : `${src}: plateau after the L1 TLB step`);
  }
  if (l2) lat('tlb.latency.l2Miss', 'Latency, L2 TLB miss', l2.slowLatency ?? l2.check.hi, l2.slowLatency !== null ? 'slowest latency class of the fine-grained trace one element past the L2 TLB reach' : `${src}: plateau after the L2 TLB step`);
  return findings;
}

/**
 * Entry coverage of each TLB level whose entry count the reach sweep found: E + 1 elements stop fitting
 * at the stride where each needs its own entry (the page-size probe's pass 2).
 */
function coveragesOf(r: Runner, levels: readonly ReachLevel[]): { coverage: (number | null)[]; findings: Finding[]; notes: string[]; series: Series[] } {
  const findings: Finding[] = [];
  const notes: string[] = [];
  const series: Series[] = [];
  const coverage: (number | null)[] = [null, null];
  for (const l of levels) {
    if (l.entries === null) {
      notes.push(`L${l.level} TLB: entry count unknown, so its entry coverage is not measured.`);
      continue;
    }
    const cv = runCoverage(r, l);
    series.push(...cv.series);
    // The L2 TLB sees only the accesses that miss the L1 TLB: below the L1's coverage, elements share
    // L1 entries and it filters them, so an L2 coverage at or below the L1's is not read from this sweep
    // alone. Above it (every element its own L1 entry, more elements than the fully associative L1
    // holds) the sweep reads the L2 directly; equal to it, the shifted-repeat test must show the L2
    // entries covering more than half of it.
    let value = cv.coverage;
    let evidence = cv.evidence;
    const l1 = levels.find((x) => x.level === 1);
    if (l.level === 2 && value !== null) {
      const c1 = coverage[0];
      if (c1 === null || !l1 || !l1.fullyAssociative || !l1.periodic) {
        evidence = `${cv.evidence}, but the L1 TLB in front is not measured (coverage and one set), so it may filter the accesses`;
        value = null;
      } else if (value < c1) {
        evidence = `${cv.evidence}, but below the L1 TLB's ${formatBytes(c1)} entries the L1 filters the accesses`;
        value = null;
      } else if (value === c1) {
        const t = l2CoversMoreThan(r, l1, l, c1 / 2);
        evidence = `${cv.evidence}; ${t.evidence}`;
        if (!t.yes) value = null;
      }
    }
    coverage[l.level - 1] = value;
    if (value !== null) findings.push({ key: `tlb.l${l.level}.entryBytes`, label: `L${l.level} TLB entry coverage`, value, unit: 'B', evidence });
    else notes.push(`L${l.level} TLB: ${evidence}.`);
  }
  return { coverage, findings, notes, series };
}

/**
 * Entry coverage of a level with E known entries: E and E + 1 elements at strides of powers of two from
 * 4 KB. Below the coverage, consecutive elements share entries and E + 1 fit; from it on each needs its
 * own entry and E + 1 overflow (E always fits). Judged against the middle of the level's step.
 */
function runCoverage(r: Runner, l: ReachLevel): { coverage: number | null; evidence: string; series: Series[] } {
  const e = l.entries as number;
  const top = Math.max(2 * l.stride, 2 * (l.perEntry ?? 1) * l.stride);
  const strides: number[] = [];
  for (let t = 4 * KB; t <= top; t *= 2) strides.push(t);
  const yFit = strides.map((t, i) => r.average(STREAM.coverage + l.level * 100 + i, new Layout(t, r.pl.skew), e, `coverage: L${l.level} TLB`));
  const yOver = strides.map((t, i) => r.average(STREAM.coverage + l.level * 100 + 50 + i, new Layout(t, r.pl.skew), e + 1, `coverage: L${l.level} TLB`));
  // Any miss of the level lifts the average above its hit level (a set overflowing adds only its own
  // elements' misses); the threshold stands clear of the noise of an averaged point.
  const mid = l.check.lo + Math.max(1.5, 6 * l.noise);
  const series = [curve(`L${l.level}: ${e} elements`, strides, yFit, 'Stride', 'B', 'Average latency', 'cycles', true), curve(`L${l.level}: ${e + 1} elements`, strides, yOver, 'Stride', 'B', 'Average latency', 'cycles', true)];
  if (yFit.some((v) => !(v < mid))) return { coverage: null, evidence: `${e} elements do not fit at every stride from 4 KB (the data caches or another level interfere)`, series };
  const first = yOver.findIndex((v) => v > mid);
  if (first < 0) return { coverage: null, evidence: `${e + 1} elements fit at every stride up to ${formatBytes(top)}`, series };
  if (yOver.slice(first).some((v) => !(v > mid))) return { coverage: null, evidence: `${e + 1} elements miss from ${formatBytes(strides[first])} but fit again at a larger stride`, series };
  if (first === 0) return { coverage: null, evidence: `${e + 1} elements miss already at 4 KB: entries of 4 KB or less`, series };
  return {
    coverage: strides[first],
    evidence: `${e} elements fit at every stride from 4 KB to ${formatBytes(top)}; ${e + 1} fit below ${formatBytes(strides[first])} (elements share entries) and miss from it on (each needs its own entry)`,
    series,
  };
}

/** The first g elements of `base`, then the same g again shifted by d: twice as many accesses, over the same TLB entries when d stays inside them. */
class ShiftedRepeatLayout implements Placement {
  constructor(
    readonly base: Placement,
    readonly g: number,
    readonly d: number,
  ) {}
  at(i: number): number {
    return i < this.g ? this.base.at(i) : this.base.at(i - this.g) + this.d;
  }
}

/**
 * Whether the L2 TLB's entries cover more than d: g elements of the main chase, then the same g shifted
 * by d (inside each element's L1 TLB entry). With g above the L1 TLB's reach and that TLB fully
 * associative with a periodic (LRU or FIFO) miss pattern, every access misses it and reaches the L2. If
 * the shifted elements share the first ones' L2 entries, g entries hold all 2g and nothing misses; if not,
 * 2g > E2 distinct entries overflow some set, whose ways + 1 (at least the smallest set's) elements miss
 * every traversal. A data cache can only add latency, so only the absence of any rise is read (as "the
 * entries cover more than d"); a rise decides nothing.
 */
function l2CoversMoreThan(r: Runner, l1: ReachLevel, l2: ReachLevel, d: number): { yes: boolean; evidence: string } {
  const no = (why: string): { yes: boolean; evidence: string } => ({ yes: false, evidence: why });
  const e2 = l2.entries;
  if (!l1.fullyAssociative || !l1.periodic || e2 === null || !l2.setSizes || !l2.periodic || l2.perEntry !== 1 || l1.perEntry !== 1) return no('the shifted-repeat test needs a fully associative, periodic L1 TLB and an L2 TLB of known sets, one element per entry');
  const g = Math.floor(e2 / 2) + 1;
  if (!(g > l1.check.fit && g <= l2.check.fit)) return no(`the shifted-repeat test needs ${g} elements to overflow the L1 TLB and fit the L2`);
  if (l1.stride !== l2.stride) return no('the two levels were read at different strides');
  const base = new Layout(l2.stride, r.pl.skew);
  for (let i = 0; i < g; i++) if (Math.floor((base.at(i) + d) / (2 * d)) !== Math.floor(base.at(i) / (2 * d))) return no('a shifted element would leave its block');
  const span = l2.check.hi - l2.check.lo;
  const minRise = ((Math.min(...l2.setSizes) + 1) / (2 * g)) * span;
  const thr = Math.max(1.5, 6 * l2.noise);
  if (!(minRise > 2 * thr)) return no(`a set overflowing would lift the average by at least ${minRise.toFixed(1)} cycles, too little against the noise (${thr.toFixed(1)})`);
  const y = r.average(STREAM.coverage + 700 + Math.round(Math.log2(d)), new ShiftedRepeatLayout(base, g, d), 2 * g, 'coverage: L2 TLB shifted repeat');
  const yes = y < l2.check.lo + thr;
  return {
    yes,
    evidence: `${g} elements and the same ${g} shifted by ${formatBytes(d)}: ${y.toFixed(1)} cycles against the L2 TLB's hit level ${l2.check.lo.toFixed(1)} (${yes ? 'no miss: the shifted elements share the L2 entries' : 'a rise, which decides nothing'}; distinct entries would lift it by ${minRise.toFixed(1)} or more)`,
  };
}

function runFixed(r: Runner, counts: number[]): { series: Series[]; analysis: ReturnType<typeof analyseFixedCount> } {
  const { strides, skew } = r.pl;
  const curves = counts.map((c, ci) => {
    const y = new Float64Array(strides.length);
    strides.forEach((s, si) => {
      y[si] = r.average(STREAM.fixed + ci * 1000 + si, new Layout(s, skew), c, `fixed count ${c}: stride ${formatBytes(s)}`);
    });
    return { count: c, y };
  });
  const analysis = analyseFixedCount(strides, curves);
  const series = curves.map((c) => curve(`${c.count} elements`, strides, c.y, 'Stride', 'B', 'Average latency', 'cycles', true));
  // The step between E and E + 1 elements is a TLB's only if it follows pages, not data lines: E pages of two
  // elements each (2 KB apart, twice the data lines) must still hit wherever E single elements do. A data
  // cache in front of translation, or one that overflows first, misses them.
  const fa = analysis.findings.find((f) => f.key === 'tlb.l1.fullyAssociative');
  const e = analysis.entries;
  if (fa && fa.value !== CANNOT_TELL && e !== null) {
    const hit = Math.min(...curves.map((c) => Math.min(...Array.from(c.y))));
    const single = curves.find((c) => c.count === e)!;
    const pairs = strides.map((s, si) => r.average(STREAM.fixed + 900_000 + si, new NearPairLayout(s), 2 * e, `fixed count ${e} pages of two elements: stride ${formatBytes(s)}`));
    series.push(curve(`${e} pages of two elements`, strides, Float64Array.from(pairs), 'Stride', 'B', 'Average latency', 'cycles', true));
    const limit = (k: number): number => Math.max(hit + 1.5, single.y[k] + Math.max(1.5, 0.25 * (Math.max(...Array.from(curves[curves.length - 1].y)) - hit)));
    const bad = strides.findIndex((_, si) => pairs[si] > limit(si));
    if (bad >= 0) {
      const i = analysis.findings.indexOf(fa);
      analysis.findings[i] = cannotTell(
        'tlb.l1.fullyAssociative',
        'L1 TLB fully associative',
        `${e} pages of two elements each (2 KB apart) miss at stride ${formatBytes(strides[bad])} (${pairs[bad].toFixed(1)} cycles) where ${e} single elements hit (${single.y[bad].toFixed(1)}): the step follows data lines, so it may be a data cache's, not the L1 TLB's`,
        'a reach sweep with its controls, which names the structure of each step',
      );
      analysis.findings = analysis.findings
        .filter((f) => f.key !== 'tlb.l1.sets')
        .map((f) =>
          f.key === 'tlb.l1.entries'
            ? { ...f, key: 'tlb.l1.alwaysFitting', label: 'Elements that fit at every stride' }
            : f.key === 'tlb.l1.entryBytes'
              ? cannotTell('tlb.l1.entryBytes', 'L1 TLB entry coverage', `the step may be a data cache's (${e} pages of two elements miss where ${e} single elements hit)`, 'a page-size run')
              : f,
        );
      analysis.fullyAssociative = null;
    }
  }
  return { series, analysis };
}

function runOffset(r: Runner): { series: Series; analysis: ReturnType<typeof analyseOffset> } {
  const { offsets, groupSize, groupStride, skew } = r.pl;
  const y = new Float64Array(offsets.length);
  offsets.forEach((o, i) => {
    y[i] = r.average(STREAM.offset + i, new Layout(groupStride, skew, groupSize, o), 2 * groupSize, `offset ${formatBytes(o)}`);
  });
  return { series: curve(`2 x ${groupSize} elements, ${formatBytes(groupStride)} apart`, offsets, y, 'Offset', 'B'), analysis: analyseOffset(offsets, y, groupSize) };
}

const OFFSET_NOTE =
  'WONG Fig 15: two groups of elements 2 MB apart, the second shifted by 2 MB + offset (element i at i*2MB, plus the offset for i >= 10). More than 16 elements defeat the 16-entry L1 TLB. On GT200 an L2 TLB way covers 4 MB, so at offset 0 the 20 elements crowd two L2 sets, 10 per 8-way set, and miss; once the offset reaches one L2 TLB line (4 KB) the second group lands in two other sets, 5 per set fit and the misses vanish: the L2 TLB line is 4 KB (and the page, WONG Table V).';

function runMissed(r: Runner): ExperimentResult {
  const { stride, sizes, skew } = r.pl;
  const layout = new Layout(stride, skew);
  const passes = tracePasses(r.pl);
  const traces = sizes.map((N, i) => r.trace(STREAM.missed + i, layout, traversal(N, stride), passes, `missed entries: N = ${formatBytes(N)}`));
  const points = sizes.map((N, i) => ({ sizeBytes: N, elements: traversal(N, stride), latencies: traces[i].latency }));
  const a = analyseMissedEntries(points, stride);
  let findings = [...a.findings];
  // The sets a stride reaches are the whole TLB where consecutive elements take consecutive entries: where
  // an L2 TLB entry covers the stride or more. A smaller entry makes the elements skip entries, and the
  // stride may then reach only some of the sets (a multiple of the sets times the coverage under bit
  // selection reaches one). The entry coverage is the page-size probe's: a reach sweep at this stride,
  // then E and E + 1 elements at strides from 4 KB up, the L1 TLB in front accounted for.
  const SET_KEYS = ['tlb.l2.setSizes', 'tlb.l2.sets', 'tlb.l2.entries', 'tlb.l2.ways'];
  const notes: string[] = [];
  const series: Series[] = [];
  if (a.inference?.complete && findings.some((f) => SET_KEYS.includes(f.key))) {
    const reach = runReach(r, r.pl.reachSizes, `${r.pl.space} (missed-entries: L2 TLB entry coverage)`);
    const cov = coveragesOf(r, reach.levels);
    series.push(...cov.series);
    const c2 = cov.coverage[1];
    let why: string | null = null;
    if (c2 === null) {
      const said = cov.notes.find((n) => n.startsWith('L2 TLB')) ?? (reach.levels.some((l) => l.level === 2) ? '' : 'L2 TLB: the reach sweep does not find its step.');
      why = `the L2 TLB's entry coverage is not measured (${said.replace(/\.$/, '')}), so whether ${formatBytes(stride)} reaches every set is not known`;
    } else if (c2 < stride) why = `an L2 TLB entry covers ${formatBytes(c2)}, less than the ${formatBytes(stride)} stride: consecutive elements skip entries and may reach only some of the sets`;
    else notes.push(`The L2 TLB's entries cover ${formatBytes(c2)} (measured as the page-size probe does), the stride or more: consecutive elements take consecutive entries, so every set is reached.`);
    if (why) {
      const reached = findings.find((f) => f.key === 'tlb.l2.setSizes');
      findings = findings.filter((f) => !SET_KEYS.includes(f.key));
      if (reached) findings.push({ ...reached, key: 'tlb.l2.reachedSetSizes', label: 'L2 TLB set sizes (the sets this stride reaches)', evidence: `${reached.evidence}; ${why}` });
      for (const [key, label] of [['tlb.l2.sets', 'L2 TLB sets'], ['tlb.l2.entries', 'L2 TLB entries'], ['tlb.l2.ways', 'L2 TLB ways']] as const)
        findings.push(cannotTell(key, label, why, c2 !== null && c2 < stride ? `missed entries at a stride of ${formatBytes(c2)}` : 'a page-size run, then missed entries at a stride of one L2 TLB entry'));
    }
  }
  const firstMiss = a.misses.findIndex((m) => m > 0);
  if (firstMiss >= 0 && a.classes.length >= 2) {
    // The L2 TLB's step runs between its two slowest classes; the plain chase at the first size with
    // misses, then a re-use chase (LRU keeps the re-used element, FIFO does not), guarded against the
    // L1 TLB keeping it.
    const top = a.classes[a.classes.length - 1].mean;
    const below = a.classes[a.classes.length - 2].mean;
    const n = points[firstMiss].elements;
    const fit = Math.max(0, n - 1);
    const check: RiseCheck = { fit, full: n, lo: below, hi: top, verdict: 'tlb', pairRise: null, nearPairRise: null, ownPageRise: null, doubleSame: null, doubleHalf: null, reason: '' };
    const lv = { level: 2, check } as ReachLevel;
    const pol = policyOf(r, lv, layout, traces[firstMiss], n, 0, true);
    const per = analysePeriodicity(traces[firstMiss].latency, n);
    const evidence = `trace at N = ${formatBytes(sizes[firstMiss])}, ${per.traversals} traversals: ${pol.evidence}`;
    findings.push(
      pol.policy === CANNOT_TELL
        ? cannotTell('tlb.l2.policy', 'L2 TLB replacement', evidence.split('; to decide: ')[0], evidence.split('; to decide: ')[1] ?? 'a run with less jitter')
        : { key: 'tlb.l2.policy', label: 'L2 TLB replacement', value: pol.policy, unit: '', evidence },
    );
  }
  const inf = a.inference;
  const table: Table = {
    name: 'Missed L2 TLB entries per traversal',
    columns: [
      { key: 'N', label: 'Array size N', unit: 'B' },
      { key: 'elements', label: 'Elements' },
      { key: 'misses', label: 'Missing accesses' },
      { key: 'entries', label: 'Missed entries (inferred)' },
      { key: 'rate', label: 'Miss rate', unit: '%' },
    ],
    rows: points.map((pt, i) => ({
      N: formatBytes(pt.sizeBytes),
      elements: pt.elements,
      misses: a.misses[i],
      entries: inf ? inf.missedEntries[i] : '?',
      rate: Math.round((1000 * a.misses[i]) / pt.elements) / 10,
    })),
  };
  series.unshift(
    curve('missing accesses per traversal', sizes, a.misses, 'Array size N', 'B', 'L2 TLB misses', 'per traversal'),
    curve('miss rate', sizes, a.misses.map((m, i) => (100 * m) / points[i].elements), 'Array size N', 'B', 'L2 TLB miss rate', '%'),
  );
  return {
    series,
    tables: [table, classTable('Latency classes (all traces)', a.classes)],
    findings,
    notes: [
      'Every access of every trace is classified by the latency classes found in the data; the slowest class is the L2 TLB miss. When a set of w entries receives its (w + 1)-th element, all w + 1 miss every traversal under LRU, so the count jumps by w + 1 and the set holds w entries (MEI counts these as "missed entries": 17 at 132 MB, 8 more per 2 MB).',
      ...notes,
    ],
    ...(firstMiss >= 0 ? { trace: traces[firstMiss] } : {}),
  };
}

/** The first half of n elements interleaved with the second: 0, n/2, 1, n/2 + 1, ... (n even). */
class PingPongLayout implements Placement {
  constructor(
    readonly base: Placement,
    readonly n: number,
  ) {}
  at(i: number): number {
    return this.base.at((i % 2) * (this.n / 2) + Math.floor(i / 2));
  }
}

/**
 * No window of active page entries up to half the largest array: a reach sweep (with its controls, at the
 * probe's stride and the reach probe's skew) names the L2 TLB and the count from which every element
 * misses it with a periodic (LRU or FIFO) pattern. At the largest even count past it, the cyclic chase and
 * the same elements visited alternately from the lower and the upper half (every access then in another
 * half of the array, so in another window for any window up to half the array) miss the TLBs and the data
 * caches alike (a fixed cyclic order over more entries than a set holds thrashes that set in any order),
 * and the alternating chase would switch page tables on every L2 TLB miss. The same average latency for
 * both shows no switch.
 */
function provedNoWindow(r: Runner, top: number): Finding | null {
  const { stride } = r.pl;
  const raw = r.p.skew as number;
  const skew = raw >= 0 ? raw : r.preset.generation !== 'Tesla' && r.pl.space !== 'texture' ? 128 : 0;
  const rr = new Runner(r.preset, r.p, { ...r.pl, skew }, r.seed + 2, r.progress, r.total);
  const count = Math.floor(top / stride);
  if (count < 16 || count > 4000) return null;
  const sizes = sizeList(stride, count * stride, stride);
  const reach = runReach(rr, sizes, 'window check');
  const l2 = reach.levels.find((l) => l.level === 2);
  const l1 = reach.levels.find((l) => l.level === 1);
  if (!l2 || !l2.periodic || l2.stride !== stride || (l1 && !l1.periodic)) return null;
  let n = traversal(top, stride);
  if (n % 2) n--;
  if (n < l2.check.full + 2) return null;
  const base = new Layout(stride, skew);
  const cyc = rr.average(STREAM.window + 900_000, base, n, 'window check: cyclic', 4);
  const pp = rr.average(STREAM.window + 900_001, new PingPongLayout(base, n), n, 'window check: alternating halves', 4);
  const thr = Math.max(2, 8 * l2.noise);
  if (!(Math.abs(pp - cyc) <= thr)) return null;
  const half = (n / 2) * stride;
  return {
    key: 'tlb.window.bytes',
    label: 'Window of active page entries',
    value: 'none',
    unit: '',
    evidence: `no window up to ${formatBytes(half)} (and no rare slowest class in the sweep to ${formatBytes(top)}; a larger window is not excluded): every element misses the L2 TLB from ${l2.check.full} elements (reach sweep at ${formatBytes(stride)}, periodic misses); ${n} elements visited alternately from the two halves of ${formatBytes(n * stride)} average ${pp.toFixed(1)} cycles against ${cyc.toFixed(1)} in cyclic order (within ${thr.toFixed(1)}): no page-table switch costing more than that, where any window up to ${formatBytes(half)} would switch on every access`,
  };
}

function runWindow(r: Runner): ExperimentResult {
  const { stride, sizes, skew } = r.pl;
  const layout = new Layout(stride, skew);
  const passes = tracePasses(r.pl);
  const avg = new Float64Array(sizes.length);
  const points = sizes.map((N, i) => {
    const n = traversal(N, stride);
    const tr = r.trace(STREAM.window + i, layout, n, passes, `window: N = ${formatBytes(N)}`);
    let s = 0;
    for (let k = 0; k < tr.latency.length; k++) s += tr.latency[k];
    avg[i] = s / tr.latency.length;
    return { sizeBytes: N, elements: n, latencies: tr.latency, addresses: tr.address };
  });
  const a = analyseWindow(points);
  const findings = a.findings;
  // A window past half the sweep shows in the sweep itself (a rare slowest class beyond it); one up to half
  // the sweep, in the alternating-halves test.
  const rare = points.some((p, i) => a.switchesPerTraversal[i] > 0 && a.switchesPerTraversal[i] <= Math.max(4, 0.05 * p.elements));
  const noWindow = a.windowBytes === null && !rare ? provedNoWindow(r, sizes[sizes.length - 1] ?? 0) : null;
  if (noWindow) findings.splice(findings.findIndex((f) => f.key === 'tlb.window.bytes'), 1, noWindow);
  return {
    series: [
      curve('page-table switches per traversal', sizes, a.switchesPerTraversal, 'Array size N', 'B', 'Slowest-class accesses', 'per traversal'),
      curve('average latency', sizes, avg, 'Array size N', 'B'),
    ],
    tables: [],
    findings,
    notes: [
      'MEI 4.2: on Kepler only 512 MB of page entries are active at kernel launch; an L2 TLB miss on an inactive entry switches page tables (pattern 6, about 1000 cycles). The stride chase thrashes the L2 TLB (more pages than its 65 entries) and misses the data caches, so every load is pattern 5 until the chase crosses a 512 MB boundary.',
    ],
  };
}

/** TLB probes (WONG Figs 13-16; MEI Table 4, Figs 10-11, pattern 6). */
export const tlbProbes: Experiment = withFollowUps({
  id: 'tlb-probes',
  title: 'TLB probes (WONG Figs 13-16, MEI Table 4, Figs 10-11)',
  description:
    'Stride chases at page-sized strides: TLB reach from latency steps, entry coverage from fixed element counts, the L2 TLB line from an offset, unequal L2 TLB sets from missed entries, the page size, and Kepler\'s 512 MB page window.',
  reproduces: ['WONG-F13..F15', 'WONG-F16', 'MEI-T4', 'MEI-F10/F11', 'MEI-PAGE', 'MEI-K512'],
  params,
  estimate(preset, raw) {
    return estimatePlan(plan(preset, resolveParams(params, raw)));
  },
  run(preset, raw, seed, progress) {
    const p = resolveParams(params, raw);
    const pl = plan(preset, p);
    const total = estimatePlan(pl);
    checkWork(total);
    const r = new Runner(preset, p, pl, seed, progress, total);
    const result = runProbe(r, pl);
    return { ...result, findings: withoutImpossibleNext(result.findings, params, p) };
  },
});

/** The probe the plan names, run. */
function runProbe(r: Runner, pl: Plan): ExperimentResult {
  switch (pl.probe) {
    case 'reach':
      return runReach(r, pl.sizes, pl.space).result;
    case 'fixed-count': {
      const { series, analysis } = runFixed(r, pl.counts);
      return {
        series,
        tables: [],
        findings: analysis.findings,
        notes: [
          'WONG Fig 14: a fixed number of elements at varying strides. 16 elements always hit the L1 TLB; 17 miss from the entry coverage (512 KB on GT200) up, at every stride, powers of two or not: one set, fully associative. At strides of an L2 TLB way and more, all elements fall in one L2 set and miss it too.',
        ],
      };
    }
    case 'offset': {
      const { series, analysis } = runOffset(r);
      return { series: [series], tables: [], findings: analysis.findings, notes: [OFFSET_NOTE] };
    }
    case 'missed-entries':
      return runMissed(r);
    case 'window':
      return runWindow(r);
    case 'page-size': {
      const reach = runReach(r, pl.reachSizes, `${pl.space} (page-size pass 1)`);
      const findings: Finding[] = reach.result.findings.filter((f) => f.key === 'tlb.l1.reachBytes' || f.key === 'tlb.l1.entries' || f.key === 'tlb.l2.entries' || f.key === 'tlb.l1.fullyAssociative' || f.key === 'tlb.l2.fullyAssociative');
      const series: Series[] = [...reach.result.series];
      const notes: string[] = [];
      const cov = coveragesOf(r, reach.levels);
      const coverage = cov.coverage;
      series.push(...cov.series);
      findings.push(...cov.findings);
      notes.push(...cov.notes);
      const off = runOffset(r);
      series.push(off.series);
      findings.push(...off.analysis.findings);
      // The offset pattern's line counts only where its two latencies are the L2 TLB's hit and miss levels.
      const l2 = reach.levels.find((l) => l.level === 2);
      const oa = off.analysis;
      const near = (a: number, b: number, span: number): boolean => Math.abs(a - b) <= Math.max(2, 0.1 * span);
      if (coverage[1] === null && l2 && oa.lineBytes !== null && near(oa.conflictLatency, l2.check.hi, l2.check.hi - l2.check.lo) && near(oa.freeLatency, l2.check.lo, l2.check.hi - l2.check.lo))
        coverage[1] = oa.lineBytes;
      const known = coverage.filter((c): c is number => c !== null);
      if (reach.levels.length === 2 && known.length === 2) {
        const page = Math.min(...known);
        findings.push({
          key: 'tlb.pageBytes',
          label: 'Page size',
          value: page,
          unit: 'B',
          evidence: `finest entry coverage of the two TLB levels: L1 ${formatBytes(coverage[0] as number)}, L2 ${formatBytes(coverage[1] as number)}${coverage[1] === oa.lineBytes ? ' (L2 line from the offset pattern, WONG Fig 15)' : ''}`,
        });
      } else
        findings.push(
          cannotTell(
            'tlb.pageBytes',
            'Page size',
            reach.levels.length < 2
              ? `${reach.levels.length} TLB level(s) found in the reach pass${reach.stop ? ` (${reach.stop})` : ''}: a level not measured may use finer entries`
              : `entry coverage measured for ${known.length} of the two TLB levels: the other may use finer entries`,
            reach.levels.length < 2 && !reach.stop ? 'a reach sweep over a wider range (raise "sizeTo"), then this probe again' : 'a reach sweep at a smaller stride or over a wider range, then this probe again',
          ),
        );
      notes.push(
        'Brute force (MEI slides "TLB"): (1) a reach sweep with its controls gives the TLB levels and, where they are fully associative or their sets overflow one by one, their entries E; (2) E and E + 1 elements over strides of powers of two: E + 1 elements stop fitting at the stride where each needs its own entry, the entry coverage; (3) the WONG Fig 15 offset pattern looks for a finer L2 TLB line. The page size is the finer of the two levels\' coverages; a level not measured leaves it undecided.',
      );
      return { series, tables: reach.result.tables, findings, notes };
    }
  }
}
