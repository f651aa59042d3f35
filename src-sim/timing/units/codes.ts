import * as C from '../compile';
import { INVALID, RESERVED, VALID } from '../tcache';

/**
 * Codes and sizes the timing units share: event, packet, LSU group and warp kinds, stall reasons.
 *
 * Module-local copies of compile.ts's codes: an imported binding may be read through a getter by
 * some loaders (tsx, vitest), which cost a third of the run time in the hot loop. Each unit copies
 * what it reads in its own hot loop into module constants for the same reason.
 */
export const OP_ALU: number = C.OP_ALU;
export const OP_LD: number = C.OP_LD;
export const OP_ST: number = C.OP_ST;
export const OP_SYNC: number = C.OP_SYNC;
export const OP_LOOP: number = C.OP_LOOP;
export const OP_ENDLOOP: number = C.OP_ENDLOOP;
export const OP_EXIT: number = C.OP_EXIT;
export const VAR_TID: number = C.VAR_TID;
export const VAR_BID: number = C.VAR_BID;
export const VAR_GTID: number = C.VAR_GTID;
export const VAR_BDIM: number = C.VAR_BDIM;
export const VAR_GDIM: number = C.VAR_GDIM;
export const VAR_LOOP: number = C.VAR_LOOP;
export const T_VALID: number = VALID;
export const T_RESERVED: number = RESERVED;
export const T_INVALID: number = INVALID;

/** dramReturn: DRAM reports a write-back of slice s (nothing waits for it) as WB_TAG - s. */
export const WB_TAG = -(2 ** 30);

// Event kinds.
export const EV_L2_ARRIVE = 0;
/** interconnect.l2Input: a request reaches the network's buffers at its slice. */
export const EV_NET_ARRIVE = 1;
export const EV_DRAM_FILL = 2;
export const EV_SM_ARRIVE = 3;

// Packet kinds.
export const PK_L1FILL = 0;
export const PK_READ = 1;
export const PK_STORE = 2;

// LSU group kinds.
export const G_L1LD = 0;
export const G_READ = 1;
export const G_ST = 2;
export const G_SHARED = 3;

// Warp states.
export const W_FREE = 0;
export const W_ACTIVE = 1;
export const W_BARRIER = 2;
export const W_DONE = 3;

// Stall reasons (indices into STALL_REASONS).
export const S_NOMERGER = 0;
export const S_NOMSHRLINE = 1;
export const S_NOCACHELINE = 2;
export const S_COALESCING = 3;
/** A full L1 miss queue (missQueue; not one of LASH's reasons, reported as stats.missQueueStalls). */
export const S_MISSQUEUE = 4;

/** Registers per warp in the scoreboard (compile.ts allows 0..61 plus the hidden one). */
export const R = 64;
/** LSU groups one instruction may produce. */
export const GMAX = 256;
/** The widest load or store of one thread (SL1 3.1: 16 B): S-L1 lines move in pieces of this. */
export const SL1_ACCESS_BYTES = 16;
/** Bytes of a read request's header on the interconnect (assumed: one 8 B flit). */
export const REQUEST_BYTES = 8;

export function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
