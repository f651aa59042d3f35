import type { Preset } from '../presets/types';
import { validatePreset } from '../presets/validate';
import { provenanceOf } from '../presets/provenance';
import { capacityBytes } from '../model/types';
import { Rng } from '../rng';
import { kindOf, LATENCY_TOLERANCE } from './check';
import type { CheckKind, Reference, ReproductionRow } from './types';
import { sources } from './sources';

/**
 * Kinds proven by perturbation (REPRODUCTION.md, "Kinds are proven, not declared"): re-run a row with
 * one preset number scaled by 1.25 and by 0.8 (sizes and counts to the nearest valid value) and see
 * whether a check's measured value follows that number alone: it becomes the perturbed number, or
 * moves by its ratio. A check that follows one number is determined by it, so it cannot be
 * 'predicted': it is 'recovered' (an analyser reads the configured structure back from timings) or
 * 'calibrated' (the value was the number the preset was set from).
 */

/** One preset number a perturbation can scale: its dotted path, value and provenance. */
export interface Knob {
  path: string;
  value: number;
  provenance: string;
}

/** The factors each number is scaled by, in turn. */
export const FACTORS = [1.25, 0.8] as const;

/** Paths whose numbers follow another's and are changed with it, never alone (the validator ties them). */
const TIED: Record<string, string[]> = {
  'chip.sms': ['timing.sms'],
  'chip.coreClockMHz': ['timing.clocks.coreMHz'],
};
const TIED_TO = new Set(Object.values(TIED).flat());
/** A bank row is the banks' width side by side: every mode's row of words scales with the bank count. */
const SCALED_WITH_BANKS = /^shared\.modes\.[^.]+\.rowWords$/;

function split(path: string): (string | number)[] {
  return path.split('.').map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

function getAt(root: unknown, path: string): unknown {
  let o: unknown = root;
  for (const k of split(path)) {
    if (o === null || typeof o !== 'object') return undefined;
    o = (o as Record<string | number, unknown>)[k];
  }
  return o;
}

function setAt(root: unknown, path: string, value: unknown): void {
  const keys = split(path);
  let o = root as Record<string | number, unknown>;
  for (const k of keys.slice(0, -1)) o = o[k] as Record<string | number, unknown>;
  o[keys[keys.length - 1]] = value;
}

/**
 * Every number of a preset that a perturbation may scale: numeric leaves other than zero, less the
 * provenance, the numbers tied to another (timing.sms follows chip.sms, a bank mode's row of words
 * scales with the bank count) and a cache level's `sizeBytes`, which is sets x ways x line and
 * changes with them.
 */
export function presetKnobs(preset: Preset): Knob[] {
  const out: Knob[] = [];
  const walk = (o: unknown, path: string): void => {
    if (typeof o === 'number') {
      if (o !== 0 && Number.isFinite(o) && !TIED_TO.has(path) && !SCALED_WITH_BANKS.test(path)) out.push({ path, value: o, provenance: provenanceOf(path, preset.provenance)?.text ?? '' });
      return;
    }
    if (Array.isArray(o)) return o.forEach((v, i) => walk(v, path ? `${path}.${i}` : String(i)));
    if (o && typeof o === 'object') {
      const rec = o as Record<string, unknown>;
      for (const [k, v] of Object.entries(rec)) {
        if (!path && k === 'provenance') continue;
        if (k === 'sizeBytes' && rec.geometry && typeof rec.geometry === 'object' && 'sets' in (rec.geometry as object)) continue;
        walk(v, path ? `${path}.${k}` : k);
      }
    }
  };
  walk(preset, '');
  return out;
}

const isPow2 = (n: number): boolean => Number.isInteger(n) && n > 0 && Number.isInteger(Math.log2(n));

/** The values to try for `v` scaled by `f`, nearest first: a power of two's neighbour that way; else the scaled value, rounded, then one step that way. */
function candidates(v: number, f: number): number[] {
  const scaled = v * f;
  const out: number[] = [];
  const push = (x: number): void => {
    if (Number.isFinite(x) && x !== v && x > 0 && !out.includes(x)) out.push(x);
  };
  if (isPow2(v) && v >= 2) {
    // Counts and sizes that are powers of two (banks, sets, lines, pages) stay powers of two: the
    // next one that way is the nearest value the hardware (and the analysers' model of it) has.
    push(f > 1 ? v * 2 : v / 2);
  } else if (Number.isInteger(v)) {
    push(Math.round(scaled));
    push(f > 1 ? Math.ceil(scaled) : Math.floor(scaled));
    push(f > 1 ? v + 1 : v - 1);
  } else push(scaled);
  return out;
}

/** After a geometry number changed: every cache level's size is sets x ways x line again. */
function resize(o: unknown): void {
  if (Array.isArray(o)) return o.forEach(resize);
  if (!o || typeof o !== 'object') return;
  const rec = o as Record<string, unknown>;
  const g = rec.geometry as { sets?: number; ways?: number; lineBytes?: number; setWays?: number[] } | undefined;
  if (typeof rec.sizeBytes === 'number' && g && typeof g.sets === 'number') {
    if (g.setWays && g.setWays.length !== g.sets) {
      // A count of unequal sets changed: the added sets take the smallest set's ways, removed ones go.
      const min = Math.min(...g.setWays);
      g.setWays = Array.from({ length: g.sets }, (_, i) => g.setWays![i] ?? min);
    }
    rec.sizeBytes = capacityBytes(rec.geometry as Parameters<typeof capacityBytes>[0]);
  }
  for (const v of Object.values(rec)) if (v && typeof v === 'object') resize(v);
}

/**
 * After an L1 grew: the SM's on-chip memory (shared.onChipBytes) holds shared memory and the L1
 * together, so it grows to hold both (the nearest valid preset changes no shared-memory number);
 * a carveout that names its shared memory keeps the rest of the on-chip memory (beside its L1 and the
 * part of it a chase does not see).
 */
function fitOnChip(p: Preset): void {
  const s = p.shared;
  if (s.onChipBytes === undefined) return;
  const first = p.spaces.global.levels[0];
  const l1 = first?.scope === 'sm' ? first.sizeBytes : 0;
  const t = p.timing;
  const tl1 = t?.l1 ? t.l1.sets * t.l1.ways * t.l1.lineBytes : 0;
  const widest = Math.max(...(p.l1Configs ?? []).filter((c) => c.sharedBytes === undefined).map((c) => c.sizeBytes + 1), 0);
  s.onChipBytes = Math.max(s.onChipBytes, s.sizeBytes + l1, t ? t.shared.bytesPerSM + tl1 : 0, widest);
  for (const c of p.l1Configs ?? []) {
    const held = c.sizeBytes + (c.reservedBytes ?? 0);
    if (c.sharedBytes !== undefined && held + c.sharedBytes !== s.onChipBytes) c.sharedBytes = Math.max(0, s.onChipBytes - held);
  }
}

/** A preset with one number scaled, or undefined where no nearby value is valid. */
export interface Perturbed {
  preset: Preset;
  /** The number's new value. */
  value: number;
}

export function perturb(preset: Preset, knob: Knob, factor: number): Perturbed | undefined {
  for (const value of candidates(knob.value, factor)) {
    const copy = JSON.parse(JSON.stringify(preset)) as Preset;
    setAt(copy, knob.path, value);
    for (const t of TIED[knob.path] ?? []) if (getAt(copy, t) !== undefined) setAt(copy, t, value);
    if (knob.path === 'shared.banks') for (const m of Object.values(copy.shared.modes)) m.rowWords = Math.round((m.rowWords * value) / knob.value);
    resize(copy);
    fitOnChip(copy);
    const v = validatePreset(copy);
    if (v.ok) return { preset: copy, value };
  }
  return undefined;
}

/**
 * The numeric leaves of `preset` that `fn` reads (through a recording proxy): the numbers a row's
 * experiments can depend on. Reading a whole object (a spread, a copy) reads every number in it.
 */
export function numbersRead<T>(preset: Preset, fn: (p: Preset) => T): { result: T; paths: Set<string> } {
  const paths = new Set<string>();
  const cache = new WeakMap<object, unknown>();
  const wrap = (o: object, path: string): unknown => {
    const hit = cache.get(o);
    if (hit) return hit;
    const px = new Proxy(o, {
      get(target, key, recv) {
        const v = Reflect.get(target, key, recv);
        if (typeof key !== 'string') return v;
        const p = path ? `${path}.${key}` : key;
        if (typeof v === 'number') paths.add(p);
        else if (v && typeof v === 'object' && key !== 'provenance') return wrap(v as object, p);
        return v;
      },
    });
    cache.set(o, px);
    return px;
  };
  const result = fn(wrap(preset, '') as Preset);
  return { result, paths };
}

/** The relative tolerance within which a value "follows" a number: the check's own where it is tighter than a perturbation step, else 5 %. */
export function followTolerance(ref: Pick<Reference, 'tolerance'>): number {
  return ref.tolerance === 'exact' ? 1e-9 : LATENCY_TOLERANCE;
}

/**
 * Whether a measured value follows one number: it was that number and becomes the perturbed one,
 * or it moves by the number's ratio (and visibly: closer to the ratio than to no change). A word
 * follows a number it spells out ("gcd(stride, 32)" becomes "gcd(stride, 40)" with 40 banks).
 */
export function follows(m0: number | string | undefined, m1: number | string | undefined, p0: number, p1: number, tol: number): boolean {
  if (typeof m0 === 'string' && typeof m1 === 'string') {
    const token = new RegExp(`(?<![\\d.])${String(p0).replace('.', '\\.')}(?![\\d.])`, 'g');
    return m0 !== m1 && token.test(m0) && m0.replace(token, String(p1)) === m1;
  }
  if (typeof m0 !== 'number' || typeof m1 !== 'number' || !Number.isFinite(m0) || !Number.isFinite(m1)) return false;
  const near = (a: number, b: number): boolean => Math.abs(a - b) <= Math.max(tol * Math.abs(b), 1e-9);
  if (near(m0, p0) && near(m1, p1)) return true;
  if (m0 === 0) return false;
  const r = p1 / p0;
  const moved = m1 / m0;
  return near(moved, r) && Math.abs(moved - r) < Math.abs(moved - 1);
}

/** What perturbing one number did to one check. */
export interface KnobEffect {
  path: string;
  provenance: string;
  factor: number;
  /** Undefined: no valid value near the scaled one; 'error': the row threw on the perturbed preset. */
  value?: number;
  measured?: number | string | 'error';
  follows: boolean;
}

/** One predicted or recovered check of a row on a preset, with what the perturbations showed. */
export interface CheckPerturbation {
  row: string;
  preset: string;
  check: string;
  citation: string;
  declared: CheckKind;
  baseline: number | string | undefined;
  /** The numbers the check's value follows alone at every factor that had a valid value: any makes it determined. */
  determinedBy: string[];
  /** Numbers tried (each at both factors) and those with no valid value at either. */
  tried: number;
  untried: number;
  /** Whether the value moved at all under some perturbation (a value that never moves follows nothing it was given). */
  moved: boolean;
  /** The kind the perturbation supports: 'predicted' only where no number determines the value. */
  derived: CheckKind;
  /** Every perturbed run's value of the check. */
  effects: KnobEffect[];
}

export interface PerturbOptions {
  seed?: number;
  /** Numbers not sharing a check's citation to sample at random (seeded); all of them where undefined. */
  sample?: number;
  /**
   * Time the sample may take, in milliseconds of perturbed runs as the unperturbed one timed them:
   * the sample grows past `sample` to every number read where that fits (cheap rows try them all).
   */
  budgetMs?: number;
  /** Only the numbers sharing a check's citation, plus those whose path matches (the caps): no read-back guesses, no sample of the rest. */
  citedAndCaps?: RegExp;
  /** Exactly these numbers (the costliest rows: their caps alone). */
  only?: string[];
  /** Whether to record the numbers the rows read through a proxy (slow on the timing tier, which reads them all); default true. */
  recordReads?: boolean;
}

/** `perturbRows` for one row. */
export function perturbRow(row: ReproductionRow, preset: Preset, opts: PerturbOptions = {}): CheckPerturbation[] {
  return perturbRows([row], preset, opts);
}

/**
 * Perturbs `rows` on `preset`: every number their experiments read whose provenance shares a source
 * with one of their predicted or recovered checks' citations or that a check could read back (a
 * latency within 5 % of a check's latency, a size of a check's size, the geometry of a cache that
 * size), plus a seeded sample of the rest (or what `citedAndCaps` / `only` say), each at both factors; returns each such check's effects and
 * derived kind. Rows that share runs are given the same perturbed preset one after another, so a
 * run they share is simulated once (src-sim/reference/row-runs.ts keeps it).
 */
export function perturbRows(rows: readonly ReproductionRow[], preset: Preset, opts: PerturbOptions = {}): CheckPerturbation[] {
  const seed = opts.seed ?? 1;
  const judgedOf = rows.map((row) => ({ row, refs: row.references(preset).filter((r) => ['predicted', 'recovered'].includes(kindOf(r, row.kind).kind)) })).filter((x) => x.refs.length);
  if (!judgedOf.length) return [];
  const paths = new Set<string>();
  const base = new Map<string, Record<string, number | string>>();
  const started = Date.now();
  for (const { row } of judgedOf) {
    if (opts.recordReads === false) base.set(row.id, row.measure(preset, seed).measured);
    else {
      const r = numbersRead(preset, (p) => row.measure(p, seed).measured);
      base.set(row.id, r.result);
      for (const x of r.paths) paths.add(x);
    }
  }
  const cited = new Set<string>();
  for (const { refs } of judgedOf) for (const r of refs) for (const x of sources(r.citation)) cited.add(x);
  const knobs = presetKnobs(preset).filter((k) => opts.recordReads === false || paths.has(k.path));
  const sharing = (k: Knob): boolean => [...sources(k.provenance)].some((x) => cited.has(x));
  let chosen: Knob[];
  if (opts.only) chosen = knobs.filter((k) => opts.only!.includes(k.path));
  else {
    // A number a check could read back is always tried, whatever its provenance cites: a latency
    // within 5 % of a check's latency, a size of a check's size, the geometry of a cache that size.
    const values: { v: number; unit: string }[] = [];
    for (const { row, refs } of judgedOf)
      for (const r of refs) {
        const v = base.get(row.id)![r.name];
        if (typeof v === 'number' && v !== 0) values.push({ v, unit: r.unit });
      }
    const near = (x: number, unit: (u: string) => boolean): boolean => values.some(({ v, unit: u }) => unit(u) && Math.abs(x - v) <= 0.05 * Math.abs(v));
    const readBack = (k: Knob): boolean => {
      if (/atency/.test(k.path) && near(k.value, (u) => u === 'cycles')) return true;
      if (/Bytes$/.test(k.path) && near(k.value, (u) => u === 'B')) return true;
      const m = /^(.*)\.geometry\.(sets|ways|lineBytes)$/.exec(k.path);
      const size = m ? getAt(preset, `${m[1]}.sizeBytes`) : undefined;
      return typeof size === 'number' && near(size, (u) => u === 'B');
    };
    const first = opts.citedAndCaps ? knobs.filter((k) => sharing(k) || opts.citedAndCaps!.test(k.path)) : knobs.filter((k) => sharing(k) || readBack(k));
    let rest = opts.citedAndCaps ? [] : knobs.filter((k) => !first.includes(k));
    const baseMs = Math.max(1, Date.now() - started);
    const affordable = opts.budgetMs !== undefined ? Math.floor(opts.budgetMs / (baseMs * FACTORS.length)) : 0;
    const sample = opts.sample === undefined ? undefined : Math.max(opts.sample, affordable);
    if (sample !== undefined && rest.length > sample) {
      const rng = new Rng(seed * 7919 + [...rows.map((r) => r.id).join()].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 0));
      rest = [...rest];
      for (let i = rest.length - 1; i > 0; i--) {
        const j = Math.floor(rng.next() * (i + 1));
        [rest[i], rest[j]] = [rest[j], rest[i]];
      }
      rest = rest.slice(0, sample);
    }
    chosen = [...first, ...rest];
  }
  const key = (rowId: string, name: string): string => `${rowId}\u0000${name}`;
  const effects = new Map<string, KnobEffect[]>();
  for (const { row, refs } of judgedOf) for (const r of refs) effects.set(key(row.id, r.name), []);
  for (const k of chosen)
    for (const f of FACTORS) {
      const p = perturb(preset, k, f);
      for (const { row, refs } of judgedOf) {
        let measured: Record<string, number | string> | undefined;
        if (p)
          try {
            measured = row.measure(p.preset, seed).measured;
          } catch {
            measured = undefined;
          }
        const b = base.get(row.id)!;
        for (const r of refs) {
          const m = p ? (measured ? measured[r.name] : 'error') : undefined;
          const fl = p !== undefined && measured !== undefined && follows(b[r.name], measured[r.name], k.value, p.value, followTolerance(r));
          effects.get(key(row.id, r.name))!.push({ path: k.path, provenance: k.provenance, factor: f, ...(p ? { value: p.value } : {}), ...(m !== undefined ? { measured: m } : {}), follows: fl });
        }
      }
    }
  return judgedOf.flatMap(({ row, refs }) => refs.map((r) => judge(row, preset, r, base.get(row.id)![r.name], effects.get(key(row.id, r.name))!)));
}

/** What one check's effects say: the numbers that determine it, and the kind that leaves it. */
function judge(row: ReproductionRow, preset: Preset, r: Reference, baseline: number | string | undefined, es: KnobEffect[]): CheckPerturbation {
  const byPath = new Map<string, KnobEffect[]>();
  for (const e of es) byPath.set(e.path, [...(byPath.get(e.path) ?? []), e]);
  const determinedBy: string[] = [];
  let untried = 0;
  const valid = (list: KnobEffect[]): KnobEffect[] => list.filter((e) => e.value !== undefined && e.measured !== 'error');
  for (const [path, list] of byPath) {
    const v = valid(list);
    if (!v.length) untried++;
    else if (v.every((e) => e.follows)) determinedBy.push(path);
  }
  const changes = (e: KnobEffect): boolean => e.measured !== undefined && e.measured !== 'error' && String(e.measured) !== String(baseline);
  // A word (a verdict, a list) is determined by a number when it changes with that number at every
  // factor and with no other number tried: it reads that one number back, in other words.
  if (!determinedBy.length && typeof baseline === 'string') {
    const movers = [...byPath].filter(([, list]) => list.some(changes));
    if (movers.length === 1) {
      const [path, list] = movers[0];
      const v = valid(list);
      if (v.length && v.every(changes)) determinedBy.push(path);
    }
  }
  const declared = kindOf(r, row.kind).kind;
  return {
    row: row.id,
    preset: preset.id,
    check: r.name,
    citation: r.citation,
    declared,
    baseline,
    determinedBy,
    tried: byPath.size - untried,
    untried,
    moved: es.some(changes),
    derived: determinedBy.length ? (declared === 'predicted' ? 'recovered' : declared) : declared,
    effects: es,
  };
}
