import * as K from './codes';
import type { Interconnect } from './interconnect';
import type { Machine } from './machine';
import type { Packets } from './packets';

const S_MISSQUEUE: number = K.S_MISSQUEUE;

/**
 * The L1's miss queue (missQueue; GPGPU-Sim 3.2.2's L1 miss queue and the SM's injection buffer):
 * what L1 sends below (new read misses, stores) waits per SM in a ring of `entries`; the head enters
 * the interconnect one per `drainCycles` when the SM's input buffer has room for its flits. Off
 * (entries 0): accesses go straight into the interconnect.
 */
export class L1MissQueue {
  declare readonly m: Machine;
  declare readonly pk: Packets;
  declare readonly net: Interconnect;
  /** Entries per SM (0: off). */
  declare readonly miqE: number;
  declare readonly miqDrain: number;
  declare readonly miqFlits: number;
  declare readonly miqFlitBytes: number;
  declare readonly miqBuf: Int32Array;
  declare readonly miqHead: Int32Array;
  declare readonly miqLen: Int32Array;
  /** The next cycle one may leave, per SM. */
  declare readonly miqNext: Float64Array;

  constructor(m: Machine, pk: Packets, net: Interconnect) {
    this.m = m;
    this.pk = pk;
    this.net = net;
    const miq = m.c.missQueue && m.useL1 ? m.c.missQueue : null;
    const S = m.sms;
    this.miqE = miq ? Math.max(1, Math.round(miq.entries)) : 0;
    this.miqDrain = miq ? Math.max(1, miq.drainCycles) : 1;
    this.miqFlits = miq ? miq.injectFlits : 0;
    this.miqFlitBytes = miq ? miq.flitBytes : 1;
    this.miqBuf = new Int32Array(S * this.miqE);
    this.miqHead = new Int32Array(S);
    this.miqLen = new Int32Array(S);
    this.miqNext = new Float64Array(S);
  }

  /** Whether fewer than `free` entries of sm's queue are free (a read miss or merge needs 2, miss_queue_full(1); a store 1). */
  full(sm: number, free: number): boolean {
    return this.miqE > 0 && this.miqLen[sm] + free > this.miqE;
  }

  /** An access L1 sends below: into the miss queue, or straight into the interconnect. */
  push(sm: number, p: number): void {
    if (this.miqE === 0) {
      this.net.sendUp(p);
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
  readyAt(sm: number): number {
    const net = this.net;
    const p = this.miqBuf[sm * this.miqE + this.miqHead[sm]];
    const flits = Math.ceil(net.upBytes(p) / this.miqFlitBytes);
    // l2Input: the network's buffers at the request's slice are full; it moves when the slice takes one.
    if (net.ejQ > 0) {
      const sl = this.pk.pSlice[p];
      if (net.ejWait[sl] + net.upFlits(p) > net.ejFlits) return Infinity;
    }
    // Queued flits at time t: ceil((upFree - t) / cycles per flit); room when that + flits <= injectFlits.
    const room = net.upFree[sm] - (this.miqFlits - flits) * this.miqFlitBytes * net.smCyclesPerByte;
    const t = Math.ceil(room);
    return t > this.miqNext[sm] ? t : this.miqNext[sm];
  }

  /** One cycle of an SM's miss queue: the head enters the interconnect if it can; true when it did. */
  step(sm: number): boolean {
    const m = this.m;
    if (this.miqLen[sm] === 0 || this.readyAt(sm) > m.now) return false;
    const p = this.miqBuf[sm * this.miqE + this.miqHead[sm]];
    this.miqHead[sm] = (this.miqHead[sm] + 1) % this.miqE;
    this.miqLen[sm]--;
    this.miqNext[sm] = m.now + this.miqDrain;
    this.net.sendUp(p);
    // A load or store waiting for room may go now.
    if (m.lsuStall[sm] === S_MISSQUEUE) m.lsuStall[sm] = -1;
    return true;
  }

  /** The earliest of `next` and the cycles a queue head could leave. */
  wakeAt(next: number): number {
    for (let sm = 0; sm < this.m.sms; sm++)
      if (this.miqLen[sm] > 0) {
        const t = this.readyAt(sm);
        if (t < next) next = t;
      }
    return next;
  }
}
