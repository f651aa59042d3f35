import * as K from './codes';
import { DramModel } from './dram-channel';
import type { Interconnect } from './interconnect';
import type { L2Slices } from './l2-slice';
import type { Machine } from './machine';
import type { Packets } from './packets';
import type { Stats } from './stats';

const WB_TAG: number = K.WB_TAG;
const EV_DRAM_FILL: number = K.EV_DRAM_FILL;

/**
 * The way between the L2 slices and DRAM. Slice s uses channel s x channels / partitions. Without
 * `dram.timing` each channel is a first-come queue of `bytesPerCycle / channels` plus `dram.latency`,
 * moving whole `burstBytes` bursts (`access`). With it, the command-level GDDR5 model
 * (dram-channel.ts) schedules the requests, and (fermi480, GPGPU-Sim 3.2.2) optionally:
 * `l2.dramQueue`: what a slice sends waits in its miss queue and L2 -> DRAM queue; each channel takes
 * one per DRAM cycle, round-robin over its slices, while its scheduler has room (dram_cycle,
 * dram_t::full). `l2.dramReturn`: what DRAM finishes enters the channel's return queue, then the
 * slice's DRAM -> L2 queue, then the slice takes it one per L2 cycle; a slice sends DRAM nothing
 * without a credit (one private, a shared pool per channel: arbitration_metadata).
 * Completions carry an MSHR entry of the slice (a fill, >= 0), a store's reply (-2 - packet) or a
 * write-back (WB_TAG - slice).
 */
export class DramQueue {
  declare readonly m: Machine;
  declare readonly pk: Packets;
  declare readonly st: Stats;
  declare readonly net: Interconnect;
  declare readonly l2: L2Slices;
  declare readonly channels: number;
  declare readonly latency: number;
  declare readonly burst: number;
  declare readonly chanCyclesPerByte: number;
  /** Bandwidth model: each channel's next free cycle. */
  declare readonly chFree: Float64Array;
  /** The command-level DRAM model (dram.timing), or null: each channel a first-come queue of bandwidth. */
  declare readonly dramT: DramModel | null;
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

  constructor(m: Machine, pk: Packets, st: Stats, net: Interconnect, l2: L2Slices) {
    const c = m.c;
    const P = m.P;
    this.m = m;
    this.pk = pk;
    this.st = st;
    this.net = net;
    this.l2 = l2;
    this.channels = c.dram.channels;
    this.latency = c.dram.latency;
    this.burst = c.dram.burstBytes;
    this.chanCyclesPerByte = c.dram.channels / c.dram.bytesPerCycle;
    this.chFree = new Float64Array(c.dram.channels);
    this.dramT = c.dram.timing && !c.l2.uncached ? new DramModel(c.dram.timing, c.dram.channels, c.clocks.coreMHz, c.l2.lineBytes, c.dram.latency) : null;
    const dq = c.l2.dramQueue && c.dram.timing && !c.l2.uncached ? c.l2.dramQueue : null;
    this.dqCap = dq ? Math.max(3, dq.missQueue - 1 + dq.queue) : 0;
    this.dqQueue = dq ? dq.queue : 0;
    this.dqRing = this.dqCap + 4;
    const PQ = P * this.dqRing;
    this.dqLine = new Float64Array(PQ);
    this.dqBytes = new Int32Array(PQ);
    this.dqWrite = new Uint8Array(PQ);
    this.dqEntry = new Int32Array(PQ);
    this.dqHead = new Int32Array(P);
    this.dqLen = new Int32Array(P);
    this.dqNext = new Float64Array(c.dram.channels);
    this.dqLast = new Int32Array(c.dram.channels).fill(-1);
    this.chSlices = [];
    for (let ch = 0; ch < c.dram.channels; ch++) {
      const list: number[] = [];
      for (let sl = 0; sl < P; sl++) if (Math.floor((sl * c.dram.channels) / P) === ch) list.push(sl);
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
    this.drVal = new Int32Array(P * this.drCap);
    this.drHead = new Int32Array(P);
    this.drLen = new Int32Array(P);
    this.drNext = new Float64Array(P);
    this.crPriv = new Int32Array(P);
    this.crShared = new Int32Array(c.dram.channels);
    // arbitration_metadata: m_shared_credit_limit = sched queue + return queue - (slices per channel - 1).
    this.crLimit = dr && c.dram.timing ? c.dram.timing.queue + dr.returnQueue - (this.chSlices[0].length - 1) : 0;
  }

  /** The DRAM channel of a slice. */
  private channelOf(slice: number): number {
    return Math.floor((slice * this.channels) / this.m.P);
  }

  /** Reads `bytes` of L2 line `line` from DRAM for MSHR entry e of a slice: EV_DRAM_FILL when the data is back. */
  read(slice: number, line: number, bytes: number, e: number): void {
    const m = this.m;
    if (this.dqCap > 0) {
      this.push(slice, line, bytes, 0, e);
      return;
    }
    if (this.dramT) {
      this.dramT.request(this.channelOf(slice), line, bytes, false, e, m.now);
      this.st.reqDram++;
      return;
    }
    const done = this.access(slice, bytes);
    m.events.push(Math.ceil(done + this.latency), EV_DRAM_FILL, e);
  }

  /**
   * Writes `bytes` of L2 line `line` to DRAM (a store sent on, or a dirty line written back). `ack`: the
   * store packet to acknowledge once DRAM has written it (storeAcks: GPGPU-Sim's DRAM returns a
   * write, not a write-back, as a reply through the dram -> L2 and L2 -> icnt queues), -1: none.
   */
  write(slice: number, line: number, bytes: number, ack = -1): void {
    // dramReturn: a write nobody waits for still reports when DRAM wrote it (its credit comes back then).
    const tag = ack >= 0 ? -2 - ack : this.drCap > 0 ? WB_TAG - slice : -1;
    if (this.dqCap > 0) {
      this.push(slice, line, bytes, 1, tag);
      return;
    }
    if (this.dramT) {
      this.dramT.request(this.channelOf(slice), line, bytes, true, tag, this.m.now);
      this.st.reqDram++;
      return;
    }
    this.access(slice, bytes);
    if (ack >= 0) this.l2.storeTaken(ack);
  }

  /** Bandwidth model: a slice's access of `bytes` on its channel; returns when the channel is done with it. */
  access(slice: number, bytes: number): number {
    const ch = this.channelOf(slice);
    let t = this.m.now;
    if (this.chFree[ch] > t) t = this.chFree[ch];
    // DRAM moves whole bursts: a smaller access keeps the bus as long as a full one.
    bytes = Math.ceil(bytes / this.burst) * this.burst;
    const busy = bytes * this.chanCyclesPerByte;
    this.chFree[ch] = t + busy;
    this.st.bytesDram[0] += bytes;
    this.st.reqDram++;
    return t + busy;
  }

  /** l2.dramQueue: a request for DRAM waits in its slice's queue (room was checked by the lookup). */
  private push(slice: number, line: number, bytes: number, write: number, e: number): void {
    if (this.dqLen[slice] >= this.dqRing) throw new Error('internal: L2 -> DRAM queue overflow');
    const i = slice * this.dqRing + ((this.dqHead[slice] + this.dqLen[slice]) % this.dqRing);
    this.dqLine[i] = line;
    this.dqBytes[i] = bytes;
    this.dqWrite[i] = write;
    this.dqEntry[i] = e;
    this.dqLen[slice]++;
    this.st.reqDram++;
  }

  /** l2.dramQueue: room for k more DRAM requests in a slice's queues. */
  room(slice: number, k: number): boolean {
    return this.dqCap === 0 || this.dqLen[slice] + k <= this.dqCap;
  }

  /**
   * l2.dramQueue: each channel takes one request per DRAM cycle from its slices' queues (round-robin
   * from the slice after the one served last), while its scheduler is not full
   * (memory_partition_unit::dram_cycle, dram_t::full). True when any moved.
   */
  private queueStep(): boolean {
    const m = this.m;
    const d = this.dramT!;
    let any = false;
    for (let ch = 0; ch < this.chSlices.length; ch++) {
      if (this.dqNext[ch] > m.now || d.full(ch)) continue;
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
        d.request(ch, this.dqLine[i], this.dqBytes[i], this.dqWrite[i] === 1, this.dqEntry[i], m.now);
        this.dqHead[sl] = (this.dqHead[sl] + 1) % this.dqRing;
        this.dqLen[sl]--;
        this.dqLast[ch] = k;
        this.dqNext[ch] = (Math.floor(m.now / d.period) + 1) * d.period;
        // A slice blocked for want of room may look up again.
        this.l2.l2Blocked[sl] = 0;
        any = true;
        break;
      }
    }
    return any;
  }

  /** Requests waiting in the L2 -> DRAM queues (l2.dramQueue). */
  private waiting(): boolean {
    for (let sl = 0; sl < this.m.P; sl++) if (this.dqLen[sl] > 0) return true;
    return false;
  }

  /** Moves the command-level DRAM model to now and turns its finished reads into fill events. */
  private channelStep(): boolean {
    const m = this.m;
    const d = this.dramT!;
    const any = d.advance(m.now);
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
        this.pk.pBytes[p] = 0;
        this.net.sendDown(p, t > m.now ? t : m.now + 1);
        continue;
      }
      m.events.push(t > m.now ? t : m.now + 1, EV_DRAM_FILL, e);
    }
    d.doneN = 0;
    return any;
  }

  /** The slice a DRAM completion belongs to (a fill entry, a store reply, a write-back tag). */
  private doneSlice(e: number): number {
    if (e >= 0) return Math.floor(e / this.l2.l2E);
    if (e <= WB_TAG) return WB_TAG - e;
    return this.pk.pSlice[-2 - e];
  }

  /** dramReturn: a credit comes back to slice sl (arbitration_metadata::return_credit). */
  private returnCredit(sl: number): void {
    if (this.crPriv[sl] > 0) this.crPriv[sl]--;
    else this.crShared[this.channelOf(sl)]--;
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
    const ch = this.channelOf(sl);
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
  private returnStep(): boolean {
    const m = this.m;
    const l2 = this.l2;
    let any = false;
    const period = this.dramT!.period;
    for (let ch = 0; ch < this.rtLen.length; ch++) {
      if (this.rtLen[ch] === 0 || this.rtNext[ch] > m.now) continue;
      const h = this.rtHead[ch];
      if (this.rtTime[ch][h] > m.now) continue;
      const e = this.rtVal[ch][h];
      const sl = this.doneSlice(e);
      if (this.drLen[sl] >= this.drCap) continue;
      this.drVal[sl * this.drCap + ((this.drHead[sl] + this.drLen[sl]) % this.drCap)] = e;
      this.drLen[sl]++;
      this.returnCredit(sl);
      this.rtHead[ch] = (h + 1) % this.rtVal[ch].length;
      this.rtLen[ch]--;
      this.rtNext[ch] = (Math.floor(m.now / period) + 1) * period;
      any = true;
    }
    for (let sl = 0; sl < m.P; sl++) {
      if (this.drLen[sl] === 0 || this.drNext[sl] > m.now) continue;
      const e = this.drVal[sl * this.drCap + this.drHead[sl]];
      if (e >= 0) {
        if (l2.l2PortBytes > 0 && l2.l2FillFree[sl] > m.now) continue;
        l2.fill(e);
      } else {
        if (this.net.respFull(sl, m.now)) continue;
        const p = -2 - e;
        this.pk.pBytes[p] = 0;
        this.net.sendDown(p, m.now + 1);
      }
      this.drHead[sl] = (this.drHead[sl] + 1) % this.drCap;
      this.drLen[sl]--;
      this.drNext[sl] = m.now + l2.l2PortCycles;
      any = true;
    }
    return any;
  }

  /** dramReturn: the earliest cycle returnStep could move something (Infinity: nothing waits). */
  private returnWake(): number {
    const l2 = this.l2;
    const net = this.net;
    let t = Infinity;
    for (let ch = 0; ch < this.rtLen.length; ch++) {
      if (this.rtLen[ch] === 0) continue;
      const h = this.rtHead[ch];
      const sl = this.doneSlice(this.rtVal[ch][h]);
      if (this.drLen[sl] >= this.drCap) continue; // waits for the slice, which returnStep wakes below
      const x = Math.max(this.rtNext[ch], this.rtTime[ch][h]);
      if (x < t) t = x;
    }
    for (let sl = 0; sl < this.m.P; sl++) {
      if (this.drLen[sl] === 0) continue;
      const e = this.drVal[sl * this.drCap + this.drHead[sl]];
      let x = this.drNext[sl];
      if (e >= 0) {
        if (l2.l2PortBytes > 0 && l2.l2FillFree[sl] > x) x = l2.l2FillFree[sl];
      } else if (net.respPorts && net.slDownFree[sl] - net.respBacklog > x) x = net.slDownFree[sl] - net.respBacklog;
      if (x < t) t = x;
    }
    return t;
  }

  /** One cycle: the L2 -> DRAM queues, the command-level channels, the way back; true when any moved. */
  step(): boolean {
    let act = false;
    if (this.dqCap > 0 && this.queueStep()) act = true;
    if (this.dramT && this.channelStep()) act = true;
    if (this.drCap > 0 && this.returnStep()) act = true;
    return act;
  }

  /** The earliest of `next` and the cycles the channels, the way back and the L2 -> DRAM queues could move. */
  wakeAt(next: number): number {
    if (this.dramT) {
      const d = this.dramT.nextTime();
      if (d < next) next = d;
    }
    if (this.drCap > 0) {
      const d = this.returnWake();
      if (d < next) next = d;
    }
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
    return next;
  }

  /**
   * After the last kernel: lets the command-level DRAM finish what it still holds (stores sent on,
   * write-backs, a store's line fetch) so its counts are complete. The clock does not move: a kernel
   * ends when its blocks do, not when DRAM has drained (GPGPU-Sim: stores are done at the L2).
   */
  drain(): void {
    const m = this.m;
    const d = this.dramT;
    if (!d) return;
    this.l2.draining = true;
    // Requests still in the L2 -> DRAM queues go in first (on a scratch clock; the kernel's end stays).
    const end = m.now;
    for (let guard = 0; guard < 1e7 && this.dqCap > 0 && this.waiting(); guard++) {
      let t = d.nextTime();
      for (let ch = 0; ch < this.dqNext.length; ch++) if (this.dqNext[ch] < t) t = this.dqNext[ch];
      m.now = Math.max(m.now + 1, Math.ceil(t));
      this.queueStep();
      d.advance(m.now);
      for (let i = 0; i < d.doneN; i++) this.drainDone(d.doneEntry[i]);
      d.doneN = 0;
    }
    m.now = end;
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
    if (e >= 0) this.l2.fill(e);
    else if (e > WB_TAG) this.pk.free(-2 - e);
  }
}
