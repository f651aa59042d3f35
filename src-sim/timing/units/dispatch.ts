import type { CompiledKernel } from '../compile';
import * as K from './codes';
import type { Fetch } from './fetch';
import type { Issue } from './issue';
import type { Scheduler } from './scheduler';
import type { Machine } from './machine';
import type { Sl1Lines } from './sl1-lines';

const W_FREE: number = K.W_FREE;
const W_ACTIVE: number = K.W_ACTIVE;
const W_DONE: number = K.W_DONE;
const R: number = K.R;

/**
 * Block dispatch: blocks are dealt to SMs round-robin while they fit (warp slots, threads, blocks and
 * shared memory per SM: the kernel's own, its shared arrays and its S-L1 lines); with `launchCycles`
 * an SM takes at most one block per that many cycles (GPGPU-Sim's issue_block2core). A block's warps
 * take free warp slots; when its last warp retires the block frees them and its resources.
 */
export class Dispatch {
  declare readonly m: Machine;
  declare readonly fetch: Fetch;
  declare readonly sl1: Sl1Lines;
  /** Set by the engine. */
  declare issue: Issue;
  /** Set by the engine: the schedulers (a new warp takes its place in greedy-then-oldest's age order). */
  declare sched: Scheduler;
  /** Per SM: resident warps, threads, shared bytes (blocks: m.smBlocks). */
  declare readonly smWarps: Int32Array;
  declare readonly smThreads: Int32Array;
  declare readonly smShared: Float64Array;
  /** Per block slot (sm x maxBlocksPerSM + i): its block id (-1: free), warps left, warps at the barrier, warps, shared bytes, threads. */
  declare readonly bBid: Int32Array;
  declare readonly bLeft: Int32Array;
  declare readonly bArrived: Int32Array;
  declare readonly bWarps: Int32Array;
  declare readonly bShared: Float64Array;
  declare readonly bThreads: Int32Array;
  declare nextBlock: number;
  declare blocksDone: number;
  declare rrSm: number;
  /** A block finished (or an SM was not ready): dispatch again this cycle. */
  declare pending: number;
  /** launchCycles: per SM, the cycle from which it may take its next block (0: any time). */
  declare readonly launchCycles: number;
  declare readonly launchFree: Float64Array;
  declare doneWarps: number;
  declare totalWarps: number;

  constructor(m: Machine, fetch: Fetch, sl1: Sl1Lines) {
    const S = m.sms;
    this.m = m;
    this.fetch = fetch;
    this.sl1 = sl1;
    this.smWarps = new Int32Array(S);
    this.smThreads = new Int32Array(S);
    this.smShared = new Float64Array(S);
    this.bBid = new Int32Array(S * m.maxB).fill(-1);
    this.bLeft = new Int32Array(S * m.maxB);
    this.bArrived = new Int32Array(S * m.maxB);
    this.bWarps = new Int32Array(S * m.maxB);
    this.bShared = new Float64Array(S * m.maxB);
    this.bThreads = new Int32Array(S * m.maxB);
    this.launchCycles = Math.max(0, Math.round(m.c.launchCycles ?? 0));
    this.launchFree = new Float64Array(S);
    this.nextBlock = 0;
    this.blocksDone = 0;
    this.rrSm = 0;
    this.pending = 0;
    this.doneWarps = 0;
    this.totalWarps = 0;
    this.issue = null as unknown as Issue;
  }

  /** A kernel starts: no block is dealt yet. Throws when one block does not fit an empty SM. */
  start(k: CompiledKernel): void {
    this.nextBlock = 0;
    this.blocksDone = 0;
    this.rrSm = 0;
    if (!this.fits(0))
      throw new Error(
        `kernel ${k.kernel.name}: one block (${k.kernel.block} threads, ${k.warpsPerBlock} warps, ${k.sharedBytesPerBlock} B shared) does not fit on an SM`,
      );
  }

  fits(sm: number): boolean {
    const m = this.m;
    const k = m.k;
    return (
      this.smWarps[sm] + k.warpsPerBlock <= m.maxW &&
      this.smThreads[sm] + k.kernel.block <= m.c.maxThreadsPerSM &&
      m.smBlocks[sm] < m.maxB &&
      this.smShared[sm] + k.sharedBytesPerBlock <= m.c.shared.bytesPerSM
    );
  }

  /** Deals blocks to SMs while they fit. */
  step(): void {
    const m = this.m;
    this.pending = 0;
    const grid = m.k.kernel.grid;
    while (this.nextBlock < grid) {
      let placed = false;
      let later = false;
      for (let i = 0; i < m.sms; i++) {
        const sm = (this.rrSm + i) % m.sms;
        if (this.fits(sm)) {
          if (this.launchFree[sm] > m.now) {
            later = true; // launchCycles: this SM took a block too recently
            continue;
          }
          this.place(sm, this.nextBlock++);
          if (this.launchCycles > 0) this.launchFree[sm] = m.now + this.launchCycles;
          this.rrSm = (sm + 1) % m.sms;
          placed = true;
          break;
        }
      }
      if (!placed) {
        if (later) this.pending = 1;
        return;
      }
    }
  }

  private place(sm: number, bid: number): void {
    const m = this.m;
    const k = m.k;
    let b = sm * m.maxB;
    while (this.bBid[b] !== -1) b++;
    this.bBid[b] = bid;
    this.bLeft[b] = k.warpsPerBlock;
    this.bWarps[b] = k.warpsPerBlock;
    this.bArrived[b] = 0;
    this.bShared[b] = k.sharedBytesPerBlock;
    this.bThreads[b] = k.kernel.block;
    this.smWarps[sm] += k.warpsPerBlock;
    this.smThreads[sm] += k.kernel.block;
    this.smShared[sm] += k.sharedBytesPerBlock;
    m.smBlocks[sm]++;
    if (m.smWake[sm] > m.now + 1) m.smWake[sm] = m.now + 1;
    let l = 0;
    for (let i = 0; i < k.warpsPerBlock; i++) {
      while (m.wState[sm * m.maxW + l] !== W_FREE) l++;
      const w = sm * m.maxW + l;
      m.wState[w] = W_ACTIVE;
      m.wBlock[w] = b;
      m.wBid[w] = bid;
      m.wInBlock[w] = i;
      m.wLanes[w] = Math.min(32, k.kernel.block - i * 32);
      m.wWait[w] = m.now + 1;
      m.wAluRemain[w] = 0;
      m.wExtra[w] = 0;
      m.wPhase[w] = 0;
      m.wAge[w] = m.ageCounter++;
      this.sched.aged(w);
      m.wake(w);
      m.wPending[w] = 0;
      m.rPending.fill(0, w * R, w * R + R);
      m.rReady.fill(0, w * R, w * R + R);
      this.sl1.reset(w);
      m.wPc[w] = 0;
      this.issue.settle(w);
      if (this.fetch.ibufSize > 0) {
        this.fetch.wIb[w] = 0;
        this.fetch.request(sm, w);
      }
    }
  }

  /** Warp w of sm retires; the last warp of its block frees the block's slots and resources. */
  retire(sm: number, w: number): void {
    const m = this.m;
    m.wState[w] = W_DONE;
    this.doneWarps++;
    const b = m.wBlock[w];
    if (--this.bLeft[b] === 0) {
      // The block is done: free its warp slots and resources.
      const first = sm * m.maxW;
      for (let x = first; x < first + m.maxW; x++)
        if (m.wBlock[x] === b && m.wState[x] === W_DONE) {
          m.wState[x] = W_FREE;
          m.wBlock[x] = -1;
        }
      this.smWarps[sm] -= this.bWarps[b];
      this.smThreads[sm] -= this.bThreads[b];
      this.smShared[sm] -= this.bShared[b];
      m.smBlocks[sm]--;
      this.bBid[b] = -1;
      this.blocksDone++;
      this.pending = 1;
      if (m.o.progress && (this.blocksDone & 15) === 0) m.o.progress(this.doneWarps, this.totalWarps);
    }
  }
}
