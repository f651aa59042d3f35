/**
 * The lab's real-GPU calls (src-main/gpu-contract.ts): the program of an experiment (`gpu.emit`), a
 * program's output imported as a stored run (`gpu.import`), whether this machine can build and run
 * one (`gpu.status`: nvcc on PATH or in $CUDA_HOME/bin, GPUs from `nvidia-smi -L`), a run here
 * (`gpu.run`: nvcc, then the program as a child process under a time limit, one at a time, with
 * `gpu.progress` events and `gpu.cancel`), and a custom preset from a real run (`gpu.preset`).
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { emitProgram, nativeArch, noGpuVisible, NVCC_NO_NATIVE_GPU, SMI_QUERY } from '../../src-sim/cuda/emit';
import { ImportError } from '../../src-sim/cuda/import';
import { closestPreset, presetFromRealRun } from '../../src-sim/cuda/preset-from-run';
import { realDeviceLabel, realRunRecord } from '../../src-sim/cuda/run-record';
import { PRESETS } from '../../src-sim/presets';
import { LabError } from '../contract';
import { importName, importRefusal } from '../gpu-contract';
import { programOutcome } from '../gpu-outcome';
import type { GpuEmitResult, GpuImportResult, GpuJob, GpuPresetResult, GpuStatus } from '../gpu-contract';
import type { RunStore } from './store';

export interface GpuServiceOptions {
  store: RunStore;
  /** Each change of the run going on (`gpu.progress`). */
  progress: (job: GpuJob) => void;
  /** Where nvcc, nvidia-smi and CUDA_HOME are looked up (default process.env). */
  env?: NodeJS.ProcessEnv;
  now?: () => number;
}

/** Bytes of output a program may print before it is stopped (a pchase-fine trace is under 1 MB). */
const MAX_OUTPUT = 256 * 2 ** 20;
const BUILD_LIMIT_MS = 300_000;
const NO_GPU = /no CUDA-capable device|cudaErrorNoDevice|insufficient for CUDA runtime|cudaErrorInsufficientDriver|could not find a supported GPU|no supported gpu/i;

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** A program of PATH, or undefined. */
function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) if (dir && executable(join(dir, name))) return join(dir, name);
  return undefined;
}

interface Exec {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  killed: 'timeout' | 'cancelled' | 'output' | null;
}

/** Runs a command, collecting its output; `onChild` receives the process (for cancel). */
function exec(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number; onChild?: (c: ChildProcess) => void }): Promise<Exec> {
  return new Promise((done) => {
    let child: ChildProcess;
    try {
      // Its own process group, so that a stop reaches whatever it started too.
      child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
    } catch (err) {
      done({ code: null, signal: null, stdout: '', stderr: (err as Error).message, killed: null });
      return;
    }
    opts.onChild?.(child);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let killed: Exec['killed'] = null;
    const stop = (why: NonNullable<Exec['killed']>) => {
      if (killed) return;
      killed = why;
      try {
        if (process.platform !== 'win32' && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    (child as ChildProcess & { stopWith?: typeof stop }).stopWith = stop;
    const timer = setTimeout(() => stop('timeout'), opts.timeoutMs);
    child.stdout!.on('data', (b: Buffer) => {
      size += b.length;
      if (size > MAX_OUTPUT) stop('output');
      else out.push(b);
    });
    child.stderr!.on('data', (b: Buffer) => {
      if (err.reduce((a, x) => a + x.length, 0) < 64 * 1024) err.push(b);
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      done({ code: null, signal: null, stdout: '', stderr: e.message, killed });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), killed });
    });
  });
}

const firstLines = (s: string): string =>
  s
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(0, 2)
    .join(' / ')
    .slice(0, 300);

export class GpuService {
  private job: GpuJob | null = null;
  private child: ChildProcess | null = null;
  private cancelled = false;
  private readonly env: NodeJS.ProcessEnv;
  private readonly now: () => number;

  constructor(private readonly options: GpuServiceOptions) {
    this.env = options.env ?? process.env;
    this.now = options.now ?? Date.now;
  }

  emit(a: { experiment: string; params: Record<string, unknown>; arch: string }): GpuEmitResult {
    const p = emitProgram(a.experiment, a.params, { arch: a.arch });
    return {
      experiment: p.experiment,
      fileName: p.fileName,
      source: p.source,
      buildCommand: p.buildCommand,
      runCommand: `./${p.binary} > ${p.experiment}.jsonl`,
      params: p.params,
      notes: p.notes,
    };
  }

  /** Validates, analyses and stores a program's output. */
  import(a: { text: string; fileName: string; measuredAt?: number; levelGap?: number; title?: string }): GpuImportResult {
    const name = importName(a.fileName);
    let record;
    try {
      record = realRunRecord(a.text, { source: name, measuredAt: a.measuredAt ?? this.now() }, a.levelGap === undefined ? {} : { levelGap: a.levelGap });
    } catch (err) {
      if (err instanceof ImportError) throw new LabError('invalid-args', importRefusal(name, err.message));
      throw err;
    }
    const run = this.options.store.saveRealRun(record, a.title === undefined ? {} : { title: a.title });
    return { runId: run.id, experiment: record.experiment, device: realDeviceLabel(record.device.name), findings: record.result.findings.length };
  }

  async status(): Promise<GpuStatus> {
    const env = this.env;
    const nvcc = onPath('nvcc', env) ?? (env.CUDA_HOME && executable(join(env.CUDA_HOME, 'bin', 'nvcc')) ? join(env.CUDA_HOME, 'bin', 'nvcc') : undefined) ?? null;
    const dir = tmpdir();
    let nvccVersion: string | null = null;
    if (nvcc) {
      const v = await exec(nvcc, ['--version'], { cwd: dir, env, timeoutMs: 30_000 });
      nvccVersion = /release (\d+\.\d+)/.exec(v.stdout)?.[1] ?? null;
    }
    const smi = onPath('nvidia-smi', env);
    let gpus: string[] = [];
    if (smi) {
      const l = await exec(smi, ['-L'], { cwd: dir, env, timeoutMs: 15_000 });
      if (l.code === 0) gpus = l.stdout.split('\n').map((s) => s.trim()).filter((s) => /^GPU \d+/.test(s)).slice(0, 64);
    }
    const canRun = nvcc !== null && gpus.length > 0;
    const message = canRun
      ? `nvcc ${nvccVersion ?? ''} and ${gpus.length} GPU${gpus.length === 1 ? '' : 's'} found: runs build and run here (${gpus[0]})`.replace('  ', ' ')
      : nvcc === null && gpus.length === 0
        ? 'No nvcc (the CUDA toolkit: PATH or $CUDA_HOME/bin) and no NVIDIA GPU (nvidia-smi -L) on this machine: download the program, run it where there is one, and import its output.'
        : nvcc === null
          ? `A GPU is here (${gpus[0]}) but no nvcc (PATH or $CUDA_HOME/bin): install the CUDA toolkit, or build the downloaded program elsewhere and import its output.`
          : `nvcc ${nvccVersion ?? ''} is here but nvidia-smi -L lists no NVIDIA GPU: run the downloaded program where there is one, and import its output.`.replace('  ', ' ');
    return { nvcc, nvccVersion, gpus, canRun, message, job: this.job ? { ...this.job } : null };
  }

  /** Starts a run here; its progress comes as events, and it is stored when it ends well. */
  async run(a: { experiment: string; params: Record<string, unknown>; timeoutS: number; levelGap?: number }): Promise<GpuJob> {
    if (this.job && !['done', 'failed', 'cancelled'].includes(this.job.state)) throw new LabError('conflict', `a real-GPU run (${this.job.experiment}) is going on; wait for it or cancel it`);
    const program = emitProgram(a.experiment, a.params, { arch: 'native' }); // refuses bad parameters first
    const st = await this.status();
    if (!st.canRun) throw new LabError('conflict', `gpu.run cannot run here: ${st.message}`);
    this.cancelled = false;
    this.job = { jobId: randomUUID(), experiment: a.experiment, state: 'building', phase: `building: ${program.buildCommand}`, startedAt: this.now(), runId: null, error: null };
    this.emitJob();
    void this.execute(st.nvcc!, a, program.fileName).catch((err: unknown) => this.end('failed', (err as Error).message ?? String(err)));
    return { ...this.job };
  }

  cancel(): { cancelled: boolean } {
    if (!this.job || ['done', 'failed', 'cancelled'].includes(this.job.state)) return { cancelled: false };
    this.cancelled = true;
    (this.child as (ChildProcess & { stopWith?: (why: 'cancelled') => void }) | null)?.stopWith?.('cancelled');
    if (this.job.state === 'importing' || !this.child) this.end('cancelled', 'cancelled');
    return { cancelled: true };
  }

  /** Kills a run going on (the lab closes). */
  close(): void {
    if (this.child) this.cancel();
  }

  preset(a: { runId: string; name: string; id?: string; base?: string }): GpuPresetResult {
    const store = this.options.store;
    const run = store.getRun(a.runId, { trace: false });
    if (!run.device) throw new LabError('invalid-args', `run ${a.runId} was not measured on a real GPU: a preset is made from a real run's findings`);
    if (!run.result) throw new LabError('conflict', `run ${a.runId} has no result`);
    const base = a.base === undefined ? closestPreset(run.device, PRESETS) : store.getPreset(a.base).preset;
    const slug = a.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40)
      .replace(/-+$/, '');
    const id = a.id ?? (slug || `measured-${a.runId.slice(0, 8)}`);
    const made = presetFromRealRun({ id: run.id, experiment: run.experiment, params: run.params, device: run.device, findings: run.result.findings }, base, { id, name: a.name.trim() });
    if (!made.applied.length)
      throw new LabError(
        'invalid-args',
        `run ${a.runId} gives no number a preset holds (${made.skipped.length ? made.skipped.map((s) => `${s.finding}: ${s.reason}`).slice(0, 3).join('; ') : 'its findings are "cannot tell" or not latencies and sizes'})`,
      );
    const saved = store.saveCustomPreset(made.preset);
    return { preset: saved, base: base.id, applied: made.applied, skipped: made.skipped };
  }

  private emitJob(): void {
    if (this.job) this.options.progress({ ...this.job });
  }

  private end(state: 'done' | 'failed' | 'cancelled', error: string | null, runId: string | null = null): void {
    if (!this.job || ['done', 'failed', 'cancelled'].includes(this.job.state)) return;
    this.job = { ...this.job, state, runId, error, phase: state === 'done' ? 'done: stored as a run' : state === 'cancelled' ? 'cancelled' : `failed: ${error ?? ''}`.slice(0, 300) };
    this.child = null;
    this.emitJob();
  }

  private async execute(nvcc: string, a: { experiment: string; params: Record<string, unknown>; timeoutS: number; levelGap?: number }, fileName: string): Promise<void> {
    // nvcc -arch=native without a GPU only warns and builds sm_75 code: the GPU's own compute capability instead.
    const smi = onPath('nvidia-smi', this.env);
    const q = smi ? await exec(smi, SMI_QUERY, { cwd: tmpdir(), env: this.env, timeoutMs: 30_000 }) : null;
    const here = nativeArch(q ? { found: true, code: q.code, stdout: q.stdout, stderr: q.stderr } : { found: false, code: null, stdout: '', stderr: '' });
    if ('refuse' in here) return this.end('failed', here.refuse);
    const arch = here.arch;
    const p = emitProgram(a.experiment, a.params, { arch });
    const dir = mkdtempSync(join(tmpdir(), 'gpulab-gpu-'));
    try {
      writeFileSync(join(dir, fileName), p.source);
      if (this.cancelled) return this.end('cancelled', 'cancelled while building');
      this.job = { ...this.job!, phase: `building: ${p.buildCommand}` };
      this.emitJob();
      const build = await exec(nvcc, ['-O2', `-arch=${arch}`, '-o', p.binary, p.fileName], { cwd: dir, env: this.env, timeoutMs: BUILD_LIMIT_MS, onChild: (c) => (this.child = c) });
      if (this.cancelled) return this.end('cancelled', 'cancelled while building');
      const said = firstLines(build.stderr || build.stdout);
      if (build.code !== 0) {
        return this.end('failed', NO_GPU.test(said) ? noGpuVisible(`nvcc -arch=${arch}: ${said}`) : `nvcc failed to build ${p.fileName}${build.killed === 'timeout' ? ` (time limit of ${BUILD_LIMIT_MS / 1000} s)` : ''}: ${said}`);
      }
      if (arch === 'native' && NVCC_NO_NATIVE_GPU.test(build.stderr + build.stdout)) return this.end('failed', noGpuVisible(`nvcc -arch=native found none ("${said}")`));
      this.job = { ...this.job!, state: 'running', phase: `running ${p.binary} (time limit ${a.timeoutS} s)` };
      this.emitJob();
      const ticker = setInterval(() => {
        if (this.job?.state === 'running') {
          this.job = { ...this.job, phase: `running ${p.binary}: ${Math.round((this.now() - this.job.startedAt) / 1000)} s (time limit ${a.timeoutS} s)` };
          this.emitJob();
        }
      }, 2_000);
      ticker.unref();
      let run: Exec;
      try {
        run = await exec(join(dir, p.binary), [], { cwd: dir, env: this.env, timeoutMs: a.timeoutS * 1000, onChild: (c) => (this.child = c) });
      } finally {
        clearInterval(ticker);
      }
      this.child = null;
      if (this.cancelled || run.killed === 'cancelled') return this.end('cancelled', 'cancelled while running');
      if (run.killed === 'output') return this.end('failed', `the program printed more than ${MAX_OUTPUT / 2 ** 20} MB and was stopped`);
      const outcome = programOutcome({ ...run, timedOut: run.killed === 'timeout' }, a.timeoutS, 'raise the limit, or shrink the sweep');
      if (outcome.kind !== 'ok') return this.end('failed', outcome.message);
      this.job = { ...this.job!, state: 'importing', phase: 'importing the output' };
      this.emitJob();
      const stored = this.import({ text: run.stdout, fileName: 'gpu run', measuredAt: this.now(), ...(a.levelGap === undefined ? {} : { levelGap: a.levelGap }) });
      if (this.cancelled) {
        // Stored already: the run stays (it is finished and complete).
        return this.end('done', null, stored.runId);
      }
      this.end('done', null, stored.runId);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
