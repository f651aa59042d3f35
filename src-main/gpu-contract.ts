/**
 * The real-GPU calls of the contract (src-main/contract.ts spreads them into CONTRACT): write the
 * CUDA program of an experiment, import a program's output as a stored run, say whether this machine
 * can build and run one, run it here (one at a time, with progress events and cancel), and make a
 * custom preset from a real run's findings. Imports zod and types only.
 */
import { z } from 'zod';
import type { PresetSummary, Returns } from './contract-base';
import type { ParamSpec } from '../src-sim/experiments/types';

const returns = <T>(): Returns<T> => ({});

// The limits and refusals as plain data and functions (the renderer imports them without zod).
import { GPU_LIMITS, importRefusal, importTextProblem } from './shared/gpu-limits';
export { CHARACTERISATION_BODY_BYTES, GPU_IMPORT_BODY_BYTES, GPU_LIMITS, IMPORT_EMPTY, IMPORT_LIMIT_TEXT, importName, importRefusal, importTextProblem, importTooLarge, utf8Bytes } from './shared/gpu-limits';

const experimentId = z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'must be an experiment id');
/** Parameters as a form gives them: strings, numbers, booleans, lists of numbers; the experiment resolves and checks them. */
const gpuParams = z
  .record(z.string().regex(/^[A-Za-z][A-Za-z0-9]{0,39}$/, 'must be a parameter name'), z.union([z.string().max(2000), z.number(), z.boolean(), z.array(z.number()).max(4000)]))
  .refine((r) => Object.keys(r).length <= 40, 'at most 40 parameters')
  .default({});
const arch = z.string().regex(/^(native|sm_\d{2,3}[af]?)$/, 'must be native or a real architecture such as sm_90');
const runId = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'must be a run id (a lower-case UUID)');
const presetId = z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'must be a preset id: 1-40 lower-case letters, digits and dashes');
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
const oneLine = (max: number) => z.string().max(max).refine((s) => !CONTROL.test(s), 'must be one line of text without control characters');

export interface GpuEmitResult {
  experiment: string;
  fileName: string;
  source: string;
  buildCommand: string;
  /** The command that runs the program and keeps its output: `./<binary> > <experiment>.jsonl`. */
  runCommand: string;
  params: Record<string, unknown>;
  notes: string[];
}

/** An experiment with a CUDA program, as the Real GPU page offers it. */
export interface GpuExperimentInfo {
  id: string;
  title: string;
  /** Its real-GPU parameters; an enum keeps only the choices the program takes. */
  params: ParamSpec[];
}

export interface GpuStatus {
  /** nvcc's path, or null when none is found (PATH, then $CUDA_HOME/bin). */
  nvcc: string | null;
  nvccVersion: string | null;
  /** The GPUs `nvidia-smi -L` lists (empty when it is missing or lists none). */
  gpus: string[];
  /** Both found: `gpu.run` may be called. */
  canRun: boolean;
  /** One line: why not, or what will run. */
  message: string;
  /** The run going on now, if any. */
  job: GpuJob | null;
}

export interface GpuImportResult {
  runId: string;
  experiment: string;
  device: string;
  findings: number;
}

export interface GpuJob {
  jobId: string;
  experiment: string;
  state: 'building' | 'running' | 'importing' | 'done' | 'failed' | 'cancelled';
  /** What is happening, one line. */
  phase: string;
  startedAt: number;
  /** The stored run, once done. */
  runId: string | null;
  /** A characterisation's saved comparison of its probes' runs, once done (null for a single run). */
  comparisonId?: string | null;
  error: string | null;
}

/** A characterisation stored: a run per probe that ran, grouped in a saved comparison whose notes hold the summary. */
export interface GpuCharacterisationResult {
  comparisonId: string;
  name: string;
  runIds: string[];
  device: string;
  /** Every quantity: its value (a number, or "cannot tell"), unit, evidence and probe. */
  quantities: { quantity: string; value: number | string; unit: string; evidence: string; probe: string }[];
  /** Each probe: whether it ran, and why not. */
  probes: { name: string; experiment: string; params: string[]; ok: boolean; seconds: number; error?: string }[];
}

/** `gpu.progress`: the state of the run going on (or just ended). */
export type GpuProgressEvent = GpuJob;

export interface GpuPresetResult {
  preset: PresetSummary;
  base: string;
  /** The preset fields set from the run, with their provenance. */
  applied: { path: string; value: number; finding: string }[];
  /** Findings that had a number but did not go into the preset, and why. */
  skipped: { finding: string; reason: string }[];
}

export const GPU_CALLS = {
  'gpu.emit': {
    args: z.strictObject({ experiment: experimentId, params: gpuParams, arch: arch.default('native') }),
    result: returns<GpuEmitResult>(),
    summary: 'The CUDA program of an experiment for these parameters, and its one-line build command.',
  },
  'gpu.import': {
    args: z.strictObject({
      /** The program's JSON-lines output. */
      text: z.string(),
      fileName: oneLine(200).default('import'),
      /** When the output was made (the file's modification time), ms; default now. */
      measuredAt: z.number().int().min(0).max(8.64e15).optional(),
      levelGap: z.number().positive().max(100_000).optional(),
      title: oneLine(200).optional(),
    }).superRefine((a, ctx) => {
      // Refused in words for the user, naming the file (not prefixed with the call and argument: parseArgs).
      const problem = importTextProblem(a.text);
      if (problem) ctx.addIssue({ code: 'custom', path: ['text'], message: importRefusal(a.fileName, problem), params: { plain: true } });
    }),
    result: returns<GpuImportResult>(),
    summary: "Import a real GPU program's output: validated, analysed and stored as a run with its measured-device record.",
  },
  'gpu.status': { args: z.strictObject({}), result: returns<GpuStatus>(), summary: 'Whether this machine has nvcc and an NVIDIA GPU (nvidia-smi -L), and the run going on.' },
  'gpu.experiments': {
    args: z.strictObject({}),
    result: returns<GpuExperimentInfo[]>(),
    summary: 'The experiments that have a CUDA program, each with its real-GPU parameters (the choices its program refuses left out).',
  },
  'gpu.run': {
    args: z.strictObject({
      experiment: experimentId,
      params: gpuParams,
      timeoutS: z.number().int().min(1).max(GPU_LIMITS.maxTimeoutS).default(GPU_LIMITS.defaultTimeoutS),
      levelGap: z.number().positive().max(100_000).optional(),
    }),
    result: returns<GpuJob>(),
    summary: 'Build and run the program here (nvcc and a GPU needed), one at a time; gpu.progress events follow it, and it is stored as a run when done.',
  },
  'gpu.characterise': {
    args: z.strictObject({
      /** Each probe's time limit, seconds. */
      timeoutS: z.number().int().min(1).max(GPU_LIMITS.maxTimeoutS).default(GPU_LIMITS.defaultProbeTimeoutS),
    }),
    result: returns<GpuJob>(),
    summary:
      'Characterise the GPU here (nvcc and a GPU needed): the probes of `gpulab gpu characterise`, one after another, with gpu.progress events; stored as a run per probe, grouped in a saved comparison with the summary.',
  },
  'gpu.importCharacterisation': {
    args: z.strictObject({
      /** A characterisation's file (characterisation.json of `gpulab gpu characterise --out`). */
      text: z.string().max(GPU_LIMITS.characterisationBytes, `the file is larger than the ${GPU_LIMITS.characterisationBytes / 2 ** 20} MB a characterisation import takes`),
      fileName: oneLine(200).default('characterisation.json'),
    }),
    result: returns<GpuCharacterisationResult>(),
    summary: "Import a characterisation's file: its probes replayed through the analysers, stored as a run per probe, grouped in a saved comparison with the summary.",
  },
  'gpu.cancel': { args: z.strictObject({}), result: returns<{ cancelled: boolean }>(), summary: 'Stop the real-GPU run going on (false when none).' },
  'gpu.preset': {
    args: z.strictObject({
      runId,
      name: oneLine(60).refine((s) => s.trim().length > 0, 'must not be empty'),
      id: presetId.optional(),
      /** The preset to clone; default the closest built-in one. */
      base: presetId.optional(),
    }),
    result: returns<GpuPresetResult>(),
    summary: "Make a custom preset from a real run: the closest preset (or base) with the numbers the run's findings give.",
  },
} as const;

export const GPU_PROGRESS_SCHEMA = z.strictObject({
  jobId: z.string().max(80),
  experiment: z.string().max(80),
  state: z.enum(['building', 'running', 'importing', 'done', 'failed', 'cancelled']),
  phase: z.string().max(300),
  startedAt: z.number(),
  runId: z.string().nullable(),
  comparisonId: z.string().nullable().optional(),
  error: z.string().nullable(),
});
