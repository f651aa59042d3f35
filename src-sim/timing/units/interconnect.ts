import type { TimingConfig } from '../types';
import * as K from './codes';
import type { L2Slices } from './l2-slice';
import type { Machine } from './machine';
import type { Packets } from './packets';
import type { Stats } from './stats';
import { grownRing } from '../pool';

const PK_STORE: number = K.PK_STORE;
const EV_L2_ARRIVE: number = K.EV_L2_ARRIVE;
const EV_SM_ARRIVE: number = K.EV_SM_ARRIVE;
const EV_NET_ARRIVE: number = K.EV_NET_ARRIVE;
const REQUEST_BYTES: number = K.REQUEST_BYTES;

/**
 * The interconnect between the SMs and the L2 slices: `interconnect.latency` each way and bandwidth
 * per SM port and in total, booked first on the shared crossbar and then on the SM's port. Options
 * (fermi480, GPGPU-Sim 3.2.2): `responsePorts` (each slice's own output port, and a reply header),
 * `l2.responseQueue` (how far a slice's port may be booked ahead), `l2Input` (requests wait in the
 * network's buffers at their slice until it takes one per L2 cycle while its queue has room).
 */
export class Interconnect {
  declare readonly m: Machine;
  declare readonly pk: Packets;
  declare readonly st: Stats;
  /** Set by the engine: the slices (their queues, for l2Input, and the ROP delay). */
  declare l2: L2Slices;
  declare readonly latency: number;
  declare readonly smCyclesPerByte: number;
  declare readonly totalCyclesPerByte: number;
  /** Next free cycle of each SM's port up and down, and of the shared crossbar each way. */
  declare readonly upFree: Float64Array;
  declare readonly downFree: Float64Array;
  /** The shared crossbar's next free cycle up (0) and down (1): fractional cycles, kept in a Float64Array so the unit's shape never changes. */
  declare readonly totalFree: Float64Array;
  /** interconnect.responsePorts: each slice's own output port (next free cycle), cycles per byte there. */
  declare readonly respPorts: boolean;
  declare readonly slDownFree: Float64Array;
  declare readonly slCyclesPerByte: number;
  /** Cycles of replies a slice's port may have booked ahead before its L2 -> icnt queue is full (Infinity: no limit). */
  declare readonly respBacklog: number;
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

  constructor(m: Machine, pk: Packets, st: Stats) {
    const c: TimingConfig = m.c;
    this.m = m;
    this.pk = pk;
    this.st = st;
    this.latency = c.interconnect.latency;
    this.smCyclesPerByte = 1 / c.interconnect.bytesPerCyclePerSM;
    this.totalCyclesPerByte = 1 / c.interconnect.bytesPerCycleTotal;
    this.upFree = new Float64Array(m.sms);
    this.downFree = new Float64Array(m.sms);
    this.totalFree = new Float64Array(2);
    this.l2 = null as unknown as L2Slices;
    this.respPorts = c.interconnect.responsePorts === true;
    this.slDownFree = new Float64Array(c.l2.partitions);
    this.slCyclesPerByte = c.l2.partitions / c.interconnect.bytesPerCycleTotal;
    // l2.responseQueue: that many line replies (data + header) waiting for the slice's port.
    this.respBacklog = this.respPorts && c.l2.responseQueue ? c.l2.responseQueue * (c.l2.lineBytes + REQUEST_BYTES) * this.slCyclesPerByte : Infinity;
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
  }

  /** Bytes a request packet puts on the network: its header, and a store's data. */
  upBytes(p: number): number {
    return this.pk.pKind[p] === PK_STORE ? REQUEST_BYTES + this.pk.pBytes[p] : REQUEST_BYTES;
  }

  /**
   * SM -> L2 slice: the request (and a store's data) crosses the interconnect. Bandwidth is reserved
   * first on the shared crossbar (from now: a shared resource is never booked ahead on behalf of one
   * SM's backlog), then on the SM's own port.
   */
  sendUp(p: number): void {
    const m = this.m;
    const sm = this.pk.pSm[p];
    const bytes = this.upBytes(p);
    const tf = this.totalFree;
    let t = m.now > tf[0] ? m.now : tf[0];
    tf[0] = t + bytes * this.totalCyclesPerByte;
    if (this.upFree[sm] > t) t = this.upFree[sm];
    this.upFree[sm] = t + bytes * this.smCyclesPerByte;
    if (this.ejQ > 0) {
      // l2Input: the request waits in the network at its slice until the slice takes it (step).
      m.events.push(Math.ceil(t + bytes * this.smCyclesPerByte + this.latency), EV_NET_ARRIVE, p);
      return;
    }
    // ropBeforeLookup: the slice's fixed delay comes before the lookup (GPGPU-Sim's ROP queue).
    m.events.push(Math.ceil(t + bytes * this.smCyclesPerByte + this.latency + this.l2.l2Before), EV_L2_ARRIVE, p);
  }

  /**
   * L2 slice -> SM: the data, ready at `ready`, crosses the interconnect, limited in total and per SM
   * (as sendUp). Every response is ready a fixed time after the cycle that books it, so bookings come
   * in order of their ready times.
   */
  sendDown(p: number, ready: number): void {
    const pk = this.pk;
    const sm = pk.pSm[p];
    const bytes = this.respPorts ? pk.pBytes[p] + REQUEST_BYTES : pk.pBytes[p];
    const tf = this.totalFree;
    let t = ready > tf[1] ? ready : tf[1];
    tf[1] = t + bytes * this.totalCyclesPerByte;
    if (this.respPorts) {
      // responsePorts: the slice's own port first (one flit per interconnect cycle per node).
      const sl = pk.pSlice[p];
      if (this.slDownFree[sl] > t) t = this.slDownFree[sl];
      this.slDownFree[sl] = t + bytes * this.slCyclesPerByte;
    }
    if (this.downFree[sm] > t) t = this.downFree[sm];
    this.downFree[sm] = t + bytes * this.smCyclesPerByte;
    this.st.bytesIcnt[0] += bytes;
    this.m.events.push(Math.ceil(t + bytes * this.smCyclesPerByte + this.latency), EV_SM_ARRIVE, p);
  }

  /** responsePorts with l2.responseQueue: slice sl's L2 -> icnt queue is full at cycle t. */
  respFull(sl: number, t: number): boolean {
    return this.respPorts && this.slDownFree[sl] > t + this.respBacklog;
  }

  /** Flits of a request packet: its header, and a store's data (interconnect.l2Input). */
  upFlits(p: number): number {
    return Math.ceil(this.upBytes(p) / this.ejFlitBytes);
  }

  /** l2Input: a request reached the network's buffers at its slice (EV_NET_ARRIVE). */
  arrive(p: number): void {
    const sl = this.pk.pSlice[p];
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
   * l2Input, each cycle: each slice takes one waiting request per `cycles` into its ROP delay while
   * its icnt -> L2 queue is not full (gpgpu_sim::cycle: memory_sub_partition::full, icnt_pop, push).
   * True when any moved.
   */
  step(): boolean {
    const m = this.m;
    const qLen = this.l2.qLen;
    let any = false;
    for (let sl = 0; sl < m.P; sl++) {
      if (this.ejLen[sl] === 0 || this.ejNext[sl] > m.now || qLen[sl] >= this.ejQ) continue;
      const buf = this.ejBuf[sl];
      const p = buf[this.ejHead[sl]];
      this.ejHead[sl] = (this.ejHead[sl] + 1) % buf.length;
      this.ejLen[sl]--;
      this.ejWait[sl] -= this.upFlits(p);
      this.ejNext[sl] = m.now + this.ejCycles;
      m.events.push(m.now + this.l2.l2Before, EV_L2_ARRIVE, p);
      any = true;
    }
    return any;
  }

  /** l2Input: the earliest of `next` and the cycles a slice could take a waiting request. */
  wakeAt(next: number): number {
    const qLen = this.l2.qLen;
    for (let p = 0; p < this.m.P; p++) if (this.ejLen[p] > 0 && qLen[p] < this.ejQ && this.ejNext[p] < next) next = this.ejNext[p];
    return next;
  }
}
