import { analyseBanks, bankFindings, CLASS_Z, degreeColumn, readDegree, stepCost, WARP, type BankSweep, type PairProbe, type ThreadProbe } from '../analysis/banks';
import { cannotTell } from '../analysis/cannot-tell';
import { conflictDegree, sharedLatency, type SharedBankMode, type SharedMemoryConfig } from '../model/shared';
import type { Preset } from '../presets/types';
import { resolveParams } from './params';
import { CLOCK_PARAM, JITTER_PARAM, Measurement } from './pchase';
import type { Experiment, Finding, ParamSpec, ParamValues, Series, Table } from './types';
import { ExperimentError } from './types';
import { Rng } from '../rng';

const params: ParamSpec[] = [
  { name: 'strideFrom', label: 'First stride', unit: 'words', kind: 'integer', default: 0, min: 0, max: 1024, description: 'Smallest stride between threads, in 4-byte words (0: every thread reads word 0, a broadcast).' },
  { name: 'strideTo', label: 'Last stride', unit: 'words', kind: 'integer', default: 64, min: 0, max: 1024, description: 'Largest stride (inclusive), in 4-byte words.' },
  { name: 'strideStep', label: 'Stride step', unit: 'words', kind: 'integer', default: 1, min: 1, max: 1024, description: 'Increment between strides (2 for MEI Fig 7, even strides).' },
  {
    name: 'mode',
    label: 'Bank-width mode',
    unit: '',
    kind: 'enum',
    default: 'all',
    options: ['all', 'default', '4-byte', '8-byte'],
    description: "Which bank-width mode to measure: all the preset's modes, its default, or one by name (8-byte exists on Kepler only).",
  },
  { name: 'accesses', label: 'Dependent accesses', unit: '', kind: 'integer', default: 64, min: 1, max: 100_000, description: 'Timed dependent loads per thread at each stride (MEI: 64); their latencies are averaged.' },
  {
    name: 'refine',
    label: 'Refine up to',
    unit: 'x accesses',
    kind: 'integer',
    default: 64,
    min: 1,
    max: 256,
    description:
      'Points whose conflict degree the noise leaves open (and the probes, when their steps are too close to the noise) are timed again with up to this many times the dependent accesses; 1: never.',
  },
  JITTER_PARAM,
  CLOCK_PARAM,
];

function strides(p: ParamValues): number[] {
  const from = p.strideFrom as number;
  const to = p.strideTo as number;
  if (to < from) throw new ExperimentError('parameter "strideTo" must not be smaller than "strideFrom"', 'strideTo');
  const out: number[] = [];
  for (let s = from; s <= to; s += p.strideStep as number) out.push(s);
  return out;
}

function modesOf(preset: Preset, mode: string): string[] {
  const names = Object.keys(preset.shared.modes);
  if (mode === 'all') return names;
  if (mode === 'default') return [preset.shared.defaultMode];
  if (!names.includes(mode))
    throw new ExperimentError(`parameter "mode" is ${mode}; ${preset.name} has ${names.join(', ')} (or all, default)`, 'mode');
  return [mode];
}

/**
 * The simulated hardware: one warp access where thread t reads words[t], or idles (predicated off)
 * where words[t] is undefined. Idle threads take no part in any bank.
 */
function warpLatency(cfg: SharedMemoryConfig, mode: SharedBankMode, words: readonly (number | undefined)[]): number {
  let worst = 1;
  for (let g = 0; g < words.length; g += cfg.issueGroup) {
    const active = words.slice(g, g + cfg.issueGroup).filter((w): w is number => w !== undefined);
    if (active.length) worst = Math.max(worst, conflictDegree(active, cfg.banks, mode, active.length));
  }
  return sharedLatency(cfg, worst);
}

/** Timed reads of one access: their count, mean and sum of squared deviations (Welford), extendable. */
class Timing {
  n = 0;
  mean = 0;
  private m2 = 0;
  constructor(
    private readonly m: Measurement,
    readonly latency: number,
  ) {}
  /** Times `count` more dependent reads. */
  more(count: number): this {
    for (let k = 0; k < count; k++) {
      const v = this.m.read(this.latency);
      this.n++;
      const d = v - this.mean;
      this.mean += d / this.n;
      this.m2 += d * (v - this.mean);
    }
    return this;
  }
  /** Standard error of the mean: sample standard deviation / sqrt(count); NaN for one read. */
  get se(): number {
    return this.n > 1 ? Math.sqrt(Math.max(0, this.m2) / (this.n - 1) / this.n) : NaN;
  }
}

/** Timed points per bank mode besides the sweep: 32 thread counts, up to 31 pair searches, 31 pair placements. */
const PROBE_POINTS = WARP + 2 * (WARP - 1);
/** Where no thread count at the slowest stride rises, the whole warp is timed at every stride up to this. */
const SEARCH_WORDS = 1024;

function timed(points: Timing[]): { latency: Float64Array; se: Float64Array } {
  return { latency: Float64Array.from(points, (p) => p.mean), se: Float64Array.from(points, (p) => p.se) };
}

export const sharedBankStride: Experiment = {
  id: 'shared-bank-stride',
  title: 'Shared memory: latency vs stride (bank conflicts)',
  description:
    'One warp reads shared memory at address = thread id x stride; the latency reveals the bank-conflict degree of every stride, per bank-width mode. Probes at the slowest stride (threads joining one at a time, a conflicting pair moved across threads) measure the cost of one conflict and the issue group.',
  reproduces: ['MEI-T1', 'MEI-F5', 'MEI-F7', 'WONG-SHM'],
  params,
  estimate(preset, raw) {
    const p = resolveParams(params, raw);
    return (strides(p).length + PROBE_POINTS) * modesOf(preset, p.mode as string).length * (p.accesses as number) * WARP;
  },
  run(preset, raw, seed, progress) {
    const p = resolveParams(params, raw);
    const ss = strides(p);
    const modes = modesOf(preset, p.mode as string);
    const cfg = preset.shared;
    const accesses = p.accesses as number;
    const refine = p.refine as number;
    const words = new Float64Array(WARP);
    const series: Series[] = [];
    const findings: Finding[] = [];
    const degreesByMode: (number | undefined)[][] = [];
    const columns: (number | string)[][] = [];
    const total = modes.length * (ss.length + PROBE_POINTS);
    let done = 0;
    let modeEnd = 0;
    const tick = (what: string): void => progress((done = Math.min(done + 1, modeEnd)), total, what);
    let refined = 0;
    modes.forEach((name, mi) => {
      const mode = cfg.modes[name];
      modeEnd = (mi + 1) * (ss.length + PROBE_POINTS);
      const m = Measurement.from(preset, p, Rng.derive(seed, mi));
      const prefix = modes.length > 1 ? `${name} mode, ` : '';
      // The simulated hardware serves the warp; the benchmark only sees the time it took.
      const sweep = ss.map((s) => {
        for (let t = 0; t < WARP; t++) words[t] = t * s;
        const t = new Timing(m, sharedLatency(cfg, conflictDegree(words, cfg.banks, mode, cfg.issueGroup))).more(accesses);
        tick(`${name} mode`);
        return t;
      });
      const sweepIndex = series.length;
      series.push({
        name: modes.length > 1 ? `${name} mode` : 'latency',
        x: Float64Array.from(ss),
        y: timed(sweep).latency,
        xLabel: 'Stride',
        xUnit: 'words',
        yLabel: 'Average latency',
        yUnit: 'cycles',
        style: 'line',
      });
      const sweepName = series[series.length - 1].name;
      const at = (words: readonly (number | undefined)[]): Timing => new Timing(m, warpLatency(cfg, mode, words)).more(accesses);
      // Probe 1: threads 0..n-1 active at one stride, n = 1..32; every step is 0 or one conflict.
      const threadsAt = (stride: number): Timing[] =>
        Array.from({ length: WARP }, (_, n) => {
          tick(`${name} mode: threads joining`);
          return at(Array.from({ length: n + 1 }, (_, i) => i * stride));
        });
      const asProbe = (stride: number, pts: Timing[]): ThreadProbe => ({ stride, ...timed(pts) });
      /** Steps too close to the noise: time every point again, up to `refine` x the accesses. */
      const sharpen = (stride: number, pts: Timing[]): ReturnType<typeof stepCost> => {
        let step = stepCost(asProbe(stride, pts));
        if (!step.ok && step.kind === 'noisy' && refine > 1) {
          pts.forEach((t) => t.more((refine - 1) * accesses));
          refined++;
          step = stepCost(asProbe(stride, pts));
        }
        return step;
      };
      let slowest = 0;
      for (let i = 1; i < ss.length; i++) if (sweep[i].mean > sweep[slowest].mean) slowest = i;
      let star = ss[slowest];
      let probePts = threadsAt(star);
      let step = sharpen(star, probePts);
      let search: string | undefined;
      if (!step.ok && step.kind === 'flat') {
        // No thread count rose at the slowest stride of the sweep: time the whole warp at every stride
        // 1..SEARCH_WORDS and probe at the slowest, if it is slower than one thread alone.
        const one = probePts[0];
        let best: Timing | undefined;
        let bestStride = 0;
        for (let w = 1; w <= SEARCH_WORDS; w++) {
          const t = at(Array.from({ length: WARP }, (_, i) => i * w));
          if (!best || t.mean > best.mean) [best, bestStride] = [t, w];
        }
        const rise = best ? best.mean - one.mean : 0;
        if (best && rise > Math.max(CLASS_Z * Math.hypot(best.se, one.se), 1e-9 * Math.max(1, one.mean))) {
          const pts = threadsAt(bestStride);
          const s2 = sharpen(bestStride, pts);
          if (s2.ok || s2.kind !== 'flat') {
            star = bestStride;
            probePts = pts;
            step = s2;
          } else search = `the whole warp at stride ${bestStride} looked slower, but threads joining there did not rise either`;
        } else
          search = `nor was the whole warp at any stride 1..${SEARCH_WORDS} slower than one thread alone${best && best.se > 0 ? ` by ${CLASS_Z} standard errors` : ''}`;
      }
      const probe = asProbe(star, probePts);
      series.push({ name: `${prefix}threads 0..n-1 at stride ${star}`, x: Float64Array.from({ length: WARP }, (_, i) => i + 1), y: Float64Array.from(probe.latency), xLabel: 'Active threads', xUnit: '', yLabel: 'Average latency', yUnit: 'cycles', style: 'line' });
      // Probe 2: a pair of words that conflicts, on thread 0 and thread n = 1..31.
      let pair: PairProbe | undefined;
      let pairPts: Timing[] = [];
      let pairNote: string | undefined;
      if (step.ok) {
        const { base, baseSe, cost, costSe, rises } = step.value;
        const k = rises[0];
        // Thread k raised the degree to 2: its word conflicts with the word of some thread j < k.
        let partner = k === 1 ? 0 : -1;
        for (let j = 0; partner < 0 && j < k; j++) {
          const t = at([j * star, k * star]);
          tick(`${name} mode: pair search`);
          let r = readDegree(t.mean, t.se, base, baseSe, cost, costSe);
          if (r.degree === undefined && refine > 1) r = readDegree(t.more((refine - 1) * accesses).mean, t.se, base, baseSe, cost, costSe);
          if (r.degree === 2) partner = j;
        }
        if (partner >= 0) {
          const w: [number, number] = [partner * star, k * star];
          pairPts = Array.from({ length: WARP - 1 }, (_, i) => {
            tick(`${name} mode: pair across threads`);
            return at(Array.from({ length: i + 2 }, (_, t) => (t === 0 ? w[0] : t === i + 1 ? w[1] : undefined)));
          });
          pair = { words: w, ...timed(pairPts) };
        } else pairNote = `no word of threads 0..${k - 1} at stride ${star} was found to conflict with thread ${k}'s alone`;
      }
      const sweepOf = (): BankSweep => ({ strides: ss, ...timed(sweep) });
      let a = analyseBanks(sweepOf(), probe, pair, { pair: pairNote, search });
      if (refine > 1 && a.cost.ok) {
        // Points the noise leaves open are timed again with more accesses, and read again.
        const open = a.readings.map((r, i) => (r.degree === undefined && !r.offLattice ? i : -1)).filter((i) => i >= 0);
        open.forEach((i) => sweep[i].more((refine - 1) * accesses));
        const pairOpen = pair && !a.issueGroup.ok && a.issueGroup.kind === 'noisy';
        if (pairOpen && pair) {
          pairPts.forEach((t) => t.more((refine - 1) * accesses));
          pair = { words: pair.words, ...timed(pairPts) };
        }
        if (open.length || pairOpen) {
          refined++;
          a = analyseBanks(sweepOf(), probe, pair, { pair: pairNote, search });
        }
      }
      series[sweepIndex].y = timed(sweep).latency;
      if (pair)
        series.push({ name: `${prefix}words ${pair.words[0]} and ${pair.words[1]} on threads 0 and n`, x: Float64Array.from({ length: WARP - 1 }, (_, i) => i + 1), y: Float64Array.from(pair.latency), xLabel: 'Second thread', xUnit: '', yLabel: 'Average latency', yUnit: 'cycles', style: 'line' });
      // Points skipped (a pair found at once) or added (a search, refinement) do not leave the bar short.
      done = modeEnd;
      progress(done, total, `${name} mode: read`);
      degreesByMode.push(a.degrees);
      columns.push(degreeColumn(a));
      // The default mode's findings keep the plain keys (shared.perConflict...) whichever modes are
      // measured, so that GPUs of one mode and of two share them (a sweep over Fermi and Kepler);
      // another mode's are keyed by it (shared.8-byte.perConflict).
      const qualified = modes.length > 1 && name !== cfg.defaultMode;
      const key = qualified ? `shared.${name}` : 'shared';
      findings.push(...bankFindings(key, ss, a, `series "${sweepName}"`, modes.length > 1 && !qualified ? `shared (${name} mode, the default)` : key));
    });
    const notes: string[] = [];
    const table: Table = {
      name: 'Conflict degree per stride (inferred from latency)',
      columns: [{ key: 'stride', label: 'Stride', unit: 'words' }, ...modes.map((m) => ({ key: m, label: `${m} mode`, unit: 'way' }))],
      rows: ss.map((s, i) => Object.fromEntries([['stride', s], ...modes.map((m, mi) => [m, columns[mi][i]])])),
    };
    if (modes.length === 2) {
      const [a, b] = degreesByMode;
      const keyNever = `shared.${modes[1]}.neverWorse`;
      const keyBetter = `shared.${modes[1]}.betterAt`;
      const labelNever = `${modes[1]} mode never worse than ${modes[0]}`;
      const labelBetter = `strides where ${modes[1]} mode has fewer conflicts`;
      if (a.every((d) => d !== undefined) && b.every((d) => d !== undefined)) {
        const never = a.every((d, i) => (b[i] as number) <= (d as number));
        findings.push({ key: keyNever, label: labelNever, value: never ? 'yes' : 'no', unit: '', evidence: `conflict degrees of the two modes at ${ss.length} strides` });
        const better = ss.filter((s, i) => (b[i] as number) < (a[i] as number));
        findings.push({ key: keyBetter, label: labelBetter, value: better.join(',') || 'none', unit: 'words', evidence: 'conflict-degree table' });
      } else {
        const why = "some strides' conflict degrees are not decided in one of the modes (see the table)";
        findings.push(cannotTell(keyNever, labelNever, why, 'time more accesses per point, or sweep strides that conflict'));
        findings.push(cannotTell(keyBetter, labelBetter, why, 'time more accesses per point, or sweep strides that conflict'));
      }
    }
    if (refined) notes.push(`Points the noise left open were timed again with up to ${refine}x the accesses (${refined} refinement${refined > 1 ? 's' : ''}); the series show the refined means.`);
    notes.push(
      `Latencies are the average of ${accesses} dependent accesses per stride, with their standard errors from the spread of the accesses; degrees are inferred from the latencies, not read from the preset.`,
      'The cost of one conflict is what one more thread adds at the slowest stride (each joining thread adds at most one conflicting access); degrees are read on the lattice conflict-free + (degree - 1) x cost, and left open ("cannot tell") where the noise does not decide them.',
    );
    return { series, tables: [table], findings, notes };
  },
};
