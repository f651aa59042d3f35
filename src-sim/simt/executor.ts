import type { Pos } from './ast';
import { KernelError } from './ast';
import type { ArrayInfo, CExpr, Compiled, Insn } from './compile';
import { B, E, I, compileKernel } from './compile';
import { parseKernel } from './parser';
import type { SimtTiming } from './timing';
import { clockReading, issueCost, latencyOf } from './timing';

/**
 * The SIMT executor (WONG IV-C, IV-D). Blocks of warps of 32 threads run a compiled kernel:
 *
 *  - Each warp has a reconvergence stack of (pc, reconvergence pc, active mask) entries. At a
 *    divergent branch the current entry waits at the reconvergence point, the fall-through path is
 *    pushed and then the taken path on top of it, so the TAKEN path runs first (WONG IV-C2). An
 *    entry is popped when its pc reaches its reconvergence pc (the branch's immediate
 *    post-dominator, marked by the compiler). When the new branch reconverges where the current
 *    entry does (a loop that diverges again), the current entry is replaced rather than kept.
 *  - __syncthreads() is a barrier for WARPS (WONG IV-D): the path that reaches it makes the whole
 *    warp wait until every other warp of the block has reached a __syncthreads() (any one) or
 *    exited. Diverged paths of one warp do not wait for each other.
 *  - Deadlock: when every warp that has not exited either waits at a barrier or spins (it came
 *    round a loop's back edge in exactly the state it had the previous time, with no memory write,
 *    barrier release or exit anywhere in between and no clock() read), nothing can ever change.
 *    The run stops and reports which warps wait where and which spin where.
 *  - A step budget (warp instructions issued) bounds every run; loops whose state keeps changing
 *    (a counter, clock()) stop there with a message.
 *  - Timing: src-sim/simt/timing.ts. Each block runs on its own SM, warps issue round-robin.
 *  - Memory: __shared__ arrays per block, __global__ arrays for the grid, zero unless initialised.
 *    A warp instruction reads all its operands for every active thread before it writes, and the
 *    threads write in lane order (the highest lane's value stays when they write one address).
 *    A read of an element before its first write, where a later write comes, counts as a stale read.
 *
 * Deterministic: no randomness at all. Memory is bounded: events and barrier episodes are capped
 * (the dropped ones are counted).
 */

export const EVENT_KINDS = ['path-start', 'reconverge', 'barrier-wait', 'barrier-release', 'exit', 'deadlock', 'stopped'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export interface SimtEvent {
  cycle: number;
  block: number;
  /** Warp within its block. */
  warp: number;
  kind: EventKind;
  /** Active threads (bit i = lane i) of the path, barrier or exit. */
  mask: number;
  /** Source position of the instruction (0:0 = the end of the kernel). */
  line: number;
  col: number;
  /** Barrier number (source order from 1) for barrier events. */
  site?: number;
}

export interface BarrierEpisode {
  block: number;
  /** Cycle of the release. */
  cycle: number;
  /** The warps released, each with the barrier it waited at, in arrival order. */
  arrivals: { warp: number; site: number; line: number; col: number }[];
}

export interface WarpReport {
  block: number;
  warp: number;
  threads: number;
  state: 'exited' | 'barrier' | 'spinning' | 'running';
  /** Where it waits or spins (for barrier, spinning and running). */
  line?: number;
  col?: number;
  site?: number;
  exitCycle?: number;
}

export interface ArrayReport {
  name: string;
  space: 'shared' | 'global';
  type: 'int' | 'float';
  size: number;
  /** Copies: one for a __global__ array, one per block for a __shared__ one (block-major in `values`). */
  copies: number;
  values: Int32Array | Float32Array;
}

export interface SimtRun {
  status: 'finished' | 'deadlock' | 'budget';
  message: string;
  /** Last cycle of the run (the last issue). */
  cycles: number;
  /** Warp instructions issued. */
  instructions: number;
  warps: WarpReport[];
  events: SimtEvent[];
  droppedEvents: number;
  barriers: BarrierEpisode[];
  droppedBarriers: number;
  arrays: ArrayReport[];
  staleReads: number;
  syncSites: Compiled['syncSites'];
  launch: { blocks: number; threadsPerBlock: number; warpsPerBlock: number };
}

export interface LaunchOptions {
  blocks: number;
  threadsPerBlock: number;
  /** Warp instructions the run may issue before it stops. */
  stepBudget: number;
  /** Timeline events kept (default 20,000). */
  maxEvents?: number;
  /** Barrier episodes kept (default 4,096). */
  maxBarriers?: number;
}

export const MAX_BLOCKS = 64;
export const MAX_THREADS_PER_BLOCK = 1024;
export const MAX_STEPS = 5_000_000;
export const DEFAULT_MAX_EVENTS = 20_000;

const READY = 0;
const WAITING = 1;
const EXITED = 2;
const WARP = 32;

/** "5:3", or "end" for the kernel's end. */
export function where(line: number, col: number): string {
  return line === 0 ? 'the end of the kernel' : `${line}:${col}`;
}

class Machine {
  readonly nBlocks: number;
  readonly tpb: number;
  readonly wpb: number;
  readonly nWarps: number;
  readonly slots: number;
  readonly maxDepth: number;
  // Warp state
  readonly state: Uint8Array;
  readonly readyAt: Float64Array;
  readonly exitCycle: Float64Array;
  readonly depth: Int32Array;
  readonly pcs: Int32Array;
  readonly rpcs: Int32Array;
  readonly masks: Uint32Array;
  readonly started: Uint8Array;
  readonly waitSite: Int32Array;
  readonly waitLine: Int32Array;
  readonly waitCol: Int32Array;
  readonly regs: Float64Array;
  readonly laneCount: Int32Array;
  // Spin detection
  readonly snapLen: number;
  readonly snaps: Float64Array;
  readonly scratch: Float64Array;
  readonly snapValid: Uint8Array;
  readonly snapEpoch: Float64Array;
  readonly clockSince: Uint8Array;
  readonly spinning: Uint8Array;
  readonly spinEpoch: Float64Array;
  readonly spinLine: Int32Array;
  readonly spinCol: Int32Array;
  epoch = 0;
  // Blocks
  readonly nextIssue: Float64Array;
  readonly rr: Int32Array;
  readonly live: Int32Array;
  readonly waiting: Int32Array;
  readonly arrivals: BarrierEpisode['arrivals'][];
  // Memory
  readonly data: (Int32Array | Float32Array)[];
  readonly written: Uint8Array[];
  readonly pending: Uint32Array[];
  staleReads = 0;
  // Evaluation context
  private g = 0;
  private blk = 0;
  private w = 0;
  private lane = 0;
  private now = 0;
  private readonly vals = new Float64Array(WARP);
  private readonly idxs = new Int32Array(WARP);
  // Output
  readonly events: SimtEvent[] = [];
  droppedEvents = 0;
  readonly barriers: BarrierEpisode[] = [];
  droppedBarriers = 0;
  instructions = 0;
  lastCycle = 0;
  deadlocked = false;

  constructor(
    readonly prog: Compiled,
    readonly timing: SimtTiming,
    readonly opts: LaunchOptions,
  ) {
    this.nBlocks = opts.blocks;
    this.tpb = opts.threadsPerBlock;
    this.wpb = Math.ceil(this.tpb / WARP);
    this.nWarps = this.nBlocks * this.wpb;
    this.slots = prog.localSlots;
    this.maxDepth = 2 * prog.maxNesting + 2;
    const n = this.nWarps;
    this.state = new Uint8Array(n);
    this.readyAt = new Float64Array(n);
    this.exitCycle = new Float64Array(n).fill(-1);
    this.depth = new Int32Array(n);
    this.pcs = new Int32Array(n * this.maxDepth);
    this.rpcs = new Int32Array(n * this.maxDepth);
    this.masks = new Uint32Array(n * this.maxDepth);
    this.started = new Uint8Array(n * this.maxDepth);
    this.waitSite = new Int32Array(n);
    this.waitLine = new Int32Array(n);
    this.waitCol = new Int32Array(n);
    this.regs = new Float64Array(n * WARP * this.slots);
    this.laneCount = new Int32Array(n);
    this.snapLen = 1 + 4 * this.maxDepth + WARP * this.slots;
    this.snaps = new Float64Array(n * this.snapLen);
    this.scratch = new Float64Array(this.snapLen);
    this.snapValid = new Uint8Array(n);
    this.snapEpoch = new Float64Array(n);
    this.clockSince = new Uint8Array(n);
    this.spinning = new Uint8Array(n);
    this.spinEpoch = new Float64Array(n);
    this.spinLine = new Int32Array(n);
    this.spinCol = new Int32Array(n);
    this.nextIssue = new Float64Array(this.nBlocks);
    this.rr = new Int32Array(this.nBlocks);
    this.live = new Int32Array(this.nBlocks).fill(this.wpb);
    this.waiting = new Int32Array(this.nBlocks);
    this.arrivals = Array.from({ length: this.nBlocks }, () => []);
    for (let g = 0; g < n; g++) {
      const w = g % this.wpb;
      const lanes = Math.min(WARP, this.tpb - w * WARP);
      this.laneCount[g] = lanes;
      const base = g * this.maxDepth;
      this.depth[g] = 1;
      this.pcs[base] = 0;
      this.rpcs[base] = -1;
      this.masks[base] = lanes === WARP ? 0xffffffff : (1 << lanes) - 1;
    }
    this.data = [];
    this.written = [];
    this.pending = [];
    for (const a of prog.arrays) {
      const copies = a.space === 'shared' ? this.nBlocks : 1;
      const len = a.size * copies;
      const d = a.type === 'float' ? new Float32Array(len) : new Int32Array(len);
      const wr = new Uint8Array(len);
      if (a.init) {
        for (let c = 0; c < copies; c++) for (let k = 0; k < a.init.length; k++) d[c * a.size + k] = a.init[k];
        wr.fill(1);
      }
      this.data.push(d);
      this.written.push(wr);
      this.pending.push(new Uint32Array(len));
    }
  }

  private event(kind: EventKind, g: number, cycle: number, mask: number, line: number, col: number, site?: number): void {
    // How the run ended (a deadlock, the step budget) is kept whatever the cap: it is the end state.
    const final = kind === 'deadlock' || kind === 'stopped';
    if (!final && this.events.length >= (this.opts.maxEvents ?? DEFAULT_MAX_EVENTS)) {
      this.droppedEvents++;
      return;
    }
    const e: SimtEvent = { cycle, block: Math.floor(g / this.wpb), warp: g % this.wpb, kind, mask: mask >>> 0, line, col };
    if (site !== undefined) e.site = site;
    this.events.push(e);
  }

  private fail(pos: { line: number; col: number }, what: string): never {
    throw new KernelError(pos as Pos, `${what} (thread ${this.w * WARP + this.lane} of block ${this.blk})`);
  }

  // ---- expressions ----------------------------------------------------------------------------

  private load(e: CExpr): number {
    const a = e.arr as ArrayInfo;
    const i = this.ev(e.a as CExpr);
    if (i < 0 || i >= a.size) this.fail(e, `${a.name}[${i}] is outside the array (0 to ${a.size - 1})`);
    const k = (a.space === 'shared' ? this.blk * a.size : 0) + i;
    if (!this.written[a.id][k]) this.pending[a.id][k]++;
    return this.data[a.id][k];
  }

  private builtin(code: number): number {
    switch (code) {
      case 0:
        return this.w * WARP + this.lane;
      case 1:
        return this.blk;
      case 2:
        return this.tpb;
      case 3:
        return this.nBlocks;
      case 4:
        return WARP;
      case 5:
        return this.lane;
      default:
        return this.w;
    }
  }

  ev(e: CExpr): number {
    switch (e.op) {
      case E.NUM:
        return e.value;
      case E.LOCAL:
        return this.regs[(this.g * WARP + this.lane) * this.slots + e.slot];
      case E.BUILTIN:
        return this.builtin(e.value);
      case E.LOAD:
        return this.load(e);
      case E.NEG: {
        const x = this.ev(e.a as CExpr);
        return e.f ? Math.fround(-x) : -x | 0;
      }
      case E.NOT:
        return this.ev(e.a as CExpr) === 0 ? 1 : 0;
      case E.BITNOT:
        return ~this.ev(e.a as CExpr);
      case E.AND:
        return this.ev(e.a as CExpr) !== 0 && this.ev(e.b as CExpr) !== 0 ? 1 : 0;
      case E.OR:
        return this.ev(e.a as CExpr) !== 0 || this.ev(e.b as CExpr) !== 0 ? 1 : 0;
      case E.TERN: {
        const v = this.ev(e.a as CExpr) !== 0 ? this.ev(e.b as CExpr) : this.ev(e.c as CExpr);
        return e.f ? Math.fround(v) : v;
      }
      case E.CAST: {
        const x = this.ev(e.a as CExpr);
        return e.f ? Math.fround(x) : x | 0;
      }
      case E.CLOCK:
        this.clockSince[this.g] = 1;
        return clockReading(this.now);
      default:
        return this.bin(e);
    }
  }

  private bin(e: CExpr): number {
    const l = this.ev(e.a as CExpr);
    const r = this.ev(e.b as CExpr);
    switch (e.bin) {
      case B.LT:
        return l < r ? 1 : 0;
      case B.LE:
        return l <= r ? 1 : 0;
      case B.GT:
        return l > r ? 1 : 0;
      case B.GE:
        return l >= r ? 1 : 0;
      case B.EQ:
        return l === r ? 1 : 0;
      case B.NE:
        return l !== r ? 1 : 0;
    }
    if (e.f) {
      switch (e.bin) {
        case B.ADD:
          return Math.fround(l + r);
        case B.SUB:
          return Math.fround(l - r);
        case B.MUL:
          return Math.fround(l * r);
        default:
          return Math.fround(l / r);
      }
    }
    switch (e.bin) {
      case B.ADD:
        return (l + r) | 0;
      case B.SUB:
        return (l - r) | 0;
      case B.MUL:
        return Math.imul(l, r);
      case B.DIV:
        if (r === 0) this.fail(e, 'integer division by zero');
        return (l / r) | 0;
      case B.MOD:
        if (r === 0) this.fail(e, 'integer remainder by zero');
        return l % r | 0;
      case B.BAND:
        return l & r;
      case B.BOR:
        return l | r;
      case B.BXOR:
        return l ^ r;
      case B.SHL:
        return l << (r & 31);
      default:
        return l >> (r & 31);
    }
  }

  // ---- warps ----------------------------------------------------------------------------------

  private bind(g: number, now: number): void {
    this.g = g;
    this.blk = Math.floor(g / this.wpb);
    this.w = g % this.wpb;
    this.now = now;
  }

  private push(g: number, pc: number, rpc: number, mask: number): void {
    const d = this.depth[g];
    if (d >= this.maxDepth) throw new Error(`internal: reconvergence stack overflow at pc ${pc}`);
    const k = g * this.maxDepth + d;
    this.pcs[k] = pc;
    this.rpcs[k] = rpc;
    this.masks[k] = mask;
    this.started[k] = 0;
    this.depth[g] = d + 1;
  }

  /** Pops entries whose pc has reached their reconvergence point; a started entry uncovered is a reconvergence. */
  private popReconverged(g: number, t: number): void {
    const base = g * this.maxDepth;
    let popped = false;
    while (this.depth[g] > 0 && this.pcs[base + this.depth[g] - 1] === this.rpcs[base + this.depth[g] - 1]) {
      this.depth[g]--;
      popped = true;
    }
    if (popped && this.depth[g] > 0) {
      const top = base + this.depth[g] - 1;
      if (this.started[top]) {
        const ins = this.prog.insns[this.pcs[top]];
        this.event('reconverge', g, t, this.masks[top], ins.line, ins.col);
      }
    }
  }

  /** Runs one instruction of warp g at cycle t; returns the instruction (for timing). */
  step(g: number, t: number): Insn {
    this.bind(g, t);
    this.popReconverged(g, t);
    const base = g * this.maxDepth;
    const top = base + this.depth[g] - 1;
    const pc = this.pcs[top];
    const mask = this.masks[top];
    const ins = this.prog.insns[pc];
    if (!this.started[top]) {
      this.started[top] = 1;
      this.event('path-start', g, t, mask, ins.line, ins.col);
    }
    switch (ins.op) {
      case I.ASSIGN:
        this.assign(ins, mask);
        this.pcs[top] = pc + 1;
        break;
      case I.BRANCH:
        this.branch(g, ins, pc, top, mask);
        break;
      case I.JUMP:
        this.pcs[top] = ins.target;
        if (ins.target < pc) this.backEdge(g, ins);
        break;
      case I.SYNC:
        this.pcs[top] = pc + 1;
        this.arrive(g, ins, mask, t);
        break;
      default:
        this.exit(g, mask, t);
    }
    return ins;
  }

  private assign(ins: Insn, mask: number): void {
    const vals = this.vals;
    const idxs = this.idxs;
    const a = ins.arr;
    for (let l = 0; l < WARP; l++) {
      if (((mask >>> l) & 1) === 0) continue;
      this.lane = l;
      const v = this.ev(ins.value as CExpr);
      vals[l] = ins.float ? Math.fround(v) : v | 0;
      if (a) {
        const i = this.ev(ins.index as CExpr);
        if (i < 0 || i >= a.size) this.fail(ins, `${a.name}[${i}] is outside the array (0 to ${a.size - 1})`);
        idxs[l] = i;
      }
    }
    if (!a) {
      const slots = this.slots;
      for (let l = 0; l < WARP; l++) if ((mask >>> l) & 1) this.regs[(this.g * WARP + l) * slots + ins.slot] = vals[l];
      return;
    }
    const d = this.data[a.id];
    const wr = this.written[a.id];
    const pend = this.pending[a.id];
    const off = a.space === 'shared' ? this.blk * a.size : 0;
    for (let l = 0; l < WARP; l++) {
      if (((mask >>> l) & 1) === 0) continue;
      const k = off + idxs[l];
      if (!wr[k]) {
        this.staleReads += pend[k];
        pend[k] = 0;
        wr[k] = 1;
      }
      d[k] = vals[l];
    }
    this.epoch++;
  }

  private branch(g: number, ins: Insn, pc: number, top: number, mask: number): void {
    let taken = 0;
    let fall = 0;
    for (let l = 0; l < WARP; l++) {
      if (((mask >>> l) & 1) === 0) continue;
      this.lane = l;
      if (this.ev(ins.cond as CExpr) === 0) taken |= 1 << l;
      else fall |= 1 << l;
    }
    if (taken === 0) {
      this.pcs[top] = pc + 1;
      return;
    }
    if (fall === 0) {
      this.pcs[top] = ins.target;
      return;
    }
    // Divergence: the current entry waits at the reconvergence point (or is replaced when it
    // reconverges there anyway), the fall-through path is pushed, then the taken path on top.
    const r = ins.reconv;
    if (this.rpcs[top] === r) this.depth[g]--;
    else this.pcs[top] = r;
    this.push(g, pc + 1, r, fall >>> 0);
    this.push(g, ins.target, r, taken >>> 0);
  }

  private backEdge(g: number, ins: Insn): void {
    const s = this.scratch;
    const base = g * this.maxDepth;
    const d = this.depth[g];
    s.fill(0);
    s[0] = d;
    for (let k = 0; k < d; k++) {
      s[1 + 4 * k] = this.pcs[base + k];
      s[2 + 4 * k] = this.rpcs[base + k];
      s[3 + 4 * k] = this.masks[base + k];
      s[4 + 4 * k] = this.started[base + k];
    }
    const regBase = g * WARP * this.slots;
    const off = 1 + 4 * this.maxDepth;
    for (let k = 0; k < WARP * this.slots; k++) s[off + k] = this.regs[regBase + k];
    const snapBase = g * this.snapLen;
    let same = this.snapValid[g] === 1 && this.snapEpoch[g] === this.epoch && this.clockSince[g] === 0;
    if (same)
      for (let k = 0; k < this.snapLen; k++)
        if (this.snaps[snapBase + k] !== s[k]) {
          same = false;
          break;
        }
    this.snaps.set(s, snapBase);
    this.snapValid[g] = 1;
    this.snapEpoch[g] = this.epoch;
    this.clockSince[g] = 0;
    this.spinning[g] = same ? 1 : 0;
    if (same) {
      this.spinEpoch[g] = this.epoch;
      this.spinLine[g] = ins.line;
      this.spinCol[g] = ins.col;
      this.checkStuck();
    }
  }

  private arrive(g: number, ins: Insn, mask: number, t: number): void {
    const b = Math.floor(g / this.wpb);
    this.state[g] = WAITING;
    this.waitSite[g] = ins.site;
    this.waitLine[g] = ins.line;
    this.waitCol[g] = ins.col;
    this.waiting[b]++;
    this.arrivals[b].push({ warp: g % this.wpb, site: ins.site, line: ins.line, col: ins.col });
    this.event('barrier-wait', g, t, mask, ins.line, ins.col, ins.site);
    if (!this.release(b, t)) this.checkStuck();
  }

  private exit(g: number, mask: number, t: number): void {
    const b = Math.floor(g / this.wpb);
    this.state[g] = EXITED;
    this.exitCycle[g] = t;
    this.live[b]--;
    this.epoch++;
    this.event('exit', g, t, mask, 0, 0);
    if (!this.release(b, t)) this.checkStuck();
  }

  /** Releases block b's barrier when every warp that has not exited waits at one. */
  private release(b: number, t: number): boolean {
    if (this.waiting[b] === 0 || this.waiting[b] < this.live[b]) return false;
    for (let w = 0; w < this.wpb; w++) {
      const g = b * this.wpb + w;
      if (this.state[g] !== WAITING) continue;
      this.state[g] = READY;
      this.readyAt[g] = t + this.timing.syncLatency;
      const top = g * this.maxDepth + this.depth[g] - 1;
      this.event('barrier-release', g, t, this.masks[top], this.waitLine[g], this.waitCol[g], this.waitSite[g]);
    }
    if (this.barriers.length < (this.opts.maxBarriers ?? 4096)) this.barriers.push({ block: b, cycle: t, arrivals: this.arrivals[b] });
    else this.droppedBarriers++;
    this.arrivals[b] = [];
    this.waiting[b] = 0;
    this.epoch++;
    return true;
  }

  /** Deadlock when every warp that has not exited waits at a barrier or spins with nothing changing. */
  private checkStuck(): void {
    let live = 0;
    for (let g = 0; g < this.nWarps; g++) {
      const s = this.state[g];
      if (s === EXITED) continue;
      live++;
      if (s === WAITING) continue;
      if (this.spinning[g] && this.spinEpoch[g] === this.epoch) continue;
      return;
    }
    if (live > 0) this.deadlocked = true;
  }

  // ---- the run --------------------------------------------------------------------------------

  run(): SimtRun {
    const budget = this.opts.stepBudget;
    let status: SimtRun['status'] = 'finished';
    for (;;) {
      let blk = -1;
      let best = Infinity;
      for (let b = 0; b < this.nBlocks; b++)
        if (this.nextIssue[b] < best) {
          best = this.nextIssue[b];
          blk = b;
        }
      if (blk < 0) break;
      const t = best;
      let chosen = -1;
      for (let k = 0; k < this.wpb; k++) {
        const w = (this.rr[blk] + k) % this.wpb;
        const g = blk * this.wpb + w;
        if (this.state[g] === READY && this.readyAt[g] <= t) {
          chosen = g;
          this.rr[blk] = (w + 1) % this.wpb;
          break;
        }
      }
      if (chosen < 0) {
        let next = Infinity;
        for (let w = 0; w < this.wpb; w++) {
          const g = blk * this.wpb + w;
          if (this.state[g] === READY) next = Math.min(next, this.readyAt[g]);
        }
        this.nextIssue[blk] = next;
        continue;
      }
      const ins = this.step(chosen, t);
      this.instructions++;
      this.lastCycle = t;
      if (this.state[chosen] === READY) this.readyAt[chosen] = Math.max(this.readyAt[chosen], t + latencyOf(this.timing, ins.ops, ins.clock));
      this.nextIssue[blk] = t + issueCost(this.timing, ins.ops);
      if (this.deadlocked) {
        status = 'deadlock';
        break;
      }
      if (this.instructions >= budget && !this.allExited()) {
        status = 'budget';
        break;
      }
    }
    if (status === 'finished' && !this.allExited()) {
      // Nothing can issue, yet warps remain: all of them wait (cannot happen with warp-granularity
      // barriers, which release when the last live warp arrives; kept as a guard).
      status = 'deadlock';
    }
    if (status === 'deadlock' || status === 'budget')
      for (let g = 0; g < this.nWarps; g++) {
        if (this.state[g] === EXITED) continue;
        const waitingHere = this.state[g] === WAITING;
        this.event(status === 'deadlock' ? 'deadlock' : 'stopped', g, this.lastCycle, this.masks[g * this.maxDepth + this.depth[g] - 1], waitingHere ? this.waitLine[g] : this.spinLine[g], waitingHere ? this.waitCol[g] : this.spinCol[g], waitingHere ? this.waitSite[g] : undefined);
      }
    return this.report(status);
  }

  private allExited(): boolean {
    for (let g = 0; g < this.nWarps; g++) if (this.state[g] !== EXITED) return false;
    return true;
  }

  private report(status: SimtRun['status']): SimtRun {
    const warps: WarpReport[] = [];
    for (let g = 0; g < this.nWarps; g++) {
      const r: WarpReport = { block: Math.floor(g / this.wpb), warp: g % this.wpb, threads: this.laneCount[g], state: 'running' };
      if (this.state[g] === EXITED) {
        r.state = 'exited';
        r.exitCycle = this.exitCycle[g];
      } else if (this.state[g] === WAITING) {
        r.state = 'barrier';
        r.site = this.waitSite[g];
        r.line = this.waitLine[g];
        r.col = this.waitCol[g];
      } else {
        const spin = this.spinning[g] === 1 && this.spinEpoch[g] === this.epoch;
        r.state = spin ? 'spinning' : 'running';
        if (spin) {
          r.line = this.spinLine[g];
          r.col = this.spinCol[g];
        } else {
          const top = g * this.maxDepth + this.depth[g] - 1;
          const ins = this.prog.insns[this.pcs[top]];
          r.line = ins.line;
          r.col = ins.col;
        }
      }
      warps.push(r);
    }
    const arrays: ArrayReport[] = this.prog.arrays.map((a) => ({
      name: a.name,
      space: a.space,
      type: a.type,
      size: a.size,
      copies: a.space === 'shared' ? this.nBlocks : 1,
      values: this.data[a.id],
    }));
    return {
      status,
      message: describeRun(status, warps, this.instructions, this.opts.stepBudget),
      cycles: this.lastCycle,
      instructions: this.instructions,
      warps,
      events: this.events,
      droppedEvents: this.droppedEvents,
      barriers: this.barriers,
      droppedBarriers: this.droppedBarriers,
      arrays,
      staleReads: this.staleReads,
      syncSites: this.prog.syncSites,
      launch: { blocks: this.nBlocks, threadsPerBlock: this.tpb, warpsPerBlock: this.wpb },
    };
  }
}

function warpName(w: WarpReport, blocks: number): string {
  return blocks > 1 ? `block ${w.block} warp ${w.warp}` : `warp ${w.warp}`;
}

/** One paragraph on how a run ended: which warps wait at which barrier, which spin where, which exited. */
export function describeRun(status: SimtRun['status'], warps: WarpReport[], instructions: number, budget: number): string {
  const blocks = warps.reduce((m, w) => Math.max(m, w.block + 1), 0);
  const list = (ws: WarpReport[], f: (w: WarpReport) => string): string => (ws.length > 12 ? [...ws.slice(0, 12).map(f), `${ws.length - 12} more`] : ws.map(f)).join('; ');
  const waiting = warps.filter((w) => w.state === 'barrier');
  const spinning = warps.filter((w) => w.state === 'spinning');
  const running = warps.filter((w) => w.state === 'running');
  const exited = warps.filter((w) => w.state === 'exited');
  const parts: string[] = [];
  if (waiting.length) parts.push(`waiting at a barrier: ${list(waiting, (w) => `${warpName(w, blocks)} at __syncthreads() [${w.site}] (${where(w.line ?? 0, w.col ?? 0)})`)}`);
  if (spinning.length) parts.push(`spinning with nothing changing: ${list(spinning, (w) => `${warpName(w, blocks)} in the loop at ${where(w.line ?? 0, w.col ?? 0)}`)}`);
  if (running.length) parts.push(`still running: ${list(running, (w) => `${warpName(w, blocks)} at ${where(w.line ?? 0, w.col ?? 0)}`)}`);
  parts.push(`exited: ${exited.length ? list(exited, (w) => warpName(w, blocks)) : 'none'}`);
  if (status === 'finished') return `finished: every warp exited after ${instructions} warp instructions`;
  if (status === 'deadlock') return `deadlock: no warp can make progress. ${parts.join('. ')}.`;
  return `stopped by the step budget (${budget} warp instructions) before the kernel finished: raise the budget or look for a loop that never ends. ${parts.join('. ')}.`;
}

/** Runs a compiled kernel. Throws KernelError on a run-time error (index out of range, division by zero). */
export function runKernel(prog: Compiled, timing: SimtTiming, opts: LaunchOptions): SimtRun {
  if (!(Number.isInteger(opts.blocks) && opts.blocks >= 1 && opts.blocks <= MAX_BLOCKS)) throw new RangeError(`blocks must be 1 to ${MAX_BLOCKS}`);
  if (!(Number.isInteger(opts.threadsPerBlock) && opts.threadsPerBlock >= 1 && opts.threadsPerBlock <= MAX_THREADS_PER_BLOCK))
    throw new RangeError(`threads per block must be 1 to ${MAX_THREADS_PER_BLOCK}`);
  if (!(Number.isInteger(opts.stepBudget) && opts.stepBudget >= 1 && opts.stepBudget <= MAX_STEPS)) throw new RangeError(`the step budget must be 1 to ${MAX_STEPS}`);
  return new Machine(prog, timing, opts).run();
}

/** Parses, compiles and runs kernel text. */
export function runSource(src: string, timing: SimtTiming, opts: LaunchOptions): SimtRun {
  return runKernel(compileKernel(parseKernel(src)), timing, opts);
}

/** The timeline per warp: key "block:warp", events in cycle order. */
export function eventsByWarp(run: SimtRun): Map<string, SimtEvent[]> {
  const out = new Map<string, SimtEvent[]>();
  for (const e of run.events) {
    const k = `${e.block}:${e.warp}`;
    const list = out.get(k);
    if (list) list.push(e);
    else out.set(k, [e]);
  }
  return out;
}

/** An array's final values in one block (or the global array). */
export function arrayValues(run: SimtRun, name: string, block = 0): number[] {
  const a = run.arrays.find((x) => x.name === name);
  if (!a) throw new Error(`no array ${name}`);
  const off = a.space === 'shared' ? block * a.size : 0;
  return Array.from(a.values.subarray(off, off + a.size));
}
