import type { KernelExample } from '../simt/examples';
import { findExample } from '../simt/examples';
import type { SimtRun } from '../simt/executor';
import { arrayValues } from '../simt/executor';
import { barrierTable, eventsTable, pairings, timelineSeries, warpsTable } from '../simt/report';
import { simtTiming } from '../simt/timing';
import { resolveParams } from './params';
import { runKernelText } from './simt-kernel';
import type { Experiment, Finding, ParamSpec, Series, Table } from './types';

/**
 * WONG IV-C3 and IV-D: Listings 4 to 7 (src-sim/simt/examples.ts) on the SIMT executor, each with
 * the launch the paper describes. Reports, from each run's end state, barrier releases and final
 * memory: Listing 4 deadlocks (a spin lock under SIMT); Listing 5 does not, and the consumers read
 * shared values before the producers wrote them (__syncthreads() does not separate the diverged
 * halves of one warp); Listing 6 deadlocks (a warp spins while the other waits at the barrier);
 * Listing 7's barriers meet as 2 with 3 and 1 with 4.
 */

const params: ParamSpec[] = [
  { name: 'steps', label: 'Step budget', unit: 'warp instructions', kind: 'integer', default: 100_000, min: 1_000, max: 5_000_000, description: 'Warp instructions each listing may issue before it stops.' },
];

const LISTINGS = ['listing4', 'listing5', 'listing6', 'listing7'] as const;

export const simtSync: Experiment = {
  id: 'simt-sync',
  title: '__syncthreads() at warp granularity and SIMT deadlocks (WONG IV-C3, IV-D, Listings 4-7)',
  description:
    "Runs WONG's Listings 4 to 7 on the SIMT executor and reports which deadlock, which read stale values and which __syncthreads() calls meet: Listing 4 and 6 deadlock, Listing 5 passes and reads stale values, Listing 7 pairs barrier 2 with 3 and 1 with 4.",
  reproduces: ['WONG-SYNC'],
  params,
  estimate(_preset, raw) {
    return 4 * (resolveParams(params, raw).steps as number);
  },
  run(preset, raw, _seed, progress) {
    const p = resolveParams(params, raw);
    const timing = simtTiming(preset);
    const runs = new Map<string, { ex: KernelExample; run: SimtRun }>();
    LISTINGS.forEach((id, k) => {
      progress(k, LISTINGS.length, id);
      const ex = findExample(id) as KernelExample;
      runs.set(id, { ex, run: runKernelText(ex.source, timing, ex.blocks, ex.threadsPerBlock, p.steps as number, 'steps') });
    });
    progress(LISTINGS.length, LISTINGS.length, 'done');
    const get = (id: string): SimtRun => (runs.get(id) as { run: SimtRun }).run;
    const yes = (b: boolean): string => (b ? 'yes' : 'no');
    const number = (id: string): string => id.replace('listing', 'Listing ');

    const l5 = get('listing5');
    const out5 = arrayValues(l5, 'output').slice(16);
    const wanted = out5.map((_, i) => i);
    const fresh = out5.filter((v, i) => v === wanted[i]).length;
    const findings: Finding[] = [];
    for (const id of LISTINGS) {
      const r = get(id);
      findings.push({ key: `sync.${id}.deadlock`, label: `${number(id)}: deadlock`, value: yes(r.status === 'deadlock'), unit: '', evidence: r.message });
    }
    findings.push(
      {
        key: 'sync.listing5.staleReads',
        label: 'Listing 5: reads of shared_array before the producers wrote it',
        value: l5.staleReads,
        unit: 'reads',
        evidence: `the consumer half (else, the taken path) ran first; output[16..31] = ${out5.join(', ')} where the producers write ${wanted.join(', ')} (${fresh} of 16 match)`,
      },
      {
        key: 'sync.listing7.pairs',
        label: 'Listing 7: barriers met, per release',
        value: pairings(get('listing7')),
        unit: '',
        evidence: get('listing7').barriers.map((b) => b.arrivals.map((a) => `warp ${a.warp} at [${a.site}]`).join(' with ')).join('; then '),
      },
    );

    const series: Series[] = [];
    const tables: Table[] = [];
    for (const id of LISTINGS) {
      const run = get(id);
      series.push(...timelineSeries(run, `${number(id)} timeline`, `${number(id)}: `));
      // The events with their source positions: the workbench draws each listing's per-warp timeline from them.
      tables.push(eventsTable(run, `${number(id)}: timeline events`));
      tables.push(warpsTable(run, `${number(id)}: warps at the end`));
      if (run.barriers.length) tables.push(barrierTable(run, `${number(id)}: barrier releases`));
    }
    const notes = [
      ...LISTINGS.map((id) => {
        const { ex, run } = runs.get(id) as { ex: KernelExample; run: SimtRun };
        return `${number(id)} (${ex.blocks} block of ${ex.threadsPerBlock} threads): ${run.message}`;
      }),
      'Listings 6 and 7 name warps "warp0" and "warp1"; the texts use warpId == 0 and warpId == 1. Barriers are numbered in source order ([1] is the first __syncthreads() of the text), as Listing 7 numbers them.',
      `Timing (src-sim/simt/timing.ts): ${timing.sources.join('; ')}.`,
    ];
    return { series, tables, findings, notes };
  },
};
