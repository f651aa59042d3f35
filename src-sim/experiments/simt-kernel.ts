import { KernelError } from '../simt/ast';
import { compileKernel } from '../simt/compile';
import { FIRST_KERNEL, SIMT_EXAMPLES, findExample } from '../simt/examples';
import type { SimtRun } from '../simt/executor';
import { MAX_BLOCKS, MAX_STEPS, MAX_THREADS_PER_BLOCK, runKernel } from '../simt/executor';
import { parseKernel } from '../simt/parser';
import { barrierTable, eventsTable, memoryTable, runFindings, timelineSeries, warpsTable } from '../simt/report';
import type { SimtTiming } from '../simt/timing';
import { simtTiming } from '../simt/timing';
import { resolveParams } from './params';
import type { Experiment, ParamSpec } from './types';
import { ExperimentError } from './types';

/** Longest kernel text a run takes (characters). */
export const MAX_KERNEL_CHARS = 16_000;

const params: ParamSpec[] = [
  {
    name: 'example',
    label: 'Example',
    unit: '',
    kind: 'enum',
    default: 'custom',
    options: ['custom', ...SIMT_EXAMPLES.map((e) => e.id)],
    description: `"custom" runs the source below; an example (${SIMT_EXAMPLES.map((e) => e.id).join(', ')}) runs its own text with its own launch.`,
  },
  { name: 'source', label: 'Kernel source', unit: '', kind: 'text', default: FIRST_KERNEL, maxLength: MAX_KERNEL_CHARS, description: 'The kernel in the kernel language (docs/KERNELS.md): threadIdx.x, __shared__ and __global__ arrays, if / while / for, __syncthreads(), clock().' },
  { name: 'blocks', label: 'Blocks', unit: 'blocks', kind: 'integer', default: 1, min: 1, max: MAX_BLOCKS, description: 'Blocks in the grid (each on its own SM).' },
  { name: 'threads', label: 'Threads per block', unit: 'threads', kind: 'integer', default: 64, min: 1, max: MAX_THREADS_PER_BLOCK, description: 'Threads per block, in warps of 32 (the last warp may be partial).' },
  { name: 'steps', label: 'Step budget', unit: 'warp instructions', kind: 'integer', default: 200_000, min: 1_000, max: MAX_STEPS, description: 'Warp instructions the run may issue before it stops (no run hangs).' },
];

/** Parses, compiles and runs kernel text, turning a kernel error into an ExperimentError on `param` that names line:column. */
export function runKernelText(source: string, timing: SimtTiming, blocks: number, threads: number, steps: number, param = 'source'): SimtRun {
  try {
    return runKernel(compileKernel(parseKernel(source)), timing, { blocks, threadsPerBlock: threads, stepBudget: steps });
  } catch (err) {
    if (err instanceof KernelError) throw new ExperimentError(`parameter "${param}" at ${err.message}`, param);
    throw err;
  }
}

export const simtKernel: Experiment = {
  id: 'simt-kernel',
  title: 'SIMT kernel: divergence, reconvergence and barriers of your own kernel (WONG IV-C, IV-D)',
  description:
    'Runs a kernel written in the small kernel language on blocks of 32-thread warps: a reconvergence stack per warp (taken path first), warp-granularity __syncthreads(), deadlock detection and a step budget. Shows the per-warp timeline, the events, the final memory and how the run ended.',
  reproduces: [],
  params,
  estimate(_preset, raw) {
    return resolveParams(params, raw).steps as number;
  },
  run(preset, raw, _seed, progress) {
    const p = resolveParams(params, raw);
    const example = p.example === 'custom' ? undefined : findExample(p.example as string);
    const source = example ? example.source : (p.source as string);
    const blocks = example ? example.blocks : (p.blocks as number);
    const threads = example ? example.threadsPerBlock : (p.threads as number);
    const timing = simtTiming(preset);
    progress(0, 1, 'running the kernel');
    const run = runKernelText(source, timing, blocks, threads, p.steps as number);
    progress(1, 1, 'done');
    const notes = [
      run.message,
      ...(example ? [`Example ${example.id} (${example.title}) with its own launch: ${blocks} block(s) of ${threads} threads; the source, blocks and threads parameters are not used. WONG: ${example.expect}.`] : []),
      `Timing (src-sim/simt/timing.ts): ${timing.sources.join('; ')}. Memory accesses are not timed here.`,
      ...(run.droppedEvents ? [`${run.droppedEvents} timeline events were not kept (at most 20,000).`] : []),
    ];
    return {
      series: timelineSeries(run),
      tables: [eventsTable(run), barrierTable(run), warpsTable(run), memoryTable(run)],
      findings: runFindings(run),
      notes,
    };
  },
};
