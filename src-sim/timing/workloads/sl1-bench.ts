/**
 * SL1's micro-benchmarks as kernels (SL1 2.3.1, Figs 1, 5, 6 and the shared-memory remark):
 *  - `throughputKernel`: threads read disjoint subsets of an array, n-way coalesced, from data
 *    that stays in the L2 ('l2') or that is never reused so every access reaches DRAM ('dram');
 *  - `sharedThroughputKernel`: conflict-free reads of a shared-memory array;
 *  - `wcScanKernel`: wc's per-thread chunk scan of Fig 1 (each thread reads its own chunk of chars).
 * Each builder documents what SL1 says and what is assumed.
 */
import type { Instr, Kernel } from '../types';

export const WARP = 32;
/** SL1 2.1: accesses of a warp that fall in one aligned 128 B region are coalesced. */
export const COALESCE_REGION = 128;

export interface ThroughputOptions {
  blocks: number;
  threadsPerBlock: number;
  /** n-way coalesced (SL1 2.1): n consecutive threads read n consecutive 4 B words of one 128 B region. */
  coalescing: number;
  source: 'l2' | 'dram';
  /** Loads per thread. */
  iterations: number;
}

/** Bytes a thread reads per load (4 B integers: SL1 2.3.1 speaks of 4-byte integer accesses). */
export const THROUGHPUT_ELEM_BYTES = 4;

/**
 * SL1 2.3.1's L2/DRAM throughput benchmark. Threads form groups of `coalescing` consecutive lanes;
 * a group's load touches n consecutive words, and the 32 / n groups of a warp touch distinct 128 B
 * regions (so a warp load is `32 / n` requests). Groups own disjoint regions ("threads read disjoint
 * (non-contiguous) subsets").
 *  - 'l2': each group cycles over a small region of its own (1 to 8 lines of 128 B, as many as keep
 *    the whole data set within 1 MB, under the 1.5 MB L2), so after the first pass every load hits
 *    the L2 (assumed: the paper does not give its footprint);
 *  - 'dram': each load goes to a fresh 32 B sector of a group's own stream ("data certain to not be
 *    in the L2 cache"); the stream is far larger than the L2.
 * The timed quantity (SL1 Figs 5, 6) is the bytes moved over the interconnect per second.
 */
export function throughputKernel(o: ThroughputOptions): Kernel {
  const n = Math.max(1, Math.min(WARP, Math.floor(o.coalescing)));
  const threads = o.blocks * o.threadsPerBlock;
  const groups = Math.ceil(threads / n);
  const wordsPerRegion = COALESCE_REGION / THROUGHPUT_ELEM_BYTES; // 32 words per 128 B
  let index: Instr;
  let length: number;
  if (o.source === 'l2') {
    // Per-group region: as large as fits 1 MB of L2 in total, between 1 and 8 lines.
    const lines = Math.max(1, Math.min(8, Math.floor((1 << 20) / (groups * COALESCE_REGION))));
    const regionWords = lines * wordsPerRegion;
    // A load at iteration i: the group's region, line (i mod lines), the n words of this group.
    length = groups * regionWords;
    index = {
      op: 'ld',
      array: 'data',
      dst: 1,
      index: {
        terms: [
          { coef: regionWords, var: 'gtid', div: n },
          { coef: 1, var: 'gtid', mod: n },
          { coef: wordsPerRegion, var: 'i', mod: lines },
        ],
      },
    };
  } else {
    // Fresh 32 B sector per load: 8 words apart; n <= 8 words fit the sector's first part.
    const sectorWords = 32 / THROUGHPUT_ELEM_BYTES;
    const step = Math.max(sectorWords, Math.ceil(n / sectorWords) * sectorWords);
    const streamWords = o.iterations * step;
    length = groups * streamWords;
    index = {
      op: 'ld',
      array: 'data',
      dst: 1,
      index: {
        terms: [
          { coef: streamWords, var: 'gtid', div: n },
          { coef: 1, var: 'gtid', mod: n },
          { coef: step, var: 'i' },
        ],
      },
    };
  }
  return {
    name: `throughput ${o.source} ${o.blocks}x${o.threadsPerBlock} ${n}-way`,
    grid: o.blocks,
    block: o.threadsPerBlock,
    arrays: [{ name: 'data', elemBytes: THROUGHPUT_ELEM_BYTES, length, space: 'global' }],
    // Loads are independent (the benchmark keeps as many in flight as it can); one ALU op consumes
    // each value so the loads are not dead.
    body: [{ op: 'loop', var: 'i', count: o.iterations, body: [index, { op: 'alu', count: 1, uses: [1], dst: 2 }] }],
  };
}

export interface SharedThroughputOptions {
  blocks: number;
  threadsPerBlock: number;
  iterations: number;
}

/** Shared-memory array of the shared-throughput kernel (4 B words, 8 KB per block). */
export const SHARED_WORDS = 2048;

/**
 * Shared-memory throughput (SL1 2.3.1, last paragraph: "does not flatten out and reaches 60GB/s"
 * per SMX): each thread reads consecutive words of a shared array, lane l of a warp word l (no
 * bank conflicts), walking through the array. Assumed: 4 B words, 8 KB per block.
 */
export function sharedThroughputKernel(o: SharedThroughputOptions): Kernel {
  return {
    name: `shared throughput ${o.blocks}x${o.threadsPerBlock}`,
    grid: o.blocks,
    block: o.threadsPerBlock,
    arrays: [{ name: 'buf', elemBytes: 4, length: SHARED_WORDS, space: 'shared' }],
    body: [
      {
        op: 'loop',
        var: 'i',
        count: o.iterations,
        body: [
          {
            op: 'ld',
            array: 'buf',
            dst: 1,
            index: { terms: [{ coef: 1, var: 'tid', mod: SHARED_WORDS }, { coef: WARP, var: 'i', mod: SHARED_WORDS / WARP }] },
          },
          { op: 'alu', count: 1, uses: [1], dst: 2 },
        ],
      },
    ],
  };
}

/** Bytes a kernel of sharedThroughputKernel reads from shared memory. */
export function sharedThroughputBytes(o: SharedThroughputOptions): number {
  return o.blocks * o.threadsPerBlock * o.iterations * 4;
}

export interface WcScanOptions {
  blocks: number;
  threadsPerBlock: number;
  /** Total characters scanned; each thread gets an equal chunk. */
  chars: number;
}

/**
 * wc's scan of SL1 Fig 1: the text is partitioned into one chunk per thread; thread t reads chars
 * t*C .. t*C + C - 1 in order, and does wc's counting (SL1 4.2: "minimal computation (only counter
 * increments) for each character access"; assumed: 3 dependent ALU instructions: is-space test,
 * newline test, counter update).
 */
export function wcScanKernel(o: WcScanOptions): Kernel {
  const threads = o.blocks * o.threadsPerBlock;
  const chunk = Math.max(1, Math.ceil(o.chars / threads));
  return {
    name: `wc scan ${o.blocks}x${o.threadsPerBlock}`,
    grid: o.blocks,
    block: o.threadsPerBlock,
    arrays: [{ name: 'text', elemBytes: 1, length: chunk * threads, space: 'global' }],
    body: [
      {
        op: 'loop',
        var: 'i',
        count: chunk,
        body: [
          { op: 'ld', array: 'text', dst: 1, index: { terms: [{ coef: chunk, var: 'gtid' }, { coef: 1, var: 'i' }] } },
          { op: 'alu', count: 3, uses: [1], dst: 2 },
        ],
      },
    ],
  };
}
