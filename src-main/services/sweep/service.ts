/**
 * Sweeps: a plan (src-main/sweep-plan.ts) recorded in the database with the runs it owns, one or
 * more per point. The lab service (lab.ts) answers the sweep calls of the contract with it and
 * queues its runs on its pool; the CLI uses it for `gpulab sweep` (local), `sweep task` (one point
 * of a Slurm array, written as a bundle) and `sweep collect` (bundles back into the sweep: ./collect.ts,
 * which `sweeps.collect` uses too; the Slurm scripts: ./slurm.ts).
 *
 * A point's status is that of its best run: done when any run of it is done, else its latest run's,
 * pending when it has none. Starting a sweep again (resume) queues only the points that are not
 * done, queued or running: the failed, cancelled, interrupted and pending ones.
 */
import { createHash, randomUUID } from 'node:crypto';
import { stringify } from 'csv-stringify/sync';
import type Database from 'better-sqlite3';
import type { FileResult, RunStatus } from '../../contract';
import { LabError, LIMITS } from '../../contract';
import type { SweepCheck, SweepCounts, SweepDetail, SweepMetric, SweepPointDetail, SweepPointStatus, SweepStartResult, SweepSummary } from '../../sweep-contract';
import type { SweepPlan, SweepPoint, SweepValue } from '../../sweep-plan';
import { axisName, expandPlan, pointFields, pointLabel, pointParams, SWEEP_LIMITS } from '../../sweep-plan';
import type { Experiment, ParamValues } from '../../../src-sim/experiments/types';
import { ExperimentError } from '../../../src-sim/experiments/types';
import type { Preset } from '../../../src-sim/presets/types';
import { formatIssues, PRESET_NAME_CHARS, validatePreset } from '../../../src-sim/presets/validate';
import { validateRun } from '../pool/validate';
import type { RunJob } from '../pool';
import type { RunStore } from '../store';
import { exactNumber, isoTime, slug } from '../export/format';

export interface SweepDeps {
  store: RunStore;
  experiments: readonly Experiment[];
  /** Queues a recorded run (the lab's pool); absent where nothing executes (collect). */
  enqueue?: (job: RunJob) => void;
  /** Cancels a queued or running run. */
  cancel?: (runId: string) => Promise<boolean>;
  /** Milliseconds per unit of estimated work of an experiment on this machine, or null (lab.ts msPerWork). */
  msPerWork?: (experiment: Experiment) => number | null;
  now?: () => number;
}

/** A point ready to run: its preset snapshot (with the point's fields set) and resolved parameters. */
export interface ResolvedPoint {
  point: SweepPoint;
  preset: Preset;
  params: ParamValues;
  /** Estimated work (the experiment's estimate). */
  estimate: number;
}

/** Why a point cannot run: which point, preset and parameter, in words. */
export class SweepRefusal extends Error {
  override name = 'SweepRefusal';
  constructor(
    readonly point: number | null,
    readonly preset: string | null,
    readonly param: string | null,
    message: string,
  ) {
    super(message);
  }
}

const FINISHED: readonly RunStatus[] = ['done', 'failed', 'cancelled', 'interrupted'];

/** Sorted keys all the way down: one text per plan, whatever the order it was written in. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

/** The hash that finds a sweep of the same plan again (its id and name aside). */
export function planHash(plan: SweepPlan): string {
  const { id: _id, name: _name, ...rest } = plan;
  return createHash('sha256').update(canonical(rest)).digest('hex');
}

/** Text cut to at most `max` UTF-16 units, ending in "…" where it was cut (never inside a surrogate pair). */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  if (end > 0 && /[\uD800-\uDBFF]/.test(text[end - 1]!)) end--;
  return `${text.slice(0, end).trimEnd()}…`;
}

/** The default name of a sweep: the experiment and its axes. */
export function planName(plan: SweepPlan): string {
  const axes = plan.axes.map(axisName);
  return clip(plan.name ?? `${plan.experiment}${axes.length ? ` over ${axes.join(' x ')}` : ''}`, SWEEP_LIMITS.nameChars);
}

/** What a derived name keeps of a long base name at least ("Fermi (GTX 480)" whole). */
const BASE_NAME_KEPT = 16;

/** Each field path's shortest tail of keys that no other field ends with ("mshrEntries"; "0.geometry.ways" beside "1.geometry.ways"). */
function fieldTails(paths: readonly string[]): string[] {
  return paths.map((path, i) => {
    const keys = path.split('.');
    for (let k = 1; k < keys.length; k++) {
      const tail = keys.slice(-k).join('.');
      if (paths.every((other, j) => j === i || (other !== tail && !other.endsWith(`.${tail}`)))) return tail;
    }
    return path;
  });
}

/**
 * The name of a preset with a point's fields set, within the preset validator's bound: the base
 * name and the fields' values, `Fermi [timing.l1.mshrEntries=16]`; where that is too long, the
 * fields by their shortest distinct tails (`Fermi (GTX 480) [mshrEntries=16, mshrMergers=8]`); then
 * the base name cut (with "…", keeping its first 16 characters at least); then the list cut too.
 */
export function variantName(base: string, fields: readonly (readonly [path: string, value: SweepValue])[], max = PRESET_NAME_CHARS): string {
  const list = (names: readonly string[]) => fields.map(([, v], i) => `${names[i]}=${Array.isArray(v) ? v.join('/') : String(v)}`).join(', ');
  const full = `${base} [${list(fields.map(([f]) => f))}]`;
  if (full.length <= max) return full;
  const changes = list(fieldTails(fields.map(([f]) => f)));
  const room = max - changes.length - 3;
  if (room >= Math.min(base.length, BASE_NAME_KEPT)) return `${clip(base, room)} [${changes}]`;
  const kept = clip(base, BASE_NAME_KEPT);
  return `${kept} [${clip(changes, max - kept.length - 3)}]`;
}

/** Sets a field of a preset copy by its dotted path; the field must exist with a value of the same kind. */
export function setField(preset: Preset, path: string, value: SweepValue): Preset {
  const copy = structuredClone(preset) as unknown as Record<string, unknown>;
  const keys = path.split('.');
  let node: unknown = copy;
  for (let i = 0; i < keys.length - 1; i++) {
    const k = keys[i]!;
    if (node === null || typeof node !== 'object' || !Object.prototype.hasOwnProperty.call(node, k))
      throw new SweepRefusal(null, preset.id, null, `${path}: the preset ${preset.id} has no field ${keys.slice(0, i + 1).join('.')}`);
    node = (node as Record<string, unknown>)[k];
  }
  const last = keys[keys.length - 1]!;
  if (node === null || typeof node !== 'object' || !Object.prototype.hasOwnProperty.call(node, last))
    throw new SweepRefusal(null, preset.id, null, `${path}: the preset ${preset.id} has no field ${path}`);
  const old = (node as Record<string, unknown>)[last];
  const kind = (x: unknown) => (Array.isArray(x) ? 'list' : typeof x);
  if (kind(old) !== kind(value) || (old !== null && typeof old === 'object' && !Array.isArray(old)))
    throw new SweepRefusal(null, preset.id, null, `${path}: the preset's value is ${Array.isArray(old) ? 'a list' : `a ${typeof old}`}, the axis gives ${JSON.stringify(value)}`);
  (node as Record<string, unknown>)[last] = value;
  return copy as unknown as Preset;
}

interface SweepRow {
  id: string;
  name: string;
  experiment: string;
  plan_json: string;
  points: number;
  created_at: number;
}

interface PointRunRow {
  run_id: string;
  point: number;
  status: RunStatus;
  error: string | null;
  duration_ms: number | null;
  created_at: number;
}

const emptyCounts = (points: number): SweepCounts => ({ points, pending: points, queued: 0, running: 0, done: 0, failed: 0, cancelled: 0, interrupted: 0 });

/** The run that speaks for a point: a done one (the latest), else the latest. */
function best(runs: PointRunRow[]): PointRunRow | undefined {
  let pick: PointRunRow | undefined;
  for (const r of runs) {
    if (!pick) pick = r;
    else if ((r.status === 'done') !== (pick.status === 'done')) pick = r.status === 'done' ? r : pick;
    else if (r.created_at >= pick.created_at) pick = r;
  }
  return pick;
}

export class SweepService {
  private readonly db: Database.Database;
  private readonly now: () => number;

  constructor(private readonly deps: SweepDeps) {
    this.db = deps.store.connection;
    this.now = deps.now ?? Date.now;
  }

  private experiment(id: string): Experiment {
    const e = this.deps.experiments.find((x) => x.id === id);
    if (!e) throw new SweepRefusal(null, null, 'experiment', `unknown experiment "${id}"; known: ${this.deps.experiments.map((x) => x.id).join(', ')}`);
    return e;
  }

  /**
   * Every point of a plan checked as runs.start checks a run (presets, fields, parameters, work),
   * with its preset snapshot and parameters. Throws SweepRefusal naming the first point refused.
   */
  resolve(plan: SweepPlan, only?: ReadonlySet<number>): ResolvedPoint[] {
    this.experiment(plan.experiment);
    const base = new Map<string, Preset>();
    for (const id of plan.presets) {
      try {
        base.set(id, this.deps.store.getPreset(id).preset);
      } catch (err) {
        throw new SweepRefusal(null, id, 'presets', err instanceof Error ? err.message : String(err));
      }
    }
    const variants = new Map<string, Preset>();
    const out: ResolvedPoint[] = [];
    for (const point of expandPlan(plan)) {
      if (only && !only.has(point.index)) continue;
      const where = `point ${point.index} (${point.preset}${Object.keys(point.values).length ? `, ${pointLabel(point)}` : ''})`;
      const fields = pointFields(plan, point);
      let preset = base.get(point.preset)!;
      if (fields.length) {
        const key = JSON.stringify([point.preset, fields]);
        let v = variants.get(key);
        if (!v) {
          try {
            let p = preset;
            for (const [path, value] of fields) p = setField(p, path, value);
            const checked = validatePreset({ ...p, name: variantName(preset.name, fields) });
            if (!checked.ok) throw new SweepRefusal(point.index, point.preset, null, `the preset with ${fields.map(([f, x]) => `${f}=${String(x)}`).join(', ')} is invalid: ${formatIssues(checked.issues.slice(0, 5)).replace(/\n/g, '; ')}`);
            v = checked.preset;
          } catch (err) {
            if (err instanceof SweepRefusal) throw new SweepRefusal(point.index, point.preset, err.param, `${where}: ${err.message}`);
            throw err;
          }
          variants.set(key, v);
        }
        preset = v;
      }
      try {
        const valid = validateRun({ experiment: plan.experiment, preset, params: pointParams(plan, point), seed: point.seed }, this.deps.experiments);
        out.push({ point, preset, params: valid.params, estimate: valid.estimate });
      } catch (err) {
        if (err instanceof ExperimentError) throw new SweepRefusal(point.index, point.preset, err.param ?? null, `${where}: ${err.param && err.param !== 'experiment' ? `${err.param}: ` : ''}${err.message}`);
        throw err;
      }
    }
    return out;
  }

  /** sweeps.check: the points, the work and the time a plan would take, or the first refusal. */
  check(plan: SweepPlan): SweepCheck {
    const count = expandPlan(plan).length;
    let points: ResolvedPoint[];
    try {
      points = this.resolve(plan);
    } catch (err) {
      if (!(err instanceof SweepRefusal)) throw err;
      return { ok: false, point: err.point, preset: err.preset, param: err.param, message: err.message, points: count };
    }
    const estimate = points.reduce((a, p) => a + p.estimate, 0);
    const longest = points.reduce((a, p) => Math.max(a, p.estimate), 0);
    const ms = this.deps.msPerWork?.(this.experiment(plan.experiment)) ?? null;
    const round = (s: number) => Math.round(s * 10) / 10;
    return { ok: true, points: points.length, estimate, seconds: ms === null ? null : round((estimate * ms) / 1000), longestSeconds: ms === null ? null : round((longest * ms) / 1000) };
  }

  /** The sweep a plan names (its id) or, when resuming, the latest sweep of the same plan; null for none. */
  findSweep(plan: SweepPlan, resume: boolean): string | null {
    if (plan.id) {
      const row = this.db.prepare('SELECT id, plan_hash FROM sweeps WHERE id = ?').get(plan.id) as { id: string; plan_hash: string } | undefined;
      if (!row) return null;
      if (row.plan_hash !== planHash(plan)) throw new LabError('conflict', `sweep ${plan.id} exists with another plan; give this plan another id (or none)`);
      return row.id;
    }
    if (!resume) return null;
    const row = this.db.prepare('SELECT id FROM sweeps WHERE plan_hash = ? ORDER BY created_at DESC, id DESC LIMIT 1').get(planHash(plan)) as { id: string } | undefined;
    return row?.id ?? null;
  }

  /** Records a sweep (its plan as validated); returns its id. */
  createSweep(plan: SweepPlan): string {
    const id = plan.id ?? randomUUID();
    const stored: SweepPlan = { ...plan, id };
    this.db
      .prepare('INSERT INTO sweeps (id, name, experiment, plan_json, plan_hash, points, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(id, planName(plan), plan.experiment, JSON.stringify(stored), planHash(plan), expandPlan(plan).length, this.now());
    return id;
  }

  /** The sweep of a plan, created when there is none yet (collect, task). */
  ensureSweep(plan: SweepPlan): string {
    return this.findSweep(plan, false) ?? this.createSweep(plan);
  }

  plan(id: string): SweepPlan {
    return JSON.parse(this.row(id).plan_json) as SweepPlan;
  }

  private row(id: string): SweepRow {
    const row = this.db.prepare('SELECT id, name, experiment, plan_json, points, created_at FROM sweeps WHERE id = ?').get(id) as SweepRow | undefined;
    if (!row) throw new LabError('not-found', `no sweep with id "${String(id).slice(0, 80)}"`);
    return row;
  }

  private pointRuns(id: string): Map<number, PointRunRow[]> {
    const rows = this.db
      .prepare(
        `SELECT s.run_id, s.point, r.status, r.error, r.duration_ms, r.created_at FROM sweep_runs s JOIN runs r ON r.id = s.run_id
         WHERE s.sweep_id = ? ORDER BY s.point, r.created_at, r.id`,
      )
      .all(id) as PointRunRow[];
    const out = new Map<number, PointRunRow[]>();
    for (const r of rows) {
      const list = out.get(r.point);
      if (list) list.push(r);
      else out.set(r.point, [r]);
    }
    return out;
  }

  /** The status of every point (index order). */
  statuses(id: string): SweepPointStatus[] {
    return this.pointStates(id).map((p) => p.status);
  }

  /** The status of every point (index order) and its best run's error: no results read (collect). */
  pointStates(id: string): { status: SweepPointStatus; error: string | null }[] {
    const row = this.row(id);
    const runs = this.pointRuns(id);
    return Array.from({ length: row.points }, (_, i) => {
      const b = best(runs.get(i) ?? []);
      return { status: b?.status ?? 'pending', error: b?.error ?? null };
    });
  }

  /** The sweep and point a run belongs to, or null. */
  pointOf(runId: string): { sweepId: string; point: number } | null {
    const row = this.db.prepare('SELECT sweep_id, point FROM sweep_runs WHERE run_id = ?').get(runId) as { sweep_id: string; point: number } | undefined;
    return row ? { sweepId: row.sweep_id, point: row.point } : null;
  }

  /** The sweep's name. */
  name(id: string): string {
    return this.row(id).name;
  }

  /** Adds a run to a point of a sweep (nothing when it is there already). */
  link(sweepId: string, point: number, runId: string): void {
    this.db.prepare('INSERT OR IGNORE INTO sweep_runs (run_id, sweep_id, point) VALUES (?, ?, ?)').run(runId, sweepId, point);
  }

  /**
   * Records the runs of the given points as queued and hands them to the pool; `only` limits the
   * points (a Slurm task runs one). Returns the run ids by point.
   */
  queuePoints(sweepId: string, resolved: ResolvedPoint[]): { point: number; runId: string }[] {
    const enqueue = this.deps.enqueue;
    if (!enqueue) throw new LabError('internal', 'nothing executes runs here');
    const plan = this.plan(sweepId);
    const out: { point: number; runId: string }[] = [];
    for (const r of resolved) {
      const label = pointLabel(r.point);
      const runId = this.db.transaction(() => {
        const run = this.deps.store.createRun({
          experiment: plan.experiment,
          preset: r.preset,
          params: r.params,
          seed: r.point.seed,
          title: clip(`${planName(plan)} · ${r.point.preset}${label ? ` · ${label}` : ''}`, LIMITS.titleChars),
        });
        this.link(sweepId, r.point.index, run.id);
        return run.id;
      })();
      out.push({ point: r.point.index, runId });
    }
    // Queued after they are all recorded: a pool event never meets a run the sweep does not know yet.
    resolved.forEach((r, i) => enqueue({ runId: out[i]!.runId, experiment: plan.experiment, preset: r.preset, params: r.params, seed: r.point.seed }));
    return out;
  }

  /** sweeps.start, with the run ids (the CLI waits for them). */
  startWithRuns(plan: SweepPlan, resume: boolean): SweepStartResult & { runs: { point: number; runId: string }[] } {
    let resolved: ResolvedPoint[];
    try {
      resolved = this.resolve(plan);
    } catch (err) {
      if (err instanceof SweepRefusal) throw new LabError('invalid-args', `sweeps.start: ${err.message}`);
      throw err;
    }
    const existing = this.findSweep(plan, resume);
    const sweepId = existing ?? this.createSweep(plan);
    const statuses = existing ? this.statuses(sweepId) : [];
    const todo = resolved.filter((r) => {
      const s = statuses[r.point.index] ?? 'pending';
      return s !== 'done' && s !== 'queued' && s !== 'running';
    });
    const runs = this.queuePoints(sweepId, todo);
    return { sweepId, queued: runs.length, skipped: resolved.length - todo.length, resumed: existing !== null, runs };
  }

  start(plan: SweepPlan, resume: boolean): SweepStartResult {
    const { runs: _runs, ...result } = this.startWithRuns(plan, resume);
    return result;
  }

  private summary(row: SweepRow, runs: Map<number, PointRunRow[]>): SweepSummary {
    const plan = JSON.parse(row.plan_json) as SweepPlan;
    const counts = emptyCounts(row.points);
    for (const list of runs.values()) {
      const b = best(list);
      if (!b) continue;
      counts.pending--;
      counts[b.status]++;
    }
    return { id: row.id, name: row.name, experiment: row.experiment, presets: [...plan.presets], axes: plan.axes.map(axisName), counts, createdAt: row.created_at };
  }

  list(): SweepSummary[] {
    const rows = this.db.prepare('SELECT id, name, experiment, plan_json, points, created_at FROM sweeps ORDER BY created_at DESC, id DESC').all() as SweepRow[];
    return rows.map((r) => this.summary(r, this.pointRuns(r.id)));
  }

  /** sweeps.get: the plan and every point with its status and, when done, its results. */
  get(id: string): SweepDetail {
    const row = this.row(id);
    const plan = JSON.parse(row.plan_json) as SweepPlan;
    const runs = this.pointRuns(id);
    const metrics = new Map<string, SweepMetric>();
    const points: SweepPointDetail[] = expandPlan(plan).map((p) => {
      const list = runs.get(p.index) ?? [];
      const b = best(list);
      const values: Record<string, number | string> = {};
      if (b?.status === 'done') {
        for (const f of this.deps.store.getFindings(b.run_id)) {
          values[f.key] = f.value;
          if (!metrics.has(f.key)) metrics.set(f.key, { key: f.key, label: f.label, unit: f.unit });
        }
        const result = this.deps.store.getRun(b.run_id, { trace: false }).result;
        for (const s of result?.series ?? []) {
          if (!s.y.length) continue;
          const key = `mean:${s.name}`;
          let sum = 0;
          for (const y of s.y) sum += y;
          values[key] = sum / s.y.length;
          if (!metrics.has(key)) metrics.set(key, { key, label: `${s.name} (mean ${s.yLabel})`, unit: s.yUnit });
        }
      }
      return {
        index: p.index,
        preset: p.preset,
        values: p.values,
        seed: p.seed,
        status: b?.status ?? 'pending',
        runId: b?.run_id ?? null,
        runs: list.length,
        durationMs: b?.duration_ms ?? null,
        error: b?.error ?? null,
        metrics: values,
      };
    });
    return { ...this.summary(row, runs), plan, metrics: [...metrics.values()], points };
  }

  /** Cancels the sweep's queued and running runs; the number cancelled. */
  async cancel(id: string): Promise<{ cancelled: number }> {
    this.row(id);
    const active = this.db
      .prepare(`SELECT s.run_id FROM sweep_runs s JOIN runs r ON r.id = s.run_id WHERE s.sweep_id = ? AND r.status IN ('queued', 'running') ORDER BY r.status DESC, r.created_at DESC`)
      .all(id) as { run_id: string }[];
    let cancelled = 0;
    for (const { run_id } of active) {
      try {
        if (await (this.deps.cancel?.(run_id) ?? Promise.resolve(false))) cancelled++;
      } catch {
        // Ended meanwhile.
      }
    }
    return { cancelled };
  }

  /** Deletes a sweep and its runs (all finished, else nothing is deleted). */
  delete(id: string): { deleted: boolean } {
    this.row(id);
    const ids = (this.db.prepare('SELECT s.run_id, r.status FROM sweep_runs s JOIN runs r ON r.id = s.run_id WHERE s.sweep_id = ?').all(id) as { run_id: string; status: RunStatus }[]);
    const active = ids.find((r) => !FINISHED.includes(r.status));
    if (active) throw new LabError('conflict', `run ${active.run_id} of the sweep is ${active.status}: cancel the sweep before deleting it; nothing was deleted`);
    this.db.transaction(() => {
      for (let i = 0; i < ids.length; i += 1000) this.deps.store.deleteRuns(ids.slice(i, i + 1000).map((r) => r.run_id));
      this.db.prepare('DELETE FROM sweeps WHERE id = ?').run(id);
    })();
    return { deleted: true };
  }

  /**
   * sweeps.csv: "# gpulab sweep csv,1", the sweep's metadata records (id, name, experiment, plan as
   * JSON), then "# points,<n>", a header (point, preset, each axis, seed, status, run id, duration ms,
   * each result quantity with its unit) and a record per point. Numbers are exact.
   */
  csv(id: string): FileResult {
    const d = this.get(id);
    const cell = (v: unknown): string => (v === undefined || v === null ? '' : typeof v === 'number' ? exactNumber(v) : Array.isArray(v) ? v.join(' ') : String(v));
    const records: string[][] = [
      ['# gpulab sweep csv', '1'],
      ['# id', d.id],
      ['# name', d.name],
      ['# experiment', d.experiment],
      ['# created', isoTime(d.createdAt)],
      ['# plan', JSON.stringify(d.plan)],
      ['# points', String(d.points.length)],
      ['point', 'preset', ...d.axes, 'seed', 'status', 'run id', 'duration ms', ...d.metrics.map((m) => (m.unit ? `${m.label} (${m.unit})` : m.label))],
      ...d.points.map((p) => [
        String(p.index),
        p.preset,
        ...d.axes.map((a) => cell(p.values[a])),
        String(p.seed),
        p.status,
        p.runId ?? '',
        cell(p.durationMs),
        ...d.metrics.map((m) => cell(p.metrics[m.key])),
      ]),
    ];
    const text = stringify(records, { record_delimiter: '\n' });
    return { fileName: `sweep-${slug(d.name)}.csv`, mimeType: 'text/csv', bytes: new TextEncoder().encode(text) };
  }
}
