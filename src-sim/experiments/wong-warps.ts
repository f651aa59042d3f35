import { warpsFindings } from '../core/analysis';
import { planOp, runChains } from '../core/issue';
import { TESLA_CORE } from '../presets/tesla-core';
import { resolveParams } from './params';
import { checkWork } from './pchase';
import type { Experiment, ParamSpec, ParamValues, Series } from './types';
import { ExperimentError } from './types';
import { coreOf, opOf } from './wong-common';

/**
 * WONG IV-B, Fig 6: latency and throughput of dependent SP operations (integer adds) against the warps
 * on the SM. Each warp runs a chain of dependent operations; every warp's observed latency is its chain
 * time over the chain length, the throughput all operations over the run's cycles.
 */

const params: ParamSpec[] = [
  { name: 'warpsFrom', label: 'Fewest warps', unit: 'warps', kind: 'integer', default: 1, min: 1, max: 32, description: 'First warp count.' },
  { name: 'warpsTo', label: 'Most warps', unit: 'warps', kind: 'integer', default: 24, min: 1, max: 32, description: 'Last warp count (32 warps: 1,024 threads, the most an SM holds).' },
  { name: 'chain', label: 'Chain length', unit: 'ops', kind: 'integer', default: 256, min: 8, max: 4096, description: 'Dependent operations per thread.' },
  {
    name: 'op',
    label: 'Operation',
    unit: '',
    kind: 'enum',
    default: 'int.add',
    options: TESLA_CORE.ops.map((o) => o.id),
    description: 'The operation of the chains (WONG Fig 6: integer add, on the SPs).',
  },
];

function counts(p: ParamValues): number[] {
  const a = p.warpsFrom as number;
  const b = p.warpsTo as number;
  if (b < a) throw new ExperimentError('parameter "warpsTo" must not be smaller than "warpsFrom"', 'warpsTo');
  if (b - a < 2) throw new ExperimentError('sweep at least three warp counts ("warpsFrom" to "warpsTo")', 'warpsTo');
  const out: number[] = [];
  for (let w = a; w <= b; w++) out.push(w);
  return out;
}

export const wongWarps: Experiment = {
  id: 'wong-warps',
  title: 'SP latency and throughput against warps (WONG Fig 6)',
  description:
    'Dependent chains on 1 to 32 warps of one SM: the latency each warp sees and the SM\'s throughput, where the pipeline fills, and which warp counts fall short of filling it.',
  reproduces: ['WONG-F6'],
  params,
  estimate(preset, raw) {
    const p = resolveParams(params, raw);
    const core = coreOf(preset);
    const steps = planOp(core, opOf(core, preset, p.op as string)).steps;
    return counts(p).reduce((a, w) => a + w * steps * (p.chain as number) * w, 0);
  },
  run(preset, raw, _seed, progress) {
    const p = resolveParams(params, raw);
    const core = coreOf(preset);
    const op = opOf(core, preset, p.op as string);
    checkWork(this.estimate(preset, p));
    const L = p.chain as number;
    const ws = core.scheduler.warpSize;
    const clock = preset.measurement.clockOverhead;
    const ws_ = counts(p);
    const lat: number[] = [];
    const thr: number[] = [];
    ws_.forEach((w, i) => {
      const r = runChains(core, op, { warps: w, chain: L });
      let sum = 0;
      for (let k = 0; k < w; k++) sum += (r.end[k] - r.start[k] + clock) / L;
      lat.push(sum / w);
      thr.push((w * ws * L) / (r.cycles + clock));
      progress(i + 1, ws_.length, `${w} warps`);
    });
    const x = Float64Array.from(ws_);
    const series: Series[] = [
      { name: 'throughput', x, y: Float64Array.from(thr), xLabel: 'Warps per SM', xUnit: 'warps', yLabel: 'Throughput', yUnit: 'ops/clk', style: 'line', group: 'throughput' },
      { name: 'latency', x, y: Float64Array.from(lat), xLabel: 'Warps per SM', xUnit: 'warps', yLabel: 'Observed latency', yUnit: 'cycles', style: 'line', group: 'latency' },
    ];
    const notes = [
      `${op.label} (${op.type}) chains of ${L} per thread; latency: each warp's chain time (clock() included) over ${L}, averaged over the warps; throughput: all operations over the run's cycles.`,
      `Assumed cause of the shortfall at six and seven warps (WONG gives none): an SP result is written back ${core.scheduler.busyWritebackDelay} cycles late when the SP accepted work at every opportunity since it issued; up to five warps the SP idles in every latency window, from eight warps there are enough warps to cover the delay.`,
    ];
    return { series, tables: [], findings: warpsFindings(ws_, lat, thr), notes };
  },
};
