/**
 * The timing tier's perturbation plan: whole-GPU simulations of seconds to a minute each, so each row
 * is perturbed in the numbers its citations share and the caps (bandwidths and latencies), and the
 * costliest studies (LASH-F7, LASH-F1, SL1's application study) in their caps alone.
 */
import type { PerturbOptions } from '../../src-sim/reference/perturb';

/** Bandwidth and latency caps of the timing tier. */
export const CAPS = /^timing\.(dram\.bytesPerCycle|dram\.latency|l1\.hitLatency|l2\.hitLatency|l2\.bytesPerCycle|interconnect\.bytesPerCyclePerSM|interconnect\.bytesPerCycleTotal|interconnect\.latency|shared\.bytesPerCycle)$/;

export const CITED_AND_CAPS: PerturbOptions = { citedAndCaps: CAPS, recordReads: false };

/** The two caps a memory-bound study is most likely to follow: DRAM bandwidth and the L2's latency. */
export const MAIN_CAPS: PerturbOptions = { only: ['timing.dram.bytesPerCycle', 'timing.l2.hitLatency'], recordReads: false };
