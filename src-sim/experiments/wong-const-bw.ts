import { constBwFindings } from '../core/analysis';
import { constantL3Run } from '../core/const-bw';
import { resolveParams } from './params';
import type { Experiment, ParamSpec, Series } from './types';
import { ExperimentError } from './types';
import { coreOf } from './wong-common';

/**
 * WONG IV-J3, Fig 19: aggregate read bandwidth of the constant L3 against concurrent blocks, each
 * reading its own constants with independent requests (src-sim/core/const-bw.ts).
 */

const params: ParamSpec[] = [
  { name: 'blocksFrom', label: 'Fewest blocks', unit: 'blocks', kind: 'integer', default: 1, min: 1, max: 240, description: 'First block count.' },
  { name: 'blocksTo', label: 'Most blocks', unit: 'blocks', kind: 'integer', default: 40, min: 1, max: 240, description: 'Last block count (past the SM count some SMs run two blocks).' },
  { name: 'bytesPerBlock', label: 'Bytes per block', unit: 'B', kind: 'bytes', default: 8192, min: 256, max: 1 << 20, description: 'Constant bytes each block reads from the L3.' },
];

export const wongConstBw: Experiment = {
  id: 'wong-const-bw',
  title: 'Constant L3 bandwidth against blocks (WONG Fig 19)',
  description: 'Aggregate constant L3 read bandwidth with 1 to many concurrent blocks: one SM\'s own limit, the L3\'s limit, and the load imbalance past one block per SM.',
  reproduces: ['WONG-F19'],
  params,
  estimate(preset, raw) {
    const p = resolveParams(params, raw);
    return Math.max(0, (p.blocksTo as number) - (p.blocksFrom as number) + 1) * preset.chip.sms;
  },
  run(preset, raw, _seed, progress) {
    const p = resolveParams(params, raw);
    const core = coreOf(preset);
    const a = p.blocksFrom as number;
    const b = p.blocksTo as number;
    if (b - a < 2) throw new ExperimentError('sweep at least three block counts ("blocksFrom" to "blocksTo")', 'blocksTo');
    const blocks: number[] = [];
    const bw: number[] = [];
    for (let n = a; n <= b; n++) {
      blocks.push(n);
      bw.push(constantL3Run(core.constantL3, preset.chip.sms, n, p.bytesPerBlock as number).bytesPerCycle);
      progress(n - a + 1, b - a + 1, `${n} blocks`);
    }
    const series: Series[] = [
      { name: 'aggregate L3 bandwidth', x: Float64Array.from(blocks), y: Float64Array.from(bw), xLabel: 'Blocks', xUnit: 'blocks', yLabel: 'Bandwidth', yUnit: 'B/clk', style: 'line' },
    ];
    const notes = [
      `Blocks go to the ${preset.chip.sms} SMs round-robin; each SM reads at most its own limit, the L3 serves all SMs together at most its limit, shared fairly; bandwidth is all bytes over the time of the last block.`,
      "WONG's eight-thread variant (more demand within a block, and above 20 blocks the per-TPC L2 hiding requests) is not modelled.",
    ];
    return { series, tables: [], findings: constBwFindings(blocks, bw), notes };
  },
};
