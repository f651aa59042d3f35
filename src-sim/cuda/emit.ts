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

/**
 * -arch when none is given: the GPU of the building machine. `gpu run` and build.sh ask nvidia-smi for
 * its compute capability and build for it (sm_90 for 9.0), refusing where no GPU is visible: there
 * nvcc's own -arch=native only warns and builds sm_75 code.
 */
export const DEFAULT_ARCH = 'native';

/** -arch values the build command accepts: native, or a real architecture such as sm_90, sm_90a, sm_100f. */
const ARCH = /^(native|sm_\d{2,3}[af]?)$/;

/** The oldest architecture the programs target: Volta (sm_70). */
export const MIN_ARCH = 70;

/** The -arch of a compute capability ("9.0" is sm_90). */
export const archOfCapability = (cap: string): string => `sm_${cap.replace('.', '')}`;

/** Why a GPU of this compute capability cannot run the programs, or null. */
export function capabilityProblem(cap: string): string | null {
  const [major = 0, minor = 0] = cap.split('.').map(Number);
  return major * 10 + minor < MIN_ARCH
    ? `the GPU here has compute capability ${cap} (${archOfCapability(cap)}), older than Volta (sm_${MIN_ARCH}): the programs target Volta and newer`
    : null;
}

/** What nvidia-smi answered to `--query-gpu=compute_cap --format=csv,noheader`: `found` false where it is not on PATH. */
export interface SmiAnswer {
  found: boolean;
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The query `gpu run` and build.sh make of nvidia-smi for the GPU's compute capability. */
export const SMI_QUERY = ['--query-gpu=compute_cap', '--format=csv,noheader'];

const NO_GPU_ADVICE = `(nvcc -arch=native would only warn and build sm_75 code); pass --arch sm_XX to build for a GPU elsewhere (sm_90 for compute capability 9.0, sm_80 for 8.0)`;

/** The refusal where no GPU is visible, `why` saying how it was found out. */
export const noGpuVisible = (why: string): string => `no GPU visible: ${why} ${NO_GPU_ADVICE}`;

/** nvcc's warning where -arch=native finds no GPU and builds its default (sm_75) instead. */
export const NVCC_NO_NATIVE_GPU = /cannot find valid GPU for '-arch=native'|default arch is used|could not find a supported GPU|no supported gpu/i;

/**
 * The -arch to build for the GPU that is here, from nvidia-smi's answer: the first GPU's compute
 * capability (sm_90 for 9.0). `refuse` where none is visible, or where it is older than Volta; an
 * nvidia-smi too old to report the compute capability (but listing GPUs) leaves it to nvcc's native.
 */
export function nativeArch(smi: SmiAnswer): { arch: string; capability: string | null } | { refuse: string } {
  if (!smi.found) return { refuse: noGpuVisible('nvidia-smi is not on PATH (no NVIDIA driver here)') };
  const said = (smi.stdout + '\n' + smi.stderr).trim();
  const first = said.split('\n').map((l) => l.trim()).find(Boolean) ?? '';
  if (smi.code !== 0) {
    if (/not a valid field/i.test(said)) return { arch: 'native', capability: null };
    return { refuse: noGpuVisible(`nvidia-smi ${first ? `says "${first.slice(0, 200)}"` : `exited with status ${smi.code ?? 'unknown'}`}`) };
  }
  const caps = smi.stdout.split('\n').map((l) => l.trim()).filter((l) => /^\d+\.\d+$/.test(l));
  if (caps.length === 0) return { refuse: noGpuVisible(first ? `nvidia-smi lists no GPU ("${first.slice(0, 200)}")` : 'nvidia-smi lists no GPU') };
  const cap = caps[0]!;
  const problem = capabilityProblem(cap);
  return problem ? { refuse: problem } : { arch: archOfCapability(cap), capability: cap };
}

/** build.sh for -arch=native: the compute capability from nvidia-smi, refusing as `gpu run` refuses. */
function nativeBuildScript(id: string, fileName: string): string {
  return `#!/bin/sh
# Builds ${id} from ${fileName} for the GPU of this machine: its compute capability from nvidia-smi (sm_90 for 9.0).
# Where no GPU is visible it stops (nvcc -arch=native would only warn and build sm_75 code): ARCH=sm_90 sh build.sh
# builds for a GPU elsewhere (or gpulab gpu emit --arch sm_XX).
cd "$(dirname "$0")" || exit 1
arch=\${ARCH:-}
if [ -z "$arch" ]; then
  if ! command -v nvidia-smi > /dev/null 2>&1; then
    echo "build.sh: ${noGpuVisible('nvidia-smi is not on PATH (no NVIDIA driver here)')}; here: ARCH=sm_XX sh build.sh" >&2
    exit 1
  fi
  cap=$(nvidia-smi ${SMI_QUERY.join(' ')} 2>&1)
  status=$?
  first=$(printf '%s\\n' "$cap" | head -n 1 | tr -d '\\r')
  case "$status:$first" in
    0:[0-9]*.[0-9]*) ;;
    *"not a valid field"*) arch=native ;;
    *) echo "build.sh: ${noGpuVisible("nvidia-smi says '$first'")}; here: ARCH=sm_XX sh build.sh" >&2; exit 1 ;;
  esac
  if [ -z "$arch" ]; then
    major=\${first%%.*}
    minor=\${first#*.}
    if [ "$major$minor" -lt ${MIN_ARCH} ]; then
      echo "build.sh: the GPU here has compute capability $first (sm_$major$minor), older than Volta (sm_${MIN_ARCH}): the programs target Volta and newer" >&2
      exit 1
    fi
    arch=sm_$major$minor
  fi
fi
echo "build.sh: building ${id} for -arch=$arch" >&2
exec nvcc -O2 -arch="$arch" -o ${id} ${fileName}
`;
}

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
  const sm = /^sm_(\d+)/.exec(arch);
  if (sm && Number(sm[1]) < MIN_ARCH) throw new ExperimentError(`--arch ${arch} is older than Volta (sm_${MIN_ARCH}): the programs target Volta and newer`);
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
  const buildScript =
    arch === 'native'
      ? nativeBuildScript(id, fileName)
      : ['#!/bin/sh', `# Builds ${id} from ${fileName} for ${arch}.`, `cd "$(dirname "$0")" && ${buildCommand}`, ''].join('\n');
  return { experiment: id, fileName, binary: id, source, buildCommand, buildScript, params, notes };
}
