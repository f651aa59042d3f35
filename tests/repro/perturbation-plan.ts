/**
 * Which rows the perturbation suites run, on which presets, trying which numbers
 * (REPRODUCTION.md, "Kinds are proven, not declared"). The latency tier tries every number a row
 * reads whose provenance shares a source with a check's citation or that a check could read back,
 * and the others it reads where their runs fit in 15 s (a seeded sample of at least 12 where they
 * do not). The timing tier's whole-GPU simulations take seconds to a minute a run: each row tries
 * the numbers its citations share and the caps (bandwidths and latencies), and the costliest studies
 * (LASH-F7, LASH-F1, SL1's application study) their main caps alone. A unit test
 * (tests/unit/perturbation-plan.test.ts) holds every row with predicted or recovered checks to a
 * place in this plan.
 */
import { REPRODUCTION_ROWS } from '../../src-sim/reference';
import type { PerturbOptions } from '../../src-sim/reference/perturb';

export interface PerturbGroup {
  /** Row ids perturbed together on one preset (rows that share runs simulate them once). */
  rows: string[];
  /** The preset; default the first row's first. */
  preset?: string;
  opts: PerturbOptions;
}

/** Bandwidth and latency caps of the timing tier. */
export const CAPS = /^timing\.(dram\.bytesPerCycle|dram\.latency|l1\.hitLatency|l2\.hitLatency|l2\.bytesPerCycle|interconnect\.bytesPerCyclePerSM|interconnect\.bytesPerCycleTotal|interconnect\.latency|shared\.bytesPerCycle)$/;

const CITED_AND_CAPS: PerturbOptions = { citedAndCaps: CAPS, recordReads: false };

/** The two caps a memory-bound study is most likely to follow: DRAM bandwidth and the L2's latency. */
const MAIN_CAPS: PerturbOptions = { only: ['timing.dram.bytesPerCycle', 'timing.l2.hitLatency'], recordReads: false };

/** One group per (row, preset) of the rows `ids` name, on every preset each row's paper measured. */
function eachRowPreset(ids: string[], opts: PerturbOptions): PerturbGroup[] {
  return ids.flatMap((id) => (REPRODUCTION_ROWS.find((r) => r.id === id)?.presets ?? []).map((preset) => ({ rows: [id], preset, opts })));
}

const LATENCY_TIER = ['MEI', 'WONG', 'JIA18', 'JIA19', 'ABD22', 'LUO24', 'H100', 'H200'];

/** The suites, each a test file that runs beside the others. */
export const PLAN: Record<string, PerturbGroup[]> = {
  latency: eachRowPreset(
    REPRODUCTION_ROWS.filter((r) => LATENCY_TIER.includes(r.paper)).map((r) => r.id),
    { sample: 12, budgetMs: 15_000 },
  ),
  lash: [
    { rows: ['LASH-MLP'], opts: CITED_AND_CAPS },
    { rows: ['LASH-F4', 'LASH-F5', 'LASH-F6'], opts: CITED_AND_CAPS },
    { rows: ['LASH-280'], opts: CITED_AND_CAPS },
  ],
  'lash-studies': [
    { rows: ['LASH-F7'], opts: MAIN_CAPS },
    { rows: ['LASH-F1'], opts: MAIN_CAPS },
  ],
  sl1: [
    { rows: ['SL1-F1'], opts: CITED_AND_CAPS },
    { rows: ['SL1-F5', 'SL1-F6', 'SL1-SHM'], opts: CITED_AND_CAPS },
    { rows: ['SL1-F7', 'SL1-F8', 'SL1-F9', 'SL1-F12', 'SL1-F13'], opts: MAIN_CAPS },
  ],
};
