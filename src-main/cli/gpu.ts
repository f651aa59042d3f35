/**
 * The command line's real-GPU commands: `gpu emit` writes the CUDA program of an experiment and its
 * build command, `gpu import` reads a program's JSON-lines output into the simulated experiment's
 * analysers, and `gpu run` does both in between: it builds the program with nvcc, runs it under a
 * time limit and imports what it printed. Imported runs are printed, not saved in the database.
 */
import { execFile } from 'node:child_process';
import { accessSync, chmodSync, constants, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { DEFAULT_ARCH, emitProgram, GPU_EXPERIMENTS, nativeArch, noGpuVisible, NVCC_NO_NATIVE_GPU, SMI_QUERY } from '../../src-sim/cuda/emit';
import type { EmittedProgram } from '../../src-sim/cuda/emit';
import { importGpuOutput, ImportError, ProgramFailed } from '../../src-sim/cuda/import';
import { readOutputFile } from './read-output';
import { importRefusal } from '../gpu-contract';
import { programOutcome } from '../gpu-outcome';
import type { GpuResult, ImportOptions } from '../../src-sim/cuda/import';
import { ExperimentError } from '../../src-sim/experiments/types';
import { formatParam, resultJson, resultText, DEFAULT_TRACE_LIMIT } from './format';

/** Exit codes (the same as cli/main.ts; bad input, 2, is ctx.usage). */
const EXIT_OK = 0;
const EXIT_FAILED = 1;

export interface GpuCliOutput {
  code: number;
  stdout: string;
  stderr: string;
}

export interface GpuContext {
  /** Bad input (exit code 2, one line): the caller's CliError. */
  usage: (message: string) => Error;
  status: ((line: string) => void) | null;
  /** `gpu run --save`: stores the program's output (cli/gpu-save.ts) instead of printing it alone. */
  save?: (text: string, source: string) => GpuCliOutput;
}

export interface GpuOptions {
  param?: string[];
  out?: string;
  arch?: string;
  timeout?: string;
  'level-gap'?: string;
}

/** The default time limit of `gpu run`'s program, seconds. */
export const DEFAULT_TIMEOUT_S = 600;

/** A path as one shell word, safe to paste: left bare when it holds nothing a shell reads, else in single quotes. */
export function shellQuote(path: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}

const ok = (stdout: string): GpuCliOutput => ({ code: EXIT_OK, stdout, stderr: '' });
/** A failure that is not the caller's input (exit code 1, one line). */
export const failed = (message: string): GpuCliOutput => ({ code: EXIT_FAILED, stdout: '', stderr: `gpulab: error: ${message}\n` });
const json = (value: unknown): string => JSON.stringify(value, null, 2) + '\n';

function rawParams(items: string[] | undefined, id: string, ctx: GpuContext): Record<string, string> {
  const raw: Record<string, string> = {};
  for (const item of items ?? []) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw ctx.usage(`--param takes name=value; got "${item}" (gpulab experiments ${id} lists the parameters)`);
    const name = item.slice(0, eq).trim();
    if (name in raw) throw ctx.usage(`parameter "${name}" is given twice`);
    raw[name] = item.slice(eq + 1);
  }
  return raw;
}

function emit(id: string, v: GpuOptions, ctx: GpuContext, arch: string | undefined): EmittedProgram {
  try {
    return emitProgram(id, rawParams(v.param, id, ctx), { arch: arch ?? DEFAULT_ARCH });
  } catch (e) {
    if (e instanceof ExperimentError) throw ctx.usage(`gpu ${id}: ${e.message}`);
    throw e;
  }
}

function writeProgram(dir: string, p: EmittedProgram): string[] {
  mkdirSync(dir, { recursive: true });
  const source = join(dir, p.fileName);
  const script = join(dir, 'build.sh');
  writeFileSync(source, p.source);
  writeFileSync(script, p.buildScript);
  chmodSync(script, 0o755);
  return [source, script];
}

function paramsLine(p: EmittedProgram | GpuResult): string {
  const id = 'experiment' in p ? p.experiment : '';
  const specs = GPU_EXPERIMENTS.find((e) => e.id === id)?.params ?? [];
  return Object.entries(p.params)
    .map(([k, val]) => `${k}=${formatParam(specs.find((s) => s.name === k), val)}`)
    .join(' ');
}

/** gpu emit <experiment> [--param k=v ...] --out <dir> [--arch sm_XX] */
export function gpuEmit(id: string, v: GpuOptions, format: string, ctx: GpuContext): GpuCliOutput {
  if (v.out === undefined || v.out.trim() === '') throw ctx.usage('gpu emit needs --out <dir>: the folder for the program and build.sh');
  const p = emit(id, v, ctx, v.arch);
  const dir = resolve(v.out);
  const files = writeProgram(dir, p);
  if (format === 'json') return ok(json({ experiment: p.experiment, files, buildCommand: p.buildCommand, params: p.params, notes: p.notes }));
  const lines = [
    `Wrote ${files[0]}`,
    `  and ${files[1]}: ${p.buildCommand}`,
    `Parameters: ${paramsLine(p)}`,
    ...p.notes.map((n) => `Note: ${n}`),
    '',
    `Build:  sh ${shellQuote(files[1]!)}${p.buildCommand.includes('-arch=native') ? '   (builds for the GPU nvidia-smi shows on that machine; where none is visible it stops: --arch sm_90 or your GPU\'s)' : ''}`,
    `Run:    ${shellQuote(join(dir, p.binary))} > ${p.experiment}.jsonl`,
    `Import: gpulab gpu import ${p.experiment}.jsonl`,
  ];
  return ok(lines.join('\n') + '\n');
}

function importOptions(v: GpuOptions, ctx: GpuContext): ImportOptions {
  if (v['level-gap'] === undefined) return {};
  const gap = Number(v['level-gap']);
  if (!Number.isFinite(gap) || gap <= 0) throw ctx.usage(`--level-gap must be a positive number of cycles; got "${v['level-gap']}"`);
  return { levelGap: gap };
}

/** CUDA's version integers as people write them: 13000 is 13.0, 12040 is 12.4. */
const cudaVersion = (v: number): string => `${Math.floor(v / 1000)}.${Math.floor((v % 1000) / 10)}`;

function resultOutput(r: GpuResult, source: string, format: string): GpuCliOutput {
  if (format === 'json') return ok(json({ experiment: r.experiment, source, device: r.device, params: r.params, ...resultJson(r, DEFAULT_TRACE_LIMIT) }));
  const title = GPU_EXPERIMENTS.find((e) => e.id === r.experiment)?.title ?? r.experiment;
  const d = r.device;
  const head = [
    `${title} (measured)`,
    `Device: ${d.name}, compute capability ${d.computeCapability}, ${d.sms} SMs at ${(d.clockKHz / 1000).toFixed(0)} MHz, L2 ${(d.l2Bytes / 2 ** 20).toFixed(1)} MB, CUDA driver ${cudaVersion(d.driverVersion)}, runtime ${cudaVersion(d.runtimeVersion)}   from ${source}`,
    `Parameters: ${paramsLine(r)}`,
    '',
  ];
  return ok(head.join('\n') + '\n' + resultText(r));
}

function importText(text: string, source: string, v: GpuOptions, format: string, ctx: GpuContext): GpuCliOutput {
  const options = importOptions(v, ctx);
  let r: GpuResult;
  try {
    r = importGpuOutput(text, options);
  } catch (e) {
    if (e instanceof ProgramFailed) return failed(importRefusal(source, e.message));
    if (e instanceof ImportError) throw ctx.usage(importRefusal(source, e.message));
    throw e;
  }
  return resultOutput(r, source, format);
}

/** gpu import <file.jsonl> */
export function gpuImport(file: string, v: GpuOptions, format: string, ctx: GpuContext): GpuCliOutput {
  let text: string;
  try {
    text = readOutputFile(file);
  } catch (e) {
    throw ctx.usage(`cannot read "${file}": ${(e as Error).message.replace(/^cannot read it: /, '')}`);
  }
  return importText(text, file, v, format, ctx);
}

// ---------------------------------------------------------------------------------------------
// gpu run

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** nvcc on PATH, else $CUDA_HOME/bin/nvcc; undefined when neither exists. */
export function findNvcc(env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir && executable(join(dir, 'nvcc'))) return join(dir, 'nvcc');
  }
  if (env.CUDA_HOME && executable(join(env.CUDA_HOME, 'bin', 'nvcc'))) return join(env.CUDA_HOME, 'bin', 'nvcc');
  return undefined;
}

interface Exec {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** The command could not be started (ENOENT...). */
  spawnError?: string;
}

function run(cmd: string, args: string[], cwd: string, timeoutMs: number, env: NodeJS.ProcessEnv = process.env): Promise<Exec> {
  return new Promise((done) => {
    execFile(cmd, args, { cwd, env, timeout: timeoutMs, maxBuffer: 256 * 2 ** 20, killSignal: 'SIGKILL' }, (err, stdout, stderr) => {
      const e = err as (NodeJS.ErrnoException & { killed?: boolean; code?: number | string; signal?: string | null }) | null;
      const code = e ? (typeof e.code === 'number' ? e.code : null) : 0;
      done({
        code,
        signal: e?.signal ?? null,
        stdout: String(stdout),
        stderr: String(stderr),
        timedOut: Boolean(e?.killed),
        ...(e && typeof e.code === 'string' ? { spawnError: e.code } : {}),
      });
    });
  });
}

const firstLine = (s: string): string =>
  s
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(0, 2)
    .join(' / ');

const NO_GPU = /no CUDA-capable device|cudaErrorNoDevice|insufficient for CUDA runtime|cudaErrorInsufficientDriver|could not find a supported GPU|no supported gpu|cannot find.*GPU/i;

/** nvidia-smi on PATH, or undefined. */
function findSmi(env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) if (dir && executable(join(dir, 'nvidia-smi'))) return join(dir, 'nvidia-smi');
  return undefined;
}

/** The -arch for the GPU here (nvidia-smi's compute capability), or the refusal where none is visible or it is too old. */
async function archHere(cwd: string): Promise<{ arch: string } | { refuse: string }> {
  const smi = findSmi();
  if (!smi) return nativeArch({ found: false, code: null, stdout: '', stderr: '' });
  const r = await run(smi, SMI_QUERY, cwd, 30_000);
  return nativeArch({ found: true, code: r.code, stdout: r.stdout, stderr: r.stderr });
}

/** What building and running one program here gave: its output, or how the command ends instead. */
export type ProgramRun = { ok: true; text: string; seconds: number } | { ok: false; out: GpuCliOutput };

/**
 * Builds the program of `id` with `params` (name=value items) for the GPU here (or `arch`) and runs
 * it under a time limit: its JSON-lines output, or the failure as `gpu run` reports it. Bad input and
 * a missing nvcc or GPU throw ctx.usage.
 */
export async function buildAndRun(id: string, params: string[], arch0: string | undefined, timeoutS: number, ctx: GpuContext, command = 'gpu run'): Promise<ProgramRun> {
  const v: GpuOptions = { param: params };
  const label = `${command} ${id}`;
  const checked = emit(id, v, ctx, arch0);
  const nvcc = findNvcc();
  if (!nvcc) throw ctx.usage('gpu run needs nvcc (the CUDA toolkit) on PATH or in $CUDA_HOME/bin, and an NVIDIA GPU; gpu emit and gpu import work without them');
  const dir = mkdtempSync(join(tmpdir(), 'gpulab-gpu-'));
  try {
    let arch = arch0;
    if (arch === undefined || arch === 'native') {
      // nvcc -arch=native without a GPU only warns and builds sm_75 code: the GPU's own compute capability instead.
      const here = await archHere(dir);
      if ('refuse' in here) throw ctx.usage(`${command}: ${here.refuse}; gpu emit and gpu import work without a GPU`);
      arch = here.arch;
    }
    const p = arch === checked.buildCommand.match(/-arch=(\S+)/)?.[1] ? checked : emit(id, v, ctx, arch);
    writeProgram(dir, p);
    ctx.status?.(`${label}: building (${p.buildCommand})`);
    const build = await run(nvcc, ['-O2', `-arch=${arch}`, '-o', p.binary, p.fileName], dir, 300_000);
    const said = firstLine(build.stderr || build.stdout);
    if (build.code !== 0) {
      if (arch === 'native' && NO_GPU.test(build.stderr + build.stdout))
        throw ctx.usage(`${command}: ${noGpuVisible(`nvcc -arch=native: ${said}`)}; gpu emit and gpu import work without a GPU`);
      return { ok: false, out: failed(`nvcc failed to build ${p.fileName}${build.timedOut ? ' (time limit of 300 s)' : ''}: ${said}`) };
    }
    if (arch === 'native' && NVCC_NO_NATIVE_GPU.test(build.stderr + build.stdout))
      throw ctx.usage(`${command}: ${noGpuVisible(`nvcc -arch=native found none ("${said}")`)}; gpu emit and gpu import work without a GPU`);
    ctx.status?.(`${label}: running (time limit ${timeoutS} s)`);
    const started = Date.now();
    const exec = await run(join(dir, p.binary), [], dir, timeoutS * 1000);
    const outcome = programOutcome(exec, timeoutS, 'raise --timeout, or shrink the sweep');
    if (outcome.kind === 'no-gpu') throw ctx.usage(`${label}: no usable NVIDIA GPU: ${outcome.message}; gpu emit and gpu import work without one`);
    if (outcome.kind === 'params') throw ctx.usage(`${label}: the program refused its parameters: ${outcome.failure.failure.message}`);
    if (outcome.kind === 'failed') return { ok: false, out: failed(`${label}: ${outcome.message}`) };
    return { ok: true, text: exec.stdout, seconds: (Date.now() - started) / 1000 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A --timeout value: whole seconds from 1 to 86400. */
export function timeoutSeconds(value: string | undefined, ctx: GpuContext, fallback = DEFAULT_TIMEOUT_S, flag = '--timeout'): number {
  if (value === undefined) return fallback;
  const t = Number(value);
  if (!/^\d+$/.test(value.trim()) || t < 1 || t > 86_400) throw ctx.usage(`${flag} must be a whole number of seconds from 1 to 86400; got "${value}"`);
  return t;
}

/** gpu run <experiment> [--param k=v ...] [--arch sm_XX] [--timeout s] */
export async function gpuRun(id: string, v: GpuOptions, format: string, ctx: GpuContext): Promise<GpuCliOutput> {
  const timeoutS = timeoutSeconds(v.timeout, ctx);
  importOptions(v, ctx);
  const r = await buildAndRun(id, v.param ?? [], v.arch, timeoutS, ctx);
  if (!r.ok) return r.out;
  return ctx.save ? ctx.save(r.text, 'gpu run') : importText(r.text, `gpu run ${id}`, v, format, ctx);
}
