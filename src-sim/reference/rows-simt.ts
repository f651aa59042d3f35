import type { ParamValues } from '../experiments/types';
import { beside, finding, runFor } from './rows-core';
import { calibrated, PREDICTED, withKind } from './kinds';
import type { Reference, ReproductionRow, RowResult } from './types';

/**
 * WONG's control-flow rows on the Tesla preset, measured on the SIMT executor (src-sim/simt/):
 * branch divergence and reconvergence (IV-C, Figs 7 and 8) and __syncthreads() at warp granularity
 * (IV-C3, IV-D, Listings 4 to 7). Every measured value is a finding of the experiment's run: the
 * divergence findings come from the kernel's clock() stamps, the barrier findings from the run's
 * end state, barrier releases and final memory.
 */

type Measured = Record<string, number | string>;

const exact = (name: string, value: number | string, unit: string, citation: string): Reference => ({ name, value, unit, tolerance: 'exact', citation });

/** Fig 7's launch: two warps; Listing 3's paths of four dependent operations; c = 0..31 and 31..0. */
const DIVERGENCE: ParamValues = { warps: 2, ops: 4, random: true };

const DIV_REFS: [Reference, string][] = [
  [exact('paths serialised within a warp', 'yes', '', 'WONG IV-C1, Fig 7 (within a single warp, each path is executed serially)'), 'divergence.serialised'],
  [exact('warps overlap', 'yes', '', 'WONG IV-C1, Fig 7 (the execution of different warps may overlap)'), 'divergence.warpsOverlap'],
  [exact('first thread, c = 0..31', 31, '', 'WONG IV-C2, Fig 8 (c = {0, 1, ..., 31}: thread 31 is the first thread to execute)'), 'divergence.increasing.first'],
  [exact('last thread, c = 0..31', 0, '', 'WONG IV-C2 (the first then-clause, if (tid == c[0]), is executed last)'), 'divergence.increasing.last'],
  [exact('first thread, c = 31..0', 0, '', 'WONG IV-C2 (c decreasing: thread 0 is the first to execute; thread id does not affect the order)'), 'divergence.decreasing.first'],
  [withKind(exact('taken path first', 'yes', '', 'WONG IV-C2 (when a warp reaches a conditional branch, the taken path is always executed first)'), calibrated('the SIMT executor pushes the taken path first by construction, after this statement')), 'divergence.takenFirst'],
];

const WONG_F7: ReproductionRow = {
  id: 'WONG-F7/F8',
  paper: 'WONG',
  title: 'Branch divergence: paths serialised within a warp, warps overlap, the taken path first (WONG IV-C, Figs 7 and 8)',
  presets: ['tesla'],
  kind: PREDICTED,
  references: () => DIV_REFS.map(([ref, key]) => beside(ref, 'simt-divergence', key, DIVERGENCE)),
  measure(preset, seed) {
    const runs: RowResult['runs'] = [];
    const r = runFor(runs, 'simt-divergence', preset, DIVERGENCE, seed);
    const out: Measured = {};
    for (const [ref, key] of DIV_REFS) {
      const v = finding(r, key);
      if (v !== undefined) out[ref.name] = v;
    }
    return { measured: out, runs };
  },
};

const SYNC: ParamValues = { steps: 100_000 };

const SYNC_REFS: [Reference, string][] = [
  [exact('Listing 4 deadlocks', 'yes', '', 'WONG IV-C3, Listing 4 (this causes deadlock as these threads can never reach the reconvergence point)'), 'sync.listing4.deadlock'],
  [exact('Listing 5 deadlocks', 'no', '', 'WONG IV-D1, Listing 5 (we observe that there is no deadlock)'), 'sync.listing5.deadlock'],
  [
    exact('Listing 5 stale reads', 16, 'reads', 'WONG IV-D1, Listing 5 (the second half of the warp, 16 threads, does not read the updated values in shared_array)'),
    'sync.listing5.staleReads',
  ],
  [exact('Listing 6 deadlocks', 'yes', '', 'WONG IV-D2, Listing 6 (the second warp spins waiting for data generated after the __syncthreads() by the first)'), 'sync.listing6.deadlock'],
  [exact('Listing 7 deadlocks', 'no', '', 'WONG IV-D2, Listing 7 (barrier 2 meets 3 and 1 meets 4: all four are released, no deadlock)'), 'sync.listing7.deadlock'],
  [exact('Listing 7 barrier pairs', '2+3, 1+4', '', 'WONG IV-D2, Listing 7 (the second __syncthreads() synchronises with the third, and the first with the fourth)'), 'sync.listing7.pairs'],
];

const WONG_SYNC: ReproductionRow = {
  id: 'WONG-SYNC',
  paper: 'WONG',
  title: '__syncthreads() at warp granularity: Listings 4 and 6 deadlock, 5 reads stale values, 7 pairs barriers 2-3 and 1-4 (WONG IV-C3, IV-D)',
  presets: ['tesla'],
  kind: PREDICTED,
  references: () => SYNC_REFS.map(([ref, key]) => beside(ref, 'simt-sync', key, SYNC)),
  measure(preset, seed) {
    const runs: RowResult['runs'] = [];
    const r = runFor(runs, 'simt-sync', preset, SYNC, seed);
    const out: Measured = {};
    for (const [ref, key] of SYNC_REFS) {
      const v = finding(r, key);
      if (v !== undefined) out[ref.name] = v;
    }
    return { measured: out, runs };
  },
};

export const ROWS: ReproductionRow[] = [WONG_F7, WONG_SYNC];
