import type { PathModel } from '../model/path';
import type { Preset, SpaceId } from '../presets/types';
import { Rng } from '../rng';
import type { LatencyClass } from '../analysis/tlb';
import {
  analyseFixedCount,
  analyseMissedEntries,
  analyseOffset,
  analyseEntrySharing,
  analysePeriodicity,
  analyseReach,
  analyseWindow,
  pageSizeFinding,
} from '../analysis/tlb';
import { formatBytes, resolveParams } from './params';
import { tlbProbeStride } from './tlb-stride';
import { checkWork, CLOCK_PARAM, fineChase, JITTER_PARAM, Measurement, openSpace, TPC_PARAM, traversal, WORD } from './pchase';
import type { Experiment, ExperimentResult, Finding, ParamSpec, ParamValues, Progress, Series, Table, Trace } from './types';
import { ExperimentError, MAX_TRACE } from './types';

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
    max: 16 * GB,
    description: 'First array size N (0: the probe default, e.g. 130 MB for missed-entries on Fermi/Kepler).',
  },
  {
    name: 'sizeTo',
    label: 'Largest array',
    unit: 'B',
    kind: 'bytes',
    default: 0,
    min: 0,
    max: 16 * GB,
    description: 'Last array size N, inclusive (0: the probe default, e.g. 160 MB for reach on Fermi/Kepler, 768 MB for window).',
  },
  {
    name: 'sizeStep',
    label: 'Size step',
    unit: 'B',
    kind: 'bytes',
    default: 0,
    min: 0,
    max: 16 * GB,
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
class Layout {
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

function sizeList(from: number, to: number, step: number): number[] {
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
  const reachSizes = probe === 'page-size' ? sizeList(rf, rt, rs) : [];
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
    return t + 2 * traceCost(top, Math.max(3, pl.traversals));
  };
  const fixed = (counts: number[]): number => counts.reduce((a, c) => a + pl.strides.length * averageCost(c, pl.traversals), 0);
  const offset = pl.offsets.length * averageCost(2 * pl.groupSize, pl.traversals);
  switch (pl.probe) {
    case 'reach':
      return reachCost(pl.sizes);
    case 'fixed-count':
      return fixed(pl.counts);
    case 'offset':
      return offset;
    case 'missed-entries':
    case 'window':
      return pl.sizes.reduce((a, N) => a + traceCost(traversal(N, pl.stride), tracePasses(pl)), 0);
    case 'page-size': {
      const top = pl.reachSizes.length ? traversal(pl.reachSizes[pl.reachSizes.length - 1], pl.stride) : 16;
      return reachCost(pl.reachSizes) + fixed([top, top + 1]) + offset;
    }
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
  average(stream: number, layout: Layout, n: number, phase: string): number {
    const { model, m } = this.open(stream);
    for (let i = 0; i < n; i++) model.access(layout.at(i));
    const passes = passesFor(n, this.pl.traversals);
    let sum = 0;
    for (let t = 0; t < passes; t++) for (let i = 0; i < n; i++) sum += m.read(model.access(layout.at(i)));
    this.tick(averageCost(n, this.pl.traversals), phase);
    return sum / (passes * n);
  }

  /** Fine-grained trace (MEI Listing 4) of `passes` timed traversals after one untimed warm-up pass. */
  trace(stream: number, layout: Layout, n: number, passes: number, phase: string): Trace {
    if (n * passes > MAX_TRACE)
      throw new ExperimentError(`a trace of ${n * passes} accesses exceeds ${MAX_TRACE}; use a larger stride or fewer traversals`, 'stride');
    const { model, m } = this.open(stream);
    for (let i = 0; i < n; i++) model.access(layout.at(i));
    const tr = fineChase(model, m, (i) => layout.at(i % n), n * passes);
    this.tick(traceCost(n, passes), phase);
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

const STREAM = { reach: 0, policy: 900_000, fixed: 1_000_000, offset: 2_000_000, missed: 3_000_000, window: 4_000_000 };

function runReach(r: Runner, sizes: number[], label: string): { result: ExperimentResult; levels: ReturnType<typeof analyseReach>['levels'] } {
  const { stride, skew, traversals } = r.pl;
  const layout = new Layout(stride, skew);
  const y = new Float64Array(sizes.length);
  sizes.forEach((N, i) => {
    y[i] = r.average(STREAM.reach + i, layout, traversal(N, stride), `reach: N = ${formatBytes(N)}`);
  });
  const ra = analyseReach(sizes, y, stride, 2, label);
  const findings: Finding[] = [...ra.findings];
  let trace: Trace | undefined;
  // Replacement policy (MEI 3.2 (4)): one element past each reach, several traversals, periodic or not.
  ra.levels.forEach((l, k) => {
    const n = Math.round(l.reachBytes / stride) + 1;
    const passes = Math.max(3, traversals);
    const tr = r.trace(STREAM.policy + k, layout, n, passes, `policy: L${l.level} TLB`);
    const per = analysePeriodicity(tr.latency, n);
    // The slowest latency class one element past a level's reach is that level's miss latency, even
    // where the average mixes it with hits (two elements per L1 TLB entry at 256 KB, WONG Fig 16).
    const slow = per.classes[per.classes.length - 1];
    if (slow) {
      const key = l.level === 1 ? 'tlb.latency.l2Hit' : 'tlb.latency.l2Miss';
      const i = findings.findIndex((f) => f.key === key);
      const f: Finding = {
        key,
        label: l.level === 1 ? 'Latency, L1 TLB miss / L2 TLB hit' : 'Latency, L2 TLB miss',
        value: Math.round(slow.mean * 10) / 10,
        unit: 'cycles',
        evidence: `slowest latency class of the fine-grained trace at N = ${formatBytes(n * stride)} (classes: ${per.classes.map((c) => c.mean.toFixed(1)).join(', ')})`,
      };
      if (i >= 0) findings[i] = f;
      else findings.push(f);
    }
    if (l.widthBytes === stride) {
      // A one-stride step is a single set: check that each element had its own entry.
      const sh = analyseEntrySharing(tr.latency, n, l.reachBytes, stride, l.level);
      if (sh && sh.elementsPerEntry > 1) {
        for (const f of sh.findings) {
          const j = findings.findIndex((g) => g.key === f.key);
          if (j >= 0) findings[j] = f;
          else findings.push(f);
        }
        l.entries = sh.entries;
      }
    }
    findings.push({
      key: `tlb.l${l.level}.policy`,
      label: `L${l.level} TLB replacement`,
      value: per.policy,
      unit: '',
      evidence: `fine-grained trace at N = ${formatBytes(n * stride)} (one element past the reach), ${per.traversals} traversals: ${per.periodic ? 'the same latency sequence every traversal (periodic)' : `${per.mismatches} positions change between traversals (aperiodic)`}`,
    });
    trace = tr;
  });
  const tables: Table[] = [
    {
      name: 'Latency plateaus',
      columns: [
        { key: 'from', label: 'From N', unit: 'B' },
        { key: 'to', label: 'To N', unit: 'B' },
        { key: 'latency', label: 'Latency', unit: 'cycles' },
      ],
      rows: ra.segmentation.plateaus.map((pl) => ({ from: formatBytes(pl.fromX), to: formatBytes(pl.toX), latency: Math.round(pl.latency * 10) / 10 })),
    },
    {
      name: 'TLB steps',
      columns: [
        { key: 'level', label: 'Level' },
        { key: 'reach', label: 'Reach (last N that fits)', unit: 'B' },
        { key: 'full', label: 'All missing from', unit: 'B' },
        { key: 'entries', label: 'Entries (reach / stride)' },
        { key: 'sets', label: 'Set sizes' },
      ],
      rows: ra.levels.map((l) => ({
        level: `L${l.level} TLB`,
        reach: formatBytes(l.reachBytes),
        full: formatBytes(l.reachBytes + l.widthBytes),
        entries: l.entries,
        sets: l.setSizes ? l.setSizes.join(',') : '?',
      })),
    },
  ];
  const notes: string[] = [];
  if (ra.levels.length < 2)
    notes.push(
      ra.levels.length === 0
        ? 'No TLB step found in this range. On Fermi/Kepler texture the virtually indexed 96-way texture L1 serves every load at these strides and hides the TLBs (MEI studies the texture L1 only).'
        : 'Only one TLB step found in this range; extend sizeTo to see the second level.',
    );
  if (r.pl.skew > 0)
    notes.push(
      `Element i sits at i*${formatBytes(stride)} + (i*${r.pl.skew} mod stride): each element falls in its own data-cache set, so the data caches hit throughout and only the TLBs change the latency (MEI Table 3 patterns 1-3).`,
    );
  return {
    result: { series: [curve(`s = ${formatBytes(stride)}`, sizes, y, 'Array size N', 'B')], tables, findings, notes, ...(trace ? { trace } : {}) },
    levels: ra.levels,
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
  const findings = [...a.findings];
  const firstMiss = a.misses.findIndex((m) => m > 0);
  if (firstMiss >= 0) {
    const per = analysePeriodicity(traces[firstMiss].latency, points[firstMiss].elements);
    findings.push({
      key: 'tlb.l2.policy',
      label: 'L2 TLB replacement',
      value: per.policy,
      unit: '',
      evidence: `trace at N = ${formatBytes(sizes[firstMiss])}: ${per.periodic ? 'periodic' : `${per.mismatches} positions change between traversals`} over ${per.traversals} traversals`,
    });
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
  const series: Series[] = [
    curve('missing accesses per traversal', sizes, a.misses, 'Array size N', 'B', 'L2 TLB misses', 'per traversal'),
    curve('miss rate', sizes, a.misses.map((m, i) => (100 * m) / points[i].elements), 'Array size N', 'B', 'L2 TLB miss rate', '%'),
  ];
  return {
    series,
    tables: [table, classTable('Latency classes (all traces)', a.classes)],
    findings,
    notes: [
      'Every access of every trace is classified by the latency classes found in the data; the slowest class is the L2 TLB miss. When a set of w entries receives its (w + 1)-th element, all w + 1 miss every traversal under LRU, so the count jumps by w + 1 and the set holds w entries (MEI counts these as "missed entries": 17 at 132 MB, 8 more per 2 MB).',
    ],
    ...(firstMiss >= 0 ? { trace: traces[firstMiss] } : {}),
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
  return {
    series: [
      curve('page-table switches per traversal', sizes, a.switchesPerTraversal, 'Array size N', 'B', 'Slowest-class accesses', 'per traversal'),
      curve('average latency', sizes, avg, 'Array size N', 'B'),
    ],
    tables: [],
    findings: a.findings,
    notes: [
      'MEI 4.2: on Kepler only 512 MB of page entries are active at kernel launch; an L2 TLB miss on an inactive entry switches page tables (pattern 6, about 1000 cycles). The stride chase thrashes the L2 TLB (more pages than its 65 entries) and misses the data caches, so every load is pattern 5 until the chase crosses a 512 MB boundary.',
    ],
  };
}

/** TLB probes (WONG Figs 13-16; MEI Table 4, Figs 10-11, pattern 6). */
export const tlbProbes: Experiment = {
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
        const findings: Finding[] = reach.result.findings.filter((f) => f.key === 'tlb.l1.reachBytes' || f.key === 'tlb.l1.entries');
        const series: Series[] = [...reach.result.series];
        const notes: string[] = [];
        const e1 = reach.levels[0]?.entries;
        let l1Entry: number | null = null;
        if (e1 !== undefined && Number.isInteger(e1) && e1 >= 1) {
          const fx = runFixed(r, [e1, e1 + 1]);
          series.push(...fx.series);
          findings.push(...fx.analysis.findings.filter((f) => f.key.startsWith('tlb.l1.')).filter((f) => f.key !== 'tlb.l1.entries'));
          l1Entry = fx.analysis.entryBytes;
        } else notes.push('No L1 TLB step in the reach pass: the fixed-count sweep was skipped.');
        const off = runOffset(r);
        series.push(off.series);
        findings.push(...off.analysis.findings);
        const page = pageSizeFinding(l1Entry, off.analysis.lineBytes);
        if (page) findings.push(page);
        notes.push(
          'Brute force (MEI slides "TLB"): (1) a reach sweep gives the L1 TLB entries E at the large stride; (2) E and E + 1 elements over a stride sweep: E + 1 elements stop fitting at the stride where each needs its own entry, the entry coverage; (3) the WONG Fig 15 offset pattern looks for a finer L2 TLB line. The page size is the finest of these.',
        );
        return { series, tables: reach.result.tables, findings, notes };
      }
    }
  },
};
