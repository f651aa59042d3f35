/**
 * Which parameters of the simulated experiments carry over to a real GPU. The programs take the
 * experiments' own parameter lists (each experiment's `params`, resolved with `resolveParams`), so a
 * real run and a simulated run of the same parameters line up. Settings of the simulated hardware
 * alone are refused; settings that only steer the simulator's bookkeeping are ignored with a note.
 */
import { globalLatencyPatterns } from '../experiments/global-latency-patterns';
import { pchaseAverage } from '../experiments/pchase-average';
import { pchaseFine } from '../experiments/pchase-fine';
import { sharedBankStride } from '../experiments/shared-bank-stride';
import { resolveParams } from '../experiments/params';
import { tlbProbes } from '../experiments/tlb-probes';
import type { Experiment, ParamSpec, ParamValues, RawParams } from '../experiments/types';
import { ExperimentError } from '../experiments/types';

/** The experiments that have a CUDA program. */
export const GPU_EXPERIMENTS: readonly Experiment[] = [pchaseAverage, pchaseFine, sharedBankStride, tlbProbes, globalLatencyPatterns];

/**
 * Settings of a real GPU that no simulated preset has: the shared-memory carveout the chase kernels
 * ask for (cudaFuncAttributePreferredSharedMemoryCarveout, a percentage of the largest shared memory;
 * the driver rounds it up to a configuration the SM has, and the L1 data cache gets the rest).
 */
export const CARVEOUT_PARAM: ParamSpec = {
  name: 'carveout',
  label: 'Shared-memory carveout',
  unit: '%',
  kind: 'integer',
  default: 0,
  min: 0,
  max: 100,
  description:
    'Real GPUs only: the shared-memory carveout the chase asks for, in percent of the largest (0: the smallest, so the largest L1; 100: the most shared memory, the smallest L1). A hint the driver rounds up to a configuration the SM has; a fine-grained trace needs at least its own shared memory.',
};

/**
 * How the average chase finds its next address: `index`, MEI's chase of 32-bit element indices
 * (j = A[j], the index scaled to an address by address arithmetic each step), or `pointer`, a pure
 * chase of 64-bit addresses (p = *p, one load a step and nothing else), as Accel-Sim's `l1_lat`.
 */
export const CHASE_PARAM: ParamSpec = {
  name: 'chase',
  label: 'Chase',
  unit: '',
  kind: 'enum',
  default: 'index',
  options: ['index', 'pointer'],
  description:
    'Real GPUs only: index (32-bit element indices, j = A[j]; each step adds the address arithmetic that scales the index) or pointer (64-bit addresses, p = *p; one load a step, so a hit reads a little lower). Pointer needs strides and sizes of whole 8-byte elements.',
};

/** The real-GPU-only parameters of each experiment. */
const GPU_ONLY: Record<string, readonly ParamSpec[]> = {
  'pchase-average': [CARVEOUT_PARAM, CHASE_PARAM],
  'pchase-fine': [CARVEOUT_PARAM],
  'tlb-probes': [CARVEOUT_PARAM],
  'global-latency-patterns': [CARVEOUT_PARAM],
};

export function gpuExperiment(id: string): Experiment {
  const e = GPU_EXPERIMENTS.find((x) => x.id === id);
  if (!e) throw new ExperimentError(`experiment "${id}" has no real-GPU program; these do: ${GPU_EXPERIMENTS.map((x) => x.id).join(', ')}`);
  return e;
}

/** Parameters that describe the simulated chip and mean nothing on hardware: refused when given. */
const REFUSED: Record<string, string> = {
  tpc: 'the TPC placement is a setting of the simulated chip; a real GPU schedules the block on a multiprocessor of its own choosing',
  l1Config: 'the L1 configuration is a setting of the simulated preset; on a real GPU the carveout parameter asks the driver for a shared-memory split',
  jitter: "the jitter is seeded noise the simulator adds; a real GPU's noise is its own (the programs time several passes and report their spread)",
};

/** Parameters that only steer the simulator's bookkeeping: ignored, with a note. */
const IGNORED: Record<string, string> = {
  refine:
    'the program runs once: shared-bank-stride times every point with the same number of passes (re-time with a larger "accesses" to narrow the noise); where a tlb-probes "cannot tell" names a larger parameter (raise "sizeTo"), emit and run the program again with it',
};

/** What the program supports of a parameter's values; a message for the values it refuses. */
function checkValue(id: string, p: ParamValues): void {
  if ('space' in p && p.space !== 'global' && p.space !== 'global-cg')
    throw new ExperimentError(
      `parameter "space" is ${String(p.space)}; the real-GPU programs chase global memory only: global (ld.global.ca, through L1) or global-cg (ld.global.cg, L1 bypassed)`,
      'space',
    );
  if (id === 'pchase-average' && p.chase === 'pointer') {
    const bad = (p.strides as number[]).find((x) => x % 8 !== 0) ?? [p.sizeFrom, p.sizeStep].find((x) => (x as number) % 8 !== 0);
    if (bad !== undefined)
      throw new ExperimentError(`a pointer chase steps over 8-byte addresses: every stride, sizeFrom and sizeStep must be a multiple of 8 B (${String(bad)} is not)`, 'chase');
  }
  if (id === 'pchase-fine' && p.init !== 'uniform')
    throw new ExperimentError('parameter "init" is non-uniform; the real-GPU program writes the uniform chain A[i] = (i + s) mod N only (MEI Listing 3)', 'init');
  if (id === 'tlb-probes' && p.probe !== 'reach')
    throw new ExperimentError(
      `parameter "probe" is ${String(p.probe)}; on a real GPU the program runs the reach probe only (latency against N at a large stride); the other probes choose their next chase from the last one's reading`,
      'probe',
    );
  if (id === 'shared-bank-stride' && p.mode === '8-byte')
    throw new ExperimentError(
      'parameter "mode" is 8-byte; the program measures the bank width the device has (8-byte banks were a Kepler mode, and current CUDA no longer selects it): use default',
      'mode',
    );
}

export interface GpuParams {
  experiment: Experiment;
  /** Every parameter of the experiment, resolved (defaults filled). */
  params: ParamValues;
  /** Lines saying which given parameters were ignored, and why. */
  notes: string[];
}

/** Resolves an experiment's parameters for a real-GPU program: the experiment's own validation, then the hardware's limits. */
export function resolveGpuParams(id: string, raw: RawParams = {}): GpuParams {
  const experiment = gpuExperiment(id);
  for (const name of Object.keys(raw)) {
    if (REFUSED[name] !== undefined && experiment.params.some((s) => s.name === name))
      throw new ExperimentError(`parameter "${name}" does not apply to a real GPU: ${REFUSED[name]}`, name);
  }
  const params = resolveParams([...experiment.params, ...(GPU_ONLY[id] ?? [])], raw);
  checkValue(id, params);
  const notes: string[] = [];
  for (const name of Object.keys(raw)) if (IGNORED[name] !== undefined) notes.push(`parameter "${name}" is ignored on a real GPU: ${IGNORED[name]}`);
  if (id === 'shared-bank-stride' && (params.mode === 'all' || params.mode === '4-byte'))
    notes.push(`parameter "mode" is ${String(params.mode)}: the program measures the one bank width the device has`);
  return { experiment, params, notes };
}

/**
 * Every parameter a real-GPU run of the experiment takes: the experiment's own (less those that
 * describe the simulated chip) and the real-GPU-only ones, for forms and help.
 */
export function gpuParamSpecs(id: string): ParamSpec[] {
  const e = gpuExperiment(id);
  return [...e.params.filter((s) => REFUSED[s.name] === undefined && IGNORED[s.name] === undefined), ...(GPU_ONLY[id] ?? [])];
}

/** Parameters the program and the import read; the preset-only ones are left out. */
export function hardwareParams(p: ParamValues): ParamValues {
  const out: ParamValues = {};
  for (const [k, v] of Object.entries(p)) if (REFUSED[k] === undefined && IGNORED[k] === undefined) out[k] = v;
  return out;
}
