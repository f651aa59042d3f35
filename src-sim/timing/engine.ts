import type { AddressMap } from './addrmap';
import { addrMapSet, addrMapSlice, makeAddressMap } from './addrmap';
import type { CInstr, CompiledIndex, CompiledKernel } from './compile';
import * as C from './compile';
import { compileKernel, layoutArrays } from './compile';
import { DramModel } from './dram';
import { EventQueue } from './events';
import { grown, grownFreeStack, grownRing } from './pool';
import { FERMI_HASH_SETS, fermiHashFits, fermiHashSetFn, INVALID, RESERVED, TagArray, VALID } from './tcache';
import type { Kernel, StallReason, TimingConfig, TimingOptions, TimingStats } from './types';
import { L1_ALLOCATE_POLICIES, schedulerOf, STALL_REASONS } from './types';

/**
 * The timing tier's cycle-level engine. One call runs kernels one after another on a GPU
 * described by a TimingConfig; caches stay warm from one launch to the next.
 *
 * Per SM: warp slots, `schedulers` warp schedulers (loose round-robin or greedy-then-oldest), a
 * register scoreboard, one LSU that serves one coalesced group every lsuCycles, an L1 with LASH IV's miss
 * handling (reserved lines, MSHR entries with merger fields), a shared-memory pipe, and S-L1 (software
 * lines per thread in shared memory, SL1 3.2.3). Below: an interconnect with latency and per-SM and
 * total bandwidth in both directions, L2 slices with their own MSHRs, DRAM channels with latency and
 * bandwidth. Cycles where nothing can happen are skipped to the next event. See docs/TIMING.md.
 */

// Module-local copies of compile.ts's codes: an imported binding may be read through a getter by
// some loaders (tsx, vitest), which cost a third of the run time in the hot loop.
const OP_ALU: number = C.OP_ALU;
const OP_LD: number = C.OP_LD;
const OP_ST: number = C.OP_ST;
const OP_SYNC: number = C.OP_SYNC;
const OP_LOOP: number = C.OP_LOOP;
const OP_ENDLOOP: number = C.OP_ENDLOOP;
const OP_EXIT: number = C.OP_EXIT;
const VAR_TID: number = C.VAR_TID;
const VAR_BID: number = C.VAR_BID;
const VAR_GTID: number = C.VAR_GTID;
const VAR_BDIM: number = C.VAR_BDIM;
const VAR_GDIM: number = C.VAR_GDIM;
const VAR_LOOP: number = C.VAR_LOOP;
const T_VALID: number = VALID;
const T_RESERVED: number = RESERVED;
const T_INVALID: number = INVALID;
/** dramReturn: DRAM reports a write-back of slice s (nothing waits for it) as WB_TAG - s. */
const WB_TAG = -(2 ** 30);

// Event kinds.
const EV_L2_ARRIVE = 0;
const EV_DRAM_FILL = 2;
const EV_SM_ARRIVE = 3;
/** interconnect.l2Input: a request reaches the network's buffers at its slice. */
const EV_NET_ARRIVE = 1;

// Packet kinds.
const PK_L1FILL = 0;
const PK_READ = 1;
const PK_STORE = 2;

// LSU group kinds.
const G_L1LD = 0;
const G_READ = 1;
const G_ST = 2;
const G_SHARED = 3;

// Warp states.
const W_FREE = 0;
const W_ACTIVE = 1;
const W_BARRIER = 2;
const W_DONE = 3;

// Stall reasons (indices into STALL_REASONS).
const S_NOMERGER = 0;
const S_NOMSHRLINE = 1;
const S_NOCACHELINE = 2;
const S_COALESCING = 3;
/** A full L1 miss queue (missQueue; not one of LASH's reasons, reported as stats.missQueueStalls). */
const S_MISSQUEUE = 4;

/** Registers per warp in the scoreboard (compile.ts allows 0..61 plus the hidden one). */
const R = 64;
/** LSU groups one instruction may produce. */
const GMAX = 256;
/** The widest load or store of one thread (SL1 3.1: 16 B): S-L1 lines move in pieces of this. */
const SL1_ACCESS_BYTES = 16;
/** Bytes of a read request's header on the interconnect (assumed: one 8 B flit). */
const REQUEST_BYTES = 8;

export const DEFAULT_TIMING_OPTIONS: TimingOptions = { l1: 'hw', scheduler: 'gto', epochCycles: 1000, maxCycles: 2e8, seed: 1 };

/** Checks a TimingConfig for values the engine cannot run with; returns messages (empty: fine). */
export function checkTimingConfig(c: TimingConfig): string[] {
  const out: string[] = [];
  const pos = (v: number, name: string): void => {
    if (!(v > 0) || !Number.isFinite(v)) out.push(`${name} must be positive (got ${v})`);
  };
  const int = (v: number, name: string): void => {
    if (!Number.isInteger(v) || v < 1) out.push(`${name} must be a positive whole number (got ${v})`);
  };
  const pow2 = (v: number, name: string): void => {
    if (!(v > 0 && Number.isInteger(Math.log2(v)))) out.push(`${name} must be a power of two (got ${v})`);
  };
  int(c.sms, 'sms');
  int(c.maxWarpsPerSM, 'maxWarpsPerSM');
  int(c.maxThreadsPerSM, 'maxThreadsPerSM');
  int(c.maxBlocksPerSM, 'maxBlocksPerSM');
  int(c.schedulers, 'schedulers');
  pos(c.aluLatency, 'aluLatency');
  if (c.issueCycles !== undefined) int(c.issueCycles, 'issueCycles');
  if (c.memCollectors !== undefined) {
    int(c.memCollectors, 'memCollectors');
    if (c.memQueue !== undefined && c.memQueue > 0 && c.memQueue < c.memCollectors + 2) out.push(`memCollectors needs memQueue >= memCollectors + 2 (ID_OC_MEM, the units, OC_EX_MEM; got ${c.memQueue})`);
  }
  if (c.lsuCycles !== undefined) int(c.lsuCycles, 'lsuCycles');
  pow2(c.coalesceBytes, 'coalesceBytes');
  pow2(c.bypassBytes, 'bypassBytes');
  if (c.bypassBytes > c.coalesceBytes) out.push('bypassBytes must not exceed coalesceBytes');
  if (c.coalesceBytes / c.bypassBytes > 30) out.push('coalesceBytes / bypassBytes must be at most 30');
  for (const [name, cc] of [['l1', c.l1], ['l2', c.l2]] as const) {
    if (!cc) continue;
    int(cc.sets, `${name}.sets`);
    int(cc.ways, `${name}.ways`);
    pow2(cc.lineBytes, `${name}.lineBytes`);
    int(cc.mshrEntries, `${name}.mshrEntries`);
    int(cc.mshrMergers, `${name}.mshrMergers`);
    if (!(cc.hitLatency >= 0)) out.push(`${name}.hitLatency must be >= 0`);
    if (cc.setIndex === 'fermi-hash' && name === 'l2') out.push('l2.setIndex: the Fermi hash is an L1 set function (the L2 places lines with l2.addressMap)');
    if (cc.allocate !== undefined && name === 'l2') out.push("l2.allocate: the allocation policy is an L1 setting (the L2 reserves on miss)");
    if (cc.allocate !== undefined && !L1_ALLOCATE_POLICIES.includes(cc.allocate)) out.push(`${name}.allocate must be one of ${L1_ALLOCATE_POLICIES.join(', ')} (got ${String(cc.allocate)})`);
    if (cc.setIndex === 'fermi-hash' && !fermiHashFits(cc.sets)) out.push(`${name}.setIndex 'fermi-hash' needs ${FERMI_HASH_SETS.join(' or ')} sets (got ${cc.sets}), as GPGPU-Sim's FERMI_HASH_SET_FUNCTION`);
  }
  if (c.l1 && c.l1.lineBytes / c.bypassBytes > 30) out.push('l1.lineBytes / bypassBytes must be at most 30');
  int(c.l2.partitions, 'l2.partitions');
  if (c.l2.sectorBytes !== undefined) {
    pow2(c.l2.sectorBytes, 'l2.sectorBytes');
    if (c.l2.sectorBytes > c.l2.lineBytes || c.l2.lineBytes / c.l2.sectorBytes > 30) out.push('l2.sectorBytes must divide l2.lineBytes into at most 30 sectors');
  }
  if (c.l2.bytesPerCycle !== undefined) pos(c.l2.bytesPerCycle, 'l2.bytesPerCycle');
  if (c.l2.addressMap) {
    if (!c.dram.timing) out.push('l2.addressMap needs dram.timing (its address decoder)');
    else {
      const m = makeAddressMap(c.dram.timing, c.l2, c.dram.channels);
      if (typeof m === 'string') out.push(m);
    }
  }
  if (!(c.interconnect.latency >= 0)) out.push('interconnect.latency must be >= 0');
  pos(c.interconnect.bytesPerCyclePerSM, 'interconnect.bytesPerCyclePerSM');
  pos(c.interconnect.bytesPerCycleTotal, 'interconnect.bytesPerCycleTotal');
  int(c.dram.channels, 'dram.channels');
  if (!(c.dram.latency >= 0)) out.push('dram.latency must be >= 0');
  pos(c.dram.bytesPerCycle, 'dram.bytesPerCycle');
  pos(c.dram.burstBytes, 'dram.burstBytes');
  pos(c.shared.bytesPerSM, 'shared.bytesPerSM');
  if (!(c.shared.latency >= 0)) out.push('shared.latency must be >= 0');
  pos(c.shared.bytesPerCycle, 'shared.bytesPerCycle');
  return out;
}

function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

class Engine {
  // ---- configuration ----
  declare readonly c: TimingConfig;
  declare readonly o: TimingOptions;
  declare readonly sms: number;
  declare readonly maxW: number;
  declare readonly maxB: number;
  declare readonly nsched: number;
  declare readonly useL1: number;
  declare readonly l1Line: number;
  declare readonly l1Lines: number;
  declare readonly l1E: number;
  declare readonly l1M: number;
  /** l1.allocate 'fill': 1 (a miss reserves no way; pending lines are found in l1Pend), else 0. */
  declare readonly l1OnFill: number;
  /** l1.allocate 'fill': each SM's pending lines (line number -> MSHR entry). */
  declare readonly l1Pend: Map<number, number>[];
  declare readonly l2Line: number;
  declare readonly l2Lines: number;
  declare readonly P: number;
  /** l2.addressMap: GPGPU-Sim's placement of lines in slices and sets (null: line i to slice i mod P). */
  declare readonly am: AddressMap | null;
  declare readonly l2E: number;
  declare readonly l2M: number;
  declare readonly l2Uncached: number;
  /** 1: a store missing in L2 goes on to DRAM and the line is fetched (GPGPU-Sim 3.2's write-allocate). */
  declare readonly l2WriteFetch: number;
  /** Cycles a request waits between arriving at a slice and its lookup (ropBeforeLookup), and between the lookup or a fill and the answer. */
  declare readonly l2Before: number;
  declare readonly l2After: number;
  declare readonly burst: number;
  /** L2 sector size and sectors per line (1 when lines are not sectored). */
  declare readonly l2Sector: number;
  declare readonly l2Sectors: number;
  /** Cycles per byte a slice needs (0: one request per cycle). */
  declare readonly l2CyclesPerByte: number;
  declare readonly chanCyclesPerByte: number;
  declare readonly smCyclesPerByte: number;
  declare readonly totalCyclesPerByte: number;
  declare readonly shCyclesPerByte: number;
  declare readonly gto: number;

  // ---- time ----
  declare now: number;
  declare readonly events: EventQueue;

  // ---- warps (index w = sm * maxW + local slot) ----
  declare readonly wState: Uint8Array;
  declare readonly wPc: Int32Array;
  declare readonly wBlock: Int32Array;
  declare readonly wBid: Int32Array;
  declare readonly wInBlock: Int32Array;
  declare readonly wLanes: Int32Array;
  declare readonly wWait: Float64Array;
  declare readonly wAluRemain: Int32Array;
  declare readonly wExtra: Int32Array;
  declare readonly wPhase: Uint8Array;
  declare readonly wAge: Float64Array;
  declare readonly wPending: Int32Array;
  /** A lower bound on the cycle warp w can next issue (0: unknown, look). */
  declare readonly wNext: Float64Array;
  /** Warps waiting for their SM's LSU to take an instruction (a stack per SM), and who is in it. */
  declare readonly wLsuListed: Uint8Array;
  declare readonly lsuWaiters: Int32Array;
  declare readonly lsuWaitTop: Int32Array;
  declare wLoop: Int32Array;
  declare readonly rPending: Int32Array;
  declare readonly rReady: Float64Array;
  declare readonly rIssue: Float64Array;
  declare ageCounter: number;

  // ---- SMs ----
  declare readonly smWarps: Int32Array;
  declare readonly smThreads: Int32Array;
  declare readonly smBlocks: Int32Array;
  declare readonly smShared: Float64Array;
  declare readonly lastIssued: Int32Array;
  /** Earliest cycle at which a warp of the SM might issue (Infinity: only an event can wake it). */
  declare readonly smWake: Float64Array;
  /** Per scheduler: the cycle it may issue again (issueCycles). */
  declare readonly schedFree: Float64Array;
  /**
   * Per scheduler, a lower bound of its warps' wNext: the least of them when set by a scan that found
   * nothing to issue, 0 once any of them is woken (wake). While it is ahead of now the scheduler has
   * nothing to probe.
   */
  declare readonly schedNext: Float64Array;
  /** Per LSU: the cycle it may serve its next group (lsuCycles). */
  declare readonly lsuFree: Float64Array;
  declare readonly issueCycles: number;
  declare readonly lsuCycles: number;
  /** accessOrder 'descending': an instruction's accesses are served from the highest address down. */
  declare readonly descending: boolean;
  /**
   * memQueue: ordinary memory instructions issued while the LSU is busy wait, their accesses already
   * formed, in a first-in first-out queue of this many per SM (0: a memory instruction issues only
   * into an idle LSU). Group buffers: region sm is the LSU's current instruction, regions
   * sms + sm x memQ + i the queue's slots.
   */
  declare readonly memQ: number;
  /**
   * memCollectors (ocN > 0): the memory pipeline's stages per SM, each holding a queue slot (-1:
   * empty) and the cycle it entered: ID_OC_MEM (ocIdoc), the collector units (ocCu, sm x ocN + k),
   * OC_EX_MEM (ocEx); ocLast the unit that dispatched last; ocNext the next stage step; slotUsed
   * which of the SM's memQ slots hold an instruction.
   */
  declare readonly ocN: number;
  declare readonly ocIdoc: Int32Array;
  declare readonly ocIdocT: Float64Array;
  declare readonly ocCu: Int32Array;
  declare readonly ocCuT: Float64Array;
  declare readonly ocEx: Int32Array;
  declare readonly ocExT: Float64Array;
  declare readonly ocLast: Int32Array;
  declare readonly ocNext: Float64Array;
  declare readonly slotUsed: Uint8Array;
  /**
   * fetch (GPGPU-Sim's instruction buffer): ibufSize instructions per warp; an emptied buffer is
   * refilled by the SM's fetch unit, one warp per issueCycles (round-robin over the warp slots), usable
   * fetchLatency after.
   * ibufSize 0: no instruction buffer (a warp may issue whenever ready).
   */
  declare readonly ibufSize: number;
  declare readonly fetchLatency: number;
  declare readonly wIb: Int32Array;
  declare readonly wIbReady: Float64Array;
  /** Warps waiting for the fetch unit (1), the slot fetched last per SM (fqHead) and how many wait (fqLen). */
  declare readonly fq: Uint8Array;
  declare readonly fqHead: Int32Array;
  declare readonly fqLen: Int32Array;
  declare readonly fetchFree: Float64Array;
  /** writebackPort: returning accesses write their registers one per lsuCycles per SM; wbFree: the next free cycle. */
  declare readonly wbPort: boolean;
  declare readonly wbFree: Float64Array;
  /**
   * missQueue (GPGPU-Sim 3.2.2's L1 miss queue and injection buffer): packets waiting per SM in a ring
   * of miqE (miqBuf, miqHead, miqLen); the next cycle one may leave (miqNext). miqE 0: off.
   */
  declare readonly miqE: number;
  /** storeAcks: a store's packet returns to its SM as an 8 B reply; its warp ends only when all came back. */
  declare readonly acks: boolean;
  /** storeTags: stores look up the L1 tags (refused on an all-reserved set, evict on a hit). */
  declare readonly stTags: boolean;
  declare stAccesses: number;
  declare stMisses: number;
  declare stPending: number;
  declare readonly miqDrain: number;
  declare readonly miqFlits: number;
  declare readonly miqFlitBytes: number;
  declare readonly miqBuf: Int32Array;
  declare readonly miqHead: Int32Array;
  declare readonly miqLen: Int32Array;
  declare readonly miqNext: Float64Array;
  /** l2.port: port width (0: off), slice clock in core cycles, next lookup / fill cycle per slice. */
  declare readonly l2PortBytes: number;
  declare readonly l2PortCycles: number;
  declare readonly l2PortFree: Float64Array;
  declare readonly l2FillFree: Float64Array;
  /** Slice cycles the data port is held by the request l2Serve just took (set by l2Serve). */
  declare l2PortUse: number;
  /** drainDram: fills at once, without the fill port (after the last kernel). */
  declare draining: boolean;
  /**
   * l2.dramQueue: per slice a ring of requests for DRAM (line, bytes, write, MSHR entry), dqCap usable
   * places (0: off); per channel the next DRAM cycle it may take one (dqNext) and the slice it took
   * from last (dqLast); chSlices: the slices of each channel.
   */
  declare readonly dqCap: number;
  /** l2.dramQueue: the L2 -> DRAM queue's own size (the ring's places beyond the L2 miss queue). */
  declare readonly dqQueue: number;
  declare readonly dqRing: number;
  declare readonly dqLine: Float64Array;
  declare readonly dqBytes: Int32Array;
  declare readonly dqWrite: Uint8Array;
  declare readonly dqEntry: Int32Array;
  declare readonly dqHead: Int32Array;
  declare readonly dqLen: Int32Array;
  declare readonly dqNext: Float64Array;
  declare readonly dqLast: Int32Array;
  declare readonly chSlices: Int32Array[];
  /**
   * l2.dramReturn (0: off): per channel the return queue (ring rtVal / rtTime of what DRAM finished, in
   * that order; rtNext: the channel's next DRAM cycle), per slice the DRAM -> L2 queue (drVal, drCap
   * places; drNext: its next L2 cycle) holding fill entries (>= 0) and store replies (-2 - packet);
   * the credits: per slice a private one (crPriv) and per channel the shared pool in use (crShared)
   * up to crLimit.
   */
  declare readonly drCap: number;
  declare rtVal: Int32Array[];
  declare rtTime: Float64Array[];
  declare readonly rtHead: Int32Array;
  declare readonly rtLen: Int32Array;
  declare readonly rtNext: Float64Array;
  declare readonly drVal: Int32Array;
  declare readonly drHead: Int32Array;
  declare readonly drLen: Int32Array;
  declare readonly drNext: Float64Array;
  declare readonly crPriv: Int32Array;
  declare readonly crShared: Int32Array;
  declare readonly crLimit: number;
  /**
   * interconnect.l2Input: per slice the requests waiting in the network at it (ring ejBuf, ejHead,
   * ejLen), their flits (ejWait), the next cycle the slice may take one (ejNext). ejQ 0: off.
   */
  declare readonly ejQ: number;
  declare readonly ejFlits: number;
  declare readonly ejFlitBytes: number;
  declare readonly ejCycles: number;
  declare ejBuf: Int32Array[];
  declare readonly ejHead: Int32Array;
  declare readonly ejLen: Int32Array;
  declare readonly ejWait: Int32Array;
  declare readonly ejNext: Float64Array;
  declare readonly mqHead: Int32Array;
  declare readonly mqLen: Int32Array;
  declare readonly mqWarp: Int32Array;
  declare readonly mqReg: Int32Array;
  declare readonly lsuBusy: Uint8Array;
  declare readonly lsuWarp: Int32Array;
  declare readonly lsuReg: Int32Array;
  declare readonly lsuN: Int32Array;
  declare readonly lsuNext: Int32Array;
  declare readonly lsuStall: Int8Array;
  declare readonly lsuElem: Int32Array;
  declare readonly gAddr: Float64Array;
  declare readonly gKind: Uint8Array;
  declare readonly gMask: Int32Array;
  declare readonly gBytes: Int32Array;
  declare readonly shFree: Float64Array;
  declare readonly upFree: Float64Array;
  declare readonly downFree: Float64Array;
  declare upTotalFree: number;
  declare downTotalFree: number;
  /** interconnect.responsePorts: each slice's own output port (next free cycle), cycles per byte there. */
  declare readonly respPorts: boolean;
  declare readonly slDownFree: Float64Array;
  declare readonly slCyclesPerByte: number;
  /** Cycles of replies a slice's port may have booked ahead before its L2 -> icnt queue is full (Infinity: no limit). */
  declare readonly respBacklog: number;
  declare readonly l1: TagArray[];
  declare readonly l1SlotEntry: Int32Array;
  declare readonly mLine: Float64Array;
  declare readonly mSlot: Int32Array;
  declare readonly mCount: Int32Array;
  declare readonly mUsed: Int32Array;
  /** Free MSHR entries of each SM (a stack) and of each L2 slice. */
  declare readonly mFreeEntry: Int32Array;
  declare readonly mFreeTop: Int32Array;
  declare readonly l2FreeEntry: Int32Array;
  declare readonly l2FreeTop: Int32Array;
  /** Merger fields in use per SM, and the largest per-SM counts seen. */
  declare readonly mMerged: Int32Array;
  declare peakMshr: number;
  declare peakMergers: number;
  declare readonly mWarp: Int32Array;
  declare readonly mReg: Int32Array;
  declare readonly bBid: Int32Array;
  declare readonly bLeft: Int32Array;
  declare readonly bArrived: Int32Array;
  declare readonly bWarps: Int32Array;
  declare readonly bShared: Float64Array;
  declare readonly bThreads: Int32Array;

  // ---- S-L1 tags: per (warp slot, lane, slot) ----
  declare sl1Tag: Float64Array;
  declare sl1Dirty: Uint8Array;
  declare sl1Slots: number;

  // ---- L2 slices and DRAM ----
  declare readonly l2: TagArray[];
  declare readonly l2SlotEntry: Int32Array;
  /** Per L2 slot: fills under way, and the sectors they bring. */
  declare readonly l2SlotPending: Int32Array;
  declare readonly l2SlotFetching: Int32Array;
  declare readonly l2MLine: Float64Array;
  declare readonly l2MSlot: Int32Array;
  declare readonly l2MCount: Int32Array;
  /** Sectors each L2 MSHR entry is fetching. */
  declare readonly l2MMask: Int32Array;
  declare readonly l2MPk: Int32Array;
  declare readonly l2MUsed: Int32Array;
  declare readonly l2Blocked: Uint8Array;
  declare readonly l2Free: Float64Array;
  declare readonly qBuf: Int32Array[];
  declare readonly qHead: Int32Array;
  declare readonly qLen: Int32Array;
  /** Bit p: slice p has requests queued (qLen > 0). */
  declare readonly qMask: Int32Array;
  /** Slices with requests queued (bits set in qMask). */
  declare qSlices: number;
  declare readonly chFree: Float64Array;
  /** The command-level DRAM model (dram.timing), or null: each channel a first-come queue of bandwidth. */
  declare readonly dramT: DramModel | null;

  // ---- packets ----
  declare pSm: Int32Array;
  declare pKind: Uint8Array;
  declare pAddr: Float64Array;
  /** The L2 slice of the packet's address (sliceOf, once per packet: a miss-queue head is asked for it every cycle it waits). */
  declare pSlice: Int32Array;
  declare pBytes: Int32Array;
  declare pA: Int32Array;
  declare pB: Int32Array;
  declare pIssue: Float64Array;
  declare pFree: Int32Array;
  declare pFreeTop: number;
  declare outstanding: number;

  // ---- kernel ----
  declare k: CompiledKernel;
  declare prog: CInstr[];
  declare nextBlock: number;
  declare blocksDone: number;
  declare rrSm: number;
  declare dispatchPending: number;
  /** launchCycles: per SM, the cycle from which it may take its next block (0: any time). */
  declare readonly launchCycles: number;
  declare readonly launchFree: Float64Array;
  declare doneWarps: number;
  declare totalWarps: number;

  // ---- scratch ----
  declare readonly laneAddr: Float64Array;
  declare readonly segAddr: Float64Array;
  declare readonly pieceAddr: Float64Array;

  // ---- statistics ----
  declare warpInstructions: number;
  declare reqL1: number;
  declare reqL2: number;
  declare reqDram: number;
  declare hitL1: number;
  /** L1 misses that took an MSHR entry and fetched their line (merges excluded). */
  declare fetchL1: number;
  declare hitL2: number;
  declare bytesIcnt: number;
  declare bytesDram: number;
  declare latSum: number;
  declare latCount: number;
  declare fetchLatSum: number;
  declare fetchLatCount: number;
  declare readonly stalls: Float64Array;
  declare sharedAccesses: number;
  declare sl1Hits: number;
  declare sl1Misses: number;
  declare sl1Writebacks: number;
  declare mshrInUse: number;
  declare mergersInUse: number;
  // epochs
  declare readonly epochLen: number;
  declare epochIdx: number;
  declare accMshr: number;
  declare accMerger: number;
  declare accInstr: number;
  declare accStall: number;
  declare readonly eCycle: number[];
  declare readonly eMshr: number[];
  declare readonly eMerger: number[];
  declare readonly eInstr: number[];
  declare readonly eStall: number[];

  constructor(c: TimingConfig, o: TimingOptions) {
    this.c = c;
    this.o = o;
    this.sms = c.sms;
    this.maxW = c.maxWarpsPerSM;
    this.maxB = c.maxBlocksPerSM;
    this.nsched = c.schedulers;
    this.useL1 = c.l1 && o.l1 === 'hw' ? 1 : 0;
    const l1 = c.l1 ?? { sets: 1, ways: 1, lineBytes: 128, mshrEntries: 1, mshrMergers: 1, hitLatency: 0, policy: 'lru' as const };
    this.l1Line = l1.lineBytes;
    this.l1Lines = l1.sets * l1.ways;
    this.l1E = l1.mshrEntries;
    this.l1M = l1.mshrMergers;
    this.l1OnFill = l1.allocate === 'fill' ? 1 : 0;
    this.l2Line = c.l2.lineBytes;
    this.l2Lines = c.l2.sets * c.l2.ways;
    this.P = c.l2.partitions;
    this.l2E = c.l2.mshrEntries;
    this.l2M = c.l2.uncached ? 1 : c.l2.mshrMergers;
    this.l2Uncached = c.l2.uncached ? 1 : 0;
    this.l2WriteFetch = c.l2.writeMissFetch && !c.l2.uncached ? 1 : 0;
    const rop = c.l2.ropBeforeLookup === true && !c.l2.uncached;
    this.l2Before = rop ? c.l2.hitLatency : 0;
    this.l2After = rop ? 0 : c.l2.hitLatency;
    this.burst = c.dram.burstBytes;
    this.l2Sector = c.l2.sectorBytes && c.l2.sectorBytes < c.l2.lineBytes ? c.l2.sectorBytes : c.l2.lineBytes;
    this.l2Sectors = this.l2Line / this.l2Sector;
    this.l2CyclesPerByte = c.l2.bytesPerCycle ? this.P / c.l2.bytesPerCycle : 0;
    this.chanCyclesPerByte = c.dram.channels / c.dram.bytesPerCycle;
    this.smCyclesPerByte = 1 / c.interconnect.bytesPerCyclePerSM;
    this.totalCyclesPerByte = 1 / c.interconnect.bytesPerCycleTotal;
    this.shCyclesPerByte = 1 / c.shared.bytesPerCycle;
    this.gto = schedulerOf(c, o.scheduler) === 'gto' ? 1 : 0;
    this.now = 0;
    this.events = new EventQueue(8192);

    const W = this.sms * this.maxW;
    this.wState = new Uint8Array(W);
    this.wPc = new Int32Array(W);
    this.wBlock = new Int32Array(W);
    this.wBid = new Int32Array(W);
    this.wInBlock = new Int32Array(W);
    this.wLanes = new Int32Array(W);
    this.wWait = new Float64Array(W);
    this.wAluRemain = new Int32Array(W);
    this.wExtra = new Int32Array(W);
    this.wPhase = new Uint8Array(W);
    this.wAge = new Float64Array(W);
    this.wPending = new Int32Array(W);
    this.wNext = new Float64Array(W);
    this.wLsuListed = new Uint8Array(W);
    this.lsuWaiters = new Int32Array(W);
    this.wLoop = new Int32Array(W);
    this.rPending = new Int32Array(W * R);
    this.rReady = new Float64Array(W * R);
    this.rIssue = new Float64Array(W * R);
    this.ageCounter = 0;

    const S = this.sms;
    this.smWarps = new Int32Array(S);
    this.smThreads = new Int32Array(S);
    this.smBlocks = new Int32Array(S);
    this.smShared = new Float64Array(S);
    this.lastIssued = new Int32Array(S * this.nsched).fill(-1);
    this.smWake = new Float64Array(S);
    this.lsuWaitTop = new Int32Array(S);
    this.schedFree = new Float64Array(S * this.nsched);
    this.schedNext = new Float64Array(S * this.nsched);
    this.lsuFree = new Float64Array(S);
    this.issueCycles = Math.max(1, Math.round(c.issueCycles ?? 1));
    this.lsuCycles = Math.max(1, Math.round(c.lsuCycles ?? 1));
    this.descending = c.accessOrder === 'descending';
    this.memQ = Math.max(0, Math.round(c.memQueue ?? 0));
    this.launchCycles = Math.max(0, Math.round(c.launchCycles ?? 0));
    this.launchFree = new Float64Array(S);
    this.ocN = this.memQ > 0 && c.memCollectors !== undefined ? Math.max(1, Math.round(c.memCollectors)) : 0;
    this.ocIdoc = new Int32Array(S).fill(-1);
    this.ocIdocT = new Float64Array(S);
    this.ocCu = new Int32Array(S * Math.max(1, this.ocN)).fill(-1);
    this.ocCuT = new Float64Array(S * Math.max(1, this.ocN));
    this.ocEx = new Int32Array(S).fill(-1);
    this.ocExT = new Float64Array(S);
    this.ocLast = new Int32Array(S);
    this.ocNext = new Float64Array(S);
    this.slotUsed = new Uint8Array(S * Math.max(1, this.memQ));
    this.wbPort = c.writebackPort === true;
    this.ibufSize = c.fetch ? c.fetch.ibuffer : 0;
    this.fetchLatency = c.fetch ? c.fetch.latency : 0;
    this.wIb = new Int32Array(S * this.maxW);
    this.wIbReady = new Float64Array(S * this.maxW);
    this.fq = new Uint8Array(S * this.maxW);
    this.fqHead = new Int32Array(S);
    this.fqLen = new Int32Array(S);
    this.fetchFree = new Float64Array(S);
    this.wbFree = new Float64Array(S);
    this.acks = c.storeAcks === true;
    this.stTags = c.storeTags === true && this.useL1 !== 0;
    this.stAccesses = 0;
    this.stMisses = 0;
    this.stPending = 0;
    const miq = c.missQueue && this.useL1 ? c.missQueue : null;
    this.miqE = miq ? Math.max(1, Math.round(miq.entries)) : 0;
    this.miqDrain = miq ? Math.max(1, miq.drainCycles) : 1;
    this.miqFlits = miq ? miq.injectFlits : 0;
    this.miqFlitBytes = miq ? miq.flitBytes : 1;
    this.miqBuf = new Int32Array(S * this.miqE);
    this.miqHead = new Int32Array(S);
    this.miqLen = new Int32Array(S);
    this.miqNext = new Float64Array(S);
    const port = c.l2.port && !c.l2.uncached ? c.l2.port : null;
    this.l2PortBytes = port ? port.bytes : 0;
    this.l2PortCycles = port ? Math.max(1, port.cycles) : 1;
    this.l2PortFree = new Float64Array(c.l2.partitions);
    this.l2FillFree = new Float64Array(c.l2.partitions);
    this.l2PortUse = 0;
    this.draining = false;
    const dq = c.l2.dramQueue && c.dram.timing && !c.l2.uncached ? c.l2.dramQueue : null;
    this.dqCap = dq ? Math.max(3, dq.missQueue - 1 + dq.queue) : 0;
    this.dqQueue = dq ? dq.queue : 0;
    this.dqRing = this.dqCap + 4;
    const PQ = c.l2.partitions * this.dqRing;
    this.dqLine = new Float64Array(PQ);
    this.dqBytes = new Int32Array(PQ);
    this.dqWrite = new Uint8Array(PQ);
    this.dqEntry = new Int32Array(PQ);
    this.dqHead = new Int32Array(c.l2.partitions);
    this.dqLen = new Int32Array(c.l2.partitions);
    this.dqNext = new Float64Array(c.dram.channels);
    this.dqLast = new Int32Array(c.dram.channels).fill(-1);
    const li = c.interconnect.l2Input;
    this.ejQ = li ? li.queue : 0;
    this.ejFlits = li ? li.bufferFlits : 0;
    this.ejFlitBytes = li ? li.flitBytes : 1;
    this.ejCycles = li ? Math.max(1, li.cycles) : 1;
    this.ejBuf = [];
    for (let sl = 0; sl < c.l2.partitions; sl++) this.ejBuf.push(new Int32Array(li ? 64 : 0));
    this.ejHead = new Int32Array(c.l2.partitions);
    this.ejLen = new Int32Array(c.l2.partitions);
    this.ejWait = new Int32Array(c.l2.partitions);
    this.ejNext = new Float64Array(c.l2.partitions);
    this.chSlices = [];
    for (let ch = 0; ch < c.dram.channels; ch++) {
      const list: number[] = [];
      for (let sl = 0; sl < c.l2.partitions; sl++) if (Math.floor((sl * c.dram.channels) / c.l2.partitions) === ch) list.push(sl);
      this.chSlices.push(Int32Array.from(list));
    }
    const dr = c.l2.dramReturn && this.dqCap > 0 ? c.l2.dramReturn : null;
    this.drCap = dr ? Math.max(1, dr.queue) : 0;
    this.rtVal = [];
    this.rtTime = [];
    for (let ch = 0; ch < c.dram.channels; ch++) {
      this.rtVal.push(new Int32Array(dr ? 64 : 0));
      this.rtTime.push(new Float64Array(dr ? 64 : 0));
    }
    this.rtHead = new Int32Array(c.dram.channels);
    this.rtLen = new Int32Array(c.dram.channels);
    this.rtNext = new Float64Array(c.dram.channels);
    this.drVal = new Int32Array(c.l2.partitions * this.drCap);
    this.drHead = new Int32Array(c.l2.partitions);
    this.drLen = new Int32Array(c.l2.partitions);
    this.drNext = new Float64Array(c.l2.partitions);
    this.crPriv = new Int32Array(c.l2.partitions);
    this.crShared = new Int32Array(c.dram.channels);
    // arbitration_metadata: m_shared_credit_limit = sched queue + return queue - (slices per channel - 1).
    this.crLimit = dr && c.dram.timing ? c.dram.timing.queue + dr.returnQueue - (this.chSlices[0].length - 1) : 0;
    const regions = S + S * this.memQ;
    this.mqHead = new Int32Array(S);
    this.mqLen = new Int32Array(S);
    this.mqWarp = new Int32Array(S * this.memQ);
    this.mqReg = new Int32Array(S * this.memQ);
    this.lsuBusy = new Uint8Array(S);
    this.lsuWarp = new Int32Array(S);
    this.lsuReg = new Int32Array(S);
    this.lsuN = new Int32Array(regions);
    this.lsuNext = new Int32Array(S);
    this.lsuStall = new Int8Array(S).fill(-1);
    this.lsuElem = new Int32Array(S);
    this.gAddr = new Float64Array(regions * GMAX);
    this.gKind = new Uint8Array(regions * GMAX);
    this.gMask = new Int32Array(regions * GMAX);
    this.gBytes = new Int32Array(regions * GMAX);
    this.shFree = new Float64Array(S);
    this.upFree = new Float64Array(S);
    this.downFree = new Float64Array(S);
    this.upTotalFree = 0;
    this.downTotalFree = 0;
    this.respPorts = c.interconnect.responsePorts === true;
    this.slDownFree = new Float64Array(c.l2.partitions);
    this.slCyclesPerByte = c.l2.partitions / c.interconnect.bytesPerCycleTotal;
    // l2.responseQueue: that many line replies (data + header) waiting for the slice's port.
    this.respBacklog = this.respPorts && c.l2.responseQueue ? c.l2.responseQueue * (c.l2.lineBytes + REQUEST_BYTES) * this.slCyclesPerByte : Infinity;
    this.l1 = [];
    const l1Set = l1.setIndex === 'fermi-hash' ? fermiHashSetFn(l1.lineBytes, l1.sets) : null;
    for (let s = 0; s < S; s++) this.l1.push(new TagArray(l1.sets, l1.ways, l1.policy, 1, l1Set));
    this.l1SlotEntry = new Int32Array(S * this.l1Lines).fill(-1);
    this.l1Pend = [];
    for (let s = 0; s < S; s++) this.l1Pend.push(new Map());
    this.mLine = new Float64Array(S * this.l1E).fill(-1);
    this.mSlot = new Int32Array(S * this.l1E);
    this.mCount = new Int32Array(S * this.l1E);
    this.mUsed = new Int32Array(S);
    this.mFreeEntry = new Int32Array(S * this.l1E);
    this.mFreeTop = new Int32Array(S).fill(this.l1E);
    for (let sm = 0; sm < S; sm++) for (let i = 0; i < this.l1E; i++) this.mFreeEntry[sm * this.l1E + i] = sm * this.l1E + this.l1E - 1 - i;
    this.mMerged = new Int32Array(S);
    this.peakMshr = 0;
    this.peakMergers = 0;
    this.mWarp = new Int32Array(S * this.l1E * this.l1M);
    this.mReg = new Int32Array(S * this.l1E * this.l1M);
    this.bBid = new Int32Array(S * this.maxB).fill(-1);
    this.bLeft = new Int32Array(S * this.maxB);
    this.bArrived = new Int32Array(S * this.maxB);
    this.bWarps = new Int32Array(S * this.maxB);
    this.bShared = new Float64Array(S * this.maxB);
    this.bThreads = new Int32Array(S * this.maxB);
    this.sl1Tag = new Float64Array(0);
    this.sl1Dirty = new Uint8Array(0);
    this.sl1Slots = 0;

    this.l2 = [];
    const am = c.l2.addressMap && c.dram.timing ? makeAddressMap(c.dram.timing, c.l2, c.dram.channels) : null;
    if (typeof am === 'string') throw new Error(am); // (checkTimingConfig refused it already)
    this.am = am;
    const l2Set = am ? (line: number) => addrMapSet(am, line) : null;
    for (let p = 0; p < this.P; p++) this.l2.push(new TagArray(c.l2.sets, c.l2.ways, c.l2.policy, this.P, l2Set));
    this.l2SlotEntry = new Int32Array(this.P * this.l2Lines).fill(-1);
    this.l2SlotPending = new Int32Array(this.P * this.l2Lines);
    this.l2SlotFetching = new Int32Array(this.P * this.l2Lines);
    this.l2MLine = new Float64Array(this.P * this.l2E).fill(-1);
    this.l2MSlot = new Int32Array(this.P * this.l2E);
    this.l2MCount = new Int32Array(this.P * this.l2E);
    this.l2MMask = new Int32Array(this.P * this.l2E);
    this.l2MPk = new Int32Array(this.P * this.l2E * this.l2M);
    this.l2MUsed = new Int32Array(this.P);
    this.l2FreeEntry = new Int32Array(this.P * this.l2E);
    this.l2FreeTop = new Int32Array(this.P).fill(this.l2E);
    for (let p = 0; p < this.P; p++) for (let i = 0; i < this.l2E; i++) this.l2FreeEntry[p * this.l2E + i] = p * this.l2E + this.l2E - 1 - i;
    this.l2Blocked = new Uint8Array(this.P);
    this.l2Free = new Float64Array(this.P);
    this.qBuf = [];
    for (let p = 0; p < this.P; p++) this.qBuf.push(new Int32Array(1024));
    this.qHead = new Int32Array(this.P);
    this.qLen = new Int32Array(this.P);
    this.qMask = new Int32Array(Math.ceil(this.P / 32));
    this.qSlices = 0;
    this.chFree = new Float64Array(c.dram.channels);
    this.dramT = c.dram.timing && !c.l2.uncached ? new DramModel(c.dram.timing, c.dram.channels, c.clocks.coreMHz, c.l2.lineBytes, c.dram.latency) : null;

    const PK = 4096;
    this.pSm = new Int32Array(PK);
    this.pKind = new Uint8Array(PK);
    this.pAddr = new Float64Array(PK);
    this.pSlice = new Int32Array(PK);
    this.pBytes = new Int32Array(PK);
    this.pA = new Int32Array(PK);
    this.pB = new Int32Array(PK);
    this.pIssue = new Float64Array(PK);
    this.pFree = new Int32Array(PK);
    for (let i = 0; i < PK; i++) this.pFree[i] = PK - 1 - i;
    this.pFreeTop = PK;
    this.outstanding = 0;

    this.laneAddr = new Float64Array(64);
    this.segAddr = new Float64Array(128);
    this.pieceAddr = new Float64Array(64);

    this.warpInstructions = 0;
    this.reqL1 = 0;
    this.reqL2 = 0;
    this.reqDram = 0;
    this.hitL1 = 0;
    this.fetchL1 = 0;
    this.hitL2 = 0;
    this.bytesIcnt = 0;
    this.bytesDram = 0;
    this.latSum = 0;
    this.latCount = 0;
    this.fetchLatSum = 0;
    this.fetchLatCount = 0;
    // 4: a full L1 miss queue (missQueue), kept apart from LASH's reasons.
    this.stalls = new Float64Array(5);
    this.sharedAccesses = 0;
    this.sl1Hits = 0;
    this.sl1Misses = 0;
    this.sl1Writebacks = 0;
    this.mshrInUse = 0;
    this.mergersInUse = 0;
    this.epochLen = Math.max(1, Math.round(o.epochCycles));
    this.epochIdx = 0;
    this.accMshr = 0;
    this.accMerger = 0;
    this.accInstr = 0;
    this.accStall = 0;
    this.eCycle = [];
    this.eMshr = [];
    this.eMerger = [];
    this.eInstr = [];
    this.eStall = [];
    this.nextBlock = 0;
    this.blocksDone = 0;
    this.rrSm = 0;
    this.dispatchPending = 0;
    this.doneWarps = 0;
    this.totalWarps = 0;
    this.prog = [];
  }

  // =============================================================================================
  // Packets
  // =============================================================================================

  private growPackets(): void {
    const n = this.pSm.length;
    const m = n * 2;
    this.pSm = grown(this.pSm, m);
    this.pKind = grown(this.pKind, m);
    this.pAddr = grown(this.pAddr, m);
    this.pSlice = grown(this.pSlice, m);
    this.pBytes = grown(this.pBytes, m);
    this.pA = grown(this.pA, m);
    this.pB = grown(this.pB, m);
    this.pIssue = grown(this.pIssue, m);
    this.pFree = grownFreeStack(this.pFree, this.pFreeTop, n, m);
    this.pFreeTop += m - n;
  }

  private newPacket(sm: number, kind: number, addr: number, bytes: number, a: number, b: number): number {
    if (this.pFreeTop === 0) this.growPackets();
    const p = this.pFree[--this.pFreeTop];
    this.pSm[p] = sm;
    this.pKind[p] = kind;
    this.pAddr[p] = addr;
    this.pSlice[p] = this.sliceOf(Math.floor(addr / this.l2Line));
    this.pBytes[p] = bytes;
    this.pA[p] = a;
    this.pB[p] = b;
    this.pIssue[p] = this.now;
    this.outstanding++;
    return p;
  }

  private freePacket(p: number): void {
    this.pFree[this.pFreeTop++] = p;
    this.outstanding--;
  }

  /**
   * SM -> L2 slice: the request (and a store's data) crosses the interconnect. Bandwidth is reserved
   * first on the shared crossbar (from now: a shared resource is never booked ahead on behalf of one
   * SM's backlog), then on the SM's own port.
   */
  private sendUp(p: number): void {
    const sm = this.pSm[p];
    const bytes = this.pKind[p] === PK_STORE ? REQUEST_BYTES + this.pBytes[p] : REQUEST_BYTES;
    let t = this.now > this.upTotalFree ? this.now : this.upTotalFree;
    this.upTotalFree = t + bytes * this.totalCyclesPerByte;
    if (this.upFree[sm] > t) t = this.upFree[sm];
    this.upFree[sm] = t + bytes * this.smCyclesPerByte;
    if (this.ejQ > 0) {
      // l2Input: the request waits in the network at its slice until the slice takes it (ejStep).
      this.events.push(Math.ceil(t + bytes * this.smCyclesPerByte + this.c.interconnect.latency), EV_NET_ARRIVE, p);
      return;
    }
    // ropBeforeLookup: the slice's fixed delay comes before the lookup (GPGPU-Sim's ROP queue).
    this.events.push(Math.ceil(t + bytes * this.smCyclesPerByte + this.c.interconnect.latency + this.l2Before), EV_L2_ARRIVE, p);
  }

  /** An access L1 sends below: into the miss queue (missQueue) or straight into the interconnect. */
  private toIcnt(sm: number, p: number): void {
    if (this.miqE === 0) {
      this.sendUp(p);
      return;
    }
    const n = sm * this.miqE;
    this.miqBuf[n + ((this.miqHead[sm] + this.miqLen[sm]) % this.miqE)] = p;
    this.miqLen[sm]++;
  }

  /**
   * The earliest cycle the head of an SM's miss queue can enter the interconnect: one per drainCycles
   * (baseline_cache::cycle) and only when the SM's input buffer has room for its flits
   * (icnt_has_buffer; the flits still queued are those the port has not sent by then).
   */
  private miqReadyAt(sm: number): number {
    const p = this.miqBuf[sm * this.miqE + this.miqHead[sm]];
    const bytes = this.pKind[p] === PK_STORE ? REQUEST_BYTES + this.pBytes[p] : REQUEST_BYTES;
    const flits = Math.ceil(bytes / this.miqFlitBytes);
    // l2Input: the network's buffers at the request's slice are full; it moves when the slice takes one.
    if (this.ejQ > 0) {
      const sl = this.pSlice[p];
      if (this.ejWait[sl] + this.upFlits(p) > this.ejFlits) return Infinity;
    }
    // Queued flits at time t: ceil((upFree - t) / cycles per flit); room when that + flits <= injectFlits.
    const room = this.upFree[sm] - (this.miqFlits - flits) * this.miqFlitBytes * this.smCyclesPerByte;
    const t = Math.ceil(room);
    return t > this.miqNext[sm] ? t : this.miqNext[sm];
  }

  /** Flits of a request packet: its header, and a store's data (interconnect.l2Input). */
  private upFlits(p: number): number {
    const bytes = this.pKind[p] === PK_STORE ? REQUEST_BYTES + this.pBytes[p] : REQUEST_BYTES;
    return Math.ceil(bytes / this.ejFlitBytes);
  }

  /** l2Input: a request reached the network's buffers at its slice. */
  private ejPush(p: number): void {
    const sl = this.pSlice[p];
    let buf = this.ejBuf[sl];
    if (this.ejLen[sl] === buf.length) {
      buf = grownRing(buf, this.ejHead[sl], this.ejLen[sl]);
      this.ejBuf[sl] = buf;
      this.ejHead[sl] = 0;
    }
    buf[(this.ejHead[sl] + this.ejLen[sl]) % buf.length] = p;
    this.ejLen[sl]++;
    this.ejWait[sl] += this.upFlits(p);
  }

  /**
   * l2Input: each slice takes one waiting request per `cycles` into its ROP delay while its
   * icnt -> L2 queue is not full (gpgpu_sim::cycle: memory_sub_partition::full, icnt_pop, push).
   */
  private ejStep(): boolean {
    let any = false;
    for (let sl = 0; sl < this.P; sl++) {
      if (this.ejLen[sl] === 0 || this.ejNext[sl] > this.now || this.qLen[sl] >= this.ejQ) continue;
      const buf = this.ejBuf[sl];
      const p = buf[this.ejHead[sl]];
      this.ejHead[sl] = (this.ejHead[sl] + 1) % buf.length;
      this.ejLen[sl]--;
      this.ejWait[sl] -= this.upFlits(p);
      this.ejNext[sl] = this.now + this.ejCycles;
      this.events.push(this.now + this.l2Before, EV_L2_ARRIVE, p);
      any = true;
    }
    return any;
  }

  /** One cycle of an SM's miss queue: the head enters the interconnect if it can; true when it did. */
  private miqStep(sm: number): boolean {
    if (this.miqLen[sm] === 0 || this.miqReadyAt(sm) > this.now) return false;
    const p = this.miqBuf[sm * this.miqE + this.miqHead[sm]];
    this.miqHead[sm] = (this.miqHead[sm] + 1) % this.miqE;
    this.miqLen[sm]--;
    this.miqNext[sm] = this.now + this.miqDrain;
    this.sendUp(p);
    // A load or store waiting for room may go now.
    if (this.lsuStall[sm] === S_MISSQUEUE) this.lsuStall[sm] = -1;
    return true;
  }

  /**
   * L2 slice -> SM: the data, ready at `ready`, crosses the interconnect, limited in total and per SM
   * (as sendUp). Every response is ready a fixed time after the cycle that books it, so bookings come
   * in order of their ready times.
   */
  private sendDown(p: number, ready: number): void {
    const sm = this.pSm[p];
    const bytes = this.respPorts ? this.pBytes[p] + REQUEST_BYTES : this.pBytes[p];
    let t = ready > this.downTotalFree ? ready : this.downTotalFree;
    this.downTotalFree = t + bytes * this.totalCyclesPerByte;
    if (this.respPorts) {
      // responsePorts: the slice's own port first (one flit per interconnect cycle per node).
      const sl = this.pSlice[p];
      if (this.slDownFree[sl] > t) t = this.slDownFree[sl];
      this.slDownFree[sl] = t + bytes * this.slCyclesPerByte;
    }
    if (this.downFree[sm] > t) t = this.downFree[sm];
    this.downFree[sm] = t + bytes * this.smCyclesPerByte;
    this.bytesIcnt += bytes;
    this.events.push(Math.ceil(t + bytes * this.smCyclesPerByte + this.c.interconnect.latency), EV_SM_ARRIVE, p);
  }

  // =============================================================================================
  // L2 slices and DRAM
  // =============================================================================================

  private sliceOf(line: number): number {
    const am = this.am;
    return am === null ? line % this.P : addrMapSlice(am, line);
  }

  private enqueue(slice: number, p: number): void {
    let buf = this.qBuf[slice];
    if (this.qLen[slice] === buf.length) {
      buf = grownRing(buf, this.qHead[slice], this.qLen[slice]);
      this.qBuf[slice] = buf;
      this.qHead[slice] = 0;
    }
    buf[(this.qHead[slice] + this.qLen[slice]) % buf.length] = p;
    if (this.qLen[slice]++ === 0) {
      this.qMask[slice >> 5] |= 1 << (slice & 31);
      this.qSlices++;
    }
  }

  /** Reads `bytes` of L2 line `line` from DRAM for MSHR entry e of a slice: EV_DRAM_FILL when the data is back. */
  private dramRead(slice: number, line: number, bytes: number, e: number): void {
    if (this.dqCap > 0) {
      this.dqPush(slice, line, bytes, 0, e);
      return;
    }
    if (this.dramT) {
      this.dramT.request(Math.floor((slice * this.c.dram.channels) / this.P), line, bytes, false, e, this.now);
      this.reqDram++;
      return;
    }
    const done = this.dramAccess(slice, bytes);
    this.events.push(Math.ceil(done + this.c.dram.latency), EV_DRAM_FILL, e);
  }

  /**
   * Writes `bytes` of L2 line `line` to DRAM (a store sent on, or a dirty line written back). `ack`: the
   * store packet to acknowledge once DRAM has written it (storeAcks: GPGPU-Sim's DRAM returns a
   * write, not a write-back, as a reply through the dram -> L2 and L2 -> icnt queues), -1: none.
   */
  private dramWrite(slice: number, line: number, bytes: number, ack = -1): void {
    // dramReturn: a write nobody waits for still reports when DRAM wrote it (its credit comes back then).
    const tag = ack >= 0 ? -2 - ack : this.drCap > 0 ? WB_TAG - slice : -1;
    if (this.dqCap > 0) {
      this.dqPush(slice, line, bytes, 1, tag);
      return;
    }
    if (this.dramT) {
      this.dramT.request(Math.floor((slice * this.c.dram.channels) / this.P), line, bytes, true, tag, this.now);
      this.reqDram++;
      return;
    }
    this.dramAccess(slice, bytes);
    if (ack >= 0) this.storeTaken(ack);
  }

  /** l2.dramQueue: a request for DRAM waits in its slice's queue (room was checked by the lookup). */
  private dqPush(slice: number, line: number, bytes: number, write: number, e: number): void {
    if (this.dqLen[slice] >= this.dqRing) throw new Error('internal: L2 -> DRAM queue overflow');
    const i = slice * this.dqRing + ((this.dqHead[slice] + this.dqLen[slice]) % this.dqRing);
    this.dqLine[i] = line;
    this.dqBytes[i] = bytes;
    this.dqWrite[i] = write;
    this.dqEntry[i] = e;
    this.dqLen[slice]++;
    this.reqDram++;
  }

  /** l2.dramQueue: room for k more DRAM requests in a slice's queues. */
  private dqRoom(slice: number, k: number): boolean {
    return this.dqCap === 0 || this.dqLen[slice] + k <= this.dqCap;
  }

  /** Requests a new line's allocation sends to DRAM: its own (k) and the victim's write-back if dirty. */
  private dqNeed(slice: number, line: number, k: number): number {
    if (this.dqCap === 0) return 0;
    const tags = this.l2[slice];
    const v = tags.victim(line);
    return v >= 0 && tags.state[v] === T_VALID && tags.dirty[v] ? k + 1 : k;
  }

  /**
   * l2.dramQueue: each channel takes one request per DRAM cycle from its slices' queues (round-robin
   * from the slice after the one served last), while its scheduler is not full
   * (memory_partition_unit::dram_cycle, dram_t::full). True when any moved.
   */
  private dqStep(): boolean {
    const d = this.dramT!;
    let any = false;
    for (let ch = 0; ch < this.chSlices.length; ch++) {
      if (this.dqNext[ch] > this.now || d.full(ch)) continue;
      const list = this.chSlices[ch];
      const n = list.length;
      for (let j = 1; j <= n; j++) {
        const k = (this.dqLast[ch] + j + n) % n;
        const sl = list[k];
        if (this.dqLen[sl] === 0) continue;
        // dramReturn: can_issue_to_dram: the slice's DRAM -> L2 queue not full and a credit to borrow.
        if (this.drCap > 0 && (this.drLen[sl] >= this.drCap || !(this.crPriv[sl] < 1 || this.crShared[ch] < this.crLimit))) continue;
        if (this.drCap > 0) {
          if (this.crPriv[sl] < 1) this.crPriv[sl]++;
          else this.crShared[ch]++;
        }
        const i = sl * this.dqRing + this.dqHead[sl];
        d.request(ch, this.dqLine[i], this.dqBytes[i], this.dqWrite[i] === 1, this.dqEntry[i], this.now);
        this.dqHead[sl] = (this.dqHead[sl] + 1) % this.dqRing;
        this.dqLen[sl]--;
        this.dqLast[ch] = k;
        this.dqNext[ch] = (Math.floor(this.now / d.period) + 1) * d.period;
        // A slice blocked for want of room may look up again.
        this.l2Blocked[sl] = 0;
        any = true;
        break;
      }
    }
    return any;
  }

  /** Requests waiting in the L2 -> DRAM queues (l2.dramQueue). */
  private dqWaiting(): boolean {
    for (let sl = 0; sl < this.P; sl++) if (this.dqLen[sl] > 0) return true;
    return false;
  }

  /** Moves the command-level DRAM model to now and turns its finished reads into fill events. */
  private dramStep(): boolean {
    const d = this.dramT!;
    const any = d.advance(this.now);
    for (let i = 0; i < d.doneN; i++) {
      const t = Math.ceil(d.doneTime[i]);
      const e = d.doneEntry[i];
      if (this.drCap > 0) {
        this.rtPush(e, t);
        continue;
      }
      if (e < -1) {
        // storeAcks: a store DRAM has written goes back to its SM as the reply.
        const p = -2 - e;
        this.pBytes[p] = 0;
        this.sendDown(p, t > this.now ? t : this.now + 1);
        continue;
      }
      this.events.push(t > this.now ? t : this.now + 1, EV_DRAM_FILL, e);
    }
    d.doneN = 0;
    return any;
  }

  /** The slice a DRAM completion belongs to (a fill entry, a store reply, a write-back tag). */
  private doneSlice(e: number): number {
    if (e >= 0) return Math.floor(e / this.l2E);
    if (e <= WB_TAG) return WB_TAG - e;
    return this.pSlice[-2 - e];
  }

  /** dramReturn: a credit comes back to slice sl (arbitration_metadata::return_credit). */
  private returnCredit(sl: number): void {
    if (this.crPriv[sl] > 0) this.crPriv[sl]--;
    else this.crShared[Math.floor((sl * this.c.dram.channels) / this.P)]--;
  }

  /**
   * dramReturn: DRAM finished e at cycle t. A write-back is done (set_done returns its credit); a read
   * or a store reply joins its channel's return queue (dram_t::returnq), in the order DRAM finished.
   */
  private rtPush(e: number, t: number): void {
    const sl = this.doneSlice(e);
    if (e <= WB_TAG) {
      this.returnCredit(sl);
      return;
    }
    const ch = Math.floor((sl * this.c.dram.channels) / this.P);
    let v = this.rtVal[ch];
    if (this.rtLen[ch] === v.length) {
      const nv = new Int32Array(v.length * 2);
      const nt = new Float64Array(v.length * 2);
      const ot = this.rtTime[ch];
      for (let i = 0; i < this.rtLen[ch]; i++) {
        const j = (this.rtHead[ch] + i) % v.length;
        nv[i] = v[j];
        nt[i] = ot[j];
      }
      this.rtVal[ch] = nv;
      this.rtTime[ch] = nt;
      this.rtHead[ch] = 0;
      v = nv;
    }
    const j = (this.rtHead[ch] + this.rtLen[ch]) % v.length;
    v[j] = e;
    this.rtTime[ch][j] = t;
    this.rtLen[ch]++;
  }

  /**
   * dramReturn, each cycle: every channel moves its return queue's head into its slice's DRAM -> L2
   * queue, one per DRAM cycle, when it has arrived and the queue has room (dram_cycle); every slice
   * takes its DRAM -> L2 queue's head, one per L2 cycle: a fill when the fill port is free, a store's
   * reply when the L2 -> icnt queue has room (memory_sub_partition::cache_cycle). True when any moved.
   */
  private drStep(): boolean {
    let any = false;
    const period = this.dramT!.period;
    for (let ch = 0; ch < this.rtLen.length; ch++) {
      if (this.rtLen[ch] === 0 || this.rtNext[ch] > this.now) continue;
      const h = this.rtHead[ch];
      if (this.rtTime[ch][h] > this.now) continue;
      const e = this.rtVal[ch][h];
      const sl = this.doneSlice(e);
      if (this.drLen[sl] >= this.drCap) continue;
      this.drVal[sl * this.drCap + ((this.drHead[sl] + this.drLen[sl]) % this.drCap)] = e;
      this.drLen[sl]++;
      this.returnCredit(sl);
      this.rtHead[ch] = (h + 1) % this.rtVal[ch].length;
      this.rtLen[ch]--;
      this.rtNext[ch] = (Math.floor(this.now / period) + 1) * period;
      any = true;
    }
    for (let sl = 0; sl < this.P; sl++) {
      if (this.drLen[sl] === 0 || this.drNext[sl] > this.now) continue;
      const e = this.drVal[sl * this.drCap + this.drHead[sl]];
      if (e >= 0) {
        if (this.l2PortBytes > 0 && this.l2FillFree[sl] > this.now) continue;
        this.dramFill(e);
      } else {
        if (this.respPorts && this.slDownFree[sl] > this.now + this.respBacklog) continue;
        const p = -2 - e;
        this.pBytes[p] = 0;
        this.sendDown(p, this.now + 1);
      }
      this.drHead[sl] = (this.drHead[sl] + 1) % this.drCap;
      this.drLen[sl]--;
      this.drNext[sl] = this.now + this.l2PortCycles;
      any = true;
    }
    return any;
  }

  /** dramReturn: the earliest cycle drStep could move something (Infinity: nothing waits). */
  private drWake(): number {
    let t = Infinity;
    for (let ch = 0; ch < this.rtLen.length; ch++) {
      if (this.rtLen[ch] === 0) continue;
      const h = this.rtHead[ch];
      const sl = this.doneSlice(this.rtVal[ch][h]);
      if (this.drLen[sl] >= this.drCap) continue; // waits for the slice, which drStep wakes below
      const x = Math.max(this.rtNext[ch], this.rtTime[ch][h]);
      if (x < t) t = x;
    }
    for (let sl = 0; sl < this.P; sl++) {
      if (this.drLen[sl] === 0) continue;
      const e = this.drVal[sl * this.drCap + this.drHead[sl]];
      let x = this.drNext[sl];
      if (e >= 0) {
        if (this.l2PortBytes > 0 && this.l2FillFree[sl] > x) x = this.l2FillFree[sl];
      } else if (this.respPorts && this.slDownFree[sl] - this.respBacklog > x) x = this.slDownFree[sl] - this.respBacklog;
      if (x < t) t = x;
    }
    return t;
  }

  private dramAccess(slice: number, bytes: number): number {
    const ch = Math.floor((slice * this.c.dram.channels) / this.P);
    let t = this.now;
    if (this.chFree[ch] > t) t = this.chFree[ch];
    // DRAM moves whole bursts: a smaller access keeps the bus as long as a full one.
    bytes = Math.ceil(bytes / this.burst) * this.burst;
    const busy = bytes * this.chanCyclesPerByte;
    this.chFree[ch] = t + busy;
    this.bytesDram += bytes;
    this.reqDram++;
    return t + busy;
  }

  /** Serves the request at the head of a slice's queue; false when it must wait (slice blocked). */
  private l2Serve(slice: number): boolean {
    const buf = this.qBuf[slice];
    const p = buf[this.qHead[slice]];
    const line = Math.floor(this.pAddr[p] / this.l2Line);
    const tags = this.l2[slice];
    const kind = this.pKind[p];
    const eBase = slice * this.l2E;
    if (this.l2Uncached) {
      if (kind === PK_STORE) {
        this.dramAccess(slice, Math.max(this.pBytes[p], this.c.dram.burstBytes));
        this.reqL2++;
        this.storeTaken(p);
        return true;
      }
      if (this.l2MUsed[slice] === this.l2E) return false;
      const e = this.l2FreeEntry[eBase + --this.l2FreeTop[slice]];
      this.l2MLine[e] = line;
      this.l2MSlot[e] = -1;
      this.l2MCount[e] = 1;
      this.l2MPk[e * this.l2M] = p;
      this.l2MUsed[slice]++;
      this.reqL2++;
      const done = this.dramAccess(slice, Math.max(this.pBytes[p], this.c.dram.burstBytes));
      this.events.push(Math.ceil(done + this.c.dram.latency), EV_DRAM_FILL, e);
      return true;
    }
    const slot = tags.find(line);
    const need = this.sectorMask(p);
    if (kind === PK_STORE && this.l2WriteFetch && (slot < 0 || tags.state[slot] === T_RESERVED)) return this.l2StoreMissFetch(slice, p, slot, line);
    if (kind === PK_STORE) {
      if (slot >= 0) {
        tags.dirty[slot] = 1;
        tags.sectors[slot] |= need;
        tags.touch(slot);
        this.l2PortUse = this.pBytes[p];
      } else {
        const v = tags.victim(line);
        if (v < 0) return false;
        if (this.dqCap > 0 && !this.dqRoom(slice, this.dqNeed(slice, line, 0))) return false;
        this.evictL2(slice, v);
        tags.install(v, line, T_VALID, 1);
        tags.sectors[v] = need;
      }
      this.reqL2++;
      this.storeTaken(p);
      return true;
    }
    if (slot >= 0 && tags.state[slot] === T_VALID && (tags.sectors[slot] & need) === need) {
      tags.touch(slot);
      this.reqL2++;
      this.hitL2++;
      this.l2PortUse = this.pBytes[p];
      this.sendDown(p, this.now + this.l2After);
      return true;
    }
    const si = slice * this.l2Lines;
    if (slot >= 0 && tags.state[slot] === T_RESERVED && ((tags.sectors[slot] | this.l2SlotFetching[si + slot]) & need) === need) {
      // The fills under way bring what this request needs: merge into the latest (it completes last,
      // the slice's DRAM channel being first come first served).
      const e = this.l2SlotEntry[si + slot];
      if (this.l2MCount[e] >= this.l2M) return false;
      this.l2MPk[e * this.l2M + this.l2MCount[e]++] = p;
      this.reqL2++;
      return true;
    }
    if (this.l2MUsed[slice] === this.l2E) return false;
    if (this.dqCap > 0 && !this.dqRoom(slice, slot >= 0 ? 1 : this.dqNeed(slice, line, 1))) return false;
    let v = slot;
    let fetch = need;
    if (v >= 0) {
      // A line (valid, or with fills under way) lacking some of the sectors asked for: fetch only those.
      fetch = need & ~(tags.sectors[v] | this.l2SlotFetching[si + v]);
      tags.state[v] = T_RESERVED;
      tags.touch(v);
    } else {
      v = tags.victim(line);
      if (v < 0) return false;
      this.evictL2(slice, v);
      tags.install(v, line, T_RESERVED, 0);
      tags.sectors[v] = 0;
    }
    const e = this.l2FreeEntry[eBase + --this.l2FreeTop[slice]];
    this.l2SlotEntry[si + v] = e;
    this.l2SlotPending[si + v]++;
    this.l2SlotFetching[si + v] |= fetch;
    this.l2MLine[e] = line;
    this.l2MSlot[e] = v;
    this.l2MMask[e] = fetch;
    this.l2MCount[e] = 1;
    this.l2MPk[e * this.l2M] = p;
    this.l2MUsed[slice]++;
    this.reqL2++;
    this.dramRead(slice, line, popcount(fetch) * this.l2Sector, e);
    return true;
  }

  /**
   * GPGPU-Sim 3.2's L2 write miss (gpu-cache.cc `wr_miss_wa`, L2 configured write-back with write
   * allocate): the store goes on to DRAM and a read of the line is sent as for a load miss: it merges
   * into the line's fetch under way (taking a merger field) or takes a new MSHR entry and line. The
   * filled line is clean (the data already went to DRAM). False when the slice must wait.
   */
  private l2StoreMissFetch(slice: number, p: number, slot: number, line: number): boolean {
    const tags = this.l2[slice];
    const si = slice * this.l2Lines;
    if (slot >= 0) {
      const e = this.l2SlotEntry[si + slot];
      if (this.l2MCount[e] >= this.l2M) return false;
      if (!this.dqRoom(slice, 1)) return false;
      this.l2MPk[e * this.l2M + this.l2MCount[e]++] = -1;
    } else {
      if (this.l2MUsed[slice] === this.l2E) return false;
      const v = tags.victim(line);
      if (v < 0) return false;
      if (this.dqCap > 0 && !this.dqRoom(slice, this.dqNeed(slice, line, 2))) return false;
      this.evictL2(slice, v);
      tags.install(v, line, T_RESERVED, 0);
      tags.sectors[v] = 0;
      const all = this.l2Sectors >= 31 ? -1 : (1 << this.l2Sectors) - 1;
      const e = this.l2FreeEntry[slice * this.l2E + --this.l2FreeTop[slice]];
      this.l2SlotEntry[si + v] = e;
      this.l2SlotPending[si + v]++;
      this.l2SlotFetching[si + v] |= all;
      this.l2MLine[e] = line;
      this.l2MSlot[e] = v;
      this.l2MMask[e] = all;
      this.l2MCount[e] = 1;
      this.l2MPk[e * this.l2M] = -1;
      this.l2MUsed[slice]++;
      this.dramWrite(slice, line, this.pBytes[p], this.acks ? p : -1);
      this.dramRead(slice, line, this.l2Line, e);
      this.reqL2++;
      if (!this.acks) this.freePacket(p);
      return true;
    }
    this.dramWrite(slice, line, this.pBytes[p], this.acks ? p : -1);
    this.reqL2++;
    if (!this.acks) this.freePacket(p);
    return true;
  }

  /** A slice took store packet p: with storeAcks it goes back to its SM as a reply, else it is done. */
  private storeTaken(p: number): void {
    if (!this.acks) {
      this.freePacket(p);
      return;
    }
    this.pBytes[p] = 0;
    this.sendDown(p, this.now + this.l2After);
  }

  /** Sectors of its L2 line a request touches (one bit when lines are not sectored). */
  private sectorMask(p: number): number {
    if (this.l2Sectors === 1) return 1;
    const off = this.pAddr[p] % this.l2Line;
    const first = Math.floor(off / this.l2Sector);
    const last = Math.min(this.l2Sectors - 1, Math.floor((off + Math.max(1, this.pBytes[p]) - 1) / this.l2Sector));
    return ((1 << (last + 1)) - 1) & ~((1 << first) - 1);
  }

  /** A valid dirty line leaving an L2 slice is written back (its valid sectors). */
  private evictL2(slice: number, v: number): void {
    const tags = this.l2[slice];
    if (tags.state[v] === T_VALID && tags.dirty[v]) {
      this.dramWrite(slice, tags.tags[v], popcount(tags.sectors[v]) * this.l2Sector);
      // The data array reads the whole line out for the write-back (use_data_port: MISS with WRITE_BACK_REQUEST_SENT).
      this.l2PortUse = this.l2Line;
    }
  }

  /** One cycle of a slice; true when it served something. */
  private l2Step(slice: number): boolean {
    if (this.qLen[slice] === 0) return false;
    if (this.l2Blocked[slice]) return false;
    if (this.l2PortBytes > 0) {
      // l2.port: one lookup per slice cycle, while the data port is free (memory_sub_partition::cache_cycle).
      if (this.l2PortFree[slice] > this.now) return false;
      // responsePorts: the L2 -> icnt queue (8 replies waiting for the slice's port) is full.
      if (this.respPorts && this.slDownFree[slice] > this.now + this.respBacklog) return false;
      // l2.dramQueue: cache_cycle looks nothing up, hits included, while m_L2_dram_queue is full (the L2
      // miss queue drains into it each L2 cycle, so it is full when the ring holds its size). dqStep
      // unblocks the slice when DRAM takes one.
      if (this.dqQueue > 0 && this.dqLen[slice] >= this.dqQueue) {
        this.l2Blocked[slice] = 1;
        return false;
      }
      this.l2PortUse = 0;
      if (!this.l2Serve(slice)) {
        this.l2Blocked[slice] = 1;
        return false;
      }
      this.qHead[slice] = (this.qHead[slice] + 1) % this.qBuf[slice].length;
      if (--this.qLen[slice] === 0) {
        this.qMask[slice >> 5] &= ~(1 << (slice & 31));
        this.qSlices--;
      }
      this.l2PortFree[slice] = this.now + this.l2PortCycles * Math.max(1, Math.ceil(this.l2PortUse / this.l2PortBytes));
      return true;
    }
    let served = false;
    for (let n = 0; n < 16 && this.qLen[slice] > 0; n++) {
      if (this.l2CyclesPerByte > 0 && this.l2Free[slice] >= this.now + 1) break;
      const p = this.qBuf[slice][this.qHead[slice]];
      const bytes = this.pBytes[p];
      if (!this.l2Serve(slice)) {
        this.l2Blocked[slice] = 1;
        break;
      }
      this.qHead[slice] = (this.qHead[slice] + 1) % this.qBuf[slice].length;
      if (--this.qLen[slice] === 0) {
        this.qMask[slice >> 5] &= ~(1 << (slice & 31));
        this.qSlices--;
      }
      served = true;
      if (this.l2CyclesPerByte === 0) break;
      // Bandwidth mode: a slice moves bytesPerCycle / partitions bytes per cycle.
      this.l2Free[slice] = (this.l2Free[slice] > this.now ? this.l2Free[slice] : this.now) + bytes * this.l2CyclesPerByte;
    }
    return served;
  }

  private dramFill(e: number): void {
    const slice = Math.floor(e / this.l2E);
    if (this.l2PortBytes > 0 && !this.draining) {
      // l2.port: the fill waits for the slice's fill port and holds it line / port width slice cycles.
      if (this.l2FillFree[slice] > this.now) {
        this.events.push(this.l2FillFree[slice], EV_DRAM_FILL, e);
        return;
      }
      this.l2FillFree[slice] = this.now + this.l2PortCycles * Math.ceil(this.l2Line / this.l2PortBytes);
    }
    const v = this.l2MSlot[e];
    if (v >= 0) {
      const si = slice * this.l2Lines + v;
      this.l2[slice].sectors[v] |= this.l2MMask[e];
      if (--this.l2SlotPending[si] === 0) {
        this.l2[slice].fill(v);
        this.l2SlotEntry[si] = -1;
        this.l2SlotFetching[si] = 0;
      }
    }
    const n = this.l2MCount[e];
    const ready = this.now + (this.l2Uncached ? 0 : this.l2After);
    for (let i = 0; i < n; i++) {
      const q = this.l2MPk[e * this.l2M + i];
      if (q >= 0) this.sendDown(q, ready); // -1: a store's line fetch (writeMissFetch), nothing to return
    }
    this.l2MLine[e] = -1;
    this.l2FreeEntry[slice * this.l2E + this.l2FreeTop[slice]++] = e;
    this.l2MCount[e] = 0;
    this.l2MUsed[slice]--;
    this.l2Blocked[slice] = 0;
  }

  // =============================================================================================
  // SM side: completions and fills
  // =============================================================================================

  /** A group of a load delivered its data to register r of warp w at cycle t. */
  private complete(w: number, r: number, t: number): void {
    const i = w * R + r;
    if (this.rReady[i] < t) this.rReady[i] = t;
    const left = --this.wPending[w];
    if (--this.rPending[i] === 0) {
      if (r !== this.k.hiddenReg) {
        this.latSum += this.rReady[i] - this.rIssue[i];
        this.latCount++;
      }
    } else if (left !== 0) return;
    // A register became ready or the warp has nothing in flight: its SM may issue again.
    this.wake(w);
    const sm = (w / this.maxW) | 0;
    if (this.smWake[sm] > this.now) this.smWake[sm] = this.now;
  }

  /**
   * The cycle a returning access writes its register. With writebackPort one access per lsuCycles
   * goes through the SM's single load writeback (GPGPU-Sim 3.x shader.cc ldst_unit::writeback: one
   * m_next_wb per cycle; a filled line's merged requests leave the MSHR one at a time,
   * gpu-cache.cc mshr_table::next_access); otherwise the cycle after arrival.
   */
  private writebackAt(sm: number): number {
    if (!this.wbPort) return this.now + 1;
    const t = this.wbFree[sm] > this.now + 1 ? this.wbFree[sm] : this.now + 1;
    this.wbFree[sm] = t + this.lsuCycles;
    return t;
  }

  private smArrive(p: number): void {
    const sm = this.pSm[p];
    if (this.pKind[p] === PK_STORE) {
      // storeAcks: a store's reply; the warp may end once none is outstanding. GPGPU-Sim's
      // averagemflatency counts it too (simt_core_cluster::icnt_cycle calls memlatstat_read_done for
      // every data response, WRITE_ACKs included).
      this.fetchLatSum += this.now - this.pIssue[p];
      this.fetchLatCount++;
      const w = this.pA[p];
      if (--this.wPending[w] === 0) {
        this.wake(w);
        if (this.smWake[sm] > this.now) this.smWake[sm] = this.now;
      }
      this.freePacket(p);
      return;
    }
    this.fetchLatSum += this.now - this.pIssue[p];
    this.fetchLatCount++;
    if (this.pKind[p] === PK_L1FILL) {
      const e = this.pA[p];
      if (this.l1OnFill) {
        // allocate 'fill': the line takes a way now; no way is ever reserved, so a victim exists.
        const tags = this.l1[sm];
        const line = this.mLine[e];
        tags.install(tags.victim(line), line, T_VALID, 0);
        this.l1Pend[sm].delete(line);
      } else {
        const slot = this.mSlot[e];
        this.l1[sm].fill(slot);
        this.l1SlotEntry[sm * this.l1Lines + slot] = -1;
      }
      const n = this.mCount[e];
      const base = e * this.l1M;
      for (let i = 0; i < n; i++) this.complete(this.mWarp[base + i], this.mReg[base + i], this.writebackAt(sm));
      this.mLine[e] = -1;
      this.mFreeEntry[sm * this.l1E + this.mFreeTop[sm]++] = e;
      this.mCount[e] = 0;
      this.mUsed[sm]--;
      this.mshrInUse--;
      this.mergersInUse -= n;
      this.mMerged[sm] -= n;
      if (this.lsuStall[sm] >= 0) this.lsuStall[sm] = -1;
    } else {
      this.complete(this.pA[p], this.pB[p], this.writebackAt(sm));
    }
    this.freePacket(p);
  }

  private processEvents(): void {
    const q = this.events;
    while (q.size > 0 && q.time[0] <= this.now) {
      const kind = q.topKind();
      const a = q.topArg();
      q.pop();
      switch (kind) {
        case EV_L2_ARRIVE:
          this.enqueue(this.pSlice[a], a);
          break;
        case EV_DRAM_FILL:
          this.dramFill(a);
          break;
        case EV_SM_ARRIVE:
          this.smArrive(a);
          break;
        case EV_NET_ARRIVE:
          this.ejPush(a);
          break;
      }
    }
  }

  // =============================================================================================
  // LSU
  // =============================================================================================

  private stall(sm: number, reason: number): void {
    this.lsuStall[sm] = reason;
    this.stalls[reason]++;
    this.accStall++;
  }

  /** One cycle of an SM's LSU: serves one group; true when it served one. */
  private lsuStep(sm: number): boolean {
    if (!this.lsuBusy[sm]) return false;
    // Still on the previous group (lsuCycles > 1): busy, not stalled.
    if (this.lsuFree[sm] > this.now) return true;
    const g = sm * GMAX + this.lsuNext[sm];
    const w = this.lsuWarp[sm];
    const r = this.lsuReg[sm];
    const addr = this.gAddr[g];
    switch (this.gKind[g]) {
      case G_L1LD: {
        const line = Math.floor(addr / this.l1Line);
        const tags = this.l1[sm];
        const slot = tags.find(line);
        // allocate 'fill': a pending line is not in the tags; its MSHR entry is found by line.
        const pend = this.l1OnFill && slot < 0 ? (this.l1Pend[sm].get(line) ?? -1) : -1;
        if (slot >= 0 && tags.state[slot] === T_VALID) {
          tags.touch(slot);
          const i = w * R + r;
          const t = this.now + this.c.l1!.hitLatency;
          if (this.rReady[i] < t) this.rReady[i] = t;
          this.reqL1++;
          this.hitL1++;
        } else if (slot >= 0 || pend >= 0) {
          // GPGPU-Sim 3.2.2 rd_miss_base: miss_queue_full(1) fails the access before the MSHR probe.
          if (this.miqE > 0 && this.miqLen[sm] + 1 >= this.miqE) {
            this.stall(sm, S_MISSQUEUE);
            return false;
          }
          const e = pend >= 0 ? pend : this.l1SlotEntry[sm * this.l1Lines + slot];
          const n = this.mCount[e];
          if (n >= this.l1M) {
            this.stall(sm, S_NOMERGER);
            return false;
          }
          this.mWarp[e * this.l1M + n] = w;
          this.mReg[e * this.l1M + n] = r;
          this.mCount[e] = n + 1;
          this.mergersInUse++;
          if (++this.mMerged[sm] > this.peakMergers) this.peakMergers = this.mMerged[sm];
          this.rPending[w * R + r]++;
          this.wPending[w]++;
          this.reqL1++;
        } else {
          const v = this.l1OnFill ? -1 : tags.victim(line);
          if (v < 0 && !this.l1OnFill) {
            this.stall(sm, S_NOCACHELINE);
            return false;
          }
          if (this.miqE > 0 && this.miqLen[sm] + 1 >= this.miqE) {
            this.stall(sm, S_MISSQUEUE);
            return false;
          }
          if (this.mUsed[sm] === this.l1E) {
            this.stall(sm, S_NOMSHRLINE);
            return false;
          }
          const e = this.mFreeEntry[sm * this.l1E + --this.mFreeTop[sm]];
          if (this.l1OnFill) this.l1Pend[sm].set(line, e);
          else {
            tags.install(v, line, T_RESERVED, 0);
            this.l1SlotEntry[sm * this.l1Lines + v] = e;
          }
          this.mLine[e] = line;
          this.mSlot[e] = v;
          this.mCount[e] = 1;
          this.mWarp[e * this.l1M] = w;
          this.mReg[e * this.l1M] = r;
          if (++this.mUsed[sm] > this.peakMshr) this.peakMshr = this.mUsed[sm];
          this.mshrInUse++;
          this.mergersInUse++;
          if (++this.mMerged[sm] > this.peakMergers) this.peakMergers = this.mMerged[sm];
          this.rPending[w * R + r]++;
          this.wPending[w]++;
          this.reqL1++;
          this.fetchL1++;
          this.toIcnt(sm, this.newPacket(sm, PK_L1FILL, line * this.l1Line, this.l1Line, e, 0));
        }
        break;
      }
      case G_READ: {
        const seg = this.c.bypassBytes;
        let mask = this.gMask[g];
        for (let b = 0; mask !== 0; b++, mask >>>= 1) {
          if (!(mask & 1)) continue;
          this.rPending[w * R + r]++;
          this.wPending[w]++;
          this.sendUp(this.newPacket(sm, PK_READ, addr + b * seg, seg, w, r));
        }
        break;
      }
      case G_ST: {
        let hitSlot = -1;
        let pending = false;
        if (this.stTags) {
          // storeTags: data_cache::access probes the tags first; an all-reserved set without the line
          // is a RESERVATION_FAIL whatever the write policy (process_tag_probe calls neither handler).
          const tags = this.l1[sm];
          const slot = tags.find(Math.floor(addr / this.l1Line));
          if (slot < 0 && tags.victim(Math.floor(addr / this.l1Line)) < 0) {
            this.stall(sm, S_NOCACHELINE);
            return false;
          }
          if (slot >= 0) {
            if (tags.state[slot] === T_VALID) hitSlot = slot;
            else pending = true;
          } else if (this.l1OnFill && this.l1Pend[sm].has(Math.floor(addr / this.l1Line))) pending = true;
        }
        // wr_miss_no_wa / wr_hit_we: miss_queue_full(0).
        if (this.miqE > 0 && this.miqLen[sm] >= this.miqE) {
          this.stall(sm, S_MISSQUEUE);
          return false;
        }
        if (this.stTags) {
          this.stAccesses++;
          if (hitSlot >= 0) {
            // wr_hit_we: global write-evict, the line is invalidated.
            this.l1[sm].tags[hitSlot] = -1;
            this.l1[sm].state[hitSlot] = T_INVALID;
          } else if (pending) this.stPending++;
          else this.stMisses++;
        }
        // storeAcks: the warp waits for the reply before it can end (pA names it).
        if (this.acks) this.wPending[w]++;
        this.toIcnt(sm, this.newPacket(sm, PK_STORE, addr, this.gBytes[g], w, 0));
        break;
      }
      case G_SHARED: {
        let t = this.now;
        if (this.shFree[sm] > t) t = this.shFree[sm];
        this.shFree[sm] = t + this.gBytes[g] * this.shCyclesPerByte;
        this.sharedAccesses++;
        if (r >= 0) {
          const i = w * R + r;
          const ready = t + this.c.shared.latency;
          if (this.rReady[i] < ready) this.rReady[i] = ready;
        }
        break;
      }
    }
    this.lsuStall[sm] = -1;
    this.lsuFree[sm] = this.now + this.lsuCycles;
    if (++this.lsuNext[sm] < this.lsuN[sm]) {
      // More of the instruction to serve: a coalescing stall when the next access is to another
      // line (LASH VII-B: serialization to different cache lines). A further segment of the same line
      // (segmentBySize) keeps the LSU busy without being one of LASH's stalls.
      if (Math.floor(this.gAddr[g + 1] / this.l1Line) !== Math.floor(addr / this.l1Line) || this.gKind[g + 1] !== this.gKind[g]) {
        this.stalls[S_COALESCING] += this.lsuCycles;
        this.accStall += this.lsuCycles;
      }
    } else {
      this.lsuBusy[sm] = 0;
      if (r >= 0) this.complete(w, r, this.now);
      else if (this.acks && --this.wPending[w] === 0) this.wake(w);
      if (this.ocN > 0) this.ocToLsu(sm);
      else if (this.memQ > 0) this.lsuNextFromQueue(sm);
      this.lsuFreed(sm);
      if (this.smWake[sm] > this.now) this.smWake[sm] = this.now;
    }
    return true;
  }

  // =============================================================================================
  // Addresses and coalescing
  // =============================================================================================

  /** Element index of one thread, clamped into the array. */
  private indexOf(ix: CompiledIndex, w: number, tid: number, length: number): number {
    const v = this.rawIndex(ix, w, tid);
    return v < 0 ? 0 : v >= length ? length - 1 : v;
  }

  /** Element index of one thread before clamping. */
  private rawIndex(ix: CompiledIndex, w: number, tid: number): number {
    let v = ix.offset;
    const bid = this.wBid[w];
    const bdim = this.k.kernel.block;
    for (let t = 0; t < ix.n; t++) {
      const code = ix.vars[t];
      let x: number;
      if (code === VAR_TID) x = tid;
      else if (code === VAR_GTID) x = bid * bdim + tid;
      else if (code === VAR_BID) x = bid;
      else if (code === VAR_BDIM) x = bdim;
      else if (code === VAR_GDIM) x = this.k.kernel.grid;
      else x = this.wLoop[w * this.k.loopVars + (code - VAR_LOOP)];
      const d = ix.div[t];
      if (d > 1) x = Math.floor(x / d);
      const m = ix.mod[t];
      if (m > 0) x = ((x % m) + m) % m;
      v += ix.coef[t] * x;
    }
    return Math.floor(v);
  }

  /** Byte addresses of the active lanes into laneAddr; returns the lane count. */
  private laneAddresses(w: number, ins: CInstr): number {
    const a = this.k.arrays[ins.array];
    const lanes = this.wLanes[w];
    const tid0 = this.wInBlock[w] * 32;
    const ix = ins.index!;
    if (!ix.laneDependent) {
      const addr = a.base + this.indexOf(ix, w, tid0, a.length) * a.elemBytes;
      for (let l = 0; l < lanes; l++) this.laneAddr[l] = addr;
      return lanes;
    }
    if (ix.laneStride !== undefined) {
      // Linear in the lane with whole coefficients: lane l's index is lane 0's plus l x stride (then clamped).
      const v0 = this.rawIndex(ix, w, tid0);
      const last = a.length - 1;
      for (let l = 0; l < lanes; l++) {
        const v = v0 + l * ix.laneStride;
        this.laneAddr[l] = a.base + (v < 0 ? 0 : v > last ? last : v) * a.elemBytes;
      }
      return lanes;
    }
    for (let l = 0; l < lanes; l++) this.laneAddr[l] = a.base + this.indexOf(ix, w, tid0 + l, a.length) * a.elemBytes;
    return lanes;
  }

  /**
   * Groups n addresses (each covering `span` bytes from src[i]) into aligned blocks of `group` bytes,
   * noting which `seg`-byte segments of each block are touched, and appends one LSU group per block.
   */
  private coalesce(sm: number, src: Float64Array, n: number, span: number, group: number, seg: number, kind: number): void {
    const base = sm * GMAX;
    const first = this.lsuN[sm];
    // Integer masks and shifts where sizes are powers of two and addresses fit 31 bits (the usual case).
    const ints = (seg & (seg - 1)) === 0 && (group & (group - 1)) === 0 && group < 2 ** 30;
    const segMask = ~(seg - 1);
    const groupMask = ~(group - 1);
    const segShift = 31 - Math.clz32(seg);
    for (let i = 0; i < n; i++) {
      const lo = src[i];
      const hi = lo + span - 1;
      const fast = ints && hi < 2 ** 31;
      for (let a = fast ? lo & segMask : Math.floor(lo / seg) * seg; a <= hi; a += seg) {
        const ga = fast ? a & groupMask : Math.floor(a / group) * group;
        const bit = 1 << (fast ? (a - ga) >>> segShift : Math.floor((a - ga) / seg));
        const end = this.lsuN[sm];
        // consecutive lanes usually fall in the group of the lane before
        let j = end > first && this.gAddr[base + end - 1] === ga ? end - 1 : first;
        while (j < end && this.gAddr[base + j] !== ga) j++;
        if (j === end) {
          if (end === GMAX) throw new Error('an instruction produced more memory groups than the LSU buffer holds');
          this.gAddr[base + j] = ga;
          this.gKind[base + j] = kind;
          this.gMask[base + j] = bit;
          this.lsuN[sm] = end + 1;
        } else this.gMask[base + j] |= bit;
      }
    }
    for (let j = first; j < this.lsuN[sm]; j++) this.gBytes[base + j] = popcount(this.gMask[base + j]) * seg;
  }

  /**
   * Puts the instruction's groups in descending address order (accessOrder 'descending'): GPGPU-Sim
   * 3.x builds a warp's accesses in ascending segment order (abstract_hardware_model.cc
   * memory_coalescing_arch_13, a std::map by block address) and the LSU serves accessq_back() first
   * (shader.cc ldst_unit::memory_cycle, process_memory_access_queue). Lane order is ascending for the
   * monotonic patterns here; a sort keeps it right for any pattern.
   */
  private reverseGroups(sm: number): void {
    const base = sm * GMAX;
    const n = this.lsuN[sm];
    for (let i = 1; i < n; i++) {
      const ad = this.gAddr[base + i];
      const k = this.gKind[base + i];
      const m = this.gMask[base + i];
      const b = this.gBytes[base + i];
      let j = i - 1;
      while (j >= 0 && this.gAddr[base + j] < ad) {
        this.gAddr[base + j + 1] = this.gAddr[base + j];
        this.gKind[base + j + 1] = this.gKind[base + j];
        this.gMask[base + j + 1] = this.gMask[base + j];
        this.gBytes[base + j + 1] = this.gBytes[base + j];
        j--;
      }
      this.gAddr[base + j + 1] = ad;
      this.gKind[base + j + 1] = k;
      this.gMask[base + j + 1] = m;
      this.gBytes[base + j + 1] = b;
    }
  }

  private addShared(sm: number, bytes: number): void {
    const j = this.lsuN[sm]++;
    this.gKind[sm * GMAX + j] = G_SHARED;
    this.gBytes[sm * GMAX + j] = bytes;
    this.gAddr[sm * GMAX + j] = 0;
    this.gMask[sm * GMAX + j] = 0;
  }

  /** Puts an ordinary global or shared access of warp w in the LSU, or in its queue when it is busy (memQueue). */
  private startAccess(sm: number, w: number, ins: CInstr): void {
    const reg = ins.op === OP_LD ? ins.dst : -1;
    if (this.ocN > 0) {
      // Into ID_OC_MEM (lsuRoom checked it is free), through the collector stages (ocStep).
      let slot = 0;
      while (this.slotUsed[sm * this.memQ + slot]) slot++;
      const q = sm * this.memQ + slot;
      this.slotUsed[q] = 1;
      this.mqLen[sm]++;
      this.buildGroups(this.sms + q, w, ins);
      this.mqWarp[q] = w;
      this.mqReg[q] = reg;
      this.wPending[w]++;
      if (reg >= 0) this.rPending[w * R + reg]++;
      this.ocIdoc[sm] = slot;
      this.ocIdocT[sm] = this.now;
      return;
    }
    if (!this.lsuBusy[sm]) {
      this.buildGroups(sm, w, ins);
      this.lsuGo(sm, w, reg);
      return;
    }
    // GPGPU-Sim 3.x: the instruction's accesses are formed at issue (shader.cc issue_warp ->
    // func_exec_inst -> generate_mem_accesses) and it waits in the memory pipeline (ID_OC_MEM, the
    // memory operand collectors, OC_EX_MEM) for the LSU's dispatch register; its destination register
    // is reserved at issue (scoreboard reserveRegisters).
    const slot = (this.mqHead[sm] + this.mqLen[sm]++) % this.memQ;
    const q = sm * this.memQ + slot;
    this.buildGroups(this.sms + q, w, ins);
    this.mqWarp[q] = w;
    this.mqReg[q] = reg;
    this.wPending[w]++;
    if (reg >= 0) this.rPending[w * R + reg]++;
  }

  /** Forms the groups (coalesced accesses) of warp w's instruction in buffer region `region`. */
  private buildGroups(region: number, w: number, ins: CInstr): void {
    const a = this.k.arrays[ins.array];
    this.lsuN[region] = 0;
    const n = this.laneAddresses(w, ins);
    const isLoad = ins.op === OP_LD;
    if (a.shared) this.addShared(region, n * a.elemBytes);
    else if (isLoad && this.useL1) {
      const seg = this.c.segmentBySize ? Math.min(this.l1Line, 32 * Math.min(4, a.elemBytes)) : this.l1Line;
      this.coalesce(region, this.laneAddr, n, a.elemBytes, seg, seg, G_L1LD);
    }
    else if (isLoad) this.coalesce(region, this.laneAddr, n, a.elemBytes, this.c.coalesceBytes, this.c.bypassBytes, G_READ);
    else this.coalesce(region, this.laneAddr, n, a.elemBytes, this.useL1 ? this.l1Line : this.c.coalesceBytes, this.c.bypassBytes, G_ST);
    if (this.descending && !a.shared) this.reverseGroups(region);
  }

  /** The LSU of sm is free: it takes the queue's oldest instruction, if any. */
  private lsuNextFromQueue(sm: number): void {
    if (this.mqLen[sm] === 0) return;
    const q = sm * this.memQ + this.mqHead[sm];
    this.mqHead[sm] = (this.mqHead[sm] + 1) % this.memQ;
    this.lsuTake(sm, q);
  }

  /**
   * memCollectors: one step of sm's memory pipeline stages, once per issue slot, in GPGPU-Sim 3.x
   * shader_core_ctx::cycle's order (execute, then read_operands: dispatch_ready_cu, allocate_reads,
   * allocate_cu), before the schedulers issue.
   */
  private ocStep(sm: number): boolean {
    if (this.mqLen[sm] === 0) return false;
    const now = this.now;
    const ic = this.issueCycles;
    // execute: the LSU's dispatch register takes OC_EX_MEM (ldst_unit::can_issue: dispatch register empty).
    const took = this.lsuBusy[sm] === 0 && this.ocToLsu(sm);
    // dispatch_ready_cu: round-robin from the unit after the last that dispatched; ready once its
    // operand was read (allocated two steps ago) and OC_EX_MEM is free.
    const N = this.ocN;
    const cb = sm * N;
    if (this.ocEx[sm] < 0) {
      for (let n = 0; n < N; n++) {
        const c = (this.ocLast[sm] + n + 1) % N;
        if (this.ocCu[cb + c] >= 0 && now >= this.ocCuT[cb + c] + 2 * ic) {
          this.ocEx[sm] = this.ocCu[cb + c];
          this.ocExT[sm] = now;
          this.ocCu[cb + c] = -1;
          this.ocLast[sm] = c;
          break;
        }
      }
    }
    // allocate_cu: ID_OC_MEM's instruction (issued in an earlier cycle) to the first free unit.
    if (this.ocIdoc[sm] >= 0 && now >= this.ocIdocT[sm] + ic) {
      for (let k = 0; k < N; k++) {
        if (this.ocCu[cb + k] < 0) {
          this.ocCu[cb + k] = this.ocIdoc[sm];
          this.ocCuT[cb + k] = now;
          this.ocIdoc[sm] = -1;
          this.lsuFreed(sm);
          break;
        }
      }
    }
    return took;
  }

  /** memCollectors: the next cycle at which a stage of sm's memory pipeline can move (ocNext; the LSU's freeing wakes the SM itself). */
  private ocStepTime(sm: number): void {
    const now = this.now;
    const ic = this.issueCycles;
    const N = this.ocN;
    const cb = sm * N;
    let t = Infinity;
    if (this.ocIdoc[sm] >= 0 && this.ocIdocT[sm] + ic > now) t = this.ocIdocT[sm] + ic;
    if (this.ocEx[sm] >= 0 && this.ocExT[sm] + ic > now && this.ocExT[sm] + ic < t) t = this.ocExT[sm] + ic;
    for (let k = 0; k < N; k++) if (this.ocCu[cb + k] >= 0 && this.ocCuT[cb + k] + 2 * ic > now && this.ocCuT[cb + k] + 2 * ic < t) t = this.ocCuT[cb + k] + 2 * ic;
    this.ocNext[sm] = t;
  }

  /** memCollectors: no SM's memory pipeline or LSU holds an instruction (a store without storeAcks may outlive its warp). */
  private memPipesEmpty(): boolean {
    for (let sm = 0; sm < this.sms; sm++) if (this.mqLen[sm] > 0 || this.lsuBusy[sm]) return false;
    return true;
  }

  /** memCollectors: the free LSU takes OC_EX_MEM's instruction if it entered in an earlier cycle. */
  private ocToLsu(sm: number): boolean {
    const slot = this.ocEx[sm];
    if (slot < 0 || this.now < this.ocExT[sm] + this.issueCycles) return false;
    this.ocEx[sm] = -1;
    const q = sm * this.memQ + slot;
    this.slotUsed[q] = 0;
    this.lsuTake(sm, q);
    return true;
  }

  /** The LSU takes the instruction waiting in queue slot q (sm x memQ + i). */
  private lsuTake(sm: number, q: number): void {
    this.mqLen[sm]--;
    const src = (this.sms + q) * GMAX;
    const dst = sm * GMAX;
    const n = this.lsuN[this.sms + q];
    for (let j = 0; j < n; j++) {
      this.gAddr[dst + j] = this.gAddr[src + j];
      this.gKind[dst + j] = this.gKind[src + j];
      this.gMask[dst + j] = this.gMask[src + j];
      this.gBytes[dst + j] = this.gBytes[src + j];
    }
    this.lsuN[sm] = n;
    const w = this.mqWarp[q];
    const reg = this.mqReg[q];
    // The reservation made at issue becomes the LSU's own count (lsuGo adds one back).
    this.wPending[w]--;
    if (reg >= 0) this.rPending[w * R + reg]--;
    this.lsuGo(sm, w, reg);
    if (reg < 0 && this.wPending[w] === 0) this.wake(w);
  }

  /** The LSU of sm is idle with nothing queued (what S-L1's multi-part accesses need). */
  private lsuIdle(sm: number): boolean {
    return this.lsuBusy[sm] === 0 && this.mqLen[sm] === 0;
  }

  /** Whether an ordinary memory instruction may issue on sm now: the LSU is idle or its queue has room. */
  private lsuRoom(sm: number): boolean {
    if (this.ocN > 0) return this.ocIdoc[sm] < 0;
    return this.lsuBusy[sm] === 0 || this.mqLen[sm] < this.memQ;
  }

  private lsuGo(sm: number, w: number, reg: number): void {
    this.lsuBusy[sm] = 1;
    this.lsuWarp[sm] = w;
    this.lsuReg[sm] = reg;
    this.lsuNext[sm] = 0;
    this.lsuStall[sm] = -1;
    if (reg >= 0) {
      const i = w * R + reg;
      this.rPending[i]++;
      this.wPending[w]++;
      this.rIssue[i] = this.now;
      this.rReady[i] = this.now;
    } else if (this.acks) this.wPending[w]++; // storeAcks: the warp cannot end while the LSU still serves its store
  }

  // =============================================================================================
  // S-L1
  // =============================================================================================

  /** Extra instructions an S-L1 access of warp w will run (reads the tags, changes nothing). */
  private sl1Extra(w: number, ins: CInstr): number {
    const cfg = this.k.kernel.sl1!;
    const a = this.k.arrays[ins.array];
    if (a.slot < 0) return cfg.accessInstructions;
    const n = this.laneAddresses(w, ins);
    const lb = cfg.lineBytes;
    let miss = 0;
    let wb = 0;
    const base = w * 32 * this.sl1Slots;
    for (let l = 0; l < n; l++) {
      const line = Math.floor(this.laneAddr[l] / lb);
      const ti = base + l * this.sl1Slots + a.slot;
      if (this.sl1Tag[ti] !== line) {
        miss = 1;
        if (this.sl1Dirty[ti]) wb = 1;
      }
    }
    return cfg.accessInstructions + (miss ? cfg.missInstructions : 0) + (wb ? cfg.writebackInstructions : 0);
  }

  /** The memory part of an S-L1 access: write-backs, line loads of missing lanes, the shared access. */
  private sl1Access(sm: number, w: number, ins: CInstr): void {
    const cfg = this.k.kernel.sl1!;
    const a = this.k.arrays[ins.array];
    const isLoad = ins.op === OP_LD;
    if (a.slot < 0) {
      this.startAccess(sm, w, ins);
      return;
    }
    this.lsuN[sm] = 0;
    const n = this.laneAddresses(w, ins);
    const lb = cfg.lineBytes;
    const base = w * 32 * this.sl1Slots;
    let nMiss = 0;
    let nWb = 0;
    // Write-backs first (their old lines), then the new lines' loads.
    for (let l = 0; l < n; l++) {
      const line = Math.floor(this.laneAddr[l] / lb);
      const ti = base + l * this.sl1Slots + a.slot;
      if (this.sl1Tag[ti] !== line && this.sl1Dirty[ti]) this.segAddr[nWb++] = this.sl1Tag[ti] * lb;
    }
    if (nWb) this.linePieces(sm, nWb, lb, G_ST);
    for (let l = 0; l < n; l++) {
      const line = Math.floor(this.laneAddr[l] / lb);
      const ti = base + l * this.sl1Slots + a.slot;
      if (this.sl1Tag[ti] !== line) {
        this.segAddr[nMiss++] = line * lb;
        this.sl1Tag[ti] = line;
        this.sl1Dirty[ti] = isLoad ? 0 : 1;
      } else if (!isLoad) this.sl1Dirty[ti] = 1;
    }
    if (nMiss) this.linePieces(sm, nMiss, lb, G_READ);
    this.sl1Hits += n - nMiss;
    this.sl1Misses += nMiss;
    this.sl1Writebacks += nWb;
    // S-L1's miss path writes each fetched line into its shared-memory line and a write-back reads the
    // dirty line from there first (SL1 3.2.3 accessThroughCache: loadNewData, dumpToMemory): that
    // shared-memory traffic, then the access itself.
    if (nMiss + nWb > 0) this.addShared(sm, (nMiss + nWb) * lb);
    this.addShared(sm, n * a.elemBytes);
    if (isLoad) this.lsuGo(sm, w, ins.dst);
    else if (nMiss) {
      // A store that misses loads the line first (write-allocate); the warp waits for it.
      this.lsuGo(sm, w, this.k.hiddenReg);
    } else this.lsuGo(sm, w, -1); // only write-backs and the shared write: no register
  }

  /**
   * Moves n software lines (start addresses in segAddr) as global loads or stores of at most 16 B
   * per thread (the widest access, SL1 3.1): ceil(lineBytes / 16) instructions, each coalesced over
   * the lanes on its own, so a 24 B line costs two (16 + 8 B).
   */
  private linePieces(sm: number, n: number, lb: number, kind: number): void {
    const pieces = Math.ceil(lb / SL1_ACCESS_BYTES);
    for (let p = 0; p < pieces; p++) {
      const off = p * SL1_ACCESS_BYTES;
      const span = Math.min(SL1_ACCESS_BYTES, lb - off);
      for (let i = 0; i < n; i++) this.pieceAddr[i] = this.segAddr[i] + off;
      this.coalesce(sm, this.pieceAddr, n, span, this.c.coalesceBytes, this.c.bypassBytes, kind);
    }
    this.warpInstructions += pieces;
    this.accInstr += pieces;
  }

  /** Dirty S-L1 lines of a finishing warp: count the slots with any, or write them back. */
  private sl1DirtySlots(w: number): number {
    let n = 0;
    const lanes = this.wLanes[w];
    const base = w * 32 * this.sl1Slots;
    for (let s = 0; s < this.sl1Slots; s++) {
      for (let l = 0; l < lanes; l++)
        if (this.sl1Dirty[base + l * this.sl1Slots + s]) {
          n++;
          break;
        }
    }
    return n;
  }

  private sl1Flush(sm: number, w: number): void {
    const lb = this.k.kernel.sl1!.lineBytes;
    this.lsuN[sm] = 0;
    const lanes = this.wLanes[w];
    const base = w * 32 * this.sl1Slots;
    for (let s = 0; s < this.sl1Slots; s++) {
      let n = 0;
      for (let l = 0; l < lanes; l++) {
        const ti = base + l * this.sl1Slots + s;
        if (this.sl1Dirty[ti]) {
          this.segAddr[n++] = this.sl1Tag[ti] * lb;
          this.sl1Dirty[ti] = 0;
        }
      }
      this.sl1Writebacks += n;
      if (n) this.linePieces(sm, n, lb, G_ST);
    }
    this.lsuGo(sm, w, -1);
  }

  // =============================================================================================
  // Warps and issue
  // =============================================================================================

  /** Follows loop markers until the pc rests on an instruction. */
  private settle(w: number): void {
    const prog = this.prog;
    const L = this.k.loopVars;
    for (;;) {
      const ins = prog[this.wPc[w]];
      if (ins.op === OP_LOOP) {
        if (ins.count === 0) this.wPc[w] = ins.jump;
        else {
          this.wLoop[w * L + ins.loopVar] = ins.start;
          this.wPc[w]++;
        }
      } else if (ins.op === OP_ENDLOOP) {
        const i = w * L + ins.loopVar;
        if (++this.wLoop[i] < ins.start + ins.count) this.wPc[w] = ins.jump + 1;
        else this.wPc[w]++;
      } else return;
    }
  }

  private advance(w: number): void {
    this.wPc[w]++;
    this.settle(w);
  }

  private regsReady(w: number, uses: Int32Array): boolean {
    const b = w * R;
    for (let i = 0; i < uses.length; i++) {
      const r = b + uses[i];
      if (this.rPending[r] !== 0 || this.rReady[r] > this.now) return false;
    }
    return true;
  }

  /** Warp w may be able to issue sooner than its wake time said: it is probed again (and its scheduler). */
  private wake(w: number): void {
    this.wNext[w] = 0;
    const l = w % this.maxW;
    this.schedNext[((w - l) / this.maxW) * this.nsched + (l % this.nsched)] = 0;
  }

  /**
   * canIssue, skipping warps whose wake time is still ahead; a warp that cannot issue gets its wake
   * time (a lower bound, reset by whatever can bring it forward: its data arriving, its own issue, a
   * barrier, the LSU freeing for warps waiting on it).
   */
  private probe(sm: number, w: number): boolean {
    if (this.wNext[w] > this.now) return false;
    if (this.canIssue(sm, w)) return true;
    const t = this.wakeTime(sm, w);
    this.wNext[w] = t;
    // (waits on the LSU: an ordinary access for room in its queue, an S-L1 access for it to be idle)
    if (t === Infinity && !this.lsuIdle(sm) && !this.wLsuListed[w] && this.wState[w] === W_ACTIVE) {
      const ins = this.prog[this.wPc[w]];
      if (ins.op === OP_LD || ins.op === OP_ST || ins.op === OP_EXIT) {
        this.wLsuListed[w] = 1;
        this.lsuWaiters[sm * this.maxW + this.lsuWaitTop[sm]++] = w;
      }
    }
    return false;
  }

  /** The LSU of sm took its last group: warps that waited for it look again. */
  private lsuFreed(sm: number): void {
    const base = sm * this.maxW;
    while (this.lsuWaitTop[sm] > 0) {
      const w = this.lsuWaiters[base + --this.lsuWaitTop[sm]];
      this.wLsuListed[w] = 0;
      this.wake(w);
    }
  }

  /** Whether warp w (on SM sm) can issue its next instruction this cycle. */
  private canIssue(sm: number, w: number): boolean {
    if (this.wState[w] !== W_ACTIVE || this.wWait[w] > this.now) return false;
    if (this.ibufSize > 0 && (this.wIb[w] === 0 || this.wIbReady[w] > this.now)) return false;
    if (this.rPending[w * R + this.k.hiddenReg] !== 0) return false;
    const ins = this.prog[this.wPc[w]];
    switch (ins.op) {
      case OP_ALU:
        if (this.wAluRemain[w] > 0) return true;
        return this.regsReady(w, ins.uses) && (ins.dst < 0 || this.rPending[w * R + ins.dst] === 0);
      case OP_LD:
        if (ins.sl1 && this.wPhase[w] < 2) return this.rPending[w * R + ins.dst] === 0;
        return (ins.sl1 ? this.lsuIdle(sm) : this.lsuRoom(sm)) && this.rPending[w * R + ins.dst] === 0;
      case OP_ST:
        if (!this.regsReady(w, ins.uses)) return false;
        if (ins.sl1 && this.wPhase[w] < 2) return true;
        return ins.sl1 ? this.lsuIdle(sm) : this.lsuRoom(sm);
      case OP_SYNC:
        return true;
      case OP_EXIT:
        if (this.wPhase[w] === 1) return true;
        if (this.wPhase[w] === 2) return this.lsuIdle(sm);
        return this.wPending[w] === 0;
    }
    return false;
  }

  /** Earliest cycle after now at which warp w could issue if no event happened (Infinity: only an event can free it). */
  private wakeTime(sm: number, w: number): number {
    if (this.wState[w] !== W_ACTIVE) return Infinity;
    if (this.rPending[w * R + this.k.hiddenReg] !== 0) return Infinity;
    let t = this.wWait[w] > this.now ? this.wWait[w] : this.now + 1;
    if (this.ibufSize > 0) {
      if (this.wIb[w] === 0) return Infinity; // the fetch unit wakes it
      if (this.wIbReady[w] > t) t = this.wIbReady[w];
    }
    const ins = this.prog[this.wPc[w]];
    const b = w * R;
    if (ins.op === OP_ALU && this.wAluRemain[w] > 0) return t;
    if (ins.op === OP_EXIT) return this.wPending[w] === 0 || this.wPhase[w] === 1 ? t : Infinity;
    if ((ins.op === OP_LD || ins.op === OP_ALU) && ins.dst >= 0 && this.rPending[b + ins.dst] !== 0) return Infinity;
    for (let i = 0; i < ins.uses.length; i++) {
      const r = b + ins.uses[i];
      if (this.rPending[r] !== 0) return Infinity;
      if (this.rReady[r] > t) t = this.rReady[r];
    }
    if ((ins.op === OP_LD || ins.op === OP_ST) && !(ins.sl1 ? this.lsuIdle(sm) : this.lsuRoom(sm)) && !(ins.sl1 && this.wPhase[w] < 2)) return Infinity;
    return t;
  }

  /** Issues warp w's next instruction (canIssue said yes). */
  private execute(sm: number, w: number): void {
    const ins = this.prog[this.wPc[w]];
    this.wake(w);
    switch (ins.op) {
      case OP_ALU: {
        if (this.wAluRemain[w] === 0) this.wAluRemain[w] = ins.count;
        this.warpInstructions++;
        this.accInstr++;
        if (--this.wAluRemain[w] > 0) this.wWait[w] = this.now + this.c.aluLatency;
        else {
          if (ins.dst >= 0) this.rReady[w * R + ins.dst] = this.now + this.c.aluLatency;
          this.wWait[w] = this.now + 1;
          this.advance(w);
        }
        return;
      }
      case OP_LD:
      case OP_ST: {
        if (ins.sl1) {
          if (this.wPhase[w] === 0) {
            this.wExtra[w] = this.sl1Extra(w, ins);
            this.wPhase[w] = 1;
          }
          if (this.wPhase[w] === 1) {
            this.warpInstructions++;
            this.accInstr++;
            if (--this.wExtra[w] <= 0) {
              this.wPhase[w] = 2;
              this.wWait[w] = this.now + this.c.aluLatency;
            } else this.wWait[w] = this.now + 1;
            return;
          }
          this.wPhase[w] = 0;
          this.sl1Access(sm, w, ins);
        } else this.startAccess(sm, w, ins);
        this.warpInstructions++;
        this.accInstr++;
        this.wWait[w] = this.now + 1;
        this.advance(w);
        return;
      }
      case OP_SYNC: {
        this.warpInstructions++;
        this.accInstr++;
        const b = this.wBlock[w];
        this.wState[w] = W_BARRIER;
        if (++this.bArrived[b] === this.bWarps[b]) {
          this.bArrived[b] = 0;
          const first = sm * this.maxW;
          for (let x = first; x < first + this.maxW; x++)
            if (this.wBlock[x] === b && this.wState[x] === W_BARRIER) {
              this.wState[x] = W_ACTIVE;
              this.wake(x);
              this.wWait[x] = this.now + 1;
              this.advance(x);
            }
        }
        return;
      }
      case OP_EXIT: {
        if (this.sl1Slots > 0 && this.wPhase[w] === 0) {
          const dirty = this.sl1DirtySlots(w);
          if (dirty > 0) {
            this.wExtra[w] = dirty * this.k.kernel.sl1!.writebackInstructions;
            this.wPhase[w] = this.wExtra[w] > 0 ? 1 : 2;
            if (this.wPhase[w] === 2) return;
          } else this.wPhase[w] = 3;
        }
        if (this.wPhase[w] === 1) {
          this.warpInstructions++;
          this.accInstr++;
          if (--this.wExtra[w] <= 0) this.wPhase[w] = 2;
          this.wWait[w] = this.now + 1;
          return;
        }
        if (this.wPhase[w] === 2) {
          this.sl1Flush(sm, w);
          this.wPhase[w] = 3;
          this.wWait[w] = this.now + 1;
          return;
        }
        this.retire(sm, w);
        return;
      }
    }
  }

  private retire(sm: number, w: number): void {
    this.wState[w] = W_DONE;
    this.doneWarps++;
    const b = this.wBlock[w];
    if (--this.bLeft[b] === 0) {
      // The block is done: free its warp slots and resources.
      const first = sm * this.maxW;
      for (let x = first; x < first + this.maxW; x++)
        if (this.wBlock[x] === b && this.wState[x] === W_DONE) {
          this.wState[x] = W_FREE;
          this.wBlock[x] = -1;
        }
      this.smWarps[sm] -= this.bWarps[b];
      this.smThreads[sm] -= this.bThreads[b];
      this.smShared[sm] -= this.bShared[b];
      this.smBlocks[sm]--;
      this.bBid[b] = -1;
      this.blocksDone++;
      this.dispatchPending = 1;
      if (this.o.progress && (this.blocksDone & 15) === 0) this.o.progress(this.doneWarps, this.totalWarps);
    }
  }

  /** The least wake time (wNext) of the warps of the scheduler whose first warp slot is `first`. */
  private leastNext(first: number): number {
    const end = first - (first % this.maxW) + this.maxW;
    let lo = Infinity;
    for (let w = first; w < end; w += this.nsched) if (this.wNext[w] < lo) lo = this.wNext[w];
    return lo;
  }

  /** One cycle of an SM's schedulers; true when any issued. */
  private issue(sm: number): boolean {
    if (this.smWake[sm] > this.now) return false;
    // (the LSU taking an instruction keeps the clock running: the main loop's lsuStep serves it)
    let any = this.ocN > 0 && this.ocStep(sm);
    const S = this.nsched;
    const base = sm * this.maxW;
    // Schedulers go in a fixed order each cycle, as GPGPU-Sim's issue stage (the LSU takes one instruction per cycle).
    for (let s = 0; s < S; s++) {
      const li = sm * S + s;
      if (this.schedFree[li] > this.now) continue; // still issuing its previous instruction
      if (this.schedNext[li] > this.now) continue; // every warp's wake time is still ahead: no probe could succeed
      const last = this.lastIssued[li];
      let pick = -1;
      if (this.gto) {
        if (last >= 0 && this.probe(sm, last)) pick = last;
        else {
          let bestAge = Infinity;
          for (let l = s; l < this.maxW; l += S) {
            const w = base + l;
            if (this.wAge[w] < bestAge && this.probe(sm, w)) {
              bestAge = this.wAge[w];
              pick = w;
            }
          }
        }
        if (pick < 0) this.schedNext[li] = this.leastNext(base + s);
      } else {
        const count = Math.ceil((this.maxW - s) / S);
        let k = last >= 0 ? ((last - base - s) / S + 1) % count : 0;
        let lo = Infinity;
        const wNext = this.wNext;
        const now = this.now;
        for (let n = 0; n < count; n++, k = k + 1 === count ? 0 : k + 1) {
          const w = base + s + k * S;
          const nx = wNext[w];
          if (nx > now) {
            if (nx < lo) lo = nx; // (probe's first test, inline: most warps are waiting)
            continue;
          }
          if (this.probe(sm, w)) {
            pick = w;
            break;
          }
          if (wNext[w] < lo) lo = wNext[w];
        }
        // (no pick: every warp was probed and lo is the least wake time)
        if (pick < 0) this.schedNext[li] = lo;
      }
      if (pick >= 0) {
        this.lastIssued[li] = pick;
        this.execute(sm, pick);
        if (this.ibufSize > 0 && --this.wIb[pick] === 0 && this.wState[pick] !== W_DONE) this.requestFetch(sm, pick);
        this.schedFree[li] = this.now + this.issueCycles;
        any = true;
      }
    }
    if (this.fqLen[sm] > 0 && this.fetchFree[sm] <= this.now) this.fetchServe(sm);
    if (any) this.smWake[sm] = this.now + 1;
    else {
      // Nothing could issue: sleep until the earliest warp could, or until an event wakes the SM.
      // Every warp of a free scheduler was probed or has a wake time still ahead (wNext); a busy
      // scheduler's warps wait for it at least.
      // A free scheduler's schedNext is its warps' least wake time here (set by this cycle's scan, or
      // by the last one if none of its warps was woken since, which would have zeroed it). A busy
      // scheduler issued when it became busy, and the warp it issued (wake time 0, not probed since)
      // waits for it.
      let t = Infinity;
      for (let s = 0; s < S; s++) {
        const free = this.schedFree[sm * S + s];
        const lo = free > this.now ? free : this.schedNext[sm * S + s];
        if (lo < t) t = lo;
      }
      if (this.fqLen[sm] > 0) {
        const f = this.fetchFree[sm] > this.now ? this.fetchFree[sm] : this.now + 1;
        if (f < t) t = f;
      }
      this.smWake[sm] = t;
    }
    if (this.ocN > 0) {
      // Stages that moved or entries issued this cycle: when the pipeline can move next.
      if (this.mqLen[sm] > 0) this.ocStepTime(sm);
      if (this.mqLen[sm] > 0 && this.smWake[sm] > this.ocNext[sm]) this.smWake[sm] = this.ocNext[sm];
    }
    return any;
  }

  /** Warp w's instruction buffer is empty: it waits for the SM's fetch unit (GPGPU-Sim shader.cc fetch()). */
  private requestFetch(sm: number, w: number): void {
    if (this.fq[w]) return;
    this.fq[w] = 1;
    this.fqLen[sm]++;
    const t = this.fetchFree[sm] > this.now ? this.fetchFree[sm] : this.now;
    if (this.smWake[sm] > t) this.smWake[sm] = t;
  }

  /**
   * The fetch unit refills one warp's instruction buffer per issueCycles (GPGPU-Sim 3.x:
   * shader_core_ctx::fetch takes one warp with an empty buffer per cycle, round-robin over the warp
   * slots from the one fetched last, decode fills its
   * IBUFFER_SIZE = 2 entries the next cycle, and they issue the cycle after: fetch.latency).
   */
  private fetchServe(sm: number): void {
    // The next warp slot after the last one fetched that waits (shader_core_ctx::fetch scans from
    // m_last_warp_fetched + 1).
    const base = sm * this.maxW;
    let w = -1;
    for (let i = 1; i <= this.maxW; i++) {
      const x = base + ((this.fqHead[sm] + i) % this.maxW);
      if (this.fq[x]) {
        w = x;
        break;
      }
    }
    this.fq[w] = 0;
    this.fqHead[sm] = w - base;
    this.fqLen[sm]--;
    this.fetchFree[sm] = this.now + this.issueCycles;
    if (this.wState[w] === W_FREE || this.wState[w] === W_DONE) return;
    this.wIb[w] = this.ibufSize;
    this.wIbReady[w] = this.now + this.fetchLatency;
    this.wake(w);
  }

  // =============================================================================================
  // Blocks
  // =============================================================================================

  private fits(sm: number): boolean {
    const k = this.k;
    return (
      this.smWarps[sm] + k.warpsPerBlock <= this.maxW &&
      this.smThreads[sm] + k.kernel.block <= this.c.maxThreadsPerSM &&
      this.smBlocks[sm] < this.maxB &&
      this.smShared[sm] + k.sharedBytesPerBlock <= this.c.shared.bytesPerSM
    );
  }

  private dispatch(): void {
    this.dispatchPending = 0;
    const grid = this.k.kernel.grid;
    while (this.nextBlock < grid) {
      let placed = false;
      let later = false;
      for (let i = 0; i < this.sms; i++) {
        const sm = (this.rrSm + i) % this.sms;
        if (this.fits(sm)) {
          if (this.launchFree[sm] > this.now) {
            later = true; // launchCycles: this SM took a block too recently
            continue;
          }
          this.place(sm, this.nextBlock++);
          if (this.launchCycles > 0) this.launchFree[sm] = this.now + this.launchCycles;
          this.rrSm = (sm + 1) % this.sms;
          placed = true;
          break;
        }
      }
      if (!placed) {
        if (later) this.dispatchPending = 1;
        return;
      }
    }
  }

  private place(sm: number, bid: number): void {
    const k = this.k;
    let b = sm * this.maxB;
    while (this.bBid[b] !== -1) b++;
    this.bBid[b] = bid;
    this.bLeft[b] = k.warpsPerBlock;
    this.bWarps[b] = k.warpsPerBlock;
    this.bArrived[b] = 0;
    this.bShared[b] = k.sharedBytesPerBlock;
    this.bThreads[b] = k.kernel.block;
    this.smWarps[sm] += k.warpsPerBlock;
    this.smThreads[sm] += k.kernel.block;
    this.smShared[sm] += k.sharedBytesPerBlock;
    this.smBlocks[sm]++;
    if (this.smWake[sm] > this.now + 1) this.smWake[sm] = this.now + 1;
    let l = 0;
    for (let i = 0; i < k.warpsPerBlock; i++) {
      while (this.wState[sm * this.maxW + l] !== W_FREE) l++;
      const w = sm * this.maxW + l;
      this.wState[w] = W_ACTIVE;
      this.wBlock[w] = b;
      this.wBid[w] = bid;
      this.wInBlock[w] = i;
      this.wLanes[w] = Math.min(32, k.kernel.block - i * 32);
      this.wWait[w] = this.now + 1;
      this.wAluRemain[w] = 0;
      this.wExtra[w] = 0;
      this.wPhase[w] = 0;
      this.wAge[w] = this.ageCounter++;
      this.wake(w);
      this.wPending[w] = 0;
      this.rPending.fill(0, w * R, w * R + R);
      this.rReady.fill(0, w * R, w * R + R);
      if (this.sl1Slots > 0) {
        this.sl1Tag.fill(-1, w * 32 * this.sl1Slots, (w + 1) * 32 * this.sl1Slots);
        this.sl1Dirty.fill(0, w * 32 * this.sl1Slots, (w + 1) * 32 * this.sl1Slots);
      }
      this.wPc[w] = 0;
      this.settle(w);
      if (this.ibufSize > 0) {
        this.wIb[w] = 0;
        this.requestFetch(sm, w);
      }
    }
  }

  // =============================================================================================
  // Epochs
  // =============================================================================================

  /** Time-weighted occupancy over [now, now + span), closing epochs on the way. */
  private accrue(span: number): void {
    let t = this.now;
    const end = this.now + span;
    while (t < end) {
      const boundary = (this.epochIdx + 1) * this.epochLen;
      const seg = (end < boundary ? end : boundary) - t;
      this.accMshr += this.mshrInUse * seg;
      this.accMerger += this.mergersInUse * seg;
      t += seg;
      if (t >= boundary) this.closeEpoch(this.epochLen);
    }
  }

  private closeEpoch(len: number): void {
    this.eCycle.push(this.epochIdx * this.epochLen);
    this.eMshr.push(this.accMshr / len / this.sms);
    this.eMerger.push(this.accMerger / len / this.sms);
    this.eInstr.push(this.accInstr);
    this.eStall.push(this.accStall);
    this.accMshr = 0;
    this.accMerger = 0;
    this.accInstr = 0;
    this.accStall = 0;
    this.epochIdx++;
  }

  // =============================================================================================
  // Main loop
  // =============================================================================================

  runKernel(k: CompiledKernel): void {
    this.k = k;
    this.prog = k.program;
    this.schedNext.fill(0);
    this.nextBlock = 0;
    this.blocksDone = 0;
    this.rrSm = 0;
    const W = this.sms * this.maxW;
    if (this.wLoop.length < W * Math.max(1, k.loopVars)) this.wLoop = new Int32Array(W * Math.max(1, k.loopVars));
    this.sl1Slots = k.sl1Slots;
    if (k.sl1Slots > 0 && this.sl1Tag.length < W * 32 * k.sl1Slots) {
      this.sl1Tag = new Float64Array(W * 32 * k.sl1Slots);
      this.sl1Dirty = new Uint8Array(W * 32 * k.sl1Slots);
    }
    let empty = true;
    for (let sm = 0; sm < this.sms; sm++) {
      this.lastIssued.fill(-1, sm * this.nsched, (sm + 1) * this.nsched);
      if (this.smBlocks[sm] !== 0) empty = false;
    }
    if (!empty) throw new Error('internal: SMs not empty at kernel start');
    if (!this.fits(0))
      throw new Error(
        `kernel ${k.kernel.name}: one block (${k.kernel.block} threads, ${k.warpsPerBlock} warps, ${k.sharedBytesPerBlock} B shared) does not fit on an SM`,
      );
    this.dispatch();
    const grid = k.kernel.grid;
    const sms = this.sms;
    const P = this.P;
    for (;;) {
      this.processEvents();
      let act = false;
      if (this.miqE > 0) for (let sm = 0; sm < sms; sm++) if (this.miqStep(sm)) act = true;
      for (let sm = 0; sm < sms; sm++) if (this.lsuStep(sm)) act = true;
      if (this.ejQ > 0 && this.ejStep()) act = true;
      // Slices with queued requests, in ascending order (the mask is read again after each step).
      if (this.qSlices > 0) {
        for (let wi = 0; wi < this.qMask.length; wi++)
          for (let from = 0; from < 32; ) {
            const m = (this.qMask[wi] >>> from) << from;
            if (m === 0) break;
            const bit = 31 - Math.clz32(m & -m);
            if (this.l2Step(wi * 32 + bit)) act = true;
            from = bit + 1;
          }
      }
      if (this.dqCap > 0 && this.dqStep()) act = true;
      if (this.dramT && this.dramStep()) act = true;
      if (this.drCap > 0 && this.drStep()) act = true;
      for (let sm = 0; sm < sms; sm++) if (this.smBlocks[sm] > 0 && this.issue(sm)) act = true;
      if (this.dispatchPending) {
        this.dispatch();
        act = true;
      }
      if (this.blocksDone === grid && this.outstanding === 0 && (this.ocN === 0 || this.memPipesEmpty())) {
        this.accrue(1);
        this.now++;
        return;
      }
      let next = this.now + 1;
      if (!act) {
        next = this.events.peekTime();
        for (let sm = 0; sm < sms; sm++) if (this.smBlocks[sm] > 0 && this.smWake[sm] < next) next = this.smWake[sm];
        const queued = this.qSlices > 0;
        if (queued) for (let p = 0; p < P; p++) if (this.qLen[p] > 0 && !this.l2Blocked[p] && this.l2Free[p] < next) next = Math.max(this.now + 1, Math.ceil(this.l2Free[p]));
        if (this.l2PortBytes > 0 && queued)
          for (let p = 0; p < P; p++)
            if (this.qLen[p] > 0 && !this.l2Blocked[p]) {
              let t = this.l2PortFree[p];
              if (this.respPorts && this.slDownFree[p] - this.respBacklog > t) t = Math.ceil(this.slDownFree[p] - this.respBacklog);
              if (t < next) next = t;
            }
        if (this.miqE > 0)
          for (let sm = 0; sm < sms; sm++)
            if (this.miqLen[sm] > 0) {
              const t = this.miqReadyAt(sm);
              if (t < next) next = t;
            }
        if (this.dramT) {
          const d = this.dramT.nextTime();
          if (d < next) next = d;
        }
        if (this.drCap > 0) {
          const d = this.drWake();
          if (d < next) next = d;
        }
        if (this.ejQ > 0) for (let p = 0; p < P; p++) if (this.ejLen[p] > 0 && this.qLen[p] < this.ejQ && this.ejNext[p] < next) next = this.ejNext[p];
        if (this.dqCap > 0)
          for (let ch = 0; ch < this.chSlices.length; ch++) {
            if (this.dramT!.full(ch)) continue;
            const list = this.chSlices[ch];
            for (let j = 0; j < list.length; j++)
              if (this.dqLen[list[j]] > 0) {
                if (this.dqNext[ch] < next) next = this.dqNext[ch];
                break;
              }
          }
        if (next === Infinity) throw new Error(`kernel ${k.kernel.name}: deadlock at cycle ${this.now} (no warp can proceed and nothing is in flight)`);
        next = Math.max(this.now + 1, Math.ceil(next));
        const skipped = next - this.now - 1;
        if (skipped > 0)
          for (let sm = 0; sm < sms; sm++) {
            const r = this.lsuStall[sm];
            if (this.lsuBusy[sm] && r >= 0) {
              this.stalls[r] += skipped;
              this.accStall += skipped;
            }
          }
      }
      this.accrue(next - this.now);
      this.now = next;
      if (this.now > this.o.maxCycles) throw new Error(`simulation passed ${this.o.maxCycles} cycles (maxCycles)`);
    }
  }

  /**
   * After the last kernel: lets the command-level DRAM finish what it still holds (stores sent on,
   * write-backs, a store's line fetch) so its counts are complete. The clock does not move: a kernel
   * ends when its blocks do, not when DRAM has drained (GPGPU-Sim: stores are done at the L2).
   */
  drainDram(): void {
    const d = this.dramT;
    if (!d) return;
    this.draining = true;
    // Requests still in the L2 -> DRAM queues go in first (on a scratch clock; the kernel's end stays).
    const end = this.now;
    for (let guard = 0; guard < 1e7 && this.dqCap > 0 && this.dqWaiting(); guard++) {
      let t = d.nextTime();
      for (let ch = 0; ch < this.dqNext.length; ch++) if (this.dqNext[ch] < t) t = this.dqNext[ch];
      this.now = Math.max(this.now + 1, Math.ceil(t));
      this.dqStep();
      d.advance(this.now);
      for (let i = 0; i < d.doneN; i++) this.drainDone(d.doneEntry[i]);
      d.doneN = 0;
    }
    this.now = end;
    for (let guard = 0; guard < 1e7; guard++) {
      const t = d.nextTime();
      if (t === Infinity) break;
      d.advance(Math.ceil(t));
      for (let i = 0; i < d.doneN; i++) this.drainDone(d.doneEntry[i]);
      d.doneN = 0;
    }
    // dramReturn: what still waits on the way back is done too.
    for (let sl = 0; sl < this.drLen.length; sl++)
      for (; this.drLen[sl] > 0; this.drLen[sl]--) {
        this.drainDone(this.drVal[sl * this.drCap + this.drHead[sl]]);
        this.drHead[sl] = (this.drHead[sl] + 1) % this.drCap;
      }
    for (let ch = 0; ch < this.rtLen.length; ch++)
      for (; this.rtLen[ch] > 0; this.rtLen[ch]--) {
        this.drainDone(this.rtVal[ch][this.rtHead[ch]]);
        this.rtHead[ch] = (this.rtHead[ch] + 1) % this.rtVal[ch].length;
      }
  }

  /** After the last kernel: a DRAM read fills its line; a store's reply has no warp left to wake. */
  private drainDone(e: number): void {
    if (e >= 0) this.dramFill(e);
    else if (e > WB_TAG) this.freePacket(-2 - e);
  }

  stats(): TimingStats {
    const rem = this.now - this.epochIdx * this.epochLen;
    if (rem > 0) this.closeEpoch(rem);
    const stalls = {} as Record<StallReason, number>;
    STALL_REASONS.forEach((r, i) => (stalls[r] = this.stalls[i]));
    const cycles = this.now;
    return {
      cycles,
      warpInstructions: this.warpInstructions,
      ipc: cycles > 0 ? this.warpInstructions / cycles : 0,
      requests: { l1: this.reqL1, l2: this.reqL2, dram: this.reqDram },
      hits: { l1: this.hitL1, l2: this.hitL2 },
      missRate: {
        l1: this.reqL1 > 0 ? (this.reqL1 - this.hitL1) / this.reqL1 : 0,
        l2: this.reqL2 > 0 ? (this.reqL2 - this.hitL2) / this.reqL2 : 0,
      },
      bytes: { interconnect: this.bytesIcnt, dram: this.dramT ? this.dramT.bytes : this.bytesDram },
      // With the command-level model: GPGPU-Sim's bw_util (dram.cc), data-bus cycles of the column
      // commands over all DRAM cycles of all channels.
      dramUtilisation:
        cycles <= 0
          ? 0
          : this.dramT
            ? (this.dramT.colCmds * this.dramT.busCycles) / ((this.c.dram.channels * cycles) / this.dramT.period)
            : this.bytesDram / (this.c.dram.bytesPerCycle * cycles),
      avgMemLatency: this.latCount > 0 ? this.latSum / this.latCount : 0,
      avgFetchLatency: this.fetchLatCount > 0 ? this.fetchLatSum / this.fetchLatCount : 0,
      peak: { mshrEntries: this.peakMshr, mergerFields: this.peakMergers },
      l1Fetches: this.fetchL1,
      ...(this.miqE > 0 ? { missQueueStalls: this.stalls[S_MISSQUEUE] } : {}),
      ...(this.stTags ? { l1Stores: { accesses: this.stAccesses, misses: this.stMisses, pendingHits: this.stPending } } : {}),
      stalls,
      sharedAccesses: this.sharedAccesses,
      sl1: { hits: this.sl1Hits, misses: this.sl1Misses, writebacks: this.sl1Writebacks },
      epochs: {
        cycle: Float64Array.from(this.eCycle),
        mshrOccupancy: Float64Array.from(this.eMshr),
        mergerOccupancy: Float64Array.from(this.eMerger),
        instructions: Float64Array.from(this.eInstr),
        stallCycles: Float64Array.from(this.eStall),
      },
    };
  }
}

/**
 * Runs `kernels` one after another on the GPU `config` describes and returns what happened. Pure and
 * deterministic: the same inputs give the same statistics (no randomness is drawn; `options.seed` is
 * kept for the contract). Throws on a malformed config or kernel, a deadlock, or past maxCycles.
 */
export function simulate(config: TimingConfig, kernels: Kernel[], options: Partial<TimingOptions> = {}): TimingStats {
  const o: TimingOptions = { ...DEFAULT_TIMING_OPTIONS, ...options };
  const problems = checkTimingConfig(config);
  if (problems.length) throw new Error(`timing config: ${problems.join('; ')}`);
  const bases = layoutArrays(kernels, o.baseAddress ?? 0);
  const compiled = kernels.map((k) => compileKernel(k, bases));
  const e = new Engine(config, o);
  e.totalWarps = compiled.reduce((s, k) => s + k.kernel.grid * k.warpsPerBlock, 0);
  for (const k of compiled) e.runKernel(k);
  e.drainDram();
  o.progress?.(e.totalWarps, e.totalWarps);
  return e.stats();
}
