import type { Preset } from '../presets/types';

/**
 * The SIMT executor's timing model, in one place so that a core model can replace it.
 *
 *  - Each block runs on its own SM; an SM issues one warp instruction at a time, round-robin over
 *    its ready warps. An instruction of k operations (each operator, load, store, cast and clock()
 *    read counts one; a plain move or branch counts one) holds the SM's issue port for
 *    k x issueCycles (WONG Table II: 4 cycles per warp on GT200's 8 SPs).
 *  - The operations of one instruction form a dependent chain: the warp may issue again
 *    k x aluLatency cycles after the instruction issued (WONG Table II: SP 24 cycles); an
 *    instruction that reads clock() takes clockLatency for that read (WONG IV-A: 28 cycles).
 *  - clock() returns the SM's cycle at issue, as the counter WONG IV-A describes: half the shader
 *    clock, shifted left by one (always even).
 *  - __syncthreads() costs aluLatency after its release (assumed: WONG IV-D's 20 cycles for a
 *    single warp is not a preset field).
 *  - Memory (shared and global) is not timed here: a load or store is one operation like an add.
 *    The latency tier and the timing tier model memory.
 */
export interface SimtTiming {
  issueCycles: number;
  aluLatency: number;
  clockLatency: number;
  syncLatency: number;
  /** Where each number comes from (for the run's notes). */
  sources: string[];
}

/** The timing the executor uses on a preset. */
export function simtTiming(preset: Preset): SimtTiming {
  const issue = preset.alu.issueCycles;
  return {
    issueCycles: issue ?? 1,
    aluLatency: preset.alu.spLatency,
    clockLatency: preset.measurement.clockOverhead,
    syncLatency: preset.alu.spLatency,
    sources: [
      issue === undefined
        ? `${preset.name} gives no issue rate (alu.issueCycles): one cycle per warp instruction assumed`
        : `issue: ${issue} cycles per warp operation (preset alu.issueCycles)`,
      `dependent operation: ${preset.alu.spLatency} cycles (preset alu.spLatency)`,
      `clock() read: ${preset.measurement.clockOverhead} cycles (preset measurement.clockOverhead)`,
      `__syncthreads(): ${preset.alu.spLatency} cycles after release (assumed: the SP latency)`,
    ],
  };
}

/** Issue-port cycles an instruction of `ops` operations holds. */
export function issueCost(t: SimtTiming, ops: number): number {
  return ops * t.issueCycles;
}

/** Cycles after issue before the same warp may issue again. */
export function latencyOf(t: SimtTiming, ops: number, readsClock: boolean): number {
  return readsClock ? (ops - 1) * t.aluLatency + t.clockLatency : ops * t.aluLatency;
}

/** What clock() returns at an SM cycle: a counter at half the shader clock, shifted left by one (WONG IV-A). */
export function clockReading(cycle: number): number {
  return 2 * Math.floor(cycle / 2);
}
