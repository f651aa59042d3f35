/**
 * SL1's micro-benchmarks as kernels (SL1 2.3.1, Figs 1, 5, 6 and the shared-memory remark):
 *  - `throughputKernel`: threads read disjoint subsets of an array, n-way coalesced, from data
 *    that stays in the L2 ('l2') or that is never reused so every access reaches DRAM ('dram');
 *  - `sharedThroughputKernel`: conflict-free reads of a shared-memory array;
 *  - `wcScanKernel`: wc's per-thread chunk scan of Fig 1 (each thread reads its own chunk of chars).
 * Each builder documents what SL1 says and what is assumed.
 */
import type { IndexTerm, Instr, Kernel } from '../types';

export const WARP = 32;
/** SL1 2.1: accesses of a warp that fall in one aligned 128 B region are coalesced. */
export const COALESCE_REGION = 128;

export interface ThroughputOptions {
  blocks: number;
  threadsPerBlock: number;
  /** n-way coalesced (SL1 2.1): n consecutive threads read n consecutive 4 B words of one 128 B region. */
  coalescing: number;
  source: 'l2' | 'dram';
  /** Loop iterations per thread. */
  iterations: number;
  /** Independent loads per iteration (kept in flight together; default 1). */
  unroll?: number;
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
/**
 * Load j of a thread: its group's stream (groups of n consecutive lanes, `groupWords` apart), its own
 * word in the group, the iteration's terms, and load j's offset.
 */
function groupLoad(j: number, n: number, groupWords: number, iterTerms: IndexTerm[], offset: number): Instr {
  return {
    op: 'ld',
    array: 'data',
    dst: 1 + j,
    index: { terms: [{ coef: groupWords, var: 'gtid', div: n }, { coef: 1, var: 'gtid', mod: n }, ...iterTerms], offset },
  };
}

export function throughputKernel(o: ThroughputOptions): Kernel {
  const n = Math.max(1, Math.min(WARP, Math.floor(o.coalescing)));
  const u = Math.max(1, Math.floor(o.unroll ?? 1));
  const threads = o.blocks * o.threadsPerBlock;
  const groups = Math.ceil(threads / n);
  const wordsPerRegion = COALESCE_REGION / THROUGHPUT_ELEM_BYTES; // 32 words per 128 B
  const loads: Instr[] = [];
  let length: number;
  if (o.source === 'l2') {
    // Per-group region: as many lines (at most 8 per load in flight) as keep the data within 1 MB.
    const lines = Math.max(1, Math.min(8 * u, Math.floor((1 << 20) / (groups * COALESCE_REGION))));
    const regionWords = lines * wordsPerRegion;
    length = groups * regionWords;
    // Load j of iteration i: line (i * u + j) mod lines of the group's region, the n words of this group.
    const rounds = lines % u === 0 ? lines / u : 1;
    for (let j = 0; j < u; j++)
      loads.push(groupLoad(j, n, regionWords, rounds > 1 ? [{ coef: u * wordsPerRegion, var: 'i', mod: rounds }] : [], (j % lines) * wordsPerRegion));
  } else {
    // Fresh 32 B sector per load: 8 words apart; n <= 8 words fit the sector's first part.
    const sectorWords = 32 / THROUGHPUT_ELEM_BYTES;
    const step = Math.max(sectorWords, Math.ceil(n / sectorWords) * sectorWords);
    // Groups' streams one sector apart ("disjoint (non-contiguous) subsets"; the gap is assumed):
    // streams a power of two apart put every group's loads in the same 3 of titan's 24 L2 slices at
    // once (slices are interleaved by line, without the address hashing GPUs use against such
    // partition camping), which held DRAM to 154 GB/s.
    const streamWords = o.iterations * u * step + sectorWords;
    length = groups * streamWords;
    for (let j = 0; j < u; j++) loads.push(groupLoad(j, n, streamWords, [{ coef: u * step, var: 'i' }], j * step));
  }
  return {
    name: `throughput ${o.source} ${o.blocks}x${o.threadsPerBlock} ${n}-way`,
    grid: o.blocks,
    block: o.threadsPerBlock,
    arrays: [{ name: 'data', elemBytes: THROUGHPUT_ELEM_BYTES, length, space: 'global' }],
    // The loads of an iteration are independent (in flight together); one ALU op consumes them.
    body: [{ op: 'loop', var: 'i', count: o.iterations, body: [...loads, { op: 'alu', count: 1, uses: loads.map((_, j) => 1 + j), dst: 1 + u }] }],
  };
}

/** Bytes a throughputKernel reads (useful bytes, not the transfers). */
export function throughputBytes(o: ThroughputOptions): number {
  return o.blocks * o.threadsPerBlock * o.iterations * Math.max(1, Math.floor(o.unroll ?? 1)) * THROUGHPUT_ELEM_BYTES;
}

export interface SharedThroughputOptions {
  blocks: number;
  threadsPerBlock: number;
  iterations: number;
  /** Independent loads per iteration (default 1). */
  unroll?: number;
}

/** Shared-memory array of the shared-throughput kernel (4 B words, 8 KB per block). */
export const SHARED_WORDS = 2048;

/**
 * Shared-memory throughput (SL1 2.3.1, last paragraph: "does not flatten out and reaches 60GB/s"
 * per SMX): lane l of a warp reads word l of a 32-word row (no bank conflicts), walking through
 * the array row by row, `unroll` rows per iteration. Assumed: 4 B words, 8 KB per block.
 */
export function sharedThroughputKernel(o: SharedThroughputOptions): Kernel {
  const u = Math.max(1, Math.floor(o.unroll ?? 1));
  const rounds = Math.max(1, Math.floor(SHARED_WORDS / WARP / u));
  const loads: Instr[] = Array.from({ length: u }, (_, j) => ({
    op: 'ld' as const,
    array: 'buf',
    dst: 1 + j,
    index: { terms: [{ coef: 1, var: 'tid', mod: WARP }, { coef: WARP * u, var: 'i', mod: rounds }], offset: WARP * j },
  }));
  return {
    name: `shared throughput ${o.blocks}x${o.threadsPerBlock}`,
    grid: o.blocks,
    block: o.threadsPerBlock,
    arrays: [{ name: 'buf', elemBytes: 4, length: SHARED_WORDS, space: 'shared' }],
    body: [{ op: 'loop', var: 'i', count: o.iterations, body: [...loads, { op: 'alu', count: 1, uses: loads.map((_, j) => 1 + j), dst: 1 + u }] }],
  };
}

/** Bytes a kernel of sharedThroughputKernel reads from shared memory. */
export function sharedThroughputBytes(o: SharedThroughputOptions): number {
  return o.blocks * o.threadsPerBlock * o.iterations * Math.max(1, Math.floor(o.unroll ?? 1)) * 4;
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
