import { schedulerOf } from '../types';
import * as K from './codes';
import type { CInstr } from '../compile';
import type { Fetch } from './fetch';
import type { Issue } from './issue';
import type { Machine } from './machine';
import type { OperandCollector } from './operand-collector';

const OP_ALU: number = K.OP_ALU;
const OP_LD: number = K.OP_LD;
const OP_ST: number = K.OP_ST;
const OP_SYNC: number = K.OP_SYNC;
const OP_EXIT: number = K.OP_EXIT;
const W_ACTIVE: number = K.W_ACTIVE;
const W_DONE: number = K.W_DONE;
const R: number = K.R;

/**
 * The warp schedulers and the scoreboard's issue test. `schedulers` per SM, each owning every
 * `schedulers`-th warp slot and issuing at most one instruction every `issueCycles`: loose
 * round-robin or greedy-then-oldest (the preset's `warpScheduler` unless the run names the other).
 * They go in a fixed order each cycle, as GPGPU-Sim's issue stage. A warp may issue when it is
 * active, its instruction buffer holds an instruction (fetch.ts), its source registers are ready, its
 * destination has no load in flight, and a memory instruction finds room in the memory pipeline.
 *
 * Skipping idle cycles: a warp that cannot issue gets a wake time (wNext, a lower bound reset by
 * whatever can bring it forward); a scheduler whose warps all have wake times ahead is not scanned
 * (schedNext); the SM sleeps until the earliest of them (smWake). Warps waiting for the LSU itself
 * are listed and woken when it frees (`lsuFreed`).
 */
export class Scheduler {
  declare readonly m: Machine;
  declare readonly fetch: Fetch;
  declare readonly oc: OperandCollector;
  declare readonly issueUnit: Issue;
  /** 1: greedy-then-oldest, 0: loose round-robin. */
  declare readonly gto: number;
  /** Per scheduler: the warp it issued last (-1: none), the cycle it may issue again (issueCycles). */
  declare readonly lastIssued: Int32Array;
  declare readonly schedFree: Float64Array;
  /** Warps waiting for their SM's LSU to take an instruction (a stack per SM), and who is in it. */
  declare readonly wLsuListed: Uint8Array;
  declare readonly lsuWaiters: Int32Array;
  declare readonly lsuWaitTop: Int32Array;
  // The machine's and the memory pipeline's arrays this unit reads in its hot loop, held directly
  // (the same arrays, never reallocated): one property load instead of two.
  declare readonly wState: Uint8Array;
  declare readonly wWait: Float64Array;
  declare readonly wNext: Float64Array;
  declare readonly wAge: Float64Array;
  declare readonly wPc: Int32Array;
  declare readonly wPhase: Uint8Array;
  declare readonly wPending: Int32Array;
  declare readonly wAluRemain: Int32Array;
  declare readonly rPending: Int32Array;
  declare readonly rReady: Float64Array;
  declare readonly mqLen: Int32Array;
  declare readonly ocIdoc: Int32Array;
  declare readonly memQ: number;
  declare readonly ocN: number;
  declare readonly schedNext: Float64Array;
  declare readonly smWake: Float64Array;
  /** The cycle being stepped (m.now, copied at the start of step: probe, canIssue and wakeTime run only inside it). */
  declare now: number;
  /** The kernel's program and its hidden register (set by start), the fetch unit's buffers. */
  declare prog: CInstr[];
  declare hiddenReg: number;
  declare readonly ibufSize: number;
  declare readonly wIb: Int32Array;
  declare readonly wIbReady: Float64Array;
  /** Set by the engine: the LSUs' busy flags (lsu.ts). */
  declare lsuBusy: Uint8Array;
  /**
   * Greedy-then-oldest's scan order: per scheduler (at li * perSched), its warp slots from the oldest
   * warp to the youngest (wAge); a slot moves to the end when a new warp takes it (`aged`), so the
   * order stays sorted without sorting (ages only grow). Slots never used keep their first places.
   */
  declare readonly perSched: number;
  declare readonly ageOrder: Int32Array;

  constructor(m: Machine, fetch: Fetch, oc: OperandCollector, issueUnit: Issue) {
    const S = m.sms;
    this.m = m;
    this.fetch = fetch;
    this.oc = oc;
    this.issueUnit = issueUnit;
    this.gto = schedulerOf(m.c, m.o.scheduler) === 'gto' ? 1 : 0;
    this.lastIssued = new Int32Array(S * m.nsched).fill(-1);
    this.schedFree = new Float64Array(S * m.nsched);
    this.wLsuListed = new Uint8Array(S * m.maxW);
    this.lsuWaiters = new Int32Array(S * m.maxW);
    this.lsuWaitTop = new Int32Array(S);
    this.wState = m.wState;
    this.wWait = m.wWait;
    this.wNext = m.wNext;
    this.wAge = m.wAge;
    this.wPc = m.wPc;
    this.wPhase = m.wPhase;
    this.wPending = m.wPending;
    this.wAluRemain = m.wAluRemain;
    this.rPending = m.rPending;
    this.rReady = m.rReady;
    this.schedNext = m.schedNext;
    this.smWake = m.smWake;
    this.now = 0;
    this.prog = [];
    this.hiddenReg = 0;
    this.ibufSize = fetch.ibufSize;
    this.wIb = fetch.wIb;
    this.wIbReady = fetch.wIbReady;
    this.lsuBusy = new Uint8Array(0);
    this.perSched = Math.ceil(m.maxW / m.nsched);
    this.ageOrder = new Int32Array(S * m.nsched * this.perSched).fill(-1);
    for (let sm = 0; sm < S; sm++)
      for (let l = 0; l < m.maxW; l++) this.ageOrder[(sm * m.nsched + (l % m.nsched)) * this.perSched + Math.floor(l / m.nsched)] = sm * m.maxW + l;
    this.mqLen = oc.mqLen;
    this.ocIdoc = oc.ocIdoc;
    this.memQ = oc.memQ;
    this.ocN = oc.ocN;
  }

  /** The LSU of sm is idle with nothing queued (operand-collector.ts idle, inline). */
  private lsuIdle(sm: number): boolean {
    return this.lsuBusy[sm] === 0 && this.mqLen[sm] === 0;
  }

  /** An ordinary memory instruction may issue on sm now (operand-collector.ts room, inline). */
  private lsuRoom(sm: number): boolean {
    if (this.ocN > 0) return this.ocIdoc[sm] < 0;
    return this.lsuBusy[sm] === 0 || this.mqLen[sm] < this.memQ;
  }

  /** A new warp took slot w (its wAge is now the youngest): it moves to the end of its scheduler's age order. */
  aged(w: number): void {
    const m = this.m;
    const l = w % m.maxW;
    const base = (((w - l) / m.maxW) * m.nsched + (l % m.nsched)) * this.perSched;
    const n = Math.ceil((m.maxW - (l % m.nsched)) / m.nsched);
    const order = this.ageOrder;
    let k = base;
    while (order[k] !== w) k++;
    for (; k < base + n - 1; k++) order[k] = order[k + 1];
    order[base + n - 1] = w;
  }

  /** A kernel starts (m.k and m.prog set): no scheduler has issued a warp of it. */
  start(): void {
    const m = this.m;
    this.prog = m.prog;
    this.hiddenReg = m.k.hiddenReg;
    m.schedNext.fill(0);
    for (let sm = 0; sm < m.sms; sm++) this.lastIssued.fill(-1, sm * m.nsched, (sm + 1) * m.nsched);
  }

  private regsReady(w: number, uses: Int32Array): boolean {
    const b = w * R;
    for (let i = 0; i < uses.length; i++) {
      const r = b + uses[i];
      if (this.rPending[r] !== 0 || this.rReady[r] > this.now) return false;
    }
    return true;
  }

  /**
   * canIssue, skipping warps whose wake time is still ahead; a warp that cannot issue gets its wake
   * time (a lower bound, reset by whatever can bring it forward: its data arriving, its own issue, a
   * barrier, the LSU freeing for warps waiting on it).
   */
  private probe(sm: number, w: number): boolean {
    const m = this.m;
    if (this.wNext[w] > this.now) return false;
    if (this.canIssue(sm, w)) return true;
    const t = this.wakeTime(sm, w);
    this.wNext[w] = t;
    // (waits on the LSU: an ordinary access for room in its queue, an S-L1 access for it to be idle)
    if (t === Infinity && !this.lsuIdle(sm) && !this.wLsuListed[w] && this.wState[w] === W_ACTIVE) {
      const ins = this.prog[this.wPc[w]];
      if (ins.op === OP_LD || ins.op === OP_ST || ins.op === OP_EXIT) {
        this.wLsuListed[w] = 1;
        this.lsuWaiters[sm * m.maxW + this.lsuWaitTop[sm]++] = w;
      }
    }
    return false;
  }

  /** The LSU of sm took its last group (or the pipeline moved): warps that waited for it look again. */
  lsuFreed(sm: number): void {
    const m = this.m;
    const base = sm * m.maxW;
    while (this.lsuWaitTop[sm] > 0) {
      const w = this.lsuWaiters[base + --this.lsuWaitTop[sm]];
      this.wLsuListed[w] = 0;
      m.wake(w);
    }
  }

  /** Whether warp w (on SM sm) can issue its next instruction this cycle. */
  private canIssue(sm: number, w: number): boolean {
    const now = this.now;
    if (this.wState[w] !== W_ACTIVE || this.wWait[w] > now) return false;
    if (this.ibufSize > 0 && (this.wIb[w] === 0 || this.wIbReady[w] > now)) return false;
    if (this.rPending[w * R + this.hiddenReg] !== 0) return false;
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
    const now = this.now;
    if (this.wState[w] !== W_ACTIVE) return Infinity;
    if (this.rPending[w * R + this.hiddenReg] !== 0) return Infinity;
    let t = this.wWait[w] > now ? this.wWait[w] : now + 1;
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

  /** One cycle of an SM's schedulers (and its memory pipeline and fetch unit); true when any issued. */
  step(sm: number): boolean {
    const m = this.m;
    const now = m.now;
    const smWake = this.smWake;
    if (smWake[sm] > now) return false;
    this.now = now;
    const oc = this.oc;
    const fetch = this.fetch;
    // (the LSU taking an instruction keeps the clock running: the main loop's LSU step serves it)
    let any = oc.ocN > 0 && oc.step(sm);
    const S = m.nsched;
    const maxW = m.maxW;
    const base = sm * maxW;
    const schedNext = this.schedNext;
    // Schedulers go in a fixed order each cycle, as GPGPU-Sim's issue stage (the LSU takes one instruction per cycle).
    for (let s = 0; s < S; s++) {
      const li = sm * S + s;
      if (this.schedFree[li] > now) continue; // still issuing its previous instruction
      if (schedNext[li] > now) continue; // every warp's wake time is still ahead: no probe could succeed
      const last = this.lastIssued[li];
      let pick = -1;
      if (this.gto) {
        if (last >= 0 && this.probe(sm, last)) pick = last;
        else {
          // The oldest warp that can issue: the first in age order (every older one was probed and
          // cannot). A warp younger than the pick is not probed; its wake time stays a lower bound.
          const order = this.ageOrder;
          const first = li * this.perSched;
          const end = first + Math.ceil((maxW - s) / S);
          const wNext = this.wNext;
          let lo = Infinity;
          for (let k = first; k < end; k++) {
            const w = order[k];
            const nx = wNext[w];
            if (nx > now) {
              if (nx < lo) lo = nx; // (probe's first test, inline)
              continue;
            }
            if (this.probe(sm, w)) {
              pick = w;
              break;
            }
            if (wNext[w] < lo) lo = wNext[w];
          }
          // (no pick: every warp was probed and lo is the least wake time)
          if (pick < 0) schedNext[li] = lo;
        }
      } else {
        const count = Math.ceil((maxW - s) / S);
        let k = last >= 0 ? ((last - base - s) / S + 1) % count : 0;
        let lo = Infinity;
        const wNext = this.wNext;
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
        if (pick < 0) schedNext[li] = lo;
      }
      if (pick >= 0) {
        this.lastIssued[li] = pick;
        this.issueUnit.execute(sm, pick);
        if (fetch.ibufSize > 0 && --fetch.wIb[pick] === 0 && this.wState[pick] !== W_DONE) fetch.request(sm, pick);
        this.schedFree[li] = now + m.issueCycles;
        any = true;
      }
    }
    if (fetch.fqLen[sm] > 0 && fetch.fetchFree[sm] <= now) fetch.step(sm);
    if (any) smWake[sm] = now + 1;
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
        const lo = free > now ? free : schedNext[sm * S + s];
        if (lo < t) t = lo;
      }
      if (fetch.fqLen[sm] > 0) {
        const f = fetch.fetchFree[sm] > now ? fetch.fetchFree[sm] : now + 1;
        if (f < t) t = f;
      }
      smWake[sm] = t;
    }
    if (oc.ocN > 0) {
      // Stages that moved or entries issued this cycle: when the pipeline can move next.
      if (oc.mqLen[sm] > 0) oc.stepTime(sm);
      if (oc.mqLen[sm] > 0 && smWake[sm] > oc.ocNext[sm]) smWake[sm] = oc.ocNext[sm];
    }
    return any;
  }
}
