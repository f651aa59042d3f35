import type { Coalescer } from './coalescer';
import * as K from './codes';
import type { Interconnect } from './interconnect';
import type { L1 } from './l1';
import type { Machine } from './machine';
import type { OperandCollector } from './operand-collector';
import type { Packets } from './packets';
import type { Scheduler } from './scheduler';
import type { Stats } from './stats';

const G_L1LD: number = K.G_L1LD;
const G_READ: number = K.G_READ;
const G_ST: number = K.G_ST;
const G_SHARED: number = K.G_SHARED;
const PK_READ: number = K.PK_READ;
const PK_STORE: number = K.PK_STORE;
const PK_L1FILL: number = K.PK_L1FILL;
const S_COALESCING: number = K.S_COALESCING;
const GMAX: number = K.GMAX;
const R: number = K.R;

/**
 * The load/store unit, one per SM: it takes one memory instruction at a time (its groups formed by
 * the coalescer) and serves one group every `lsuCycles`: a cached load through the L1, a bypassing
 * read as `bypassBytes` segments to the interconnect, a store through the L1's write path, a shared
 * access through the SM's shared-memory pipe (`shared.latency`, `shared.bytesPerCycle`). Every cycle
 * it cannot serve its group is one stall under the reason the L1 gave; the `lsuCycles` a group holds
 * it while more of the instruction remains, for an access to another line, are `coalescing` stalls
 * (LASH VII-B). Its writeback side (`arrive`, `complete`) takes the replies coming back and writes
 * registers, one per `lsuCycles` with `writebackPort` (GPGPU-Sim's ldst_unit::writeback).
 */
export class Lsu {
  declare readonly m: Machine;
  declare readonly pk: Packets;
  declare readonly st: Stats;
  declare readonly co: Coalescer;
  declare readonly net: Interconnect;
  declare readonly l1: L1;
  /** Set by the engine. */
  declare oc: OperandCollector;
  declare sched: Scheduler;
  /** Per SM: an instruction is being served (1), its warp and destination register (-1: none). */
  declare readonly lsuBusy: Uint8Array;
  declare readonly lsuWarp: Int32Array;
  declare readonly lsuReg: Int32Array;
  /** Per SM: the group served next, the cycle the LSU may serve it (lsuCycles). */
  declare readonly lsuNext: Int32Array;
  declare readonly lsuFree: Float64Array;
  /** Per SM: the shared-memory pipe's next free cycle. */
  declare readonly shFree: Float64Array;
  declare readonly shCyclesPerByte: number;
  declare readonly shLatency: number;
  declare readonly bypassBytes: number;
  /** writebackPort: returning accesses write their registers one per lsuCycles per SM; wbFree: the next free cycle. */
  declare readonly wbPort: boolean;
  declare readonly wbFree: Float64Array;

  // The scoreboard's arrays (machine.ts), held directly: one property load instead of two.
  declare readonly rPending: Int32Array;
  declare readonly rReady: Float64Array;
  declare readonly wPending: Int32Array;

  constructor(m: Machine, pk: Packets, st: Stats, co: Coalescer, net: Interconnect, l1: L1) {
    this.rPending = m.rPending;
    this.rReady = m.rReady;
    this.wPending = m.wPending;
    this.m = m;
    this.pk = pk;
    this.st = st;
    this.co = co;
    this.net = net;
    this.l1 = l1;
    const S = m.sms;
    this.lsuBusy = new Uint8Array(S);
    this.lsuWarp = new Int32Array(S);
    this.lsuReg = new Int32Array(S);
    this.lsuNext = new Int32Array(S);
    this.lsuFree = new Float64Array(S);
    this.shFree = new Float64Array(S);
    this.shCyclesPerByte = 1 / m.c.shared.bytesPerCycle;
    this.shLatency = m.c.shared.latency;
    this.bypassBytes = m.c.bypassBytes;
    this.wbPort = m.c.writebackPort === true;
    this.wbFree = new Float64Array(S);
    this.oc = null as unknown as OperandCollector;
    this.sched = null as unknown as Scheduler;
  }

  /** The LSU of sm takes warp w's instruction, whose groups are in its buffer; `reg` its destination (-1: none). */
  go(sm: number, w: number, reg: number): void {
    const m = this.m;
    this.lsuBusy[sm] = 1;
    this.lsuWarp[sm] = w;
    this.lsuReg[sm] = reg;
    this.lsuNext[sm] = 0;
    m.lsuStall[sm] = -1;
    if (reg >= 0) {
      const i = w * R + reg;
      this.rPending[i]++;
      this.wPending[w]++;
      m.rIssue[i] = m.now;
      this.rReady[i] = m.now;
    } else if (m.acks) this.wPending[w]++; // storeAcks: the warp cannot end while the LSU still serves its store
  }

  /** One cycle of an SM's LSU: serves one group; true when it served one (or is still busy with the last). */
  step(sm: number): boolean {
    if (!this.lsuBusy[sm]) return false;
    const m = this.m;
    const now = m.now;
    // Still on the previous group (lsuCycles > 1): busy, not stalled.
    if (this.lsuFree[sm] > now) return true;
    const co = this.co;
    const g = sm * GMAX + this.lsuNext[sm];
    const w = this.lsuWarp[sm];
    const r = this.lsuReg[sm];
    const addr = co.gAddr[g];
    switch (co.gKind[g]) {
      case G_L1LD:
        if (!this.l1.load(sm, w, r, addr)) return false;
        break;
      case G_READ: {
        const seg = this.bypassBytes;
        let mask = co.gMask[g];
        for (let b = 0; mask !== 0; b++, mask >>>= 1) {
          if (!(mask & 1)) continue;
          this.rPending[w * R + r]++;
          this.wPending[w]++;
          this.net.sendUp(this.pk.alloc(sm, PK_READ, addr + b * seg, seg, w, r, now));
        }
        break;
      }
      case G_ST:
        if (!this.l1.store(sm, w, addr, co.gBytes[g])) return false;
        break;
      case G_SHARED: {
        let t = now;
        if (this.shFree[sm] > t) t = this.shFree[sm];
        this.shFree[sm] = t + co.gBytes[g] * this.shCyclesPerByte;
        this.st.sharedAccesses++;
        if (r >= 0) {
          const i = w * R + r;
          const ready = t + this.shLatency;
          if (this.rReady[i] < ready) this.rReady[i] = ready;
        }
        break;
      }
    }
    m.lsuStall[sm] = -1;
    this.lsuFree[sm] = now + m.lsuCycles;
    if (++this.lsuNext[sm] < co.lsuN[sm]) {
      // More of the instruction to serve: a coalescing stall when the next access is to another
      // line (LASH VII-B: serialization to different cache lines). A further segment of the same line
      // (segmentBySize) keeps the LSU busy without being one of LASH's stalls.
      if (Math.floor(co.gAddr[g + 1] / m.l1Line) !== Math.floor(addr / m.l1Line) || co.gKind[g + 1] !== co.gKind[g]) this.st.stall(S_COALESCING, m.lsuCycles);
    } else {
      this.lsuBusy[sm] = 0;
      if (r >= 0) this.complete(w, r, now);
      else if (m.acks && --this.wPending[w] === 0) m.wake(w);
      const oc = this.oc;
      if (oc.ocN > 0) oc.toLsu(sm);
      else if (oc.memQ > 0) oc.nextFromQueue(sm);
      this.sched.lsuFreed(sm);
      if (m.smWake[sm] > now) m.smWake[sm] = now;
    }
    return true;
  }

  /** Cycles skipped by the clock: an LSU stalled on a reason stays stalled through them. */
  skip(skipped: number): void {
    const m = this.m;
    for (let sm = 0; sm < m.sms; sm++) {
      const r = m.lsuStall[sm];
      if (this.lsuBusy[sm] && r >= 0) this.st.stall(r, skipped);
    }
  }

  /** A group of a load delivered its data to register r of warp w at cycle t. */
  complete(w: number, r: number, t: number): void {
    const m = this.m;
    const i = w * R + r;
    if (this.rReady[i] < t) this.rReady[i] = t;
    const left = --this.wPending[w];
    if (--this.rPending[i] === 0) {
      if (r !== m.k.hiddenReg) {
        this.st.latSum[0] += this.rReady[i] - m.rIssue[i];
        this.st.latCount++;
      }
    } else if (left !== 0) return;
    // A register became ready or the warp has nothing in flight: its SM may issue again.
    m.wake(w);
    const sm = (w / m.maxW) | 0;
    if (m.smWake[sm] > m.now) m.smWake[sm] = m.now;
  }

  /**
   * The cycle a returning access writes its register. With writebackPort one access per lsuCycles
   * goes through the SM's single load writeback (GPGPU-Sim 3.x shader.cc ldst_unit::writeback: one
   * m_next_wb per cycle; a filled line's merged requests leave the MSHR one at a time,
   * gpu-cache.cc mshr_table::next_access); otherwise the cycle after arrival.
   */
  writebackAt(sm: number): number {
    const now = this.m.now;
    if (!this.wbPort) return now + 1;
    const t = this.wbFree[sm] > now + 1 ? this.wbFree[sm] : now + 1;
    this.wbFree[sm] = t + this.m.lsuCycles;
    return t;
  }

  /** A reply reached its SM (EV_SM_ARRIVE): a store's acknowledgement, an L1 fill or a bypassing read's data. */
  arrive(p: number): void {
    const m = this.m;
    const pk = this.pk;
    const sm = pk.pSm[p];
    if (pk.pKind[p] === PK_STORE) {
      // storeAcks: a store's reply; the warp may end once none is outstanding. GPGPU-Sim's
      // averagemflatency counts it too (simt_core_cluster::icnt_cycle calls memlatstat_read_done for
      // every data response, WRITE_ACKs included).
      this.st.fetchLatSum[0] += m.now - pk.pIssue[p];
      this.st.fetchLatCount++;
      const w = pk.pA[p];
      if (--this.wPending[w] === 0) {
        m.wake(w);
        if (m.smWake[sm] > m.now) m.smWake[sm] = m.now;
      }
      pk.free(p);
      return;
    }
    this.st.fetchLatSum[0] += m.now - pk.pIssue[p];
    this.st.fetchLatCount++;
    if (pk.pKind[p] === PK_L1FILL) this.l1.fill(sm, pk.pA[p]);
    else this.complete(pk.pA[p], pk.pB[p], this.writebackAt(sm));
    pk.free(p);
  }
}
