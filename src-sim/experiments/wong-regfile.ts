import { regfileFindings } from '../core/analysis';
import { maxThreads } from '../core/regfile';
import { resolveParams } from './params';
import type { Experiment, ParamSpec, Series, Table } from './types';
import { ExperimentError } from './types';
import { coreOf } from './wong-common';

/**
 * WONG IV-E, Fig 9: for each register count per thread, the largest block that launches, found by
 * trying launches (every block size from `tryThreads` down); failed launches are recorded.
 */

const params: ParamSpec[] = [
  { name: 'regsFrom', label: 'Fewest registers', unit: 'registers/thread', kind: 'integer', default: 1, min: 1, max: 512, description: 'First register count per thread.' },
  { name: 'regsTo', label: 'Most registers', unit: 'registers/thread', kind: 'integer', default: 136, min: 1, max: 512, description: 'Last register count per thread (WONG: launches above 128 fail).' },
  { name: 'tryThreads', label: 'Largest block tried', unit: 'threads', kind: 'integer', default: 1024, min: 32, max: 4096, description: 'Block sizes tried, from this down to 1.' },
];

export const wongRegfile: Experiment = {
  id: 'wong-regfile',
  title: 'Register file: threads per block against registers per thread (WONG Fig 9)',
  description:
    'The largest block that launches at each register count: where the 512-thread limit gives way to the register file, the 64-thread quantum of its logical banks, and the launches that fail.',
  reproduces: ['WONG-F9'],
  params,
  estimate(preset, raw) {
    const p = resolveParams(params, raw);
    return Math.max(0, (p.regsTo as number) - (p.regsFrom as number) + 1) * (p.tryThreads as number);
  },
  run(preset, raw, _seed, progress) {
    const p = resolveParams(params, raw);
    const core = coreOf(preset);
    const a = p.regsFrom as number;
    const b = p.regsTo as number;
    if (b - a < 8) throw new ExperimentError('sweep at least nine register counts ("regsFrom" to "regsTo")', 'regsTo');
    const regs: number[] = [];
    const threads: number[] = [];
    const failed: { regs: number; why: string }[] = [];
    for (let r = a; r <= b; r++) {
      const m = maxThreads(core.regfile, r, p.tryThreads as number);
      regs.push(r);
      threads.push(m.threads);
      if (m.threads === 0) failed.push({ regs: r, why: m.failure ?? 'unknown' });
      progress(r - a + 1, b - a + 1, `${r} registers`);
    }
    const x = Float64Array.from(regs);
    const series: Series[] = [
      { name: 'max threads per block', x, y: Float64Array.from(threads), xLabel: 'Registers per thread', xUnit: 'registers', yLabel: 'Threads per block', yUnit: 'threads', style: 'step', group: 'threads' },
      {
        name: 'registers used',
        x,
        y: Float64Array.from(regs.map((r, i) => r * threads[i])),
        xLabel: 'Registers per thread',
        xUnit: 'registers',
        yLabel: 'Registers used by the block',
        yUnit: 'registers',
        style: 'step',
        group: 'registers',
      },
    ];
    const table: Table = {
      name: 'Launches that fail at every block size',
      columns: [
        { key: 'regs', label: 'Registers per thread' },
        { key: 'why', label: 'Limit' },
      ],
      rows: failed.map((f) => ({ regs: f.regs, why: f.why })),
    };
    const notes = [
      'Each point tries block sizes from the largest down and keeps the first that launches; a register count with no launch at any size is a failed launch (0 threads).',
    ];
    return { series, tables: [table], findings: regfileFindings(regs, threads), notes };
  },
};
