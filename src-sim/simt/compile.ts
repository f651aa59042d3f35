import type { BinaryOp, Builtin, Expr, LValue, Pos, Program, ScalarType, Stmt } from './ast';
import { KernelError } from './ast';

/**
 * Compiles a parsed kernel to a flat list of warp instructions with branch targets, the form the
 * SIMT executor runs. Control flow compiles the way WONG IV-C2 observed (the taken path runs first):
 *
 *   if (c) A else B      p: branch-if-not c -> ELSE (reconverge at END); A; jump END; ELSE: B; END:
 *   if (c) A             p: branch-if-not c -> END  (reconverge at END); A; END:
 *   while (c) S          TOP: branch-if-not c -> EXIT (reconverge at EXIT); S; jump TOP; EXIT:
 *   for (i; c; u) S      i; TOP: branch-if-not c -> EXIT; S; u; jump TOP; EXIT:
 *
 * The branch is taken by the threads whose condition is false, so the else path (or the loop exit)
 * is the taken path. The language has no break, continue or return, so every construct has one
 * entry and one exit and the instruction after it is the branch's immediate post-dominator: the
 * reconvergence point is known at compile time, as WONG saw the compiler mark it.
 */

export const E = { NUM: 0, LOCAL: 1, BUILTIN: 2, LOAD: 3, NEG: 4, NOT: 5, BITNOT: 6, BIN: 7, TERN: 8, CAST: 9, CLOCK: 10, AND: 11, OR: 12 } as const;
export const B = { ADD: 0, SUB: 1, MUL: 2, DIV: 3, MOD: 4, LT: 5, LE: 6, GT: 7, GE: 8, EQ: 9, NE: 10, BAND: 11, BOR: 12, BXOR: 13, SHL: 14, SHR: 15 } as const;
export const BUILTIN_CODE: Record<Builtin, number> = { tid: 0, bid: 1, blockDim: 2, gridDim: 3, warpSize: 4, laneId: 5, warpId: 6 };
const BIN_CODE: Record<string, number> = {
  '+': B.ADD, '-': B.SUB, '*': B.MUL, '/': B.DIV, '%': B.MOD, '<': B.LT, '<=': B.LE, '>': B.GT, '>=': B.GE, '==': B.EQ, '!=': B.NE,
  '&': B.BAND, '|': B.BOR, '^': B.BXOR, '<<': B.SHL, '>>': B.SHR,
};

/** A __shared__ or __global__ variable (a scalar is an array of one). */
export interface ArrayInfo {
  id: number;
  name: string;
  space: 'shared' | 'global';
  type: ScalarType;
  size: number;
  scalar: boolean;
  /** Initial values (C rules: the rest are zero); absent: zero and not "initialised" for stale reads. */
  init?: number[];
  pos: Pos;
}

/** A compiled expression node: `op` is one of E; `f` is the float flag of its value. */
export interface CExpr {
  op: number;
  f: boolean;
  value: number;
  slot: number;
  bin: number;
  arr: ArrayInfo | null;
  a: CExpr | null;
  b: CExpr | null;
  c: CExpr | null;
  line: number;
  col: number;
}

export const I = { ASSIGN: 0, BRANCH: 1, JUMP: 2, SYNC: 3, EXIT: 4 } as const;

export interface Insn {
  op: number;
  line: number;
  col: number;
  /** ASSIGN: a local slot (>= 0) or -1 with `arr` and `index`. */
  slot: number;
  float: boolean;
  arr: ArrayInfo | null;
  index: CExpr | null;
  value: CExpr | null;
  /** BRANCH: taken (to `target`) by threads whose `cond` is false; `reconv` is the reconvergence pc. */
  cond: CExpr | null;
  target: number;
  reconv: number;
  /** SYNC: the barrier's source-order number from 1. */
  site: number;
  /** Timing: operations in the instruction (at least 1) and whether it reads clock(). */
  ops: number;
  clock: boolean;
}

export interface Compiled {
  insns: Insn[];
  arrays: ArrayInfo[];
  localSlots: number;
  localNames: string[];
  /** Deepest nesting of branches: bounds the reconvergence stack. */
  maxNesting: number;
  syncSites: { site: number; line: number; col: number }[];
}

/** At most this much __shared__ memory per block (4-byte words) and __global__ memory in all. */
export const MAX_SHARED_WORDS = 16 * 1024;
export const MAX_GLOBAL_WORDS = 1 << 22;

interface Local {
  slot: number;
  type: ScalarType;
  pos: Pos;
}

function node(op: number, f: boolean, pos: Pos, part: Partial<CExpr> = {}): CExpr {
  return { op, f, value: 0, slot: -1, bin: -1, arr: null, a: null, b: null, c: null, line: pos.line, col: pos.col, ...part };
}

function insn(op: number, pos: Pos, part: Partial<Insn> = {}): Insn {
  return { op, line: pos.line, col: pos.col, slot: -1, float: false, arr: null, index: null, value: null, cond: null, target: -1, reconv: -1, site: 0, ops: 1, clock: false, ...part };
}

/** Operations an expression performs (each operator, load, cast and clock read counts one). */
function countOps(e: CExpr | null): number {
  if (!e) return 0;
  const own = e.op === E.NUM || e.op === E.LOCAL || e.op === E.BUILTIN ? 0 : 1;
  return own + countOps(e.a) + countOps(e.b) + countOps(e.c);
}

function hasClock(e: CExpr | null): boolean {
  return !!e && (e.op === E.CLOCK || hasClock(e.a) || hasClock(e.b) || hasClock(e.c));
}

class Compiler {
  readonly insns: Insn[] = [];
  readonly arrays: ArrayInfo[] = [];
  private readonly scopes: Map<string, Local>[] = [new Map()];
  localSlots = 0;
  readonly localNames: string[] = [];
  private nesting = 0;
  maxNesting = 0;
  readonly syncSites: Compiled['syncSites'] = [];
  private sharedWords = 0;
  private globalWords = 0;

  private findLocal(name: string): Local | undefined {
    for (let s = this.scopes.length - 1; s >= 0; s--) {
      const l = this.scopes[s].get(name);
      if (l) return l;
    }
    return undefined;
  }

  private findArray(name: string): ArrayInfo | undefined {
    return this.arrays.find((a) => a.name === name);
  }

  private unknown(name: string, pos: Pos): never {
    throw new KernelError(pos, `unknown variable ${name}: declare it first (int ${name} = ...; or __shared__ / __global__)`);
  }

  expr(e: Expr): CExpr {
    switch (e.k) {
      case 'num':
        return node(E.NUM, e.type === 'float', e.pos, { value: e.value });
      case 'builtin':
        return node(E.BUILTIN, false, e.pos, { value: BUILTIN_CODE[e.name] });
      case 'clock':
        return node(E.CLOCK, false, e.pos);
      case 'var': {
        const l = this.findLocal(e.name);
        if (l) return node(E.LOCAL, l.type === 'float', e.pos, { slot: l.slot });
        const a = this.findArray(e.name);
        if (!a) this.unknown(e.name, e.pos);
        if (!a.scalar) throw new KernelError(e.pos, `${e.name} is an array of ${a.size}: index it, ${e.name}[i]`);
        return node(E.LOAD, a.type === 'float', e.pos, { arr: a, a: node(E.NUM, false, e.pos, { value: 0 }) });
      }
      case 'index': {
        const a = this.findArray(e.name);
        if (!a) {
          if (this.findLocal(e.name)) throw new KernelError(e.pos, `${e.name} is a local scalar: it cannot be indexed`);
          this.unknown(e.name, e.pos);
        }
        const index = this.expr(e.index);
        if (index.f) throw new KernelError(e.index.pos, `the index of ${e.name} must be an int (cast it: (int)...)`);
        return node(E.LOAD, a.type === 'float', e.pos, { arr: a, a: index });
      }
      case 'unary': {
        const arg = this.expr(e.arg);
        if (e.op === '-') return node(E.NEG, arg.f, e.pos, { a: arg });
        if (e.op === '!') return node(E.NOT, false, e.pos, { a: arg });
        if (arg.f) throw new KernelError(e.pos, "operator '~' needs an int operand");
        return node(E.BITNOT, false, e.pos, { a: arg });
      }
      case 'cast':
        return node(E.CAST, e.type === 'float', e.pos, { a: this.expr(e.arg) });
      case 'ternary': {
        const test = this.expr(e.test);
        const a = this.expr(e.a);
        const b = this.expr(e.b);
        return node(E.TERN, a.f || b.f, e.pos, { a: test, b: a, c: b });
      }
      case 'binary': {
        const l = this.expr(e.left);
        const r = this.expr(e.right);
        if (e.op === '&&') return node(E.AND, false, e.pos, { a: l, b: r });
        if (e.op === '||') return node(E.OR, false, e.pos, { a: l, b: r });
        const bin = BIN_CODE[e.op];
        const intOnly = bin === B.MOD || bin >= B.BAND;
        if (intOnly && (l.f || r.f)) throw new KernelError(e.pos, `operator '${e.op}' needs int operands`);
        const isFloat = (l.f || r.f) && bin <= B.DIV;
        // Comparisons compare as float when either side is; their result is an int (0 or 1).
        return node(E.BIN, isFloat, e.pos, { bin, a: l, b: r, value: l.f || r.f ? 1 : 0 });
      }
    }
  }

  private emit(i: Insn): number {
    this.insns.push(i);
    return this.insns.length - 1;
  }

  private assign(target: LValue, value: CExpr, pos: Pos): void {
    if (target.k === 'var') {
      const l = this.findLocal(target.name);
      if (l) {
        const ops = Math.max(1, countOps(value));
        this.emit(insn(I.ASSIGN, pos, { slot: l.slot, float: l.type === 'float', value, ops, clock: hasClock(value) }));
        return;
      }
    }
    const a = this.findArray(target.name);
    if (!a) {
      if (target.k === 'index' && this.findLocal(target.name)) throw new KernelError(target.pos, `${target.name} is a local scalar: it cannot be indexed`);
      this.unknown(target.name, target.pos);
    }
    let index: CExpr;
    if (target.k === 'index') {
      index = this.expr(target.index);
      if (index.f) throw new KernelError(target.index.pos, `the index of ${target.name} must be an int (cast it: (int)...)`);
    } else {
      if (!a.scalar) throw new KernelError(target.pos, `${target.name} is an array of ${a.size}: index it, ${target.name}[i]`);
      index = node(E.NUM, false, target.pos, { value: 0 });
    }
    const ops = 1 + countOps(value) + countOps(index);
    this.emit(insn(I.ASSIGN, pos, { arr: a, float: a.type === 'float', index, value, ops, clock: hasClock(value) || hasClock(index) }));
  }

  private declare(s: Extract<Stmt, { k: 'decl' }>): void {
    const clash = this.findArray(s.name);
    if (clash) throw new KernelError(s.pos, `${s.name} is already declared at ${clash.pos.line}:${clash.pos.col}`);
    if (s.space === 'local') {
      const scope = this.scopes[this.scopes.length - 1];
      const prev = scope.get(s.name);
      if (prev) throw new KernelError(s.pos, `${s.name} is already declared at ${prev.pos.line}:${prev.pos.col}`);
      // The initialiser is compiled before the name is visible (int x = x + 1 reads an outer x).
      const init = s.init ? this.expr(s.init) : null;
      const l: Local = { slot: this.localSlots++, type: s.type, pos: s.pos };
      this.localNames.push(s.name);
      scope.set(s.name, l);
      if (init) this.emit(insn(I.ASSIGN, s.pos, { slot: l.slot, float: s.type === 'float', value: init, ops: Math.max(1, countOps(init)), clock: hasClock(init) }));
      return;
    }
    if (this.findLocal(s.name)) throw new KernelError(s.pos, `${s.name} is already declared as a local variable`);
    const size = s.size ?? 1;
    if (s.space === 'shared') {
      this.sharedWords += size;
      if (this.sharedWords > MAX_SHARED_WORDS) throw new KernelError(s.pos, `__shared__ memory exceeds ${MAX_SHARED_WORDS * 4 / 1024} KB per block`);
    } else {
      this.globalWords += size;
      if (this.globalWords > MAX_GLOBAL_WORDS) throw new KernelError(s.pos, `__global__ memory exceeds ${MAX_GLOBAL_WORDS} elements`);
    }
    this.arrays.push({
      id: this.arrays.length,
      name: s.name,
      space: s.space,
      type: s.type,
      size,
      scalar: s.size === undefined,
      ...(s.initList ? { init: s.initList } : {}),
      pos: s.pos,
    });
  }

  private nest<T>(f: () => T): T {
    this.nesting++;
    this.maxNesting = Math.max(this.maxNesting, this.nesting);
    try {
      return f();
    } finally {
      this.nesting--;
    }
  }

  private scoped(f: () => void): void {
    this.scopes.push(new Map());
    try {
      f();
    } finally {
      this.scopes.pop();
    }
  }

  private cond(e: Expr): CExpr {
    return this.expr(e);
  }

  stmt(s: Stmt): void {
    switch (s.k) {
      case 'empty':
        return;
      case 'decl':
        return this.declare(s);
      case 'block':
        return this.scoped(() => s.body.forEach((b) => this.stmt(b)));
      case 'assign': {
        // a op= b is a = a op b (the target's index is evaluated twice; expressions have no side effects).
        const value =
          s.op === '=' ? this.expr(s.value) : this.expr({ k: 'binary', op: s.op.slice(0, -1) as BinaryOp, left: s.target, right: s.value, pos: s.pos });
        return this.assign(s.target, value, s.pos);
      }
      case 'incdec': {
        const value = this.expr({ k: 'binary', op: s.op === '++' ? '+' : '-', left: s.target, right: { k: 'num', value: 1, type: 'int', pos: s.pos }, pos: s.pos });
        return this.assign(s.target, value, s.pos);
      }
      case 'sync':
        this.syncSites.push({ site: s.site, line: s.pos.line, col: s.pos.col });
        this.emit(insn(I.SYNC, s.pos, { site: s.site }));
        return;
      case 'if': {
        const cond = this.cond(s.cond);
        const br = this.emit(insn(I.BRANCH, s.pos, { cond, ops: Math.max(1, countOps(cond)), clock: hasClock(cond) }));
        this.nest(() => this.scoped(() => this.stmt(s.then)));
        if (s.else) {
          const jump = this.emit(insn(I.JUMP, s.pos));
          this.insns[br].target = this.insns.length;
          this.nest(() => this.scoped(() => this.stmt(s.else as Stmt)));
          this.insns[jump].target = this.insns.length;
        } else this.insns[br].target = this.insns.length;
        this.insns[br].reconv = this.insns.length;
        return;
      }
      case 'while':
        return this.loop(s.pos, s.cond, s.body, undefined);
      case 'for':
        return this.scoped(() => {
          if (s.init) this.stmt(s.init);
          this.loop(s.pos, s.cond, s.body, s.update);
        });
    }
  }

  private loop(pos: Pos, condExpr: Expr | undefined, body: Stmt, update: Stmt | undefined): void {
    const top = this.insns.length;
    const cond = condExpr ? this.cond(condExpr) : null;
    const br = cond ? this.emit(insn(I.BRANCH, pos, { cond, ops: Math.max(1, countOps(cond)), clock: hasClock(cond) })) : -1;
    this.nest(() =>
      this.scoped(() => {
        this.stmt(body);
        if (update) this.stmt(update);
      }),
    );
    this.emit(insn(I.JUMP, pos, { target: top }));
    if (br >= 0) {
      this.insns[br].target = this.insns.length;
      this.insns[br].reconv = this.insns.length;
    }
  }
}

/** Compiles a parsed kernel; throws KernelError ("line:col: ...") on a name or type error. */
export function compileKernel(p: Program): Compiled {
  const c = new Compiler();
  for (const s of p.body) c.stmt(s);
  // The exit instruction has no source position (0:0, "the end of the kernel").
  c.insns.push(insn(I.EXIT, { line: 0, col: 0 }));
  return { insns: c.insns, arrays: c.arrays, localSlots: c.localSlots, localNames: c.localNames, maxNesting: c.maxNesting, syncSites: c.syncSites };
}
