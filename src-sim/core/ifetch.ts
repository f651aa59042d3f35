import type { PathModel } from '../model/path';
import type { Rng } from '../rng';
import type { CoreConfig } from './types';

/**
 * Instruction fetch of one SM over the instruction cache hierarchy (WONG IV-K, Figs 22-24).
 *
 * A warp runs a loop of independent instructions (WONG's 8-byte abs instructions). The SM fetches
 * `fetchBytes` (64 B) at a time from the instruction L1 on demand, when a fetch block begins; an L1 hit
 * is part of the pipeline (no stall), an L1 miss stalls for its latency, less what a prefetch already
 * covered. At every block the fetch unit requests the line holding the code `prefetchLines` lines (256 B)
 * ahead, following the loop's backward branch, which hides an L2 hit behind the 128 cycles a 256-byte line
 * takes to execute but not an L3 hit: why Fig 22 cannot see the 4 KB L1. The caches are the preset's
 * instruction path (I-L1 per SM, then the L2 and L3 it shares with constants), one PathModel per SM on
 * one Chip, so SMs of a TPC contend for the L2 (Fig 23).
 */
export class FetchUnit {
  declare readonly path: PathModel;
  declare readonly fetchBytes: number;
  declare readonly lineBytes: number;
  declare readonly blockCycles: number;
  declare readonly hitLatency: number;
  declare readonly prefetchLines: number;
  /** Loop: code base and size. */
  declare base: number;
  declare bytes: number;
  declare stride: number;
  /** Position: next block's offset, and time it may start. */
  declare offset: number;
  declare time: number;
  /** Cycles lost to fetch stalls since the last reset of the counter. */
  declare stalls: number;
  /** Arrival time of lines prefetched (ring of recent requests). */
  private declare readonly pfLine: Float64Array;
  private declare readonly pfTime: Float64Array;
  private declare pfNext: number;
  private declare lastRequested: number;

  /**
   * @param path the instruction path of this SM
   * @param cyclesPerInstruction execution time of one instruction of the loop (one warp of independent SP instructions: 32 / SP throughput)
   */
  constructor(core: CoreConfig, path: PathModel, cyclesPerInstruction: number) {
    this.path = path;
    this.fetchBytes = core.icache.fetchBytes;
    this.lineBytes = path.caches.length ? path.caches[0].lineBytes : core.icache.fetchBytes;
    this.blockCycles = (core.icache.fetchBytes / core.icache.instructionBytes) * cyclesPerInstruction;
    this.prefetchLines = core.icache.prefetchLines;
    this.hitLatency = path.config.latency[`${path.levelName(0)}/-`] ?? 0;
    this.base = 0;
    this.bytes = core.icache.fetchBytes;
    this.stride = core.icache.fetchBytes;
    this.offset = 0;
    this.time = 0;
    this.stalls = 0;
    this.pfLine = new Float64Array(16).fill(-1);
    this.pfTime = new Float64Array(16);
    this.pfNext = 0;
    this.lastRequested = -1;
  }

  /**
   * Starts running a loop over `bytes` bytes of code at `base` (a multiple of the fetch size), one fetch
   * block every `stride` bytes: the fetch size for straight-line code, a line for code that jumps to
   * the next line after each block (a flooding loop that touches many lines quickly).
   */
  load(base: number, bytes: number, stride = this.fetchBytes): void {
    this.base = base;
    this.bytes = Math.max(this.fetchBytes, Math.ceil(bytes / this.fetchBytes) * this.fetchBytes);
    this.stride = stride;
    this.offset = 0;
    this.lastRequested = -1;
  }

  /** Fetch blocks one pass of the loop runs. */
  get blocks(): number {
    return Math.ceil(this.bytes / this.stride);
  }

  private prefetched(line: number): number {
    for (let i = 0; i < this.pfLine.length; i++) if (this.pfLine[i] === line) return this.pfTime[i];
    return -Infinity;
  }

  /** Runs one fetch block at `this.time`: fetch (maybe stalling), prefetch on a new line, execute. Returns the block's stall. */
  step(): number {
    const addr = this.base + this.offset;
    const line = Math.floor(addr / this.lineBytes);
    const now = this.time;
    const latency = this.path.access(addr);
    let ready = now;
    if (this.path.lastLevel > 0) ready = now + latency - this.hitLatency;
    const pf = this.prefetched(line);
    // A prefetched line now in the L1 arrives when its prefetch does.
    if (this.path.lastLevel === 0 && pf > ready) ready = pf;
    // Lookahead: the line holding the code `prefetchLines` lines ahead (following the loop branch),
    // requested once, when the first block that reaches it starts to execute.
    let off = this.offset + this.prefetchLines * this.lineBytes;
    while (off >= this.bytes) off -= this.bytes;
    const tl = Math.floor((this.base + off) / this.lineBytes);
    if (this.prefetchLines > 0 && tl !== line && tl !== this.lastRequested) {
      const lat = this.path.access(this.base + off);
      this.lastRequested = tl;
      this.pfLine[this.pfNext] = tl;
      this.pfTime[this.pfNext] = ready + (this.path.lastLevel > 0 ? lat - this.hitLatency : 0);
      this.pfNext = (this.pfNext + 1) % this.pfLine.length;
    }
    const stall = ready - now;
    this.stalls += stall;
    this.time = ready + this.blockCycles;
    this.offset += this.stride;
    if (this.offset >= this.bytes) this.offset = 0;
    return stall;
  }
}

/**
 * Runs the measured SM's loop (and, beside it, flooding loops of other SMs sharing its caches) for
 * `loops` timed passes after one untimed pass; returns the measured SM's average cycles per instruction.
 * Units advance in time order (the one furthest behind steps next), so the L2 sees their fetches
 * interleaved as they happen.
 */
export function loopCyclesPerInstruction(measured: FetchUnit, others: FetchUnit[], loops: number, instructionBytes: number): number {
  const blocks = measured.blocks;
  const run = (n: number): void => {
    let left = n;
    while (left > 0) {
      let u: FetchUnit = measured;
      for (const o of others) if (o.time < u.time) u = o;
      u.step();
      if (u === measured) left--;
    }
  };
  run(blocks);
  const t0 = measured.time;
  run(blocks * loops);
  return (measured.time - t0) / ((measured.bytes / instructionBytes) * loops);
}

/**
 * WONG Fig 24: one warp runs `reads` consecutive clock() reads (two instructions each) at `base` while
 * evicting warps on the same SM fetch code in lines of the same L1 set. Before each of the measured
 * warp's fetch blocks the evicting warps fetch a random number (0..`maxEvictions`) of their blocks.
 * Returns the clock value of each read, relative to the first (cycles).
 */
export function clockTimeline(
  core: CoreConfig,
  path: PathModel,
  base: number,
  reads: number,
  clockCycles: number,
  evictors: number[],
  maxEvictions: number,
  rng: Rng,
): Float64Array {
  const fb = core.icache.fetchBytes;
  const ib = core.icache.instructionBytes;
  const lineBytes = path.caches.length ? path.caches[0].lineBytes : fb;
  const hit = path.config.latency[`${path.levelName(0)}/-`] ?? 0;
  const out = new Float64Array(reads);
  let t = 0;
  let lastLine = -1;
  for (let k = 0; k < reads; k++) {
    const addr = base + 2 * ib * k;
    if (addr % fb === 0 || k === 0) {
      // A fetch block begins at this read: the evicting warps ran meanwhile, then the block is fetched.
      const n = rng.int(maxEvictions + 1);
      for (let i = 0; i < n; i++) path.access(evictors[rng.int(evictors.length)]);
      const line = Math.floor(addr / lineBytes);
      const lat = path.access(addr);
      if (path.lastLevel > 0) t += lat - hit;
      if (line !== lastLine) {
        path.access((line + 1) * lineBytes); // next-line prefetch (its latency overlaps execution)
        lastLine = line;
      }
    }
    out[k] = t;
    t += clockCycles;
  }
  const t0 = out[0];
  for (let k = 0; k < reads; k++) out[k] -= t0;
  return out;
}
