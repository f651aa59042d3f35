import { analyseCurve, curveFindings, sharingVerdict } from '../analysis/average-curve';
import { Chip } from '../model/path';
import type { PathModel } from '../model/path';
import type { Preset, SpaceId } from '../presets/types';
import { Rng } from '../rng';
import { formatBytes, resolveParams } from './params';
import { checkStride, checkWork, JITTER_PARAM, Measurement, openSpace, TPC_PARAM, traversal } from './pchase';
import type { Experiment, Finding, ParamSpec, ParamValues, Series, Table } from './types';
import { ExperimentError } from './types';

/**
 * WONG IV-J: the constant cache hierarchy of GT200 read off average-latency curves.
 *  - latency (Figs 17, 18): one curve per stride; plateaus are the levels' latencies, rises their sizes.
 *  - sharing (Fig 20): a second block chases its own array of the same size beside the measured one, on
 *    the same SM, on another SM of the same TPC, or on another TPC; a level both reach shows half its size.
 *  - instruction (Fig 21): the second block is an instruction stream of the same footprint; the levels it
 *    shares with constants (L2, L3) show half their size, the single-purpose L1 keeps its size.
 */

const PROBES = ['latency', 'sharing', 'instruction'] as const;
type Probe = (typeof PROBES)[number];

/** Where the second block runs relative to the measured one (WONG IV-J4). */
const PLACEMENTS = [
  { id: 'sameSM', label: 'same SM' },
  { id: 'sameTPC', label: 'same TPC, other SM' },
  { id: 'otherTPC', label: 'other TPC' },
] as const;
type PlacementId = (typeof PLACEMENTS)[number]['id'];

const params: ParamSpec[] = [
  {
    name: 'probe',
    label: 'Probe',
    unit: '',
    kind: 'enum',
    default: 'latency',
    options: PROBES,
    description: 'latency: curves per stride (Figs 17, 18); sharing: a second block beside it (Fig 20); instruction: an instruction stream beside it (Fig 21).',
  },
  {
    name: 'strides',
    label: 'Strides (latency)',
    unit: 'B',
    kind: 'bytes-list',
    default: [256, 64],
    min: 4,
    max: 65536,
    maxItems: 8,
    description: 'latency probe: one curve per stride s (bytes, multiples of 4); WONG uses 256 B (Fig 17) and 16 B (Fig 18).',
  },
  {
    name: 'stride',
    label: 'Stride (sharing)',
    unit: 'B',
    kind: 'bytes',
    default: 256,
    min: 4,
    max: 65536,
    description: 'sharing and instruction probes: the stride of both blocks (WONG Figs 20, 21: 256 B).',
  },
  { name: 'sizeFrom', label: 'Smallest array', unit: 'B', kind: 'bytes', default: 256, min: 4, max: 1 << 24, description: 'First array size N.' },
  { name: 'sizeTo', label: 'Largest array', unit: 'B', kind: 'bytes', default: 40960, min: 4, max: 1 << 24, description: 'Last array size N (inclusive).' },
  {
    name: 'sizeStep',
    label: 'Size step',
    unit: 'B',
    kind: 'bytes',
    default: 128,
    min: 4,
    max: 1 << 24,
    description: 'Increment of N; each curve steps by the least common multiple of this and its stride, so every array holds whole strides.',
  },
  {
    name: 'latencyView',
    label: 'Latency shown',
    unit: '',
    kind: 'enum',
    default: 'raw',
    options: ['raw', 'measured'],
    description: "raw: the constant access alone (WONG's 8 / 81 / 220 / 476); measured: plus the two dependent arithmetic instructions of each iteration (2 x SP latency), as WONG's Fig 17 plots it.",
  },
  { name: 'traversals', label: 'Timed traversals', unit: '', kind: 'integer', default: 1, min: 1, max: 64, description: 'Timed passes over the array after one untimed warm-up pass (at least 256 timed loads).' },
  TPC_PARAM,
  JITTER_PARAM,
];

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

/** Array sizes of one curve: from..to by lcm(step, stride), starting at the first multiple of the stride. */
function sizesFor(p: ParamValues, s: number): number[] {
  const from = p.sizeFrom as number;
  const to = p.sizeTo as number;
  const step0 = p.sizeStep as number;
  if (to < from) throw new ExperimentError('parameter "sizeTo" must not be smaller than "sizeFrom"', 'sizeTo');
  const step = (step0 / gcd(step0, s)) * s;
  const first = Math.max(s, Math.ceil(from / s) * s);
  const out: number[] = [];
  for (let N = first; N <= to; N += step) out.push(N);
  if (out.length < 4)
    throw new ExperimentError(`stride ${formatBytes(s)} leaves ${out.length} sizes between "sizeFrom" and "sizeTo"; widen the range or lower "sizeStep"`, 'sizeTo');
  if (out.length > 4000) throw new ExperimentError(`a curve has ${out.length} sizes; at most 4000 (raise "sizeStep")`, 'sizeStep');
  return out;
}

function timedAccesses(N: number, s: number, traversals: number): number {
  return Math.max(256, traversal(N, s) * traversals);
}

/** The second block's array starts at the first power of two at or above the largest size: no line is
 *  shared with the measured array, and both map onto the sets alike (as two equal arrays do). */
function partnerBase(p: ParamValues): number {
  return 2 ** Math.ceil(Math.log2(Math.max(p.sizeTo as number, 4)));
}

/**
 * Average latency of block A's dependent loads while block B (if any) runs beside it: one load of B
 * between two of A, both walking N bytes with stride s (B from `baseB`). One untimed warm-up traversal.
 */
export function pairedChase(a: PathModel, b: PathModel | null, m: Measurement, N: number, s: number, accesses: number, baseB: number): number {
  const per = traversal(N, s);
  let j = 0;
  for (let i = 0; i < per; i++) {
    a.access(j);
    if (b) b.access(baseB + j);
    j += s;
    if (j >= N) j -= N;
  }
  let sum = 0;
  for (let i = 0; i < accesses; i++) {
    sum += m.read(a.access(j));
    if (b) b.access(baseB + j);
    j += s;
    if (j >= N) j -= N;
  }
  return sum / accesses;
}

function probeOf(p: ParamValues): Probe {
  return p.probe as Probe;
}

/** Overhead added to every timed load: the two arithmetic instructions when 'measured' is shown. */
function measurementFor(preset: Preset, p: ParamValues, seed: number): Measurement {
  const overhead = p.latencyView === 'measured' ? 2 * preset.alu.spLatency : 0;
  return new Measurement(overhead, p.jitter as number, seed);
}

function curveSeries(name: string, x: number[], y: Float64Array): Series {
  return { name, x: Float64Array.from(x), y, xLabel: 'Array size N', xUnit: 'B', yLabel: 'Average latency', yUnit: 'cycles', style: 'line' };
}

/** SM of the measured block and of the second block for a placement. */
function placementSms(preset: Preset, tpc: number, placement: PlacementId | 'alone'): { a: number; b: number } {
  const per = preset.chip.smPerTpc;
  const tpcs = Math.max(1, Math.ceil(preset.chip.sms / per));
  const tA = Math.max(0, tpc);
  const a = tA * per;
  if (placement === 'sameTPC' && per < 2)
    throw new ExperimentError(`${preset.name} has one SM per TPC: no "same TPC, other SM" placement`, 'probe');
  if (placement === 'otherTPC' && tpcs < 2) throw new ExperimentError(`${preset.name} has one TPC: no "other TPC" placement`, 'probe');
  const b = placement === 'sameTPC' ? a + 1 : placement === 'otherTPC' ? ((tA + 1) % tpcs) * per : a;
  return { a, b };
}

function runLatency(preset: Preset, p: ParamValues, seed: number, progress: (d: number, t: number, ph: string) => void) {
  const strides = p.strides as number[];
  const curves = strides.map((s) => sizesFor(p, s));
  const total = curves.reduce((a, c) => a + c.length, 0);
  let done = 0;
  const series: Series[] = [];
  const findings: Finding[] = [];
  strides.forEach((s, si) => {
    const ns = curves[si];
    const y = new Float64Array(ns.length);
    ns.forEach((N, i) => {
      const ps = Rng.derive(seed, si * 100_000 + i);
      const model = openSpace(preset, 'constant', ps, p.tpc as number);
      y[i] = pairedChase(model, null, measurementFor(preset, p, ps), N, s, timedAccesses(N, s, p.traversals as number), 0);
      progress(++done, total, `stride ${formatBytes(s)}`);
    });
    series.push(curveSeries(`s = ${formatBytes(s)}`, ns, y));
    findings.push(...curveFindings(analyseCurve(ns, y, s, { loads: (N) => timedAccesses(N, s, p.traversals as number) }), s, `s${s}`));
  });
  const notes = [
    p.latencyView === 'measured'
      ? `Latencies include two dependent arithmetic instructions per load (2 x ${preset.alu.spLatency} cycles), as measured by WONG (Fig 17).`
      : `Raw latencies: the constant access alone; WONG's measured curves are about 2 x ${preset.alu.spLatency} cycles higher (IV-J).`,
    'With a stride of at least every line size each plateau is one level\'s latency; with a smaller stride the plateaus past a level mix hits and misses and the steps show its line size (Fig 18).',
  ];
  return { series, tables: [], findings, notes };
}

function runSharing(preset: Preset, p: ParamValues, seed: number, probe: 'sharing' | 'instruction', progress: (d: number, t: number, ph: string) => void) {
  const s = p.stride as number;
  const ns = sizesFor(p, s);
  const partnerSpace: SpaceId = probe === 'sharing' ? 'constant' : 'instruction';
  if (!preset.spaces[partnerSpace]) openSpace(preset, partnerSpace, seed); // throws the ExperimentError that names why
  const base = partnerBase(p);
  const tpc = p.tpc as number;
  const runs: { id: PlacementId | 'alone'; label: string }[] = [{ id: 'alone', label: 'alone' }, ...PLACEMENTS];
  const total = runs.length * ns.length;
  let done = 0;
  const series: Series[] = [];
  const findings: Finding[] = [];
  const sizes = new Map<string, (number | undefined)[]>();
  runs.forEach((r, ri) => {
    const sm = placementSms(preset, tpc, r.id);
    const y = new Float64Array(ns.length);
    ns.forEach((N, i) => {
      const ps = Rng.derive(seed, ri * 100_000 + i);
      const chip = new Chip(ps, preset.chip.smPerTpc, preset.chip.sms);
      const a = openSpace(preset, 'constant', ps, tpc, chip, sm.a);
      const b = r.id === 'alone' ? null : openSpace(preset, partnerSpace, ps, -1, chip, sm.b);
      y[i] = pairedChase(a, b, measurementFor(preset, p, ps), N, s, timedAccesses(N, s, p.traversals as number), base);
      progress(++done, total, r.label);
    });
    const who = probe === 'sharing' ? 'constant block' : 'instruction stream';
    series.push(curveSeries(r.id === 'alone' ? 'alone' : `${who} on ${r.label}`, ns, y));
    const a = analyseCurve(ns, y, s);
    findings.push(...curveFindings(a, s, `${probe}.${r.id}`));
    sizes.set(r.id, a.ramps.map((q) => q.sizeBytes));
  });
  const alone = sizes.get('alone') ?? [];
  const table: Table = {
    name: probe === 'sharing' ? 'Observed sizes with a second constant block (WONG Fig 20)' : 'Observed sizes beside an instruction stream (WONG Fig 21)',
    columns: [
      { key: 'placement', label: 'Second block' },
      ...alone.map((_, k) => ({ key: `l${k + 1}`, label: `Level ${k + 1}`, unit: 'B' })),
      ...alone.map((_, k) => ({ key: `v${k + 1}`, label: `Level ${k + 1} verdict` })),
    ],
    rows: [],
  };
  table.rows.push({ placement: 'none', ...Object.fromEntries(alone.map((v, k) => [`l${k + 1}`, v ?? '-'])) });
  for (const pl of PLACEMENTS) {
    const paired = sizes.get(pl.id) ?? [];
    const row: Record<string, string | number> = { placement: pl.label };
    alone.forEach((v, k) => {
      const { verdict, ratio } = sharingVerdict(v, paired[k]);
      row[`l${k + 1}`] = paired[k] ?? '-';
      row[`v${k + 1}`] = verdict;
      findings.push({
        key: `${probe}.${pl.id}.level${k + 1}.verdict`,
        label: `Level ${k + 1} with the ${probe === 'sharing' ? 'second block' : 'instruction stream'} on ${pl.label}`,
        value: verdict,
        unit: '',
        evidence: Number.isFinite(ratio)
          ? `observed size ${paired[k]} B against ${v} B alone (ratio ${ratio.toFixed(2)}; half: shared, equal: private)`
          : 'the level was not found on both curves',
      });
    });
    table.rows.push(row);
  }
  const notes = [
    `The second ${probe === 'sharing' ? 'block' : 'stream'} walks its own ${probe === 'sharing' ? 'array' : 'code'} of the same size with the same stride, one load between two of the measured block's, from address ${formatBytes(base)} (no shared lines, the same set mapping).`,
    'A level both blocks reach shows half its size (WONG IV-J4); a level the second block cannot reach keeps it.',
  ];
  return { series, tables: [table], findings, notes };
}

/** Constant caches and sharing (WONG Figs 17, 18, 20, 21). */
export const constantHierarchy: Experiment = {
  id: 'constant-hierarchy',
  title: 'Constant caches and sharing (WONG Figs 17, 18, 20, 21)',
  description:
    'Average latency of dependent constant loads against array size: three cache levels with their latencies and geometry, then which level a second block or an instruction stream shares, by the size each placement leaves observable.',
  reproduces: ['WONG-F17/F18', 'WONG-F20/F21'],
  params,
  estimate(preset, raw) {
    const p = resolveParams(params, raw);
    const t = p.traversals as number;
    const cost = (s: number, factor: number): number => sizesFor(p, s).reduce((a, N) => a + factor * (traversal(N, s) + timedAccesses(N, s, t)), 0);
    const probe = probeOf(p);
    if (probe === 'latency') return (p.strides as number[]).reduce((a, s) => a + cost(s, 1), 0);
    return cost(p.stride as number, 1) + PLACEMENTS.length * cost(p.stride as number, 2);
  },
  run(preset, raw, seed, progress) {
    const p = resolveParams(params, raw);
    const probe = probeOf(p);
    const strides = probe === 'latency' ? (p.strides as number[]) : [p.stride as number];
    for (const s of strides) {
      if (s % 4 !== 0) throw new ExperimentError(`parameter "${probe === 'latency' ? 'strides' : 'stride'}" must be a multiple of 4 B (one element)`, probe === 'latency' ? 'strides' : 'stride');
      checkStride(sizesFor(p, s)[0], s, 'sizeFrom', probe === 'latency' ? 'strides' : 'stride');
    }
    checkWork(this.estimate(preset, p));
    if (probe === 'latency') return runLatency(preset, p, seed, progress);
    return runSharing(preset, p, seed, probe, progress);
  },
};
