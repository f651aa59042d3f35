/**
 * The lab service: every call of the contract (src-main/contract.ts) on top of one run store and
 * one simulation pool, plus the events the transports push to the renderer.
 *
 * The transports are thin: the Electron IPC handlers, the browser mode's HTTP routes and an
 * in-process caller all go through `dispatch(name, rawArgs)` (or `call`), which validates the
 * argument with the contract's `parseArgs` before any handler sees it, and turns every failure into
 * `{ code, message }` (never a stack). Subscribers get `run.progress`, `run.finished` and
 * `queue.changed` through `on`.
 *
 * A run's life here: runs.start validates the run (experiment, parameters, work) before anything is
 * stored, records it queued (with a snapshot of its preset), and submits it to the pool. The pool's
 * events move it on: started -> running; finished -> done with its result in one transaction, or
 * failed / cancelled / interrupted with the message. `run.finished` is emitted after the store has
 * the outcome, so a subscriber that reads the run then finds it finished. Closing the lab closes the
 * pool (runs still queued or running end as interrupted) and then the database.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type {
  AppVersion,
  CallName,
  ExperimentInfo,
  FileResult,
  LabApi,
  LabErrorPayload,
  LabEvents,
  ParsedArgs,
  ResultOf,
  RunCheck,
  RunFinishedEvent,
  RunReferences,
} from '../contract';
import { buildCalls, LabError, parseArgs } from '../contract';
import { EXPERIMENTS } from '../../src-sim/experiments';
import type { Experiment } from '../../src-sim/experiments/types';
import { ExperimentError } from '../../src-sim/experiments/types';
import { REPRODUCTION_ROWS, rowPlans, selectRows } from '../../src-sim/reference';
import type { RowResult } from '../../src-sim/reference/types';
import { SIM_VERSION } from '../../src-sim/version';
import { exportCsv } from './export/csv';
import { paperComparison } from './export/references';
import { ForkLauncher, SimPool, validateRun } from './pool';
import type { LogSink, RunOutcome, WorkerLauncher } from './pool';
import { Emitter } from './pool/emitter';
import { DEFAULT_ROW_JOBS, outcomeRows, rowJobs, runRowsInParallel } from './pool/rows-parallel';
import { stderrLog } from './pool/launcher';
import { RunStore } from './store';
import { GpuService } from './gpu';
import { collectSweep, SweepService } from './sweep';

export interface LabOptions {
  /** The database file (created with its folder when missing). */
  dbPath: string;
  /** Simulation processes at most; default max(1, cores - 1). */
  poolSize?: number;
  /** How simulation processes start; default a ForkLauncher of src-sim/worker.ts. */
  launcher?: WorkerLauncher;
  /** package.json version: recorded in the database and bundles, reported by app.version. */
  appVersion?: string;
  /** process.versions.electron in the desktop app; null (default) elsewhere. */
  electronVersion?: string | null;
  /** Per-run time limit (ms); default the pool's (10 min). */
  timeLimitMs?: number;
  /** Simulation processes a scorecard (reproduce.rows) uses at once; default one a core, at most four. */
  scorecardJobs?: number;
  /**
   * The experiments runs are validated against and listed from; default src-sim's EXPERIMENTS.
   * Tests add the test-only experiments here (and enable them in the workers' environment).
   */
  experiments?: readonly Experiment[];
  /** Notices and internal errors (with their stacks, which never reach a caller). */
  log?: LogSink;
  /** Clock of the store (tests pin it). */
  now?: () => number;
  /**
   * Mark runs left queued or running in the database as interrupted when opening it (default true:
   * the desktop app and the browser mode). The CLI passes false: it executes only its own run and
   * must not end the runs of an app that has the same database open.
   */
  recoverInterrupted?: boolean;
  /** Where the real-GPU calls look for nvcc and nvidia-smi (default process.env; tests give stand-ins). */
  gpuEnv?: NodeJS.ProcessEnv;
}

/** What `dispatch` answers: a result, or an error as it travels on the wire. */
export type CallOutcome = { ok: true; result: unknown } | { ok: false; error: LabErrorPayload };

type Handlers = { [K in CallName]: (args: ParsedArgs<K>) => ResultOf<K> | Promise<ResultOf<K>> };

interface Waiter {
  promise: Promise<RunFinishedEvent>;
  resolve: (event: RunFinishedEvent) => void;
}

function waiter(): Waiter {
  let resolve!: (event: RunFinishedEvent) => void;
  const promise = new Promise<RunFinishedEvent>((r) => (resolve = r));
  return { promise, resolve };
}

/** The whole scorecard (every row of the four papers) may take this long on a slow machine. */
const SCORECARD_TIME_LIMIT_MS = 30 * 60_000;

const oneLine = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/**
 * Turns anything thrown by a handler into a LabError. User-facing errors keep their message;
 * anything else becomes 'internal' with its message only (its stack goes to the log).
 */
export function toLabError(err: unknown, log?: LogSink): LabError {
  if (err instanceof LabError) return err;
  if (err instanceof ExperimentError) return new LabError('invalid-args', err.param ? `${err.param}: ${err.message}` : err.message);
  if (log && err instanceof Error && err.stack) log(`[lab] internal error: ${err.stack}`);
  return new LabError('internal', oneLine(err).slice(0, 2_000) || 'internal error');
}

export class LabService {
  readonly store: RunStore;
  readonly pool: SimPool;
  /** The real-GPU calls (emit, import, status, run here, preset from a run). */
  readonly gpu: GpuService;
  /** Sweeps over this store, their runs queued on this pool (services/sweep). */
  readonly sweeps: SweepService;
  /** The contract's API object over this service, in process (the CLI, tests). */
  readonly api: LabApi;
  private readonly log: LogSink;
  private readonly appVersion: string;
  private readonly electronVersion: string | null;
  private readonly experiments: readonly Experiment[];
  private readonly events: Emitter<LabEvents>;
  private readonly handlers: Handlers;
  /** Runs this service submitted and that have not ended yet. */
  private readonly active = new Map<string, Waiter>();
  private state: 'open' | 'closing' | 'closed' = 'open';
  /** The simulation process launcher (the pool's, and the scorecard's own process). */
  private readonly launcher: WorkerLauncher;
  /** The scorecard running now, if any (its processes stop on cancel). */
  private scorecard: { cancel(): void } | null = null;
  /** Simulation processes a scorecard uses at once. */
  private readonly scorecardJobs: number;
  private closing: Promise<void> | null = null;

  constructor(options: LabOptions) {
    this.log = options.log ?? stderrLog;
    this.appVersion = options.appVersion ?? 'unknown';
    this.electronVersion = options.electronVersion ?? null;
    this.experiments = options.experiments ?? EXPERIMENTS;
    this.events = new Emitter<LabEvents>((event, err) => this.log(`[lab] a "${String(event)}" listener threw: ${oneLine(err)}`));
    mkdirSync(dirname(options.dbPath), { recursive: true });
    // This process executes runs: runs another session left queued or running become interrupted
    // (unless the caller says that another process may be executing them: the CLI).
    this.store = RunStore.open(options.dbPath, {
      appVersion: this.appVersion,
      recoverInterrupted: options.recoverInterrupted ?? true,
      ...(options.now ? { now: options.now } : {}),
      // Another process's runs, ended by a heartbeat once it is gone: the views hear of them as of any run that ends.
      onInterrupted: (runs) => {
        for (const r of runs) this.events.emit('run.finished', { runId: r.id, status: 'interrupted', error: r.error });
      },
    });
    this.launcher = options.launcher ?? new ForkLauncher({ log: this.log });
    this.scorecardJobs = Math.max(1, Math.floor(options.scorecardJobs ?? DEFAULT_ROW_JOBS));
    try {
      this.pool = new SimPool({
        launcher: this.launcher,
        ...(options.poolSize === undefined ? {} : { size: options.poolSize }),
        ...(options.timeLimitMs === undefined ? {} : { timeLimitMs: options.timeLimitMs }),
        experiments: this.experiments,
        log: this.log,
      });
    } catch (err) {
      this.store.close();
      throw err;
    }
    this.pool.on('started', (e) => this.onStarted(e.runId));
    this.pool.on('progress', (p) => this.events.emit('run.progress', { runId: p.runId, done: p.done, total: p.total, phase: p.phase.slice(0, 200) }));
    this.pool.on('finished', (outcome) => this.onFinished(outcome));
    this.pool.on('queue', (q) => this.events.emit('queue.changed', { queued: q.queued, running: q.running }));
    this.sweeps = new SweepService({
      store: this.store,
      experiments: this.experiments,
      enqueue: (job) => {
        this.active.set(job.runId, waiter());
        void this.pool.submit(job);
      },
      cancel: async (id) => (await this.cancelRun(id)).cancelled,
      msPerWork: (e) => this.msPerWork(e),
    });
    this.gpu = new GpuService({ store: this.store, progress: (job) => this.events.emit('gpu.progress', job), ...(options.gpuEnv ? { env: options.gpuEnv } : {}), ...(options.now ? { now: options.now } : {}) });
    this.handlers = this.makeHandlers();
    this.api = { ...buildCalls((name, args) => this.call(name, args)), on: (event, listener) => this.on(event, listener) };
  }

  /** Subscribes to an event; returns the unsubscribe function. A throwing listener is logged and skipped. */
  on<E extends keyof LabEvents>(event: E, listener: (payload: LabEvents[E]) => void): () => void {
    return this.events.on(event, listener);
  }

  /**
   * Validates and runs one call. Resolves with its result or rejects with a LabError (only): the
   * transports send `{ code, message }` of it.
   */
  async call(name: string, rawArgs: unknown): Promise<unknown> {
    try {
      if (this.state !== 'open') throw new LabError('conflict', 'the lab is shutting down');
      const args = parseArgs(name as CallName, rawArgs);
      const handler = this.handlers[name as CallName] as (a: unknown) => unknown;
      return await handler(args);
    } catch (err) {
      // A damaged database file is named with what to do, not as a raw SQLite error.
      throw toLabError(this.store.explain(err), this.log);
    }
  }

  /** `call` with its failure as a value: what an IPC handler or an HTTP route sends back. */
  async dispatch(name: string, rawArgs: unknown): Promise<CallOutcome> {
    try {
      return { ok: true, result: await this.call(name, rawArgs) };
    } catch (err) {
      const e = toLabError(err, this.log);
      return { ok: false, error: { code: e.code, message: e.message } };
    }
  }

  /**
   * Resolves when a run has ended (at once, from the store, when it already has). For a run
   * started through this service, after its outcome is stored.
   */
  async finished(runId: string): Promise<RunFinishedEvent> {
    const w = this.active.get(runId);
    if (w) return w.promise;
    const s = this.store.getSummary(runId);
    if (s.status === 'queued' || s.status === 'running') throw new LabError('conflict', `run ${runId} is ${s.status} but not in this lab's queue`);
    return { runId, status: s.status, error: s.error };
  }

  /** Queued and running runs. */
  queue(): { queued: string[]; running: string[] } {
    return this.pool.state();
  }

  /**
   * Closes the pool (runs still queued or running end as interrupted, and are stored so) and then
   * the database. Calls made meanwhile are refused. Safe to call more than once.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.state = 'closing';
      this.scorecard?.cancel();
      this.gpu.close();
      try {
        await this.pool.close();
      } finally {
        for (const [runId, w] of this.active) w.resolve({ runId, status: 'interrupted', error: 'interrupted: the lab closed' });
        this.active.clear();
        this.store.close();
        this.state = 'closed';
      }
    })();
    return this.closing;
  }

  // -------------------------------------------------------------------------------------------
  // Pool -> store
  // -------------------------------------------------------------------------------------------

  private onStarted(runId: string): void {
    try {
      this.store.startRun(runId);
    } catch (err) {
      this.log(`[lab] run ${runId}: could not record its start: ${oneLine(err)}`);
    }
  }

  private onFinished(outcome: RunOutcome): void {
    const { runId } = outcome;
    let event: RunFinishedEvent;
    try {
      if (outcome.status === 'done') {
        try {
          this.store.finishRun(runId, outcome.result, { durationMs: outcome.elapsedMs });
          event = { runId, status: 'done', error: null };
        } catch (err) {
          // A result the store refuses (a trace too long, unequal series) fails its run, with the reason.
          const message = `the result could not be stored: ${oneLine(err)}`;
          this.store.endRun(runId, 'failed', message);
          event = { runId, status: 'failed', error: message };
        }
      } else {
        this.store.endRun(runId, outcome.status, outcome.error);
        event = { runId, status: outcome.status, error: outcome.error };
      }
    } catch (err) {
      // The database is gone (closed under us) or refused the write: report what it holds, if it
      // can be read, so the event never says "done" for a run the library shows otherwise.
      this.log(`[lab] run ${runId}: could not record its outcome (${outcome.status}): ${oneLine(err)}`);
      const message = `the outcome (${outcome.status}) could not be recorded: ${oneLine(err)}`;
      let stored: RunFinishedEvent['status'] = outcome.status === 'done' ? 'failed' : outcome.status;
      try {
        const s = this.store.getSummary(runId);
        if (s.status !== 'queued' && s.status !== 'running') stored = s.status;
      } catch {
        // Unreadable: the outcome as a failure to record it.
      }
      event = { runId, status: stored, error: message };
    }
    const w = this.active.get(runId);
    this.active.delete(runId);
    this.events.emit('run.finished', event);
    w?.resolve(event);
  }

  // -------------------------------------------------------------------------------------------
  // Handlers
  // -------------------------------------------------------------------------------------------

  private makeHandlers(): Handlers {
    const store = this.store;
    return {
      'runs.start': (a) => this.startRun(a),
      'runs.check': (a) => this.checkRun(a),
      'runs.list': (a) => store.listRuns(a),
      'runs.get': (a) => store.getRun(a.id, { trace: a.full }),
      'runs.trace': (a) => store.getTrace(a.id),
      'runs.cancel': (a) => this.cancelRun(a.id),
      'runs.update': (a) => store.updateRun(a.id, pick(a, ['title', 'tags', 'notes'])),
      'runs.delete': (a) => ({ deleted: store.deleteRuns(a.ids) }),
      'presets.list': () => store.listPresets(),
      'presets.get': (a) => store.getPreset(a.id),
      'presets.saveCustom': (a) => store.saveCustomPreset(a.preset),
      'presets.deleteCustom': (a) => ({ deleted: store.deleteCustomPreset(a.id) }),
      'experiments.list': () => this.listExperiments(),
      'comparisons.save': (a) => store.saveComparison(a),
      'comparisons.list': () => store.listComparisons(),
      'comparisons.get': (a) => store.getComparison(a.id),
      'comparisons.delete': (a) => ({ deleted: store.deleteComparison(a.id) }),
      'bundles.export': (a) => store.exportBundle(a.runIds),
      'bundles.import': (a) => store.importBundle(a.bytes),
      'exports.csv': (a) => exportCsv(store, a.runIds),
      'exports.pdf': (a) => this.exportPdf(a.runIds, a.title, a.raw === true, a.evidence === true),
      'reproduce.rows': (a) => this.reproduceRows(a.selector, a.preset, a.seed),
      'reproduce.cancel': () => {
        const scorecard = this.scorecard;
        if (!scorecard) return { cancelled: false };
        scorecard.cancel();
        return { cancelled: true };
      },
      'reproduce.references': (a) => this.runReferences(a.runId),
      'app.version': () => this.version(),
      'app.checkDatabase': () => store.checkDatabase(),
      'sweeps.check': (a) => this.sweeps.check(a.plan),
      'sweeps.start': (a) => this.sweeps.start(a.plan, a.resume),
      'sweeps.list': () => this.sweeps.list(),
      'sweeps.get': (a) => this.sweeps.get(a.id),
      'sweeps.cancel': (a) => this.sweeps.cancel(a.id),
      'sweeps.delete': (a) => this.sweeps.delete(a.id),
      'sweeps.csv': (a) => this.sweeps.csv(a.id),
      'sweeps.collect': (a) => collectSweep(store, this.sweeps, this.experiments, a),
      'sweeps.pdf': async ({ id, ...choice }) => {
        const { exportSweepPdf } = await import('./export/sweep-pdf');
        return exportSweepPdf(this.sweeps.get(id), { ...choice, appVersion: this.appVersion });
      },
      'gpu.emit': (a) => this.gpu.emit(a),
      'gpu.import': (a) => this.gpu.import(a),
      'gpu.status': () => this.gpu.status(),
      'gpu.experiments': () => this.gpu.experiments(),
      'gpu.run': (a) => this.gpu.run(a),
      'gpu.characterise': (a) => this.gpu.characterise(a),
      'gpu.importCharacterisation': (a) => this.gpu.importCharacterisation(a),
      'gpu.cancel': () => this.gpu.cancel(),
      'gpu.preset': (a) => this.gpu.preset(a),
    };
  }

  /** runs.start's checks alone: nothing is stored or queued (a form asks as the user types). */
  private checkRun(a: ParsedArgs<'runs.check'>): RunCheck {
    const preset = this.store.getPreset(a.preset).preset;
    try {
      const { experiment, estimate } = validateRun({ experiment: a.experiment, preset, params: a.params, seed: a.seed }, this.experiments);
      const ms = this.msPerWork(experiment);
      return ms === null ? { ok: true, estimate } : { ok: true, estimate, seconds: Math.round((estimate * ms) / 100) / 10 };
    } catch (err) {
      if (!(err instanceof ExperimentError)) throw err;
      return { ok: false, param: err.param ?? null, message: err.message };
    }
  }

  /**
   * Milliseconds per unit of estimated work of an experiment on this machine: the median over its
   * last finished runs (simulation time over their work estimate); null before any has finished.
   */
  private msPerWork(experiment: Experiment): number | null {
    const done = this.store.listRuns({ experiment: experiment.id, status: ['done'], limit: 5 }).items;
    const rates: number[] = [];
    for (const r of done) {
      if (!r.durationMs || r.durationMs <= 0) continue;
      try {
        const { preset, params } = this.store.getSnapshot(r.id);
        if (!preset) continue; // a real run: no simulation time
        const work = experiment.estimate(preset, params);
        if (work > 0) rates.push(r.durationMs / work);
      } catch {
        // A run whose parameters no longer resolve tells nothing of the rate.
      }
    }
    if (!rates.length) return null;
    rates.sort((x, y) => x - y);
    return rates[Math.floor(rates.length / 2)]!;
  }

  private startRun(a: ParsedArgs<'runs.start'>): { runId: string } {
    const preset = this.store.getPreset(a.preset).preset;
    // Everything that can be refused is refused before anything is stored.
    let params;
    try {
      ({ params } = validateRun({ experiment: a.experiment, preset, params: a.params, seed: a.seed }, this.experiments));
    } catch (err) {
      // Named like parseArgs's messages ("runs.start: params.sizeFrom: ..."), so a form can place it by its path.
      if (!(err instanceof ExperimentError)) throw err;
      const path = err.param === undefined ? '' : err.param === 'experiment' || err.param === 'seed' ? `${err.param}: ` : `params.${err.param}: `;
      throw new LabError('invalid-args', `runs.start: ${path}${err.message}`);
    }
    const run = this.store.createRun({
      experiment: a.experiment,
      preset,
      params,
      seed: a.seed,
      ...(a.title === undefined ? {} : { title: a.title }),
      ...(a.tags === undefined ? {} : { tags: a.tags }),
      ...(a.notes === undefined ? {} : { notes: a.notes }),
    });
    const runId = run.id;
    this.active.set(runId, waiter());
    try {
      void this.pool.submit({ runId, experiment: a.experiment, preset, params, seed: a.seed });
    } catch (err) {
      // Not queued after all (the pool closed meanwhile): leave nothing behind.
      this.active.delete(runId);
      try {
        this.store.endRun(runId, 'failed', oneLine(err));
        this.store.deleteRuns([runId]);
      } catch (cleanup) {
        this.log(`[lab] run ${runId}: could not remove the run the pool refused: ${oneLine(cleanup)}`);
      }
      throw err;
    }
    return { runId };
  }

  private async cancelRun(id: string): Promise<{ cancelled: boolean }> {
    this.store.getSummary(id); // not-found before anything else
    const w = this.active.get(id);
    if (w && this.pool.cancel(id)) {
      // Queued: ended at once. Running: its process is killed; the outcome is stored before this resolves.
      const ended = await w.promise;
      return { cancelled: ended.status === 'cancelled' };
    }
    const summary = this.store.getSummary(id);
    if (summary.status === 'queued' || summary.status === 'running') {
      // Recorded as active but held by no pool here (cannot happen in the process that executes runs): end it.
      const message = 'cancelled (the run was not in the queue of this lab)';
      this.store.endRun(id, 'cancelled', message);
      this.active.delete(id);
      this.events.emit('run.finished', { runId: id, status: 'cancelled', error: message });
      w?.resolve({ runId: id, status: 'cancelled', error: message });
      return { cancelled: true };
    }
    return { cancelled: false };
  }

  private listExperiments(): ExperimentInfo[] {
    return this.experiments.map((e) => ({
      id: e.id,
      title: e.title,
      description: e.description,
      reproduces: [...e.reproduces],
      rows: REPRODUCTION_ROWS.filter((r) => e.reproduces.includes(r.id)).map((r) => ({ id: r.id, paper: r.paper, title: r.title, presets: [...r.presets], plans: rowPlans(r, e.id) })),
      params: structuredClone(e.params),
    }));
  }

  /** The PDF writer (pdfkit, ECharts' server-side renderer: about half a second) loads on the first export. */
  private async exportPdf(runIds: string[], title: string | undefined, raw: boolean, evidence: boolean): Promise<FileResult> {
    const { exportPdf } = await import('./export/pdf');
    return exportPdf(this.store, runIds, { appVersion: this.appVersion, raw, evidence, ...(title === undefined ? {} : { title }) });
  }

  /**
   * The papers' rows, measured now in simulation processes of their own (the timing tier's rows take
   * up to a minute each; this process stays free): the (row, preset) jobs in groups of the runs they
   * share, over up to `scorecardJobs` processes at once (src-main/services/pool/rows-parallel.ts), with
   * a `reproduce.progress` event as each starts and ends and one at the end. One scorecard at a time;
   * `reproduce.cancel` or closing the lab stops it. A row that throws, or whose process dies or passes
   * the time limit, is reported as failed with the reason; the others go on.
   */
  private async reproduceRows(selector: string, presetId: string | undefined, seed: number): Promise<RowResult[]> {
    try {
      selectRows(selector);
    } catch (err) {
      throw new LabError('not-found', oneLine(err));
    }
    const override = presetId === undefined ? undefined : this.store.getPreset(presetId).preset;
    if (this.scorecard) throw new LabError('conflict', 'the scorecard is already running; wait for it to finish');
    const jobs = rowJobs(selector, override);
    let cancelled = false;
    const run = runRowsInParallel(this.launcher, jobs, {
      concurrency: this.scorecardJobs,
      seed,
      timeLimitMs: SCORECARD_TIME_LIMIT_MS,
      log: this.log,
      onProgress: (done, total, phase) => this.events.emit('reproduce.progress', { done, total, phase: phase.slice(0, 200) }),
    });
    this.scorecard = {
      cancel: () => {
        cancelled = true;
        run.cancel();
      },
    };
    try {
      const outcomes = await run.done;
      if (this.state !== 'open') throw new LabError('conflict', 'the lab is shutting down');
      if (cancelled) throw new LabError('conflict', 'the scorecard was cancelled');
      this.events.emit('reproduce.progress', { done: jobs.length, total: jobs.length, phase: 'done' });
      return outcomes.flatMap(outcomeRows);
    } finally {
      this.scorecard = null;
    }
  }

  /**
   * The papers' values beside one run's findings (src-main/services/export/references.ts, as the
   * PDF report shows them): no simulation, the run's stored findings only. A run without a result
   * (queued, failed) has no findings, so only unmatched paper values.
   */
  private runReferences(runId: string): RunReferences {
    const summary = this.store.getSummary(runId);
    const { preset, params } = this.store.getSnapshot(runId);
    const cmp = paperComparison({ experiment: summary.experiment, presetId: summary.presetId, preset, params }, this.store.getFindings(runId));
    return {
      runId,
      rows: cmp.rows.map((r) => ({ id: r.id, paper: r.paper, title: r.title })),
      findings: cmp.findings.flatMap((f) => (f.paper && f.check ? [{ key: f.finding.key, paper: f.paper, check: f.check }] : [])),
      unmatched: cmp.unmatched,
    };
  }

  private version(): AppVersion {
    return { app: this.appVersion, simulator: SIM_VERSION, schema: this.store.schemaVersion, node: process.versions.node, electron: this.electronVersion };
  }
}

function pick<T extends object, K extends keyof T>(o: T, keys: K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

/** Opens the database (migrating it, marking runs a previous session left as interrupted) and makes the pool. */
export function createLab(options: LabOptions): LabService {
  return new LabService(options);
}
