import { describe, expect, it } from 'vitest';
import { tlbProbes } from '../../src-sim/experiments/tlb-probes';
import { followUpParams } from '../../src-sim/experiments/refine';
import { resolveParams } from '../../src-sim/experiments/params';
import type { ExperimentResult, Finding, ParamValues } from '../../src-sim/experiments/types';
import type { CacheLevelConfig, PathConfig, TranslationConfig } from '../../src-sim/model/path';
import type { CacheGeometry, ReplacementPolicy } from '../../src-sim/model/types';
import { totalLines } from '../../src-sim/model/types';
import { findPreset } from '../../src-sim/presets';
import type { Preset } from '../../src-sim/presets/types';
import { validatePreset } from '../../src-sim/presets/validate';
import { Rng } from '../../src-sim/rng';
import { Cache } from '../../src-sim/model/cache';
import { tlbProbeStride } from '../../src-sim/experiments/tlb-stride';
import { Scorecard } from './scorecard';
import { isCannotTell } from '../../src-sim/analysis/cannot-tell';
import { freeStanding } from './free-cache';

/**
 * Blind random-geometry suite of the TLB probes. Seeded random presets cover every TLB layout the
 * schema allows (fully associative, bit-selected, XOR-hashed and unequal sets; LRU, FIFO, random and
 * Fermi-style replacement; entry coverages from 4 KB to 4 MB, the L2 TLB larger, one entry larger or
 * smaller than the L1), data caches whose size and line could pass for a TLB (fully associative,
 * direct-mapped, virtually indexed in front of translation), with and without a window of active
 * page entries, with and without jitter; plus the papers' presets swept wider than the papers did.
 * A fixed protocol is run on each (the user's view: no knowledge of the preset) and every quantity
 * is judged exact / honest ("cannot tell" or absent) / wrong against the preset, which only this
 * test reads.
 */

const KB = 1024;
const MB = 1024 * KB;
const GB = 1024 * MB;

const SEED = Number(process.env.BLIND_TLB_SEED ?? 20261127);
const CASES = Number(process.env.BLIND_TLB_CASES ?? 40);
const PAPER_CASES = Number(process.env.BLIND_TLB_PAPER_CASES ?? 20);

interface Case {
  name: string;
  preset: Preset;
  /** Largest array of the reach sweeps. */
  top: number;
  /** Quantities and their truth; absent: not scored for this case. */
  truth: Record<string, number | string>;
  jitter: number;
}

/**
 * Elements of the reach probe's main chase (element i at i*stride + (i*skew mod stride), the probe's
 * default layout) that a structure holds with no miss after one warm-up pass: the largest n for which a
 * cyclic chase of n elements never overflows a set. Replacement does not matter for this bound (with
 * no more distinct lines per set than ways, no policy misses), so LRU stands in for every policy, and
 * LRU's stack property makes the answer monotone in n (a binary search).
 */
function holds(g: CacheGeometry, stride: number, skew: number, max: number): number {
  const at = (i: number): number => i * stride + (skew > 0 ? (i * skew) % stride : 0);
  const fits = (n: number): boolean => {
    const c = new Cache({ ...g, policy: { kind: 'lru' } });
    for (let i = 0; i < n; i++) c.access(at(i));
    for (let i = 0; i < n; i++) if (!c.access(at(i))) return false;
    return true;
  };
  if (fits(max)) return max;
  let lo = 0;
  let hi = max;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * Inside the papers' conditions (WONG IV-I on GT200 global memory, MEI 4.2 on Fermi and Kepler global
 * memory), judged from the preset, which only this test reads:
 * - the probes run at their default stride and skew (512 KB, no skew on Tesla; 2 MB with a 128 B skew on
 *   Fermi/Kepler), as the papers did;
 * - no data cache sits in front of translation (global memory in the papers: a virtually indexed cache
 *   that holds the elements hides the TLBs behind it, MEI's texture L1);
 * - both TLBs replace LRU (the papers' missed-entry counting and periodic traces presume it, and both
 *   papers found it);
 * - both TLB levels overflow inside the sweep in order: the L1 TLB holds fewer elements of the main chase
 *   than the L2 TLB, and the sweep runs at least twice as far as the L2 TLB holds;
 * - every data cache holds at least 1.5 times as many elements of the main chase as the L2 TLB (the
 *   papers' 128 B skew puts each element in its own data-cache line: Fermi's 16 KB L1 holds 128 against
 *   65 L2 TLB entries), so no data-cache overflow lies among or before the TLB steps;
 * - a window of active page entries, if any, lies at least twice beyond the L2 TLB's reach (Kepler: 512
 *   MB against 130 MB), where every access misses the L2 TLB.
 * Page sizes, entry coverages, set layouts and jitter are free: 4 KB pages behind 512 KB L1 entries
 * (GT200), several elements per entry (WONG Fig 16) and noise (MEI) are all in the papers. Everything
 * else is outside: data caches whose overflow could pass for a TLB step, virtually indexed caches, L2 TLBs
 * no larger than the L1, non-LRU TLBs, windows near the L2 TLB's reach, TLBs that do not overflow in the
 * sweep.
 */
function insidePapers(preset: Preset, top: number): { inside: boolean; why: string } {
  const path = preset.spaces.global;
  const t = path.translation as TranslationConfig;
  const stride = tlbProbeStride(preset, { space: 'global', stride: 0 });
  const skew = preset.generation === 'Tesla' ? 0 : 128;
  const max = Math.floor(top / stride);
  const lru = (l: CacheLevelConfig): boolean => l.geometry.policy.kind === 'lru';
  const h1 = holds(t.l1.geometry, stride, skew, max);
  const h2 = holds(t.l2.geometry, stride, skew, max);
  const why: string[] = [];
  if (t.virtualLevels > 0) why.push('a data cache in front of translation');
  if (!lru(t.l1) || !lru(t.l2)) why.push('a TLB that does not replace LRU');
  if (!(h1 < h2)) why.push(`the L2 TLB holds no more elements than the L1 (${h2} vs ${h1})`);
  if (!(2 * h2 <= max)) why.push(`the L2 TLB holds ${h2} of the sweep's ${max} elements`);
  for (const d of path.levels) {
    const hd = holds(d.geometry, stride, skew, max);
    if (hd < 1.5 * h2) why.push(`${d.name} holds ${hd} elements against the L2 TLB's ${h2}`);
  }
  if (t.activeWindowBytes !== undefined && t.activeWindowBytes < 2 * h2 * stride) why.push('a window near the L2 TLB reach');
  return { inside: why.length === 0, why: why.join('; ') };
}

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[rng.int(xs.length)];

function policyFor(rng: Rng, minWays: number): ReplacementPolicy {
  const kind = pick(rng, ['lru', 'lru', 'fifo', 'random', 'fermi'] as const);
  if (kind === 'fermi') return minWays >= 2 ? { kind, hotWay: rng.int(minWays), hotProbability: 0.5 } : { kind: 'lru' };
  return { kind };
}

/** A TLB level of about `entries` entries of `coverage` bytes, in one of the layouts the schema allows. */
function tlbLevel(rng: Rng, name: string, coverage: number, entries: number, layouts: readonly ('fa' | 'bits' | 'xor' | 'unequal')[] = ['fa', 'fa', 'bits', 'xor', 'unequal'], lruOnly = false): CacheLevelConfig {
  const layout = pick(rng, layouts);
  let geometry: CacheGeometry;
  if (layout === 'fa' || entries < 4) geometry = { lineBytes: coverage, sets: 1, ways: entries, index: { kind: 'bits' }, policy: { kind: 'lru' } };
  else if (layout === 'unequal') {
    const k = 2 + rng.int(Math.min(6, Math.floor(entries / 2) - 1));
    const b = Math.max(1, Math.floor(entries / (k + 1)));
    const setWays = [entries - b * (k - 1), ...new Array<number>(k - 1).fill(b)];
    geometry = { lineBytes: coverage, sets: k, ways: Math.max(...setWays), setWays, index: { kind: 'interleave' }, policy: { kind: 'lru' } };
  } else {
    const sets = pick(rng, [2, 4, 8, 16, 64, 256].filter((s) => s <= entries));
    const ways = Math.max(1, Math.round(entries / sets));
    geometry = { lineBytes: coverage, sets, ways, index: { kind: layout }, policy: { kind: 'lru' } };
  }
  geometry.policy = lruOnly ? { kind: 'lru' } : policyFor(rng, geometry.setWays ? Math.min(...geometry.setWays) : geometry.ways);
  return { name, scope: 'chip', sizeBytes: totalLines(geometry) * coverage, geometry };
}

/** A data cache that a TLB probe could mistake for a TLB: small, fully associative or direct-mapped. */
function dataLevel(rng: Rng, name: string, scope: 'sm' | 'chip'): CacheLevelConfig {
  const lineBytes = pick(rng, [32, 64, 128, 256]);
  const shape = pick(rng, ['fa', 'direct', 'assoc'] as const);
  const sets = shape === 'fa' ? 1 : pick(rng, [4, 8, 16, 32, 64]);
  const ways = shape === 'fa' ? 8 + rng.int(120) : shape === 'direct' ? 1 : 2 + rng.int(7);
  const policy = policyFor(rng, ways);
  return { name, scope, sizeBytes: lineBytes * sets * ways, geometry: { lineBytes, sets, ways, index: { kind: 'bits' }, policy } };
}

/** The base preset's provenance less its spaces, which the suite replaces with generated ones. */
function keptProvenance(base: Preset): Record<string, string> {
  const kept = Object.entries(base.provenance).filter(([k]) => !k.startsWith('spaces') && !k.startsWith('l1Configs'));
  return { ...Object.fromEntries(kept), spaces: 'assumed: generated by the blind TLB suite' };
}

function generate(seed: number, count: number): Case[] {
  const rng = new Rng(seed);
  const fermi = findPreset('fermi') as Preset;
  const out: Case[] = [];
  for (let i = 0; i < count; i++) {
    const page = pick(rng, [4 * KB, 16 * KB, 64 * KB, 256 * KB, 512 * KB, 1 * MB, 2 * MB, 4 * MB]);
    // One level's entries cover a page, the other's a page or a power-of-two multiple of it.
    const wide = page * pick(rng, [1, 1, 2, 8, 128]);
    const [c1, c2] = rng.int(2) ? [page, wide] : [wide, page];
    const e1 = pick(rng, [4, 8, 12, 16, 24, 32, 48, 64]);
    const rel = pick(rng, ['bigger', 'bigger', 'bigger', 'plus-one', 'smaller'] as const);
    const e2 = rel === 'plus-one' ? e1 + 1 : rel === 'smaller' ? Math.max(2, Math.floor(e1 / 2)) : e1 * pick(rng, [2, 4, 8]) + rng.int(8);
    const l1 = tlbLevel(rng, 'L1 TLB', c1, e1);
    const l2 = tlbLevel(rng, 'L2 TLB', c2, e2);
    const dataShape = pick(rng, ['none', 'd1', 'd1', 'd1+d2', 'virtual'] as const);
    const levels: CacheLevelConfig[] = [];
    if (dataShape !== 'none') levels.push(dataLevel(rng, 'D1', 'sm'));
    if (dataShape === 'd1+d2') levels.push({ name: 'D2', scope: 'chip', sizeBytes: 768 * KB, geometry: { lineBytes: 128, sets: 512, ways: 12, index: { kind: 'bits' }, policy: { kind: 'lru' } } });
    const virtualLevels = dataShape === 'virtual' ? 1 : 0;
    const window = rng.int(3) === 0 ? pick(rng, [128 * MB, 256 * MB, 512 * MB, 1 * GB]) : undefined;
    const translation: TranslationConfig = { pageBytes: page, l1, l2, ...(window ? { activeWindowBytes: window } : {}), virtualLevels };
    const p2 = pick(rng, [2, 6, 12, 30, 60]);
    const p3 = 20 + rng.int(300);
    const p4 = 100 + rng.int(300);
    const latency: Record<string, number> = {};
    let base = 30 + rng.int(80);
    [...levels.map((l) => l.name), 'memory'].forEach((name, k) => {
      if (k < virtualLevels) latency[`${name}/-`] = base;
      else {
        latency[`${name}/l1`] = base;
        latency[`${name}/l2`] = base + p2;
        latency[`${name}/miss`] = base + p2 + p3;
        if (window) latency[`${name}/inactive`] = base + p2 + p3 + p4;
      }
      base += 100 + rng.int(300);
    });
    const path: PathConfig = { description: 'generated', levels, translation, latency, interconnectFrom: levels.length };
    const generation = pick(rng, ['Fermi', 'Kepler', 'Tesla'] as const);
    const preset: Preset = freeStanding({ ...fermi, id: `blind-${i}`, generation, spaces: { global: path }, l1Configs: undefined, provenance: keptProvenance(fermi) });
    const v = validatePreset(preset);
    if (!v.ok) throw new Error(`generated preset ${i} is invalid: ${JSON.stringify(v.issues)}`);
    const jitter = rng.int(2) ? 0 : pick(rng, [1, 3, 8, 20]);
    // Sweeps wide enough to see the L2 TLB overflow at the default stride in most cases.
    const top = generation === 'Tesla' ? 512 * MB : 2 * GB;
    const describe = (l: CacheLevelConfig): string => {
      const g = l.geometry;
      return `${g.setWays ? `[${g.setWays.join(',')}]` : `${g.sets}x${g.ways}`} ${g.index.kind} ${g.policy.kind} ${g.lineBytes / KB} KB`;
    };
    out.push({
      name: `#${i} ${generation} page ${page / KB} KB; L1 ${describe(l1)}; L2 ${describe(l2)}; data ${levels.map(describe).join(' + ') || 'none'}${virtualLevels ? ' (virtual)' : ''}; window ${window ? window / MB + ' MB' : 'none'}; jitter ${jitter}`,
      preset,
      top,
      truth: truthOf(translation),
      jitter,
    });
  }
  return out;
}

/**
 * Presets drawn near the papers' machines (their own random stream, so the cases above do not change):
 * Fermi/Kepler-like (2 MB stride, 2 or 4 MB entries, LRU TLBs fully associative, bit-selected or of
 * unequal sets, data caches of 128 B lines behind translation, sometimes a window of active page entries)
 * and GT200-like (512 KB stride, 512 KB or 1 MB L1 TLB entries, an L2 TLB of 4 to 64 KB lines, no data
 * cache in global memory). Whether each is inside the papers' conditions is still judged by insidePapers.
 */
function paperLike(seed: number, count: number): Case[] {
  const rng = new Rng(seed ^ 0x5eed);
  const base = findPreset('fermi') as Preset;
  const out: Case[] = [];
  for (let i = 0; i < count; i++) {
    const gt200 = rng.int(3) === 0;
    const generation = gt200 ? 'Tesla' : pick(rng, ['Fermi', 'Kepler'] as const);
    const page = gt200 ? pick(rng, [4 * KB, 16 * KB, 64 * KB]) : pick(rng, [2 * MB, 2 * MB, 4 * MB]);
    const c1 = gt200 ? pick(rng, [512 * KB, 1 * MB]) : page * pick(rng, [1, 1, 2]);
    const c2 = page;
    const e1 = pick(rng, [8, 12, 16, 24, 32]);
    const e2 = e1 * pick(rng, [2, 4, 8]) + rng.int(8);
    const l1 = tlbLevel(rng, 'L1 TLB', c1, e1, ['fa', 'fa', 'bits'], true);
    const l2 = tlbLevel(rng, 'L2 TLB', c2, e2, ['fa', 'bits', 'unequal'], true);
    const levels: CacheLevelConfig[] = [];
    if (!gt200) {
      const sets = pick(rng, [32, 64, 128]);
      const ways = pick(rng, [4, 6, 8]);
      levels.push({ name: 'D1', scope: 'sm', sizeBytes: 128 * sets * ways, geometry: { lineBytes: 128, sets, ways, index: { kind: 'bits' }, policy: policyFor(rng, ways) } });
      if (rng.int(2)) levels.push({ name: 'D2', scope: 'chip', sizeBytes: 768 * KB, geometry: { lineBytes: 128, sets: 512, ways: 12, index: { kind: 'bits' }, policy: { kind: 'lru' } } });
    }
    const window = !gt200 && rng.int(3) === 0 ? pick(rng, [256 * MB, 512 * MB, 1 * GB]) : undefined;
    const translation: TranslationConfig = { pageBytes: page, l1, l2, ...(window ? { activeWindowBytes: window } : {}), virtualLevels: 0 };
    const latency: Record<string, number> = {};
    let lat = 30 + rng.int(80);
    const p2 = pick(rng, [6, 12, 30, 60]);
    const p3 = 40 + rng.int(280);
    const p4 = 100 + rng.int(300);
    [...levels.map((l) => l.name), 'memory'].forEach((name) => {
      latency[`${name}/l1`] = lat;
      latency[`${name}/l2`] = lat + p2;
      latency[`${name}/miss`] = lat + p2 + p3;
      if (window) latency[`${name}/inactive`] = lat + p2 + p3 + p4;
      lat += 100 + rng.int(300);
    });
    const path: PathConfig = { description: 'generated near the papers', levels, translation, latency, interconnectFrom: levels.length };
    const preset: Preset = freeStanding({ ...base, id: `paper-like-${i}`, generation, spaces: { global: path }, l1Configs: undefined, provenance: keptProvenance(base) });
    const v = validatePreset(preset);
    if (!v.ok) throw new Error(`paper-like preset ${i} is invalid: ${JSON.stringify(v.issues)}`);
    const jitter = rng.int(2) ? 0 : pick(rng, [1, 3, 8]);
    const top = gt200 ? 512 * MB : 2 * GB;
    const describe = (l: CacheLevelConfig): string => {
      const g = l.geometry;
      return `${g.setWays ? `[${g.setWays.join(',')}]` : `${g.sets}x${g.ways}`} ${g.index.kind} ${g.policy.kind} ${g.lineBytes / KB} KB`;
    };
    out.push({
      name: `paper-like #${i} ${generation} page ${page / KB} KB; L1 ${describe(l1)}; L2 ${describe(l2)}; data ${levels.map(describe).join(' + ') || 'none'}; window ${window ? window / MB + ' MB' : 'none'}; jitter ${jitter}`,
      preset,
      top,
      truth: truthOf(translation),
      jitter,
    });
  }
  return out;
}

/** The quantities of a translation config, as the suite scores them. */
function truthOf(t: TranslationConfig): Record<string, number | string> {
  const out: Record<string, number | string> = { 'page size': t.pageBytes, window: t.activeWindowBytes ?? 'none' };
  for (const [k, l] of [
    ['L1', t.l1],
    ['L2', t.l2],
  ] as const) {
    const g = l.geometry;
    out[`${k} TLB entries`] = totalLines(g);
    out[`${k} TLB sets`] = g.sets;
    out[`${k} TLB fully associative`] = g.sets === 1 ? 'yes' : 'no';
    if (k === 'L1') out['L1 TLB fully associative (fixed-count)'] = out['L1 TLB fully associative'];
    if (k === 'L2') {
      out['L2 TLB sets (missed-entries)'] = out['L2 TLB sets'];
      out['L2 TLB entries (missed-entries)'] = out['L2 TLB entries'];
    }
    out[`${k} TLB ways`] = g.setWays && g.setWays.some((w) => w !== g.setWays![0]) ? g.setWays.join(',') : g.ways;
    const minWays = g.setWays ? Math.min(...g.setWays) : g.ways;
    const maxWays = g.setWays ? Math.max(...g.setWays) : g.ways;
    // One way per set: every policy evicts the only entry, as LRU does.
    out[`${k} TLB policy`] = g.policy.kind === 'lru' || (maxWays === 1 && minWays === 1) ? 'LRU' : 'not LRU';
  }
  return out;
}

function papers(): Case[] {
  const out: Case[] = [];
  const kepler = findPreset('kepler') as Preset;
  const fermi = findPreset('fermi') as Preset;
  const tesla = findPreset('tesla') as Preset;
  const add = (name: string, preset: Preset, top: number, jitter = 0): void => {
    out.push({ name, preset, top, truth: truthOf(preset.spaces.global.translation as TranslationConfig), jitter });
  };
  add('kepler swept to 3.2 GB', kepler, 3200 * MB);
  add('fermi swept to 1 GB, jitter 8', fermi, 1 * GB, 8);
  add('tesla swept to 512 MB', tesla, 512 * MB);
  return out;
}

const quiet = (): void => {};
/** Where measure() puts the set of quantities whose first-run "cannot tell" named a follow-up. */
const FOLLOW_UPS = '(follow-ups)';
const get = (r: ExperimentResult, key: string): number | string | undefined => r.findings.find((f: Finding) => f.key === key)?.value;

/**
 * What the blind protocol reports for each quantity (the analysers' findings only), with the
 * experiments' follow-up runs (`refine`, their default) or without them.
 */
function measure(c: Case, seed: number, refine = true): Record<string, unknown> {
  const base: ParamValues = { jitter: c.jitter, refine };
  const reach = tlbProbes.run(c.preset, { ...base, probe: 'reach', sizeTo: c.top }, seed, quiet);
  const page = tlbProbes.run(c.preset, { ...base, probe: 'page-size', sizeTo: c.top }, seed + 1, quiet);
  const window = tlbProbes.run(c.preset, { ...base, probe: 'window', sizeFrom: 64 * MB, sizeTo: 2 * GB, sizeStep: 64 * MB }, seed + 2, quiet);
  // WONG Fig 14 at its defaults (16 and 17 elements): one set only where they are E and E + 1.
  const fixed = tlbProbes.run(c.preset, { ...base, probe: 'fixed-count' }, seed + 3, quiet);
  // MEI Figs 10, 11 at their defaults: the L2 TLB's sets only where the stride is shown to reach them all.
  const missed = tlbProbes.run(c.preset, { ...base, probe: 'missed-entries' }, seed + 4, quiet);
  if (process.env.BLIND_TLB_ONLY !== undefined) {
    console.log(c.name);
    if (reach.trace && process.env.BLIND_TLB_TRACE) {
      const t = reach.trace;
      console.log('trace', Array.from(t.latency).join(' '));
      console.log('tlb', Array.from(t.tlb).join(''));
      console.log('lvl', Array.from(t.level).join(''));
    }
    for (const r of [reach, page]) {
      for (const t of r.tables) console.log(t.name, JSON.stringify(t.rows, null, 0));
      for (const f of r.findings) console.log(`  ${f.key} = ${String(f.value)}  [${f.evidence}]`);
      console.log(r.notes.join('\n'));
    }
  }
  // The quantities whose "cannot tell" names a follow-up run (a parameter to raise below its maximum).
  const named = (r: ExperimentResult, key: string, raw: ParamValues): boolean => {
    const f = r.findings.find((x) => x.key === key);
    return f !== undefined && Object.keys(followUpParams([f], tlbProbes.params, resolveParams(tlbProbes.params, raw))).length > 0;
  };
  const reachRaw = { ...base, probe: 'reach', sizeTo: c.top };
  const followUps = new Set<string>();
  if (named(page, 'tlb.pageBytes', { ...base, probe: 'page-size', sizeTo: c.top })) followUps.add('page size');
  for (const k of ['L1', 'L2']) {
    const key = `tlb.${k.toLowerCase()}`;
    const of: Record<string, string> = { entries: 'entries', sets: 'sets', ways: 'ways', policy: 'policy', 'fully associative': 'fullyAssociative' };
    for (const [q, f] of Object.entries(of)) if (named(reach, `${key}.${f}`, reachRaw) || (f !== 'entries' && named(reach, `${key}.entries`, reachRaw) && get(reach, `${key}.${f}`) === undefined)) followUps.add(`${k} TLB ${q}`);
  }
  const out: Record<string, unknown> = { [FOLLOW_UPS]: followUps, 'page size': get(page, 'tlb.pageBytes'), window: get(window, 'tlb.window.bytes'), 'L1 TLB fully associative (fixed-count)': get(fixed, 'tlb.l1.fullyAssociative'), 'L2 TLB sets (missed-entries)': get(missed, 'tlb.l2.sets'), 'L2 TLB entries (missed-entries)': get(missed, 'tlb.l2.entries') };
  if (process.env.BLIND_TLB_WHY) {
    const why = (r: ExperimentResult, key: string): string => (r.findings.find((f) => f.key === key)?.evidence ?? 'absent').slice(0, 160);
    console.log(`WHY ${c.name.split(';')[0]} | L1 ${why(reach, 'tlb.l1.entries')} | L2 ${why(reach, 'tlb.l2.entries')} | page ${why(page, 'tlb.pageBytes')}`);
  }
  for (const k of ['L1', 'L2']) {
    const key = `tlb.${k.toLowerCase()}`;
    out[`${k} TLB entries`] = get(reach, `${key}.entries`);
    out[`${k} TLB sets`] = get(reach, `${key}.sets`);
    const sizes = get(reach, `${key}.setSizes`);
    const unequal = typeof sizes === 'string' && new Set(sizes.split(',')).size > 1;
    out[`${k} TLB ways`] = unequal ? sizes : get(reach, `${key}.ways`);
    out[`${k} TLB policy`] = get(reach, `${key}.policy`);
    out[`${k} TLB fully associative`] = get(reach, `${key}.fullyAssociative`);
  }
  return out;
}

const QUANTITIES = ['page size', 'L1 TLB entries', 'L1 TLB sets', 'L1 TLB ways', 'L1 TLB fully associative', 'L1 TLB fully associative (fixed-count)', 'L1 TLB policy', 'L2 TLB entries', 'L2 TLB sets', 'L2 TLB ways', 'L2 TLB fully associative', 'L2 TLB sets (missed-entries)', 'L2 TLB entries (missed-entries)', 'L2 TLB policy', 'window'];

describe('blind random TLB geometries', () => {
  it(`scores the TLB probes on ${CASES} random presets, ${PAPER_CASES} presets near the papers' machines (seed ${SEED}) and the papers' presets swept wider`, () => {
    const card = new Scorecard(`TLB probes, seed ${SEED}, all cases`);
    const cards = { inside: new Scorecard(`seed ${SEED}, inside the papers' conditions`), outside: new Scorecard(`seed ${SEED}, outside them`) };
    const all = [...generate(SEED, CASES), ...papers(), ...paperLike(SEED, PAPER_CASES)];
    const only = process.env.BLIND_TLB_ONLY;
    const picked = only === undefined ? all.map((_, k) => k) : only.split(',').map(Number);
    const log: string[] = [];
    const before = { inside: new Scorecard(`seed ${SEED}, inside the papers' conditions, without follow-ups`), outside: new Scorecard(`seed ${SEED}, outside them, without follow-ups`) };
    picked.forEach((i) => {
      const c = all[i];
      const first = measure(c, SEED + 10 * i, false);
      const named = first[FOLLOW_UPS] as Set<string>;
      const got = named.size ? measure(c, SEED + 10 * i) : first;
      const split = insidePapers(c.preset, c.top);
      const side = split.inside ? cards.inside : cards.outside;
      const sideBefore = split.inside ? before.inside : before.outside;
      for (const q of QUANTITIES) {
        sideBefore.judge(q, c.truth[q], first[q], c.name);
        if (named.has(q)) sideBefore.followUp(q, !isCannotTell(got[q]) && got[q] !== undefined);
        if (named.has(q) && process.env.BLIND_TLB_FU) console.log(`FU ${c.name.slice(0, 90)} | ${q}: ${String(first[q])} -> ${String(got[q])} (truth ${String(c.truth[q])}) top ${c.top / MB} MB`);
      }
      if (process.env.BLIND_TLB_VERBOSE) console.log(`${split.inside ? 'INSIDE ' : 'OUTSIDE'} ${c.name}${split.why ? ` (${split.why})` : ''}`);
      const marks: string[] = [];
      for (const q of QUANTITIES) {
        side.judge(q, c.truth[q], got[q], c.name);
        const o = card.judge(q, c.truth[q], got[q], c.name);
        if (o === 'wrong') marks.push(`${q}: ${String(got[q])} (truth ${String(c.truth[q])})`);
      }
      if (marks.length) log.push(`${c.name}\n    ${marks.join('\n    ')}`);
    });
    before.inside.report(`tlb-seed-${SEED}-inside-first-run`);
    before.outside.report(`tlb-seed-${SEED}-outside-first-run`);
    cards.inside.report(`tlb-seed-${SEED}-inside`);
    cards.outside.report(`tlb-seed-${SEED}-outside`);
    card.report(`tlb-seed-${SEED}`);
    if (process.env.BLIND_TLB_VERBOSE) console.log(log.join('\n'));
    for (const k of [cards.inside, cards.outside, card]) {
      const w = k.wrong();
      expect(w.total, `${k.name}\n${w.detail}`).toBe(0);
    }
    // The target share of honest answers inside the papers' conditions is 10 %; the probes are not there
    // yet (20 to 50 % by seed). What remains: entry coverages of the L2 TLB at or below the L1's (the L1
    // filters the accesses; page size), L2 TLBs whose sets a 2 MB stride reaches only in part, steps whose
    // odd and even counts alternate when entries are shared, and windows on GT200-like presets (the sweep
    // exceeds 4000 points). Outside them, where a data cache, a virtually indexed cache or a TLB of small
    // pages overflows first, the order of the levels after it is not proven and every later quantity
    // stays 'cannot tell'.
    expect(cards.inside.honestShare()).toBeLessThanOrEqual(0.6);
    for (const [name, k] of [['inside', before.inside], ['outside', before.outside]] as const) {
      const r = k.resolvedShare();
      console.log(`follow-ups ${name}: ${r.resolved} of ${r.followUps} "cannot tell" answers that named one were decided by it (${(100 * r.share).toFixed(1)} %); honest share without follow-ups ${(100 * k.honestShare()).toFixed(1)} %`);
    }
    console.log(`honest share: inside ${(100 * cards.inside.honestShare()).toFixed(1)} %, outside ${(100 * cards.outside.honestShare()).toFixed(1)} %, all ${(100 * card.honestShare()).toFixed(1)} % (target 10 % inside)`);
  });

  it("decides the papers' presets swept wider than the papers did", () => {
    // Kepler to 3.2 GB (the 512 MB page window past the L2 TLB is no third level), Fermi with jitter, Tesla's
    // bit-indexed L2 TLB at 512 KB (8 of its 1024 sets reached: the ways, not the sets).
    const [kepler, fermi, tesla] = papers().map((c, i) => measure(c, SEED + 1000 + i));
    for (const m of [kepler, fermi, tesla]) {
      expect(m['L1 TLB entries']).toBe(16);
      expect(m['L1 TLB sets']).toBe(1);
    }
    expect(kepler['L2 TLB entries']).toBe(65);
    expect(kepler['L2 TLB ways']).toBe('17,8,8,8,8,8,8');
    expect(kepler['L2 TLB policy']).toBe('LRU');
    expect(kepler['page size']).toBe(2 * MB);
    expect(kepler.window).toBe(512 * MB);
    expect(tesla['L2 TLB ways']).toBe(8);
    expect(tesla['L2 TLB sets']).toBe('cannot tell');
    expect(tesla['page size']).toBe(4 * KB);
  });
});
