/**
 * The run store: runs, their results, custom presets and saved comparisons in one SQLite file.
 *
 * Synchronous (better-sqlite3). One store per process and file; other processes may read the file
 * at the same time (WAL). Only the process that executes runs should open with
 * `recoverInterrupted` (the default): it turns runs left queued or running into interrupted ones.
 *
 * Run lifecycle: createRun (queued) -> startRun (running) -> finishRun (done, with its result, in
 * one transaction) | endRun (failed, cancelled, interrupted). A finished run never changes again
 * except its title, tags and notes: the methods refuse it, and SQLite triggers refuse it too.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type Database from 'better-sqlite3';
import type {
  ArgsOf,
  BundleImportReport,
  Comparison,
  ComparisonSummary,
  DatabaseCheck,
  FileResult,
  PresetRecord,
  PresetSummary,
  RunDetail,
  RunPage,
  RunStatus,
  RunSummary,
  RunUpdate,
  StoredResult,
  StoredSeries,
} from '../../contract';
import { comparisonSaveArgs, FIELDS, FINISHED_STATUSES, LabError, LIMITS, runListArgs } from '../../contract';
import type { ExperimentResult, Finding, ParamValues, Trace } from '../../../src-sim/experiments/types';
import { MAX_TRACE, MAX_TRACE_START } from '../../../src-sim/experiments/types';
import { findPreset, PRESETS } from '../../../src-sim/presets';
import type { Preset } from '../../../src-sim/presets/types';
import { formatIssues, validatePreset } from '../../../src-sim/presets/validate';
import { SIM_VERSION } from '../../../src-sim/version';
import { measuredDeviceSchema, realDeviceId, realDeviceLabel } from '../../../src-sim/cuda/run-record';
import type { MeasuredDevice, RealRunRecord } from '../../../src-sim/cuda/run-record';
import { BUNDLE_EXTENSION, readBundle, writeBundle } from './bundle';
import { checkImportedRun } from '../run-check';
import { decodeJson, decodeTraceStart, encodeJson, encodeTraceStart, fromBytes, toBytes, type EncodedTraceStart } from './codec';
import { checkHealth, damaged, damagedAdvice, isDamaged, openDatabase, schemaProblems } from './database';
import type { Migration } from './schema';
import { listSql, SUMMARY_COLUMNS } from './query';

export interface StoreOptions {
  /** The app's version: recorded in the database and in bundles, named in errors. */
  appVersion?: string;
  /**
   * Turn runs left queued or running into interrupted ones (default true), at open and then on
   * every heartbeat: only runs whose owner (the process executing them) is gone.
   */
  recoverInterrupted?: boolean;
  /** How often this process refreshes its heartbeat as an owner of runs (ms; default 5 s). */
  heartbeatMs?: number;
  /** An owner whose heartbeat is older than this is gone (ms; default 60 s). */
  staleMs?: number;
  /** Told the runs a heartbeat marked interrupted (another process's, gone since this one opened). */
  onInterrupted?: (runs: { id: string; error: string }[]) => void;
  /** Clock in ms since the epoch (tests pin it). */
  now?: () => number;
  /** Tests only: a different migration list. */
  migrations?: readonly Migration[];
}

/** What a new run needs; the preset is stored as a snapshot. */
export interface NewRun {
  experiment: string;
  preset: Preset;
  /** Resolved parameters (src-sim resolveParams). */
  params: ParamValues;
  seed: number;
  title?: string;
  tags?: string[];
  notes?: string;
  /** Defaults to the running simulator's version. */
  simVersion?: string;
}

export type EndStatus = 'failed' | 'cancelled' | 'interrupted';

const EDITABLE = new Set(['title', 'tags', 'notes']);

interface SummaryRow {
  id: string;
  experiment: string;
  title: string;
  preset_id: string;
  preset_name: string;
  seed: number;
  sim_version: string;
  status: RunStatus;
  error: string | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  duration_ms: number | null;
  notes: string;
  tags_json: string;
  /** 1 for a run measured on a real GPU (device_json set). */
  real: number;
  /** The list's columns only (query.ts): the run's sweep and point, null for a run of no sweep. */
  sweep_id?: string | null;
  sweep_point?: number | null;
}

function toSummary(r: SummaryRow): RunSummary {
  return {
    id: r.id,
    experiment: r.experiment,
    title: r.title,
    presetId: r.preset_id,
    presetName: r.preset_name,
    seed: r.seed,
    simVersion: r.sim_version,
    status: r.status,
    error: r.error,
    createdAt: r.created_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    durationMs: r.duration_ms,
    tags: JSON.parse(r.tags_json) as string[],
    notes: r.notes,
    ...(r.real ? { real: true } : {}),
    ...(r.sweep_id ? { sweepId: r.sweep_id, sweepPoint: r.sweep_point as number } : {}),
  };
}

const isFinished = (s: RunStatus): boolean => FINISHED_STATUSES.includes(s);

/** Whether a process of this machine is alive (EPERM: alive, someone else's). */
function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A process that executes runs on this database, as lab_owners records it. */
export interface RunOwner {
  id: string;
  pid: number;
  host: string;
  startedAt: number;
  heartbeatAt: number;
}

/** Throws LabError('invalid-args') unless the value passes the schema; returns the parsed value. */
function check<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } }, value: unknown, what: string): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const why = r.error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.map(String).join('.') : what}: ${i.message}`)
    .join('; ');
  throw new LabError('invalid-args', `${what}: ${why}`);
}

function normaliseTags(tags: readonly string[]): string[] {
  return [...new Set(check(FIELDS.tags, tags, 'tags'))].sort();
}

export class RunStore {
  readonly schemaVersion: number;
  /** Schema version of the file before this open (0: created now). */
  readonly migratedFrom: number;
  /** Runs marked interrupted when this store opened. */
  readonly recovered: number;
  private readonly db: Database.Database;
  private readonly now: () => number;
  private readonly appVersion: string;
  private readonly statements = new Map<string, Database.Statement>();
  /** This process as an owner of runs (registered with its first run). */
  private ownerId: string | null = null;
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private readonly heartbeatMs: number;
  private readonly staleMs: number;
  private readonly recovers: boolean;
  private readonly onInterrupted: StoreOptions['onInterrupted'];
  private readonly migrations: readonly Migration[] | undefined;

  private constructor(
    readonly file: string,
    options: StoreOptions,
  ) {
    this.appVersion = options.appVersion ?? 'unknown';
    this.now = options.now ?? Date.now;
    this.heartbeatMs = options.heartbeatMs ?? 5_000;
    this.staleMs = options.staleMs ?? 60_000;
    this.recovers = options.recoverInterrupted !== false;
    this.onInterrupted = options.onInterrupted;
    this.migrations = options.migrations;
    const opened = openDatabase(file, { appVersion: this.appVersion, migrations: options.migrations });
    this.db = opened.db;
    this.schemaVersion = opened.schemaVersion;
    this.migratedFrom = opened.fromVersion;
    this.recovered = options.recoverInterrupted === false ? 0 : this.recoverInterrupted().length;
    // A process that recovers runs looks for owners gone since, from its open on, whether or not it
    // ever runs anything itself: another process killed on this database has its runs marked
    // interrupted within a heartbeat (on this machine) or once its heartbeat is stale (another one).
    if (this.recovers) this.startBeating();
  }

  private startBeating(): void {
    if (this.heartbeat) return;
    this.heartbeat = setInterval(() => this.beat(), this.heartbeatMs);
    this.heartbeat.unref();
  }

  /** Opens (creating and migrating as needed) the database file. */
  static open(file: string, options: StoreOptions = {}): RunStore {
    return new RunStore(file, options);
  }

  /** The open database, for the records kept beside the runs in the same file (sweeps: services/sweep). */
  get connection(): Database.Database {
    return this.db;
  }

  /** A prepared statement, compiled once per store. */
  private sql(source: string): Database.Statement {
    let st = this.statements.get(source);
    if (!st) {
      st = this.db.prepare(source);
      this.statements.set(source, st);
    }
    return st;
  }

  close(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    if (!this.db.open) return;
    if (this.ownerId) {
      try {
        this.db.transaction(() => {
          this.sql('DELETE FROM run_owners WHERE owner_id = ?').run(this.ownerId);
          this.sql('DELETE FROM lab_owners WHERE id = ?').run(this.ownerId);
        })();
      } catch {
        // Closing goes on: a later open sees the heartbeat stop.
      }
    }
    this.db.close();
  }

  /** The processes that execute runs on this database now (live or not yet seen gone). */
  owners(): RunOwner[] {
    return (this.sql('SELECT id, pid, host, started_at, heartbeat_at FROM lab_owners ORDER BY started_at').all() as { id: string; pid: number; host: string; started_at: number; heartbeat_at: number }[]).map(
      (o) => ({ id: o.id, pid: o.pid, host: o.host, startedAt: o.started_at, heartbeatAt: o.heartbeat_at }),
    );
  }

  /** This process's owner id, once it has recorded a run. */
  get owner(): string | null {
    return this.ownerId;
  }

  /** Whether an owner still executes its runs: a fresh heartbeat and, on this machine, a live pid. */
  private ownerAlive(o: RunOwner, now: number): boolean {
    if (o.id === this.ownerId) return true;
    if (now - o.heartbeatAt > this.staleMs) return false;
    return o.host !== hostname() || pidAlive(o.pid);
  }

  /**
   * Marks interrupted the runs left queued or running by owners that are gone (or by no recorded
   * owner: a database written before owners were recorded); another process's live runs are left
   * alone. Returns how many runs it ended.
   */
  private recoverInterrupted(): { id: string; error: string }[] {
    const now = this.now();
    return this.db.transaction(() => {
      const gone = this.owners().filter((o) => !this.ownerAlive(o, now));
      for (const o of gone) this.sql('DELETE FROM lab_owners WHERE id = ?').run(o.id);
      const orphaned = this
        .sql(
          `SELECT id, status FROM runs WHERE status IN ('queued', 'running')
             AND id NOT IN (SELECT ro.run_id FROM run_owners ro JOIN lab_owners lo ON lo.id = ro.owner_id)`,
        )
        .all() as { id: string; status: string }[];
      const ended = orphaned.map((r) => ({
        id: r.id,
        error: r.status === 'running' ? 'interrupted: the app stopped while this run was running' : 'interrupted: the app stopped before this run started',
      }));
      const mark = this.sql(`UPDATE runs SET status = 'interrupted', finished_at = ?, error = ? WHERE id = ? AND status IN ('queued', 'running')`);
      for (const r of ended) mark.run(now, r.error, r.id);
      this.sql("DELETE FROM run_owners WHERE run_id IN (SELECT id FROM runs WHERE status NOT IN ('queued', 'running'))").run();
      return ended;
    })();
  }

  /** Registers this process as an owner of runs (once) and starts its heartbeat. */
  private ensureOwner(): string {
    if (this.ownerId) return this.ownerId;
    const id = randomUUID();
    const now = this.now();
    this.sql('INSERT INTO lab_owners (id, pid, host, started_at, heartbeat_at) VALUES (?, ?, ?, ?, ?)').run(id, process.pid, hostname(), now, now);
    this.ownerId = id;
    this.startBeating();
    return id;
  }

  /** Refreshes the heartbeat (re-registering if another process took this one for gone) and, when this process recovers runs, ends those of owners gone since. */
  beat(): void {
    if (!this.db.open) return;
    try {
      const now = this.now();
      if (this.ownerId) {
        const changed = this.sql('UPDATE lab_owners SET heartbeat_at = ? WHERE id = ?').run(now, this.ownerId).changes;
        if (changed === 0) this.sql('INSERT INTO lab_owners (id, pid, host, started_at, heartbeat_at) VALUES (?, ?, ?, ?, ?)').run(this.ownerId, process.pid, hostname(), now, now);
      }
      if (this.recovers) {
        const ended = this.recoverInterrupted();
        if (ended.length) this.onInterrupted?.(ended);
      }
    } catch {
      // Busy or closing: the next beat tries again.
    }
  }

  /**
   * PRAGMA integrity_check of the whole file ("gpulab db check"): the problems found, none when
   * the file is sound.
   */
  checkIntegrity(): string[] {
    try {
      return checkHealth(this.db, 'integrity_check', 50);
    } catch (err) {
      if (isDamaged(err)) return [(err as Error).message];
      throw err;
    }
  }

  /** checkIntegrity with the file, its verdict, what to do about a damaged file and how long it took (app.checkDatabase, "gpulab db check"). */
  checkDatabase(): DatabaseCheck {
    const t0 = performance.now();
    const problems = this.checkIntegrity();
    if (problems.length === 0) problems.push(...schemaProblems(this.db, this.migrations));
    const ok = problems.length === 0;
    return { file: this.file, ok, problems, advice: ok ? null : damagedAdvice(this.file), durationMs: Math.round(performance.now() - t0) };
  }

  /** A damaged-file error as the message a user can act on; anything else unchanged. */
  explain(err: unknown): unknown {
    return isDamaged(err) ? damaged(this.file, (err as Error).message) : err;
  }

  // -------------------------------------------------------------------------------------------
  // Runs
  // -------------------------------------------------------------------------------------------

  /** Records a queued run. */
  createRun(input: NewRun): RunSummary {
    const experiment = check(FIELDS.experimentId, input.experiment, 'experiment');
    const seed = check(FIELDS.seed, input.seed, 'seed');
    const title = check(FIELDS.title, input.title ?? `${experiment} on ${input.preset.name}`.slice(0, LIMITS.titleChars), 'title');
    const notes = check(FIELDS.notes, input.notes ?? '', 'notes');
    const tags = normaliseTags(input.tags ?? []);
    const presetId = check(FIELDS.presetId, input.preset.id, 'preset id');
    const id = randomUUID();
    this.db.transaction(() => {
      const owner = this.ensureOwner();
      this
        .sql(
          `INSERT INTO runs (id, experiment, title, preset_id, preset_name, params_json, seed, sim_version, status, created_at, notes, preset_json)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?, ?, ?)`,
        )
        .run(id, experiment, title, presetId, input.preset.name, encodeJson(input.params), seed, input.simVersion ?? SIM_VERSION, this.now(), notes, encodeJson(input.preset));
      this.sql('INSERT INTO run_owners (run_id, owner_id) VALUES (?, ?)').run(id, owner);
      this.insertTags(id, tags);
    })();
    return this.getSummary(id);
  }

  /** queued -> running. */
  startRun(id: string): RunSummary {
    const run = this.getSummary(id);
    if (run.status !== 'queued') throw this.transitionError(run, 'start');
    this.sql("UPDATE runs SET status = 'running', started_at = ? WHERE id = ? AND status = 'queued'").run(this.now(), id);
    return this.getSummary(id);
  }

  /**
   * queued|running -> done, with the result, in one transaction. `durationMs` is the simulation's
   * own time; without it, the time since the run started.
   */
  finishRun(id: string, result: ExperimentResult, options: { durationMs?: number } = {}): RunSummary {
    const stored = toStoredResult(result);
    const now = this.now();
    this.db.transaction(() => {
      const run = this.getSummary(id);
      if (isFinished(run.status)) throw this.transitionError(run, 'finish');
      const started = run.startedAt ?? now;
      const duration = options.durationMs ?? now - started;
      if (!Number.isFinite(duration) || duration < 0) throw new LabError('invalid-args', `duration must be a finite number of ms >= 0; got ${duration}`);
      this.insertResult(id, stored);
      this
        .sql("UPDATE runs SET status = 'done', error = NULL, started_at = ?, finished_at = ?, duration_ms = ? WHERE id = ?")
        .run(started, now, duration, id);
      this.sql('DELETE FROM run_owners WHERE run_id = ?').run(id);
    })();
    return this.getSummary(id);
  }

  /** queued|running -> failed, cancelled or interrupted, with the reason. */
  endRun(id: string, status: EndStatus, error: string): RunSummary {
    if (!['failed', 'cancelled', 'interrupted'].includes(status)) throw new LabError('invalid-args', `"${status}" is not a way for a run to end`);
    const message = String(error).slice(0, 100_000);
    const now = this.now();
    this.db.transaction(() => {
      const run = this.getSummary(id);
      if (isFinished(run.status)) throw this.transitionError(run, status === 'cancelled' ? 'cancel' : 'end');
      const duration = run.startedAt === null ? null : now - run.startedAt;
      this.sql('UPDATE runs SET status = ?, error = ?, finished_at = ?, duration_ms = ? WHERE id = ?').run(status, message, now, duration, id);
      this.sql('DELETE FROM run_owners WHERE run_id = ?').run(id);
    })();
    return this.getSummary(id);
  }

  /** Changes title, tags or notes: the only things that ever change on a finished run. */
  updateRun(id: string, patch: RunUpdate): RunSummary {
    const keys = Object.keys(patch ?? {});
    const frozen = keys.filter((k) => !EDITABLE.has(k));
    if (frozen.length) throw new LabError('immutable', `only the title, tags and notes of a run can change; "${frozen.join('", "')}" cannot`);
    const title = patch.title === undefined ? undefined : check(FIELDS.title, patch.title, 'title');
    const notes = patch.notes === undefined ? undefined : check(FIELDS.notes, patch.notes, 'notes');
    const tags = patch.tags === undefined ? undefined : normaliseTags(patch.tags);
    this.db.transaction(() => {
      this.getSummary(id);
      if (title !== undefined) this.sql('UPDATE runs SET title = ? WHERE id = ?').run(title, id);
      if (notes !== undefined) this.sql('UPDATE runs SET notes = ? WHERE id = ?').run(notes, id);
      if (tags !== undefined) {
        this.sql('DELETE FROM run_tags WHERE run_id = ?').run(id);
        this.insertTags(id, tags);
      }
    })();
    return this.getSummary(id);
  }

  getSummary(id: string): RunSummary {
    const row = this.sql(`SELECT ${SUMMARY_COLUMNS} FROM runs r WHERE r.id = ?`).get(id) as SummaryRow | undefined;
    if (!row) throw new LabError('not-found', `no run with id "${String(id).slice(0, 80)}"`);
    return toSummary(row);
  }

  hasRun(id: string): boolean {
    return this.sql('SELECT 1 FROM runs WHERE id = ?').get(id) !== undefined;
  }

  /**
   * A run with its preset snapshot, parameters and (when done) result. With `trace: false` the
   * result leaves out the per-access trace (`getTrace` reads it) and the series the trace already
   * holds (see `readResult`): what `runs.get` sends.
   */
  getRun(id: string, options: { trace?: boolean } = {}): RunDetail {
    const withTrace = options.trace ?? true;
    return this.db.transaction(() => {
      const summary = this.getSummary(id);
      const row = this.sql('SELECT preset_json, params_json, device_json FROM runs WHERE id = ?').get(id) as { preset_json: string; params_json: string; device_json: string | null };
      return {
        ...summary,
        preset: decodeJson<Preset | null>(row.preset_json),
        ...(row.device_json === null ? {} : { device: decodeJson<MeasuredDevice>(row.device_json) }),
        params: decodeJson<ParamValues>(row.params_json),
        result: summary.status === 'done' ? this.readResult(id, withTrace) : null,
      };
    })();
  }

  /** The preset snapshot and resolved parameters of a run (no result). */
  getSnapshot(id: string): { preset: Preset | null; params: ParamValues } {
    this.getSummary(id); // not-found first
    const row = this.sql('SELECT preset_json, params_json FROM runs WHERE id = ?').get(id) as { preset_json: string; params_json: string };
    return { preset: decodeJson<Preset | null>(row.preset_json), params: decodeJson<ParamValues>(row.params_json) };
  }

  /**
   * Stores a run measured on a real GPU (src-sim/cuda/run-record.ts): finished (done) in one
   * transaction, with its measured-device record in place of a preset. Immutable from then on,
   * as every finished run.
   */
  saveRealRun(record: RealRunRecord, options: { title?: string; tags?: string[]; notes?: string; durationMs?: number | null } = {}): RunSummary {
    const device = check(measuredDeviceSchema, record.device, 'device');
    const experiment = check(FIELDS.experimentId, record.experiment, 'experiment');
    const title = check(FIELDS.title, (options.title ?? record.title).slice(0, LIMITS.titleChars), 'title');
    const notes = check(FIELDS.notes, options.notes ?? '', 'notes');
    const tags = normaliseTags(options.tags ?? []);
    const stored = toStoredResult(record.result);
    const now = this.now();
    const id = randomUUID();
    this.db.transaction(() => {
      this
        .sql(
          `INSERT INTO runs (id, experiment, title, preset_id, preset_name, params_json, seed, sim_version, status, created_at, started_at, notes, preset_json, device_json)
           VALUES (?, ?, ?, ?, ?, ?, 0, ?, 'running', ?, ?, ?, 'null', ?)`,
        )
        .run(id, experiment, title, realDeviceId(device.name), realDeviceLabel(device.name), encodeJson(record.params), SIM_VERSION, now, now, notes, encodeJson(device));
      this.insertTags(id, tags);
      this.insertResult(id, stored);
      this.sql("UPDATE runs SET status = 'done', finished_at = ?, duration_ms = ? WHERE id = ?").run(now, options.durationMs ?? null, id);
    })();
    return this.getSummary(id);
  }

  /** The findings of a done run (empty for a run without a result), without reading its series or trace. */
  getFindings(id: string): Finding[] {
    this.getSummary(id); // not-found first
    const res = this.sql('SELECT findings_json FROM run_results WHERE run_id = ?').get(id) as { findings_json: string } | undefined;
    return res ? decodeJson<Finding[]>(res.findings_json) : [];
  }

  /** The per-access trace of a done run, or null when it recorded none. */
  getTrace(id: string): Trace | null {
    return this.db.transaction(() => {
      this.getSummary(id); // not-found first
      return this.readTrace(id);
    })();
  }

  /** Filters, sorts and pages runs; reads the runs table only (no results, no blobs). */
  listRuns(query: ArgsOf<'runs.list'> = {}): RunPage {
    const q = check(runListArgs, query, 'runs.list');
    const { count, page, bySweep, params } = listSql(q);
    const total = (this.sql(count).get(params) as { n: number }).n;
    const rows = this.sql(page).all(params) as SummaryRow[];
    if (bySweep === null) return { total, items: rows.map(toSummary) };
    return { total, items: rows.map(toSummary), sweeps: this.sql(bySweep).all(params) as { id: string; runs: number }[] };
  }

  /** Deletes finished runs (all or none): refuses unknown ids and runs still queued or running. */
  deleteRuns(ids: readonly string[]): number {
    const list = check(FIELDS.runIds, ids, 'ids');
    return this.db.transaction(() => {
      const found = this
        .sql('SELECT id, status FROM runs WHERE id IN (SELECT value FROM json_each(?))')
        .all(JSON.stringify(list)) as { id: string; status: RunStatus }[];
      const missing = list.filter((id) => !found.some((f) => f.id === id));
      if (missing.length) throw new LabError('not-found', `no run with id ${missing.slice(0, 5).map((m) => `"${m}"`).join(', ')}${missing.length > 5 ? ` and ${missing.length - 5} more` : ''}; nothing was deleted`);
      const active = found.filter((f) => !isFinished(f.status));
      if (active.length) throw new LabError('conflict', `run ${active[0].id} is ${active[0].status}: cancel it before deleting it; nothing was deleted`);
      return this.sql('DELETE FROM runs WHERE id IN (SELECT value FROM json_each(?))').run(JSON.stringify(list)).changes;
    })();
  }

  private transitionError(run: RunSummary, verb: string): LabError {
    if (isFinished(run.status)) return new LabError('immutable', `run ${run.id} is ${run.status}: a finished run cannot ${verb} again`);
    return new LabError('conflict', `run ${run.id} is ${run.status}; it cannot ${verb}`);
  }

  private insertTags(id: string, tags: string[]): void {
    const ins = this.sql('INSERT INTO run_tags (run_id, tag) VALUES (?, ?)');
    for (const t of tags) ins.run(id, t);
  }

  private insertResult(id: string, r: StoredResult): void {
    this.sql('INSERT INTO run_results (run_id, tables_json, findings_json, notes_json) VALUES (?, ?, ?, ?)').run(id, encodeJson(r.tables), encodeJson(r.findings), encodeJson(r.notes));
    const ins = this.sql('INSERT INTO run_series (run_id, position, meta_json, points, x, y) VALUES (?, ?, ?, ?, ?, ?)');
    r.series.forEach((s, i) => {
      const { x, y, ...meta } = s;
      ins.run(id, i, encodeJson(meta), x.length, toBytes(x, 'f64'), toBytes(y, 'f64'));
    });
    if (r.trace) {
      const t = r.trace;
      this
        .sql('INSERT INTO run_traces (run_id, meta_json, accesses, address, latency, level, tlb, set_index, way, evicted) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
        .run(
          id,
          encodeJson({ levelNames: t.levelNames, dropped: t.dropped, ...(t.start ? { start: encodeTraceStart(t.start) } : {}) }),
          t.address.length,
          toBytes(t.address, 'f64'),
          toBytes(t.latency, 'f64'),
          toBytes(t.level, 'u8'),
          toBytes(t.tlb, 'u8'),
          toBytes(t.set, 'i32'),
          toBytes(t.way, 'i32'),
          toBytes(t.evicted, 'f64'),
        );
    }
  }

  /**
   * The stored result. Without the trace (`withTrace` false), the result also leaves out the
   * series that only repeat it, one value per recorded access (x = 0, 1, 2, ... over "Access"):
   * `traceInfo` names them, and `getTrace` brings their data. Every other series comes whole.
   */
  private readResult(id: string, withTrace = true): StoredResult {
    const res = this.sql('SELECT tables_json, findings_json, notes_json FROM run_results WHERE run_id = ?').get(id) as
      | { tables_json: string; findings_json: string; notes_json: string }
      | undefined;
    if (!res) throw new LabError('internal', `run ${id} is done but its result is missing`);
    const traceMeta = this.sql('SELECT meta_json, accesses FROM run_traces WHERE run_id = ?').get(id) as { meta_json: string; accesses: number } | undefined;
    const accesses = traceMeta?.accesses ?? -1;
    const rows = this.sql('SELECT position, meta_json, points FROM run_series WHERE run_id = ? ORDER BY position').all(id) as {
      position: number;
      meta_json: string;
      points: number;
    }[];
    const readXY = this.sql('SELECT x, y FROM run_series WHERE run_id = ? AND position = ?');
    const series: StoredSeries[] = [];
    const perAccess: string[] = [];
    for (const s of rows) {
      const meta = decodeJson<Omit<StoredSeries, 'x' | 'y'>>(s.meta_json);
      if (!withTrace && traceMeta && s.points === accesses && meta.xLabel === 'Access') {
        perAccess.push(meta.name);
        continue;
      }
      const xy = readXY.get(id, s.position) as { x: Buffer; y: Buffer };
      series.push({ ...meta, x: fromBytes(xy.x, 'f64', `run ${id} series ${s.position} x`), y: fromBytes(xy.y, 'f64', `run ${id} series ${s.position} y`) });
    }
    const out: StoredResult = { series, tables: decodeJson(res.tables_json), findings: decodeJson(res.findings_json), notes: decodeJson(res.notes_json) };
    if (withTrace) {
      const trace = this.readTrace(id);
      if (trace) out.trace = trace;
    } else if (traceMeta) {
      const meta = decodeJson<{ levelNames: string[]; dropped: number }>(traceMeta.meta_json);
      out.traceInfo = { accesses, dropped: meta.dropped, levelNames: meta.levelNames, series: perAccess };
    }
    return out;
  }

  private readTrace(id: string): Trace | null {
    const t = this.sql('SELECT * FROM run_traces WHERE run_id = ?').get(id) as Record<string, unknown> | undefined;
    if (!t) return null;
    const meta = decodeJson<{ levelNames: string[]; dropped: number; start?: EncodedTraceStart }>(t.meta_json as string);
    const what = (k: string) => `run ${id} trace ${k}`;
    return {
      ...(meta.start ? { start: decodeTraceStart(meta.start, what('start')) } : {}),
      address: fromBytes(t.address as Buffer, 'f64', what('address')),
      latency: fromBytes(t.latency as Buffer, 'f64', what('latency')),
      level: fromBytes(t.level as Buffer, 'u8', what('level')),
      tlb: fromBytes(t.tlb as Buffer, 'u8', what('tlb')),
      set: fromBytes(t.set_index as Buffer, 'i32', what('set')),
      way: fromBytes(t.way as Buffer, 'i32', what('way')),
      evicted: fromBytes(t.evicted as Buffer, 'f64', what('evicted')),
      levelNames: meta.levelNames,
      dropped: meta.dropped,
    };
  }

  // -------------------------------------------------------------------------------------------
  // Presets
  // -------------------------------------------------------------------------------------------

  /** Built-in presets first (generation order), then custom ones by name. */
  listPresets(): PresetSummary[] {
    const builtin: PresetSummary[] = PRESETS.map((p) => ({ id: p.id, name: p.name, device: p.device, generation: p.generation, builtin: true, updatedAt: null }));
    const rows = this.sql('SELECT preset_json, updated_at FROM custom_presets ORDER BY name COLLATE NOCASE, id').all() as { preset_json: string; updated_at: number }[];
    const custom = rows.map((r) => {
      const p = decodeJson<Preset>(r.preset_json);
      return { id: p.id, name: p.name, device: p.device, generation: p.generation, builtin: false, updatedAt: r.updated_at };
    });
    return [...builtin, ...custom];
  }

  /** A built-in or custom preset. */
  getPreset(id: string): PresetRecord {
    const builtin = findPreset(id);
    if (builtin) return { preset: builtin, builtin: true };
    const row = this.sql('SELECT preset_json FROM custom_presets WHERE id = ?').get(id) as { preset_json: string } | undefined;
    if (!row) throw new LabError('not-found', `no preset with id "${String(id).slice(0, 80)}"; the built-in ones are ${PRESETS.map((p) => p.id).join(', ')}`);
    return { preset: decodeJson<Preset>(row.preset_json), builtin: false };
  }

  /** Validates (src-sim validatePreset) and saves a custom preset, replacing one with its id. */
  saveCustomPreset(input: unknown): PresetSummary {
    const v = validatePreset(input);
    if (!v.ok) throw new LabError('invalid-preset', `the preset is invalid:\n${formatIssues(v.issues)}`);
    const p = v.preset;
    if (findPreset(p.id)) throw new LabError('conflict', `"${p.id}" is the id of a built-in preset; give your preset another id`);
    const json = encodeJson(p);
    if (Buffer.byteLength(json) > LIMITS.presetJsonBytes) throw new LabError('invalid-preset', `the preset is larger than ${LIMITS.presetJsonBytes} bytes as JSON`);
    const now = this.now();
    this
      .sql(
        `INSERT INTO custom_presets (id, name, preset_json, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, preset_json = excluded.preset_json, updated_at = excluded.updated_at`,
      )
      .run(p.id, p.name, json, now, now);
    return { id: p.id, name: p.name, device: p.device, generation: p.generation, builtin: false, updatedAt: now };
  }

  deleteCustomPreset(id: string): boolean {
    if (findPreset(id)) throw new LabError('conflict', `"${id}" is a built-in preset; it cannot be deleted`);
    return this.sql('DELETE FROM custom_presets WHERE id = ?').run(id).changes > 0;
  }

  // -------------------------------------------------------------------------------------------
  // Comparisons
  // -------------------------------------------------------------------------------------------

  /** Creates (no id) or replaces (id) a comparison; every run must exist. */
  saveComparison(input: ArgsOf<'comparisons.save'>): Comparison {
    const args = check(comparisonSaveArgs, input, 'comparisons.save');
    const now = this.now();
    const id = args.id ?? randomUUID();
    this.db.transaction(() => {
      const found = new Set(
        (this.sql('SELECT id FROM runs WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(args.runIds)) as { id: string }[]).map((r) => r.id),
      );
      const missing = args.runIds.filter((r) => !found.has(r));
      if (missing.length) throw new LabError('not-found', `no run with id ${missing.map((m) => `"${m}"`).join(', ')}`);
      if (args.id !== undefined) {
        const changed = this.sql('UPDATE comparisons SET name = ?, notes = ?, updated_at = ? WHERE id = ?').run(args.name, args.notes ?? '', now, id).changes;
        if (!changed) throw new LabError('not-found', `no comparison with id "${id}"`);
        this.sql('DELETE FROM comparison_runs WHERE comparison_id = ?').run(id);
      } else {
        this.sql('INSERT INTO comparisons (id, name, notes, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').run(id, args.name, args.notes ?? '', now, now);
      }
      const ins = this.sql('INSERT INTO comparison_runs (comparison_id, position, run_id) VALUES (?, ?, ?)');
      args.runIds.forEach((r, i) => ins.run(id, i, r));
    })();
    return this.getComparison(id);
  }

  /** Newest first. */
  listComparisons(): ComparisonSummary[] {
    const rows = this
      .sql(
        `SELECT c.id, c.name, c.notes, c.created_at, c.updated_at, (SELECT count(*) FROM comparison_runs cr WHERE cr.comparison_id = c.id) AS run_count
         FROM comparisons c ORDER BY c.updated_at DESC, c.id`,
      )
      .all() as { id: string; name: string; notes: string; created_at: number; updated_at: number; run_count: number }[];
    return rows.map((r) => ({ id: r.id, name: r.name, notes: r.notes, runCount: r.run_count, createdAt: r.created_at, updatedAt: r.updated_at }));
  }

  getComparison(id: string): Comparison {
    const c = this.sql('SELECT id, name, notes, created_at, updated_at FROM comparisons WHERE id = ?').get(id) as
      | { id: string; name: string; notes: string; created_at: number; updated_at: number }
      | undefined;
    if (!c) throw new LabError('not-found', `no comparison with id "${String(id).slice(0, 80)}"`);
    const runIds = (this.sql('SELECT run_id FROM comparison_runs WHERE comparison_id = ? ORDER BY position').all(id) as { run_id: string }[]).map((r) => r.run_id);
    return { id: c.id, name: c.name, notes: c.notes, createdAt: c.created_at, updatedAt: c.updated_at, runIds };
  }

  deleteComparison(id: string): boolean {
    return this.sql('DELETE FROM comparisons WHERE id = ?').run(id).changes > 0;
  }

  // -------------------------------------------------------------------------------------------
  // Bundles
  // -------------------------------------------------------------------------------------------

  /**
   * Finished runs, with their preset snapshots and results, as one bundle file (format 2): read
   * from the database one run at a time and compressed as a stream, so memory holds one run's
   * result (and the compressed bundle) whatever the number of runs.
   */
  async exportBundle(ids: readonly string[]): Promise<FileResult> {
    const list = check(FIELDS.runIds, ids, 'runIds');
    const summaries = list.map((id) => this.getSummary(id));
    const active = summaries.find((r) => !isFinished(r.status));
    if (active) throw new LabError('conflict', `run ${active.id} is ${active.status}: export it when it has finished`);
    const now = this.now();
    const stamp = new Date(now).toISOString().slice(0, 19).replace(/[:T]/g, '-');
    const bytes = await writeBundle(list.length, (i) => this.getRun(list[i]!), this.appVersion, now);
    return {
      fileName: `gpulab-${list.length}-run${list.length === 1 ? '' : 's'}-${stamp}${BUNDLE_EXTENSION}`,
      mimeType: 'application/gzip',
      bytes,
    };
  }

  /**
   * Imports a bundle: everything or (when anything is wrong) nothing. Runs whose id is already
   * here are skipped, not duplicated. The bundle is read twice as a stream: first checked whole
   * (keeping nothing), then written one run at a time, each in its own transaction; a failure while
   * writing removes the runs this import wrote. Memory holds one run at a time. `verify` sees each
   * run in the first pass and may refuse the bundle by throwing (a sweep's collect: the run must be
   * the point its file names), before anything is written. A run of an experiment this version does
   * not know, or with parameters its experiment does not take, refuses the bundle (run-check.ts).
   */
  async importBundle(bytes: Uint8Array, verify?: (run: RunDetail) => void): Promise<BundleImportReport> {
    await readBundle(bytes, (r) => {
      checkImportedRun(r);
      verify?.(r);
    });
    const imported: string[] = [];
    const skipped: string[] = [];
    try {
      await readBundle(bytes, (r) => {
        if (this.hasRun(r.id)) {
          skipped.push(r.id);
          return;
        }
        this.db.transaction(() => this.insertFinished(r))();
        imported.push(r.id);
      });
    } catch (err) {
      if (imported.length) {
        try {
          this.db.transaction(() => {
            for (const id of imported) this.sql('DELETE FROM runs WHERE id = ?').run(id);
          })();
        } catch {
          // The database refuses even this: the error below says what went wrong first.
        }
      }
      throw err;
    }
    return { imported, skipped };
  }

  /** Writes a finished run as it was (ids, times, status): unfinished first, then finished. */
  private insertFinished(r: RunDetail): void {
    this
      .sql(
        `INSERT INTO runs (id, experiment, title, preset_id, preset_name, params_json, seed, sim_version, status, error, created_at, started_at, notes, preset_json)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'running', NULL, ?, ?, ?, ?)`,
      )
      .run(r.id, r.experiment, r.title, r.presetId, r.presetName, encodeJson(r.params), r.seed, r.simVersion, r.createdAt, r.startedAt, r.notes, encodeJson(r.preset));
    this.insertTags(r.id, r.tags);
    if (r.device) this.sql('UPDATE runs SET device_json = ? WHERE id = ?').run(encodeJson(r.device), r.id);
    if (r.result) this.insertResult(r.id, r.result);
    this.sql('UPDATE runs SET status = ?, error = ?, finished_at = ?, duration_ms = ? WHERE id = ?').run(r.status, r.error, r.finishedAt, r.durationMs, r.id);
  }
}

/** Checks a simulator result and converts series to Float64Array (copies). */
function toStoredResult(r: ExperimentResult): StoredResult {
  const series = r.series.map((s, i) => {
    if (s.x.length !== s.y.length) throw new LabError('invalid-args', `series ${i} ("${s.name}") has ${s.x.length} x values but ${s.y.length} y values`);
    // Float64Arrays are kept as they are (their bytes are stored as they are); others are converted.
    return { ...s, x: s.x instanceof Float64Array ? s.x : Float64Array.from(s.x), y: s.y instanceof Float64Array ? s.y : Float64Array.from(s.y) };
  });
  const out: StoredResult = { series, tables: r.tables, findings: r.findings, notes: r.notes };
  if (r.trace) {
    const t = r.trace;
    const n = t.address.length;
    const lengths: [string, number][] = [
      ['latency', t.latency.length],
      ['level', t.level.length],
      ['tlb', t.tlb.length],
      ['set', t.set.length],
      ['way', t.way.length],
      ['evicted', t.evicted.length],
    ];
    for (const [k, len] of lengths) if (len !== n) throw new LabError('invalid-args', `trace ${k} has ${len} entries, address ${n}`);
    if (n > MAX_TRACE) throw new LabError('invalid-args', `the trace has ${n} accesses; at most ${MAX_TRACE} are stored`);
    const s = t.start;
    if (s && (s.lines.length !== s.age.length || s.lines.length > MAX_TRACE_START || !Number.isSafeInteger(s.accesses) || s.accesses < 0))
      throw new LabError('invalid-args', `the trace's start state has ${s.lines.length} lines and ${s.age.length} ages (at most ${MAX_TRACE_START}) after ${s.accesses} accesses`);
    out.trace = t satisfies Trace;
  }
  return out;
}
