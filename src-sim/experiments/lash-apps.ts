import { LASH_MATMUL, matmulKernels, matmulSizeProblem, stencilKernels, stereoKernels } from '../timing/workloads/lash';
import type { Kernel, SchedulerChoice, TimingStats } from '../timing/types';
import { resolveParams } from './params';
import { checkTimingWork, L1_PARAM, pctOver, pctUnder, runStep, SCHEDULER_PARAM, statsTable, timingOf, typeName, TYPES_PARAM, warpAccesses } from './lash-common';
import type { Experiment, Finding, ParamSpec, ParamValues, Series } from './types';
import { ExperimentError } from './types';

/**
 * LASH II, Fig 1: three applications (1D stencil, matrix multiply, stereo matching) under int, short
 * and char elements. Execution time per application and type, normalised to the first type.
 */

const APPS = ['stencil', 'matmul', 'stereo'] as const;
type App = (typeof APPS)[number];
const LABELS: Record<App, string> = { stencil: '1D stencil', matmul: 'Matrix multiply', stereo: 'Stereo matching' };

const params: ParamSpec[] = [
  TYPES_PARAM,
  { name: 'stencilN', label: 'Stencil elements', unit: 'elements', kind: 'integer', default: 512 * 1024, min: 1024, max: 16 * 1024 * 1024, description: 'Stencil array length (LASH VI: 512K); 4 iterations.' },
  { name: 'matmulN', label: 'Matrix size', unit: 'rows', kind: 'integer', default: LASH_MATMUL.n, min: 16, max: 1024, description: 'Square matrices of n x n (assumed: LASH gives no size; 256 gives the tiled kernel 256 blocks, about three waves of the 90 a GTX 480 holds); a multiple of 16 for the tiled kernel.' },
  { name: 'matmulKernel', label: 'Matrix multiply kernel', unit: '', kind: 'enum', default: LASH_MATMUL.kernel, options: ['tiled', 'naive'], description: "tiled: the CUDA Programming Guide's kernel with 16 x 16 tiles in shared memory; naive: every thread reads its row and column from global memory (assumed: LASH gives no code; docs/TIMING.md)." },
  { name: 'stereoWidth', label: 'Image width', unit: 'pixels', kind: 'integer', default: 192, min: 32, max: 2048, description: 'Image width; the height is 3/4 of it (Tsukuba 384 x 288 halved, assumed: LASH gives no size); 16 labels.' },
  L1_PARAM,
  SCHEDULER_PARAM,
];

function kernelsOf(app: App, p: ParamValues, bytes: number): Kernel[] {
  const type = 'int' as const;
  if (app === 'stencil') return stencilKernels({ n: p.stencilN as number, iterations: 4, block: 256, type, elemBytes: bytes });
  if (app === 'matmul') {
    const kernel = p.matmulKernel as 'tiled' | 'naive';
    const problem = matmulSizeProblem(p.matmulN as number, kernel);
    if (problem) throw new ExperimentError(`parameter "matmulN": ${problem}`, 'matmulN');
    return matmulKernels({ n: p.matmulN as number, block: 256, type, elemBytes: bytes, kernel });
  }
  const w = p.stereoWidth as number;
  return stereoKernels({ width: w, height: Math.max(8, Math.round((w * 3) / 4)), labels: 16, block: 64, type, elemBytes: bytes });
}

function work(p: ParamValues): number {
  let total = 0;
  for (const app of APPS) for (const b of p.types as number[]) total += warpAccesses(kernelsOf(app, p, b));
  return total;
}

export const lashApps: Experiment = {
  id: 'lash-apps',
  title: 'LASH: three applications under int, short, char',
  description: 'Matrix multiply, 1D stencil and stereo matching by belief propagation, each with 4-, 2- and 1-byte elements (LASH Fig 1): which data type is fastest for each.',
  reproduces: ['LASH-F1'],
  params,
  estimate(_preset, raw) {
    return work(resolveParams(params, raw)) * 32;
  },
  run(preset, raw, seed, progress) {
    const p = resolveParams(params, raw);
    const cfg = timingOf(preset);
    const types = p.types as number[];
    checkTimingWork(work(p));
    const names = types.map(typeName);
    const stats: TimingStats[][] = [];
    const steps = APPS.length * types.length;
    let step = 0;
    for (const app of APPS) {
      stats.push(
        types.map((b, i) =>
          runStep(cfg, kernelsOf(app, p, b), { l1: p.l1 as 'hw' | 'bypass', scheduler: p.scheduler as SchedulerChoice, seed }, progress, step++, steps, `${LABELS[app]} ${names[i]}`),
        ),
      );
    }
    progress(1, 1, 'done');
    const cats = APPS.map((a) => LABELS[a]);
    const series: Series[] = names.map((name, ti) => ({
      name,
      x: Float64Array.from(APPS.map((_, i) => i)),
      y: Float64Array.from(APPS.map((_, ai) => stats[ai][ti].cycles / stats[ai][0].cycles)),
      xLabel: 'Application',
      xUnit: '',
      yLabel: `Time relative to ${names[0]}`,
      yUnit: '',
      style: 'bar',
      xCategories: cats,
      group: 'time',
    }));
    const findings: Finding[] = [];
    APPS.forEach((app, ai) => {
      const c = stats[ai].map((s) => s.cycles);
      const best = c.indexOf(Math.min(...c));
      findings.push({ key: `apps.${app}.fastestType`, label: `${LABELS[app]}: fastest type`, value: names[best], unit: '', evidence: names.map((n, i) => `${n} ${c[i]}`).join(', ') + ' cycles' });
      findings.push({
        key: `apps.${app}.spread`,
        label: `${LABELS[app]}: slowest over fastest type`,
        value: pctOver(Math.max(...c), Math.min(...c)),
        unit: '%',
        evidence: `max / min execution time over ${names.join(', ')}`,
      });
      const i4 = names.indexOf('int');
      const i1 = names.indexOf('char');
      if (i4 >= 0 && i1 >= 0)
        findings.push({
          key: `apps.${app}.charVsInt`,
          label: `${LABELS[app]}: char takes less time than int by`,
          value: pctUnder(c[i1], c[i4]),
          unit: '%',
          evidence: `char ${c[i1]} vs int ${c[i4]} cycles`,
        });
    });
    // LASH II: matrix multiply's "performance impact is much lower" than stereo matching's: its
    // int-char time difference against stereo's, "much lower" read as under half.
    const ia = APPS.indexOf('matmul');
    const ib = APPS.indexOf('stereo');
    const [j4, j1] = [names.indexOf('int'), names.indexOf('char')];
    if (ia >= 0 && ib >= 0 && j4 >= 0 && j1 >= 0) {
      const diff = (a: number) => Math.abs(stats[a][j4].cycles - stats[a][j1].cycles) / Math.max(stats[a][j4].cycles, stats[a][j1].cycles);
      const ratio = diff(ia) / diff(ib);
      findings.push({
        key: 'apps.matmulUnderHalfStereo',
        label: "Matrix multiply's int-char difference under half of stereo's",
        value: ratio < 0.5 ? 'yes' : 'no',
        unit: '',
        evidence: `|int - char| / slower: matrix multiply ${(100 * diff(ia)).toFixed(1)} %, stereo ${(100 * diff(ib)).toFixed(1)} % (ratio ${ratio.toFixed(2)})`,
      });
    }
    const tables = [statsTable('Per application and type', APPS.flatMap((a) => names.map((n) => `${LABELS[a]} ${n}`)), stats.flat())];
    return {
      series,
      tables,
      findings,
      notes: [
        'Matrix multiply: one thread per element of C, a row of A (broadcast) and a column of B per thread. Stereo: label planes, one thread per row (then per column) walking it with 16 labels per pixel; sizes assumed.',
      ],
    };
  },
};
