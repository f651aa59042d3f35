import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src-sim/presets';
import type { Preset } from '../../src-sim/presets/types';
import { KernelError } from '../../src-sim/simt/ast';
import { I, compileKernel } from '../../src-sim/simt/compile';
import { SIMT_EXAMPLES } from '../../src-sim/simt/examples';
import { arrayValues, runSource } from '../../src-sim/simt/executor';
import { lex } from '../../src-sim/simt/lexer';
import { parseKernel } from '../../src-sim/simt/parser';
import { simtTiming } from '../../src-sim/simt/timing';

const timing = simtTiming(findPreset('tesla') as Preset);
const compile = (src: string) => compileKernel(parseKernel(src));
/** Runs text on one block and returns an array's final values. */
const values = (src: string, name: string, threads = 32) => arrayValues(runSource(src, timing, { blocks: 1, threadsPerBlock: threads, stepBudget: 100_000 }), name);

/** The message of the KernelError that `f` throws. */
function errorOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(KernelError);
    return (e as Error).message;
  }
  throw new Error('expected a KernelError');
}

describe('kernel lexer', () => {
  it('reads identifiers, numbers, operators and skips comments, with line and column', () => {
    const toks = lex('int x = 0x1F; // c\n/* a\nb */ float y=1.5f<<=2;');
    expect(toks.map((t) => `${t.kind}:${t.text}`)).toEqual([
      'ident:int', 'ident:x', 'punct:=', 'int:0x1F', 'punct:;',
      'ident:float', 'ident:y', 'punct:=', 'float:1.5', 'punct:<<=', 'int:2', 'punct:;', 'eof:',
    ]);
    expect(toks[5].pos).toEqual({ line: 3, col: 6 });
  });
  it('names the position of a stray character and an unterminated comment', () => {
    expect(errorOf(() => lex('int x = 1;\n  int y = @;'))).toBe("2:11: unexpected character '@'");
    expect(errorOf(() => lex('x = 1; /* open'))).toBe('1:8: unterminated comment: expected */');
  });
});

describe('kernel parser: errors name line:column and what was expected', () => {
  it.each([
    ['int x = 1\nint y = 2;', "1:10: expected ';' after the declaration"],
    ['int x = 1;\nx = x +;', "2:8: expected an expression, found ';'"],
    ['if (tid < 3 { }', "1:13: expected ')' after the condition, found '{'"],
    ['while tid < 3) ;', "1:7: expected '(' after 'while', found 'tid'"],
    ['__shared__ int a[16];\na[tid = 1;', "2:7: expected ']' after the index, found '='"],
    ['{ int x = 1;', "1:13: expected '}' to close the block, found the end of the kernel"],
    ['int x = threadIdx.y;', '1:19: threadIdx.y: launches are one-dimensional, use threadIdx.x'],
    ['__syncthreads()', "1:16: expected ';' after '__syncthreads()', found the end of the kernel"],
    ['return;', '1:1: return is not supported: let the thread run to the end of the kernel'],
    ['int x = foo(1);', '1:9: unknown function foo(): the language has clock() and __syncthreads() only'],
    ['int a[4];', '1:5: local arrays are not supported: declare a __shared__ or __global__'],
    ['x + 1;', "1:3: expected '=', a compound assignment, '++' or '--' after x, found '+'"],
    ['__global__ int c[2] = {1, 2, 3};', '1:16: 3 initial values for 2 elements'],
    ['__global__ void k(int n) { }', "1:19: expected ')': kernels take no parameters (declare arrays with __global__ in the body), found 'int'"],
  ])('%j', (src, message) => {
    expect(errorOf(() => parseKernel(src))).toBe(message);
  });

  it('compile errors name the position too: unknown names, redeclarations, types', () => {
    expect(errorOf(() => compile('x = 1;'))).toBe('1:1: unknown variable x: declare it first (int x = ...; or __shared__ / __global__)');
    expect(errorOf(() => compile('int x = 1;\nint x = 2;'))).toBe('2:1: x is already declared at 1:1');
    expect(errorOf(() => compile('float f = 1.5;\nint y = f % 2;'))).toBe("2:11: operator '%' needs int operands");
    expect(errorOf(() => compile('__shared__ int s[4];\nint y = s;'))).toBe('2:9: s is an array of 4: index it, s[i]');
    expect(errorOf(() => compile('__shared__ int s[4];\nfloat f = 1.0;\ns[f] = 1;'))).toBe('3:3: the index of s must be an int (cast it: (int)...)');
    expect(errorOf(() => compile('{ int x = 1; }\nx = 2;'))).toMatch(/^2:1: unknown variable x/);
  });
});

describe('kernel language', () => {
  it('parses a CUDA-style wrapper, declarations in both qualifier orders and every statement form', () => {
    const p = parseKernel(`__global__ void k() {
      int __shared__ v = 0;
      __shared__ float s[8];
      __global__ int out[32] = {7};
      volatile int x = tid;
      for (int i = 0; i < 3; i++) { x += i; }
      while (x > 100) x -= 1;
      if (x == 1) ; else if (x == 2) { x = 3; } else x--;
      __syncthreads();
      __syncthreads();
    }`);
    expect(p.name).toBe('k');
    expect(p.syncSites).toBe(2);
    expect(p.body.map((s) => s.k)).toEqual(['decl', 'decl', 'decl', 'decl', 'for', 'while', 'if', 'sync', 'sync']);
  });

  it('compiles if/else to a branch taken by the false threads, reconverging after the else', () => {
    const c = compile('int x = 0;\nif (tid < 16) x = 1;\nelse x = 2;\nx = x + 1;');
    const br = c.insns.find((i) => i.op === I.BRANCH)!;
    // branch at 1, then-path at 2, jump at 3, else-path at 4, reconvergence at 5
    expect(c.insns.indexOf(br)).toBe(1);
    expect(br.target).toBe(4);
    expect(br.reconv).toBe(5);
    expect(c.insns[3]).toMatchObject({ op: I.JUMP, target: 5 });
    expect(c.insns[5].line).toBe(4);
  });

  it('computes int and float arithmetic as C does', () => {
    const src = `__global__ int o[16];
      __global__ float f[4];
      o[0] = 7 / 2; o[1] = -7 / 2; o[2] = -7 % 3; o[3] = 2147483647 + 1;
      o[4] = 1 << 4; o[5] = -16 >> 2; o[6] = 6 & 3; o[7] = 6 | 3; o[8] = 6 ^ 3; o[9] = ~0;
      o[10] = (int)3.9; o[11] = 3 < 4 && 4 < 3; o[12] = !0 || 0; o[13] = tid > 0 ? 10 : 20;
      o[14] = 65536 * 65536; o[15] = 1.0 / 4 < 0.3;
      f[0] = 7 / 2.0f; f[1] = (float)7 / 2; f[2] = 0.1; f[3] = -(1.5 * 2);`;
    expect(values(src, 'o', 1)).toEqual([3, -3, -1, -2147483648, 16, -4, 2, 7, 5, -1, 3, 0, 1, 20, 0, 1]);
    expect(values(src, 'f', 1)).toEqual([3.5, 3.5, Math.fround(0.1), -3]);
  });

  it('short-circuits && and || per thread (a guarded index is never read out of range)', () => {
    expect(values('__global__ int a[4] = {5, 6, 7, 8};\n__global__ int o[32];\no[tid] = tid < 4 && a[tid] > 6;', 'o').slice(0, 6)).toEqual([0, 0, 1, 1, 0, 0]);
  });

  it('gives every built-in its value: threadIdx.x, blockIdx.x, blockDim.x, gridDim.x, warpSize, laneId, warpId', () => {
    const r = runSource(
      `__global__ int o[896];
       int base = (blockIdx.x * blockDim.x + threadIdx.x) * 7;
       o[base] = tid; o[base + 1] = bid; o[base + 2] = blockDim.x; o[base + 3] = gridDim.x;
       o[base + 4] = warpSize; o[base + 5] = laneId; o[base + 6] = warpId;`,
      timing,
      { blocks: 2, threadsPerBlock: 64, stepBudget: 10_000 },
    );
    const o = arrayValues(r, 'o');
    const thread = (g: number) => o.slice(g * 7, g * 7 + 7);
    expect(thread(0)).toEqual([0, 0, 64, 2, 32, 0, 0]);
    expect(thread(33)).toEqual([33, 0, 64, 2, 32, 1, 1]);
    expect(thread(64 + 40)).toEqual([40, 1, 64, 2, 32, 8, 1]);
  });

  it('every ready example parses and compiles', () => {
    for (const ex of SIMT_EXAMPLES) expect(() => compile(ex.source), ex.id).not.toThrow();
  });
});
