/**
 * The ten streaming applications of SL1 Table 1 as access-pattern models (kernels of the timing
 * tier). SL1 gives, per application, a one-line description and the number of data structures its
 * main loop uses (Table 1), and a few properties in 4.2 (wc: "minimal computation (only counter
 * increments) for each character access"; upper: like wc "but may modify the characters"; grep:
 * recursive, instruction-bound; Kmeans: most of the shared memory is its own; streaming data with
 * high spatial locality, processed by threads "independently in disjoint locations of memory", 3.1).
 * Everything else here (element sizes, record lengths, work per element, which lookups are random)
 * is ASSUMED from those descriptions and says so in each model's comment.
 *
 * Common shape: the input is partitioned into one contiguous chunk per thread (SL1 3.1 and Fig 1);
 * thread `gtid` processes records gtid*R .. gtid*R + R - 1 of its input in its main loop (loop
 * variable 'r', R = `records` per thread). Nominal chunks are rounded up to a multiple of 16 B
 * (assumed: partitioning code aligns each thread's chunk, as 16 B vector loads need), so the lanes
 * of a warp cross S-L1 line boundaries together. Random lookups use a scattered index (a large odd stride
 * in r plus a per-thread offset): consecutive lookups of a thread fall in different lines, as hash
 * lookups do. ALU work is a dependent chain after the data it needs ("count" instructions).
 */
import type { IndexExpr, Instr, Kernel, KernelArray, TimingConfig } from '../types';

export interface LaunchShape {
  grid: number;
  block: number;
}

export interface AppBuild {
  shape: LaunchShape;
  /** Records (iterations of the main loop) each thread runs. */
  records: number;
  /**
   * Records per thread in the data layout (each thread's chunk), default `records`. A window of a
   * long run keeps the long run's chunk (so addresses map to the same L2 slices and sets) and runs
   * only `records` of it.
   */
  chunk?: number;
  /** The configuration (Kmeans sizes its shared memory from it). */
  config: TimingConfig;
  /**
   * Multiplier on every ALU count of the model (default 1): the applications' work per element
   * is not in SL1; experiments may scale it as a whole (see SL1_WORK_SCALE).
   */
  work?: number;
  /**
   * Build the binary S-L1 runs (default false): the S-L1 compiler wraps every source-level memory
   * access in an accessThroughCache() call before the code is optimised (SL1 3.2.3: "the compiler
   * replaces all memory accesses with calls to accessThroughCache()"), so reads that the optimiser
   * merges in the plain binary stay separate. Only models whose source reads a value more often
   * than the plain binary loads it (grep) look at this.
   */
  sl1?: boolean;
}

/** Scales the ALU counts of a body (at least one instruction each). */
function scaleWork(body: Instr[], w: number): Instr[] {
  if (w === 1) return body;
  return body.map((i): Instr => (i.op === 'alu' ? { ...i, count: Math.max(1, Math.round(i.count * w)) } : i.op === 'loop' ? { ...i, body: scaleWork(i.body, w) } : i));
}

export interface Sl1App {
  id: string;
  /** The name SL1 uses. */
  name: string;
  /** SL1 Table 1's description. */
  description: string;
  /** Data structures of the main loop (SL1 Table 1), and how many of them are in shared memory. */
  structures: number;
  sharedStructures: number;
  /** Bytes of input one record is (to state sizes in bytes). */
  recordBytes: number;
  /** Assumptions of the model, in words. */
  assumptions: string;
  build(b: AppBuild): Kernel;
  /**
   * The nominal problem for `threads` threads over the GPU and `inputBytes` of input: records per
   * thread (main-loop iterations) and waves of threads (1 for the chunked streaming applications).
   */
  nominal(threads: number, inputBytes: number): { records: number; waves: number };
}

/** Chunked streaming: the input split evenly over the threads (chunks rounded up to 16 B), one wave. */
function chunked(recordBytes: number): Sl1App['nominal'] {
  return (threads, inputBytes) => {
    const r = Math.max(1, Math.ceil(inputBytes / (recordBytes * threads)));
    const per = Math.max(1, CHUNK_ALIGN / gcd(CHUNK_ALIGN, recordBytes));
    return { records: Math.ceil(r / per) * per, waves: 1 };
  };
}

const CHUNK_ALIGN = 16;
function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

// ---- index helpers ----------------------------------------------------------------------------

/** Element gtid*per + r*step + c (per-thread contiguous chunk). */
function chunk(per: number, step = 1, inner?: string): IndexExpr {
  const terms = [
    { coef: per, var: 'gtid' },
    { coef: step, var: 'r' },
  ];
  if (inner) terms.push({ coef: 1, var: inner });
  return { terms };
}

/** Words (4 B) a scattered lookup spreads over: 2^20 words = 4 MB, beyond the 1.5 MB L2. */
const TABLE_WORDS = 1 << 20;
/**
 * A hash-like lookup: (r mod 63) * 16411 + (gtid mod 1021) * 3 + salt words: distinct 64 KB regions
 * for consecutive r of a thread (no reuse within a 16 B or 128 B line), spread over ~4 MB.
 */
function scattered(salt = 0): IndexExpr {
  return {
    terms: [
      { coef: 16411, var: 'r', mod: 63 },
      { coef: 3, var: 'gtid', mod: 1021 },
    ],
    offset: salt,
  };
}

const ld = (array: string, index: IndexExpr, dst: number): Instr => ({ op: 'ld', array, index, dst });
const st = (array: string, index: IndexExpr, src: number[]): Instr => ({ op: 'st', array, index, src });
const alu = (count: number, uses: number[], dst: number): Instr => ({ op: 'alu', count, uses, dst });
const loop = (v: string, count: number, body: Instr[]): Instr => ({ op: 'loop', var: v, count, body });
const garr = (name: string, elemBytes: number, length: number, readWrite = false): KernelArray => ({
  name,
  elemBytes,
  length,
  space: 'global',
  ...(readWrite ? { readWrite } : {}),
});

function threads(b: AppBuild): number {
  return b.shape.grid * b.shape.block;
}

function kernel(app: string, b: AppBuild, arrays: KernelArray[], body: Instr[], extra: Partial<Kernel> = {}): Kernel {
  return { name: app, grid: b.shape.grid, block: b.shape.block, arrays, body: scaleWork(body, b.work ?? 1), ...extra };
}

// ---- the ten applications --------------------------------------------------------------------

/** wc: one char per record; 3 dependent ALU ops (is-space, is-newline, counter update). */
const wc: Sl1App = {
  id: 'wc',
  name: 'WC',
  description: 'Counts the number of words and lines in an input document.',
  structures: 1,
  sharedStructures: 0,
  recordBytes: 1,
  nominal: chunked(1),
  assumptions:
    'text of 1 B chars, one char per iteration; 3 dependent ALU instructions per char (SL1 4.2: "only counter increments"; the count is assumed).',
  build(b) {
    const R = b.chunk ?? b.records;
    const N = b.records;
    return kernel('WC', b, [garr('text', 1, R * threads(b))], [loop('r', N, [ld('text', chunk(R), 1), alu(3, [1], 2)])]);
  },
};

/** upper: reads a char, converts it, writes it to the output document. */
const upper: Sl1App = {
  id: 'upper',
  name: 'Upper',
  description: 'Converts all text in an input document from lowercase to uppercase.',
  structures: 2,
  sharedStructures: 0,
  recordBytes: 1,
  nominal: chunked(1),
  assumptions:
    'input and output documents of 1 B chars, same chunk per thread; per char 2 dependent ALU instructions (range test, subtract) then a store (SL1 4.2: like wc but writes the characters).',
  build(b) {
    const R = b.chunk ?? b.records;
    const N = b.records;
    const n = R * threads(b);
    return kernel(
      'Upper',
      b,
      [garr('in', 1, n), garr('out', 1, n, true)],
      [loop('r', N, [ld('in', chunk(R), 1), alu(2, [1], 2), st('out', chunk(R), [2])])],
    );
  },
};

/** DNA assembly: k-mer walk over reads with a hash-table lookup per k-mer step. */
const DNA_STEP = 8;
const dna: Sl1App = {
  id: 'dna',
  name: 'DNA Assembly',
  description: 'Merges fragments of a DNA sequence to reconstruct a larger sequence.',
  structures: 3,
  sharedStructures: 0,
  recordBytes: DNA_STEP,
  nominal: chunked(DNA_STEP),
  assumptions: `reads of 1 B bases; a record is a k-mer step of ${DNA_STEP} bases (each: 3 ALU for 2-bit encoding and the rolling hash), then one lookup of a 4 B entry in a 4 MB k-mer hash table (scattered, read-only), 4 ALU to extend, and one 4 B write of the contig (sequential per thread). Meraculous-style (SL1 ref [3]); all sizes assumed.`,
  build(b) {
    const R = b.chunk ?? b.records;
    const N = b.records;
    const T = threads(b);
    return kernel(
      'DNA Assembly',
      b,
      [garr('reads', 1, R * DNA_STEP * T), garr('kmers', 4, TABLE_WORDS), garr('contig', 4, R * T, true)],
      [
        loop('r', N, [
          loop('c', DNA_STEP, [ld('reads', chunk(R * DNA_STEP, DNA_STEP, 'c'), 1), alu(3, [1], 2)]),
          ld('kmers', scattered(), 3),
          alu(4, [2, 3], 4),
          st('contig', chunk(R), [4]),
        ]),
      ],
    );
  },
};

/** Opinion Finder: words of tweets against a keyword list and a sentiment lexicon. */
const OF_WORD = 8;
const OF_KEYWORDS = 16;
const opinion: Sl1App = {
  id: 'opinion',
  name: 'Opinion Finder',
  description: 'Analyzes the sentiments of tweets associated with a given subject (a set of given keywords).',
  structures: 4,
  sharedStructures: 0,
  recordBytes: OF_WORD,
  nominal: chunked(OF_WORD),
  assumptions: `tweets of 1 B chars, a record is a word of ${OF_WORD} chars (3 ALU each: letter test, lower-casing, word-hash update; at least wc's 3, since SL1 4.2 names wc, with upper, as the extreme of "minimal computation (only counter increments) for each character access"); each word is compared with a list of ${OF_KEYWORDS} keyword hashes (4 B each, the same list for every thread, 1 ALU each), looked up in a 4 MB sentiment lexicon (scattered, read-only, 3 ALU), and its score written (4 B, sequential per thread). All sizes assumed from SL1 Table 1 and ref [24].`,
  build(b) {
    const R = b.chunk ?? b.records;
    const N = b.records;
    const T = threads(b);
    return kernel(
      'Opinion Finder',
      b,
      [garr('tweets', 1, R * OF_WORD * T), garr('keywords', 4, OF_KEYWORDS), garr('lexicon', 4, TABLE_WORDS), garr('scores', 4, R * T, true)],
      [
        loop('r', N, [
          loop('c', OF_WORD, [ld('tweets', chunk(R * OF_WORD, OF_WORD, 'c'), 1), alu(3, [1], 2)]),
          loop('k', OF_KEYWORDS, [ld('keywords', { terms: [{ coef: 1, var: 'k' }] }, 3), alu(1, [2, 3], 4)]),
          ld('lexicon', scattered(7), 5),
          alu(3, [4, 5], 6),
          st('scores', chunk(R), [6]),
        ]),
      ],
    );
  },
};

/** Inverted index: scan HTML, emit (link, file) entries. */
const II_RECORD = 32;
const invindex: Sl1App = {
  id: 'invindex',
  name: 'Inverted Index',
  description: 'Builds reverse index from a series of HTML files.',
  structures: 3,
  sharedStructures: 0,
  recordBytes: II_RECORD,
  nominal: chunked(II_RECORD),
  assumptions: `HTML of 1 B chars scanned with 3 ALU per char (tag parsing); a record is ${II_RECORD} chars and ends with reading the current file id (4 B, sequential per thread) and writing one 4 B index entry (sequential per thread). Sizes assumed.`,
  build(b) {
    const R = b.chunk ?? b.records;
    const N = b.records;
    const T = threads(b);
    return kernel(
      'Inverted Index',
      b,
      [garr('html', 1, R * II_RECORD * T), garr('fileIds', 4, R * T), garr('index', 4, R * T, true)],
      [
        loop('r', N, [
          loop('c', II_RECORD, [ld('html', chunk(R * II_RECORD, II_RECORD, 'c'), 1), alu(3, [1], 2)]),
          ld('fileIds', chunk(R), 3),
          alu(2, [2, 3], 4),
          st('index', chunk(R), [4]),
        ]),
      ],
    );
  },
};

/** Page View Count: parse log lines, count hits per URL in a hash table. */
const PVC_LINE = 64;
const pvc: Sl1App = {
  id: 'pvc',
  name: 'Page View Count',
  description: 'Counts the number of hits of each URL in a web log.',
  structures: 3,
  sharedStructures: 0,
  recordBytes: PVC_LINE,
  nominal: chunked(PVC_LINE),
  assumptions: `web log of 1 B chars, a record is a log line of ${PVC_LINE} chars (3 ALU each: field-delimiter test and the URL hash's xor and multiply; at least wc's 3, since SL1 4.2 names wc, with upper, as the extreme of "minimal computation (only counter increments) for each character access"); per line one lookup of the URL's key (4 B, scattered in a 4 MB table, read-only) and a read-increment-write of its counter (4 B, scattered, read-write; not atomic in this model). Sizes assumed.`,
  build(b) {
    const R = b.chunk ?? b.records;
    const N = b.records;
    const T = threads(b);
    return kernel(
      'Page View Count',
      b,
      [garr('log', 1, R * PVC_LINE * T), garr('keys', 4, TABLE_WORDS), garr('counts', 4, TABLE_WORDS, true)],
      [
        loop('r', N, [
          loop('c', PVC_LINE, [ld('log', chunk(R * PVC_LINE, PVC_LINE, 'c'), 1), alu(3, [1], 2)]),
          ld('keys', scattered(3), 3),
          alu(3, [2, 3], 4),
          ld('counts', scattered(5), 5),
          alu(1, [4, 5], 6),
          st('counts', scattered(5), [6]),
        ]),
      ],
    );
  },
};

/** MasterCard Affinity: scan transactions, look up customers of merchant X. */
const MC_WORDS = 4;
const mastercard: Sl1App = {
  id: 'mastercard',
  name: 'MasterCard Affinity',
  description: 'Finds all merchants that are frequently visited by customers of a target merchant X.',
  structures: 3,
  sharedStructures: 0,
  recordBytes: MC_WORDS * 4,
  nominal: chunked(MC_WORDS * 4),
  assumptions: `transactions of ${MC_WORDS} 4 B fields (16 B) read field by field (2 ALU each); per transaction a lookup in a 4 MB customer table (scattered, read-only, 3 ALU) and one 4 B write of the (merchant, flag) result (sequential per thread). Sizes assumed from SL1 ref [14].`,
  build(b) {
    const R = b.chunk ?? b.records;
    const N = b.records;
    const T = threads(b);
    return kernel(
      'MasterCard Affinity',
      b,
      [garr('tx', 4, R * MC_WORDS * T), garr('customers', 4, TABLE_WORDS), garr('out', 4, R * T, true)],
      [
        loop('r', N, [
          loop('c', MC_WORDS, [ld('tx', chunk(R * MC_WORDS, MC_WORDS, 'c'), 1), alu(2, [1], 2)]),
          ld('customers', scattered(11), 3),
          alu(3, [2, 3], 4),
          st('out', chunk(R), [4]),
        ]),
      ],
    );
  },
};

/**
 * Naive matrix multiply C = A x B (SL1 Table 1: "does not use shared memory"), one output element
 * per thread: in a wave the threads take consecutive rows of C in one column (row = gtid), so every
 * lane walks its own row of A (uncoalesced, like the streaming applications' chunks) and the warp
 * shares B[k][col] (one word). SL1 4.2 and 4.4 ask for this: its matrix multiply slows down with the
 * hardware L1 from thrashing and issues fewer instructions with S-L1 (Fig 11), both of which need
 * loads whose lanes touch many lines. B has N = 128 columns (one wave per column of C's rows); the
 * main loop is the k loop of one output (records = K).
 */
export const MM_N = 128;
/**
 * Inner dimension of the nominal product (assumed). Not a power of two: with K = 2048 every row of A
 * starts 64 lines after the previous one, so a warp's 32 rows fall in one of the L1's 4 sets and in
 * 3 of the 24 L2 slices (the engine interleaves slices by line number, without the address hashing
 * GPUs use against such partition camping), which slowed no L1 4x and the hardware L1 more.
 */
export const MM_K = 2000;
const matmul: Sl1App = {
  id: 'matmul',
  name: 'Matrix Multiply',
  description: 'Calculates the multiplication of two input matrices (naive, no shared memory).',
  structures: 3,
  sharedStructures: 0,
  recordBytes: 8,
  // A (M x K floats) takes the input; C has M x 128 outputs, one per thread per wave.
  nominal: (threads, inputBytes) => {
    const rows = Math.max(1, Math.floor(inputBytes / (4 * MM_K)));
    return { records: MM_K, waves: Math.max(1, (rows * MM_N) / threads) };
  },
  assumptions: `4 B floats; K = ${MM_K} (records), B has ${MM_N} columns; in a wave thread t computes C[t][col] for one column: per k one load of A[t][k] (a row per lane: uncoalesced, 4 floats per S-L1 line), one of B[k][col] (the same word for the whole warp) and one dependent FMA; C written once per thread after the loop. Sizes assumed.`,
  build(b) {
    const K = b.chunk ?? b.records;
    const N = b.records;
    const T = threads(b);
    // One thread per row of C this wave (row = gtid), all threads on the same column: each lane walks
    // its own row of A (uncoalesced, K floats per thread) and the warp shares B[k][col] (broadcast).
    return kernel(
      'Matrix Multiply',
      b,
      [garr('A', 4, T * K), garr('B', 4, K * MM_N), garr('C', 4, T * MM_N, true)],
      [
        loop('r', N, [
          ld('A', { terms: [{ coef: K, var: 'gtid' }, { coef: 1, var: 'r' }] }, 1),
          ld('B', { terms: [{ coef: MM_N, var: 'r' }] }, 2),
          alu(1, [1, 2], 3),
        ]),
        st('C', { terms: [{ coef: MM_N, var: 'gtid' }] }, [3]),
      ],
    );
  },
};

/**
 * Grep: scan text, match a pattern held in shared memory with a recursive matcher. SL1 4.2: grep
 * "becomes instruction throughput bound after applying S-L1 due to the application's recursive
 * algorithm", "despite having a high cache hit rate". A recursive matcher (Kernighan and Pike's
 * match / matchhere, the classic recursive one) reads the current text character at every step:
 * match()'s loop test `*text++ != '\0'`, and in matchhere() the end test `*text != '\0'` and the
 * compare `re[0] == *text`, with re[0] and re[1] read from the pattern. S-L1 turns each of those
 * source-level reads into an accessThroughCache() call (SL1 3.2.3, 4.4: "each memory access
 * instruction is transformed to additionally call a function"), so each text char costs several
 * S-L1 accesses, all but the first of a line hits.
 */
const GREP_PATTERN = 32;
/**
 * Source-level reads of the current text char per char: match()'s loop test, and matchhere()'s end
 * test and compare. The plain binary loads it twice (the optimiser merges matchhere()'s two reads of
 * the same address, which have no store between them; match()'s read comes after a call and is a
 * load of its own); the S-L1 binary calls accessThroughCache() for all three (AppBuild.sl1).
 */
const GREP_READS_SOURCE = 3;
const GREP_READS_PLAIN = 2;
/** ALU instructions per source-level read (compare, branch, call / return; assumed): 12 per char, as before. */
const GREP_WORK_PER_READ = 4;
const GREP_WORK = GREP_WORK_PER_READ * GREP_READS_SOURCE;
const grep: Sl1App = {
  id: 'grep',
  name: 'Grep',
  description: 'Finds the string matching a given pattern and outputs the line containing that string.',
  structures: 2,
  sharedStructures: 1,
  recordBytes: 1,
  nominal: chunked(1),
  assumptions: `text of 1 B chars, one char per iteration of the main loop; a recursive matcher (Kernighan and Pike's match / matchhere) reads the current char ${GREP_READS_SOURCE} times in its source (match()'s loop test, matchhere()'s end-of-text test and compare): the plain binary loads it ${GREP_READS_PLAIN} times (the two reads in one matchhere() frame merged by the optimiser), the S-L1 binary makes ${GREP_READS_SOURCE} accessThroughCache() calls (SL1 3.2.3: every memory access is replaced by the call; 4.4: "each memory access instruction is transformed to additionally call a function"), all but a line's first hits. Each char also reads the ${GREP_PATTERN} B pattern in shared memory once per load (SL1 Table 1: "2 (1 in shared memory)") and runs ${GREP_WORK_PER_READ} dependent ALU instructions per source-level read, ${GREP_WORK} per char in both binaries (the plain binary's merged load carries both reads' instructions; compare, branch, call / return; SL1 4.2: the recursive algorithm makes grep instruction-throughput bound with S-L1; the counts are assumed). Output lines are rare and not modelled.`,
  build(b) {
    const R = b.chunk ?? b.records;
    const N = b.records;
    // One load per binary-level read of the char, each followed by a pattern read and the ALU of the
    // source-level reads it stands for (the plain binary's first load stands for two).
    const reads = b.sl1 ? GREP_READS_SOURCE : GREP_READS_PLAIN;
    const body: Instr[] = [];
    for (let i = 0; i < reads; i++) {
      const merged = i === 0 ? GREP_READS_SOURCE - reads + 1 : 1;
      body.push(ld('text', chunk(R), 1), ld('pattern', { terms: [{ coef: 1, var: 'r', mod: GREP_PATTERN }] }, 2), alu(GREP_WORK_PER_READ * merged, [1, 2], 3));
    }
    return kernel(
      'Grep',
      b,
      [garr('text', 1, R * threads(b)), { name: 'pattern', elemBytes: 1, length: GREP_PATTERN, space: 'shared' }],
      [loop('r', N, body)],
    );
  },
};

/** Kmeans: assign each particle (one per thread, coalesced features) to the nearest of k centres held in shared memory. */
const KM_DIMS = 4;
const KM_CLUSTERS = 8;
const kmeans: Sl1App = {
  id: 'kmeans',
  name: 'Kmeans',
  description: 'Partitions n particles into k clusters so that particles are assigned to the cluster with the nearest mean.',
  structures: 2,
  sharedStructures: 1,
  recordBytes: KM_DIMS * 4,
  nominal: chunked(KM_DIMS * 4),
  assumptions: `one thread per particle (grid-stride over the particles), ${KM_DIMS} 4 B float features stored feature-major (all particles' feature 0, then feature 1, ...), so the lanes of a warp read consecutive words: Rodinia's CUDA kmeans (SL1 ref [4]; kmeans_cuda_kernel.cu reads the inverted array "dim0[points 0-m-1]dim1[points 0-m-1]" with point_id = thread id), not a per-thread chunk (SL1 4.2 counts Kmeans with MatrixMultiply as a scientific application, not a streaming one); ${KM_CLUSTERS} centres in shared memory, per centre one 16 B shared load and ${2 * KM_DIMS} dependent ALU (distance, compare). Kmeans sizes its shared buffers at run time to all the shared memory its resident blocks can share (SL1 4.2 and footnote 8: "allocates much of the shared memory for its own purposes", "dynamically at run time"), so S-L1 finds no room (CLN = 0). Sizes assumed.`,
  build(b) {
    const R = b.chunk ?? b.records;
    const N = b.records;
    const T = threads(b);
    const c = b.config;
    const perSM = Math.max(1, Math.min(c.maxBlocksPerSM, Math.floor(c.maxThreadsPerSM / b.shape.block), Math.ceil(b.shape.grid / c.sms)));
    // The shared array (centres and per-cluster accumulators) takes the SM's shared memory / resident blocks.
    const centreSlots = Math.max(KM_CLUSTERS, Math.floor(c.shared.bytesPerSM / perSM / 16));
    return kernel(
      'Kmeans',
      b,
      [garr('points', 4, R * KM_DIMS * T), { name: 'centres', elemBytes: 16, length: centreSlots, space: 'shared' }],
      [
        loop('r', N, [
          // Particle r*T + gtid, feature d at d * (R*T) + particle: coalesced over the warp.
          loop('d', KM_DIMS, [ld('points', { terms: [{ coef: 1, var: 'gtid' }, { coef: T, var: 'r' }, { coef: R * T, var: 'd' }] }, 1)]),
          loop('k', KM_CLUSTERS, [ld('centres', { terms: [{ coef: 1, var: 'k' }] }, 2), alu(2 * KM_DIMS, [1, 2], 3)]),
        ]),
      ],
    );
  },
};

/** SL1 Table 1, in the paper's order. */
export const SL1_APPS: readonly Sl1App[] = [upper, wc, dna, opinion, invindex, pvc, mastercard, matmul, grep, kmeans];

export function findSl1App(id: string): Sl1App | undefined {
  return SL1_APPS.find((a) => a.id === id);
}
