import type { Finding } from '../results';
import { CANNOT_TELL, cannotTell } from './cannot-tell';
import { describeLevels, formatConfidence, separateLevels } from './levels';

/**
 * Shared-memory bank conflicts from timed warp accesses (MEI 4.1, Figs 5, 7), measurements only.
 *
 * What the analysis relies on, and checks:
 *  - one thread alone cannot conflict: the one-thread access is the conflict-free latency;
 *  - adding one thread to an access adds at most one conflicting row to one bank, so the latency of a
 *    warp rises, as threads join, in steps that are all 0 or one cost c (the cost of one more
 *    conflicting access); a step that is neither, or a fall, says the latency is not serialised
 *    conflicts at a constant cost, and nothing further is inferred;
 *  - every stride's latency then sits on the lattice base + (degree - 1) c; a latency off the lattice,
 *    or too close to the midpoint between two rungs for its noise, leaves that stride's degree open;
 *  - the cost and the degrees are identified by what moves them (threads joining one at a time, a
 *    known conflicting pair moved across thread ids), never by the rank of a latency level.
 * Each decision is made only when it stands at least CLASS_Z standard errors from its boundary
 * (noise-free measurements: exactly); otherwise the finding is "cannot tell", with what to run next.
 */

/** Mean latencies and their standard errors (sample standard deviation over sqrt(accesses); 0 noise-free, NaN unknown). */
export interface Timed {
  latency: ArrayLike<number>;
  se: ArrayLike<number>;
}

/** One warp, thread t at word t x stride, per stride. */
export interface BankSweep extends Timed {
  strides: readonly number[];
}

/** Threads 0..n-1 of one warp at word t x stride (the rest idle); latency[n - 1] for n = 1..32. */
export interface ThreadProbe extends Timed {
  stride: number;
}

/** Thread 0 at words[0] and thread n at words[1] (the rest idle); latency[n - 1] for n = 1..31. */
export interface PairProbe extends Timed {
  words: readonly [number, number];
}

/** A decision stands this many standard errors from its boundary (two-sided p below 6e-7). */
export const CLASS_Z = 5;
/** A value further than this many standard errors from what the model predicts breaks an assumption. */
export const SPREAD_Z = 4.5;
/** Threads of the timed warp. */
export const WARP = 32;

const rounding = (v: number): number => 1e-9 * Math.max(1, Math.abs(v));

/**
 * A decided value with its evidence, or why it is open and what would decide it. `kind` says why:
 * 'flat' (nothing rose above the noise), 'noisy' (a rise too close to the noise to classify),
 * 'inconsistent' (the measurements break an assumption), 'unknown' (no noise estimate, no data).
 */
export type Decision<T> = { ok: true; value: T; evidence: string } | { ok: false; reason: string; next: string; kind?: 'flat' | 'noisy' | 'inconsistent' | 'unknown' };

/** The cost of one more conflicting access, read from threads joining one at a time. */
export interface StepCost {
  /** Latency of one thread alone (conflict-free) and its standard error. */
  base: number;
  baseSe: number;
  cost: number;
  costSe: number;
  /** Threads whose joining raised the latency by one step (the first thread is 0). */
  rises: number[];
  /** Conflict degree of the probe's stride with all 32 threads. */
  degree: number;
}

function unknownNoise(t: Timed): boolean {
  for (let i = 0; i < t.se.length; i++) if (Number.isNaN(t.se[i])) return true;
  return false;
}

const ONE_ACCESS = { reason: 'the noise of each point is unknown (one access per point)', next: 'time at least 2 dependent accesses per point' };

/**
 * Threads joining one at a time: every step is 0 or one cost c. Refuses (with the reason) when no step
 * rises above the noise, when a step falls, when a step is neither 0 nor c, or when the steps are too
 * close to the noise to be classified at CLASS_Z standard errors.
 */
export function stepCost(probe: ThreadProbe): Decision<StepCost> {
  const y = probe.latency;
  const se = probe.se;
  const n = y.length;
  if (n < 2) return { ok: false, kind: 'unknown', reason: 'the thread probe has fewer than two points', next: 'time the warp with 1 to 32 threads active' };
  if (unknownNoise(probe)) return { ok: false, kind: 'unknown', ...ONE_ACCESS };
  const steps: { k: number; d: number; s: number }[] = [];
  for (let k = 1; k < n; k++) steps.push({ k, d: y[k] - y[k - 1], s: Math.hypot(se[k], se[k - 1]) });
  const fall = steps.find((x) => x.d < -Math.max(SPREAD_Z * x.s, rounding(y[x.k])));
  if (fall)
    return {
      ok: false,
      kind: 'inconsistent',
      reason: `at stride ${probe.stride} the latency fell by ${(-fall.d).toFixed(2)} cycles when thread ${fall.k} joined: not serialised bank conflicts`,
      next: 'check the measurement (clock overhead, other warps); repeat with more accesses per point',
    };
  const rising = steps.filter((x) => x.d > Math.max(4 * x.s, rounding(y[x.k])));
  const maxS = Math.max(...steps.map((x) => x.s));
  if (!rising.length) {
    const bound = maxS > 0 ? `${(CLASS_Z * maxS).toFixed(2)} cycles` : 'a rounding error (no noise)';
    return {
      ok: false,
      kind: 'flat',
      reason: `with 1 to ${n} threads at stride ${probe.stride} no thread raised the latency by more than ${bound}: conflicts cost less than that, or this stride does not conflict`,
      next: 'sweep strides up to a large power of two (1024 words) so that some stride conflicts; with noise, time more accesses per point',
    };
  }
  const c0 = rising.reduce((a, x) => a + x.d, 0) / rising.length;
  const z = maxS > 0 ? c0 / 2 / maxS : Infinity;
  if (z < CLASS_Z) {
    const factor = Math.ceil((CLASS_Z / z) ** 2);
    return {
      ok: false,
      kind: 'noisy',
      reason: `threads joining at stride ${probe.stride} raise the latency by about ${c0.toFixed(2)} cycles, only ${z.toFixed(1)} standard errors from the midpoint between no step and one step (${CLASS_Z} needed): some steps could be misread`,
      next: `time about ${factor}x as many accesses per point (the standard error falls with its square root)`,
    };
  }
  const rises: number[] = [];
  for (const x of steps) {
    const rise = x.d > c0 / 2;
    const off = Math.abs(x.d - (rise ? c0 : 0));
    if (off > Math.max(SPREAD_Z * x.s, rounding(y[x.k]) + rounding(c0)))
      return {
        ok: false,
        kind: 'inconsistent',
        reason: `when thread ${x.k} joined at stride ${probe.stride} the latency rose by ${x.d.toFixed(2)} cycles, neither 0 nor the ${c0.toFixed(2)}-cycle step of the others: the cost per conflict is not one constant step`,
        next: 'time the probe again with more accesses per point; if it persists, conflicts here do not cost a fixed time each',
      };
    if (rise) rises.push(x.k);
  }
  const cost = (y[n - 1] - y[0]) / rises.length;
  const costSe = Math.hypot(se[n - 1], se[0]) / rises.length;
  return {
    ok: true,
    value: { base: y[0], baseSe: se[0], cost, costSe, rises, degree: 1 + rises.length },
    evidence: `threads 0..${n - 1} joining one at a time at stride ${probe.stride}: ${rises.length} of ${n - 1} raised the latency by one step (threads ${rises.join(', ')}), the others by nothing; each step ${formatConfidence(z * 2)} from no step`,
  };
}

/** A latency read on the lattice base + (degree - 1) cost: the degree, or why it stays open. */
export interface DegreeReading {
  /** The decided degree, or undefined. */
  degree?: number;
  /** (latency - base) / cost + 1, and its standard error. */
  estimate: number;
  sd: number;
  /** Smallest and largest degree the reading allows (CLASS_Z standard errors). */
  low: number;
  high: number;
  /** Off the lattice: further than SPREAD_Z standard errors from every rung. */
  offLattice: boolean;
}

export function readDegree(latency: number, se: number, base: number, baseSe: number, cost: number, costSe: number): DegreeReading {
  const rise = latency - base;
  const estimate = 1 + rise / cost;
  const sd = Math.hypot(se, baseSe, (rise * costSe) / cost) / cost;
  const k = Math.max(1, Math.round(estimate));
  const tiny = (rounding(latency) + rounding(base)) / cost + 1e-9;
  const off = Math.abs(estimate - k);
  const offLattice = off > SPREAD_Z * sd + tiny;
  const low = Math.max(1, Math.ceil(estimate - CLASS_Z * sd - tiny));
  const high = Math.max(1, Math.floor(estimate + CLASS_Z * sd + tiny));
  const decided = !offLattice && 0.5 - off >= CLASS_Z * sd && k <= WARP;
  return { degree: decided ? k : undefined, estimate, sd, low, high: Math.min(high, WARP), offLattice };
}

export interface BankAnalysis {
  /** Conflict-free latency and its standard error; the cost per further conflicting access, when decided. */
  base: number;
  baseSe: number;
  cost: Decision<{ cost: number; costSe: number }>;
  /** Per stride, in the order of the sweep. */
  readings: DegreeReading[];
  /** Conflict degree per stride (1 = conflict-free); undefined where the latency does not decide it. */
  degrees: (number | undefined)[];
  /** The threads served together, from the pair probe (or 32 when some stride reaches 32-way). */
  issueGroup: Decision<number>;
  /** What the probe at the slowest stride showed, for the findings' evidence. */
  probeEvidence: string;
  /** The sweep's latency levels, separated by what the data support. */
  levels: string;
}

interface LatticeFit {
  base: number;
  baseSe: number;
  cost: number;
  costSe: number;
}

/** A timed point with its decided number of conflict steps k (degree - 1). */
interface LatticePoint {
  y: number;
  se: number;
  k: number;
}

/**
 * Weighted least squares of y = base + k x cost (weights 1 / se^2), with the standard errors of both;
 * noise-free points fit exactly (equal weights, no error). Undefined without two distinct k.
 */
function fitLattice(points: LatticePoint[]): LatticeFit | undefined {
  const exact = points.some((p) => !(p.se > 0));
  let S = 0;
  let Sk = 0;
  let Skk = 0;
  let Sy = 0;
  let Sky = 0;
  for (const p of points) {
    const w = exact ? 1 : 1 / p.se ** 2;
    S += w;
    Sk += w * p.k;
    Skk += w * p.k * p.k;
    Sy += w * p.y;
    Sky += w * p.k * p.y;
  }
  const det = S * Skk - Sk * Sk;
  if (!(det > 0)) return undefined;
  const cost = (S * Sky - Sk * Sy) / det;
  if (!(cost > 0)) return undefined;
  return {
    base: (Skk * Sy - Sk * Sky) / det,
    baseSe: exact ? 0 : Math.sqrt(Skk / det),
    cost,
    costSe: exact ? 0 : Math.sqrt(S / det),
  };
}

/** The issue group from a conflicting pair moved across thread ids: it conflicts while thread n shares thread 0's group. */
export function issueGroupOf(pair: PairProbe, base: number, baseSe: number, cost: number, costSe: number): Decision<number> {
  if (unknownNoise(pair)) return { ok: false, ...ONE_ACCESS };
  const conflict: boolean[] = [];
  for (let i = 0; i < pair.latency.length; i++) {
    const r = readDegree(pair.latency[i], pair.se[i], base, baseSe, cost, costSe);
    if (r.degree === undefined || r.degree > 2)
      return {
        ok: false,
        kind: 'noisy',
        reason: `the pair of words ${pair.words[0]} and ${pair.words[1]} on threads 0 and ${i + 1} timed ${pair.latency[i].toFixed(2)} cycles, not clearly 1- or 2-way`,
        next: 'time the pair probe with more accesses per point',
      };
    conflict.push(r.degree === 2);
  }
  if (!conflict[0])
    return { ok: false, reason: `words ${pair.words[0]} and ${pair.words[1]} do not conflict on threads 0 and 1`, next: 'probe with a pair of words that conflicts' };
  const first = conflict.indexOf(false);
  const group = first < 0 ? WARP : first + 1;
  if (first >= 0 && conflict.slice(first).some((x) => x))
    return {
      ok: false,
      reason: `the pair conflicts on threads 0 and ${first + 1 + conflict.slice(first).indexOf(true)} after not conflicting on threads 0 and ${first + 1}: threads are not served in contiguous groups`,
      next: 'time the pair probe again; if it persists, the issue grouping is not a run of consecutive threads',
    };
  return {
    ok: true,
    value: group,
    evidence:
      first < 0
        ? `words ${pair.words[0]} and ${pair.words[1]} conflict with thread 0 on every thread 1..${pair.latency.length}: the whole warp is served together`
        : `words ${pair.words[0]} and ${pair.words[1]} conflict on threads 0 and 1..${first}, never from thread ${first + 1} on: threads 0..${first} are served together`,
  };
}

/** Sweep, thread probe and (when one was found) pair probe, read together. */
export function analyseBanks(sweep: BankSweep, probe: ThreadProbe, pair?: PairProbe, notes: { pair?: string; search?: string } = {}): BankAnalysis {
  const sep = separateLevels(sweep.latency, sweep.se);
  const levels = sep.resolved
    ? `${sep.levels.length} latency level${sep.levels.length > 1 ? 's' : ''} over the sweep: ${describeLevels(sep)}`
    : `the sweep's latency levels are not resolved: ${sep.problem ?? ''}`;
  let step = stepCost(probe);
  if (!step.ok && step.kind === 'flat' && notes.search)
    step = {
      ...step,
      reason: `${step.reason}; ${notes.search}: conflicts here cost nothing measurable, or none of these accesses conflicts, so no conflict degree can be read`,
      next: 'with noise, time more accesses per point (a smaller cost then shows); without noise, nothing more can show a cost the latency does not have',
    };
  const pairNote = notes.pair;
  const n = sweep.latency.length;
  if (!step.ok) {
    const one = probe.latency.length ? probe.latency[0] : NaN;
    return {
      base: one,
      baseSe: probe.se.length ? probe.se[0] : NaN,
      cost: step,
      readings: [],
      degrees: new Array<number | undefined>(n).fill(undefined),
      issueGroup: { ok: false, reason: 'the cost per conflict is not decided', next: step.next },
      probeEvidence: step.reason,
      levels,
    };
  }
  const s = step.value;
  // First pass from the probe alone; then base and cost fitted over every point whose degree is decided
  // (the probe's thread counts and the sweep's strides), twice: each pass decides more strides.
  const read = (f: LatticeFit): DegreeReading[] => Array.from({ length: n }, (_, i) => readDegree(sweep.latency[i], sweep.se[i], f.base, f.baseSe, f.cost, f.costSe));
  let fit: LatticeFit = { base: s.base, baseSe: s.baseSe, cost: s.cost, costSe: s.costSe };
  let readings = read(fit);
  const probeSteps = Array.from({ length: probe.latency.length }, (_, i) => s.rises.filter((k) => k <= i).length);
  for (let pass = 0; pass < 2; pass++) {
    const points: LatticePoint[] = probeSteps.map((k, i) => ({ y: probe.latency[i], se: probe.se[i], k }));
    readings.forEach((r, i) => {
      if (r.degree !== undefined) points.push({ y: sweep.latency[i], se: sweep.se[i], k: r.degree - 1 });
    });
    fit = fitLattice(points) ?? fit;
    readings = read(fit);
  }
  const degrees = readings.map((r) => r.degree);
  let issueGroup: Decision<number>;
  const max = Math.max(0, ...degrees.map((d) => d ?? 0));
  if (pair) issueGroup = issueGroupOf(pair, fit.base, fit.baseSe, fit.cost, fit.costSe);
  else issueGroup = { ok: false, reason: pairNote || 'no pair of conflicting words was found to move across threads', next: 'sweep strides that conflict (multiples of larger powers of two)' };
  if (!issueGroup.ok && max === WARP) issueGroup = { ok: true, value: WARP, evidence: `some stride conflicts ${WARP}-way: all ${WARP} threads of the warp are served together` };
  return {
    base: fit.base,
    baseSe: fit.baseSe,
    cost: { ok: true, value: { cost: fit.cost, costSe: fit.costSe }, evidence: `${step.evidence}; fitted with the conflict-free latency over every point whose degree is decided` },
    readings,
    degrees,
    issueGroup,
    probeEvidence: step.evidence,
    levels,
  };
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

/** Whether the degrees follow MEI's rule for Fermi: degree = gcd(stride, banks) (stride 0 broadcasts). */
export function followsGcdRule(strides: readonly number[], degrees: readonly (number | undefined)[], banks: number): boolean {
  return strides.every((s, i) => degrees[i] === (s === 0 ? 1 : gcd(s, banks)));
}

/** Conflict degrees as a table column: the decided degree, or "cannot tell". */
export function degreeColumn(a: BankAnalysis): (number | string)[] {
  return a.degrees.map((d) => d ?? CANNOT_TELL);
}

const round2 = (v: number): number => Math.round(v * 100) / 100;
const ci = (se: number): string => (se > 0 ? ` +- ${(1.96 * se).toFixed(2)} (95 %)` : ' (noise-free)');

export function bankFindings(key: string, strides: readonly number[], a: BankAnalysis, evidence: string, label = key): Finding[] {
  const out: Finding[] = [];
  const open = a.degrees.filter((d) => d === undefined).length;
  out.push({
    key: `${key}.base`,
    label: `${label}: conflict-free latency`,
    value: round2(a.base),
    unit: 'cycles',
    evidence: `${evidence}: one thread alone (it cannot conflict)${a.cost.ok ? ', fitted with the cost over every point whose degree is decided' : ''}, ${round2(a.base)}${ci(a.baseSe)} cycles; ${a.levels}`,
  });
  if (!a.cost.ok) {
    out.push(cannotTell(`${key}.perConflict`, `${label}: cycles per further conflicting access`, a.cost.reason, a.cost.next));
    for (const [k, l] of [
      ['maxDegree', 'largest conflict degree'],
      ['issueGroup', 'threads served together (issue group)'],
      ['repeatWords', 'smallest stride putting a whole issue group in one bank'],
      ['oddConflictFree', 'odd strides conflict-free'],
      ['rule', 'conflict degree rule'],
    ] as const)
      out.push(cannotTell(`${key}.${k}`, `${label}: ${l}`, `no degree can be read without the cost per conflict, which is open (see ${key}.perConflict)`, a.cost.next));
    return out;
  }
  const { cost, costSe } = a.cost.value;
  out.push({
    key: `${key}.perConflict`,
    label: `${label}: cycles per further conflicting access`,
    value: round2(cost),
    unit: 'cycles',
    evidence: `${evidence}: ${round2(cost)}${ci(costSe)} cycles; ${a.cost.evidence}`,
  });
  const offLattice = a.readings.map((r, i) => [strides[i], r] as const).filter(([, r]) => r.offLattice);
  const openNote = open
    ? `${open} of ${strides.length} strides' degrees stay open (${offLattice.length ? `${offLattice.length} off the lattice base + (degree - 1) x ${round2(cost)}, e.g. stride ${offLattice[0][0]}; ` : ''}too close to a midpoint for their noise otherwise)`
    : '';
  const nextMore = 'time more accesses per point (the standard error falls with its square root)';
  // Largest degree: decided when no open stride could exceed the largest decided one.
  const decided = a.degrees.filter((d): d is number => d !== undefined);
  const maxDecided = decided.length ? Math.max(...decided) : 0;
  const maxOpen = Math.max(0, ...a.readings.filter((r) => r.degree === undefined).map((r) => r.high));
  const maxDegree = maxDecided >= maxOpen && maxDecided > 0 ? maxDecided : undefined;
  if (maxDegree !== undefined)
    out.push({
      key: `${key}.maxDegree`,
      label: `${label}: largest conflict degree`,
      value: maxDegree,
      unit: 'way',
      evidence: `${evidence}: the slowest strides sit ${maxDegree - 1} steps of ${round2(cost)} cycles above the conflict-free latency${open ? `; ${openNote}, none of which could be higher` : ''}`,
    });
  else out.push(cannotTell(`${key}.maxDegree`, `${label}: largest conflict degree`, openNote || 'no stride decided', nextMore));
  // Issue group and the smallest stride putting a whole one in one bank.
  if (a.issueGroup.ok) {
    const g = a.issueGroup.value;
    out.push({ key: `${key}.issueGroup`, label: `${label}: threads served together (issue group)`, value: g, unit: 'threads', evidence: `${evidence}: ${a.issueGroup.evidence}` });
    const at = a.degrees.findIndex((d, i) => strides[i] > 0 && d === g);
    const before = (end: number): boolean => a.readings.slice(0, end).every((r, i) => strides[i] === 0 || (r.degree !== undefined ? r.degree < g : r.high < g));
    if (at >= 0 && before(at))
      out.push({
        key: `${key}.repeatWords`,
        label: `${label}: smallest stride putting a whole issue group in one bank`,
        value: strides[at],
        unit: 'words',
        evidence: `${evidence}: the first stride whose degree reaches the issue group (${g}-way)`,
      });
    else if (at < 0 && before(strides.length))
      out.push({
        key: `${key}.repeatWords`,
        label: `${label}: smallest stride putting a whole issue group in one bank`,
        value: 'none',
        unit: 'words',
        evidence: `${evidence}: no stride from ${strides[0]} to ${strides[strides.length - 1]} reaches ${g}-way (a whole issue group in one bank); sweep larger strides to find it`,
      });
    else out.push(cannotTell(`${key}.repeatWords`, `${label}: smallest stride putting a whole issue group in one bank`, openNote, nextMore));
  } else {
    out.push(cannotTell(`${key}.issueGroup`, `${label}: threads served together (issue group)`, a.issueGroup.reason, a.issueGroup.next));
    out.push(
      cannotTell(
        `${key}.repeatWords`,
        `${label}: smallest stride putting a whole issue group in one bank`,
        `the issue group is not measured (${a.issueGroup.reason}) and no stride reaches ${WARP}-way`,
        a.issueGroup.next,
      ),
    );
  }
  const odd = a.readings.map((r, i) => [strides[i], r] as const).filter(([s]) => s % 2 === 1);
  if (odd.length) {
    const conflicting = odd.find(([, r]) => r.degree !== undefined ? r.degree > 1 : r.low > 1);
    const allFree = odd.every(([, r]) => r.degree === 1);
    if (conflicting)
      out.push({
        key: `${key}.oddConflictFree`,
        label: `${label}: odd strides conflict-free`,
        value: 'no',
        unit: '',
        evidence: `${evidence}: odd stride ${conflicting[0]} is at least ${conflicting[1].degree ?? conflicting[1].low}-way`,
      });
    else if (allFree)
      out.push({ key: `${key}.oddConflictFree`, label: `${label}: odd strides conflict-free`, value: 'yes', unit: '', evidence: `${evidence}: all ${odd.length} odd strides at the conflict-free latency` });
    else out.push(cannotTell(`${key}.oddConflictFree`, `${label}: odd strides conflict-free`, `some odd strides' degrees stay open (${openNote})`, nextMore));
  }
  // A decided stride off the rule settles it even while others stay open.
  const broken = maxDegree === undefined ? -1 : strides.findIndex((s, i) => a.degrees[i] !== undefined && a.degrees[i] !== (s === 0 ? 1 : gcd(s, maxDegree)));
  if (maxDegree !== undefined && (open === 0 || (broken >= 0 && maxDegree > 1))) {
    const follows = maxDegree > 1 && followsGcdRule(strides, a.degrees, maxDegree);
    out.push({
      key: `${key}.rule`,
      label: `${label}: conflict degree rule`,
      value: follows ? `gcd(stride, ${maxDegree})` : 'none',
      unit: '',
      evidence: follows
        ? `${evidence}: every stride's degree equals gcd(stride, ${maxDegree})`
        : maxDegree === 1
          ? `${evidence}: no stride conflicts`
          : `${evidence}: stride ${strides[broken]} is ${a.degrees[broken]}-way, gcd(stride, ${maxDegree}) = ${strides[broken] === 0 ? 1 : gcd(strides[broken], maxDegree)}`,
    });
  } else out.push(cannotTell(`${key}.rule`, `${label}: conflict degree rule`, openNote || 'the largest degree is open', nextMore));
  return out;
}
