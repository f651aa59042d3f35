/**
 * "Make a preset from this GPU": a custom preset cloned from a built-in one (the closest, or one the
 * user names) with the numbers a real run's findings give put in place, each with the provenance
 * "measured on <device>, <date>, run <id>". Pure. Generic over experiments: it reads finding keys
 * (plateau and trace latencies, a level's size, shared-memory latencies), not experiment ids, so a
 * new experiment whose findings use these keys feeds it without a change here.
 */
import type { Finding, ParamValues } from '../experiments/types';
import type { Preset } from '../presets/types';
import { validatePreset } from '../presets/validate';
import type { MeasuredDevice } from './run-record';
import { measuredDay } from './run-record';

export interface RealRunFindings {
  id: string;
  experiment: string;
  params: ParamValues;
  device: MeasuredDevice;
  findings: readonly Finding[];
}

export interface PresetFromRun {
  preset: Preset;
  /** Preset paths set from the run. */
  applied: { path: string; value: number; finding: string }[];
  /** Findings with a number that did not go into the preset, and why. */
  skipped: { finding: string; reason: string }[];
}

const ccOf = (cc: string): number => {
  const [a, b] = cc.split('.').map(Number);
  return (a ?? 0) * 10 + (b ?? 0);
};

/**
 * The built-in preset nearest the device: the nearest compute capability, and among equals one whose
 * global path starts with an SM's own cache (an L1 in front of L2, as on every GPU since Fermi with
 * L1 caching on), then the later in the list.
 */
export function closestPreset(device: Pick<MeasuredDevice, 'computeCapability'>, presets: readonly Preset[]): Preset {
  if (!presets.length) throw new Error('no presets to choose from');
  const cc = ccOf(device.computeCapability);
  const score = (p: Preset): number => Math.abs(ccOf(p.computeCapability) - cc) * 10 + (p.spaces.global.levels[0]?.scope === 'sm' ? 0 : 5);
  return presets.reduce((best, p) => (score(p) <= score(best) ? p : best));
}

/** The number of a finding, or null when it is "cannot tell" or text. */
const num = (f: Finding | undefined): number | null => (f && typeof f.value === 'number' && Number.isFinite(f.value) ? f.value : null);

/** The stride a pchase-average finding belongs to ("s = 64 B.plateau1.latency" -> 64). */
const strideOf = (key: string): number | null => {
  const m = /^s = (\d+) B\./.exec(key);
  return m ? Number(m[1]) : null;
};

interface Candidate {
  path: string[];
  value: number;
  finding: string;
  /** Latencies of a level are all shifted by the same amount (their TLB penalties kept). */
  kind: 'latency-level' | 'number' | 'level-size';
  level?: string;
}

/** The findings of the smallest stride (pchase-average) that has a number for this suffix. */
function byStride(findings: readonly Finding[], suffix: string): Finding | undefined {
  return findings
    .filter((f) => f.key.endsWith(`.${suffix}`) && strideOf(f.key) !== null && num(f) !== null)
    .sort((a, b) => strideOf(a.key)! - strideOf(b.key)!)[0];
}

function candidates(run: RealRunFindings, base: Preset): { list: Candidate[]; skipped: PresetFromRun['skipped'] } {
  const f = run.findings;
  const byKey = new Map(f.map((x) => [x.key, x]));
  const list: Candidate[] = [];
  const skipped: PresetFromRun['skipped'] = [];
  const space = run.params.space === 'global-cg' ? 'global-cg' : 'global';
  const path = base.spaces[space as 'global'];
  const levels = path?.levels ?? [];
  // A plateau of an average curve, or the first level of a warm fine-grained trace, is a cache of the
  // path the chase took (its space); which one depends on where the sweep started, so each latency
  // goes to the base's level whose hit latency is nearest on a log scale (a second plateau to a later
  // level than the first), and the size the curve rose at to the first plateau's level.
  const plateau1 = byStride(f, 'plateau1.latency') ?? (run.params.warmup === false ? undefined : byKey.get('trace.level1.latency'));
  const plateau2 = byStride(f, 'plateau2.latency');
  const size1 = byStride(f, 'level1.sizeBytes');
  const hitOf = (name: string): number | undefined => path?.latency[`${name}/-`] ?? path?.latency[`${name}/l1`];
  const nearest = (v: number, from: number): number => {
    let best = -1;
    levels.forEach((lv, i) => {
      const h = hitOf(lv.name);
      if (i < from || h === undefined || !(h > 0)) return;
      if (best < 0 || Math.abs(Math.log(v / h)) < Math.abs(Math.log(v / hitOf(levels[best]!.name)!))) best = i;
    });
    return best;
  };
  const at = (finding: Finding | undefined, from: number, what: string, kind: Candidate['kind'], fixed?: number): number => {
    const v = num(finding);
    if (!finding || v === null) return -1;
    const i = fixed ?? (v > 0 ? nearest(v, from) : -1);
    const lv = i >= 0 ? levels[i] : undefined;
    if (!path || !lv) {
      skipped.push({ finding: finding.key, reason: `the base preset "${base.id}" has no ${what} in its ${space} path` });
      return -1;
    }
    if (kind === 'latency-level') list.push({ path: ['spaces', space, 'latency'], value: v, finding: finding.key, kind, level: lv.name });
    else list.push({ path: ['spaces', space, 'levels', String(i)], value: v, finding: finding.key, kind });
    return i;
  };
  const first = at(plateau1, 0, 'cache level with a hit latency', 'latency-level');
  if (first >= 0) {
    at(plateau2, first + 1, 'later cache level', 'latency-level');
    at(size1, 0, 'cache level', 'level-size', first);
  }
  const base1 = num(byKey.get('shared.base'));
  if (base1 !== null) list.push({ path: ['shared', 'latency', 'base'], value: base1, finding: 'shared.base', kind: 'number' });
  const per = num(byKey.get('shared.perConflict'));
  if (per !== null) list.push({ path: ['shared', 'latency', 'perConflict'], value: per, finding: 'shared.perConflict', kind: 'number' });
  const used = new Set(list.map((c) => c.finding));
  for (const x of f) {
    if (num(x) === null || used.has(x.key)) continue;
    if (/\.(plateau\d+\.latency|level\d+\.sizeBytes)$/.test(x.key) || x.key === 'trace.level1.latency') {
      skipped.push({ finding: x.key, reason: 'another stride or run gives this number (the smallest stride with a value is used)' });
      continue;
    }
    if (/latency|sizeBytes|perConflict|base$/.test(x.key)) skipped.push({ finding: x.key, reason: 'no preset number is read from this finding' });
  }
  return { list, skipped };
}

function get(obj: unknown, path: string[]): unknown {
  let cur = obj;
  for (const p of path) cur = (cur as Record<string, unknown> | undefined)?.[p];
  return cur;
}

function set(obj: unknown, path: string[], value: unknown): void {
  let cur = obj as Record<string, unknown>;
  for (const p of path.slice(0, -1)) cur = cur[p] as Record<string, unknown>;
  cur[path[path.length - 1]!] = value;
}

/**
 * The preset: `base` cloned, renamed, and the run's numbers put in one at a time; a change the
 * preset validator refuses is taken back and listed with the validator's reason.
 */
/** A preset is JSON data (it is stored and bundled as JSON): a deep copy through JSON. */
const cloneJson = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

export function presetFromRealRun(run: RealRunFindings, base: Preset, names: { id: string; name: string }): PresetFromRun {
  const source = `measured on ${run.device.name}, ${measuredDay(run.device)}, run ${run.id}`;
  const p = cloneJson(base);
  p.id = names.id;
  p.name = names.name;
  p.device = `${run.device.name} (measured)`;
  p.description = `Made from the real run ${run.id} (${run.experiment}) on ${run.device.name}, measured ${measuredDay(run.device)}: the ${base.name} preset with the numbers the run gives. Every other number is ${base.name}'s.`;
  const { list, skipped } = candidates(run, base);
  const applied: PresetFromRun['applied'] = [];
  for (const c of list) {
    const before = cloneJson(p);
    const changed: { path: string; value: number }[] = [];
    if (c.kind === 'latency-level') {
      const table = get(p, c.path) as Record<string, number>;
      const keys = Object.keys(table).filter((k) => k.startsWith(`${c.level}/`));
      const hit = table[`${c.level}/-`] ?? table[`${c.level}/l1`] ?? Math.min(...keys.map((k) => table[k]!));
      const shift = c.value - hit;
      for (const k of keys) {
        table[k] = Math.round((table[k]! + shift) * 100) / 100;
        changed.push({ path: [...c.path, k].join('.'), value: table[k]! });
      }
      if (!keys.length) {
        skipped.push({ finding: c.finding, reason: `the latency table has no entries for ${c.level}` });
        continue;
      }
    } else if (c.kind === 'level-size') {
      const lv = get(p, c.path) as { sizeBytes: number; geometry: { lineBytes: number; sets: number; ways: number; setWays?: number[] } };
      const g = lv.geometry;
      if (g.setWays || c.value % (g.lineBytes * g.sets) !== 0) {
        skipped.push({ finding: c.finding, reason: `${c.value} B is no whole number of ways of ${g.sets} sets of ${g.lineBytes} B lines in the base's geometry` });
        continue;
      }
      lv.sizeBytes = c.value;
      g.ways = c.value / (g.lineBytes * g.sets);
      changed.push({ path: [...c.path, 'sizeBytes'].join('.'), value: c.value }, { path: [...c.path, 'geometry', 'ways'].join('.'), value: g.ways });
    } else {
      set(p, c.path, c.value);
      changed.push({ path: c.path.join('.'), value: c.value });
    }
    for (const ch of changed) p.provenance[ch.path] = `${source} (${c.finding})`;
    const v = validatePreset(p);
    if (!v.ok) {
      const why = v.issues
        .slice(0, 2)
        .map((i) => `${i.path}: ${i.message}`)
        .join('; ');
      Object.assign(p, before);
      for (const k of Object.keys(p)) if (!(k in before)) delete (p as unknown as Record<string, unknown>)[k];
      skipped.push({ finding: c.finding, reason: `the preset would be invalid: ${why}` });
      continue;
    }
    for (const ch of changed) applied.push({ ...ch, finding: c.finding });
  }
  return { preset: p, applied, skipped };
}
