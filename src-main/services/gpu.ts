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
import { characterise, characterisationText, NoProbeCanRun, replayCharacterisation, type Characterisation, type ProbeRunner } from '../../src-sim/cuda/characterise';
import { closestPreset, presetFromRealRun } from '../../src-sim/cuda/preset-from-run';
import { realDeviceLabel, realRunRecord } from '../../src-sim/cuda/run-record';
import { PRESETS } from '../../src-sim/presets';
import { LabError } from '../contract';
import { importName, importRefusal } from '../gpu-contract';
import { programOutcome } from '../gpu-outcome';
import type { GpuCharacterisationResult, GpuEmitResult, GpuExperimentInfo, GpuImportResult, GpuJob, GpuPresetResult, GpuStatus } from '../gpu-contract';
import { GPU_EXPERIMENTS, gpuParamSpecs, resolveGpuParams } from '../../src-sim/cuda/params';
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

  /**
   * The experiments with a CUDA program and their real-GPU parameters, for the Real GPU page (which
   * then ships no experiment code); a choice the program refuses (a texture space, a probe that needs
   * the analysers between chases) is left out of its list, as the generator's own check says.
   */
  experiments(): GpuExperimentInfo[] {
    return GPU_EXPERIMENTS.map((e) => ({
      id: e.id,
      title: e.title,
      params: gpuParamSpecs(e.id).map((spec) => {
        if (spec.kind !== 'enum') return spec;
        const options = spec.options.filter((o) => {
          try {
            resolveGpuParams(e.id, { [spec.name]: o });
            return true;
          } catch {
            return false;
          }
        });
        return options.length && options.length < spec.options.length ? { ...spec, options, default: options.includes(spec.default) ? spec.default : options[0]! } : spec;
      }),
    }));
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
    void this.execute(st.nvcc!, a).catch((err: unknown) => this.end('failed', (err as Error).message ?? String(err)));
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

  private end(state: 'done' | 'failed' | 'cancelled', error: string | null, runId: string | null = null, comparisonId: string | null = null): void {
    if (!this.job || ['done', 'failed', 'cancelled'].includes(this.job.state)) return;
    const stored = comparisonId ? 'done: stored as a characterisation (a saved comparison of its runs)' : 'done: stored as a run';
    this.job = { ...this.job, state, runId, ...(comparisonId ? { comparisonId } : {}), error, phase: state === 'done' ? stored : state === 'cancelled' ? 'cancelled' : `failed: ${error ?? ''}`.slice(0, 300) };
    this.child = null;
    this.emitJob();
  }

  /** The architecture to build for: the GPU's own compute capability (nvcc -arch=native without a GPU only warns and builds sm_75 code). */
  private async hereArch(): Promise<{ arch: string } | { refuse: string }> {
    const smi = onPath('nvidia-smi', this.env);
    const q = smi ? await exec(smi, SMI_QUERY, { cwd: tmpdir(), env: this.env, timeoutMs: 30_000 }) : null;
    return nativeArch(q ? { found: true, code: q.code, stdout: q.stdout, stderr: q.stderr } : { found: false, code: null, stdout: '', stderr: '' });
  }

  /**
   * Builds and runs one program here under a time limit, saying each phase: its output, or why
   * not ('cancelled' when the user stopped it). `label` prefixes the phases (a characterisation's probe).
   */
  private async buildAndRun(
    nvcc: string,
    arch: string,
    experiment: string,
    params: Record<string, unknown>,
    timeoutS: number,
    label = '',
  ): Promise<{ ok: true; text: string; seconds: number } | { ok: false; cancelled: boolean; message: string }> {
    const p = emitProgram(experiment, params, { arch });
    const dir = mkdtempSync(join(tmpdir(), 'gpulab-gpu-'));
    const phase = (state: GpuJob['state'], text: string) => {
      this.job = { ...this.job!, state, phase: `${label}${text}`.slice(0, 300) };
      this.emitJob();
    };
    try {
      writeFileSync(join(dir, p.fileName), p.source);
      if (this.cancelled) return { ok: false, cancelled: true, message: 'cancelled while building' };
      phase('building', `building: ${p.buildCommand}`);
      const build = await exec(nvcc, ['-O2', `-arch=${arch}`, '-o', p.binary, p.fileName], { cwd: dir, env: this.env, timeoutMs: BUILD_LIMIT_MS, onChild: (c) => (this.child = c) });
      if (this.cancelled) return { ok: false, cancelled: true, message: 'cancelled while building' };
      const said = firstLines(build.stderr || build.stdout);
      if (build.code !== 0) {
        return {
          ok: false,
          cancelled: false,
          message: NO_GPU.test(said) ? noGpuVisible(`nvcc -arch=${arch}: ${said}`) : `nvcc failed to build ${p.fileName}${build.killed === 'timeout' ? ` (time limit of ${BUILD_LIMIT_MS / 1000} s)` : ''}: ${said}`,
        };
      }
      if (arch === 'native' && NVCC_NO_NATIVE_GPU.test(build.stderr + build.stdout)) return { ok: false, cancelled: false, message: noGpuVisible(`nvcc -arch=native found none ("${said}")`) };
      phase('running', `running ${p.binary} (time limit ${timeoutS} s)`);
      const started = this.now();
      const ticker = setInterval(() => {
        if (this.job?.state === 'running') phase('running', `running ${p.binary}: ${Math.round((this.now() - started) / 1000)} s (time limit ${timeoutS} s)`);
      }, 2_000);
      ticker.unref();
      let run: Exec;
      try {
        run = await exec(join(dir, p.binary), [], { cwd: dir, env: this.env, timeoutMs: timeoutS * 1000, onChild: (c) => (this.child = c) });
      } finally {
        clearInterval(ticker);
      }
      this.child = null;
      if (this.cancelled || run.killed === 'cancelled') return { ok: false, cancelled: true, message: 'cancelled while running' };
      if (run.killed === 'output') return { ok: false, cancelled: false, message: `the program printed more than ${MAX_OUTPUT / 2 ** 20} MB and was stopped` };
      const outcome = programOutcome({ ...run, timedOut: run.killed === 'timeout' }, timeoutS, 'raise the limit, or shrink the sweep');
      if (outcome.kind !== 'ok') return { ok: false, cancelled: false, message: outcome.message };
      return { ok: true, text: run.stdout, seconds: (this.now() - started) / 1000 };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  private async execute(nvcc: string, a: { experiment: string; params: Record<string, unknown>; timeoutS: number; levelGap?: number }): Promise<void> {
    const here = await this.hereArch();
    if ('refuse' in here) return this.end('failed', here.refuse);
    const r = await this.buildAndRun(nvcc, here.arch, a.experiment, a.params, a.timeoutS);
    if (!r.ok) return this.end(r.cancelled ? 'cancelled' : 'failed', r.message);
    this.job = { ...this.job!, state: 'importing', phase: 'importing the output' };
    this.emitJob();
    // Stored even where a cancel came now: the run is finished and complete.
    const stored = this.import({ text: r.text, fileName: 'gpu run', measuredAt: this.now(), ...(a.levelGap === undefined ? {} : { levelGap: a.levelGap }) });
    this.end('done', null, stored.runId);
  }

  /** Starts characterising the GPU here; its progress comes as events, one probe after another. */
  async characterise(a: { timeoutS: number }): Promise<GpuJob> {
    if (this.job && !['done', 'failed', 'cancelled'].includes(this.job.state)) throw new LabError('conflict', `a real-GPU run (${this.job.experiment}) is going on; wait for it or cancel it`);
    const st = await this.status();
    if (!st.canRun) throw new LabError('conflict', `gpu.characterise cannot run here: ${st.message}`);
    this.cancelled = false;
    this.job = { jobId: randomUUID(), experiment: 'characterise', state: 'building', phase: 'characterise: starting', startedAt: this.now(), runId: null, comparisonId: null, error: null };
    this.emitJob();
    void this.characteriseHere(st.nvcc!, a.timeoutS).catch((err: unknown) => this.end('failed', (err as Error).message ?? String(err)));
    return { ...this.job };
  }

  private async characteriseHere(nvcc: string, timeoutS: number): Promise<void> {
    const here = await this.hereArch();
    if ('refuse' in here) return this.end('failed', here.refuse);
    const outputs: Record<string, string> = {};
    const measuredAt = this.now();
    let n = 0;
    const runner: ProbeRunner = async (p) => {
      n++;
      const params = Object.fromEntries(p.params.map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
      const r = await this.buildAndRun(nvcc, here.arch, p.experiment, params, timeoutS, `probe ${n} (${p.name}): `);
      if (!r.ok) {
        if (r.cancelled) throw new NoProbeCanRun(new Error(r.message));
        throw new Error(r.message);
      }
      outputs[p.name] = r.text;
      return { text: r.text, seconds: r.seconds };
    };
    let c: Characterisation;
    try {
      c = await characterise(runner);
    } catch (e) {
      if (e instanceof NoProbeCanRun) return this.end(this.cancelled ? 'cancelled' : 'failed', e.message);
      throw e;
    }
    if (!c.probes.some((p) => p.ok)) return this.end('failed', `every probe failed; the first: ${c.probes[0]?.error ?? 'none ran'}`);
    this.job = { ...this.job!, state: 'importing', phase: 'storing the characterisation' };
    this.emitJob();
    const saved = this.saveCharacterisation(c, outputs, measuredAt, 'gpu characterise');
    this.end('done', null, null, saved.comparisonId);
  }

  /** Imports a characterisation's file: its probes replayed through the analysers, then stored. */
  async importCharacterisation(a: { text: string; fileName: string }): Promise<GpuCharacterisationResult> {
    const name = importName(a.fileName);
    let replayed: Awaited<ReturnType<typeof replayCharacterisation>>;
    try {
      replayed = await replayCharacterisation(a.text);
    } catch (err) {
      if (err instanceof ImportError) throw new LabError('invalid-args', importRefusal(name, err.message));
      throw err;
    }
    if (!replayed.characterisation.probes.some((p) => p.ok)) throw new LabError('invalid-args', importRefusal(name, 'no probe of the file ran: there is nothing to store'));
    return this.saveCharacterisation(replayed.characterisation, replayed.file.outputs, replayed.file.measuredAt, name);
  }

  /**
   * Stores a characterisation: each probe that ran as a real run (tagged characterisation), then a
   * saved comparison of them in probe order, named for the device and the time, whose notes are the summary.
   */
  saveCharacterisation(c: Characterisation, outputs: Record<string, string>, measuredAt: number, source: string): GpuCharacterisationResult {
    const store = this.options.store;
    const device = c.device ? realDeviceLabel(c.device.name) : 'a GPU';
    const records = c.probes.filter((p) => p.ok && typeof outputs[p.name] === 'string').map((p) => ({ p, record: realRunRecord(outputs[p.name], { source: `${source}: ${p.name}`, measuredAt }) }));
    const when = new Date(measuredAt).toISOString().slice(0, 16).replace('T', ' ');
    const name = `Characterisation of ${device}, ${when} UTC`.slice(0, 120);
    const runIds = records.map(({ p, record }) => store.saveRealRun(record, { title: `${device}: characterise ${p.name}`, tags: ['characterisation'] }).id);
    const summary = characterisationText(c);
    const notes = summary.length > 20_000 ? `${summary.slice(0, 19_900)}\n... (the summary goes on: gpulab gpu characterise --format json)` : summary;
    const comparison = store.saveComparison({ name, runIds, notes });
    return {
      comparisonId: comparison.id,
      name,
      runIds,
      device,
      quantities: c.quantities.map(({ quantity, value, unit, evidence, probe }) => ({ quantity, value, unit, evidence, probe })),
      probes: c.probes.map((p) => ({ ...p })),
    };
  }
}

