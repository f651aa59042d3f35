import type { CInstr, CompiledKernel } from '../compile';
import { EventQueue } from '../events';
import type { TimingConfig, TimingOptions } from '../types';
import { R } from './codes';

/**
 * The machine state the timing units share: the configuration they all read, the clock and event
 * queue, the kernel being run, and the per-warp state and register scoreboard that several units
 * write. Each field says which unit writes it; everything else a unit needs lives in the unit.
 * Kept in typed arrays (index w = sm * maxW + warp slot; registers w * R + r) for speed.
 */
export class Machine {
  // ---- configuration (read by all; written once here) ----
  declare readonly c: TimingConfig;
  declare readonly o: TimingOptions;
  declare readonly sms: number;
  declare readonly maxW: number;
  declare readonly maxB: number;
  declare readonly nsched: number;
  /** 1: loads go through the hardware L1 (the config has one and the run asks for it). */
  declare readonly useL1: number;
  declare readonly l1Line: number;
  declare readonly l2Line: number;
  /** L2 slices. */
  declare readonly P: number;
  declare readonly issueCycles: number;
  declare readonly lsuCycles: number;
  /** storeAcks: a store's packet returns to its SM as an 8 B reply; its warp ends only when all came back. */
  declare readonly acks: boolean;

  // ---- time: written by the engine (now) and by every unit that schedules an event ----
  declare now: number;
  declare readonly events: EventQueue;

  // ---- the kernel being run: written by the engine ----
  declare k: CompiledKernel;
  declare prog: CInstr[];

  // ---- warps: written by the block dispatcher (placing a block) and the scheduler (issue) ----
  declare readonly wState: Uint8Array;
  declare readonly wPc: Int32Array;
  declare readonly wBlock: Int32Array;
  declare readonly wBid: Int32Array;
  declare readonly wInBlock: Int32Array;
  declare readonly wLanes: Int32Array;
  /** The cycle warp w may issue again (scheduler). */
  declare readonly wWait: Float64Array;
  declare readonly wAluRemain: Int32Array;
  /** S-L1: extra instructions left of the access being issued, and its phase (scheduler, S-L1 unit). */
  declare readonly wExtra: Int32Array;
  declare readonly wPhase: Uint8Array;
  declare readonly wAge: Float64Array;
  /** Loop variables (scheduler; grown by the engine for each kernel). */
  declare wLoop: Int32Array;
  declare ageCounter: number;

  // ---- scoreboard: written by the LSU and operand collector (reserve), L1 / LSU (complete) ----
  /** Accesses in flight per warp (loads' groups, queued instructions, store replies). */
  declare readonly wPending: Int32Array;
  /** Per register: groups in flight, the cycle its value is ready, the cycle its load issued. */
  declare readonly rPending: Int32Array;
  declare readonly rReady: Float64Array;
  declare readonly rIssue: Float64Array;
  /** A lower bound on the cycle warp w can next issue (0: unknown, look). Scheduler; zeroed by wake(). */
  declare readonly wNext: Float64Array;
  /**
   * Per scheduler, a lower bound of its warps' wNext: the least of them when set by a scan that found
   * nothing to issue (scheduler), 0 once any of them is woken (wake). While it is ahead of now the
   * scheduler has nothing to probe.
   */
  declare readonly schedNext: Float64Array;
  /** Earliest cycle at which a warp of the SM might issue (Infinity: only an event can wake it). Scheduler; brought forward by every unit that frees a warp. */
  declare readonly smWake: Float64Array;
  /** Blocks resident per SM (block dispatcher). */
  declare readonly smBlocks: Int32Array;
  /** The LSU's stall reason per SM, -1: none (LSU; cleared by the L1 miss queue and an L1 fill). */
  declare readonly lsuStall: Int8Array;

  constructor(c: TimingConfig, o: TimingOptions) {
    this.c = c;
    this.o = o;
    this.sms = c.sms;
    this.maxW = c.maxWarpsPerSM;
    this.maxB = c.maxBlocksPerSM;
    this.nsched = c.schedulers;
    this.useL1 = c.l1 && o.l1 === 'hw' ? 1 : 0;
    this.l1Line = c.l1 ? c.l1.lineBytes : 128;
    this.l2Line = c.l2.lineBytes;
    this.P = c.l2.partitions;
    this.issueCycles = Math.max(1, Math.round(c.issueCycles ?? 1));
    this.lsuCycles = Math.max(1, Math.round(c.lsuCycles ?? 1));
    this.acks = c.storeAcks === true;
    this.now = 0;
    this.events = new EventQueue(8192);
    this.prog = [];
    this.k = null as unknown as CompiledKernel;

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
    this.wLoop = new Int32Array(W);
    this.rPending = new Int32Array(W * R);
    this.rReady = new Float64Array(W * R);
    this.rIssue = new Float64Array(W * R);
    this.ageCounter = 0;
    this.schedNext = new Float64Array(this.sms * this.nsched);
    this.smWake = new Float64Array(this.sms);
    this.smBlocks = new Int32Array(this.sms);
    this.lsuStall = new Int8Array(this.sms).fill(-1);
  }

  /** Warp w may be able to issue sooner than its wake time said: it is probed again (and its scheduler). */
  wake(w: number): void {
    this.wNext[w] = 0;
    const l = w % this.maxW;
    this.schedNext[((w - l) / this.maxW) * this.nsched + (l % this.nsched)] = 0;
  }
}
