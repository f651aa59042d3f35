import { schedulerOf } from '../types';
import * as K from './codes';
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
  }

  /** A kernel starts: no scheduler has issued a warp of it. */
  start(): void {
    const m = this.m;
    m.schedNext.fill(0);
    for (let sm = 0; sm < m.sms; sm++) this.lastIssued.fill(-1, sm * m.nsched, (sm + 1) * m.nsched);
  }

  private regsReady(w: number, uses: Int32Array): boolean {
    const m = this.m;
    const b = w * R;
    for (let i = 0; i < uses.length; i++) {
      const r = b + uses[i];
      if (m.rPending[r] !== 0 || m.rReady[r] > m.now) return false;
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
    if (m.wNext[w] > m.now) return false;
    if (this.canIssue(sm, w)) return true;
    const t = this.wakeTime(sm, w);
    m.wNext[w] = t;
    // (waits on the LSU: an ordinary access for room in its queue, an S-L1 access for it to be idle)
    if (t === Infinity && !this.oc.idle(sm) && !this.wLsuListed[w] && m.wState[w] === W_ACTIVE) {
      const ins = m.prog[m.wPc[w]];
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
    const m = this.m;
    const now = m.now;
    if (m.wState[w] !== W_ACTIVE || m.wWait[w] > now) return false;
    const f = this.fetch;
    if (f.ibufSize > 0 && (f.wIb[w] === 0 || f.wIbReady[w] > now)) return false;
    if (m.rPending[w * R + m.k.hiddenReg] !== 0) return false;
    const ins = m.prog[m.wPc[w]];
    switch (ins.op) {
      case OP_ALU:
        if (m.wAluRemain[w] > 0) return true;
        return this.regsReady(w, ins.uses) && (ins.dst < 0 || m.rPending[w * R + ins.dst] === 0);
      case OP_LD:
        if (ins.sl1 && m.wPhase[w] < 2) return m.rPending[w * R + ins.dst] === 0;
        return (ins.sl1 ? this.oc.idle(sm) : this.oc.room(sm)) && m.rPending[w * R + ins.dst] === 0;
      case OP_ST:
        if (!this.regsReady(w, ins.uses)) return false;
        if (ins.sl1 && m.wPhase[w] < 2) return true;
        return ins.sl1 ? this.oc.idle(sm) : this.oc.room(sm);
      case OP_SYNC:
        return true;
      case OP_EXIT:
        if (m.wPhase[w] === 1) return true;
        if (m.wPhase[w] === 2) return this.oc.idle(sm);
        return m.wPending[w] === 0;
    }
    return false;
  }

  /** Earliest cycle after now at which warp w could issue if no event happened (Infinity: only an event can free it). */
  private wakeTime(sm: number, w: number): number {
    const m = this.m;
    const now = m.now;
    if (m.wState[w] !== W_ACTIVE) return Infinity;
    if (m.rPending[w * R + m.k.hiddenReg] !== 0) return Infinity;
    let t = m.wWait[w] > now ? m.wWait[w] : now + 1;
    const f = this.fetch;
    if (f.ibufSize > 0) {
      if (f.wIb[w] === 0) return Infinity; // the fetch unit wakes it
      if (f.wIbReady[w] > t) t = f.wIbReady[w];
    }
    const ins = m.prog[m.wPc[w]];
    const b = w * R;
    if (ins.op === OP_ALU && m.wAluRemain[w] > 0) return t;
    if (ins.op === OP_EXIT) return m.wPending[w] === 0 || m.wPhase[w] === 1 ? t : Infinity;
    if ((ins.op === OP_LD || ins.op === OP_ALU) && ins.dst >= 0 && m.rPending[b + ins.dst] !== 0) return Infinity;
    for (let i = 0; i < ins.uses.length; i++) {
      const r = b + ins.uses[i];
      if (m.rPending[r] !== 0) return Infinity;
      if (m.rReady[r] > t) t = m.rReady[r];
    }
    if ((ins.op === OP_LD || ins.op === OP_ST) && !(ins.sl1 ? this.oc.idle(sm) : this.oc.room(sm)) && !(ins.sl1 && m.wPhase[w] < 2)) return Infinity;
    return t;
  }

  /** The least wake time (wNext) of the warps of the scheduler whose first warp slot is `first`. */
  private leastNext(first: number): number {
    const m = this.m;
    const end = first - (first % m.maxW) + m.maxW;
    let lo = Infinity;
    for (let w = first; w < end; w += m.nsched) if (m.wNext[w] < lo) lo = m.wNext[w];
    return lo;
  }

  /** One cycle of an SM's schedulers (and its memory pipeline and fetch unit); true when any issued. */
  step(sm: number): boolean {
    const m = this.m;
    if (m.smWake[sm] > m.now) return false;
    const oc = this.oc;
    const fetch = this.fetch;
    // (the LSU taking an instruction keeps the clock running: the main loop's LSU step serves it)
    let any = oc.ocN > 0 && oc.step(sm);
    const S = m.nsched;
    const maxW = m.maxW;
    const base = sm * maxW;
    const schedNext = m.schedNext;
    // Schedulers go in a fixed order each cycle, as GPGPU-Sim's issue stage (the LSU takes one instruction per cycle).
    for (let s = 0; s < S; s++) {
      const li = sm * S + s;
      if (this.schedFree[li] > m.now) continue; // still issuing its previous instruction
      if (schedNext[li] > m.now) continue; // every warp's wake time is still ahead: no probe could succeed
      const last = this.lastIssued[li];
      let pick = -1;
      if (this.gto) {
        if (last >= 0 && this.probe(sm, last)) pick = last;
        else {
          let bestAge = Infinity;
          for (let l = s; l < maxW; l += S) {
            const w = base + l;
            if (m.wAge[w] < bestAge && this.probe(sm, w)) {
              bestAge = m.wAge[w];
              pick = w;
            }
          }
        }
        if (pick < 0) schedNext[li] = this.leastNext(base + s);
      } else {
        const count = Math.ceil((maxW - s) / S);
        let k = last >= 0 ? ((last - base - s) / S + 1) % count : 0;
        let lo = Infinity;
        const wNext = m.wNext;
        const now = m.now;
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
        if (fetch.ibufSize > 0 && --fetch.wIb[pick] === 0 && m.wState[pick] !== W_DONE) fetch.request(sm, pick);
        this.schedFree[li] = m.now + m.issueCycles;
        any = true;
      }
    }
    if (fetch.fqLen[sm] > 0 && fetch.fetchFree[sm] <= m.now) fetch.step(sm);
    if (any) m.smWake[sm] = m.now + 1;
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
        const lo = free > m.now ? free : schedNext[sm * S + s];
        if (lo < t) t = lo;
      }
      if (fetch.fqLen[sm] > 0) {
        const f = fetch.fetchFree[sm] > m.now ? fetch.fetchFree[sm] : m.now + 1;
        if (f < t) t = f;
      }
      m.smWake[sm] = t;
    }
    if (oc.ocN > 0) {
      // Stages that moved or entries issued this cycle: when the pipeline can move next.
      if (oc.mqLen[sm] > 0) oc.stepTime(sm);
      if (oc.mqLen[sm] > 0 && m.smWake[sm] > oc.ocNext[sm]) m.smWake[sm] = oc.ocNext[sm];
    }
    return any;
  }
}
