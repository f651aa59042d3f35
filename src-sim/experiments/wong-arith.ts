import { arithFindings, chainLatency, manyWarpRate, type OpMeasurement } from '../core/analysis';
import { planOp, runChains } from '../core/issue';
import type { CoreOp } from '../core/types';
import type { Preset } from '../presets/types';
import { resolveParams } from './params';
import type { Experiment, ParamSpec, ParamValues, Series, Table } from './types';
import { coreOf, UNIT_PROBES } from './wong-common';
import { checkWork } from './pchase';

/**
 * WONG IV-B, Tables II-IV: latency and throughput of every arithmetic operation, measured as WONG did:
 * one thread running a chain of dependent operations (latency: the difference of two chain lengths, so
 * the clock() reads drop out), and a block of 512 threads (16 warps) running the same chains
 * (throughput: operations over cycles). The model underneath is src-sim/core/issue.ts.
 */

const TABLES = ['all', 'II', 'III', 'IV'] as const;

const params: ParamSpec[] = [
  {
    name: 'table',
    label: 'Table',
    unit: '',
    kind: 'enum',
    default: 'all',
    options: TABLES,
    description: 'II: the three units (and float mad/mul for the SFU share); III: arithmetic and logic; IV: intrinsics; all: every row.',
  },
  { name: 'chain', label: 'Chain length', unit: 'ops', kind: 'integer', default: 128, min: 8, max: 4096, description: 'Dependent operations per thread; the latency run also times twice this.' },
  { name: 'threads', label: 'Threads (throughput)', unit: 'threads', kind: 'integer', default: 512, min: 32, max: 512, description: 'Threads of the throughput block (WONG: 512, the most a block may have); rounded up to whole warps.' },
];

function selected(ops: CoreOp[], table: string): CoreOp[] {
  if (table === 'all') return ops;
  if (table === 'II') {
    const ids = new Set<string>([...Object.values(UNIT_PROBES), 'float.mad', 'float.mul']);
    return ops.filter((o) => ids.has(o.id));
  }
  return ops.filter((o) => o.table === table);
}

function warpsOf(p: ParamValues, warpSize: number): number {
  return Math.ceil((p.threads as number) / warpSize);
}

export const wongArith: Experiment = {
  id: 'wong-arith',
  title: 'Arithmetic latency and throughput (WONG Tables II-IV)',
  description:
    'Dependent chains of each operation: one thread for latency, a 512-thread block for throughput. Unit figures, the SFU share of float mul and the instruction counts of integer mul and mad are inferred from the measurements.',
  reproduces: ['WONG-T2..T4'],
  params,
  estimate(preset, raw) {
    const p = resolveParams(params, raw);
    const core = coreOf(preset);
    const L = p.chain as number;
    const w = warpsOf(p, core.scheduler.warpSize);
    return selected(core.ops, p.table as string).reduce((a, o) => a + planOp(core, o).steps * L * (3 + w), 0);
  },
  run(preset: Preset, raw, _seed, progress) {
    const p = resolveParams(params, raw);
    const core = coreOf(preset);
    checkWork(this.estimate(preset, p));
    const L = p.chain as number;
    const ws = core.scheduler.warpSize;
    const warps = warpsOf(p, ws);
    const clock = preset.measurement.clockOverhead;
    const ops = selected(core.ops, p.table as string);
    const ms: OpMeasurement[] = [];
    ops.forEach((op, i) => {
      // Timed as a kernel times itself: clock() before and after, the read's cost included.
      const t1 = runChains(core, op, { warps: 1, chain: L }).cycles + clock;
      const t2 = runChains(core, op, { warps: 1, chain: 2 * L }).cycles + clock;
      const tw = runChains(core, op, { warps, chain: L }).cycles + clock;
      ms.push({ id: op.id, latency: chainLatency(L, t1, 2 * L, t2), throughput: manyWarpRate(warps * ws, L, tw) });
      progress(i + 1, ops.length, op.id);
    });
    const findings = arithFindings(ms, UNIT_PROBES, ws);
    const cats = ms.map((m) => m.id);
    const idx = Float64Array.from(cats.map((_, i) => i));
    const series: Series[] = [
      { name: 'latency', x: idx, y: Float64Array.from(ms.map((m) => m.latency)), xLabel: 'Operation', xUnit: '', yLabel: 'Latency', yUnit: 'cycles', style: 'bar', xCategories: cats, group: 'latency' },
      { name: 'throughput', x: idx, y: Float64Array.from(ms.map((m) => m.throughput)), xLabel: 'Operation', xUnit: '', yLabel: 'Throughput', yUnit: 'ops/clk', style: 'bar', xCategories: cats, group: 'throughput' },
    ];
    const table: Table = {
      name: 'Measured operations (WONG Tables III, IV)',
      columns: [
        { key: 'op', label: 'Operation' },
        { key: 'type', label: 'Type' },
        { key: 'table', label: 'Table' },
        { key: 'latency', label: 'Latency', unit: 'cycles' },
        { key: 'throughput', label: 'Throughput', unit: 'ops/clk' },
        { key: 'issue', label: 'Issue', unit: 'clk/warp' },
      ],
      rows: ms.map((m, i) => ({
        op: ops[i].label,
        type: ops[i].type,
        table: ops[i].table,
        latency: Math.round(m.latency * 10) / 10,
        throughput: Math.round(m.throughput * 1000) / 1000,
        issue: Math.round((ws / m.throughput) * 10) / 10,
      })),
    };
    const notes = [
      `Latency: one thread, chains of ${L} and ${2 * L} dependent operations, clock() (${clock} cycles) around each; the difference over ${L} operations.`,
      `Throughput: ${warps} warps (${warps * ws} threads) each running ${L} operations; operations over cycles, clock() included, as WONG divides.`,
      'Multi-instruction routines (a "-" in WONG\'s tables) are modelled as one step of their measured latency and throughput; integer mul and mad as 4 and 5 dependent SP instructions.',
    ];
    return { series, tables: [table], findings, notes };
  },
};
