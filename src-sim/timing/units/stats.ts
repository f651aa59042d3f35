import type { DramModel } from './dram-channel';
import type { StallReason, TimingStats } from '../types';
import { STALL_REASONS } from '../types';
import { S_MISSQUEUE } from './codes';

/**
 * Statistics and epochs: the counters every unit adds to, the time-weighted MSHR and merger
 * occupancy, and the per-epoch series (`epochCycles` cycles each). `record` turns them into the
 * run's TimingStats.
 */
export class Stats {
  // ---- counters (written by the unit named) ----
  // Sums that may pass 2^30 or be fractional (latencies, bytes, occupancy) are single-slot
  // Float64Arrays: a number field that turns from a small integer into a double changes the
  // object's shape mid-run, and with it the code of every unit that holds this object.
  /** Scheduler, S-L1. */
  declare warpInstructions: number;
  /** L1 (loads), LSU. */
  declare reqL1: number;
  declare hitL1: number;
  /** L1 misses that took an MSHR entry and fetched their line (merges excluded). */
  declare fetchL1: number;
  /** L2 slice. */
  declare reqL2: number;
  declare hitL2: number;
  /** DRAM queue. */
  declare reqDram: number;
  declare readonly bytesDram: Float64Array;
  /** Interconnect. */
  declare readonly bytesIcnt: Float64Array;
  /** Scoreboard: load latency (issue to the register's last group), per register. */
  declare readonly latSum: Float64Array;
  declare latCount: number;
  /** LSU writeback: every response's time from its packet's creation. */
  declare readonly fetchLatSum: Float64Array;
  declare fetchLatCount: number;
  /** LSU stall cycles by reason (index S_*; 4: a full L1 miss queue, kept apart from LASH's reasons). */
  declare readonly stalls: Float64Array;
  declare sharedAccesses: number;
  declare sl1Hits: number;
  declare sl1Misses: number;
  declare sl1Writebacks: number;
  /** L1 MSHR table: entries and merger fields in use over all SMs, the largest per-SM counts seen. */
  declare mshrInUse: number;
  declare mergersInUse: number;
  declare peakMshr: number;
  declare peakMergers: number;
  /** L1 storeTags: stores that looked up the tags, missed, found their line pending. */
  declare stAccesses: number;
  declare stMisses: number;
  declare stPending: number;

  // ---- epochs ----
  declare readonly epochLen: number;
  declare readonly sms: number;
  declare epochIdx: number;
  declare readonly accMshr: Float64Array;
  declare readonly accMerger: Float64Array;
  declare accInstr: number;
  declare accStall: number;
  declare readonly eCycle: number[];
  declare readonly eMshr: number[];
  declare readonly eMerger: number[];
  declare readonly eInstr: number[];
  declare readonly eStall: number[];

  constructor(epochCycles: number, sms: number) {
    this.warpInstructions = 0;
    this.reqL1 = 0;
    this.reqL2 = 0;
    this.reqDram = 0;
    this.hitL1 = 0;
    this.fetchL1 = 0;
    this.hitL2 = 0;
    this.bytesIcnt = new Float64Array(1);
    this.bytesDram = new Float64Array(1);
    // (fractional: a Float64Array slot, so the object's shape never changes during a run)
    this.latSum = new Float64Array(1);
    this.latCount = 0;
    this.fetchLatSum = new Float64Array(1);
    this.fetchLatCount = 0;
    this.stalls = new Float64Array(5);
    this.sharedAccesses = 0;
    this.sl1Hits = 0;
    this.sl1Misses = 0;
    this.sl1Writebacks = 0;
    this.mshrInUse = 0;
    this.mergersInUse = 0;
    this.peakMshr = 0;
    this.peakMergers = 0;
    this.stAccesses = 0;
    this.stMisses = 0;
    this.stPending = 0;
    this.epochLen = Math.max(1, Math.round(epochCycles));
    this.sms = sms;
    this.epochIdx = 0;
    this.accMshr = new Float64Array(1);
    this.accMerger = new Float64Array(1);
    this.accInstr = 0;
    this.accStall = 0;
    this.eCycle = [];
    this.eMshr = [];
    this.eMerger = [];
    this.eInstr = [];
    this.eStall = [];
  }

  /** An LSU stall cycle (or `n`) under `reason`. */
  stall(reason: number, n: number): void {
    this.stalls[reason] += n;
    this.accStall += n;
  }

  /** Time-weighted occupancy over [now, now + span), closing epochs on the way. */
  accrue(now: number, span: number): void {
    let t = now;
    const end = now + span;
    while (t < end) {
      const boundary = (this.epochIdx + 1) * this.epochLen;
      const seg = (end < boundary ? end : boundary) - t;
      this.accMshr[0] += this.mshrInUse * seg;
      this.accMerger[0] += this.mergersInUse * seg;
      t += seg;
      if (t >= boundary) this.closeEpoch(this.epochLen);
    }
  }

  closeEpoch(len: number): void {
    this.eCycle.push(this.epochIdx * this.epochLen);
    this.eMshr.push(this.accMshr[0] / len / this.sms);
    this.eMerger.push(this.accMerger[0] / len / this.sms);
    this.eInstr.push(this.accInstr);
    this.eStall.push(this.accStall);
    this.accMshr[0] = 0;
    this.accMerger[0] = 0;
    this.accInstr = 0;
    this.accStall = 0;
    this.epochIdx++;
  }

  /**
   * The run's statistics at cycle `now` (closing the last, partial epoch). `dram`: the command-level
   * model, whose bytes and utilisation replace the bandwidth model's; `channels`, `bytesPerCycle`: the
   * DRAM's; `missQueue`, `storeTags`: whether those L1 features ran (their counts are reported then).
   */
  record(now: number, dram: DramModel | null, channels: number, bytesPerCycle: number, missQueue: boolean, storeTags: boolean): TimingStats {
    const rem = now - this.epochIdx * this.epochLen;
    if (rem > 0) this.closeEpoch(rem);
    const stalls = {} as Record<StallReason, number>;
    STALL_REASONS.forEach((r, i) => (stalls[r] = this.stalls[i]));
    const cycles = now;
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
      bytes: { interconnect: this.bytesIcnt[0], dram: dram ? dram.bytes : this.bytesDram[0] },
      // With the command-level model: GPGPU-Sim's bw_util (dram.cc), data-bus cycles of the column
      // commands over all DRAM cycles of all channels.
      dramUtilisation:
        cycles <= 0
          ? 0
          : dram
            ? (dram.colCmds * dram.busCycles) / ((channels * cycles) / dram.period)
            : this.bytesDram[0] / (bytesPerCycle * cycles),
      avgMemLatency: this.latCount > 0 ? this.latSum[0] / this.latCount : 0,
      avgFetchLatency: this.fetchLatCount > 0 ? this.fetchLatSum[0] / this.fetchLatCount : 0,
      peak: { mshrEntries: this.peakMshr, mergerFields: this.peakMergers },
      l1Fetches: this.fetchL1,
      ...(missQueue ? { missQueueStalls: this.stalls[S_MISSQUEUE] } : {}),
      ...(storeTags ? { l1Stores: { accesses: this.stAccesses, misses: this.stMisses, pendingHits: this.stPending } } : {}),
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
