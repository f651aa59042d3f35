import { DEFAULT_L1_CONFIG, withL1Config } from '../presets/l1-config';
import type { Preset, SpaceId } from '../presets/types';
import { L1_CONFIG_PARAM } from './structure-probes';
import { formatBytes, resolveParams } from './params';
import { averageChase, checkSpace, checkStride, checkWork, CLOCK_PARAM, genericNote, JITTER_PARAM, Measurement, openSpace, SPACE_PARAM, TPC_PARAM, traversal } from './pchase';
import type { Experiment, ParamSpec, ParamValues, Series } from './types';
import { ExperimentError } from './types';
import { Rng } from '../rng';
import type { ReadCurve } from '../analysis/average-curve';
import { analyseCurve, readCurve, readHierarchy, readingFindings } from '../analysis/average-curve';
import { type StrideCurve, sweepPlateauFindings } from '../analysis/plateaus';

const params: ParamSpec[] = [
  SPACE_PARAM,
  { name: 'strides', label: 'Strides', unit: 'B', kind: 'bytes-list', default: [64], min: 4, max: 1 << 30, maxItems: 8, description: 'One curve per stride s (bytes, multiples of 4).' },
  { name: 'sizeFrom', label: 'Smallest array', unit: 'B', kind: 'bytes', default: 1024, min: 4, max: 2 ** 34, description: 'First array size N.' },
  { name: 'sizeTo', label: 'Largest array', unit: 'B', kind: 'bytes', default: 32768, min: 4, max: 2 ** 34, description: 'Last array size N (inclusive).' },
  { name: 'sizeStep', label: 'Size step', unit: 'B', kind: 'bytes', default: 256, min: 4, max: 2 ** 34, description: 'Increment of N between points.' },
  { name: 'traversals', label: 'Timed traversals', unit: '', kind: 'integer', default: 2, min: 1, max: 64, description: 'Timed passes over the array after one untimed warm-up pass (at least 256 timed loads).' },
  L1_CONFIG_PARAM,
  TPC_PARAM,
  JITTER_PARAM,
  CLOCK_PARAM,
];

/** The sweep's array sizes, refused (naming the parameter) when they run backwards or number over 4000. */
export function sweepSizes(p: ParamValues): number[] {
  const from = p.sizeFrom as number;
  const to = p.sizeTo as number;
  const step = p.sizeStep as number;
  if (to < from) throw new ExperimentError('parameter "sizeTo" must not be smaller than "sizeFrom"', 'sizeTo');
  const count = Math.floor((to - from) / step) + 1;
  if (count > 4000) throw new ExperimentError(`the sweep has ${count} sizes; at most 4000 (raise "sizeStep")`, 'sizeStep');
  return Array.from({ length: count }, (_, i) => from + i * step);
}

function timedAccesses(N: number, s: number, traversals: number): number {
  return Math.max(256, traversal(N, s) * traversals);
}

/** The preset with the L1 configuration the run asks for (global memory only), refused naming the parameter. */
function configured(preset: Preset, p: ParamValues): Preset {
  const id = p.l1Config as string;
  if (id === DEFAULT_L1_CONFIG) return preset;
  if (p.space !== 'global' && p.space !== 'global-cg') throw new ExperimentError(`parameter "l1Config" applies to global memory; space is ${String(p.space)}`, 'l1Config');
  try {
    return withL1Config(preset, id);
  } catch (e) {
    throw new ExperimentError(`parameter "l1Config": ${(e as Error).message}`, 'l1Config');
  }
}

/** Average latency against array size for given strides (Saavedra; WONG Listings 1-2, Figs 10-13, 16-18). */
export const pchaseAverage: Experiment = {
  id: 'pchase-average',
  title: 'P-chase: average latency vs array size',
  description: 'Saavedra / WONG footprint experiment: the average latency of dependent loads over arrays of growing size, one curve per stride.',
  reproduces: ['WONG-GLB', 'WONG-F10..F12'],
  params,
  estimate(_preset, raw) {
    const p = resolveParams(params, raw);
    let total = 0;
    for (const s of p.strides as number[]) for (const N of sweepSizes(p)) total += traversal(N, s) + timedAccesses(N, s, p.traversals as number);
    return total;
  },
  check(preset, p) {
    checkSpace(preset, p.space as SpaceId, p.tpc as number);
    configured(preset, p);
    const ns = sweepSizes(p);
    for (const s of p.strides as number[]) for (const N of ns) checkStride(N, s, 'sizeFrom', 'strides');
  },
  run(given, raw, seed, progress) {
    const p = resolveParams(params, raw);
    const strides = p.strides as number[];
    const ns = sweepSizes(p);
    this.check!(given, p);
    const preset = configured(given, p);
    checkWork(this.estimate(preset, p));
    const series: Series[] = [];
    const total = strides.length * ns.length;
    let done = 0;
    let generic: string | null = null;
    strides.forEach((s, si) => {
      const y = new Float64Array(ns.length);
      ns.forEach((N, i) => {
        // Each point is its own kernel launch: cold structures, its own seeded randomness.
        const pointSeed = Rng.derive(seed, si * 100_000 + i);
        const model = openSpace(preset, p.space as SpaceId, pointSeed, p.tpc as number);
        generic ??= genericNote(model);
        const m = Measurement.from(preset, p, pointSeed);
        y[i] = averageChase(model, m, N, s, timedAccesses(N, s, p.traversals as number));
        progress(++done, total, `stride ${formatBytes(s)}`);
      });
      series.push({
        name: `s = ${formatBytes(s)}`,
        x: Float64Array.from(ns),
        y,
        xLabel: 'Array size N',
        xUnit: 'B',
        yLabel: 'Average latency',
        yUnit: 'cycles',
        style: 'line',
      });
    });
    const trav = p.traversals as number;
    const used: StrideCurve[] = [];
    const read: ReadCurve[] = series.map((se, i) => {
      const s = strides[i];
      // A size that is no whole multiple of the stride wraps the chase at an offset, so that later
      // traversals touch other addresses: the curve zig-zags between them. Only the multiples are read
      // when there are enough of them.
      const all = Array.from({ length: se.x.length }, (_, j) => j);
      const whole = all.filter((j) => se.x[j] % s === 0);
      const use = whole.length >= 8 && whole.length < all.length ? whole : all;
      used.push({ stride: s, label: se.name, x: use.map((j) => se.x[j]), y: use.map((j) => se.y[j]) });
      const a = analyseCurve(
        use.map((j) => se.x[j]),
        use.map((j) => se.y[j]),
        s,
        { loads: (N) => (N % s === 0 ? timedAccesses(N, s, trav) : 0) },
      );
      return { a, rd: readCurve(a) };
    });
    const findings = read.flatMap(({ a, rd }, i) => readingFindings(a, rd, strides[i], series[i].name));
    // Two strides or more: the hierarchy they agree on (sizes the stride does not move, plateaus two strides read alike).
    if (read.length >= 2) findings.push(...readHierarchy(read));
    // Readings that need no LRU fit: flat plateaus and L2 partitions, the line from capacity against stride.
    findings.push(...sweepPlateauFindings(used));
    return { series, tables: [], findings, notes: generic !== null ? [generic] : [] };
  },
};
