import { bitsOf, channelLocal } from '../addrmap';
import { grown, grownFreeStack } from '../pool';
import type { DramTimingConfig } from '../types';

/**
 * A command-level DRAM channel model after GPGPU-Sim 3.x's (dram.cc dram_t::cycle,
 * issue_col_command / issue_row_command; dram_sched.cc frfcfs_scheduler), for presets that give
 * `dram.timing` (fermi480: LASH VI ran GPGPU-Sim 3.2.2 with its GTX 480 GDDR5 timing).
 *
 * Per channel: banks with a row buffer (idle / active row), bank groups (numbered as GPGPU-Sim 3.x
 * does: bank >> bk_tag_length, see the constructor), a window of
 * `queue` requests the first-ready first-come-first-served scheduler sees (per bank: keep serving the
 * open row's requests, oldest first, then the oldest request of the bank), one bank taking a new
 * request per DRAM cycle, and one command (activate, precharge, or a read / write column command of
 * one `atomBytes` atom) per DRAM cycle over the shared command bus, under tRRD, tRCD (tRCDWR for
 * writes), tRAS, tRP, tRC, tCCD, tCCDL (same bank group), read-to-write tRTW and write-to-read tWTR
 * turnarounds, write-to-precharge tWTP and read-to-precharge. Read data is back CL cycles after its
 * last column command. A request reaches the channel `latency` after it leaves the L2 (GPGPU-Sim's
 * dram_latency queue, memory_partition_unit::dram_cycle) and enters the scheduler's window one per
 * DRAM cycle.
 *
 * Bank and row come from the address as GPGPU-Sim's address decoder does for its GTX 480 mapping
 * (addrdec.cc, -gpgpu_mem_addr_mapping dramid@8;...RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS): channels
 * interleaved every `interleaveBytes`, then the channel-local address's bank bits and row bits.
 *
 * Utilisation is GPGPU-Sim's bw_util: BL / data_command_freq_ratio DRAM cycles of data bus per
 * column command over all DRAM cycles.
 *
 * Counters are kept as the DRAM cycle at which a constraint ends (GPGPU-Sim counts them down), so
 * idle cycles can be skipped. No allocation per request: fixed-size typed arrays and free lists.
 */
export class DramModel {
  readonly ch: number;
  readonly nbk: number;
  readonly grpShift: number;
  readonly win: number;
  /** Shader (engine) cycles per DRAM cycle. */
  readonly period: number;
  readonly t: DramTimingConfig;
  readonly tRTW: number;
  readonly tWTR: number;
  readonly tWTP: number;
  readonly tRCDWR: number;
  readonly busCycles: number;
  readonly lineBytes: number;
  /** Engine cycles from leaving the L2 to reaching the channel (dram.latency). */
  readonly latency: number;

  // Requests (pool with a free list).
  rqBank: Int32Array;
  rqRow: Float64Array;
  rqWrite: Uint8Array;
  rqBytes: Int32Array;
  rqTx: Int32Array;
  rqEntry: Int32Array;
  rqReady: Float64Array;
  rqFree: Int32Array;
  rqFreeTop: number;

  // Per channel: arrival FIFO (ring), window count, the next DRAM cycle to run, scheduler state.
  fifo: Int32Array[];
  fHead: Int32Array;
  fLen: Int32Array;
  winCount: Int32Array;
  next: Float64Array;
  prio: Int32Array;
  rwWrite: Uint8Array;
  ccdUntil: Float64Array;
  rrdUntil: Float64Array;
  rtwUntil: Float64Array;
  wtrUntil: Float64Array;

  // Per bank (channel x nbk): queue of window requests in arrival order, the request being served,
  // row buffer, timing ends, FR-FCFS's current row (-1: none).
  bq: Int32Array;
  bqLen: Int32Array;
  bMrq: Int32Array;
  /** Per channel, the banks holding a request (bMrq >= 0). */
  chBusy: Int32Array;
  bActive: Uint8Array;
  bRow: Float64Array;
  bLastRow: Float64Array;
  rcdUntil: Float64Array;
  rcdwrUntil: Float64Array;
  rasUntil: Float64Array;
  rcUntil: Float64Array;
  rpUntil: Float64Array;
  wtpUntil: Float64Array;
  rtpUntil: Float64Array;
  // Per bank group.
  ccdlUntil: Float64Array;
  rtplUntil: Float64Array;

  /** Reads done: MSHR entries and the engine cycle their data is back, drained by the engine. */
  doneEntry: Int32Array;
  doneTime: Float64Array;
  doneN: number;

  colCmds = 0;
  requests = 0;
  bytes = 0;

  constructor(t: DramTimingConfig, channels: number, coreMHz: number, lineBytes: number, latency: number) {
    this.t = t;
    this.latency = latency;
    this.ch = channels;
    this.nbk = t.banks;
    // The bank group is the bank number shifted right by GPGPU-Sim 3.x's bk_tag_length, which
    // memory_config::init (gpu-sim.h) counts as the bits of nbk / nbkgrp: `for (i = 0; nbkt > 0; i++)
    // nbkt >>= 1`, 3 for 4 banks a group (not log2 = 2); dram_t::cycle then takes `grp = j >>
    // bk_tag_length` (4.x: get_bankgrp_number, HIGHER_BITS). So 16 banks with nbkgrp=4 form two groups
    // of 8 banks for tCCDL and tRTPL (groups 2 and 3 stay unused).
    let nbkt = Math.floor(t.banks / t.bankGroups);
    let bits = 0;
    for (; nbkt > 0; bits++) nbkt >>= 1;
    this.grpShift = bits;
    this.win = t.queue;
    this.period = coreMHz / t.clockMHz;
    this.lineBytes = lineBytes;
    this.busCycles = t.burstLength / t.dataCommandRatio;
    // Derived as GPGPU-Sim 3.x's memory_config (gpu-sim.cc): tRTW = CL + BL/ratio + 2 - WL,
    // tWTR = WL + BL/ratio + tCDLR, tWTP = WL + BL/ratio + tWR, tRCDWR = tRCD - (WL + 1).
    this.tRTW = t.CL + this.busCycles + 2 - t.WL;
    this.tWTR = t.WL + this.busCycles + t.tCDLR;
    this.tWTP = t.WL + this.busCycles + t.tWR;
    this.tRCDWR = t.tRCD - (t.WL + 1);
    const RQ = 1024;
    this.rqBank = new Int32Array(RQ);
    this.rqRow = new Float64Array(RQ);
    this.rqWrite = new Uint8Array(RQ);
    this.rqBytes = new Int32Array(RQ);
    this.rqTx = new Int32Array(RQ);
    this.rqEntry = new Int32Array(RQ);
    this.rqReady = new Float64Array(RQ);
    this.rqFree = new Int32Array(RQ);
    for (let i = 0; i < RQ; i++) this.rqFree[i] = RQ - 1 - i;
    this.rqFreeTop = RQ;
    this.fifo = [];
    for (let c = 0; c < channels; c++) this.fifo.push(new Int32Array(256));
    this.fHead = new Int32Array(channels);
    this.fLen = new Int32Array(channels);
    this.winCount = new Int32Array(channels);
    this.next = new Float64Array(channels);
    this.prio = new Int32Array(channels);
    this.rwWrite = new Uint8Array(channels);
    this.ccdUntil = new Float64Array(channels);
    this.rrdUntil = new Float64Array(channels);
    this.rtwUntil = new Float64Array(channels);
    this.wtrUntil = new Float64Array(channels);
    const B = channels * this.nbk;
    this.bq = new Int32Array(B * this.win);
    this.bqLen = new Int32Array(B);
    this.bMrq = new Int32Array(B).fill(-1);
    this.chBusy = new Int32Array(channels);
    this.bActive = new Uint8Array(B);
    this.bRow = new Float64Array(B).fill(-1);
    this.bLastRow = new Float64Array(B).fill(-1);
    this.rcdUntil = new Float64Array(B);
    this.rcdwrUntil = new Float64Array(B);
    this.rasUntil = new Float64Array(B);
    this.rcUntil = new Float64Array(B);
    this.rpUntil = new Float64Array(B);
    this.wtpUntil = new Float64Array(B);
    this.rtpUntil = new Float64Array(B);
    const G = channels * t.bankGroups;
    this.ccdlUntil = new Float64Array(G);
    this.rtplUntil = new Float64Array(G);
    this.doneEntry = new Int32Array(256);
    this.doneTime = new Float64Array(256);
    this.doneN = 0;
  }

  private grow(): void {
    const n = this.rqBank.length;
    const m = n * 2;
    this.rqBank = grown(this.rqBank, m);
    this.rqRow = grown(this.rqRow, m);
    this.rqWrite = grown(this.rqWrite, m);
    this.rqBytes = grown(this.rqBytes, m);
    this.rqTx = grown(this.rqTx, m);
    this.rqEntry = grown(this.rqEntry, m);
    this.rqReady = grown(this.rqReady, m);
    this.rqFree = grownFreeStack(this.rqFree, this.rqFreeTop, n, m);
    this.rqFreeTop += m - n;
  }

  /**
   * A request for `bytes` of L2 line `line` on channel c, leaving the L2 at engine cycle `now`; a read
   * names the L2 MSHR entry its data fills (-1: nothing waits for it).
   */
  request(c: number, line: number, bytes: number, write: boolean, entry: number, now: number): void {
    if (this.rqFreeTop === 0) this.grow();
    const r = this.rqFree[--this.rqFreeTop];
    // Channel-local address (channels interleaved every interleaveBytes), then bank and row bits.
    const t = this.t;
    const local = channelLocal(line, this.lineBytes, t.interleaveBytes, this.ch);
    this.rqBank[r] = bitsOf(local, t.bankBits);
    this.rqRow[r] = Math.floor(local / 2 ** t.rowShift);
    this.rqWrite[r] = write ? 1 : 0;
    this.rqBytes[r] = bytes;
    this.rqTx[r] = 0;
    this.rqEntry[r] = entry;
    this.rqReady[r] = now + this.latency;
    let buf = this.fifo[c];
    if (this.fLen[c] === buf.length) {
      const nb = new Int32Array(buf.length * 2);
      for (let i = 0; i < this.fLen[c]; i++) nb[i] = buf[(this.fHead[c] + i) % buf.length];
      this.fifo[c] = nb;
      this.fHead[c] = 0;
      buf = nb;
    }
    buf[(this.fHead[c] + this.fLen[c]) % buf.length] = r;
    this.fLen[c]++;
    this.requests++;
    // An idle channel resumes at its first DRAM cycle at or after the request's arrival.
    if (this.idle(c)) {
      const n = Math.ceil(this.rqReady[r] / this.period);
      if (n > this.next[c]) this.next[c] = n;
    }
  }

  /** The channel's scheduler holds its queue size of requests (GPGPU-Sim dram_t::full). */
  full(c: number): boolean {
    return this.winCount[c] >= this.win;
  }

  private idle(c: number): boolean {
    if (this.winCount[c] > 0 || this.chBusy[c] > 0) return false;
    return this.fLen[c] <= 1;
  }

  /** Engine cycle of the next DRAM cycle some channel must run (Infinity: all idle). */
  nextTime(): number {
    let t = Infinity;
    for (let c = 0; c < this.ch; c++) {
      if (this.fLen[c] === 0 && this.winCount[c] === 0 && !this.busy(c)) continue;
      const x = this.next[c] * this.period;
      if (x < t) t = x;
    }
    return t;
  }

  private busy(c: number): boolean {
    return this.chBusy[c] > 0;
  }

  /** Runs every channel's DRAM cycles up to engine cycle `now`; true when any ran. */
  advance(now: number): boolean {
    let any = false;
    for (let c = 0; c < this.ch; c++) {
      while (this.next[c] * this.period <= now) {
        if (this.fLen[c] === 0 && this.winCount[c] === 0 && !this.busy(c)) {
          this.next[c] = Math.floor(now / this.period) + 1;
          break;
        }
        // Nothing in the window or at a bank and the FIFO's head not yet arrived: jump to it.
        if (this.winCount[c] === 0 && !this.busy(c)) {
          const head = this.fifo[c][this.fHead[c]];
          const n = Math.ceil(this.rqReady[head] / this.period);
          if (n > this.next[c]) {
            this.next[c] = n;
            continue;
          }
        }
        this.cycle(c, this.next[c]);
        this.next[c]++;
        any = true;
      }
    }
    return any;
  }

  /** FR-FCFS for bank b (dram_sched.cc frfcfs_scheduler::schedule): the open row's oldest request, else the bank's oldest. */
  private schedule(b: number): number {
    const n = this.bqLen[b];
    if (n === 0) return -1;
    const base = b * this.win;
    let pick = -1;
    if (this.bLastRow[b] >= 0) {
      for (let i = 0; i < n; i++)
        if (this.rqRow[this.bq[base + i]] === this.bLastRow[b]) {
          pick = i;
          break;
        }
    }
    if (pick < 0) {
      // No row being served: the oldest request's row, looked up first for the bank's current row.
      for (let i = 0; i < n; i++)
        if (this.rqRow[this.bq[base + i]] === this.bRow[b]) {
          pick = i;
          break;
        }
      if (pick < 0) pick = 0;
      this.bLastRow[b] = this.rqRow[this.bq[base + pick]];
    }
    const r = this.bq[base + pick];
    for (let i = pick; i < n - 1; i++) this.bq[base + i] = this.bq[base + i + 1];
    this.bqLen[b] = n - 1;
    // The row's bin emptied: the next pick starts a new row.
    let more = false;
    for (let i = 0; i < n - 1; i++)
      if (this.rqRow[this.bq[base + i]] === this.bLastRow[b]) {
        more = true;
        break;
      }
    if (!more) this.bLastRow[b] = -1;
    return r;
  }

  /** One DRAM cycle `n` of channel c (dram_t::cycle with the FR-FCFS scheduler, single command bus). */
  private cycle(c: number, n: number): void {
    const t = this.t;
    const nbk = this.nbk;
    const b0 = c * nbk;
    // The latency queue hands one arrived request a cycle to the scheduler's window.
    if (this.fLen[c] > 0 && this.winCount[c] < this.win) {
      const buf = this.fifo[c];
      const r = buf[this.fHead[c]];
      if (this.rqReady[r] <= n * this.period) {
        this.fHead[c] = (this.fHead[c] + 1) % buf.length;
        this.fLen[c]--;
        const b = b0 + this.rqBank[r];
        this.bq[b * this.win + this.bqLen[b]++] = r;
        this.winCount[c]++;
      }
    }
    // One idle bank takes its next request (scheduler_frfcfs: the first from prio, then prio moves on).
    if (this.winCount[c] > 0 && this.chBusy[c] < nbk)
      for (let i = 0, bi = this.prio[c]; i < nbk; i++, bi = bi + 1 === nbk ? 0 : bi + 1) {
        const b = b0 + bi;
        if (this.bMrq[b] >= 0) continue;
        const r = this.schedule(b);
        if (r >= 0) {
          this.prio[c] = (this.prio[c] + 1) % nbk;
          this.bMrq[b] = r;
          this.chBusy[c]++;
          this.winCount[c]--;
          break;
        }
      }
    // One command over the bus: the first bank (from prio) that can issue one.
    if (this.chBusy[c] === 0) return;
    for (let i = 0, bi = this.prio[c]; i < nbk; i++, bi = bi + 1 === nbk ? 0 : bi + 1) {
      const b = b0 + bi;
      const r = this.bMrq[b];
      if (r < 0) continue;
      const g = c * t.bankGroups + (bi >> this.grpShift);
      const rowHit = this.bActive[b] === 1 && this.bRow[b] === this.rqRow[r];
      if (rowHit && n >= this.ccdUntil[c] && n >= this.ccdlUntil[g]) {
        if (!this.rqWrite[r] && n >= this.rcdUntil[b] && n >= this.wtrUntil[c]) {
          this.rwWrite[c] = 0;
          this.rqTx[r] += t.atomBytes;
          this.ccdUntil[c] = n + t.tCCD;
          this.ccdlUntil[g] = n + t.tCCDL;
          this.rtwUntil[c] = n + this.tRTW;
          this.rtpUntil[b] = n + this.busCycles;
          this.rtplUntil[g] = n + t.tRTPL;
          this.column(c, b, r, n);
          return;
        }
        if (this.rqWrite[r] && n >= this.rcdwrUntil[b] && n >= this.rtwUntil[c]) {
          this.rwWrite[c] = 1;
          this.rqTx[r] += t.atomBytes;
          this.ccdUntil[c] = n + t.tCCD;
          this.ccdlUntil[g] = n + t.tCCDL;
          this.wtrUntil[c] = n + this.tWTR;
          this.wtpUntil[b] = n + this.tWTP;
          this.column(c, b, r, n);
          return;
        }
      }
      if (!this.bActive[b] && n >= this.rrdUntil[c] && n >= this.rpUntil[b] && n >= this.rcUntil[b]) {
        // Activate the request's row.
        this.bRow[b] = this.rqRow[r];
        this.bActive[b] = 1;
        this.rrdUntil[c] = n + t.tRRD;
        this.rcdUntil[b] = n + t.tRCD;
        this.rcdwrUntil[b] = n + this.tRCDWR;
        this.rasUntil[b] = n + t.tRAS;
        this.rcUntil[b] = n + t.tRC;
        this.prio[c] = (bi + 1) % nbk;
        return;
      }
      if (this.bActive[b] && this.bRow[b] !== this.rqRow[r] && n >= this.rasUntil[b] && n >= this.wtpUntil[b] && n >= this.rtpUntil[b] && n >= this.rtplUntil[g]) {
        // Precharge: close the open row.
        this.bActive[b] = 0;
        this.rpUntil[b] = n + t.tRP;
        this.prio[c] = (bi + 1) % nbk;
        return;
      }
    }
  }

  private column(c: number, b: number, r: number, n: number): void {
    this.colCmds++;
    this.bytes += this.t.atomBytes;
    if (this.rqTx[r] < this.rqBytes[r]) return;
    // The request's last atom: the bank is free; a read's data is back CL cycles later.
    this.bMrq[b] = -1;
    this.chBusy[c]--;
    // A read reports its L2 MSHR entry; a write reports its entry only when it is below -1 (a store
    // the engine acknowledges after DRAM, storeAcks), when its data is written (WL + burst).
    if (this.rqEntry[r] >= 0 ? !this.rqWrite[r] : this.rqWrite[r] && this.rqEntry[r] < -1) {
      if (this.doneN === this.doneEntry.length) {
        const e = new Int32Array(this.doneN * 2);
        e.set(this.doneEntry);
        this.doneEntry = e;
        const d = new Float64Array(this.doneN * 2);
        d.set(this.doneTime);
        this.doneTime = d;
      }
      this.doneEntry[this.doneN] = this.rqEntry[r];
      this.doneTime[this.doneN++] = (n + (this.rqWrite[r] ? this.t.WL : this.t.CL) + this.busCycles) * this.period;
    }
    this.rqFree[this.rqFreeTop++] = r;
  }
}
