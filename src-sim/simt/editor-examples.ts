/**
 * The workbench kernel editor's examples menu: WONG's Listings 3 to 7 and the first kernel
 * (examples.ts, each with the paper's launch), then a few small teaching kernels. Pure data: the
 * renderer imports it.
 */
import type { KernelExample } from './examples';
import { SIMT_EXAMPLES } from './examples';

export const NESTED_KERNEL = `// Nested divergence in one warp: the taken (else) paths run first, and each
// if reconverges at the statement after it before the outer one does.
__global__ int out[32];
int x = 0;
if (laneId < 16) {
  if (laneId < 8) {
    x = 1;
  } else {
    x = 2;
  }
  x = x * 10;
} else {
  x = 3;
}
out[laneId] = x;
`;

export const LOOP_KERNEL = `// A loop whose trip count differs per lane: lane i goes round i % 4 times.
// Lanes leave the loop one group at a time and wait at its exit for the rest.
__global__ int out[32];
int n = laneId % 4;
int s = 0;
for (int i = 0; i < n; i++) {
  s += i + 1;
}
out[laneId] = s;
`;

export const SKIPPED_BARRIER_KERNEL = `// Two warps; only warp 0 calls __syncthreads(). Barriers count warps, and a
// warp that has exited no longer counts: warp 0 waits until warp 1 exits.
__shared__ int s[64];
s[threadIdx.x] = threadIdx.x;
if (warpId == 0) {
  __syncthreads(); // [1]
  s[threadIdx.x] = s[63 - threadIdx.x];
}
`;

export const TEACHING_EXAMPLES: readonly KernelExample[] = [
  { id: 'nested', title: 'Nested divergence', expect: 'lanes 16-31 run first, then 8-15, then 0-7; two reconvergence points', source: NESTED_KERNEL, blocks: 1, threadsPerBlock: 32 },
  { id: 'loop', title: 'A loop with a different trip count per lane', expect: 'the body runs for fewer lanes each time round (24, 16, then 8 threads); all reconverge after the loop', source: LOOP_KERNEL, blocks: 1, threadsPerBlock: 32 },
  { id: 'skipped-barrier', title: 'A barrier only one warp calls', expect: 'no deadlock: warp 0 is released when warp 1 exits', source: SKIPPED_BARRIER_KERNEL, blocks: 1, threadsPerBlock: 64 },
];

/** Everything the editor offers, WONG's listings first. */
export const EDITOR_EXAMPLES: readonly KernelExample[] = [...SIMT_EXAMPLES, ...TEACHING_EXAMPLES];
