import type { Kernel } from '../types';

/**
 * LASH's three applications as kernels (LASH II, V). The element type is the bytes per element:
 * 4 int, 2 short, 1 char. What LASH does not say is marked "assumed" with why.
 */

export type ElemType = 'int' | 'short' | 'char';
export const ELEM_TYPES: readonly ElemType[] = ['int', 'short', 'char'];
export const ELEM_BYTES: Record<ElemType, number> = { int: 4, short: 2, char: 1 };

export interface StencilParams {
  /** Elements of the input and output arrays (LASH VI: 512K). */
  n: number;
  /** Iterations, one launch each, input and output swapped (LASH VI: 4). */
  iterations: number;
  /** Threads per block (LASH VI: 256). */
  block: number;
  type: ElemType;
  /** Bytes per element when other than the type's (8 or 16 B vector elements). */
  elemBytes?: number;
}

export const LASH_STENCIL: Omit<StencilParams, 'type'> = { n: 512 * 1024, iterations: 4, block: 256 };

/**
 * The 1D stencil of LASH Eq. 1: a[i] = (a[i-1] + a[i] + a[i+1]) / 3, one thread per element, two
 * separate arrays swapped between launches. GPGPU-Sim 3.2 (LASH VI) runs the PTX, so the body follows
 * the PTX nvcc emits for it, the same for every element type (assumed; LASH does not list it):
 * - the index and the bounds test (`1 < i < n`): three special-register moves and a multiply-add, a
 *   parameter load, an add, two compares, a predicate and, the branch: 4 + 6 dependent instructions;
 * - the input address (parameter load, widening multiply by the element size, add): 3;
 * - three independent loads (i-1, i, i+1);
 * - two adds and the division by three as a multiply-high, a shift and an add: 5, on the loads;
 * - the output address (parameter load, add): 2; then the store.
 * 24 instructions a thread. Boundary threads read their clamped neighbours (the index is clamped into
 * the array) instead of branching, which moves no extra lines.
 */
export function stencilKernels(p: StencilParams): Kernel[] {
  const e = p.elemBytes ?? ELEM_BYTES[p.type];
  const grid = Math.ceil(p.n / p.block);
  const kernels: Kernel[] = [];
  for (let it = 0; it < p.iterations; it++) {
    const src = it % 2 === 0 ? 'a' : 'b';
    const dst = it % 2 === 0 ? 'b' : 'a';
    kernels.push({
      name: `stencil-${e}B-${it}`,
      grid,
      block: p.block,
      arrays: [
        { name: 'a', elemBytes: e, length: p.n, space: 'global', readWrite: true },
        { name: 'b', elemBytes: e, length: p.n, space: 'global', readWrite: true },
      ],
      body: [
        { op: 'alu', count: 4, dst: 10 },
        { op: 'alu', count: 6, uses: [10], dst: 11 },
        { op: 'alu', count: 3, uses: [11], dst: 12 },
        { op: 'ld', array: src, index: { terms: [{ coef: 1, var: 'gtid' }], offset: -1 }, dst: 0 },
        { op: 'ld', array: src, index: { terms: [{ coef: 1, var: 'gtid' }] }, dst: 1 },
        { op: 'ld', array: src, index: { terms: [{ coef: 1, var: 'gtid' }], offset: 1 }, dst: 2 },
        { op: 'alu', count: 5, uses: [0, 1, 2], dst: 3 },
        { op: 'alu', count: 2, uses: [12], dst: 4 },
        { op: 'st', array: dst, index: { terms: [{ coef: 1, var: 'gtid' }] }, src: [3, 4] },
      ],
    });
  }
  return kernels;
}

export interface MatMulParams {
  /** Square matrices of n x n (assumed: LASH gives no size). */
  n: number;
  /** Threads per block of the naive kernel (the tiled kernel's blocks are tile x tile). */
  block: number;
  type: ElemType;
  elemBytes?: number;
  /**
   * 'tiled' (default): the CUDA C Programming Guide's matrix multiply with shared memory, 16 x 16 tiles
   * of A and B staged in shared memory; 'naive': every thread reads its row and column from global
   * memory. Assumed; see matmulKernels.
   */
  kernel?: 'tiled' | 'naive';
}

/** Side of the tiled kernel's square tiles and blocks (the Programming Guide's BLOCK_SIZE). */
export const MATMUL_TILE = 16;

export const LASH_MATMUL = { n: 256, block: 256, kernel: 'tiled' } as const satisfies Omit<MatMulParams, 'type'>;

/**
 * Matrix multiply C = A x B, one thread per element of C (LASH II: "every thread reads one entire
 * row of the first input matrix and one entire column of the second").
 *
 * 'tiled' (the default; assumed, LASH gives no code): the CUDA C Programming Guide's kernel with
 * shared memory (3.2.3), BLOCK_SIZE 16: block (bx, by) computes a 16 x 16 tile of C; for each of the
 * n / 16 tile steps every thread loads one element of A's tile and one of B's into shared memory,
 * the block synchronises, each thread runs the 16 multiply-adds of the step from shared memory, and
 * the block synchronises again. Every thread still reads its whole row and column, through shared
 * memory. Chosen over the naive kernel because LASH reports the three types within 3 % on the real
 * GTX 480 and in GPGPU-Sim (II, Fig 1), which needs a kernel whose time the global memory traffic
 * does not set; the naive kernel's does (its spread over the types is 45 % here). Assumed
 * instruction counts (the PTX of the Guide's loop, unrolled): 6 for the indices, per step 2 for the
 * addresses and loop, the two loads and two shared stores, per k two shared loads and a
 * multiply-add, then the store of C.
 *
 * 'naive': thread (r, c) reads row r of A and column c of B from global memory, blocks of `block`
 * threads along the rows of C. Threads of a warp share r (one broadcast load of A) and read
 * consecutive elements of a row of B. Assumed: per k two dependent ALU instructions (index and
 * multiply-add) on the loaded values, the loop unrolled (no loop overhead), accumulation in a register.
 */
export function matmulKernels(p: MatMulParams): Kernel[] {
  const e = p.elemBytes ?? ELEM_BYTES[p.type];
  const n = p.n;
  if ((p.kernel ?? 'tiled') === 'tiled') return [tiledMatmul(n, e)];
  return [
    {
      name: `matmul-${e}B`,
      grid: Math.ceil((n * n) / p.block),
      block: p.block,
      arrays: matrices(n, e),
      body: [
        { op: 'alu', count: 3, dst: 9 },
        {
          op: 'loop',
          var: 'k',
          count: n,
          body: [
            { op: 'ld', array: 'A', index: { terms: [{ coef: n, var: 'gtid', div: n }, { coef: 1, var: 'k' }] }, dst: 0 },
            { op: 'ld', array: 'B', index: { terms: [{ coef: n, var: 'k' }, { coef: 1, var: 'gtid', mod: n }] }, dst: 1 },
            { op: 'alu', count: 2, uses: [0, 1], dst: 2 },
          ],
        },
        { op: 'st', array: 'C', index: { terms: [{ coef: 1, var: 'gtid' }] }, src: [2] },
      ],
    },
  ];
}

/** The three n x n matrices of C = A x B in global memory, elements of e bytes. */
function matrices(n: number, e: number): Kernel['arrays'] {
  return [
    { name: 'A', elemBytes: e, length: n * n, space: 'global' },
    { name: 'B', elemBytes: e, length: n * n, space: 'global' },
    { name: 'C', elemBytes: e, length: n * n, space: 'global', readWrite: true },
  ];
}

/** Why the matrix multiply cannot take size n with `kernel` (the tiled kernel's tiles must divide it), or null. */
export function matmulSizeProblem(n: number, kernel: MatMulParams['kernel'] = 'tiled'): string | null {
  return kernel === 'tiled' && n % MATMUL_TILE !== 0 ? `the tiled matrix multiply needs a size that is a multiple of ${MATMUL_TILE} (got ${n})` : null;
}

function tiledMatmul(n: number, e: number): Kernel {
  const T = MATMUL_TILE;
  const problem = matmulSizeProblem(n);
  if (problem) throw new Error(problem);
  const nb = n / T;
  // Block (bx, by) = (bid mod nb, bid div nb); thread (tx, ty) = (tid mod T, tid div T).
  const row = [{ coef: n * T, var: 'bid', div: nb }, { coef: n, var: 'tid', div: T }];
  const col = [{ coef: T, var: 'bid', mod: nb }, { coef: 1, var: 'tid', mod: T }];
  return {
    name: `matmul-tiled-${e}B`,
    grid: nb * nb,
    block: T * T,
    arrays: [
      ...matrices(n, e),
      { name: 'As', elemBytes: e, length: T * T, space: 'shared', readWrite: true },
      { name: 'Bs', elemBytes: e, length: T * T, space: 'shared', readWrite: true },
    ],
    body: [
      { op: 'alu', count: 6, dst: 9 },
      {
        op: 'loop',
        var: 't',
        count: nb,
        body: [
          { op: 'alu', count: 2, uses: [9], dst: 8 },
          // A[row][t T + tx] and B[t T + ty][col]
          { op: 'ld', array: 'A', index: { terms: [...row, { coef: T, var: 't' }, { coef: 1, var: 'tid', mod: T }] }, dst: 0 },
          { op: 'ld', array: 'B', index: { terms: [{ coef: n * T, var: 't' }, { coef: n, var: 'tid', div: T }, ...col] }, dst: 1 },
          { op: 'st', array: 'As', index: { terms: [{ coef: 1, var: 'tid' }] }, src: [0] },
          { op: 'st', array: 'Bs', index: { terms: [{ coef: 1, var: 'tid' }] }, src: [1] },
          { op: 'sync' },
          {
            op: 'loop',
            var: 'k',
            count: T,
            body: [
              // As[ty][k] and Bs[k][tx]
              { op: 'ld', array: 'As', index: { terms: [{ coef: T, var: 'tid', div: T }, { coef: 1, var: 'k' }] }, dst: 2 },
              { op: 'ld', array: 'Bs', index: { terms: [{ coef: T, var: 'k' }, { coef: 1, var: 'tid', mod: T }] }, dst: 3 },
              // the multiply-add into the running sum (a chain over k)
              { op: 'alu', count: 1, uses: [2, 3, 4], dst: 4 },
            ],
          },
          { op: 'sync' },
        ],
      },
      { op: 'st', array: 'C', index: { terms: [...row, ...col] }, src: [4] },
    ],
  };
}

export interface StereoParams {
  width: number;
  height: number;
  /** Disparity labels (LASH II: 16). */
  labels: number;
  /** Threads per block (assumed: 64, so the few rows and columns spread over the SMs). */
  block: number;
  type: ElemType;
  elemBytes?: number;
}

/** Assumed: half the Tsukuba pair (384 x 288, the usual test of belief propagation, LASH [4]) on each side, to keep a run to seconds; LASH gives no size. */
export const LASH_STEREO: Omit<StereoParams, 'type'> = { width: 192, height: 144, labels: 16, block: 64 };

/**
 * Stereo matching by belief propagation (LASH II): each iteration propagates the 16 labels' messages
 * along rows (one thread per row walks its row) and then along columns (one thread per column walks
 * its column). Per pixel and label a thread reads the data cost and the neighbour's message and
 * writes its own message. Assumed: label planes ([label][y][x], the usual GPU layout), so along
 * rows the lanes of a warp are one image row apart and along columns they are adjacent; 3 dependent
 * ALU instructions per label (the min-sum update); one iteration (one pass each way).
 */
export function stereoKernels(p: StereoParams): Kernel[] {
  const e = p.elemBytes ?? ELEM_BYTES[p.type];
  const { width: W, height: H, labels: L } = p;
  const plane = W * H;
  const arrays = [
    { name: 'cost', elemBytes: e, length: plane * L, space: 'global' as const },
    { name: 'msgH', elemBytes: e, length: plane * L, space: 'global' as const, readWrite: true },
    { name: 'msgV', elemBytes: e, length: plane * L, space: 'global' as const, readWrite: true },
  ];
  // element (l, y, x) = l * plane + y * W + x; `lane` is the thread's row (rows pass) or column.
  const pass = (name: string, threads: number, steps: number, laneCoef: number, stepCoef: number, msg: string): Kernel => {
    const at = (offset: number) => ({
      terms: [
        { coef: plane, var: 'l' },
        { coef: laneCoef, var: 'gtid' },
        { coef: stepCoef, var: 's' },
      ],
      offset,
    });
    return {
      name: `stereo-${name}-${e}B`,
      grid: Math.ceil(threads / p.block),
      block: p.block,
      arrays,
      body: [
        { op: 'alu', count: 3, dst: 9 },
        {
          op: 'loop',
          var: 's',
          count: steps - 1,
          body: [
            {
              op: 'loop',
              var: 'l',
              count: L,
              body: [
                // pixel s + 1 of the row (column) reads its cost and the message of pixel s
                { op: 'ld', array: 'cost', index: at(stepCoef), dst: 0 },
                { op: 'ld', array: msg, index: at(0), dst: 1 },
                { op: 'alu', count: 3, uses: [0, 1], dst: 2 },
                { op: 'st', array: msg, index: at(stepCoef), src: [2] },
              ],
            },
          ],
        },
      ],
    };
  };
  return [pass('rows', H, W, W, 1, 'msgH'), pass('cols', W, H, 1, W, 'msgV')];
}
