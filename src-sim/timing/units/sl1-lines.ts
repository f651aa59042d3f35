import type { CInstr, CompiledKernel } from '../compile';
import type { Coalescer } from './coalescer';
import * as K from './codes';
import type { Lsu } from './lsu';
import type { Machine } from './machine';
import type { OperandCollector } from './operand-collector';
import type { Stats } from './stats';

const OP_LD: number = K.OP_LD;
const G_READ: number = K.G_READ;
const G_ST: number = K.G_ST;
const SL1_ACCESS_BYTES: number = K.SL1_ACCESS_BYTES;

/**
 * S-L1's software lines (`via: 'sl1'`, SL1 3.2.3; what to cache is decided in ../sl1.ts): each thread
 * has one line per cached array in shared memory, with its tag and dirty flag here (per warp slot,
 * lane and slot). An access first runs `accessInstructions` extra instructions, plus
 * `missInstructions` if any lane misses and `writebackInstructions` if any evicts a dirty line
 * (`extra`); its memory part (`access`) writes back dirty lines, loads the missing lanes' lines in
 * 16 B pieces and reads shared memory. A finishing warp writes its dirty lines back (`flush`).
 */
export class Sl1Lines {
  declare readonly m: Machine;
  declare readonly st: Stats;
  declare readonly co: Coalescer;
  /** Set by the engine. */
  declare lsu: Lsu;
  declare oc: OperandCollector;
  declare tag: Float64Array;
  declare dirty: Uint8Array;
  /** Cached arrays of the kernel being run (0: S-L1 off). */
  declare slots: number;

  constructor(m: Machine, st: Stats, co: Coalescer) {
    this.m = m;
    this.st = st;
    this.co = co;
    this.tag = new Float64Array(0);
    this.dirty = new Uint8Array(0);
    this.slots = 0;
    this.lsu = null as unknown as Lsu;
    this.oc = null as unknown as OperandCollector;
  }

  /** A kernel starts: room for its cached arrays. */
  start(k: CompiledKernel): void {
    const W = this.m.sms * this.m.maxW;
    this.slots = k.sl1Slots;
    if (k.sl1Slots > 0 && this.tag.length < W * 32 * k.sl1Slots) {
      this.tag = new Float64Array(W * 32 * k.sl1Slots);
      this.dirty = new Uint8Array(W * 32 * k.sl1Slots);
    }
  }

  /** Warp slot w takes a new warp: its lines are empty. */
  reset(w: number): void {
    if (this.slots > 0) {
      this.tag.fill(-1, w * 32 * this.slots, (w + 1) * 32 * this.slots);
      this.dirty.fill(0, w * 32 * this.slots, (w + 1) * 32 * this.slots);
    }
  }

  /** Extra instructions an S-L1 access of warp w will run (reads the tags, changes nothing). */
  extra(w: number, ins: CInstr): number {
    const k = this.m.k;
    const cfg = k.kernel.sl1!;
    const a = k.arrays[ins.array];
    if (a.slot < 0) return cfg.accessInstructions;
    const n = this.co.laneAddresses(w, ins);
    const laneAddr = this.co.laneAddr;
    const lb = cfg.lineBytes;
    let miss = 0;
    let wb = 0;
    const base = w * 32 * this.slots;
    for (let l = 0; l < n; l++) {
      const line = Math.floor(laneAddr[l] / lb);
      const ti = base + l * this.slots + a.slot;
      if (this.tag[ti] !== line) {
        miss = 1;
        if (this.dirty[ti]) wb = 1;
      }
    }
    return cfg.accessInstructions + (miss ? cfg.missInstructions : 0) + (wb ? cfg.writebackInstructions : 0);
  }

  /** The memory part of an S-L1 access: write-backs, line loads of missing lanes, the shared access. */
  access(sm: number, w: number, ins: CInstr): void {
    const k = this.m.k;
    const cfg = k.kernel.sl1!;
    const a = k.arrays[ins.array];
    const isLoad = ins.op === OP_LD;
    if (a.slot < 0) {
      this.oc.startAccess(sm, w, ins);
      return;
    }
    const co = this.co;
    co.lsuN[sm] = 0;
    const n = co.laneAddresses(w, ins);
    const laneAddr = co.laneAddr;
    const segAddr = co.segAddr;
    const lb = cfg.lineBytes;
    const base = w * 32 * this.slots;
    let nMiss = 0;
    let nWb = 0;
    // Write-backs first (their old lines), then the new lines' loads.
    for (let l = 0; l < n; l++) {
      const line = Math.floor(laneAddr[l] / lb);
      const ti = base + l * this.slots + a.slot;
      if (this.tag[ti] !== line && this.dirty[ti]) segAddr[nWb++] = this.tag[ti] * lb;
    }
    if (nWb) this.linePieces(sm, nWb, lb, G_ST);
    for (let l = 0; l < n; l++) {
      const line = Math.floor(laneAddr[l] / lb);
      const ti = base + l * this.slots + a.slot;
      if (this.tag[ti] !== line) {
        segAddr[nMiss++] = line * lb;
        this.tag[ti] = line;
        this.dirty[ti] = isLoad ? 0 : 1;
      } else if (!isLoad) this.dirty[ti] = 1;
    }
    if (nMiss) this.linePieces(sm, nMiss, lb, G_READ);
    this.st.sl1Hits += n - nMiss;
    this.st.sl1Misses += nMiss;
    this.st.sl1Writebacks += nWb;
    // S-L1's miss path writes each fetched line into its shared-memory line and a write-back reads the
    // dirty line from there first (SL1 3.2.3 accessThroughCache: loadNewData, dumpToMemory): that
    // shared-memory traffic, then the access itself.
    if (nMiss + nWb > 0) co.addShared(sm, (nMiss + nWb) * lb);
    co.addShared(sm, n * a.elemBytes);
    if (isLoad) this.lsu.go(sm, w, ins.dst);
    else if (nMiss) {
      // A store that misses loads the line first (write-allocate); the warp waits for it.
      this.lsu.go(sm, w, k.hiddenReg);
    } else this.lsu.go(sm, w, -1); // only write-backs and the shared write: no register
  }

  /**
   * Moves n software lines (start addresses in segAddr) as global loads or stores of at most 16 B
   * per thread (the widest access, SL1 3.1): ceil(lineBytes / 16) instructions, each coalesced over
   * the lanes on its own, so a 24 B line costs two (16 + 8 B).
   */
  private linePieces(sm: number, n: number, lb: number, kind: number): void {
    const co = this.co;
    const c = this.m.c;
    const pieces = Math.ceil(lb / SL1_ACCESS_BYTES);
    for (let p = 0; p < pieces; p++) {
      const off = p * SL1_ACCESS_BYTES;
      const span = Math.min(SL1_ACCESS_BYTES, lb - off);
      for (let i = 0; i < n; i++) co.pieceAddr[i] = co.segAddr[i] + off;
      co.coalesce(sm, co.pieceAddr, n, span, c.coalesceBytes, c.bypassBytes, kind);
    }
    this.st.warpInstructions += pieces;
    this.st.accInstr += pieces;
  }

  /** Dirty S-L1 lines of a finishing warp: the slots with any. */
  dirtySlots(w: number): number {
    let n = 0;
    const lanes = this.m.wLanes[w];
    const base = w * 32 * this.slots;
    for (let s = 0; s < this.slots; s++) {
      for (let l = 0; l < lanes; l++)
        if (this.dirty[base + l * this.slots + s]) {
          n++;
          break;
        }
    }
    return n;
  }

  /** A finishing warp writes its dirty lines back. */
  flush(sm: number, w: number): void {
    const lb = this.m.k.kernel.sl1!.lineBytes;
    const co = this.co;
    co.lsuN[sm] = 0;
    const lanes = this.m.wLanes[w];
    const base = w * 32 * this.slots;
    for (let s = 0; s < this.slots; s++) {
      let n = 0;
      for (let l = 0; l < lanes; l++) {
        const ti = base + l * this.slots + s;
        if (this.dirty[ti]) {
          co.segAddr[n++] = this.tag[ti] * lb;
          this.dirty[ti] = 0;
        }
      }
      this.st.sl1Writebacks += n;
      if (n) this.linePieces(sm, n, lb, G_ST);
    }
    this.lsu.go(sm, w, -1);
  }
}
