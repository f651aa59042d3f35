/**
 * The simulation pool: a FIFO queue of runs and up to `size` simulation processes (SimProcess),
 * started on demand and reused for many runs. Runs are validated before they are queued; each run
 * ends exactly once, as done, failed (an ExperimentError, an internal error, a crash of its process,
 * its time limit), cancelled (queued or running) or interrupted (the pool was closed). A process that
 * dies, or that the pool kills (cancel, time limit), fails or ends only its own run and is replaced;
 * the other runs go on.
 */
import { availableParallelism } from 'node:os';
import type { Experiment, ExperimentResult } from '../../../src-sim/experiments/types';
import type { RunRequest } from '../../../src-sim/worker-protocol';
import { Emitter } from './emitter';
import type { LogSink, WorkerLauncher } from './launcher';
import { stderrLog } from './launcher';
import type { RunAnswer } from './sim-process';
import { SimProcess } from './sim-process';
import type { RunSpec } from './validate';
import { validateRun } from './validate';

export const DEFAULT_TIME_LIMIT_MS = 10 * 60_000;

/** max(1, cores - 1): one core stays for the app itself. */
export function defaultPoolSize(): number {
  return Math.max(1, availableParallelism() - 1);
}

export interface SimPoolOptions {
  launcher: WorkerLauncher;
  /** Processes at most; default defaultPoolSize(). */
  size?: number;
  /** Per-run time limit unless the run gives its own; default DEFAULT_TIME_LIMIT_MS. */
  timeLimitMs?: number;
  /** Start-up (to the worker's 'ready') may take this long; default 60 s. */
  startTimeoutMs?: number;
  /** The experiments runs are validated against; default src-sim's EXPERIMENTS. */
  experiments?: readonly Experiment[];
  /** Workers' stderr and the pool's notices. */
  log?: LogSink;
}

export interface RunJob extends RunSpec {
  /** Unique among the pool's queued and running runs. */
  runId: string;
  timeLimitMs?: number;
}

/** Why a run failed. */
export type FailReason = 'experiment-error' | 'internal-error' | 'crashed' | 'timed-out' | 'start-failed';

interface OutcomeBase {
  runId: string;
  /** When a process took the run (ms since the epoch); null when it never started. */
  startedAt: number | null;
  finishedAt: number;
}

/** How a run ended. `status` and `error` are the run store's. */
export type RunOutcome =
  | (OutcomeBase & { status: 'done'; error: null; result: ExperimentResult; /** Time in the experiment's run(). */ elapsedMs: number })
  | (OutcomeBase & { status: 'failed'; error: string; reason: FailReason; /** The parameter an ExperimentError names. */ param?: string })
  | (OutcomeBase & { status: 'cancelled' | 'interrupted'; error: string });

export interface QueueState {
  /** In queue order. */
  queued: string[];
  /** In start order. */
  running: string[];
}

export interface PoolEvents {
  /** The queued or running set changed. */
  queue: QueueState;
  /** A process took the run. */
  started: { runId: string; startedAt: number; processId: number };
  progress: { runId: string; done: number; total: number; phase: string };
  /** Exactly once per submitted run. */
  finished: RunOutcome;
  /** A process was started, or ended (with the reason). */
  process: { processId: number; pid: number | undefined; event: 'spawned' | 'exited'; description?: string };
}

interface Entry {
  request: RunRequest;
  timeLimitMs: number;
  startedAt: number | null;
  process: SimProcess | null;
  outcome: Promise<RunOutcome>;
  resolve: (outcome: RunOutcome) => void;
}

export class SimPool {
  readonly size: number;
  private readonly launcher: WorkerLauncher;
  private readonly timeLimitMs: number;
  private readonly startTimeoutMs: number | undefined;
  private readonly experiments: readonly Experiment[] | undefined;
  private readonly log: LogSink;
  private readonly events: Emitter<PoolEvents>;
  private readonly queue: Entry[] = [];
  private readonly running = new Map<string, Entry>();
  private readonly processes = new Set<SimProcess>();
  private closed = false;
  private lastQueueState = '';

  constructor(options: SimPoolOptions) {
    const size = options.size ?? defaultPoolSize();
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`pool size must be a whole number >= 1 (got ${size})`);
    this.size = size;
    this.launcher = options.launcher;
    this.timeLimitMs = checkLimit(options.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS);
    this.startTimeoutMs = options.startTimeoutMs;
    this.experiments = options.experiments;
    this.log = options.log ?? stderrLog;
    this.events = new Emitter<PoolEvents>((event, err) => this.log(`[pool] a "${String(event)}" listener threw: ${err instanceof Error ? err.message : String(err)}`));
  }

  on<E extends keyof PoolEvents>(event: E, listener: (payload: PoolEvents[E]) => void): () => void {
    return this.events.on(event, listener);
  }

  /**
   * Validates the run (experiment, parameters, seed, work) and queues it. Throws at once, queuing
   * nothing, when the run is invalid (ExperimentError, naming the parameter), the id is already
   * queued or running, or the pool is closed. The promise never rejects: it resolves with how the
   * run ended.
   */
  submit(job: RunJob): Promise<RunOutcome> {
    if (this.closed) throw new Error('the simulation pool is closed');
    if (typeof job.runId !== 'string' || job.runId === '') throw new TypeError('a run needs a runId');
    if (this.running.has(job.runId) || this.queue.some((e) => e.request.runId === job.runId))
      throw new Error(`run ${job.runId} is already queued or running`);
    const { params } = validateRun(job, this.experiments);
    let resolve!: (outcome: RunOutcome) => void;
    const outcome = new Promise<RunOutcome>((r) => (resolve = r));
    this.queue.push({
      request: { type: 'run', runId: job.runId, experiment: job.experiment, preset: job.preset, params, seed: job.seed },
      timeLimitMs: checkLimit(job.timeLimitMs ?? this.timeLimitMs),
      startedAt: null,
      process: null,
      outcome,
      resolve,
    });
    this.emitQueue();
    this.pump();
    return outcome;
  }

  /** Cancels a queued or running run; false when the pool does not hold it (unknown or finished). */
  cancel(runId: string): boolean {
    const i = this.queue.findIndex((e) => e.request.runId === runId);
    if (i >= 0) {
      const [entry] = this.queue.splice(i, 1);
      this.finish(entry, { runId, status: 'cancelled', error: 'cancelled before it started', startedAt: null, finishedAt: Date.now() });
      this.emitQueue();
      return true;
    }
    const entry = this.running.get(runId);
    if (!entry?.process) return false;
    // The run is synchronous inside its process: cancelling is killing that process (a new one replaces it).
    entry.process.kill('cancelled');
    return true;
  }

  /** Queued and running run ids. */
  state(): QueueState {
    return { queued: this.queue.map((e) => e.request.runId), running: [...this.running.keys()] };
  }

  /** The live processes (for diagnostics and tests). */
  processInfo(): { processId: number; pid: number | undefined; state: string; runId: string | null }[] {
    return [...this.processes].map((p) => ({ processId: p.id, pid: p.pid, state: p.state, runId: p.runId }));
  }

  /**
   * Kills every process. Runs still queued or running end as 'interrupted' (returned, and
   * reported by 'finished' as usual). Resolves when the processes are gone (or after `waitMs`).
   */
  async close(waitMs = 5_000): Promise<RunOutcome[]> {
    if (this.closed) return [];
    this.closed = true;
    const outcomes: Promise<RunOutcome>[] = [];
    const now = Date.now();
    for (const entry of this.queue.splice(0)) {
      this.finish(entry, { runId: entry.request.runId, status: 'interrupted', error: 'interrupted: the simulation pool was closed before the run started', startedAt: null, finishedAt: now });
      outcomes.push(entry.outcome);
    }
    for (const entry of this.running.values()) outcomes.push(entry.outcome);
    const processes = [...this.processes];
    for (const p of processes) p.kill('closed');
    const result = await Promise.all(outcomes);
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([Promise.all(processes.map((p) => p.ended)), new Promise((r) => (timer = setTimeout(r, waitMs)))]);
    clearTimeout(timer);
    this.emitQueue();
    return result;
  }

  private pump(): void {
    if (this.closed) return;
    let changed = false;
    while (this.queue.length > 0) {
      let process: SimProcess | null;
      try {
        process = this.freeProcess();
      } catch (err) {
        // The launcher itself fails (not one run's fault, but no run can start): fail the next run and go on.
        const entry = this.queue.shift()!;
        const message = `could not start a simulation process: ${err instanceof Error ? err.message : String(err)}`;
        this.finish(entry, { runId: entry.request.runId, status: 'failed', reason: 'start-failed', error: message, startedAt: null, finishedAt: Date.now() });
        changed = true;
        continue;
      }
      if (!process) break;
      this.start(this.queue.shift()!, process);
      changed = true;
    }
    if (changed) this.emitQueue();
  }

  /** An available process (a ready one first), or a new one while below size, or null. */
  private freeProcess(): SimProcess | null {
    let starting: SimProcess | null = null;
    for (const p of this.processes) {
      if (!p.available) continue;
      if (p.state === 'idle') return p;
      starting ??= p;
    }
    if (starting) return starting;
    return this.processes.size < this.size ? this.spawn() : null;
  }

  private spawn(): SimProcess {
    const p = new SimProcess(this.launcher, { startTimeoutMs: this.startTimeoutMs, log: this.log });
    this.processes.add(p);
    p.onGone(() => {
      this.processes.delete(p);
      // A replacement starts when a queued run needs one.
      queueMicrotask(() => this.pump());
    });
    const pid = p.pid;
    void p.ended.then((end) => this.events.emit('process', { processId: p.id, pid: pid ?? p.pid, event: 'exited', description: end.description }));
    this.events.emit('process', { processId: p.id, pid, event: 'spawned' });
    return p;
  }

  private start(entry: Entry, process: SimProcess): void {
    const runId = entry.request.runId;
    entry.process = process;
    entry.startedAt = Date.now();
    this.running.set(runId, entry);
    this.events.emit('started', { runId, startedAt: entry.startedAt, processId: process.id });
    void process
      .run(entry.request, {
        timeLimitMs: entry.timeLimitMs,
        onProgress: (p) => this.events.emit('progress', { runId, done: p.done, total: p.total, phase: p.phase }),
      })
      .then((answer) => this.settle(entry, answer));
  }

  private settle(entry: Entry, answer: RunAnswer): void {
    const runId = entry.request.runId;
    if (this.running.get(runId) !== entry) return;
    this.running.delete(runId);
    const base = { runId, startedAt: entry.startedAt, finishedAt: Date.now() };
    switch (answer.kind) {
      case 'result':
        this.finish(entry, { ...base, status: 'done', error: null, result: answer.result, elapsedMs: answer.elapsedMs });
        break;
      case 'error':
        if (answer.name === 'ExperimentError') {
          this.finish(entry, { ...base, status: 'failed', reason: 'experiment-error', error: answer.message, ...(answer.param === undefined ? {} : { param: answer.param }) });
        } else {
          if (answer.stack) this.log(`[pool] run ${runId}: ${answer.stack}`);
          this.finish(entry, { ...base, status: 'failed', reason: 'internal-error', error: `internal error in the simulation: ${answer.name}: ${answer.message}` });
        }
        break;
      case 'killed':
        if (answer.reason === 'cancelled') this.finish(entry, { ...base, status: 'cancelled', error: answer.message });
        else if (answer.reason === 'closed') this.finish(entry, { ...base, status: 'interrupted', error: answer.message });
        else this.finish(entry, { ...base, status: 'failed', reason: answer.reason === 'time-limit' ? 'timed-out' : 'start-failed', error: answer.message });
        break;
      case 'died':
        this.finish(entry, { ...base, status: 'failed', reason: 'crashed', error: answer.message });
        break;
    }
    this.emitQueue();
    this.pump();
  }

  private finish(entry: Entry, outcome: RunOutcome): void {
    entry.resolve(outcome);
    this.events.emit('finished', outcome);
  }

  private emitQueue(): void {
    const state = this.state();
    const key = `${state.queued.join(',')}|${state.running.join(',')}`;
    if (key === this.lastQueueState) return;
    this.lastQueueState = key;
    this.events.emit('queue', state);
  }
}

function checkLimit(ms: number): number {
  if (!(ms > 0)) throw new RangeError(`a time limit must be a positive number of milliseconds (got ${ms})`);
  return ms;
}
