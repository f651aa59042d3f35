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
import type { Finding, ParamValues } from '../../../src-sim/experiments/types';
import type { CacheLevelConfig, PathConfig, TranslationConfig } from '../../../src-sim/model/path';
import type { CacheGeometry } from '../../../src-sim/model/types';
import type { Preset, SpaceId } from '../../../src-sim/presets/types';

/** REPRODUCTION.md: latencies within 5 % of the reference. */
export const LATENCY_TOLERANCE = 0.05;

/** How a value is compared: equal numbers, latencies within 5 %, a list of sizes as a multiset, words. */
export type Tolerance = 'exact' | 'latency' | 'list' | 'word' | 'range';

export interface TrueValue {
  value: number | string;
  /** Dotted path in the preset snapshot the value comes from (shown as a tooltip). */
  source: string;
  tolerance: Tolerance;
}

/**
 * A published value for one finding key (what a future `reproduce.references` call could return).
 * The contract has no such call yet: the run view passes none, and the paper column stays blank.
 */
export interface PaperRef {
  key: string;
  value: number | string;
  unit: string;
  tolerance: 'latency' | 'exact' | 'range';
  range?: [number, number];
  citation: string;
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
  const g = level.geometry;
  switch (prop) {
    case 'sizeBytes':
      return { value: level.sizeBytes, source: `${at}.sizeBytes`, tolerance: 'exact' };
    case 'reachBytes':
      return { value: level.sizeBytes, source: `${at}.sizeBytes`, tolerance: 'exact' };
    case 'lineBytes':
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
    case 'fullyAssociative':
      return { value: g.sets === 1 ? 'yes' : 'no', source: `${at}.geometry.sets`, tolerance: 'word' };
    case 'policy':
      return { value: policyWord(g), source: `${at}.geometry.policy`, tolerance: 'word' };
    case 'hotWay':
      // The analyser names ways by first-load order from 1; a cold set fills way 0, 1, ... in order.
      return g.policy.kind === 'fermi' ? { value: g.policy.hotWay + 1, source: `${at}.geometry.policy.hotWay`, tolerance: 'exact' } : null;
    default:
      return null;
  }
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
export function trueValue(key: string, preset: Preset, params: ParamValues): TrueValue | null {
  const parts = key.split('.');
  const last = parts[parts.length - 1];

  if (parts[0] === 'cache' && parts.length === 2) {
    const p = pathOf(preset, params);
    const first = p?.path.levels[0];
    if (!p || !first) return null;
    const at = p.source.startsWith('l1Configs') ? p.source : `${p.source}.levels.0`;
    if (last === 'hitLatency') {
      const t = p.path.translation;
      const outcome = t && t.virtualLevels === 0 ? 'l1' : '-';
      return latencyOf(p.path, `${first.name}/${outcome}`, p.source, params, preset);
    }
    return levelProperty(first, last, at);
  }

  if (parts[0] === 'tlb') {
    const tr = translationOf(preset, params);
    if (!tr) return null;
    if (key === 'tlb.pageBytes') return { value: tr.t.pageBytes, source: `${tr.at}.pageBytes`, tolerance: 'exact' };
    if (key === 'tlb.window.bytes')
      return tr.t.activeWindowBytes !== undefined ? { value: tr.t.activeWindowBytes, source: `${tr.at}.activeWindowBytes`, tolerance: 'exact' } : null;
    if (parts.length === 3 && (parts[1] === 'l1' || parts[1] === 'l2')) return levelProperty(tr.t[parts[1]], last, `${tr.at}.${parts[1]}`);
    return null;
  }

  if (parts[0] === 'shared' && parts.length === 2) {
    const s = preset.shared;
    if (last === 'maxDegree' && Object.keys(s.modes).length === 1) {
      const mode = s.modes[s.defaultMode];
      // Degree of the worst stride: banks x words per bank slot (one word per slot in 4-byte mode).
      return mode ? { value: s.banks * mode.slotWords, source: 'shared.banks', tolerance: 'exact' } : null;
    }
    if (last === 'base') return { value: s.latency.base, source: 'shared.latency.base', tolerance: 'latency' };
    if (last === 'perConflict') return { value: s.latency.perConflict, source: 'shared.latency.perConflict', tolerance: 'latency' };
    return null;
  }

  const pattern = /^pattern(\d)\.latency$/.exec(key);
  if (pattern) {
    const p = pathOf(preset, params);
    const spec = PATTERN_KEYS[pattern[1]];
    if (!p || !spec) return null;
    const level = spec[0] === 'memory' ? 'memory' : p.path.levels[0]?.name;
    return level ? latencyOf(p.path, `${level}/${spec[1]}`, p.source, params, preset) : null;
  }

  if (key === 'clock.overhead') return { value: preset.measurement.clockOverhead, source: 'measurement.clockOverhead', tolerance: 'exact' };
  if (key === 'clock.scope')
    return preset.measurement.clockScope ? { value: preset.measurement.clockScope, source: 'measurement.clockScope', tolerance: 'word' } : null;

  // Average-latency curves: "<series>.levelN.<prop>" is the Nth cache level the curve rises through.
  const curve = /\.level(\d+)\.(sizeBytes|lineBytes|sets|ways)$/.exec(key);
  if (curve) {
    const p = pathOf(preset, params);
    const n = Number(curve[1]);
    const level = p?.path.levels[n - 1];
    if (!p || !level) return null;
    return levelProperty(level, curve[2], `${p.source}.levels.${n - 1}`);
  }
  return null;
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
  if (typeof inferred === 'number' && typeof ref === 'number') {
    if (!Number.isFinite(inferred) || !Number.isFinite(ref)) return NONE;
    const deviation = ref === 0 ? (inferred === 0 ? 0 : Math.sign(inferred)) : (inferred - ref) / Math.abs(ref);
    let pass: boolean;
    if (tolerance === 'latency') pass = Math.abs(deviation) <= LATENCY_TOLERANCE + 1e-12;
    else if (tolerance === 'range' && range) pass = inferred >= range[0] && inferred <= range[1];
    else pass = Math.abs(inferred - ref) <= 1e-9 * Math.max(1, Math.abs(ref));
    return { deviation, pass };
  }
  if (tolerance === 'list') return { deviation: null, pass: sortedList(inferred) === sortedList(ref) };
  return { deviation: null, pass: String(inferred).trim().toLowerCase() === String(ref).trim().toLowerCase() };
}

/** The table's rows: one per finding, in the order the run reported them. */
export function findingRows(findings: readonly Finding[], preset: Preset | null, params: ParamValues, refs: readonly PaperRef[] = []): FindingRow[] {
  const byKey = new Map(refs.map((r) => [r.key, r]));
  const levelsSeen = new Map(findings.filter((f) => f.key.endsWith('.levels')).map((f) => [f.key.slice(0, -'.levels'.length), f.value]));
  const cacheLevels = preset ? (pathOf(preset, params)?.path.levels.length ?? 0) : 0;
  return findings.map((finding) => {
    let truth = preset ? trueValue(finding.key, preset, params) : null;
    // A curve's "level N" is the Nth rise it shows: the space's Nth cache only when the curve rose
    // once per cache level (TLB steps or an uneven rise would shift the numbering).
    const curve = /^(.*)\.level\d+\.[A-Za-z]+$/.exec(finding.key);
    if (truth && curve && curve[1] !== 'tlb' && levelsSeen.get(curve[1]) !== cacheLevels) truth = null;
    const vsTruth = truth ? compare(finding.value, truth.value, truth.tolerance) : NONE;
    const paper = byKey.get(finding.key) ?? null;
    const vsPaper = paper ? compare(finding.value, paper.value, paper.tolerance, paper.range) : NONE;
    const verdict =
      vsPaper.pass !== null ? { pass: vsPaper.pass, against: 'paper' as const } : vsTruth.pass !== null ? { pass: vsTruth.pass, against: 'preset' as const } : null;
    return { finding, truth, vsTruth, paper, vsPaper, verdict };
  });
}

/** REPRODUCTION.md row ids among a run's tags ("MEI-T3", "WONG-F10..F12"). */
export function rowTags(tags: readonly string[]): string[] {
  return tags.filter((t) => /^(MEI|WONG)-[A-Za-z0-9./]+$/.test(t));
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
