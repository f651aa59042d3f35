/**
 * How a simulation process is started: a small interface with two implementations, a Node
 * `child_process.fork` (node-launcher.ts: the CLI, the browser mode, tests) and an Electron
 * `utilityProcess.fork` (electron-launcher.ts: the desktop app). SimProcess (sim-process.ts) owns
 * one handle's whole life; nothing else touches a handle.
 */
import type { WorkerRequest } from '../../../src-sim/worker-protocol';

/** How the OS process ended. Electron reports no signal (always null there). */
export interface ProcessExit {
  code: number | null;
  signal: string | null;
}

/** One started process, as the launcher made it. */
export interface WorkerHandle {
  /** Undefined until spawned (Electron) and after exit. */
  readonly pid: number | undefined;
  /** Sends a message (structured clone). Throws when the process can no longer receive. */
  send(message: WorkerRequest): void;
  /** Ends the process now; `onExit` follows. Safe to call more than once or after exit. */
  kill(): void;
  onMessage(listener: (message: unknown) => void): void;
  /** Called once, when the process is gone and its stderr is drained. */
  onExit(listener: (exit: ProcessExit) => void): void;
  /** The last lines the process wrote on stderr (for a crash report). */
  stderrTail(): string[];
}

export interface WorkerLauncher {
  /** For log lines: 'fork' or 'utilityProcess'. */
  readonly kind: string;
  launch(): WorkerHandle;
}

/**
 * The JavaScript heap ceiling of a simulation process (`--max-old-space-size`, MB). Model state
 * lives in typed arrays outside that heap; it is bounded by the preset validator
 * (src-sim/presets/validate.ts MAX_STATE_BYTES), which the worker checks again before a run.
 * A run that passes the ceiling fails alone ("JavaScript heap out of memory"), not the machine.
 */
export const WORKER_HEAP_MB = 2048;

/** `execArgv` with the heap ceiling added, unless the caller already set one. */
export function withHeapCeiling(execArgv: readonly string[]): string[] {
  return execArgv.some((a) => a.startsWith('--max-old-space-size')) ? [...execArgv] : [...execArgv, `--max-old-space-size=${WORKER_HEAP_MB}`];
}

/** Where a launcher sends the lines a worker writes on stderr (and its own notices). */
export type LogSink = (line: string) => void;

export const stderrLog: LogSink = (line) => {
  process.stderr.write(`${line}\n`);
};

/**
 * Collects a process's stderr: forwards whole lines to a log with a prefix and keeps the last
 * few for a crash report.
 */
export class StderrTail {
  private partial = '';
  private readonly lines: string[] = [];

  constructor(
    private readonly log: LogSink,
    private readonly prefix: () => string,
    private readonly keep = 40,
  ) {}

  write(chunk: Buffer | string): void {
    const text = this.partial + chunk.toString();
    const parts = text.split(/\r?\n/);
    this.partial = parts.pop() ?? '';
    for (const line of parts) this.push(line);
  }

  /** Flushes an unterminated last line (at exit). */
  end(): void {
    if (this.partial !== '') this.push(this.partial);
    this.partial = '';
  }

  tail(): string[] {
    return [...this.lines];
  }

  private push(line: string): void {
    this.log(`${this.prefix()} ${line}`);
    this.lines.push(line);
    if (this.lines.length > this.keep) this.lines.shift();
  }
}
