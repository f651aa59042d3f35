import { fermiHashSetFn, TagArray } from '../tcache';
import * as K from './codes';
import type { L1MissQueue } from './l1-miss-queue';
import type { L1Mshr } from './l1-mshr';
import type { Lsu } from './lsu';
import type { Machine } from './machine';
import type { Packets } from './packets';
import type { Stats } from './stats';

const T_VALID: number = K.T_VALID;
const T_RESERVED: number = K.T_RESERVED;
const T_INVALID: number = K.T_INVALID;
const PK_L1FILL: number = K.PK_L1FILL;
const PK_STORE: number = K.PK_STORE;
const S_NOMERGER: number = K.S_NOMERGER;
const S_NOMSHRLINE: number = K.S_NOMSHRLINE;
const S_NOCACHELINE: number = K.S_NOCACHELINE;
const S_MISSQUEUE: number = K.S_MISSQUEUE;
const R: number = K.R;

/**
 * The L1 data cache of each SM with LASH IV's miss handling: tags (sets by line number, or GPGPU-Sim's
 * Fermi hash with `l1.setIndex: 'fermi-hash'`), reserved lines, and the MSHR table (l1-mshr.ts).
 * A cached load group (`load`): a hit is done after `hitLatency`; a miss to a line with an MSHR
 * entry merges into it; a miss to a new line reserves a way (never a line in two ways; none free:
 * nocacheline) and an entry (none free: nomshrline). A reserved line is not a victim until its fill
 * arrives (`fill`). With `l1.allocate: 'fill'` a miss takes only an entry, pending lines are found
 * by line number, and the fill takes the set's invalid or least recent way. Stores (`store`) write
 * through without allocating; with `storeTags` they look the tags up first (GPGPU-Sim's
 * data_cache::access): an all-reserved set refuses them, a hit evicts the line.
 * Each returns false when the LSU must stall, having recorded the reason in lsuStall.
 */
export class L1 {
  declare readonly m: Machine;
  declare readonly pk: Packets;
  declare readonly st: Stats;
  declare readonly mshr: L1Mshr;
  declare readonly miq: L1MissQueue;
  /** Set by the engine: the LSU (a fill's requests write their registers through it). */
  declare lsu: Lsu;
  declare readonly tags: TagArray[];
  declare readonly lines: number;
  declare readonly hitLatency: number;
  /** l1.allocate 'fill': 1 (a miss reserves no way; pending lines are found in pend), else 0. */
  declare readonly onFill: number;
  /** l1.allocate 'fill': each SM's pending lines (line number -> MSHR entry). */
  declare readonly pend: Map<number, number>[];
  /** Per (SM, way): the MSHR entry of a reserved line. */
  declare readonly slotEntry: Int32Array;
  /** storeTags: stores look up the L1 tags (refused on an all-reserved set, evict on a hit). */
  declare readonly stTags: boolean;

  // The scoreboard's arrays (machine.ts), held directly: one property load instead of two.
  declare readonly rPending: Int32Array;
  declare readonly rReady: Float64Array;
  declare readonly wPending: Int32Array;

  constructor(m: Machine, pk: Packets, st: Stats, mshr: L1Mshr, miq: L1MissQueue) {
    this.rPending = m.rPending;
    this.rReady = m.rReady;
    this.wPending = m.wPending;
    this.m = m;
    this.pk = pk;
    this.st = st;
    this.mshr = mshr;
    this.miq = miq;
    const c = m.c;
    const l1 = c.l1 ?? { sets: 1, ways: 1, lineBytes: 128, mshrEntries: 1, mshrMergers: 1, hitLatency: 0, policy: 'lru' as const };
    this.lines = l1.sets * l1.ways;
    this.hitLatency = l1.hitLatency;
    this.onFill = l1.allocate === 'fill' ? 1 : 0;
    this.stTags = c.storeTags === true && m.useL1 !== 0;
    this.tags = [];
    const set = l1.setIndex === 'fermi-hash' ? fermiHashSetFn(l1.lineBytes, l1.sets) : null;
    for (let s = 0; s < m.sms; s++) this.tags.push(new TagArray(l1.sets, l1.ways, l1.policy, 1, set));
    this.slotEntry = new Int32Array(m.sms * this.lines).fill(-1);
    this.pend = [];
    for (let s = 0; s < m.sms; s++) this.pend.push(new Map());
    this.lsu = null as unknown as Lsu;
  }

  private stall(sm: number, reason: number): false {
    this.m.lsuStall[sm] = reason;
    this.st.stall(reason, 1);
    return false;
  }

  /** A cached load group of warp w (register r) at `addr`: hit, merge or miss. False: the LSU stalls. */
  load(sm: number, w: number, r: number, addr: number): boolean {
    const m = this.m;
    const st = this.st;
    const mshr = this.mshr;
    const line = Math.floor(addr / m.l1Line);
    const tags = this.tags[sm];
    const slot = tags.find(line);
    // allocate 'fill': a pending line is not in the tags; its MSHR entry is found by line.
    const pend = this.onFill && slot < 0 ? (this.pend[sm].get(line) ?? -1) : -1;
    if (slot >= 0 && tags.state[slot] === T_VALID) {
      tags.touch(slot);
      const i = w * R + r;
      const t = m.now + this.hitLatency;
      if (this.rReady[i] < t) this.rReady[i] = t;
      st.reqL1++;
      st.hitL1++;
      return true;
    }
    if (slot >= 0 || pend >= 0) {
      // GPGPU-Sim 3.2.2 rd_miss_base: miss_queue_full(1) fails the access before the MSHR probe.
      if (this.miq.full(sm, 2)) return this.stall(sm, S_MISSQUEUE);
      const e = pend >= 0 ? pend : this.slotEntry[sm * this.lines + slot];
      if (!mshr.merge(sm, e, w, r)) return this.stall(sm, S_NOMERGER);
      this.rPending[w * R + r]++;
      this.wPending[w]++;
      st.reqL1++;
      return true;
    }
    const v = this.onFill ? -1 : tags.victim(line);
    if (v < 0 && !this.onFill) return this.stall(sm, S_NOCACHELINE);
    if (this.miq.full(sm, 2)) return this.stall(sm, S_MISSQUEUE);
    if (mshr.full(sm)) return this.stall(sm, S_NOMSHRLINE);
    const e = mshr.allocate(sm, line, v, w, r);
    if (this.onFill) this.pend[sm].set(line, e);
    else {
      tags.install(v, line, T_RESERVED, 0);
      this.slotEntry[sm * this.lines + v] = e;
    }
    this.rPending[w * R + r]++;
    this.wPending[w]++;
    st.reqL1++;
    st.fetchL1++;
    this.miq.push(sm, this.pk.alloc(sm, PK_L1FILL, line * m.l1Line, m.l1Line, e, 0, m.now));
    return true;
  }

  /** A store group of warp w: writes through (no allocation), after the tag probe with storeTags. False: the LSU stalls. */
  store(sm: number, w: number, addr: number, bytes: number): boolean {
    const m = this.m;
    let hitSlot = -1;
    let pending = false;
    if (this.stTags) {
      // storeTags: data_cache::access probes the tags first; an all-reserved set without the line
      // is a RESERVATION_FAIL whatever the write policy (process_tag_probe calls neither handler).
      const tags = this.tags[sm];
      const slot = tags.find(Math.floor(addr / m.l1Line));
      if (slot < 0 && tags.victim(Math.floor(addr / m.l1Line)) < 0) return this.stall(sm, S_NOCACHELINE);
      if (slot >= 0) {
        if (tags.state[slot] === T_VALID) hitSlot = slot;
        else pending = true;
      } else if (this.onFill && this.pend[sm].has(Math.floor(addr / m.l1Line))) pending = true;
    }
    // wr_miss_no_wa / wr_hit_we: miss_queue_full(0).
    if (this.miq.full(sm, 1)) return this.stall(sm, S_MISSQUEUE);
    if (this.stTags) {
      this.st.stAccesses++;
      if (hitSlot >= 0) {
        // wr_hit_we: global write-evict, the line is invalidated.
        this.tags[sm].tags[hitSlot] = -1;
        this.tags[sm].state[hitSlot] = T_INVALID;
      } else if (pending) this.st.stPending++;
      else this.st.stMisses++;
    }
    // storeAcks: the warp waits for the reply before it can end (pA names it).
    if (m.acks) this.wPending[w]++;
    this.miq.push(sm, this.pk.alloc(sm, PK_STORE, addr, bytes, w, 0, m.now));
    return true;
  }

  /** The line of MSHR entry e of sm arrived: it takes its way, and every merged request is answered. */
  fill(sm: number, e: number): void {
    const m = this.m;
    const mshr = this.mshr;
    if (this.onFill) {
      // allocate 'fill': the line takes a way now; no way is ever reserved, so a victim exists.
      const tags = this.tags[sm];
      const line = mshr.mLine[e];
      tags.install(tags.victim(line), line, T_VALID, 0);
      this.pend[sm].delete(line);
    } else {
      const slot = mshr.mSlot[e];
      this.tags[sm].fill(slot);
      this.slotEntry[sm * this.lines + slot] = -1;
    }
    const n = mshr.mCount[e];
    const base = e * mshr.mergers;
    const lsu = this.lsu;
    for (let i = 0; i < n; i++) lsu.complete(mshr.mWarp[base + i], mshr.mReg[base + i], lsu.writebackAt(sm));
    mshr.release(sm, e, n);
    if (m.lsuStall[sm] >= 0) m.lsuStall[sm] = -1;
  }
}
