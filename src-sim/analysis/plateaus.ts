/**
 * Readings of an average-latency curve that need no LRU fit: its successive flat stretches
 * (plateaus), the size range and latency of each, and what they say together.
 *
 * - `readPlateaus`: the plateaus of one curve, each a run of points within the plateau tolerance
 *   of its median (six noise deviations, or 1 % of the latency where that is more: real GPUs drift
 *   by about that much along one level, an H100's L2 hits from 290.6 to 291.9 cycles between 2 and
 *   22 MB).
 * - `lineFromStrides`: the line size from the first-level capacity seen at each stride. A chase of
 *   stride s at or below the line L uses every byte of each line it touches, so the array fits while
 *   N <= C; above the line each element takes a line of its own and the array fits while
 *   N / s <= C / L: the capacity seen grows in proportion to the stride (WONG IV-B, MEI 4.1).
 * - `partitionFindings`: a curve that starts past the L1 and holds exactly three plateaus, the last to
 *   the end of the sweep, read as a partitioned L2: near partition, far partition, device memory.
 */
import { formatBytes } from '../bytes';
import type { Finding } from '../results';
import { cannotTell } from './cannot-tell';
import { median, noiseSigma } from './average-curve';

/** One flat stretch of a curve. */
export interface FlatStretch {
  /** Index range [from, to] of its points, inclusive. */
  from: number;
  to: number;
  xFrom: number;
  xTo: number;
  /** Median latency of its points. */
  latency: number;
  /** Lowest and highest latency of its points. */
  min: number;
  max: number;
}

export interface PlateauReading {
  plateaus: FlatStretch[];
  /** Robust noise of one point (noiseSigma). */
  sigma: number;
  /** Relative floor of the plateau tolerance. */
  relative: number;
}

/** Points a flat stretch needs to count as a plateau. */
export const PLATEAU_MIN_POINTS = 3;
/** Noise deviations a plateau's points may lie from its median. */
const PLATEAU_SIGMAS = 6;
/** Share of the latency a plateau's points may lie from its median, where that is more than the noise allows. */
export const PLATEAU_RELATIVE = 0.01;
/** Tolerance floor, cycles (noise-free simulated curves). */
const PLATEAU_FLOOR = 0.5;

/** How far from a plateau's median latency its points may lie. */
export function plateauTolerance(latency: number, sigma: number): number {
  return Math.max(PLATEAU_SIGMAS * sigma, PLATEAU_RELATIVE * Math.abs(latency), PLATEAU_FLOOR);
}

/**
 * The successive plateaus of a curve (sizes increasing): maximal runs of at least PLATEAU_MIN_POINTS
 * points that all lie within the tolerance of the run's median. Points in no run are the rises between.
 */
export function readPlateaus(x: ArrayLike<number>, y: ArrayLike<number>): PlateauReading {
  const n = Math.min(x.length, y.length);
  const sigma = noiseSigma(y);
  const plateaus: FlatStretch[] = [];
  const fits = (from: number, to: number): boolean => {
    const vals: number[] = [];
    for (let k = from; k <= to; k++) vals.push(y[k]);
    const m = median(vals);
    const tol = plateauTolerance(m, sigma);
    return vals.every((v) => Math.abs(v - m) <= tol);
  };
  let i = 0;
  while (i < n) {
    let j = i;
    while (j + 1 < n && fits(i, j + 1)) j++;
    if (j - i + 1 >= PLATEAU_MIN_POINTS) {
      const vals: number[] = [];
      for (let k = i; k <= j; k++) vals.push(y[k]);
      plateaus.push({ from: i, to: j, xFrom: x[i], xTo: x[j], latency: median(vals), min: Math.min(...vals), max: Math.max(...vals) });
      i = j + 1;
    } else i++;
  }
  return { plateaus, sigma, relative: PLATEAU_RELATIVE };
}

const cyc = (v: number): string => v.toFixed(1);

/** One plateau's range and latency in words. */
export function describePlateau(p: FlatStretch): string {
  return `${cyc(p.latency)} cycles over ${formatBytes(p.xFrom)}..${formatBytes(p.xTo)} (${p.to - p.from + 1} points, ${cyc(p.min)}..${cyc(p.max)})`;
}

/** The size step after a plateau's last point (the resolution of where it ends). */
function stepAfter(x: ArrayLike<number>, p: FlatStretch): number {
  return p.to + 1 < x.length ? x[p.to + 1] - x[p.to] : p.to > 0 ? x[p.to] - x[p.to - 1] : 0;
}

/** Plateau findings of one curve: how many, and each one's latency and size range. */
export function plateauFindings(x: ArrayLike<number>, y: ArrayLike<number>, label: string, reading = readPlateaus(x, y)): Finding[] {
  const { plateaus, sigma } = reading;
  const out: Finding[] = [
    {
      key: `${label}.plateaus`,
      label: `${label}: flat plateaus`,
      value: plateaus.length,
      unit: '',
      evidence: plateaus.length
        ? `runs of ${PLATEAU_MIN_POINTS} points or more within ${PLATEAU_SIGMAS} noise deviations (${cyc(sigma)} cycles a point) or ${PLATEAU_RELATIVE * 100} % of their median latency: ${plateaus.map(describePlateau).join('; ')}`
        : `no ${PLATEAU_MIN_POINTS} neighbouring points stay within ${PLATEAU_SIGMAS} noise deviations (${cyc(sigma)} cycles a point) or ${PLATEAU_RELATIVE * 100} % of their latency`,
    },
  ];
  plateaus.forEach((p, k) => {
    out.push({ key: `${label}.flat${k + 1}.latency`, label: `${label}: flat plateau ${k + 1} latency`, value: Math.round(p.latency * 10) / 10, unit: 'cycles', evidence: describePlateau(p) });
    out.push({ key: `${label}.flat${k + 1}.toBytes`, label: `${label}: flat plateau ${k + 1} holds up to`, value: p.xTo, unit: 'B', evidence: `the last size on the plateau; ${p.to + 1 < x.length ? `the next, ${formatBytes(x[p.to + 1])}, is off it` : 'the sweep ends on it'}` });
  });
  return out;
}

/**
 * A partitioned L2 read from one curve's plateaus: the first is the near partition's hits, the last
 * (reaching the end of the sweep) device memory, and the one before it the far partition's hits.
 * `l2Bytes`, where the device reports it, is set beside the total.
 */
export function partitionFindings(x: ArrayLike<number>, y: ArrayLike<number>, label: string, reading = readPlateaus(x, y), l2Bytes?: number): Finding[] {
  const k = `${label}.partition`;
  const { plateaus } = reading;
  const n = Math.min(x.length, y.length);
  const keys = [
    ['nearBytes', 'near L2 partition size'],
    ['farLatency', 'far L2 partition latency'],
    ['totalBytes', 'L2 size (both partitions)'],
    ['dramLatency', 'device memory latency past the L2'],
  ] as const;
  const none = (why: string, next: string): Finding[] => keys.map(([key, name]) => cannotTell(`${k}.${key}`, `${label}: ${name}`, why, next));
  if (n < 2 * PLATEAU_MIN_POINTS) return none(`${n} sizes: too few for plateaus`, 'a longer sweep');
  const list = plateaus.map(describePlateau).join('; ') || 'none';
  if (plateaus.length < 3)
    return none(
      `the curve holds ${plateaus.length} flat plateau(s) (${list}); a near partition, a far one and device memory need three`,
      'a sweep from well below to well past the L2 size (twice it), more traversals (less noise) or a finer size step',
    );
  const last = plateaus[plateaus.length - 1];
  if (last.to !== n - 1)
    return none(`the last flat plateau (${describePlateau(last)}) ends before the sweep does: the curve climbs on past it, so it need not be device memory`, 'a wider sweep (larger sizeTo)');
  if (plateaus.length > 3)
    return none(`the curve holds ${plateaus.length} flat plateaus (${list}): more than near, far and device memory (a further level, or a curve that creeps up between plateaus)`, 'more traversals (less noise), or a finer size step about each rise');
  const [near, far] = plateaus;
  if (!(near.latency < far.latency && far.latency < last.latency))
    return none(`the plateaus do not rise in turn (${list})`, 'more traversals (less noise)');
  const nearStep = stepAfter(x, near);
  const farStep = stepAfter(x, far);
  const device = l2Bytes ? `; the device reports ${formatBytes(l2Bytes)} of L2` : '';
  const caution = 'a plateau between the L2 hits and device memory may also be a further cache level: the size the device reports tells which';
  return [
    {
      key: `${k}.nearBytes`,
      label: `${label}: near L2 partition size`,
      value: near.xTo,
      unit: 'B',
      evidence: `the first plateau (${describePlateau(near)}) ends between ${formatBytes(near.xTo)} and ${formatBytes(near.xTo + nearStep)}: the data the near partition keeps`,
    },
    {
      key: `${k}.farLatency`,
      label: `${label}: far L2 partition latency`,
      value: Math.round(far.latency * 10) / 10,
      unit: 'cycles',
      evidence: `the plateau before device memory (${describePlateau(far)}), ${(far.latency / near.latency).toFixed(2)} x the near plateau: hits in the far partition; ${caution}`,
    },
    {
      key: `${k}.totalBytes`,
      label: `${label}: L2 size (both partitions)`,
      value: far.xTo,
      unit: 'B',
      evidence: `the last plateau before device memory ends between ${formatBytes(far.xTo)} and ${formatBytes(far.xTo + farStep)}${device}`,
    },
    {
      key: `${k}.dramLatency`,
      label: `${label}: device memory latency past the L2`,
      value: Math.round(last.latency * 10) / 10,
      unit: 'cycles',
      evidence: `the plateau that runs to the end of the sweep (${describePlateau(last)})`,
    },
  ];
}

/** The first-level capacity seen at one stride. */
export interface StrideCapacity {
  stride: number;
  /** The last size on the first plateau (bytes), or null where the curve does not start on one or never leaves it. */
  capacity: number | null;
  /** Size step after it (bytes): how well the capacity is resolved. */
  step: number;
  /** Why there is no capacity. */
  why?: string;
}

/** The size where a curve leaves its first plateau, as `StrideCapacity`. */
export function firstCapacity(x: ArrayLike<number>, y: ArrayLike<number>, stride: number, reading = readPlateaus(x, y)): StrideCapacity {
  const p = reading.plateaus[0];
  if (!p || p.from !== 0) return { stride, capacity: null, step: 0, why: 'the curve does not start on a flat plateau' };
  if (p.to === Math.min(x.length, y.length) - 1) return { stride, capacity: null, step: 0, why: `the curve stays on its first plateau to the end of the sweep (${formatBytes(p.xTo)})` };
  return { stride, capacity: p.xTo, step: stepAfter(x, p) };
}

/** The most ways a cache that picks its set by address bits is taken to have (as one way, a capacity over stride above this is a line). */
const MAX_WAYS = 128;

/**
 * The line size from the first-level capacity at each stride: the largest stride up to which the
 * capacity stays the same (within the size step), when every stride past it sees a capacity in
 * proportion to the stride. `sectorBytes` is not read here: below the line a sectored cache keeps
 * whole lines' tags, so the capacity does not move at the sector.
 */
export function lineFromStrides(caps: StrideCapacity[], label = 'first level'): Finding {
  const key = 'line.fromStrides';
  const name = `Line size from ${label} capacity against stride`;
  const read = caps.filter((c) => c.capacity !== null).sort((a, b) => a.stride - b.stride) as (StrideCapacity & { capacity: number })[];
  const list = caps
    .slice()
    .sort((a, b) => a.stride - b.stride)
    .map((c) => (c.capacity === null ? `${formatBytes(c.stride)}: none (${c.why})` : `${formatBytes(c.stride)}: ${formatBytes(c.capacity)}`))
    .join(', ');
  const what =
    'this reads the line a tag covers: where lines are sectored (Volta to Hopper L1s of 128 B lines in 32 B sectors, MEI) a chase below the line still fills whole lines\u2019 tags, so the sector does not show here (a cold fine-grained trace shows the unit a miss brings in)';
  if (read.length < 2) return cannotTell(key, name, `the first-level capacity is read at ${read.length} stride(s) (${list})`, 'a sweep at three strides or more, two at or below the line and one above (e.g. 32, 128, 512 B)');
  const same = (a: StrideCapacity & { capacity: number }, b: StrideCapacity & { capacity: number }): boolean => Math.abs(a.capacity - b.capacity) <= Math.max(a.step, b.step);
  let g = 1;
  while (g < read.length && same(read[g], read[0])) g++;
  const group = read.slice(0, g);
  const above = read.slice(g);
  const C = median(group.map((c) => c.capacity));
  const L = group[group.length - 1].stride;
  if (above.length === 0)
    return cannotTell(
      key,
      name,
      `the capacity stays ${formatBytes(C)} at every stride read (${list}): the line is ${formatBytes(L)} or larger, or the cache picks its set by address bits (the capacity then stays up to one way, sets x line)`,
      `a sweep at strides above ${formatBytes(L)} (${formatBytes(2 * L)}, ${formatBytes(4 * L)}) up to a few KB`,
    );
  // Past the line each element takes a line: capacity C x s / L, resolved to a size step and to C's own step scaled up.
  const fit = (c: StrideCapacity & { capacity: number }): boolean => {
    const expect = (C * c.stride) / L;
    const tol = c.step + (c.stride / L) * Math.max(...group.map((q) => q.step));
    return Math.abs(c.capacity - expect) <= tol;
  };
  const growth = above.map((c) => `${formatBytes(c.stride)}: ${(c.capacity / C).toFixed(2)} x at ${(c.stride / L).toFixed(2)} x the stride`).join(', ');
  if (g === 1) {
    const prop = above.every((c) => Math.abs(c.capacity / c.stride - read[0].capacity / read[0].stride) <= c.step / c.stride + read[0].step / read[0].stride);
    return cannotTell(
      key,
      name,
      prop
        ? `the capacity grows with the stride from the smallest one read (${list}): the line is ${formatBytes(read[0].stride)} or smaller`
        : `no two strides see the same capacity and the capacities do not grow in proportion to the stride (${list})`,
      `a sweep at strides below ${formatBytes(read[0].stride)} (down to 32 B)`,
    );
  }
  if (above.every(fit)) {
    const once = above.length === 1 ? `; one stride above the line shows the growth (a sweep at ${formatBytes(4 * L)} would check it again)` : '';
    // Sets chosen by address bits keep the capacity up to one way (sets x line: each stride doubling
    // halves the sets it reaches) and grow it past that; the same curves then mark a way, not a line.
    const ways = C / L;
    if (ways <= MAX_WAYS)
      return cannotTell(
        key,
        name,
        `first-level capacity per stride: ${list}; it stays ${formatBytes(C)} up to ${formatBytes(L)} and past it grows in proportion to the stride (${growth}): ${formatBytes(L)} is the line where strides above it reach every set, or one way (sets x line, ${+ways.toFixed(2)} ways of ${formatBytes(L)}) where the cache picks its set by address bits`,
        `the LRU fit's line (level1.lineBytes) at a stride below ${formatBytes(L)}, or a sweep at strides between 32 B and ${formatBytes(L)}`,
      );
    return {
      key,
      label: name,
      value: L,
      unit: 'B',
      evidence: `first-level capacity per stride: ${list}; it stays ${formatBytes(C)} up to ${formatBytes(L)} and past it grows in proportion to the stride (${growth}): one element a line${once}; as one way of a cache that picks its set by address bits, ${formatBytes(L)} would need ${Math.round(ways)} ways, so strides above the line reach every set; ${what}`,
    };
  }
  // Growth, but not in proportion from L: the line may lie between two strides read.
  const next = above[0];
  const implied = (C * next.stride) / next.capacity;
  const between = implied > L && implied < next.stride;
  return cannotTell(
    key,
    name,
    between
      ? `the capacity stays ${formatBytes(C)} up to ${formatBytes(L)} and grows less than the stride past it (${growth}): the line would be about ${formatBytes(Math.round(implied))}, between the strides read (${list})`
      : `the capacity stays ${formatBytes(C)} up to ${formatBytes(L)} but past it neither stays nor grows in proportion to the stride (${growth}; ${list})`,
    between ? `a sweep at strides between ${formatBytes(L)} and ${formatBytes(next.stride)}` : 'more traversals (less noise), a finer size step, or strides further above the line',
  );
}

/** Sweeps that start at this many bytes or more start past the first-level caches: their plateaus are read as L2 partitions. */
export const PARTITION_SWEEP_BYTES = 1024 * 1024;

/** One curve of a multi-stride sweep. */
export interface StrideCurve {
  stride: number;
  label: string;
  x: ArrayLike<number>;
  y: ArrayLike<number>;
}

/**
 * The plateau readings of a pchase-average sweep: per curve that starts past the first-level caches
 * (PARTITION_SWEEP_BYTES) its flat plateaus and the partitioned-L2 reading (from below the L1 the first
 * plateau would be the L1's); over two strides or more, the line from capacity against stride.
 */
export function sweepPlateauFindings(curves: StrideCurve[], l2Bytes?: number): Finding[] {
  const out: Finding[] = [];
  const caps: StrideCapacity[] = [];
  for (const c of curves) {
    const r = readPlateaus(c.x, c.y);
    caps.push(firstCapacity(c.x, c.y, c.stride, r));
    if (c.x.length && c.x[0] >= PARTITION_SWEEP_BYTES) out.push(...plateauFindings(c.x, c.y, c.label, r), ...partitionFindings(c.x, c.y, c.label, r, l2Bytes));
  }
  if (curves.length >= 2) out.push(lineFromStrides(caps));
  return out;
}
