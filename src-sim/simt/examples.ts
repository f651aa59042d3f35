/**
 * Ready-made kernels: WONG's Listings 3 to 7 in the kernel language (docs/KERNELS.md), each with
 * the launch the paper ran it with, and a first example for the editor. The texts follow the
 * listings line by line; where a listing leaves something out (the array c of Listing 3, what
 * "warp0" means in Listings 6 and 7, the declarations) the example says how it fills it in.
 */

export interface KernelExample {
  id: string;
  title: string;
  /** What WONG observed (or what the example shows). */
  expect: string;
  source: string;
  blocks: number;
  threadsPerBlock: number;
}

/**
 * WONG Listing 3 (the reconvergence stack test, Figs 7 and 8): an if / else-if chain over the 32
 * lanes in the order `c` gives; each path stamps clock() before and after `ops` dependent
 * arithmetic operations, into start[tid] and stop[tid].
 */
export function divergenceKernel(c: readonly number[], ops: number): string {
  if (c.length !== 32 || [...c].sort((a, b) => a - b).some((v, i) => v !== i)) throw new RangeError('c must be a permutation of 0..31');
  const body = Array.from({ length: ops }, () => 'x = x * 3 + 1;').join(' ');
  const lines = [
    '// WONG Listing 3: each thread of a warp takes its own path, in the order array c gives.',
    `__global__ int c[32] = {${c.join(', ')}};`,
    '__global__ int start[1024];',
    '__global__ int stop[1024];',
    'int lane = threadIdx.x % 32;',
    'int x = threadIdx.x;',
    'int t0 = 0;',
    'int t1 = 0;',
  ];
  for (let k = 0; k < 32; k++) {
    const head = k === 0 ? 'if' : 'else if';
    lines.push(`${head} (lane == c[${k}]) { t0 = clock(); ${body} t1 = clock(); }`);
  }
  lines.push('start[threadIdx.x] = t0;', 'stop[threadIdx.x] = t1;');
  return lines.join('\n') + '\n';
}

export const LISTING4 = `// WONG Listing 4: a spin lock that would work if threads were independent.
// Thread 0 leaves the loop first and waits at the reconvergence point for the
// other 31 threads of its warp, which spin until thread 0 increments sharedvar.
int __shared__ sharedvar = 0;
while (sharedvar != threadIdx.x);
/** reconvergence point */
sharedvar++;
`;

export const LISTING5 = `// WONG Listing 5: one warp; the first half produces values for the second half.
__shared__ int shared_array[16];
__global__ int output[32];
if (threadIdx.x < 16) {
  shared_array[threadIdx.x] = threadIdx.x;
  __syncthreads();
}
else {
  __syncthreads();
  output[threadIdx.x] =
    shared_array[threadIdx.x % 16];
}
`;

export const LISTING6 = `// WONG Listing 6: test run with two warps ("warp0" is warpId == 0).
__shared__ int count;
count = 0;
if (warpId == 0) {
  __syncthreads();
  count = 1;
}
else {
  while (count == 0);
}
`;

export const LISTING7 = `// WONG Listing 7: two warps; which __syncthreads() pairs with which?
if (warpId == 0) {
  // Two-way divergence
  if (threadIdx.x < 16)
    __syncthreads(); // [1]
  else
    __syncthreads(); // [2]
}
if (warpId == 1) {
  __syncthreads(); // [3]
  __syncthreads(); // [4]
}
`;

/** The editor's first kernel: two warps whose even and odd lanes diverge, then meet at a barrier. */
export const FIRST_KERNEL = `// Two warps. Even and odd threads take different paths (the odd ones, the
// taken else path, run first), reconverge, and meet the other warp at a barrier.
__shared__ int s[64];
__global__ int out[64];
int x = threadIdx.x;
if (x % 2 == 0) {
  x = x * 10;
} else {
  x = x + 1000;
}
s[threadIdx.x] = x;
__syncthreads();
out[threadIdx.x] = s[63 - threadIdx.x];
`;

export const SIMT_EXAMPLES: readonly KernelExample[] = [
  { id: 'first', title: 'Divergence, reconvergence and a barrier', expect: 'odd lanes run first; the warps meet at the barrier; out is s reversed', source: FIRST_KERNEL, blocks: 1, threadsPerBlock: 64 },
  {
    id: 'listing3',
    title: 'WONG Listing 3: reconvergence stack test (c = 0..31)',
    expect: 'the 32 paths run one after another, thread 31 first and thread 0 last (WONG Fig 8)',
    source: divergenceKernel(Array.from({ length: 32 }, (_, i) => i), 4),
    blocks: 1,
    threadsPerBlock: 64,
  },
  { id: 'listing4', title: 'WONG Listing 4: a spin lock under SIMT', expect: 'deadlock (WONG IV-C3)', source: LISTING4, blocks: 1, threadsPerBlock: 32 },
  { id: 'listing5', title: 'WONG Listing 5: __syncthreads() inside a divergent warp', expect: 'no deadlock; the second half reads stale values (WONG IV-D1)', source: LISTING5, blocks: 1, threadsPerBlock: 32 },
  { id: 'listing6', title: 'WONG Listing 6: a barrier and a spin loop in two warps', expect: 'deadlock (WONG IV-D2)', source: LISTING6, blocks: 1, threadsPerBlock: 64 },
  { id: 'listing7', title: 'WONG Listing 7: barriers of diverged paths', expect: 'barrier [2] pairs with [3], [1] with [4] (WONG IV-D2)', source: LISTING7, blocks: 1, threadsPerBlock: 64 },
];

export function findExample(id: string): KernelExample | undefined {
  return SIMT_EXAMPLES.find((e) => e.id === id);
}
