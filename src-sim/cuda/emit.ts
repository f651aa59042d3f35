/**
 * The CUDA generator: one self-contained CUDA C++ program per experiment and parameter set, and the
 * one-line nvcc command that builds it. Pure: it returns text and never touches files or processes
 * (`gpulab gpu emit` writes them, `gpulab gpu run` builds and runs them).
 */
import { patternSequenceLength, patternStep } from '../experiments/global-latency-patterns';
import { checkStride, traversal } from '../experiments/pchase';
import { sweepSizes } from '../experiments/pchase-average';
import { BlockPairLayout, Layout, NearPairLayout, OwnPageLayout, PAIR_BLOCK, sizeList, type Placement } from '../experiments/tlb-probes';
import type { ParamValues, RawParams } from '../experiments/types';
import { ExperimentError, MAX_ACCESSES } from '../experiments/types';
import { FORMAT_VERSION, prologue } from './common';
import { hardwareParams, resolveGpuParams } from './params';
import { patternsBody, pchaseAverageBody, pchaseFineBody, sharedBankBody, tlbReachBody, type TlbReachPlan } from './programs';

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


const MB = 1024 * 1024;

/** Addresses a reach program holds (all curves together): its source stays under a few MB. */
export const MAX_REACH_ADDRESSES = 200_000;

/**
 * The reach sweep of tlb-probes on a real GPU, its automatic values resolved as the simulated
 * experiment resolves them for Fermi and Kepler (no preset says what the GPU is): a 2 MB stride (the
 * page the papers found there, and the large page of current GPUs), sizes from one stride to 160 MB
 * in steps of one stride, a skew of 128 B. Besides the main curve, the program measures the simulated
 * probe's controls over the same element counts, laid out by the same classes: block pairs (where the
 * stride holds two 64 KB blocks), near pairs, own pages and twice the stride.
 */
export function tlbReachPlan(p: ParamValues): TlbReachPlan {
  const stride = (p.stride as number) || 2 * MB;
  if (stride % 8 !== 0) throw new ExperimentError('parameter "stride" must be a multiple of 8 B on a real GPU (the reach chain holds 64-bit indices)', 'stride');
  const from = (p.sizeFrom as number) || stride;
  const to = (p.sizeTo as number) || Math.max(160 * MB, from);
  const sizes = sizeList(from, to, (p.sizeStep as number) || stride);
  for (const N of sizes) {
    if (N % 4 !== 0) throw new ExperimentError('parameter "sizeFrom"/"sizeStep" must give sizes that are multiples of 4 B', 'sizeFrom');
    if (N < stride) throw new ExperimentError(`parameter "sizeFrom" (${N} B) is smaller than the stride (${stride} B)`, 'sizeFrom');
  }
  const skew = (p.skew as number) >= 0 ? (p.skew as number) : 128;
  if (skew % 8 !== 0) throw new ExperimentError('parameter "skew" must be a multiple of 8 B on a real GPU (the reach chain holds 64-bit indices)', 'skew');
  const counts = sizes.map((N) => traversal(N, stride));
  const most = counts[counts.length - 1];
  const main = new Layout(stride, skew);
  const layouts: [TlbReachPlan['curves'][number]['name'], Placement][] = [['main', main]];
  if (stride % (2 * PAIR_BLOCK) === 0) layouts.push(['block-pair', new BlockPairLayout(main, stride)]);
  layouts.push(['near-pair', new NearPairLayout(stride)], ['own-page', new OwnPageLayout(stride)], ['double', new Layout(2 * stride, skew)]);
  if (layouts.length * most > MAX_REACH_ADDRESSES)
    throw new ExperimentError(`the sweep reaches ${most} elements a curve (${layouts.length} curves); a real-GPU program holds at most ${MAX_REACH_ADDRESSES} addresses: a larger stride or a smaller sizeTo`, 'sizeTo');
  const curves = layouts.map(([name, l]) => ({ name, addresses: Array.from({ length: most }, (_, i) => l.at(i)) }));
  return { stride, skew, sizes, counts, curves };
}

/** The byte offsets of global-latency-patterns' sequence, in order. */
export function patternOffsets(p: ParamValues): number[] {
  return Array.from({ length: patternSequenceLength(p) }, (_, i) => patternStep(p, i).address);
}

/** Accesses a shared-memory trace of 12 B an access holds in the 227 KB a block may opt in to on Hopper (fewer on older GPUs; the program checks). */
export const MAX_PATTERN_ACCESSES = Math.floor((227 * 1024) / 12);

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
  } else if (id === 'tlb-probes') {
    const plan = tlbReachPlan(p);
    checkLoads(plan.sizes.reduce((a, N) => a + traversal(N, plan.stride) + 3 * Math.max(256, traversal(N, plan.stride) * (p.traversals as number)), 0));
  } else if (id === 'global-latency-patterns') {
    const k = patternSequenceLength(p);
    if (k > MAX_PATTERN_ACCESSES)
      throw new ExperimentError(
        `the sequence has ${k} accesses; a real GPU's trace holds at most ${MAX_PATTERN_ACCESSES} (12 B of shared memory an access): fewer rounds or flush pages`,
        'rounds',
      );
  }
}

/** The CUDA program of one experiment for the given parameters (validated as the simulated run validates them). */
export function emitProgram(id: string, raw: RawParams = {}, options: EmitOptions = {}): EmittedProgram {
  const arch = options.arch ?? DEFAULT_ARCH;
  if (!ARCH.test(arch)) throw new ExperimentError(`--arch must be native or a real architecture such as sm_90 (Hopper), sm_80 (Ampere); got "${arch}"`);
  const { experiment, params: resolved, notes } = resolveGpuParams(id, raw);
  checkGpuParams(id, resolved);
  const params = hardwareParams(resolved);
  const body =
    id === 'pchase-average'
      ? pchaseAverageBody(params)
      : id === 'pchase-fine'
        ? pchaseFineBody(params)
        : id === 'tlb-probes'
          ? tlbReachBody(params, tlbReachPlan(params))
          : id === 'global-latency-patterns'
            ? patternsBody(params, patternOffsets(params))
            : sharedBankBody(params);
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
