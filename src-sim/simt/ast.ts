/**
 * The kernel language's syntax tree (docs/KERNELS.md). Every node carries the line and column
 * (1-based) where it starts, so that parse, compile and run-time errors name them.
 */

export interface Pos {
  line: number;
  col: number;
}

export type ScalarType = 'int' | 'float';

/** Built-in per-thread values: threadIdx.x (tid), blockIdx.x (bid), blockDim.x, gridDim.x, warpSize, laneId, warpId. */
export type Builtin = 'tid' | 'bid' | 'blockDim' | 'gridDim' | 'warpSize' | 'laneId' | 'warpId';

export type BinaryOp = '+' | '-' | '*' | '/' | '%' | '<' | '<=' | '>' | '>=' | '==' | '!=' | '&&' | '||' | '&' | '|' | '^' | '<<' | '>>';
export type UnaryOp = '-' | '!' | '~';
export type AssignOp = '=' | '+=' | '-=' | '*=' | '/=' | '%=' | '&=' | '|=' | '^=' | '<<=' | '>>=';

export type Expr =
  | { k: 'num'; value: number; type: ScalarType; pos: Pos }
  | { k: 'var'; name: string; pos: Pos }
  | { k: 'builtin'; name: Builtin; pos: Pos }
  | { k: 'index'; name: string; index: Expr; pos: Pos }
  | { k: 'unary'; op: UnaryOp; arg: Expr; pos: Pos }
  | { k: 'binary'; op: BinaryOp; left: Expr; right: Expr; pos: Pos }
  | { k: 'ternary'; test: Expr; a: Expr; b: Expr; pos: Pos }
  | { k: 'cast'; type: ScalarType; arg: Expr; pos: Pos }
  | { k: 'clock'; pos: Pos };

export type LValue = Extract<Expr, { k: 'var' } | { k: 'index' }>;

export type Space = 'local' | 'shared' | 'global';

export type Stmt =
  /** `int x = e;` (local), `__shared__ float s[64];`, `__global__ int out[1024] = {1, 2};`, `int __shared__ v = 0;`. */
  | { k: 'decl'; space: Space; type: ScalarType; name: string; size?: number; init?: Expr; initList?: number[]; pos: Pos }
  | { k: 'assign'; target: LValue; op: AssignOp; value: Expr; pos: Pos }
  | { k: 'incdec'; target: LValue; op: '++' | '--'; pos: Pos }
  | { k: 'if'; cond: Expr; then: Stmt; else?: Stmt; pos: Pos }
  | { k: 'while'; cond: Expr; body: Stmt; pos: Pos }
  | { k: 'for'; init?: Stmt; cond?: Expr; update?: Stmt; body: Stmt; pos: Pos }
  | { k: 'block'; body: Stmt[]; pos: Pos }
  /** `__syncthreads();`: `site` numbers the barriers in source order from 1 (WONG Listing 7's [1]..[4]). */
  | { k: 'sync'; site: number; pos: Pos }
  | { k: 'empty'; pos: Pos };

export interface Program {
  /** Kernel name when the text wraps its body in `__global__ void name() { ... }`. */
  name?: string;
  body: Stmt[];
  /** Number of `__syncthreads()` sites. */
  syncSites: number;
}

/** A parse, compile or run-time error of a kernel; the message starts with "line:col: ". */
export class KernelError extends Error {
  constructor(
    readonly pos: Pos,
    readonly detail: string,
  ) {
    super(`${pos.line}:${pos.col}: ${detail}`);
    this.name = 'KernelError';
  }
}
