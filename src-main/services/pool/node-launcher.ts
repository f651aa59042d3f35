/**
 * Simulation processes under plain Node: `child_process.fork` of src-sim/worker.ts (through tsx)
 * or of a built worker .js, with `serialization: 'advanced'` so typed arrays cross intact.
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { WorkerRequest } from '../../../src-sim/worker-protocol';
import type { LogSink, ProcessExit, WorkerHandle, WorkerLauncher } from './launcher';
import { StderrTail, stderrLog, withHeapCeiling } from './launcher';

export interface ForkLauncherOptions {
  /** The worker entry: src-sim/worker.ts (run through tsx) or a built .js/.mjs. */
  workerPath?: string;
  /** Added to (and overriding) this process's environment. */
  env?: Record<string, string>;
  /** Node options of the child; default: tsx's loader for a .ts entry, none otherwise. The heap ceiling (WORKER_HEAP_MB) is added unless given. */
  execArgv?: string[];
  /** Where the worker's stderr lines go (prefixed with its pid). */
  log?: LogSink;
}

/** src-sim/worker.ts, resolved from this file: right when running from source (tsx, Vitest). */
export function sourceWorkerPath(): string {
  return fileURLToPath(new URL('../../../src-sim/worker.ts', import.meta.url));
}

/** `--import <tsx loader>` with the loader's absolute URL, so the child finds tsx from any working directory. */
export function tsxExecArgv(): string[] {
  const loader = createRequire(import.meta.url).resolve('tsx');
  return ['--import', pathToFileURL(loader).href];
}

export class ForkLauncher implements WorkerLauncher {
  readonly kind = 'fork';
  readonly workerPath: string;
  private readonly execArgv: string[];
  private readonly env: NodeJS.ProcessEnv;
  private readonly log: LogSink;

  constructor(options: ForkLauncherOptions = {}) {
    this.workerPath = options.workerPath ?? sourceWorkerPath();
    if (!existsSync(this.workerPath)) throw new Error(`simulation worker not found: ${this.workerPath}`);
    this.execArgv = withHeapCeiling(options.execArgv ?? (/\.[cm]?ts$/.test(this.workerPath) ? tsxExecArgv() : []));
    this.env = { ...process.env, ...options.env };
    this.log = options.log ?? stderrLog;
  }

  launch(): WorkerHandle {
    const child = fork(this.workerPath, [], {
      execArgv: this.execArgv,
      env: this.env,
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
    });
    return new ForkHandle(child, this.log);
  }
}

class ForkHandle implements WorkerHandle {
  private readonly tail: StderrTail;
  private exitListeners: ((exit: ProcessExit) => void)[] = [];
  private exit: ProcessExit | null = null;

  constructor(
    private readonly child: ChildProcess,
    log: LogSink,
  ) {
    this.tail = new StderrTail(log, () => `[sim ${child.pid ?? '?'}]`);
    child.stderr?.on('data', (chunk: Buffer) => this.tail.write(chunk));
    // 'close' comes after 'exit' once stdio is drained: the stderr tail is complete.
    child.on('close', (code, signal) => this.exited({ code, signal }));
    child.on('error', (err) => {
      // A spawn failure gets no 'close' when nothing was spawned; send/kill failures are reported by their callers.
      if (child.pid === undefined) {
        this.tail.write(`${err.message}\n`);
        this.exited({ code: null, signal: null });
      }
    });
  }

  get pid(): number | undefined {
    return this.exit ? undefined : this.child.pid;
  }

  send(message: WorkerRequest): void {
    if (this.exit || !this.child.connected) throw new Error('the simulation process is not connected');
    this.child.send(message, (err) => {
      // The process died between the check and the write: its exit reports the run.
      if (err) this.kill();
    });
  }

  kill(): void {
    if (this.exit === null && this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }

  onMessage(listener: (message: unknown) => void): void {
    this.child.on('message', listener);
  }

  onExit(listener: (exit: ProcessExit) => void): void {
    if (this.exit) listener(this.exit);
    else this.exitListeners.push(listener);
  }

  stderrTail(): string[] {
    return this.tail.tail();
  }

  private exited(exit: ProcessExit): void {
    if (this.exit) return;
    this.tail.end();
    this.exit = exit;
    const listeners = this.exitListeners;
    this.exitListeners = [];
    for (const l of listeners) l(exit);
  }
}
