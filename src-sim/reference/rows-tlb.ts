import { pageSizeFinding } from '../analysis/tlb';
import type { Finding, ParamValues } from '../experiments/types';
import { tlbProbes } from '../experiments/tlb-probes';
import type { Preset } from '../presets/types';
import { beside, runFor } from './rows-core';
import { calibrated, INFERRED } from './kinds';
import type { Reference, ReproductionRow, RowResult } from './types';

/** TLB rows: MEI Table 4 (TLB columns), Figs 10-11, page size, Kepler's 512 MB window; WONG Figs 13-16. */

const KB = 1024;
const MB = 1024 * KB;

type Runs = RowResult['runs'];
type Measured = Record<string, number | string>;

/** Runs the TLB probe with the given parameters and records the run. */
function probe(preset: Preset, seed: number, params: ParamValues, runs: Runs): Finding[] {
  return runFor(runs, tlbProbes.id, preset, params, seed).findings;
}

function value(findings: readonly Finding[], key: string): number | string | undefined {
  return findings.find((f) => f.key === key)?.value;
}

/** Copies findings into the measured record under the reference names. */
function take(out: Measured, findings: readonly Finding[], map: Record<string, string>): void {
  for (const [name, key] of Object.entries(map)) {
    const v = value(findings, key);
    if (v !== undefined) out[name] = v;
  }
}

const exact = (name: string, value: number | string, unit: string, citation: string): Reference => ({ name, value, unit, tolerance: 'exact', citation });
/** A latency the TLB probes measure: the preset's latency table was set from the same value. */
const latency = (name: string, value: number, citation: string): Reference => ({
  name,
  value,
  unit: 'cycles',
  tolerance: 'latency',
  citation,
  kind: calibrated("the preset's latency for this hit-and-miss combination was set from the same value"),
});

/**
 * The reference beside finding `key` of a tlb-probes run with these parameters. A probe the row runs
 * at the automatic stride is named with `stride: 0` (the parameter's default), so that a run at another
 * stride (whose entries and sets count elements at that stride) does not take the paper's value.
 */
export function onTlbProbe(ref: Reference, key: string, params: ParamValues): Reference {
  const needsStride = params.probe === 'reach' || params.probe === 'missed-entries' || params.probe === 'window';
  return beside(ref, tlbProbes.id, key, needsStride && params.stride === undefined ? { ...params, stride: 0 } : params);
}

/** The probes the rows run (with the space they probe spelt out, so that global and texture runs differ). */
const REACH: ParamValues = { probe: 'reach', space: 'global' };
const FIXED: ParamValues = { probe: 'fixed-count', space: 'global' };
const OFFSET: ParamValues = { probe: 'offset', space: 'global' };
const MISSED: ParamValues = { probe: 'missed-entries', space: 'global' };
const PAGE: ParamValues = { probe: 'page-size', space: 'global' };
const WINDOW: ParamValues = { probe: 'window', space: 'global' };
const TEX_REACH: ParamValues = { probe: 'reach', space: 'texture' };
// At 512 KB each element has its own L2 TLB line group: the L2 step shows its sets one by one.
const TEX_REACH_512: ParamValues = { probe: 'reach', space: 'texture', stride: 512 * KB };
// WONG Fig 15's method on the texture path: its L2 TLB way is 16 MB / 8 = 2 MB, so the groups
// use a 1 MB stride; 12 elements per group (24 in all) defeat the 20-way texture L1.
const TEX_OFFSET: ParamValues = { probe: 'offset', space: 'texture', groupStride: 1 * MB, groupSize: 12 };

export function tlbStructure(preset: Preset, seed: number, runs: Runs): Measured {
  const reach = probe(preset, seed, { probe: 'reach' }, runs);
  const page = probe(preset, seed, { probe: 'page-size' }, runs);
  const out: Measured = {};
  take(out, reach, {
    'L1 TLB reach': 'tlb.l1.reachBytes',
    'L1 TLB entries': 'tlb.l1.entries',
    'L1 TLB sets': 'tlb.l1.sets',
    'L1 TLB policy': 'tlb.l1.policy',
    'L2 TLB reach': 'tlb.l2.reachBytes',
    'L2 TLB policy': 'tlb.l2.policy',
  });
  take(out, page, { 'page size': 'tlb.pageBytes' });
  // L2 sets: counted directly when the reach stride is one page (each set overflows once per stride,
  // MEI Fig 11); otherwise, with equal sets, reach / (ways x page) (WONG IV-I1: 32 MB / (8 x 4 KB)).
  const l2Reach = value(reach, 'tlb.l2.reachBytes');
  const l2Entries = value(reach, 'tlb.l2.entries');
  const pageBytes = value(page, 'tlb.pageBytes');
  const sets = value(reach, 'tlb.l2.sets');
  const ways = value(reach, 'tlb.l2.ways');
  if (typeof l2Reach === 'number' && typeof l2Entries === 'number' && typeof pageBytes === 'number') {
    const stride = l2Reach / l2Entries;
    if (stride === pageBytes && sets !== undefined) out['L2 TLB sets'] = sets;
    else if (typeof ways === 'number') out['L2 TLB sets'] = l2Reach / (ways * pageBytes);
  }
  return out;
}

/**
 * The TLB structure of MEI Table 4, measured: reach, entries, sets and policy of both TLB levels and
 * the page size, every value from the analysers of the reach and page-size probes on global memory.
 */
export function measureTlbStructure(preset: Preset, seed: number): Record<string, number | string> {
  return tlbStructure(preset, seed, []);
}

export const ROWS: ReproductionRow[] = [
  {
    id: 'MEI-F10/F11',
    paper: 'MEI',
    title: 'L2 TLB sets from missed entries, s = 2 MB, N = 130..144 MB',
    presets: ['fermi', 'kepler'],
    kind: INFERRED,
    references: () => [
      onTlbProbe(exact('missed entries at 132 MB', 17, '', 'MEI 4.2, Fig 11 ("N = 132 MB causes 17 missed entries at once")'), 'tlb.l2.firstMissedEntries', MISSED),
      onTlbProbe(exact('missed entries added per 2 MB, 134..144 MB', 8, '', 'MEI 4.2, Fig 11 ("8 more missed entries each time")'), 'tlb.l2.missedEntriesPerStep', MISSED),
      onTlbProbe(exact('L2 TLB set sizes', '17,8,8,8,8,8,8', '', 'MEI Fig 10; slides "TLB" (1 big set of 17, 6 sets of 8)'), 'tlb.l2.setSizes', MISSED),
      onTlbProbe(exact('L2 TLB sets', 7, '', 'MEI Table 4 (a = 7)'), 'tlb.l2.sets', MISSED),
      onTlbProbe(exact('L2 TLB entries', 65, '', 'MEI 4.2; slides "TLB" (65 entries)'), 'tlb.l2.entries', MISSED),
      onTlbProbe(exact('L2 TLB reach', 130 * MB, 'B', 'MEI Table 4 (N = 130 MB)'), 'tlb.l2.reachBytes', MISSED),
      onTlbProbe(exact('L2 TLB policy', 'LRU', '', 'MEI Table 4 (LRU: yes)'), 'tlb.l2.policy', MISSED),
    ],
    measure(preset, seed) {
      const runs: Runs = [];
      const f = probe(preset, seed, { probe: 'missed-entries' }, runs);
      const measured: Measured = {};
      take(measured, f, {
        'missed entries at 132 MB': 'tlb.l2.firstMissedEntries',
        'missed entries added per 2 MB, 134..144 MB': 'tlb.l2.missedEntriesPerStep',
        'L2 TLB set sizes': 'tlb.l2.setSizes',
        'L2 TLB sets': 'tlb.l2.sets',
        'L2 TLB entries': 'tlb.l2.entries',
        'L2 TLB reach': 'tlb.l2.reachBytes',
        'L2 TLB policy': 'tlb.l2.policy',
      });
      return { measured, runs };
    },
  },
  {
    id: 'MEI-PAGE',
    paper: 'MEI',
    title: 'Page size (brute force)',
    presets: ['fermi', 'kepler'],
    kind: INFERRED,
    references: () => [
      onTlbProbe(exact('page size', 2 * MB, 'B', 'MEI slides "TLB" ("the page size of both Fermi and Kepler are 2 MB, by brute force experiments")'), 'tlb.pageBytes', PAGE),
      onTlbProbe(exact('L1 TLB entry coverage', 2 * MB, 'B', 'MEI Table 4 (L1 TLB b = 2 MB)'), 'tlb.l1.entryBytes', PAGE),
    ],
    measure(preset, seed) {
      const runs: Runs = [];
      const f = probe(preset, seed, { probe: 'page-size' }, runs);
      const measured: Measured = {};
      take(measured, f, { 'page size': 'tlb.pageBytes', 'L1 TLB entry coverage': 'tlb.l1.entryBytes' });
      return { measured, runs };
    },
  },
  {
    id: 'MEI-K512',
    paper: 'MEI',
    title: 'Kepler page-table activation window',
    presets: ['kepler'],
    kind: INFERRED,
    references: () => [
      onTlbProbe(exact('active page window', 512 * MB, 'B', 'MEI 4.2 ("only memory page entries of 512 MB are activated"); slides "Global memory: an overview III"'), 'tlb.window.bytes', WINDOW),
      onTlbProbe(latency('pattern 6 latency (page-table switch)', 1000, 'MEI Table 3, Kepler pattern 6'), 'tlb.window.switchLatency', WINDOW),
      onTlbProbe(latency('pattern 5 latency (data and L2 TLB miss)', 734, 'MEI Table 3, Kepler pattern 5'), 'tlb.window.belowLatency', WINDOW),
    ],
    measure(preset, seed) {
      const runs: Runs = [];
      const f = probe(preset, seed, { probe: 'window' }, runs);
      const measured: Measured = {};
      take(measured, f, {
        'active page window': 'tlb.window.bytes',
        'pattern 6 latency (page-table switch)': 'tlb.window.switchLatency',
        'pattern 5 latency (data and L2 TLB miss)': 'tlb.window.belowLatency',
      });
      return { measured, runs };
    },
  },
  {
    id: 'WONG-F13..F15',
    paper: 'WONG',
    title: 'Global memory TLBs: reach (Fig 13), 16 vs 17 elements (Fig 14), offset (Fig 15)',
    presets: ['tesla'],
    kind: INFERRED,
    references: () => [
      onTlbProbe(exact('L1 TLB reach', 8 * MB, 'B', 'WONG IV-I1, Fig 13 (8 MB L1 TLB)'), 'tlb.l1.reachBytes', REACH),
      onTlbProbe(exact('L1 TLB entries', 16, '', 'WONG IV-I1 (16 lines), Fig 14'), 'tlb.l1.entries', REACH),
      onTlbProbe(exact('L1 TLB entry coverage', 512 * KB, 'B', 'WONG IV-I1, Fig 14 (17 elements miss at 512 KB stride and up)'), 'tlb.l1.entryBytes', FIXED),
      onTlbProbe(exact('L1 TLB fully associative', 'yes', '', 'WONG IV-I1, Fig 14 (no L1 TLB hits for strides beyond 512 KB, e.g. 608, 724, 821 KB)'), 'tlb.l1.fullyAssociative', FIXED),
      onTlbProbe(exact('Fig 14: elements that always hit', 16, '', 'WONG Fig 14 (16 elements always hit the L1 TLB)'), 'tlb.l1.entries', FIXED),
      onTlbProbe(exact('Fig 14: every element misses the L2 TLB from stride', 4 * MB, 'B', 'WONG IV-I1 ("at strides beyond 4 MB ... the L2 TLB is not fully-associative")'), 'tlb.l2.fullConflictStride', FIXED),
      onTlbProbe(exact('L2 TLB reach', 32 * MB, 'B', 'WONG IV-I1, Fig 13 (32 MB L2 TLB)'), 'tlb.l2.reachBytes', REACH),
      onTlbProbe(exact('L2 TLB way size', 4 * MB, 'B', 'WONG IV-I1, Fig 13 ("the size of an L2 TLB way is 4 MB (32 to 36 MB)")'), 'tlb.l2.waySizeBytes', REACH),
      onTlbProbe(exact('L2 TLB ways', 8, '', 'WONG IV-I1 (8-way set associative)'), 'tlb.l2.ways', REACH),
      onTlbProbe(exact('L2 TLB line (Fig 15 offset)', 4 * KB, 'B', 'WONG IV-I1, Fig 15 (4 KB L2 TLB line size)'), 'tlb.l2.lineBytes', OFFSET),
      // The row derives it from its fixed-count and offset runs; the page-size probe runs the same two and reports it.
      onTlbProbe(exact('page size', 4 * KB, 'B', 'WONG Table V (4 KB translation page size), IV-I1'), 'tlb.pageBytes', PAGE),
      onTlbProbe(exact('L1 TLB policy', 'LRU', '', 'WONG Fig 13 (clean steps; assumed LRU as in MEI 3.2)'), 'tlb.l1.policy', REACH),
      onTlbProbe(latency('latency, L1 TLB hit', 440, 'WONG IV-I1, Fig 13 (~440)'), 'tlb.latency.l1Hit', REACH),
      onTlbProbe(latency('latency, L1 TLB miss, L2 TLB hit', 487, 'WONG IV-I1, Fig 13 (~487)'), 'tlb.latency.l2Hit', REACH),
      onTlbProbe(latency('latency, L2 TLB miss', 698, 'WONG IV-I1, Fig 13 (~698)'), 'tlb.latency.l2Miss', REACH),
    ],
    measure(preset, seed) {
      const runs: Runs = [];
      const reach = probe(preset, seed, { probe: 'reach' }, runs);
      const fixed = probe(preset, seed, { probe: 'fixed-count' }, runs);
      const offset = probe(preset, seed, { probe: 'offset' }, runs);
      const measured: Measured = {};
      take(measured, reach, {
        'L1 TLB reach': 'tlb.l1.reachBytes',
        'L1 TLB entries': 'tlb.l1.entries',
        'L2 TLB reach': 'tlb.l2.reachBytes',
        'L2 TLB way size': 'tlb.l2.waySizeBytes',
        'L2 TLB ways': 'tlb.l2.ways',
        'L1 TLB policy': 'tlb.l1.policy',
        'latency, L1 TLB hit': 'tlb.latency.l1Hit',
        'latency, L1 TLB miss, L2 TLB hit': 'tlb.latency.l2Hit',
        'latency, L2 TLB miss': 'tlb.latency.l2Miss',
      });
      take(measured, fixed, {
        'L1 TLB entry coverage': 'tlb.l1.entryBytes',
        'L1 TLB fully associative': 'tlb.l1.fullyAssociative',
        'Fig 14: elements that always hit': 'tlb.l1.entries',
        'Fig 14: every element misses the L2 TLB from stride': 'tlb.l2.fullConflictStride',
      });
      take(measured, offset, { 'L2 TLB line (Fig 15 offset)': 'tlb.l2.lineBytes' });
      const l1 = value(fixed, 'tlb.l1.entryBytes');
      const line = value(offset, 'tlb.l2.lineBytes');
      const page = pageSizeFinding(typeof l1 === 'number' ? l1 : null, typeof line === 'number' ? line : null);
      if (page) measured['page size'] = page.value;
      return { measured, runs };
    },
  },
  {
    id: 'WONG-F16',
    paper: 'WONG',
    title: 'Texture memory TLBs (256 KB stride; 512 KB for the L2 way count)',
    presets: ['tesla'],
    kind: INFERRED,
    references: () => [
      onTlbProbe(exact('L1 TLB reach', 8 * MB, 'B', 'WONG IV-I2, Fig 16 (8 MB fully associative L1 TLB)'), 'tlb.l1.reachBytes', TEX_REACH),
      onTlbProbe(exact('L1 TLB entries', 16, '', 'WONG IV-I2 (16-way fully associative)'), 'tlb.l1.entries', TEX_REACH),
      onTlbProbe(exact('L1 TLB entry coverage', 512 * KB, 'B', 'WONG IV-I2 (each line holding translations for 512 KB)'), 'tlb.l1.entryBytes', TEX_REACH),
      onTlbProbe(exact('L2 TLB reach', 16 * MB, 'B', 'WONG IV-I2, Fig 16 (16 MB L2 TLB)'), 'tlb.l2.reachBytes', TEX_REACH),
      onTlbProbe(exact('L2 TLB ways', 8, '', 'WONG IV-I2, Fig 16 (8-way)'), 'tlb.l2.ways', TEX_REACH_512),
      onTlbProbe(exact('L2 TLB line', 4 * KB, 'B', 'WONG IV-I2 (line size of 4 KB), Table V'), 'tlb.l2.lineBytes', TEX_OFFSET),
      // The preset's memory/l1 latency is 499 (WONG IV-H1, Table V); WONG IV-I2 quotes 497 for the same
      // access at 512 KB stride. Both are the paper's; the check uses IV-I2's 497 within 5 %.
      onTlbProbe(latency('latency, TLB hit', 497, 'WONG IV-I2 (497 at 512 KB stride; 499 in IV-H1)'), 'tlb.latency.l1Hit', TEX_REACH),
      onTlbProbe(latency('latency, L1 TLB miss', 544, 'WONG IV-I2, Fig 16 caption (544)'), 'tlb.latency.l2Hit', TEX_REACH),
      onTlbProbe(latency('latency, L2 TLB miss', 753, 'WONG IV-I2, Fig 16 caption (753)'), 'tlb.latency.l2Miss', TEX_REACH),
    ],
    measure(preset, seed) {
      const runs: Runs = [];
      const reach = probe(preset, seed, TEX_REACH, runs);
      const reach512 = probe(preset, seed, TEX_REACH_512, runs);
      const offset = probe(preset, seed, TEX_OFFSET, runs);
      const measured: Measured = {};
      take(measured, reach, {
        'L1 TLB reach': 'tlb.l1.reachBytes',
        'L1 TLB entries': 'tlb.l1.entries',
        'L1 TLB entry coverage': 'tlb.l1.entryBytes',
        'L2 TLB reach': 'tlb.l2.reachBytes',
        'latency, TLB hit': 'tlb.latency.l1Hit',
        'latency, L1 TLB miss': 'tlb.latency.l2Hit',
        'latency, L2 TLB miss': 'tlb.latency.l2Miss',
      });
      take(measured, reach512, { 'L2 TLB ways': 'tlb.l2.ways' });
      take(measured, offset, { 'L2 TLB line': 'tlb.l2.lineBytes' });
      return { measured, runs };
    },
  },
];
