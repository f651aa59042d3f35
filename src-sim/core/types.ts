/**
 * Preset.core: the GT200 SM's execution core as WONG measured it (Tables II-IV, Figs 6, 9, 19, 22-24).
 * Plain data; the models in this folder read it, the analysers never do.
 */

/** The pipelines an operation can run on; 'routine' is a multi-instruction sequence (a "-" in WONG's tables). */
export type CoreUnitId = 'sp' | 'sfu' | 'dpu';
export type CoreOpUnit = CoreUnitId | 'sp+sfu' | 'routine';

/** One execution unit type of an SM (WONG Table II). */
export interface CoreUnit {
  /** Units of this type per SM. */
  count: number;
  /** Dependent-operation latency, cycles. */
  latency: number;
  /** Peak operations per cycle per SM (a warp of 32 then occupies the unit 32 / throughput cycles). */
  throughput: number;
}

/** One row of WONG Table III or IV: an operation, where it runs, its latency and throughput. */
export interface CoreOp {
  /** Stable id, e.g. "int.mul" or "__sinf". */
  id: string;
  /** The operations of the row, as the table writes them ("add, sub, max, min"). */
  label: string;
  /** Operand type(s) of the row ("uint, int", "float", "double"). */
  type: string;
  table: 'III' | 'IV';
  unit: CoreOpUnit;
  /** Native instructions the operation compiles to (1 for most; 4 for 32-bit integer mul, 5 for mad). */
  instructions: number;
  /** Latency of one operation in a dependent chain, cycles. */
  latency: number;
  /** Operations per cycle per SM with many warps. */
  throughput: number;
}

export interface CoreConfig {
  scheduler: {
    /** Threads per warp. */
    warpSize: number;
    /** Cycles between two warp instructions the scheduler issues (to any unit). */
    issueCycles: number;
    /**
     * Cycles by which an SP result's write-back is held back when the SP pipeline accepted an
     * instruction at every opportunity since the instruction issued (no idle moment): the reason,
     * assumed, that six and seven warps do not fill the pipeline (WONG Fig 6).
     */
    busyWritebackDelay: number;
  };
  units: Record<CoreUnitId, CoreUnit> & { sfu: CoreUnit & { mulThroughput: number } };
  ops: CoreOp[];
  regfile: {
    /** 32-bit registers per SM. */
    registers: number;
    /** Logical banks: each thread's registers live in one bank, so threads are placed in multiples of this. */
    banks: number;
    /** Registers per thread are allocated in multiples of this. */
    regGranularity: number;
    maxRegsPerThread: number;
    maxThreadsPerBlock: number;
    /** Bytes of registers one block may use. */
    maxBytesPerBlock: number;
  };
  icache: {
    /** Bytes the SM fetches from the instruction L1 at a time. */
    fetchBytes: number;
    /** Bytes per native instruction. */
    instructionBytes: number;
    /** Lines the fetch unit requests ahead of the line it executes from (sequential, following the loop branch). */
    prefetchLines: number;
  };
  /** Constant L3 read bandwidth (WONG Fig 19). */
  constantL3: {
    /** Bytes per cycle one SM can fetch from the L3, whatever the demand of its block. */
    bytesPerCyclePerSM: number;
    /** Bytes per cycle the L3 delivers to all SMs together. */
    bytesPerCycleTotal: number;
  };
}
