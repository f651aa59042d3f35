/**
 * Simulation processes in the desktop app: Electron's `utilityProcess.fork` of the built worker
 * (electron-vite: `import workerPath from '../../src-sim/worker?modulePath'`).
 *
 * Electron is injected (or imported lazily by `ElectronLauncher.load`), so this module loads and is
 * unit-tested without Electron; `UtilityProcessModule` is the part of Electron's API it uses.
 */
import type { WorkerRequest } from '../../../src-sim/worker-protocol';
import type { LogSink, ProcessExit, WorkerHandle, WorkerLauncher } from './launcher';
import { StderrTail, stderrLog, withHeapCeiling } from './launcher';

/** The slice of Electron's `UtilityProcess` used here. */
export interface UtilityProcessLike {
  readonly pid: number | undefined;
  readonly stderr: NodeJS.ReadableStream | null;
  on(event: 'exit', listener: (code: number) => void): unknown;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'error', listener: (type: string, location: string, report: string) => void): unknown;
  on(event: 'spawn', listener: () => void): unknown;
  postMessage(message: unknown): void;
  kill(): boolean;
}

/** The slice of Electron's `utilityProcess` module used here. */
export interface UtilityProcessModule {
  fork(
    modulePath: string,
    args?: string[],
    options?: { env?: Record<string, string | undefined>; serviceName?: string; stdio?: ('pipe' | 'ignore' | 'inherit')[]; execArgv?: string[] },
  ): UtilityProcessLike;
}

export interface ElectronLauncherOptions {
  utilityProcess: UtilityProcessModule;
  /** The built worker entry (a .js file). */
  modulePath: string;
  env?: Record<string, string>;
  log?: LogSink;
  /** After `kill()` (SIGTERM on POSIX), how long to wait before SIGKILL. */
  killGraceMs?: number;
  /** Sends a signal to a pid (injected for tests; default `process.kill`). */
  killPid?: (pid: number, signal: NodeJS.Signals) => void;
}

export class ElectronLauncher implements WorkerLauncher {
  readonly kind = 'utilityProcess';

  constructor(private readonly options: ElectronLauncherOptions) {}

  /** Imports Electron lazily (call after `app` is ready: utilityProcess.fork needs it). */
  static async load(options: Omit<ElectronLauncherOptions, 'utilityProcess'>): Promise<ElectronLauncher> {
    const electron = (await import('electron')) as unknown as { utilityProcess: UtilityProcessModule };
    return new ElectronLauncher({ ...options, utilityProcess: electron.utilityProcess });
  }

  launch(): WorkerHandle {
    const o = this.options;
    const child = o.utilityProcess.fork(o.modulePath, [], {
      serviceName: 'GPU Memory Lab simulation',
      env: { ...process.env, ...o.env },
      stdio: ['ignore', 'inherit', 'pipe'],
      execArgv: withHeapCeiling([]),
    });
    return new UtilityHandle(child, o.log ?? stderrLog, o.killGraceMs ?? 2_000, o.killPid ?? ((pid, signal) => process.kill(pid, signal)));
  }
}

class UtilityHandle implements WorkerHandle {
  private readonly tail: StderrTail;
  private exitListeners: ((exit: ProcessExit) => void)[] = [];
  private exit: ProcessExit | null = null;
  private killTimer: ReturnType<typeof setTimeout> | null = null;
  /** The pid as last seen (Electron clears `pid` on exit; the SIGKILL fallback needs it). */
  private lastPid: number | undefined;

  constructor(
    private readonly child: UtilityProcessLike,
    private readonly log: LogSink,
    private readonly killGraceMs: number,
    private readonly killPid: (pid: number, signal: NodeJS.Signals) => void,
  ) {
    this.lastPid = child.pid;
    this.tail = new StderrTail(log, () => `[sim ${this.lastPid ?? '?'}]`);
    child.stderr?.on('data', (chunk: Buffer | string) => this.tail.write(chunk));
    child.on('spawn', () => {
      this.lastPid = child.pid;
    });
    child.on('exit', (code) => this.exited({ code, signal: null }));
    child.on('error', (type, location) => this.log(`[sim ${this.lastPid ?? '?'}] ${type} at ${location}`));
  }

  get pid(): number | undefined {
    if (this.exit) return undefined;
    this.lastPid = this.child.pid ?? this.lastPid;
    return this.child.pid;
  }

  send(message: WorkerRequest): void {
    if (this.exit) throw new Error('the simulation process has exited');
    this.child.postMessage(message);
  }

  kill(): void {
    if (this.exit || this.killTimer) return;
    this.lastPid = this.child.pid ?? this.lastPid;
    this.child.kill();
    // kill() asks politely (SIGTERM); a process stuck in a loop that ignores it is then killed outright.
    this.killTimer = setTimeout(() => {
      this.killTimer = null;
      if (this.exit || this.lastPid === undefined) return;
      try {
        this.killPid(this.lastPid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }, this.killGraceMs);
    this.killTimer.unref?.();
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
    if (this.killTimer) clearTimeout(this.killTimer);
    this.killTimer = null;
    this.tail.end();
    this.exit = exit;
    const listeners = this.exitListeners;
    this.exitListeners = [];
    for (const l of listeners) l(exit);
  }
}
