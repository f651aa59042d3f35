import type { Finding } from '../experiments/types';
import { latencyLevels } from './levels';

/**
 * Shared-memory bank conflicts from a latency-vs-stride sweep (MEI 4.1, Figs 5, 7), measurements only:
 * the conflict-free latency is the lowest level, the cost of one more conflicting access the smallest
 * spacing between levels, and each stride's degree how many such steps its latency sits above the base.
 */
export interface BankAnalysis {
  base: number;
  perConflict: number;
  /** Conflict degree per stride (1 = conflict-free), in the order of the input. */
  degrees: number[];
  /** The largest degree any stride reached: a whole issue group in one bank (on Fermi and Tesla, whose
   *  warps or half-warps are as wide as the bank array, the number of banks: MEI's "32-way"). */
  maxDegree: number;
}

/**
 * The cost of one more conflicting access: the largest step c of which every level's distance above
 * the base is a whole multiple (levels need not include a 2-way one: 8 banks under a 32-thread warp
 * show only 4-, 8-, 16- and 32-way levels).
 */
function commonStep(distances: number[], tolerance: number): number {
  const smallest = Math.min(...distances);
  for (let k = 1; k <= 64; k++) {
    const c = smallest / k;
    if (distances.every((d) => Math.abs(d / c - Math.round(d / c)) * c <= tolerance)) return c;
  }
  return smallest;
}

export function analyseBanks(latency: ArrayLike<number>, minGap = 3): BankAnalysis {
  const levels = latencyLevels(latency, minGap);
  if (levels.length === 0) return { base: NaN, perConflict: NaN, degrees: [], maxDegree: 0 };
  const base = levels[0].latency;
  const perConflict = levels.length > 1 ? commonStep(levels.map((l) => l.latency - base).slice(1), minGap) : Infinity;
  const degrees: number[] = [];
  for (let i = 0; i < latency.length; i++) {
    degrees.push(perConflict === Infinity ? 1 : 1 + Math.round((latency[i] - base) / perConflict));
  }
  return { base, perConflict: perConflict === Infinity ? 0 : perConflict, degrees, maxDegree: Math.max(...degrees) };
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

/** Whether the degrees follow MEI's rule for Fermi: degree = gcd(stride, banks) (stride 0 broadcasts). */
export function followsGcdRule(strides: readonly number[], degrees: readonly number[], banks: number): boolean {
  return strides.every((s, i) => degrees[i] === (s === 0 ? 1 : gcd(s, banks)));
}

export function bankFindings(label: string, strides: readonly number[], a: BankAnalysis, evidence: string): Finding[] {
  const repeat = strides.find((s, i) => s > 0 && a.degrees[i] === a.maxDegree);
  const out: Finding[] = [
    { key: `${label}.base`, label: `${label}: conflict-free latency`, value: round1(a.base), unit: 'cycles', evidence: `${evidence}: lowest latency level` },
    {
      key: `${label}.perConflict`,
      label: `${label}: cycles per further conflicting access`,
      value: round1(a.perConflict),
      unit: 'cycles',
      evidence: `${evidence}: smallest spacing between latency levels`,
    },
    { key: `${label}.maxDegree`, label: `${label}: largest conflict degree`, value: a.maxDegree, unit: 'way', evidence: `${evidence}: highest level / spacing` },
  ];
  if (repeat !== undefined)
    out.push({
      key: `${label}.repeatWords`,
      label: `${label}: smallest stride putting a whole issue group in one bank`,
      value: repeat,
      unit: 'words',
      evidence: `${evidence}: first stride reaching ${a.maxDegree}-way (banks x words per bank)`,
    });
  const odd = strides.map((s, i) => [s, a.degrees[i]] as const).filter(([s]) => s % 2 === 1);
  if (odd.length)
    out.push({
      key: `${label}.oddConflictFree`,
      label: `${label}: odd strides conflict-free`,
      value: odd.every(([, d]) => d === 1) ? 'yes' : 'no',
      unit: '',
      evidence: `${evidence}: degrees at ${odd.length} odd strides`,
    });
  if (a.maxDegree > 1 && followsGcdRule(strides, a.degrees, a.maxDegree))
    out.push({
      key: `${label}.rule`,
      label: `${label}: conflict degree rule`,
      value: `gcd(stride, ${a.maxDegree})`,
      unit: '',
      evidence: `${evidence}: every stride's degree equals gcd(stride, ${a.maxDegree})`,
    });
  return out;
}

function round1(v: number): number {
  return Math.round(v * 10) / 10;
}
