/**
 * The run view's findings table: each inferred value beside the preset's true value (read from the
 * run's preset snapshot for well-known keys) and the paper's value where one is known, with the
 * deviation and a pass/fail verdict.
 *
 * Pure functions over plain data (types only from src-sim and src-main): no API, no DOM.
 *
 * The true values are a display aid for the student ("what the simulated GPU really is"); they
 * never feed back into an analysis. The mapping is deliberately small: a key this file does not
 * know shows "—" rather than a guess.
 */
import type { RunReferences } from '../contract';
import type { Finding, ParamValues } from '../../src-sim/experiments/types';
import type { CheckKind, Reference } from '../../src-sim/reference/types';
import type { CacheLevelConfig, PathConfig, TranslationConfig } from '../../src-sim/model/path';
import type { CacheGeometry } from '../../src-sim/model/types';
import type { Preset, SpaceId } from '../../src-sim/presets/types';
import { isCannotTell } from '../../src-sim/analysis/cannot-tell';
import { parseBytes } from '../../src-sim/experiments/params';
import { tlbProbeStride } from '../../src-sim/experiments/tlb-stride';
import { conflictDegree, type SharedBankMode } from '../../src-sim/model/shared';

/** REPRODUCTION.md: latencies within 5 % of the reference. */
export const LATENCY_TOLERANCE = 0.05;

/**
 * How a value is compared: equal numbers, latencies within 5 %, a list of sizes as a multiset,
 * words; 'none' for statistical quantities (eviction shares): a deviation, no verdict.
 */
export type Tolerance = 'exact' | 'latency' | 'list' | 'word' | 'range' | 'none';

export interface TrueValue {
  value: number | string;
  /** Dotted path in the preset snapshot the value comes from (shown as a tooltip). */
  source: string;
  tolerance: Tolerance;
}

/** A published value for one finding key (from the contract's `reproduce.references`). */
export interface PaperRef {
  key: string;
  value: number | string;
  unit: string;
  /** As src-sim's Reference: 'half' and 'half-gain' (relative figures) are judged by the main process's check. */
  tolerance: Reference['tolerance'];
  range?: [number, number];
  citation: string;
  /** The paper's name for the quantity ("L1 on, pattern 1") and the REPRODUCTION.md rows citing it. */
  name?: string;
  rowIds?: string[];
  /** The main process's check of the finding against it (src-sim/reference/check.ts), when given. */
  pass?: boolean;
  /** Why the model is known to miss the paper's value (Reference.knownDeviation), when that check fails. */
  note?: string;
  /** What the check can prove: predicted (a reproduction), recovered (a method check), calibrated or specification (consistency). */
  kind?: CheckKind;
  kindReason?: string;
  /** A value shown for context beside the paper's, never judged (a real-GPU figure). */
  context?: string;
  /** The check's rule and band at the precision that decides it (CheckResult.rule). */
  rule?: string;
}

/** The paper values of `reproduce.references`, one per finding key they sit beside. */
export function paperRefs(refs: Pick<RunReferences, 'findings'> | null | undefined): PaperRef[] {
  return (refs?.findings ?? []).map(({ key, paper, check }) => ({
    key,
    value: paper.reference.value,
    unit: paper.reference.unit,
    tolerance: paper.reference.tolerance,
    ...(paper.reference.range ? { range: paper.reference.range } : {}),
    citation: paper.reference.citation,
    name: paper.reference.name,
    rowIds: paper.rowIds,
    pass: check.pass,
    ...(check.note ? { note: check.note } : {}),
    kind: check.kind,
    ...(check.kindReason ? { kindReason: check.kindReason } : {}),
    ...(check.context ? { context: check.context } : {}),
    ...(check.rule ? { rule: check.rule } : {}),
  }));
}

export interface Comparison {
  /** Signed relative deviation of the inferred value (0.02 = +2 %), null when not numeric. */
  deviation: number | null;
  pass: boolean | null;
}

export interface FindingRow {
  finding: Finding;
  truth: TrueValue | null;
  vsTruth: Comparison;
  paper: PaperRef | null;
  vsPaper: Comparison;
  /** The verdict shown: against the paper when it has a value, else against the preset. */
  verdict: { pass: boolean; against: 'paper' | 'preset' } | null;
}

// ---------------------------------------------------------------------------------------------
// Where the run's structures are in its preset
// ---------------------------------------------------------------------------------------------

const SPACES: readonly string[] = ['global', 'global-cg', 'texture', 'constant', 'instruction'];

/** The memory space a run's parameters name (default global). */
export function spaceOf(params: ParamValues): SpaceId {
  const s = params.space;
  return typeof s === 'string' && SPACES.includes(s) ? (s as SpaceId) : 'global';
}

/**
 * The path an experiment opened for `space`, as src-sim's openSpace does: global-cg falls back to
 * global on a preset whose global levels are all shared (nothing to bypass), and an `l1Config`
 * parameter other than "default" replaces the SM-scoped first level of the global paths.
 */
export function pathOf(preset: Preset, params: ParamValues): { path: PathConfig; space: SpaceId; source: string } | null {
  const space = spaceOf(params);
  let path = preset.spaces[space];
  let source = `spaces.${space}`;
  if (!path && space === 'global-cg' && preset.spaces.global.levels.every((l) => l.scope !== 'sm')) {
    path = preset.spaces.global;
    source = 'spaces.global';
  }
  if (!path) return null;
  const cfgId = typeof params.l1Config === 'string' ? params.l1Config : 'default';
  if (cfgId !== 'default' && (space === 'global' || space === 'global-cg')) {
    const cfg = preset.l1Configs?.find((c) => c.id === cfgId);
    const first = path.levels[0];
    if (cfg && first && first.scope === 'sm') {
      const index = preset.l1Configs!.indexOf(cfg);
      path = { ...path, levels: [{ ...first, sizeBytes: cfg.sizeBytes, geometry: cfg.geometry }, ...path.levels.slice(1)] };
      return { path, space, source: `l1Configs.${index}` };
    }
  }
  return { path, space, source };
}

function totalEntries(g: CacheGeometry): number {
  return g.setWays ? g.setWays.reduce((a, b) => a + b, 0) : g.sets * g.ways;
}

function policyWord(g: CacheGeometry): string {
  return g.policy.kind === 'lru' ? 'LRU' : 'not LRU';
}

/** The true value of one property of a cache level (or TLB). */
function levelProperty(level: CacheLevelConfig, prop: string, at: string): TrueValue | null {
  const share = /^way(\d+)\.evictionShare$/.exec(prop);
  if (share) return evictionShare(level, Number(share[1]), at);
  const g = level.geometry;
  switch (prop) {
    case 'sizeBytes':
      return { value: level.sizeBytes, source: `${at}.sizeBytes`, tolerance: 'exact' };
    case 'reachBytes':
      return { value: level.sizeBytes, source: `${at}.sizeBytes`, tolerance: 'exact' };
    case 'lineBytes':
      // A sectored cache fills one sector a miss (or its fill unit): the unit a chase sees is that, not the line.
      if (g.sectorBytes && g.fillBytes && g.fillBytes !== g.sectorBytes)
        return { value: g.fillBytes, source: `${at}.geometry.fillBytes (a chase sees the ${g.fillBytes} B a miss fills; sectors of ${g.sectorBytes} B, lines of ${g.lineBytes} B)`, tolerance: 'exact' };
      if (g.sectorBytes) return { value: g.sectorBytes, source: `${at}.geometry.sectorBytes (a chase sees the ${g.sectorBytes} B sector a miss fills; lines of ${g.lineBytes} B)`, tolerance: 'exact' };
      return { value: g.lineBytes, source: `${at}.geometry.lineBytes`, tolerance: 'exact' };
    case 'entryBytes':
      return { value: g.lineBytes, source: `${at}.geometry.lineBytes`, tolerance: 'exact' };
    case 'sets':
      return { value: g.sets, source: `${at}.geometry.sets`, tolerance: 'exact' };
    case 'ways':
      return g.setWays ? null : { value: g.ways, source: `${at}.geometry.ways`, tolerance: 'exact' };
    case 'entries':
    case 'lines':
      return { value: totalEntries(g), source: `${at}.geometry`, tolerance: 'exact' };
    case 'setSizes':
      return {
        value: (g.setWays ?? new Array<number>(g.sets).fill(g.ways)).join(','),
        source: `${at}.geometry.${g.setWays ? 'setWays' : 'ways'}`,
        tolerance: 'list',
      };
    case 'waySizeBytes':
      return g.setWays ? null : { value: level.sizeBytes / g.ways, source: `${at}.sizeBytes / ways`, tolerance: 'exact' };
    case 'setIndexKind': {
      // As the four-step method names it (src-sim/analysis/structure.ts, cache-structure's findings).
      const word = g.setWays
        ? 'unequal sets'
        : g.sets === 1
          ? 'one set'
          : g.index.kind === 'xor'
            ? 'hashed'
            : g.index.kind === 'bits'
              ? `bit selection, ${g.index.shiftBits !== undefined ? 2 ** g.index.shiftBits : g.lineBytes} B granularity`
              : `bit selection, ${g.lineBytes} B granularity`;
      return { value: word, source: `${at}.geometry.index`, tolerance: 'word' };
    }
    case 'fullyAssociative':
      return { value: g.sets === 1 ? 'yes' : 'no', source: `${at}.geometry.sets`, tolerance: 'word' };
    case 'policy':
      return { value: policyWord(g), source: `${at}.geometry.policy`, tolerance: 'word' };
    case 'linesPerSet':
      return g.setWays ? null : { value: g.ways, source: `${at}.geometry.ways`, tolerance: 'exact' };
    case 'granularityBytes':
    case 'setIndexBits': {
      if (g.index.kind !== 'bits') return null;
      const shift = g.index.shiftBits ?? Math.log2(g.lineBytes);
      if (prop === 'granularityBytes') return { value: 2 ** shift, source: `${at}.geometry.index`, tolerance: 'exact' };
      return Number.isInteger(shift) && Number.isInteger(Math.log2(g.sets))
        ? { value: `${shift}-${shift + Math.log2(g.sets) - 1}`, source: `${at}.geometry.index, sets`, tolerance: 'word' }
        : null;
    }
    case 'hotWayInterval':
      // A miss refills the hot way with probability p: once every 1/p misses on average.
      return g.policy.kind === 'fermi' ? { value: 1 / g.policy.hotProbability, source: `${at}.geometry.policy.hotProbability`, tolerance: 'none' } : null;
    case 'hotWay':
      // The analyser names ways by first-load order from 1; a cold set fills way 0, 1, ... in order.
      return g.policy.kind === 'fermi' ? { value: g.policy.hotWay + 1, source: `${at}.geometry.policy.hotWay`, tolerance: 'exact' } : null;
    default:
      return null;
  }
}

/** The share of evictions way `n` (1-based, in first-load order) takes under the level's policy. */
function evictionShare(level: CacheLevelConfig, n: number, at: string): TrueValue | null {
  const g = level.geometry;
  if (g.setWays || n < 1 || n > g.ways) return null;
  const p = g.policy;
  if (p.kind === 'fermi') {
    const value = n - 1 === p.hotWay ? p.hotProbability : (1 - p.hotProbability) / (g.ways - 1);
    return { value, source: `${at}.geometry.policy`, tolerance: 'none' };
  }
  return { value: 1 / g.ways, source: `${at}.geometry.ways (${p.kind}: every way in turn)`, tolerance: 'none' };
}

/** Latency of a latency-table entry as the run measured it (the clock overhead when included). */
function latencyOf(path: PathConfig, key: string, source: string, params: ParamValues, preset: Preset): TrueValue | null {
  const v = path.latency[key];
  if (v === undefined) return null;
  const overhead = params.clockOverhead === 'included' ? preset.measurement.clockOverhead : 0;
  return { value: v + overhead, source: `${source}.latency.${key}${overhead ? ' + clock overhead' : ''}`, tolerance: 'latency' };
}

/** MEI Table 3's patterns as latency-table keys: [data level ('first' or 'memory'), TLB outcome]. */
const PATTERN_KEYS: Record<string, ['first' | 'memory', string]> = {
  '1': ['first', 'l1'],
  '2': ['first', 'l2'],
  '3': ['first', 'miss'],
  '4': ['memory', 'l1'],
  '5': ['memory', 'miss'],
  '6': ['memory', 'inactive'],
};

function translationOf(preset: Preset, params: ParamValues): { t: TranslationConfig; at: string } | null {
  const p = pathOf(preset, params);
  if (p?.path.translation) return { t: p.path.translation, at: `${p.source}.translation` };
  const g = preset.spaces.global.translation;
  return g ? { t: g, at: 'spaces.global.translation' } : null;
}

/**
 * The preset's true value for a finding key, or null when this mapping does not know the key (or
 * the preset does not define it). Covers: `cache.*` (the probed first level of the chosen space),
 * `<curve>.levelN.*` (the Nth cache level of the space), `tlb.l1.*` / `tlb.l2.*` / `tlb.pageBytes` /
 * `tlb.window.bytes` (the space's translation, else global's), `shared.*` (preset.shared),
 * `patternN.latency` (the latency table) and `clock.*` (preset.measurement).
 */
export function trueValue(key: string, preset: Preset, params: ParamValues, experiment?: string): TrueValue | null {
  const parts = key.split('.');
  const last = parts[parts.length - 1];

  if ((parts[0] === 'cache' || parts[0] === 'texture') && parts.length >= 2) {
    // texture.*: texture-set-mapping probes the texture path's first level.
    const p = pathOf(preset, parts[0] === 'texture' ? { ...params, space: 'texture' } : params);
    const first = p?.path.levels[0];
    if (!p || !first) return null;
    const at = p.source.startsWith('l1Configs') ? p.source : `${p.source}.levels.0`;
    if (key === 'cache.hitLatency') return latencyOf(p.path, `${first.name}/${tlbHitOutcome(p.path, 0)}`, p.source, params, preset);
    if (key === 'cache.missLatency') {
      // A miss of the first level is served by the next one (or memory), with the same TLB outcome.
      const next = p.path.levels[1]?.name ?? 'memory';
      return latencyOf(p.path, `${next}/${tlbHitOutcome(p.path, 1)}`, p.source, params, preset);
    }
    return levelProperty(first, parts.slice(1).join('.'), at);
  }

  if (parts[0] === 'tlb') {
    const tr = translationOf(preset, params);
    if (!tr) return null;
    const tlbLatency = /^tlb\.latency\.(l1Hit|l2Hit|l2Miss)$/.exec(key);
    if (tlbLatency) {
      // The TLB probes keep the data in the path's first level (memory when it has none).
      const p = pathOf(preset, params);
      if (!p) return null;
      const level = p.path.levels[0]?.name ?? 'memory';
      const outcome = { l1Hit: 'l1', l2Hit: 'l2', l2Miss: 'miss' }[tlbLatency[1] as 'l1Hit' | 'l2Hit' | 'l2Miss'];
      return latencyOf(p.path, `${level}/${outcome}`, p.source, params, preset);
    }
    if (key === 'tlb.pageBytes') return { value: tr.t.pageBytes, source: `${tr.at}.pageBytes`, tolerance: 'exact' };
    if (key === 'tlb.window.bytes')
      return tr.t.activeWindowBytes !== undefined ? { value: tr.t.activeWindowBytes, source: `${tr.at}.activeWindowBytes`, tolerance: 'exact' } : null;
    if (parts.length === 3 && (parts[1] === 'l1' || parts[1] === 'l2')) {
      const level = tr.t[parts[1]];
      const at = `${tr.at}.${parts[1]}`;
      const strided = experiment === 'tlb-probes' ? tlbAtStride(level, last, at, tlbProbeStride(preset, params)) : null;
      return strided ?? levelProperty(level, last, at);
    }
    return null;
  }

  if (parts[0] === 'shared' && (parts.length === 2 || parts.length === 3)) return sharedTruth(parts, preset, params);

  const pattern = /^pattern(\d)\.latency$/.exec(key);
  if (pattern) {
    const p = pathOf(preset, params);
    const spec = PATTERN_KEYS[pattern[1]];
    if (!p || !spec) return null;
    const level = spec[0] === 'memory' ? 'memory' : p.path.levels[0]?.name;
    return level ? latencyOf(p.path, `${level}/${spec[1]}`, p.source, params, preset) : null;
  }

  if (key === 'clock.opCycles')
    return preset.alu.issueCycles !== undefined ? { value: preset.alu.issueCycles, source: 'alu.issueCycles', tolerance: 'exact' } : null;
  if (key === 'clock.overhead') return { value: preset.measurement.clockOverhead, source: 'measurement.clockOverhead', tolerance: 'exact' };
  if (key === 'clock.scope')
    return preset.measurement.clockScope ? { value: preset.measurement.clockScope, source: 'measurement.clockScope', tolerance: 'word' } : null;

  // Average-latency curves: "<curve>.levels", "<curve>.levelN.<prop>", "<curve>.plateauN.latency".
  const curve = /^(.+)\.(levels|level(\d+)\.([A-Za-z]+)|plateau(\d+)\.latency)$/.exec(key);
  if (curve) {
    const c = curveRises(curve[1], preset, params, experiment);
    if (!c) return null;
    if (curve[2] === 'levels') return { value: c.rises.length, source: `${c.source}: structures sized ${c.range}`, tolerance: 'exact' };
    if (curve[3] !== undefined) {
      const rise = c.rises[Number(curve[3]) - 1];
      return rise ? levelProperty(rise.level, curve[4]!, rise.at) : null;
    }
    const state = c.states[Number(curve[5]) - 1];
    return state ? plateauLatency(c.path, c.source, state, c.stride, params, preset) : null;
  }
  return null;
}

/**
 * A TLB's entries, sets and set sizes as a tlb-probes run counts them: elements of its stride that the
 * TLB holds (reach / stride). Where the stride is coarser than one entry's coverage, only every
 * (stride / coverage)-th set is reached, so these are fewer than the geometry's sets x ways (WONG's
 * L2 TLB: 1024 sets x 8 ways of 4 KB, of which a 512 KB stride reaches 8 sets, 64 entries). Null
 * where the geometry's own counts apply (stride at most one entry) or no such rule holds.
 */
function tlbAtStride(level: CacheLevelConfig, prop: string, at: string, stride: number): TrueValue | null {
  if (prop !== 'entries' && prop !== 'sets' && prop !== 'setSizes') return null;
  const g = level.geometry;
  if (stride <= g.lineBytes || g.setWays) return null;
  const entries = level.sizeBytes / stride;
  const sets = entries / g.ways;
  if (!Number.isInteger(entries) || !Number.isInteger(sets) || sets < 1 || sets > g.sets) return null;
  const source = `${at}.sizeBytes / ${stride} B stride`;
  if (prop === 'entries') return { value: entries, source, tolerance: 'exact' };
  if (prop === 'sets') return { value: sets, source: `${source} / ways`, tolerance: 'exact' };
  return { value: new Array<number>(sets).fill(g.ways).join(','), source: `${source} / ways`, tolerance: 'list' };
}

/** The true value of a shared-memory finding: `shared.<prop>` (default mode) or `shared.<mode>.<prop>`. */
function sharedTruth(parts: string[], preset: Preset, params: ParamValues): TrueValue | null {
  const s = preset.shared;
  const modeName = parts.length === 3 ? parts[1]! : s.defaultMode;
  const mode = s.modes[modeName];
  const prop = parts[parts.length - 1];
  if (!mode) return null;
  if (prop === 'base') return { value: s.latency.base, source: 'shared.latency.base', tolerance: 'latency' };
  if (prop === 'perConflict') return { value: s.latency.perConflict, source: 'shared.latency.perConflict', tolerance: 'latency' };
  // The experiment times one warp of 32 threads: an issue group can show at most that many.
  if (prop === 'issueGroup') return { value: Math.min(s.issueGroup, 32), source: 'shared.issueGroup', tolerance: 'exact' };
  // Conflict degrees over the run's strides, from the preset's banks and mode (src-sim's bank rule).
  const from = typeof params.strideFrom === 'number' ? params.strideFrom : 0;
  const to = typeof params.strideTo === 'number' ? params.strideTo : 64;
  const step = typeof params.strideStep === 'number' && params.strideStep > 0 ? params.strideStep : 1;
  const strides: number[] = [];
  for (let x = from; x <= to && strides.length < 4096; x += step) strides.push(x);
  const degrees = (m: SharedBankMode) => strides.map((st) => conflictDegree(Array.from({ length: s.issueGroup }, (_, t) => t * st), s.banks, m, s.issueGroup));
  const at = `shared.banks, issueGroup, modes.${modeName}`;
  const d = degrees(mode);
  const max = Math.max(...d);
  if (prop === 'maxDegree') return { value: max, source: at, tolerance: 'exact' };
  // The first stride whose degree is a whole issue group (all its threads in one bank), or none in the sweep.
  if (prop === 'repeatWords') {
    const whole = strides.find((st, i) => st > 0 && d[i] === Math.min(s.issueGroup, 32));
    return { value: whole ?? 'none', source: at, tolerance: 'exact' };
  }
  if (prop === 'oddConflictFree') {
    const odd = d.filter((_, i) => strides[i]! % 2 === 1);
    return odd.length ? { value: odd.every((x) => x === 1) ? 'yes' : 'no', source: at, tolerance: 'word' } : null;
  }
  if (prop === 'betterAt' || prop === 'neverWorse') {
    const otherName = Object.keys(s.modes).find((m) => m !== modeName);
    if (!otherName) return null;
    const o = degrees(s.modes[otherName]!);
    if (prop === 'neverWorse') return { value: d.every((x, i) => x <= o[i]!) ? 'yes' : 'no', source: `${at} vs modes.${otherName}`, tolerance: 'word' };
    return { value: strides.filter((_, i) => d[i]! < o[i]!).join(','), source: `${at} vs modes.${otherName}`, tolerance: 'list' };
  }
  return null;
}

/** One structure an average-latency curve rises through: a cache level or a TLB's reach. */
interface Rise {
  level: CacheLevelConfig;
  /** Dotted path in the preset snapshot. */
  at: string;
}

/** The stride of a curve from its label: "s = 64 B" (pchase-average) or "s256" (constant-hierarchy). */
function curveStride(label: string): number | null {
  const m = /^s\s*=\s*(.+)$/.exec(label) ?? /^s(\d+)$/.exec(label);
  if (!m) return null;
  try {
    const n = /^\d+$/.test(m[1]!) ? Number(m[1]) : parseBytes(m[1]!);
    return Number.isFinite(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
}

/**
 * What an average-latency curve (pchase-average, constant-hierarchy) of this run rises through,
 * read from the preset: the cache levels of its space, and (for strides of a page or more) the TLB
 * reaches, whose size lies in the swept range [sizeFrom, sizeTo), smallest first; and the latency
 * table entry of each plateau (before the first rise, after each). Null when the run's parameters
 * do not say the range or the curve's stride.
 */
export function curveRises(
  label: string,
  preset: Preset,
  params: ParamValues,
  experiment?: string,
): { path: PathConfig; source: string; rises: Rise[]; states: PlateauState[]; stride: number; range: string } | null {
  const from = params.sizeFrom;
  const to = params.sizeTo;
  const stride = curveStride(label);
  if (typeof from !== 'number' || typeof to !== 'number' || stride === null) return null;
  const constant = experiment === 'constant-hierarchy' || (experiment === undefined && /^s\d+$/.test(label));
  const p = constant ? (preset.spaces.constant ? { path: preset.spaces.constant, source: 'spaces.constant' } : null) : pathOf(preset, params);
  if (!p) return null;
  const { path, source } = p;
  const t = path.translation;
  const tlbs = t && stride >= t.pageBytes ? [t.l1, t.l2] : [];
  // A structure fills at its size only while the stride stays within one way of bit-indexed sets;
  // a longer stride (or a hashed index) crowds fewer sets, and the curve says more of the stride
  // than of the preset: no true values then.
  for (const level of [...path.levels, ...tlbs]) {
    const g = level.geometry;
    if (stride <= g.lineBytes) continue;
    if (g.index.kind !== 'bits' || g.setWays || stride > g.sets * 2 ** (g.index.shiftBits ?? Math.log2(g.lineBytes))) return null;
  }
  const inRange = (size: number) => size >= from && size < to;
  const rises: (Rise & { kind: 'cache' | 'tlb'; index: number; size: number })[] = [];
  path.levels.forEach((level, i) => {
    if (inRange(level.sizeBytes)) rises.push({ kind: 'cache', index: i, level, at: source.startsWith('l1Configs') && i === 0 ? source : `${source}.levels.${i}`, size: level.sizeBytes });
  });
  if (t && tlbs.length)
    (['l1', 'l2'] as const).forEach((which, i) => {
      if (inRange(t[which].sizeBytes)) rises.push({ kind: 'tlb', index: i, level: t[which], at: `${source}.translation.${which}`, size: t[which].sizeBytes });
    });
  rises.sort((a, b) => a.size - b.size);
  // The plateaus: which level serves the hits, and the TLB's outcome, at the smallest size and after each rise.
  let data = path.levels.findIndex((l) => l.sizeBytes >= from);
  if (data < 0) data = path.levels.length;
  let tlb = 0;
  if (t && stride >= t.pageBytes) tlb = t.l1.sizeBytes >= from ? 0 : t.l2.sizeBytes >= from ? 1 : 2;
  const states: PlateauState[] = [{ data, tlb }];
  for (const r of rises) {
    if (r.kind === 'cache') data = Math.max(data, r.index + 1);
    else tlb = Math.max(tlb, r.index + 1);
    states.push({ data, tlb });
  }
  return { path, source, rises, states, stride, range: `${formatBytes(from)} to ${formatBytes(to)}` };
}

/** A plateau of a curve: the level holding the array (levels.length: memory) and the TLB outcome (0 L1 hit, 1 L2 hit, 2 miss). */
interface PlateauState {
  data: number;
  tlb: number;
}

/**
 * The mean latency of a plateau, from the latency table. The levels smaller than the array thrash,
 * but a stride shorter than their line still hits the line the previous access brought in: an
 * access is served by the innermost thrashing level whose line it does not enter first, else by
 * the level holding the array (averaged over one period of the stride and the line sizes).
 */
function plateauLatency(path: PathConfig, source: string, state: PlateauState, stride: number, params: ParamValues, preset: Preset): TrueValue | null {
  const t = path.translation;
  const key = (level: number) => {
    const name = path.levels[level]?.name ?? 'memory';
    return !t || level < t.virtualLevels ? `${name}/-` : `${name}/${['l1', 'l2', 'miss'][state.tlb]}`;
  };
  // What a miss brings in: the fill unit or the sector of a sectored cache, else the line.
  const lines = path.levels.slice(0, state.data).map((l) => l.geometry.fillBytes ?? l.geometry.sectorBytes ?? l.geometry.lineBytes);
  const period = Math.max(1, ...lines.map((line) => Math.ceil(line / stride)));
  const used = new Map<string, number>();
  let sum = 0;
  for (let j = 0; j < period; j++) {
    const offset = j * stride;
    const inner = lines.findIndex((line) => stride < line && offset % line >= stride);
    const k = key(inner >= 0 ? inner : state.data);
    const v = path.latency[k];
    if (v === undefined) return null;
    sum += v;
    used.set(k, (used.get(k) ?? 0) + 1);
  }
  const overhead = params.clockOverhead === 'included' ? preset.measurement.clockOverhead : 0;
  const mix = [...used].map(([k, n]) => (used.size > 1 ? `${n}/${period} ${k}` : k)).join(' + ');
  return { value: sum / period + overhead, source: `${source}.latency: ${mix}${overhead ? ' + clock overhead' : ''}`, tolerance: 'latency' };
}

/** The TLB outcome of a hit in level `index` of a path: none ('-') above the translation, else an L1 TLB hit. */
function tlbHitOutcome(path: PathConfig, index: number): string {
  const t = path.translation;
  return t && index >= t.virtualLevels ? 'l1' : '-';
}

// ---------------------------------------------------------------------------------------------
// Comparing
// ---------------------------------------------------------------------------------------------

const NONE: Comparison = { deviation: null, pass: null };

function sortedList(v: number | string): string {
  return String(v)
    .split(',')
    .map((s) => Number(s.trim()))
    .sort((a, b) => a - b)
    .join(',');
}

/** Compares an inferred value with a reference value under a tolerance. */
export function compare(inferred: number | string, ref: number | string, tolerance: Tolerance, range?: [number, number]): Comparison {
  // An analyser's honest "cannot tell" is no value: neither a match nor a mismatch.
  if (isCannotTell(inferred)) return NONE;
  if (typeof inferred === 'number' && typeof ref === 'number') {
    if (!Number.isFinite(inferred) || !Number.isFinite(ref)) return NONE;
    const deviation = ref === 0 ? (inferred === 0 ? 0 : Math.sign(inferred)) : (inferred - ref) / Math.abs(ref);
    let pass: boolean;
    if (tolerance === 'none') return { deviation, pass: null };
    if (tolerance === 'latency') pass = Math.abs(deviation) <= LATENCY_TOLERANCE + 1e-12;
    else if (tolerance === 'range' && range) pass = inferred >= range[0] && inferred <= range[1];
    else pass = Math.abs(inferred - ref) <= 1e-9 * Math.max(1, Math.abs(ref));
    return { deviation, pass };
  }
  if (tolerance === 'none') return { deviation: null, pass: null };
  if (tolerance === 'list') return { deviation: null, pass: sortedList(inferred) === sortedList(ref) };
  return { deviation: null, pass: String(inferred).trim().toLowerCase() === String(ref).trim().toLowerCase() };
}

/** The table's rows: one per finding, in the order the run reported them. */
export function findingRows(
  findings: readonly Finding[],
  preset: Preset | null,
  params: ParamValues,
  refs: readonly PaperRef[] = [],
  experiment?: string,
): FindingRow[] {
  const byKey = new Map(refs.map((r) => [r.key, r]));
  const levelsSeen = new Map(findings.filter((f) => f.key.endsWith('.levels')).map((f) => [f.key.slice(0, -'.levels'.length), f.value]));
  return findings.map((finding) => {
    let truth = preset ? trueValue(finding.key, preset, params, experiment) : null;
    // A curve's "level N" / "plateau N" is the Nth rise / plateau it shows: the Nth structure in
    // the swept range only when the curve rose once per structure (a missed or an extra rise would
    // shift the numbering). Its "levels" count is compared whatever it is.
    const curve = /^(.*)\.(level\d+\.[A-Za-z]+|plateau\d+\.latency)$/.exec(finding.key);
    if (truth && curve && curve[1] !== 'tlb' && preset) {
      const expected = curveRises(curve[1]!, preset, params, experiment)?.rises.length;
      if (levelsSeen.get(curve[1]!) !== expected) truth = null;
    }
    const vsTruth = truth ? compare(finding.value, truth.value, truth.tolerance) : NONE;
    const paper = byKey.get(finding.key) ?? null;
    const local: Tolerance | null = paper ? (paper.tolerance === 'latency' || paper.tolerance === 'exact' || paper.tolerance === 'range' ? paper.tolerance : 'none') : null;
    const cmp = paper && local ? compare(finding.value, paper.value, local, paper.range) : NONE;
    // The main process's check decides pass/fail when it came with the value (the same rules).
    const vsPaper = paper?.pass === undefined ? cmp : { deviation: cmp.deviation, pass: paper.pass };
    const verdict =
      vsPaper.pass !== null ? { pass: vsPaper.pass, against: 'paper' as const } : vsTruth.pass !== null ? { pass: vsTruth.pass, against: 'preset' as const } : null;
    return { finding, truth, vsTruth, paper, vsPaper, verdict };
  });
}

/** REPRODUCTION.md row ids among a run's tags ("MEI-T3", "WONG-F10..F12"). */
export function rowTags(tags: readonly string[]): string[] {
  return tags.filter((t) => /^(MEI|WONG|LASH|SL1)-[A-Za-z0-9./-]+$/.test(t));
}

// ---------------------------------------------------------------------------------------------
// Display
// ---------------------------------------------------------------------------------------------

const KB = 1024;

/**
 * Bytes in the papers' way: "512 B", "16 KB", "1.5 MB", "130 MB". With `exact`, a size that a
 * unit cannot show within three decimals stays in bytes ("16.125 KB", but "100,000 B").
 */
export function formatBytes(n: number, exact = false): string {
  if (!Number.isFinite(n)) return String(n);
  const abs = Math.abs(n);
  const units: [number, string][] = [
    [KB ** 4, 'TB'],
    [KB ** 3, 'GB'],
    [KB ** 2, 'MB'],
    [KB, 'KB'],
  ];
  for (const [size, unit] of units) {
    if (abs < size) continue;
    const v = n / size;
    if (Number.isInteger(v)) return `${v} ${unit}`;
    if (exact) {
      if (Number(v.toFixed(3)) * size === n) return `${Number(v.toFixed(3))} ${unit}`;
      continue;
    }
    return `${Number(v.toFixed(v < 10 ? 2 : 1))} ${unit}`;
  }
  return `${Number.isInteger(n) ? n.toLocaleString('en-US') : Number(n.toFixed(2))} B`;
}

/** A number for a table cell: integers as they are (grouped), others to 4 significant digits. */
const GROUPED = new Intl.NumberFormat('en-US');
const GROUPED_1 = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Number.isInteger(n)) return Math.abs(n) < 1000 ? String(n) : GROUPED.format(n);
  const abs = Math.abs(n);
  if (abs >= 1000) return GROUPED_1.format(n);
  return String(Number(n.toPrecision(4)));
}

/** A value with its unit, as a table shows it: sizes in KB/MB, "fraction" as a percentage. */
export function formatValue(v: number | string | boolean | number[] | null | undefined, unit = ''): string {
  if (v === null || v === undefined) return '—';
  if (Array.isArray(v)) return v.map((x) => formatValue(x, unit)).join(', ');
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v === 'string') return unit && unit !== 'fraction' && v !== '' && !/[a-z]/i.test(v) ? `${v} ${unit}` : v;
  if (unit === 'B' && Number.isInteger(v) && Math.abs(v) >= KB) return formatBytes(v, true);
  if (unit === 'fraction') return `${formatNumber(Math.round(v * 1e4) / 100)} %`;
  const s = formatNumber(v);
  return unit ? `${s} ${unit}` : s;
}

/** A signed deviation: "+2.1 %", "−0.4 %", "0 %". */
export function formatDeviation(d: number | null): string {
  if (d === null) return '';
  const pct = d * 100;
  if (Math.abs(pct) < 0.05) return '0 %';
  const s = Math.abs(pct) >= 10 ? Math.abs(pct).toFixed(0) : Math.abs(pct).toFixed(1);
  return `${pct > 0 ? '+' : '−'}${s} %`;
}
