import { addrMapSet } from '../addrmap';
import { TagArray } from '../tcache';
import * as K from './codes';
import type { DramQueue } from './dram-queue';
import type { Interconnect } from './interconnect';
import type { Machine } from './machine';
import type { Packets } from './packets';
import type { Stats } from './stats';
import { grownRing } from '../pool';

const T_VALID: number = K.T_VALID;
const T_RESERVED: number = K.T_RESERVED;
const PK_STORE: number = K.PK_STORE;
const EV_DRAM_FILL: number = K.EV_DRAM_FILL;
const popcount = K.popcount;

/**
 * The L2 slices (GPGPU-Sim's memory_sub_partition): `partitions` slices, each with its own tags,
 * MSHRs and merger fields and a queue of arriving requests, served one per cycle (or at
 * `l2.bytesPerCycle` shared by all, or with `l2.port` one lookup per L2 cycle while the 32 B data
 * port is free). Write-back, write-allocate without fetch; with `writeMissFetch` (GPGPU-Sim 3.x's
 * `wr_miss_wa`) a store that misses is sent on to DRAM and the line read as for a load miss. With
 * `sectorBytes` a line keeps a valid bit per sector and a miss fetches only the missing sectors.
 * With `uncached` every request goes to DRAM. A request that cannot be taken (MSHRs full, set all
 * reserved, mergers full, no room towards DRAM) blocks its slice until a fill or DRAM takes one.
 */
export class L2Slices {
  declare readonly m: Machine;
  declare readonly pk: Packets;
  declare readonly st: Stats;
  declare readonly net: Interconnect;
  /** Set by the engine. */
  declare dq: DramQueue;
  declare readonly l2Lines: number;
  /** MSHR entries and merger fields per slice. */
  declare readonly l2E: number;
  declare readonly l2M: number;
  declare readonly l2Uncached: number;
  /** 1: a store missing in L2 goes on to DRAM and the line is fetched (GPGPU-Sim 3.2's write-allocate). */
  declare readonly l2WriteFetch: number;
  /** Cycles a request waits between arriving at a slice and its lookup (ropBeforeLookup), and between the lookup or a fill and the answer. */
  declare readonly l2Before: number;
  declare readonly l2After: number;
  /** L2 sector size and sectors per line (1 when lines are not sectored). */
  declare readonly l2Sector: number;
  declare readonly l2Sectors: number;
  /** Cycles per byte a slice needs (0: one request per cycle). */
  declare readonly l2CyclesPerByte: number;
  declare readonly burst: number;
  /** l2.port: port width (0: off), slice clock in core cycles, next lookup / fill cycle per slice. */
  declare readonly l2PortBytes: number;
  declare readonly l2PortCycles: number;
  declare readonly l2PortFree: Float64Array;
  declare readonly l2FillFree: Float64Array;
  /** Slice cycles the data port is held by the request serve just took (set by serve). */
  declare l2PortUse: number;
  /** After the last kernel: fills at once, without the fill port. */
  declare draining: boolean;
  declare readonly l2: TagArray[];
  /** Per slot (slice x lines + way): its MSHR entry, fills under way, and the sectors they bring. */
  declare readonly l2SlotEntry: Int32Array;
  declare readonly l2SlotPending: Int32Array;
  declare readonly l2SlotFetching: Int32Array;
  /** Per MSHR entry (slice x l2E + i): line, way, fields in use, sectors fetched; per field the packet (-1: a store's line fetch). */
  declare readonly l2MLine: Float64Array;
  declare readonly l2MSlot: Int32Array;
  declare readonly l2MCount: Int32Array;
  declare readonly l2MMask: Int32Array;
  declare readonly l2MPk: Int32Array;
  declare readonly l2MUsed: Int32Array;
  declare readonly l2FreeEntry: Int32Array;
  declare readonly l2FreeTop: Int32Array;
  /** A slice waits for a fill or for room towards DRAM before it looks up again. */
  declare readonly l2Blocked: Uint8Array;
  declare readonly l2Free: Float64Array;
  /** Per slice the queue of arriving requests (ring qBuf, qHead, qLen). */
  declare readonly qBuf: Int32Array[];
  declare readonly qHead: Int32Array;
  declare readonly qLen: Int32Array;
  /** Bit p: slice p has requests queued (qLen > 0). */
  declare readonly qMask: Int32Array;
  /** Slices with requests queued (bits set in qMask). */
  declare qSlices: number;

  constructor(m: Machine, pk: Packets, st: Stats, net: Interconnect) {
    const c = m.c;
    const P = m.P;
    this.m = m;
    this.pk = pk;
    this.st = st;
    this.net = net;
    this.l2Lines = c.l2.sets * c.l2.ways;
    this.l2E = c.l2.mshrEntries;
    this.l2M = c.l2.uncached ? 1 : c.l2.mshrMergers;
    this.l2Uncached = c.l2.uncached ? 1 : 0;
    this.l2WriteFetch = c.l2.writeMissFetch && !c.l2.uncached ? 1 : 0;
    const rop = c.l2.ropBeforeLookup === true && !c.l2.uncached;
    this.l2Before = rop ? c.l2.hitLatency : 0;
    this.l2After = rop ? 0 : c.l2.hitLatency;
    this.burst = c.dram.burstBytes;
    this.l2Sector = c.l2.sectorBytes && c.l2.sectorBytes < c.l2.lineBytes ? c.l2.sectorBytes : c.l2.lineBytes;
    this.l2Sectors = m.l2Line / this.l2Sector;
    this.l2CyclesPerByte = c.l2.bytesPerCycle ? P / c.l2.bytesPerCycle : 0;
    const port = c.l2.port && !c.l2.uncached ? c.l2.port : null;
    this.l2PortBytes = port ? port.bytes : 0;
    this.l2PortCycles = port ? Math.max(1, port.cycles) : 1;
    this.l2PortFree = new Float64Array(P);
    this.l2FillFree = new Float64Array(P);
    this.l2PortUse = 0;
    this.draining = false;
    this.l2 = [];
    const am = pk.am;
    const l2Set = am ? (line: number) => addrMapSet(am, line) : null;
    for (let p = 0; p < P; p++) this.l2.push(new TagArray(c.l2.sets, c.l2.ways, c.l2.policy, P, l2Set));
    this.l2SlotEntry = new Int32Array(P * this.l2Lines).fill(-1);
    this.l2SlotPending = new Int32Array(P * this.l2Lines);
    this.l2SlotFetching = new Int32Array(P * this.l2Lines);
    this.l2MLine = new Float64Array(P * this.l2E).fill(-1);
    this.l2MSlot = new Int32Array(P * this.l2E);
    this.l2MCount = new Int32Array(P * this.l2E);
    this.l2MMask = new Int32Array(P * this.l2E);
    this.l2MPk = new Int32Array(P * this.l2E * this.l2M);
    this.l2MUsed = new Int32Array(P);
    this.l2FreeEntry = new Int32Array(P * this.l2E);
    this.l2FreeTop = new Int32Array(P).fill(this.l2E);
    for (let p = 0; p < P; p++) for (let i = 0; i < this.l2E; i++) this.l2FreeEntry[p * this.l2E + i] = p * this.l2E + this.l2E - 1 - i;
    this.l2Blocked = new Uint8Array(P);
    this.l2Free = new Float64Array(P);
    this.qBuf = [];
    for (let p = 0; p < P; p++) this.qBuf.push(new Int32Array(1024));
    this.qHead = new Int32Array(P);
    this.qLen = new Int32Array(P);
    this.qMask = new Int32Array(Math.ceil(P / 32));
    this.qSlices = 0;
    this.dq = null as unknown as DramQueue;
  }

  /** A request reached its slice (EV_L2_ARRIVE): it joins the slice's queue. */
  enqueue(slice: number, p: number): void {
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

  /** Requests a new line's allocation sends to DRAM: its own (k) and the victim's write-back if dirty (l2.dramQueue). */
  private dqNeed(slice: number, line: number, k: number): number {
    if (this.dq.dqCap === 0) return 0;
    const tags = this.l2[slice];
    const v = tags.victim(line);
    return v >= 0 && tags.state[v] === T_VALID && tags.dirty[v] ? k + 1 : k;
  }

  /** Takes an MSHR entry of `slice` for `line` in way v, fetching sectors `fetch`, its first field packet p. */
  private allocEntry(slice: number, line: number, v: number, fetch: number, p: number): number {
    const si = slice * this.l2Lines;
    const e = this.l2FreeEntry[slice * this.l2E + --this.l2FreeTop[slice]];
    this.l2SlotEntry[si + v] = e;
    this.l2SlotPending[si + v]++;
    this.l2SlotFetching[si + v] |= fetch;
    this.l2MLine[e] = line;
    this.l2MSlot[e] = v;
    this.l2MMask[e] = fetch;
    this.l2MCount[e] = 1;
    this.l2MPk[e * this.l2M] = p;
    this.l2MUsed[slice]++;
    return e;
  }

  /** Serves the request at the head of a slice's queue; false when it must wait (slice blocked). */
  private serve(slice: number): boolean {
    const m = this.m;
    const pk = this.pk;
    const st = this.st;
    const dq = this.dq;
    const buf = this.qBuf[slice];
    const p = buf[this.qHead[slice]];
    const line = Math.floor(pk.pAddr[p] / m.l2Line);
    const tags = this.l2[slice];
    const kind = pk.pKind[p];
    const eBase = slice * this.l2E;
    if (this.l2Uncached) {
      if (kind === PK_STORE) {
        dq.access(slice, Math.max(pk.pBytes[p], this.burst));
        st.reqL2++;
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
      st.reqL2++;
      const done = dq.access(slice, Math.max(pk.pBytes[p], this.burst));
      m.events.push(Math.ceil(done + m.c.dram.latency), EV_DRAM_FILL, e);
      return true;
    }
    const slot = tags.find(line);
    const need = this.sectorMask(p);
    if (kind === PK_STORE && this.l2WriteFetch && (slot < 0 || tags.state[slot] === T_RESERVED)) return this.storeMissFetch(slice, p, slot, line);
    if (kind === PK_STORE) {
      if (slot >= 0) {
        tags.dirty[slot] = 1;
        tags.sectors[slot] |= need;
        tags.touch(slot);
        this.l2PortUse = pk.pBytes[p];
      } else {
        const v = tags.victim(line);
        if (v < 0) return false;
        if (dq.dqCap > 0 && !dq.room(slice, this.dqNeed(slice, line, 0))) return false;
        this.evict(slice, v);
        tags.install(v, line, T_VALID, 1);
        tags.sectors[v] = need;
      }
      st.reqL2++;
      this.storeTaken(p);
      return true;
    }
    if (slot >= 0 && tags.state[slot] === T_VALID && (tags.sectors[slot] & need) === need) {
      tags.touch(slot);
      st.reqL2++;
      st.hitL2++;
      this.l2PortUse = pk.pBytes[p];
      this.net.sendDown(p, m.now + this.l2After);
      return true;
    }
    const si = slice * this.l2Lines;
    if (slot >= 0 && tags.state[slot] === T_RESERVED && ((tags.sectors[slot] | this.l2SlotFetching[si + slot]) & need) === need) {
      // The fills under way bring what this request needs: merge into the latest (it completes last,
      // the slice's DRAM channel being first come first served).
      const e = this.l2SlotEntry[si + slot];
      if (this.l2MCount[e] >= this.l2M) return false;
      this.l2MPk[e * this.l2M + this.l2MCount[e]++] = p;
      st.reqL2++;
      return true;
    }
    if (this.l2MUsed[slice] === this.l2E) return false;
    if (dq.dqCap > 0 && !dq.room(slice, slot >= 0 ? 1 : this.dqNeed(slice, line, 1))) return false;
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
      this.evict(slice, v);
      tags.install(v, line, T_RESERVED, 0);
      tags.sectors[v] = 0;
    }
    const e = this.allocEntry(slice, line, v, fetch, p);
    st.reqL2++;
    dq.read(slice, line, popcount(fetch) * this.l2Sector, e);
    return true;
  }

  /**
   * GPGPU-Sim 3.2's L2 write miss (gpu-cache.cc `wr_miss_wa`, L2 configured write-back with write
   * allocate): the store goes on to DRAM and a read of the line is sent as for a load miss: it merges
   * into the line's fetch under way (taking a merger field) or takes a new MSHR entry and line. The
   * filled line is clean (the data already went to DRAM). False when the slice must wait.
   */
  private storeMissFetch(slice: number, p: number, slot: number, line: number): boolean {
    const m = this.m;
    const pk = this.pk;
    const dq = this.dq;
    const tags = this.l2[slice];
    const si = slice * this.l2Lines;
    if (slot >= 0) {
      const e = this.l2SlotEntry[si + slot];
      if (this.l2MCount[e] >= this.l2M) return false;
      if (!dq.room(slice, 1)) return false;
      this.l2MPk[e * this.l2M + this.l2MCount[e]++] = -1;
    } else {
      if (this.l2MUsed[slice] === this.l2E) return false;
      const v = tags.victim(line);
      if (v < 0) return false;
      if (dq.dqCap > 0 && !dq.room(slice, this.dqNeed(slice, line, 2))) return false;
      this.evict(slice, v);
      tags.install(v, line, T_RESERVED, 0);
      tags.sectors[v] = 0;
      const all = this.l2Sectors >= 31 ? -1 : (1 << this.l2Sectors) - 1;
      const e = this.allocEntry(slice, line, v, all, -1);
      dq.write(slice, line, pk.pBytes[p], m.acks ? p : -1);
      dq.read(slice, line, m.l2Line, e);
      this.st.reqL2++;
      if (!m.acks) pk.free(p);
      return true;
    }
    dq.write(slice, line, pk.pBytes[p], m.acks ? p : -1);
    this.st.reqL2++;
    if (!m.acks) pk.free(p);
    return true;
  }

  /** A slice took store packet p: with storeAcks it goes back to its SM as a reply, else it is done. */
  storeTaken(p: number): void {
    if (!this.m.acks) {
      this.pk.free(p);
      return;
    }
    this.pk.pBytes[p] = 0;
    this.net.sendDown(p, this.m.now + this.l2After);
  }

  /** Sectors of its L2 line a request touches (one bit when lines are not sectored). */
  private sectorMask(p: number): number {
    if (this.l2Sectors === 1) return 1;
    const l2Line = this.m.l2Line;
    const off = this.pk.pAddr[p] % l2Line;
    const first = Math.floor(off / this.l2Sector);
    const last = Math.min(this.l2Sectors - 1, Math.floor((off + Math.max(1, this.pk.pBytes[p]) - 1) / this.l2Sector));
    return ((1 << (last + 1)) - 1) & ~((1 << first) - 1);
  }

  /** A valid dirty line leaving an L2 slice is written back (its valid sectors). */
  private evict(slice: number, v: number): void {
    const tags = this.l2[slice];
    if (tags.state[v] === T_VALID && tags.dirty[v]) {
      this.dq.write(slice, tags.tags[v], popcount(tags.sectors[v]) * this.l2Sector);
      // The data array reads the whole line out for the write-back (use_data_port: MISS with WRITE_BACK_REQUEST_SENT).
      this.l2PortUse = this.m.l2Line;
    }
  }

  private dequeue(slice: number): void {
    this.qHead[slice] = (this.qHead[slice] + 1) % this.qBuf[slice].length;
    if (--this.qLen[slice] === 0) {
      this.qMask[slice >> 5] &= ~(1 << (slice & 31));
      this.qSlices--;
    }
  }

  /** One cycle of a slice; true when it served something. */
  private stepSlice(slice: number): boolean {
    const m = this.m;
    if (this.qLen[slice] === 0) return false;
    if (this.l2Blocked[slice]) return false;
    if (this.l2PortBytes > 0) {
      // l2.port: one lookup per slice cycle, while the data port is free (memory_sub_partition::cache_cycle).
      if (this.l2PortFree[slice] > m.now) return false;
      // responsePorts: the L2 -> icnt queue (8 replies waiting for the slice's port) is full.
      if (this.net.respFull(slice, m.now)) return false;
      // l2.dramQueue: cache_cycle looks nothing up, hits included, while m_L2_dram_queue is full (the L2
      // miss queue drains into it each L2 cycle, so it is full when the ring holds its size). The DRAM
      // queue unblocks the slice when DRAM takes one.
      if (this.dq.dqQueue > 0 && this.dq.dqLen[slice] >= this.dq.dqQueue) {
        this.l2Blocked[slice] = 1;
        return false;
      }
      this.l2PortUse = 0;
      if (!this.serve(slice)) {
        this.l2Blocked[slice] = 1;
        return false;
      }
      this.dequeue(slice);
      this.l2PortFree[slice] = m.now + this.l2PortCycles * Math.max(1, Math.ceil(this.l2PortUse / this.l2PortBytes));
      return true;
    }
    let served = false;
    for (let n = 0; n < 16 && this.qLen[slice] > 0; n++) {
      if (this.l2CyclesPerByte > 0 && this.l2Free[slice] >= m.now + 1) break;
      const p = this.qBuf[slice][this.qHead[slice]];
      const bytes = this.pk.pBytes[p];
      if (!this.serve(slice)) {
        this.l2Blocked[slice] = 1;
        break;
      }
      this.dequeue(slice);
      served = true;
      if (this.l2CyclesPerByte === 0) break;
      // Bandwidth mode: a slice moves bytesPerCycle / partitions bytes per cycle.
      this.l2Free[slice] = (this.l2Free[slice] > m.now ? this.l2Free[slice] : m.now) + bytes * this.l2CyclesPerByte;
    }
    return served;
  }

  /** One cycle of every slice with requests queued, in ascending order (the mask is read again after each step); true when any served. */
  step(): boolean {
    let act = false;
    if (this.qSlices > 0) {
      const qMask = this.qMask;
      for (let wi = 0; wi < qMask.length; wi++)
        for (let from = 0; from < 32; ) {
          const mk = (qMask[wi] >>> from) << from;
          if (mk === 0) break;
          const bit = 31 - Math.clz32(mk & -mk);
          if (this.stepSlice(wi * 32 + bit)) act = true;
          from = bit + 1;
        }
    }
    return act;
  }

  /** The earliest of `next` and the cycles a slice with requests queued could look one up. */
  wakeAt(next: number): number {
    const m = this.m;
    const P = m.P;
    const queued = this.qSlices > 0;
    if (queued) for (let p = 0; p < P; p++) if (this.qLen[p] > 0 && !this.l2Blocked[p] && this.l2Free[p] < next) next = Math.max(m.now + 1, Math.ceil(this.l2Free[p]));
    if (this.l2PortBytes > 0 && queued) {
      const net = this.net;
      for (let p = 0; p < P; p++)
        if (this.qLen[p] > 0 && !this.l2Blocked[p]) {
          let t = this.l2PortFree[p];
          if (net.respPorts && net.slDownFree[p] - net.respBacklog > t) t = Math.ceil(net.slDownFree[p] - net.respBacklog);
          if (t < next) next = t;
        }
    }
    return next;
  }

  /** DRAM brought the line (or sectors) of MSHR entry e (EV_DRAM_FILL): the line is filled and every merged request answered. */
  fill(e: number): void {
    const m = this.m;
    const slice = Math.floor(e / this.l2E);
    if (this.l2PortBytes > 0 && !this.draining) {
      // l2.port: the fill waits for the slice's fill port and holds it line / port width slice cycles.
      if (this.l2FillFree[slice] > m.now) {
        m.events.push(this.l2FillFree[slice], EV_DRAM_FILL, e);
        return;
      }
      this.l2FillFree[slice] = m.now + this.l2PortCycles * Math.ceil(m.l2Line / this.l2PortBytes);
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
    const ready = m.now + (this.l2Uncached ? 0 : this.l2After);
    for (let i = 0; i < n; i++) {
      const q = this.l2MPk[e * this.l2M + i];
      if (q >= 0) this.net.sendDown(q, ready); // -1: a store's line fetch (writeMissFetch), nothing to return
    }
    this.l2MLine[e] = -1;
    this.l2FreeEntry[slice * this.l2E + this.l2FreeTop[slice]++] = e;
    this.l2MCount[e] = 0;
    this.l2MUsed[slice]--;
    this.l2Blocked[slice] = 0;
  }
}
