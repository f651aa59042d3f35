import type { AssignOp, BinaryOp, Builtin, Expr, LValue, Program, ScalarType, Space, Stmt } from './ast';
import { KernelError } from './ast';
import type { Token } from './lexer';
import { lex } from './lexer';

/**
 * Recursive-descent parser of the kernel language (grammar in docs/KERNELS.md). Errors name the
 * line and column and what was expected: `3:14: expected ';' after expression`.
 */

const ASSIGN_OPS: readonly string[] = ['=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<=', '>>='];
const TYPES: readonly string[] = ['int', 'float'];
const IGNORED_QUALIFIERS: readonly string[] = ['volatile', 'const'];
const RESERVED: readonly string[] = [
  'if', 'else', 'while', 'for', 'int', 'float', 'void', 'clock', 'clock64', '__syncthreads', '__shared__', '__global__',
  'threadIdx', 'blockIdx', 'blockDim', 'gridDim', 'tid', 'bid', 'warpSize', 'laneId', 'warpId', 'volatile', 'const',
];
const UNSUPPORTED: Record<string, string> = {
  return: 'return is not supported: let the thread run to the end of the kernel',
  break: 'break is not supported: end the loop with its condition',
  continue: 'continue is not supported: use if inside the loop',
  do: 'do-while is not supported: use while',
  switch: 'switch is not supported: use if / else if',
  unsigned: 'unsigned is not supported: the language has int and float',
  double: 'double is not supported: the language has int and float',
  goto: 'goto is not supported',
};
const DIM_BUILTINS: Record<string, Builtin> = { threadIdx: 'tid', blockIdx: 'bid', blockDim: 'blockDim', gridDim: 'gridDim' };
const NAME_BUILTINS: Record<string, Builtin> = { tid: 'tid', bid: 'bid', warpSize: 'warpSize', laneId: 'laneId', warpId: 'warpId' };

/** Largest array a declaration may give (elements). */
export const MAX_ARRAY_ELEMENTS = 1 << 20;

class Parser {
  private i = 0;
  private syncSites = 0;
  constructor(private readonly toks: Token[]) {}

  private get t(): Token {
    return this.toks[this.i];
  }
  private peek(n = 1): Token {
    return this.toks[Math.min(this.i + n, this.toks.length - 1)];
  }
  private is(text: string): boolean {
    return (this.t.kind === 'punct' || this.t.kind === 'ident') && this.t.text === text;
  }
  private eat(text: string): boolean {
    if (!this.is(text)) return false;
    this.i++;
    return true;
  }
  private describe(t: Token): string {
    if (t.kind === 'eof') return 'the end of the kernel';
    return `'${t.text}'`;
  }
  private fail(what: string, t: Token = this.t): never {
    throw new KernelError(t.pos, `${what}, found ${this.describe(t)}`);
  }
  private expect(text: string, what: string): Token {
    const t = this.t;
    if (this.eat(text)) return t;
    // A missing ';' is reported where it belongs: just after the previous token.
    const prev = this.i > 0 ? this.toks[this.i - 1] : undefined;
    if (text === ';' && prev && prev.pos.line < t.pos.line)
      throw new KernelError({ line: prev.pos.line, col: prev.pos.col + prev.text.length }, `expected ';' ${what}`);
    this.fail(`expected '${text}' ${what}`);
  }
  private ident(what: string): Token {
    const t = this.t;
    if (t.kind !== 'ident') this.fail(`expected ${what}`);
    if (RESERVED.includes(t.text)) this.fail(`expected ${what} (${t.text} is a keyword)`);
    this.i++;
    return t;
  }

  program(): Program {
    let name: string | undefined;
    let body: Stmt[];
    if (this.is('__global__') && this.peek().text === 'void') {
      this.i += 2;
      name = this.ident('the kernel name').text;
      this.expect('(', 'after the kernel name');
      if (!this.is(')')) this.fail("expected ')': kernels take no parameters (declare arrays with __global__ in the body)");
      this.i++;
      this.expect('{', "to open the kernel's body");
      body = this.stmts('}');
      this.expect('}', "to close the kernel's body");
    } else body = this.stmts('eof');
    if (this.t.kind !== 'eof') this.fail('expected the end of the kernel');
    return { ...(name ? { name } : {}), body, syncSites: this.syncSites };
  }

  private stmts(end: '}' | 'eof'): Stmt[] {
    const out: Stmt[] = [];
    while (!(end === 'eof' ? this.t.kind === 'eof' : this.is('}'))) {
      if (this.t.kind === 'eof') this.fail("expected '}' to close the block");
      out.push(this.stmt());
    }
    return out;
  }

  private startsDecl(): boolean {
    const t = this.t;
    if (t.kind !== 'ident') return false;
    return TYPES.includes(t.text) || t.text === '__shared__' || t.text === '__global__' || IGNORED_QUALIFIERS.includes(t.text);
  }

  private stmt(): Stmt {
    const t = this.t;
    if (t.kind === 'ident' && UNSUPPORTED[t.text]) throw new KernelError(t.pos, UNSUPPORTED[t.text]);
    if (this.eat(';')) return { k: 'empty', pos: t.pos };
    if (this.eat('{')) {
      const body = this.stmts('}');
      this.expect('}', 'to close the block');
      return { k: 'block', body, pos: t.pos };
    }
    if (this.eat('if')) {
      this.expect('(', "after 'if'");
      const cond = this.expr();
      this.expect(')', 'after the condition');
      const then = this.stmt();
      if (this.eat('else')) return { k: 'if', cond, then, else: this.stmt(), pos: t.pos };
      return { k: 'if', cond, then, pos: t.pos };
    }
    if (this.eat('while')) {
      this.expect('(', "after 'while'");
      const cond = this.expr();
      this.expect(')', 'after the condition');
      return { k: 'while', cond, body: this.stmt(), pos: t.pos };
    }
    if (this.eat('for')) {
      this.expect('(', "after 'for'");
      let init: Stmt | undefined;
      if (!this.is(';')) init = this.startsDecl() ? this.decl(false) : this.simple();
      this.expect(';', "after the for loop's initialisation");
      const cond = this.is(';') ? undefined : this.expr();
      this.expect(';', "after the for loop's condition");
      const update = this.is(')') ? undefined : this.simple();
      this.expect(')', "after the for loop's update");
      const body = this.stmt();
      return { k: 'for', ...(init ? { init } : {}), ...(cond ? { cond } : {}), ...(update ? { update } : {}), body, pos: t.pos };
    }
    if (this.eat('__syncthreads')) {
      this.expect('(', "after '__syncthreads'");
      this.expect(')', "after '__syncthreads('");
      this.expect(';', "after '__syncthreads()'");
      return { k: 'sync', site: ++this.syncSites, pos: t.pos };
    }
    if (this.startsDecl()) return this.decl(true);
    const s = this.simple();
    this.expect(';', 'after the statement');
    return s;
  }

  /** `[__shared__|__global__] type [__shared__|__global__] name [ '[' size ']' ] [= init] ;` */
  private decl(needSemi: boolean): Stmt {
    const start = this.t.pos;
    let space: Space = 'local';
    let type: ScalarType | undefined;
    for (;;) {
      const t = this.t;
      if (t.kind !== 'ident') break;
      if (t.text === '__shared__' || t.text === '__global__') {
        if (space !== 'local') this.fail('expected one of __shared__ or __global__, not both');
        space = t.text === '__shared__' ? 'shared' : 'global';
      } else if (TYPES.includes(t.text)) {
        if (type) this.fail('expected the variable name');
        type = t.text as ScalarType;
      } else if (!IGNORED_QUALIFIERS.includes(t.text)) break;
      this.i++;
    }
    if (!type) this.fail("expected a type ('int' or 'float')");
    const nameTok = this.ident('the variable name');
    let size: number | undefined;
    if (this.eat('[')) {
      const st = this.t;
      if (st.kind !== 'int') this.fail('expected the array size (a whole number)');
      size = Number(st.text);
      if (!(size >= 1 && size <= MAX_ARRAY_ELEMENTS)) throw new KernelError(st.pos, `array size ${st.text} is out of range (1 to ${MAX_ARRAY_ELEMENTS})`);
      this.i++;
      this.expect(']', 'after the array size');
      if (space === 'local') throw new KernelError(nameTok.pos, `local arrays are not supported: declare ${nameTok.text} __shared__ or __global__`);
    }
    let init: Expr | undefined;
    let initList: number[] | undefined;
    if (this.eat('=')) {
      if (space === 'local') {
        if (this.is('{')) this.fail('expected an expression (a local variable is a scalar)');
        init = this.expr();
      } else if (this.eat('{')) {
        initList = [];
        if (!this.is('}'))
          do initList.push(this.constant(type));
          while (this.eat(','));
        this.expect('}', 'after the initialiser list');
        if (initList.length > (size ?? 1)) throw new KernelError(nameTok.pos, `${initList.length} initial values for ${size ?? 1} elements`);
      } else {
        if (size !== undefined) this.fail("expected '{' to start the array's initial values");
        initList = [this.constant(type)];
      }
    }
    if (needSemi) this.expect(';', 'after the declaration');
    return {
      k: 'decl',
      space,
      type,
      name: nameTok.text,
      ...(size !== undefined ? { size } : {}),
      ...(init ? { init } : {}),
      ...(initList ? { initList } : {}),
      pos: start,
    };
  }

  /** A constant for a __shared__ or __global__ initialiser: a number, optionally negated. */
  private constant(type: ScalarType): number {
    const neg = this.eat('-');
    const t = this.t;
    if (t.kind !== 'int' && t.kind !== 'float') this.fail('expected a number (initial values of __shared__ and __global__ variables are constants)');
    this.i++;
    const v = (neg ? -1 : 1) * Number(t.text);
    return type === 'int' ? Math.trunc(v) | 0 : Math.fround(v);
  }

  /** Assignment, compound assignment, ++ or -- (the statements that are not declarations or control). */
  private simple(): Stmt {
    const t = this.t;
    if (this.is('++') || this.is('--')) {
      this.i++;
      const target = this.lvalue();
      return { k: 'incdec', target, op: t.text as '++' | '--', pos: t.pos };
    }
    if (t.kind !== 'ident' || RESERVED.includes(t.text)) {
      if (t.kind === 'ident' && (t.text === 'clock' || t.text === 'clock64')) this.fail('expected a statement (assign clock() to a variable)');
      this.fail('expected a statement');
    }
    const target = this.lvalue();
    if (this.is('++') || this.is('--')) {
      const op = this.t.text as '++' | '--';
      this.i++;
      return { k: 'incdec', target, op, pos: t.pos };
    }
    const opTok = this.t;
    if (opTok.kind !== 'punct' || !ASSIGN_OPS.includes(opTok.text)) this.fail(`expected '=', a compound assignment, '++' or '--' after ${target.name}`);
    this.i++;
    const value = this.expr();
    return { k: 'assign', target, op: opTok.text as AssignOp, value, pos: t.pos };
  }

  private lvalue(): LValue {
    const t = this.ident('a variable name');
    if (this.eat('[')) {
      const index = this.expr();
      this.expect(']', 'after the index');
      return { k: 'index', name: t.text, index, pos: t.pos };
    }
    return { k: 'var', name: t.text, pos: t.pos };
  }

  expr(): Expr {
    const test = this.binary(0);
    const q = this.t;
    if (!this.eat('?')) return test;
    const a = this.expr();
    this.expect(':', "in the conditional expression (a ? b : c)");
    const b = this.expr();
    return { k: 'ternary', test, a, b, pos: q.pos };
  }

  /** Precedence climbing over the binary operators, loosest first. */
  private static readonly LEVELS: readonly (readonly BinaryOp[])[] = [
    ['||'], ['&&'], ['|'], ['^'], ['&'], ['==', '!='], ['<', '<=', '>', '>='], ['<<', '>>'], ['+', '-'], ['*', '/', '%'],
  ];

  private binary(level: number): Expr {
    if (level >= Parser.LEVELS.length) return this.unary();
    let left = this.binary(level + 1);
    for (;;) {
      const t = this.t;
      if (t.kind !== 'punct' || !Parser.LEVELS[level].includes(t.text as BinaryOp)) return left;
      this.i++;
      const right = this.binary(level + 1);
      left = { k: 'binary', op: t.text as BinaryOp, left, right, pos: t.pos };
    }
  }

  private unary(): Expr {
    const t = this.t;
    if (this.eat('-') || this.eat('!') || this.eat('~')) return { k: 'unary', op: t.text as '-' | '!' | '~', arg: this.unary(), pos: t.pos };
    if (this.eat('+')) return this.unary();
    if (this.is('(') && this.peek().kind === 'ident' && TYPES.includes(this.peek().text) && this.peek(2).text === ')') {
      const type = this.peek().text as ScalarType;
      this.i += 3;
      return { k: 'cast', type, arg: this.unary(), pos: t.pos };
    }
    if (this.is('++') || this.is('--')) this.fail("expected an expression ('++' and '--' are statements here)");
    return this.primary();
  }

  private primary(): Expr {
    const t = this.t;
    if (t.kind === 'int') {
      this.i++;
      const v = Number(t.text);
      if (!Number.isSafeInteger(v) || v > 0xffffffff) throw new KernelError(t.pos, `integer ${t.text} does not fit in 32 bits`);
      return { k: 'num', value: v | 0, type: 'int', pos: t.pos };
    }
    if (t.kind === 'float') {
      this.i++;
      return { k: 'num', value: Math.fround(Number(t.text)), type: 'float', pos: t.pos };
    }
    if (this.eat('(')) {
      const e = this.expr();
      this.expect(')', 'to close the parenthesis');
      return e;
    }
    if (t.kind !== 'ident') this.fail('expected an expression');
    if (UNSUPPORTED[t.text]) throw new KernelError(t.pos, UNSUPPORTED[t.text]);
    if (t.text === 'clock' || t.text === 'clock64') {
      this.i++;
      this.expect('(', `after '${t.text}'`);
      this.expect(')', `after '${t.text}('`);
      return { k: 'clock', pos: t.pos };
    }
    const dim = DIM_BUILTINS[t.text];
    if (dim) {
      this.i++;
      this.expect('.', `after '${t.text}'`);
      const f = this.t;
      if (f.kind !== 'ident' || !['x', 'y', 'z'].includes(f.text)) this.fail(`expected 'x' after '${t.text}.'`);
      if (f.text !== 'x') throw new KernelError(f.pos, `${t.text}.${f.text}: launches are one-dimensional, use ${t.text}.x`);
      this.i++;
      return { k: 'builtin', name: dim, pos: t.pos };
    }
    const named = NAME_BUILTINS[t.text];
    if (named) {
      this.i++;
      return { k: 'builtin', name: named, pos: t.pos };
    }
    if (RESERVED.includes(t.text)) this.fail('expected an expression');
    this.i++;
    if (this.is('(')) throw new KernelError(t.pos, `unknown function ${t.text}(): the language has clock() and __syncthreads() only`);
    if (this.eat('[')) {
      const index = this.expr();
      this.expect(']', 'after the index');
      return { k: 'index', name: t.text, index, pos: t.pos };
    }
    return { k: 'var', name: t.text, pos: t.pos };
  }
}

/** Parses a kernel; throws KernelError ("line:col: expected ...") on the first error. */
export function parseKernel(src: string): Program {
  return new Parser(lex(src)).program();
}
