import type { DivergenceAnalysis } from '../simt/analysis';
import { analyseDivergence } from '../simt/analysis';
import { divergenceKernel } from '../simt/examples';
import { arrayValues } from '../simt/executor';
import { simtTiming } from '../simt/timing';
import { Rng } from '../rng';
import { resolveParams } from './params';
import { runKernelText } from './simt-kernel';
import type { Experiment, Finding, ParamSpec, Series, Table } from './types';
import { ExperimentError } from './types';

/**
 * WONG IV-C, Figs 7 and 8: Listing 3's reconvergence stack test. Each thread of a warp takes its
 * own path of an if / else-if chain over array c (a permutation of 0..31) and stamps clock() at the
 * start and end of its path. The stamps alone show that paths are serialised within a warp, that
 * warps overlap, and that the taken (else) path of every branch runs first, so the last clause's
 * thread (c[31]) runs first whatever its thread id: c = 0..31 and c = 31..0 are both run, and a
 * seeded random permutation when asked.
 */

const params: ParamSpec[] = [
  { name: 'warps', label: 'Warps', unit: 'warps', kind: 'integer', default: 2, min: 1, max: 8, description: 'Warps in the block (WONG Fig 7: two).' },
  { name: 'ops', label: 'Operations per path', unit: '', kind: 'integer', default: 4, min: 1, max: 32, description: 'Dependent arithmetic statements (x = x * 3 + 1) each path runs between its two clock() stamps.' },
  { name: 'random', label: 'Also a random order', unit: '', kind: 'boolean', default: true, description: 'Adds a launch with c a seeded random permutation of 0..31.' },
];

const STEPS = 1_000_000;

interface Launch {
  name: string;
  c: number[];
  start: number[];
  stop: number[];
  a: DivergenceAnalysis;
}

export const simtDivergence: Experiment = {
  id: 'simt-divergence',
  title: 'Branch divergence and reconvergence: 32-way divergent warps (WONG IV-C, Figs 7 and 8)',
  description:
    "WONG Listing 3 on the SIMT executor: each thread of a warp takes its own path of an if / else-if chain in the order of array c and stamps clock() around it. Shows paths serialised within a warp, warps overlapping, and the taken path first: with c = 0..31 thread 31 runs first.",
  reproduces: ['WONG-F7/F8'],
  params,
  estimate(_preset, raw) {
    const p = resolveParams(params, raw);
    return (p.warps as number) * 32 * 40 * (p.random ? 3 : 2);
  },
  run(preset, raw, seed, progress) {
    const p = resolveParams(params, raw);
    const warps = p.warps as number;
    const ops = p.ops as number;
    const timing = simtTiming(preset);
    const orders: [string, number[]][] = [
      ['c = 0..31', Array.from({ length: 32 }, (_, i) => i)],
      ['c = 31..0', Array.from({ length: 32 }, (_, i) => 31 - i)],
    ];
    if (p.random) {
      const rng = new Rng(Rng.derive(seed, 0x5147));
      const c = Array.from({ length: 32 }, (_, i) => i);
      for (let i = 31; i > 0; i--) {
        const j = rng.int(i + 1);
        [c[i], c[j]] = [c[j], c[i]];
      }
      orders.push(['c random', c]);
    }
    const launches: Launch[] = orders.map(([name, c], k) => {
      progress(k, orders.length, name);
      const run = runKernelText(divergenceKernel(c, ops), timing, 1, warps * 32, STEPS, 'ops');
      if (run.status !== 'finished') throw new ExperimentError(`${name}: the divergence kernel did not finish (${run.message})`);
      const start = arrayValues(run, 'start').slice(0, warps * 32);
      const stop = arrayValues(run, 'stop').slice(0, warps * 32);
      return { name, c, start, stop, a: analyseDivergence(start, stop, warps, c) };
    });
    progress(orders.length, orders.length, 'done');

    const series: Series[] = [];
    const tables: Table[] = [];
    for (const l of launches) {
      for (let w = 0; w < warps; w++)
        for (const [which, v] of [['start', l.start], ['stop', l.stop]] as const)
          series.push({
            name: `${l.name}, warp ${w} ${which}`,
            x: Float64Array.from({ length: 32 }, (_, i) => v[w * 32 + i]),
            y: Float64Array.from({ length: 32 }, (_, i) => w * 32 + i),
            xLabel: 'clock()',
            xUnit: 'cycles',
            yLabel: 'Thread',
            yUnit: '',
            style: 'scatter',
            group: `Execution timeline, ${l.name} (WONG Figs 7, 8)`,
          });
      tables.push({
        name: `Path stamps, ${l.name}`,
        columns: [
          { key: 'thread', label: 'Thread' },
          { key: 'warp', label: 'Warp' },
          { key: 'rank', label: 'Ran as path' },
          { key: 'start', label: 'Start', unit: 'cycles' },
          { key: 'stop', label: 'Stop', unit: 'cycles' },
        ],
        rows: l.start.map((s, t) => ({ thread: t, warp: t >> 5, rank: l.a.order[t >> 5].indexOf(t & 31) + 1, start: s, stop: l.stop[t] })),
      });
    }
    const [inc, dec] = launches;
    const yes = (b: boolean): string => (b ? 'yes' : 'no');
    const findings: Finding[] = [
      { key: 'divergence.serialised', label: 'Paths serialised within a warp', value: yes(launches.every((l) => l.a.serialised)), unit: '', evidence: 'in every launch and warp, each path starts after the previous one stopped (clock() stamps)' },
      {
        key: 'divergence.warpsOverlap',
        label: 'Warps overlap',
        value: inc.a.warpsOverlap === null ? 'n/a (one warp)' : yes(inc.a.warpsOverlap),
        unit: '',
        evidence: `${inc.name}: the span from each warp's first start to its last stop overlaps every other warp's`,
      },
      { key: 'divergence.increasing.first', label: 'First thread to run, c = 0..31', value: inc.a.first, unit: '', evidence: `${inc.name}: warp 0's earliest start stamp` },
      { key: 'divergence.increasing.last', label: 'Last thread to run, c = 0..31', value: inc.a.last, unit: '', evidence: `${inc.name}: warp 0's latest start stamp` },
      { key: 'divergence.decreasing.first', label: 'First thread to run, c = 31..0', value: dec.a.first, unit: '', evidence: `${dec.name}: warp 0's earliest start stamp` },
      {
        key: 'divergence.takenFirst',
        label: 'Taken (else) path first',
        value: yes(launches.every((l) => l.a.takenFirst)),
        unit: '',
        evidence: `in ${launches.map((l) => l.name).join(', ')}, every warp ran its paths in the reverse of the chain's order: c[31] first, c[0] last`,
      },
      ...launches.slice(2).map((l) => ({ key: 'divergence.random.first', label: 'First lane to run, c random', value: l.a.first, unit: '', evidence: `c = {${l.c.join(', ')}}: c[31] = ${l.c[31]}` })),
      { key: 'divergence.pathCycles', label: 'Cycles of one path', value: inc.a.pathCycles, unit: 'cycles', evidence: 'median stop - start over the paths of c = 0..31' },
      { key: 'divergence.gapCycles', label: 'Cycles between consecutive paths of a warp', value: inc.a.gapCycles, unit: 'cycles', evidence: 'median start of a path - stop of the one before (the branches and reconvergence between them)' },
    ];
    const notes = [
      `Each path: t0 = clock(); ${ops} x (x = x * 3 + 1); t1 = clock(). WONG Listing 3 gives the chain; the body and the stamps are WONG's method (IV-C1), their code assumed.`,
      `Timing (src-sim/simt/timing.ts): ${timing.sources.join('; ')}.`,
    ];
    return { series, tables, findings, notes };
  },
};
