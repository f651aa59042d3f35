/**
 * The CUDA generator: one self-contained CUDA C++ program per experiment and parameter set, and the
 * one-line nvcc command that builds it. Pure: it returns text and never touches files or processes
 * (`gpulab gpu emit` writes them, `gpulab gpu run` builds and runs them).
 */
import { checkStride, traversal } from '../experiments/pchase';
import { sweepSizes } from '../experiments/pchase-average';
import type { ParamValues, RawParams } from '../experiments/types';
import { ExperimentError, MAX_ACCESSES } from '../experiments/types';
import { FORMAT_VERSION, prologue } from './common';
import { hardwareParams, resolveGpuParams } from './params';
import { pchaseAverageBody, pchaseFineBody, sharedBankBody } from './programs';

export { FORMAT_VERSION } from './common';
export { GPU_EXPERIMENTS, gpuExperiment, resolveGpuParams } from './params';

/** nvcc's -arch when none is given: the GPU of the building machine (nvcc 11.5 and later). Older nvcc: pass sm_XX, e.g. sm_90 for Hopper. */
export const DEFAULT_ARCH = 'native';

/** -arch values the build command accepts: native, or a real architecture such as sm_90, sm_90a, sm_100f. */
const ARCH = /^(native|sm_\d{2,3}[af]?)$/;

export interface EmitOptions {
  /** nvcc -arch (default: native). */
  arch?: string;
}

export interface EmittedProgram {
  experiment: string;
  /** `<experiment>.cu` */
  fileName: string;
  /** The executable the build command writes, `<experiment>`. */
  binary: string;
  source: string;
  /** `nvcc -O2 -arch=... -o <experiment> <experiment>.cu` */
  buildCommand: string;
  /** build.sh: the build command, run from the script's folder. */
  buildScript: string;
  /** The parameters the program was generated for (the experiment's, resolved; preset-only ones left out). */
  params: ParamValues;
  /** Parameters that were ignored, and why. */
  notes: string[];
}


function checkLoads(loads: number): void {
  if (loads > MAX_ACCESSES)
    throw new ExperimentError(`this run would make about ${(loads / 1e6).toFixed(0)} M dependent loads, over the limit of ${MAX_ACCESSES / 1e6} M; use a larger stride, fewer sizes or fewer iterations`);
}

/** The checks the simulated experiment makes on resolved parameters (and the 32-bit index limit), before any text is written. */
export function checkGpuParams(id: string, p: ParamValues): void {
  if (id === 'pchase-average') {
    const strides = p.strides as number[];
    const ns = sweepSizes(p);
    if ((p.sizeStep as number) % 4 !== 0) throw new ExperimentError('parameter "sizeStep" must be a multiple of 4 B (one element)', 'sizeStep');
    let loads = 0;
    for (const s of strides)
      for (const N of ns) {
        checkStride(N, s, 'sizeFrom', 'strides');
        const per = traversal(N, s);
        loads += per + Math.max(256, per * (p.traversals as number));
      }
    if (ns[ns.length - 1] / 4 > 0xffffffff) throw new ExperimentError('parameter "sizeTo" is over 16 GB: 32-bit indices cannot address the array', 'sizeTo');
    checkLoads(loads);
  } else if (id === 'pchase-fine') {
    checkStride(p.size as number, p.stride as number, 'size', 'stride');
    if ((p.size as number) / 4 > 0xffffffff) throw new ExperimentError('parameter "size" is over 16 GB: 32-bit indices cannot address the array', 'size');
    checkLoads((p.iterations as number) + (p.warmup ? traversal(p.size as number, p.stride as number) : 0));
  } else if (id === 'shared-bank-stride') {
    if ((p.strideTo as number) < (p.strideFrom as number)) throw new ExperimentError('parameter "strideTo" must not be smaller than "strideFrom"', 'strideTo');
  }
}

/** The CUDA program of one experiment for the given parameters (validated as the simulated run validates them). */
export function emitProgram(id: string, raw: RawParams = {}, options: EmitOptions = {}): EmittedProgram {
  const arch = options.arch ?? DEFAULT_ARCH;
  if (!ARCH.test(arch)) throw new ExperimentError(`--arch must be native or a real architecture such as sm_90 (Hopper), sm_80 (Ampere); got "${arch}"`);
  const { experiment, params: resolved, notes } = resolveGpuParams(id, raw);
  checkGpuParams(id, resolved);
  const params = hardwareParams(resolved);
  const body = id === 'pchase-average' ? pchaseAverageBody(params) : id === 'pchase-fine' ? pchaseFineBody(params) : sharedBankBody(params);
  const source = prologue(experiment.id, JSON.stringify(params), `gpulab gpu emit (format ${FORMAT_VERSION})`) + body;
  const fileName = `${id}.cu`;
  const buildCommand = `nvcc -O2 -arch=${arch} -o ${id} ${fileName}`;
  const buildScript = [
    '#!/bin/sh',
    `# Builds ${id} from ${fileName} (-arch=native needs nvcc 11.5 or later and a GPU on this machine; otherwise name one, e.g. -arch=sm_90 for Hopper).`,
    `cd "$(dirname "$0")" && ${buildCommand}`,
    '',
  ].join('\n');
  return { experiment: id, fileName, binary: id, source, buildCommand, buildScript, params, notes };
}
