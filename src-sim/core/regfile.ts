import type { CoreConfig } from './types';

/**
 * WONG IV-E, Fig 9: whether a block of `threads` threads using `regs` registers each launches. Each
 * thread's registers live in one of `banks` logical banks of equal size, so a bank holds
 * floor(registers / banks / r) threads (r: regs rounded up to `regGranularity`) and a block holds at
 * most `banks` times that: threads are placed in multiples of 64 when registers limit them.
 */
export type LaunchFailure = 'registers per thread' | 'threads per block' | 'register bytes per block' | 'register file';

export interface LaunchOutcome {
  ok: boolean;
  failure?: LaunchFailure;
  /** Registers the block holds (after rounding), when it launches. */
  registersUsed: number;
}

export function launchBlock(rf: CoreConfig['regfile'], regs: number, threads: number): LaunchOutcome {
  if (regs > rf.maxRegsPerThread) return { ok: false, failure: 'registers per thread', registersUsed: 0 };
  if (threads > rf.maxThreadsPerBlock) return { ok: false, failure: 'threads per block', registersUsed: 0 };
  const r = Math.max(rf.regGranularity, Math.ceil(regs / rf.regGranularity) * rf.regGranularity);
  if (r * threads * 4 > rf.maxBytesPerBlock) return { ok: false, failure: 'register bytes per block', registersUsed: 0 };
  const perBank = Math.floor(rf.registers / rf.banks / r);
  if (Math.ceil(threads / rf.banks) > perBank) return { ok: false, failure: 'register file', registersUsed: 0 };
  return { ok: true, registersUsed: r * threads };
}

/** The largest block that launches with `regs` registers per thread (0: none), trying every size up to `tryUpTo` as a microbenchmark would. */
export function maxThreads(rf: CoreConfig['regfile'], regs: number, tryUpTo: number): { threads: number; failure?: LaunchFailure } {
  let failure: LaunchFailure | undefined;
  for (let t = tryUpTo; t >= 1; t--) {
    const o = launchBlock(rf, regs, t);
    if (o.ok) return { threads: t, failure };
    if (failure === undefined || o.failure === 'registers per thread') failure = o.failure;
  }
  return { threads: 0, failure };
}
