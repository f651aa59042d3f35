import type { CInstr, CompiledIndex } from '../compile';
import * as K from './codes';
import type { Machine } from './machine';

const OP_LD: number = K.OP_LD;
const VAR_TID: number = K.VAR_TID;
const VAR_BID: number = K.VAR_BID;
const VAR_GTID: number = K.VAR_GTID;
const VAR_BDIM: number = K.VAR_BDIM;
const VAR_GDIM: number = K.VAR_GDIM;
const VAR_LOOP: number = K.VAR_LOOP;
const G_L1LD: number = K.G_L1LD;
const G_READ: number = K.G_READ;
const G_ST: number = K.G_ST;
const G_SHARED: number = K.G_SHARED;
const GMAX: number = K.GMAX;
const popcount = K.popcount;

/**
 * The coalescer: a warp's lane addresses (from the instruction's index expression) grouped into
 * aligned blocks, one LSU group per block: the L1 line for cached loads (or 32/64/128 B segments by
 * word size with `segmentBySize`, GPGPU-Sim's compute capability 1.3 rule), `coalesceBytes`
 * otherwise, noting which `bypassBytes` segments each touches. With `accessOrder: 'descending'` an
 * instruction's groups are served from the highest address (GPGPU-Sim's accessq_back()).
 *
 * Group buffers: region sm is the LSU's current instruction, regions sms + q the memory pipeline's
 * queue slots (operand-collector.ts); `lsuN[region]` groups each, at region x GMAX.
 */
export class Coalescer {
  declare readonly m: Machine;
  declare readonly descending: boolean;
  declare readonly lsuN: Int32Array;
  declare readonly gAddr: Float64Array;
  declare readonly gKind: Uint8Array;
  declare readonly gMask: Int32Array;
  declare readonly gBytes: Int32Array;
  /** Scratch: lane addresses, line starts and pieces (S-L1). */
  declare readonly laneAddr: Float64Array;
  declare readonly segAddr: Float64Array;
  declare readonly pieceAddr: Float64Array;

  constructor(m: Machine, regions: number) {
    this.m = m;
    this.descending = m.c.accessOrder === 'descending';
    this.lsuN = new Int32Array(regions);
    this.gAddr = new Float64Array(regions * GMAX);
    this.gKind = new Uint8Array(regions * GMAX);
    this.gMask = new Int32Array(regions * GMAX);
    this.gBytes = new Int32Array(regions * GMAX);
    this.laneAddr = new Float64Array(64);
    this.segAddr = new Float64Array(128);
    this.pieceAddr = new Float64Array(64);
  }

  /** Element index of one thread, clamped into the array. */
  private indexOf(ix: CompiledIndex, w: number, tid: number, length: number): number {
    const v = this.rawIndex(ix, w, tid);
    return v < 0 ? 0 : v >= length ? length - 1 : v;
  }

  /** Element index of one thread before clamping. */
  private rawIndex(ix: CompiledIndex, w: number, tid: number): number {
    const m = this.m;
    let v = ix.offset;
    const bid = m.wBid[w];
    const bdim = m.k.kernel.block;
    for (let t = 0; t < ix.n; t++) {
      const code = ix.vars[t];
      let x: number;
      if (code === VAR_TID) x = tid;
      else if (code === VAR_GTID) x = bid * bdim + tid;
      else if (code === VAR_BID) x = bid;
      else if (code === VAR_BDIM) x = bdim;
      else if (code === VAR_GDIM) x = m.k.kernel.grid;
      else x = m.wLoop[w * m.k.loopVars + (code - VAR_LOOP)];
      const d = ix.div[t];
      if (d > 1) x = Math.floor(x / d);
      const mod = ix.mod[t];
      if (mod > 0) x = ((x % mod) + mod) % mod;
      v += ix.coef[t] * x;
    }
    return Math.floor(v);
  }

  /** Byte addresses of the active lanes into laneAddr; returns the lane count. */
  laneAddresses(w: number, ins: CInstr): number {
    const m = this.m;
    const a = m.k.arrays[ins.array];
    const lanes = m.wLanes[w];
    const tid0 = m.wInBlock[w] * 32;
    const ix = ins.index!;
    if (!ix.laneDependent) {
      const addr = a.base + this.indexOf(ix, w, tid0, a.length) * a.elemBytes;
      for (let l = 0; l < lanes; l++) this.laneAddr[l] = addr;
      return lanes;
    }
    if (ix.laneStride !== undefined) {
      // Linear in the lane with whole coefficients: lane l's index is lane 0's plus l x stride (then clamped).
      const v0 = this.rawIndex(ix, w, tid0);
      const last = a.length - 1;
      for (let l = 0; l < lanes; l++) {
        const v = v0 + l * ix.laneStride;
        this.laneAddr[l] = a.base + (v < 0 ? 0 : v > last ? last : v) * a.elemBytes;
      }
      return lanes;
    }
    for (let l = 0; l < lanes; l++) this.laneAddr[l] = a.base + this.indexOf(ix, w, tid0 + l, a.length) * a.elemBytes;
    return lanes;
  }

  /**
   * Groups n addresses (each covering `span` bytes from src[i]) into aligned blocks of `group` bytes,
   * noting which `seg`-byte segments of each block are touched, and appends one LSU group per block.
   */
  coalesce(sm: number, src: Float64Array, n: number, span: number, group: number, seg: number, kind: number): void {
    const base = sm * GMAX;
    const first = this.lsuN[sm];
    // Integer masks and shifts where sizes are powers of two and addresses fit 31 bits (the usual case).
    const ints = (seg & (seg - 1)) === 0 && (group & (group - 1)) === 0 && group < 2 ** 30;
    const segMask = ~(seg - 1);
    const groupMask = ~(group - 1);
    const segShift = 31 - Math.clz32(seg);
    for (let i = 0; i < n; i++) {
      const lo = src[i];
      const hi = lo + span - 1;
      const fast = ints && hi < 2 ** 31;
      for (let a = fast ? lo & segMask : Math.floor(lo / seg) * seg; a <= hi; a += seg) {
        const ga = fast ? a & groupMask : Math.floor(a / group) * group;
        const bit = 1 << (fast ? (a - ga) >>> segShift : Math.floor((a - ga) / seg));
        const end = this.lsuN[sm];
        // consecutive lanes usually fall in the group of the lane before
        let j = end > first && this.gAddr[base + end - 1] === ga ? end - 1 : first;
        while (j < end && this.gAddr[base + j] !== ga) j++;
        if (j === end) {
          if (end === GMAX) throw new Error('an instruction produced more memory groups than the LSU buffer holds');
          this.gAddr[base + j] = ga;
          this.gKind[base + j] = kind;
          this.gMask[base + j] = bit;
          this.lsuN[sm] = end + 1;
        } else this.gMask[base + j] |= bit;
      }
    }
    for (let j = first; j < this.lsuN[sm]; j++) this.gBytes[base + j] = popcount(this.gMask[base + j]) * seg;
  }

  /**
   * Puts the instruction's groups in descending address order (accessOrder 'descending'): GPGPU-Sim
   * 3.x builds a warp's accesses in ascending segment order (abstract_hardware_model.cc
   * memory_coalescing_arch_13, a std::map by block address) and the LSU serves accessq_back() first
   * (shader.cc ldst_unit::memory_cycle, process_memory_access_queue). Lane order is ascending for the
   * monotonic patterns here; a sort keeps it right for any pattern.
   */
  private reverseGroups(sm: number): void {
    const base = sm * GMAX;
    const n = this.lsuN[sm];
    for (let i = 1; i < n; i++) {
      const ad = this.gAddr[base + i];
      const k = this.gKind[base + i];
      const m = this.gMask[base + i];
      const b = this.gBytes[base + i];
      let j = i - 1;
      while (j >= 0 && this.gAddr[base + j] < ad) {
        this.gAddr[base + j + 1] = this.gAddr[base + j];
        this.gKind[base + j + 1] = this.gKind[base + j];
        this.gMask[base + j + 1] = this.gMask[base + j];
        this.gBytes[base + j + 1] = this.gBytes[base + j];
        j--;
      }
      this.gAddr[base + j + 1] = ad;
      this.gKind[base + j + 1] = k;
      this.gMask[base + j + 1] = m;
      this.gBytes[base + j + 1] = b;
    }
  }

  /** Appends a shared-memory access of `bytes` to region sm. */
  addShared(sm: number, bytes: number): void {
    const j = this.lsuN[sm]++;
    this.gKind[sm * GMAX + j] = G_SHARED;
    this.gBytes[sm * GMAX + j] = bytes;
    this.gAddr[sm * GMAX + j] = 0;
    this.gMask[sm * GMAX + j] = 0;
  }

  /** Forms the groups (coalesced accesses) of warp w's instruction in buffer region `region`. */
  buildGroups(region: number, w: number, ins: CInstr): void {
    const m = this.m;
    const c = m.c;
    const a = m.k.arrays[ins.array];
    this.lsuN[region] = 0;
    const n = this.laneAddresses(w, ins);
    const isLoad = ins.op === OP_LD;
    if (a.shared) this.addShared(region, n * a.elemBytes);
    else if (isLoad && m.useL1) {
      const seg = c.segmentBySize ? Math.min(m.l1Line, 32 * Math.min(4, a.elemBytes)) : m.l1Line;
      this.coalesce(region, this.laneAddr, n, a.elemBytes, seg, seg, G_L1LD);
    }
    else if (isLoad) this.coalesce(region, this.laneAddr, n, a.elemBytes, c.coalesceBytes, c.bypassBytes, G_READ);
    else this.coalesce(region, this.laneAddr, n, a.elemBytes, m.useL1 ? m.l1Line : c.coalesceBytes, c.bypassBytes, G_ST);
    if (this.descending && !a.shared) this.reverseGroups(region);
  }

  /** Copies the groups of region `from` into region `to`. */
  copy(from: number, to: number): void {
    const src = from * GMAX;
    const dst = to * GMAX;
    const n = this.lsuN[from];
    for (let j = 0; j < n; j++) {
      this.gAddr[dst + j] = this.gAddr[src + j];
      this.gKind[dst + j] = this.gKind[src + j];
      this.gMask[dst + j] = this.gMask[src + j];
      this.gBytes[dst + j] = this.gBytes[src + j];
    }
    this.lsuN[to] = n;
  }
}
