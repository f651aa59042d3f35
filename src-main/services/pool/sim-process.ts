/**
 * One simulation process's whole life: start-up (until the worker says it is ready), one run at a
 * time (request out, progress and a result or an error in), the run's time limit, kill, and the
 * exit with its reason. The pool (pool.ts) decides what runs where; this class only keeps its
 * process's story straight, so that every run it accepts gets exactly one answer.
 */
import type { ExperimentResult } from '../../../src-sim/experiments/types';
import type { RowResult } from '../../../src-sim/reference/types';
import type { WorkerRequest } from '../../../src-sim/worker-protocol';
import { isWorkerMessage } from '../../../src-sim/worker-protocol';
import type { ProcessExit, WorkerHandle, WorkerLauncher } from './launcher';

/** Why we killed a process (as opposed to it dying on its own). */
export type KillReason = 'cancelled' | 'time-limit' | 'closed' | 'start-timeout';

/** The one answer a run gets from its process. */
export type RunAnswer =
  | { kind: 'result'; result: ExperimentResult; elapsedMs: number }
  /** The rows of a RowsRequest (the scorecard). */
  | { kind: 'rows'; rows: RowResult[]; elapsedMs: number }
  /** run() threw; the process goes on. `name` is 'ExperimentError' for a user-facing error. */
  | { kind: 'error'; message: string; name: string; param?: string; stack?: string }
  /** We killed the process (cancel, time limit, close, start-up timeout). */
  | { kind: 'killed'; reason: KillReason; message: string }
  /** The process died on its own: exit code, signal, crash. */
  | { kind: 'died'; message: string; exit: ProcessExit };

export type ProcessState = 'starting' | 'idle' | 'busy' | 'stopping' | 'exited';

export interface RunProgress {
  done: number;
  total: number;
  phase: string;
}

export interface RunOptions {
  /** Counted from the moment the request reaches a ready process (start-up is not the run's time). */
  timeLimitMs: number;
  onProgress?: (progress: RunProgress) => void;
  /** The request went out to the worker (the run is executing now). */
  onSent?: () => void;
}

export interface SimProcessOptions {
  /** How long start-up (to the worker's 'ready') may take before the process is killed. */
  startTimeoutMs?: number;
  log?: (line: string) => void;
}

/** What the process ended with, described for a person. */
export interface ProcessEnd extends ProcessExit {
  /** Set when we killed it. */
  killedFor: KillReason | null;
  description: string;
}

interface CurrentRun {
  request: WorkerRequest;
  options: RunOptions;
  resolve: (answer: RunAnswer) => void;
  timer: ReturnType<typeof setTimeout> | null;
}

let nextId = 1;

export class SimProcess {
  readonly id = nextId++;
  /** Resolves when the OS process is gone. */
  readonly ended: Promise<ProcessEnd>;
  private readonly handle: WorkerHandle;
  private readonly log: (line: string) => void;
  private stateNow: ProcessState = 'starting';
  private ready = false;
  private current: CurrentRun | null = null;
  private killedFor: KillReason | null = null;
  private startTimer: ReturnType<typeof setTimeout> | null;
  private goneListeners: (() => void)[] = [];
  private resolveEnded!: (end: ProcessEnd) => void;

  constructor(launcher: WorkerLauncher, options: SimProcessOptions = {}) {
    this.log = options.log ?? (() => {});
    this.ended = new Promise((resolve) => (this.resolveEnded = resolve));
    this.handle = launcher.launch();
    this.handle.onMessage((m) => this.message(m));
    this.handle.onExit((exit) => this.exit(exit));
    const startTimeoutMs = options.startTimeoutMs ?? 60_000;
    this.startTimer = setTimeout(() => {
      this.startTimer = null;
      this.kill('start-timeout', `simulation process did not start within ${formatDuration(startTimeoutMs)}`);
    }, startTimeoutMs);
  }

  get pid(): number | undefined {
    return this.handle.pid;
  }

  get state(): ProcessState {
    return this.stateNow;
  }

  /** Can take a run now (it starts when the process is ready). */
  get available(): boolean {
    return (this.stateNow === 'starting' || this.stateNow === 'idle') && this.current === null;
  }

  /** The run this process holds, if any. */
  get runId(): string | null {
    return this.current?.request.runId ?? null;
  }

  /** Called once when the process can take no more runs (killed, or died). */
  onGone(listener: () => void): void {
    if (this.stateNow === 'stopping' || this.stateNow === 'exited') listener();
    else this.goneListeners.push(listener);
  }

  /** Runs one request. Never rejects: every outcome is a RunAnswer. */
  run(request: WorkerRequest, options: RunOptions): Promise<RunAnswer> {
    if (!this.available) throw new Error(`simulation process ${this.label()} cannot take a run (${this.stateNow}, holding ${this.runId ?? 'none'})`);
    return new Promise<RunAnswer>((resolve) => {
      this.current = { request, options, resolve, timer: null };
      this.stateNow = 'busy';
      if (this.ready) this.send();
    });
  }

  /** Kills the process; the run it holds is answered at once with `killed`. */
  kill(reason: KillReason, message = killMessage(reason)): void {
    if (this.stateNow === 'stopping' || this.stateNow === 'exited') return;
    this.killedFor = reason;
    this.stateNow = 'stopping';
    this.clearStartTimer();
    this.answer({ kind: 'killed', reason, message });
    this.handle.kill();
    this.gone();
  }

  label(): string {
    return `#${this.id} (pid ${this.handle.pid ?? '?'})`;
  }

  private send(): void {
    const run = this.current;
    if (!run) return;
    try {
      this.handle.send(run.request);
    } catch (err) {
      // The channel closed under us: the process is going; its exit answers the run.
      this.log(`[sim ${this.label()}] could not send run ${run.request.runId}: ${err instanceof Error ? err.message : String(err)}`);
      this.handle.kill();
      return;
    }
    const limit = run.options.timeLimitMs;
    // setTimeout cannot wait longer than 2^31 - 1 ms (about 24.8 days): beyond that, no limit.
    if (limit <= 0x7fffffff) {
      run.timer = setTimeout(() => {
        run.timer = null;
        if (this.current === run) this.kill('time-limit', `the run exceeded its time limit of ${formatDuration(limit)} and was stopped`);
      }, limit);
    }
    run.options.onSent?.();
  }

  private message(m: unknown): void {
    if (this.stateNow === 'stopping' || this.stateNow === 'exited') return;
    if (!isWorkerMessage(m)) {
      this.log(`[sim ${this.label()}] ignored a malformed message`);
      return;
    }
    if (m.type === 'ready') {
      this.clearStartTimer();
      this.ready = true;
      if (this.stateNow === 'starting') this.stateNow = 'idle';
      if (this.current) this.send();
      return;
    }
    const run = this.current;
    if (!run || m.runId !== run.request.runId) {
      this.log(`[sim ${this.label()}] ignored a ${m.type} message for run ${m.runId}`);
      return;
    }
    if (m.type === 'progress') {
      run.options.onProgress?.({ done: m.done, total: m.total, phase: m.phase });
    } else if (m.type === 'result') {
      this.stateNow = 'idle';
      this.answer({ kind: 'result', result: m.result, elapsedMs: m.elapsedMs });
    } else if (m.type === 'rows-result') {
      this.stateNow = 'idle';
      this.answer({ kind: 'rows', rows: m.rows, elapsedMs: m.elapsedMs });
    } else {
      this.stateNow = 'idle';
      this.answer({
        kind: 'error',
        message: m.message,
        name: m.name,
        ...(m.param === undefined ? {} : { param: m.param }),
        ...(m.stack === undefined ? {} : { stack: m.stack }),
      });
    }
  }

  private exit(exit: ProcessExit): void {
    const killedFor = this.killedFor;
    const description = killedFor ? `simulation process stopped (${killedFor})` : describeExit(exit, this.handle.stderrTail(), this.ready);
    if (!killedFor) this.log(`[sim ${this.label()}] ${description}`);
    this.stateNow = 'exited';
    this.clearStartTimer();
    this.answer({ kind: 'died', message: description, exit });
    this.gone();
    this.resolveEnded({ ...exit, killedFor, description });
  }

  private answer(answer: RunAnswer): void {
    const run = this.current;
    if (!run) return;
    this.current = null;
    if (run.timer) clearTimeout(run.timer);
    run.resolve(answer);
  }

  private gone(): void {
    const listeners = this.goneListeners;
    this.goneListeners = [];
    for (const l of listeners) l();
  }

  private clearStartTimer(): void {
    if (this.startTimer) clearTimeout(this.startTimer);
    this.startTimer = null;
  }
}

function killMessage(reason: KillReason): string {
  switch (reason) {
    case 'cancelled':
      return 'cancelled';
    case 'closed':
      return 'interrupted: the simulation pool was closed';
    case 'time-limit':
      return 'the run exceeded its time limit and was stopped';
    case 'start-timeout':
      return 'simulation process did not start in time';
  }
}

/**
 * "simulation process exited with code 3", "simulation process was killed by SIGKILL", with the
 * error line the process printed last, if any ("...: FATAL ERROR: ... JavaScript heap out of memory").
 */
export function describeExit(exit: ProcessExit, stderr: readonly string[], ready = true): string {
  let text =
    exit.signal !== null
      ? `simulation process was killed by ${exit.signal}`
      : exit.code !== null
        ? `simulation process exited with code ${exit.code}`
        : 'simulation process ended';
  if (!ready) text += ' before it was ready';
  const detail = [...stderr].reverse().find((line) => ERROR_LINE.test(line));
  if (detail) text += `: ${detail.trim().slice(0, 300)}`;
  return text;
}

const ERROR_LINE = /^\s*(?:[A-Z]\w*)?(?:Error|Exception)\b|FATAL ERROR/;

/** 600000 -> "10 min", 1500 -> "1.5 s", 250 -> "250 ms". */
export function formatDuration(ms: number): string {
  if (ms >= 60_000 && ms % 1_000 === 0) {
    const min = Math.floor(ms / 60_000);
    const s = (ms % 60_000) / 1_000;
    return s === 0 ? `${min} min` : `${min} min ${s} s`;
  }
  if (ms >= 1_000) return `${+(ms / 1_000).toFixed(3)} s`;
  return `${Math.round(ms)} ms`;
}
