import type { CInstr } from '../compile';
import type { Coalescer } from './coalescer';
import * as K from './codes';
import type { Lsu } from './lsu';
import type { Machine } from './machine';
import type { Scheduler } from './scheduler';

const OP_LD: number = K.OP_LD;
const R: number = K.R;

/**
 * The memory pipeline between issue and the LSU (fermi480, GPGPU-Sim 3.2.2). Off (`memQueue` 0): a
 * memory instruction issues only into an idle LSU. `memQueue`: issued memory instructions wait,
 * their accesses formed and registers reserved, in a first-in first-out queue of that many per SM
 * (ID_OC_MEM, the memory operand collectors, OC_EX_MEM). `memCollectors` makes those slots
 * GPGPU-Sim's stages: one instruction per issue slot into ID_OC_MEM, the first free collector unit,
 * dispatch round-robin from the unit after the last that dispatched, OC_EX_MEM, the LSU four issue
 * slots after issue at the earliest (shader_core_ctx::cycle's order: execute, then read_operands:
 * dispatch_ready_cu, allocate_reads, allocate_cu).
 */
export class OperandCollector {
  declare readonly m: Machine;
  declare readonly co: Coalescer;
  /** Set by the engine. */
  declare lsu: Lsu;
  declare sched: Scheduler;
  /** Queue slots per SM (0: off); slot i of SM sm is queue index sm x memQ + i, group region sms + that. */
  declare readonly memQ: number;
  declare readonly mqHead: Int32Array;
  declare readonly mqLen: Int32Array;
  declare readonly mqWarp: Int32Array;
  declare readonly mqReg: Int32Array;
  /**
   * memCollectors (ocN > 0): per SM each stage's queue slot (-1: empty) and the cycle it entered:
   * ID_OC_MEM (ocIdoc), the collector units (ocCu, sm x ocN + k), OC_EX_MEM (ocEx); ocLast the unit
   * that dispatched last; ocNext the next stage step; slotUsed which of the SM's slots hold an
   * instruction.
   */
  declare readonly ocN: number;
  declare readonly ocIdoc: Int32Array;
  declare readonly ocIdocT: Float64Array;
  declare readonly ocCu: Int32Array;
  declare readonly ocCuT: Float64Array;
  declare readonly ocEx: Int32Array;
  declare readonly ocExT: Float64Array;
  declare readonly ocLast: Int32Array;
  declare readonly ocNext: Float64Array;
  declare readonly slotUsed: Uint8Array;

  constructor(m: Machine, co: Coalescer, memQ: number) {
    const c = m.c;
    const S = m.sms;
    this.m = m;
    this.co = co;
    this.memQ = memQ;
    this.mqHead = new Int32Array(S);
    this.mqLen = new Int32Array(S);
    this.mqWarp = new Int32Array(S * memQ);
    this.mqReg = new Int32Array(S * memQ);
    this.ocN = memQ > 0 && c.memCollectors !== undefined ? Math.max(1, Math.round(c.memCollectors)) : 0;
    this.ocIdoc = new Int32Array(S).fill(-1);
    this.ocIdocT = new Float64Array(S);
    this.ocCu = new Int32Array(S * Math.max(1, this.ocN)).fill(-1);
    this.ocCuT = new Float64Array(S * Math.max(1, this.ocN));
    this.ocEx = new Int32Array(S).fill(-1);
    this.ocExT = new Float64Array(S);
    this.ocLast = new Int32Array(S);
    this.ocNext = new Float64Array(S);
    this.slotUsed = new Uint8Array(S * Math.max(1, memQ));
    this.lsu = null as unknown as Lsu;
    this.sched = null as unknown as Scheduler;
  }

  /** Group buffer regions the coalescer needs: one per LSU and one per queue slot. */
  static regions(sms: number, memQ: number): number {
    return sms + sms * memQ;
  }

  /** Puts an ordinary global or shared access of warp w in the LSU, or in the pipeline when it is busy. */
  startAccess(sm: number, w: number, ins: CInstr): void {
    const m = this.m;
    const reg = ins.op === OP_LD ? ins.dst : -1;
    if (this.ocN > 0) {
      // Into ID_OC_MEM (room checked it is free), through the collector stages (step).
      let slot = 0;
      while (this.slotUsed[sm * this.memQ + slot]) slot++;
      const q = sm * this.memQ + slot;
      this.slotUsed[q] = 1;
      this.mqLen[sm]++;
      this.co.buildGroups(m.sms + q, w, ins);
      this.mqWarp[q] = w;
      this.mqReg[q] = reg;
      m.wPending[w]++;
      if (reg >= 0) m.rPending[w * R + reg]++;
      this.ocIdoc[sm] = slot;
      this.ocIdocT[sm] = m.now;
      return;
    }
    if (!this.lsu.lsuBusy[sm]) {
      this.co.buildGroups(sm, w, ins);
      this.lsu.go(sm, w, reg);
      return;
    }
    // GPGPU-Sim 3.x: the instruction's accesses are formed at issue (shader.cc issue_warp ->
    // func_exec_inst -> generate_mem_accesses) and it waits in the memory pipeline (ID_OC_MEM, the
    // memory operand collectors, OC_EX_MEM) for the LSU's dispatch register; its destination register
    // is reserved at issue (scoreboard reserveRegisters).
    const slot = (this.mqHead[sm] + this.mqLen[sm]++) % this.memQ;
    const q = sm * this.memQ + slot;
    this.co.buildGroups(m.sms + q, w, ins);
    this.mqWarp[q] = w;
    this.mqReg[q] = reg;
    m.wPending[w]++;
    if (reg >= 0) m.rPending[w * R + reg]++;
  }

  /** The LSU of sm is free (memQueue without collectors): it takes the queue's oldest instruction, if any. */
  nextFromQueue(sm: number): void {
    if (this.mqLen[sm] === 0) return;
    const q = sm * this.memQ + this.mqHead[sm];
    this.mqHead[sm] = (this.mqHead[sm] + 1) % this.memQ;
    this.take(sm, q);
  }

  /**
   * memCollectors: one step of sm's memory pipeline stages, once per issue slot, in GPGPU-Sim 3.x
   * shader_core_ctx::cycle's order (execute, then read_operands: dispatch_ready_cu, allocate_reads,
   * allocate_cu), before the schedulers issue. True when the LSU took an instruction.
   */
  step(sm: number): boolean {
    if (this.mqLen[sm] === 0) return false;
    const now = this.m.now;
    const ic = this.m.issueCycles;
    // execute: the LSU's dispatch register takes OC_EX_MEM (ldst_unit::can_issue: dispatch register empty).
    const took = this.lsu.lsuBusy[sm] === 0 && this.toLsu(sm);
    // dispatch_ready_cu: round-robin from the unit after the last that dispatched; ready once its
    // operand was read (allocated two steps ago) and OC_EX_MEM is free.
    const N = this.ocN;
    const cb = sm * N;
    if (this.ocEx[sm] < 0) {
      for (let n = 0; n < N; n++) {
        const c = (this.ocLast[sm] + n + 1) % N;
        if (this.ocCu[cb + c] >= 0 && now >= this.ocCuT[cb + c] + 2 * ic) {
          this.ocEx[sm] = this.ocCu[cb + c];
          this.ocExT[sm] = now;
          this.ocCu[cb + c] = -1;
          this.ocLast[sm] = c;
          break;
        }
      }
    }
    // allocate_cu: ID_OC_MEM's instruction (issued in an earlier cycle) to the first free unit.
    if (this.ocIdoc[sm] >= 0 && now >= this.ocIdocT[sm] + ic) {
      for (let k = 0; k < N; k++) {
        if (this.ocCu[cb + k] < 0) {
          this.ocCu[cb + k] = this.ocIdoc[sm];
          this.ocCuT[cb + k] = now;
          this.ocIdoc[sm] = -1;
          this.sched.lsuFreed(sm);
          break;
        }
      }
    }
    return took;
  }

  /** memCollectors: the next cycle at which a stage of sm's memory pipeline can move (ocNext; the LSU's freeing wakes the SM itself). */
  stepTime(sm: number): void {
    const now = this.m.now;
    const ic = this.m.issueCycles;
    const N = this.ocN;
    const cb = sm * N;
    let t = Infinity;
    if (this.ocIdoc[sm] >= 0 && this.ocIdocT[sm] + ic > now) t = this.ocIdocT[sm] + ic;
    if (this.ocEx[sm] >= 0 && this.ocExT[sm] + ic > now && this.ocExT[sm] + ic < t) t = this.ocExT[sm] + ic;
    for (let k = 0; k < N; k++) if (this.ocCu[cb + k] >= 0 && this.ocCuT[cb + k] + 2 * ic > now && this.ocCuT[cb + k] + 2 * ic < t) t = this.ocCuT[cb + k] + 2 * ic;
    this.ocNext[sm] = t;
  }

  /** memCollectors: no SM's memory pipeline or LSU holds an instruction (a store without storeAcks may outlive its warp). */
  empty(): boolean {
    for (let sm = 0; sm < this.m.sms; sm++) if (this.mqLen[sm] > 0 || this.lsu.lsuBusy[sm]) return false;
    return true;
  }

  /** memCollectors: the free LSU takes OC_EX_MEM's instruction if it entered in an earlier cycle. */
  toLsu(sm: number): boolean {
    const slot = this.ocEx[sm];
    if (slot < 0 || this.m.now < this.ocExT[sm] + this.m.issueCycles) return false;
    this.ocEx[sm] = -1;
    const q = sm * this.memQ + slot;
    this.slotUsed[q] = 0;
    this.take(sm, q);
    return true;
  }

  /** The LSU takes the instruction waiting in queue slot q (sm x memQ + i). */
  private take(sm: number, q: number): void {
    const m = this.m;
    this.mqLen[sm]--;
    this.co.copy(m.sms + q, sm);
    const w = this.mqWarp[q];
    const reg = this.mqReg[q];
    // The reservation made at issue becomes the LSU's own count (go adds one back).
    m.wPending[w]--;
    if (reg >= 0) m.rPending[w * R + reg]--;
    this.lsu.go(sm, w, reg);
    if (reg < 0 && m.wPending[w] === 0) m.wake(w);
  }

  /** The LSU of sm is idle with nothing queued (what S-L1's multi-part accesses need). */
  idle(sm: number): boolean {
    return this.lsu.lsuBusy[sm] === 0 && this.mqLen[sm] === 0;
  }

  /** Whether an ordinary memory instruction may issue on sm now: the LSU is idle or its queue has room. */
  room(sm: number): boolean {
    if (this.ocN > 0) return this.ocIdoc[sm] < 0;
    return this.lsu.lsuBusy[sm] === 0 || this.mqLen[sm] < this.memQ;
  }
}
