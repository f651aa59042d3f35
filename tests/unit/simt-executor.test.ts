import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src-sim/presets';
import type { Preset } from '../../src-sim/presets/types';
import { KernelError } from '../../src-sim/simt/ast';
import { divergenceKernel, LISTING4, LISTING5, LISTING6, LISTING7 } from '../../src-sim/simt/examples';
import type { LaunchOptions, SimtRun } from '../../src-sim/simt/executor';
import { arrayValues, eventsByWarp, runSource } from '../../src-sim/simt/executor';
import { pairings } from '../../src-sim/simt/report';
import type { SimtTiming } from '../../src-sim/simt/timing';
import { simtTiming } from '../../src-sim/simt/timing';

const tesla = findPreset('tesla') as Preset;
const timing = simtTiming(tesla);
const run = (src: string, opts: Partial<LaunchOptions> = {}, t: SimtTiming = timing): SimtRun =>
  runSource(src, t, { blocks: 1, threadsPerBlock: 32, stepBudget: 100_000, ...opts });
const kinds = (r: SimtRun, warp = 0) => r.events.filter((e) => e.warp === warp && e.block === 0).map((e) => `${e.kind}@${e.line}`);

describe('SIMT executor: divergence and reconvergence (WONG IV-C)', () => {
  it('runs the taken (else) path first and reconverges at the immediate post-dominator', () => {
    const r = run(`__global__ int order[32];
__shared__ int n;
if (tid < 8) {
  order[n] = 1;
  n = n + 1;
} else {
  order[n] = 2;
  n = n + 1;
}
order[n] = 3;`);
    // The else path (taken by threads 8..31) writes first, then the then-path, then both together.
    expect(arrayValues(r, 'order').slice(0, 3)).toEqual([2, 1, 3]);
    expect(kinds(r)).toEqual(['path-start@3', 'path-start@7', 'path-start@4', 'reconverge@10', 'exit@0']);
    expect([...eventsByWarp(r).keys()]).toEqual(['0:0']);
    const paths = r.events.filter((e) => e.kind === 'path-start').map((e) => e.mask >>> 0);
    expect(paths).toEqual([0xffffffff, 0xffffff00, 0x000000ff]);
  });

  it('with an if / else-if chain over c = 0..31, thread 31 runs first and thread 0 last; with c = 31..0 the reverse', () => {
    for (const c of [Array.from({ length: 32 }, (_, i) => i), Array.from({ length: 32 }, (_, i) => 31 - i)]) {
      const r = run(divergenceKernel(c, 2));
      const start = arrayValues(r, 'start').slice(0, 32);
      const byStart = Array.from({ length: 32 }, (_, l) => l).sort((a, b) => start[a] - start[b]);
      expect(byStart).toEqual([...c].reverse());
      // A path that diverges runs one thread: masks of the path starts after the first are single lanes.
      const single = r.events.filter((e) => e.kind === 'path-start' && (e.mask & (e.mask - 1)) === 0);
      expect(single.length).toBe(32);
    }
  });

  it('serialises paths within a warp and overlaps warps in time', () => {
    const r = run(divergenceKernel(Array.from({ length: 32 }, (_, i) => i), 3), { threadsPerBlock: 64 });
    const start = arrayValues(r, 'start');
    const stop = arrayValues(r, 'stop');
    for (const w of [0, 1]) {
      const lanes = Array.from({ length: 32 }, (_, l) => w * 32 + l).sort((a, b) => start[a] - start[b]);
      for (let k = 1; k < 32; k++) expect(start[lanes[k]]).toBeGreaterThanOrEqual(stop[lanes[k - 1]]);
    }
    const span = (w: number) => [Math.min(...start.slice(w * 32, w * 32 + 32)), Math.max(...stop.slice(w * 32, w * 32 + 32))];
    const [a, b] = [span(0), span(1)];
    expect(a[0] < b[1] && b[0] < a[1]).toBe(true);
  });

  it('a loop whose threads leave at different iterations keeps the stack bounded and reconverges after it', () => {
    const r = run(`__global__ int o[32];\nint i = 0;\nwhile (i < tid) { i = i + 1; }\no[tid] = i * 2;`, { threadsPerBlock: 32 });
    expect(r.status).toBe('finished');
    expect(arrayValues(r, 'o')).toEqual(Array.from({ length: 32 }, (_, t) => 2 * t));
    expect(r.events.filter((e) => e.kind === 'reconverge').map((e) => e.line)).toEqual([4]);
  });

  it('partial warps run only their threads; for loops work', () => {
    const r = run(`__global__ int o[40];\nint s = 0;\nfor (int k = 0; k < 4; k++) s += k;\no[tid] = s + tid;`, { threadsPerBlock: 40 });
    expect(r.warps.map((w) => w.threads)).toEqual([32, 8]);
    expect(arrayValues(r, 'o')).toEqual(Array.from({ length: 40 }, (_, t) => 6 + t));
  });

  it('a warp instruction reads for all threads before it writes (sharedvar++ by 32 threads adds one)', () => {
    const r = run('__shared__ int v;\nv++;');
    expect(arrayValues(r, 'v')).toEqual([1]);
  });
});

describe('SIMT executor: __syncthreads() at warp granularity (WONG IV-D)', () => {
  it('Listing 5: one warp passes both barriers of its diverged halves; the consumers read stale values', () => {
    const r = run(LISTING5);
    expect(r.status).toBe('finished');
    expect(arrayValues(r, 'output').slice(16)).toEqual(new Array(16).fill(0));
    expect(r.staleReads).toBe(16);
    // Each half meets its own barrier alone: the else path's (2) first, then the then path's (1).
    expect(pairings(r)).toBe('2, 1');
  });

  it('with the producer in another warp the barrier does separate them (no stale read)', () => {
    const r = run(`__shared__ int s[32];\n__global__ int out[64];\nif (warpId == 0) s[tid] = tid + 1;\n__syncthreads();\nif (warpId == 1) out[tid] = s[tid - 32];`, { threadsPerBlock: 64 });
    expect(r.staleReads).toBe(0);
    expect(arrayValues(r, 'out').slice(32)).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
  });

  it('Listing 7: barrier 2 pairs with 3 and 1 with 4', () => {
    const r = run(LISTING7, { threadsPerBlock: 64 });
    expect(r.status).toBe('finished');
    expect(pairings(r)).toBe('2+3, 1+4');
    expect(r.barriers.map((b) => b.arrivals.map((a) => a.warp))).toEqual([[0, 1], [0, 1]]);
  });

  it('an exited warp counts as arrived: a barrier releases when the other warps are done', () => {
    const r = run(`__global__ int o[64];\nif (warpId == 1) {\n  __syncthreads();\n  o[tid] = 1;\n}`, { threadsPerBlock: 64 });
    expect(r.status).toBe('finished');
    expect(arrayValues(r, 'o').slice(32)).toEqual(new Array(32).fill(1));
  });

  it('blocks have their own shared memory and their own barriers', () => {
    const r = run(`__shared__ int s;\n__global__ int o[4];\nif (tid == 0) s = bid * 10;\n__syncthreads();\no[bid * 2 + warpId] = s;`, { blocks: 2, threadsPerBlock: 64 });
    expect(arrayValues(r, 'o')).toEqual([0, 0, 10, 10]);
    expect(r.barriers.map((b) => b.block).sort()).toEqual([0, 1]);
  });
});

describe('SIMT executor: deadlock detection and the step budget', () => {
  it('Listing 4 deadlocks: thread 0 waits at the reconvergence point while the others spin', () => {
    const r = run(LISTING4);
    expect(r.status).toBe('deadlock');
    expect(r.message).toBe('deadlock: no warp can make progress. spinning with nothing changing: warp 0 in the loop at 5:1. exited: none.');
    expect(r.warps[0]).toMatchObject({ state: 'spinning', line: 5, col: 1 });
    // The spinning path holds threads 1..31; thread 0 left the loop first (the taken path).
    const spin = r.events.find((e) => e.kind === 'deadlock')!;
    expect(spin.mask >>> 0).toBe(0xfffffffe);
  });

  it('Listing 6 deadlocks, naming the warp at the barrier and the warp in the loop', () => {
    const r = run(LISTING6, { threadsPerBlock: 64 });
    expect(r.status).toBe('deadlock');
    expect(r.message).toBe(
      'deadlock: no warp can make progress. waiting at a barrier: warp 0 at __syncthreads() [1] (5:3). spinning with nothing changing: warp 1 in the loop at 9:3. exited: none.',
    );
    expect(r.events.filter((e) => e.kind === 'deadlock').map((e) => [e.warp, e.line, e.site])).toEqual([[0, 5, 1], [1, 9, undefined]]);
  });

  it('names exited warps and blocks when several blocks deadlock', () => {
    const r = run(`__global__ int flag;\nif (bid == 1 && warpId == 0) { while (flag == 0); }`, { blocks: 2, threadsPerBlock: 64 });
    expect(r.status).toBe('deadlock');
    expect(r.message).toBe('deadlock: no warp can make progress. spinning with nothing changing: block 1 warp 0 in the loop at 2:32. exited: block 0 warp 0; block 0 warp 1; block 1 warp 1.');
  });

  it('a spin loop that another warp ends is not a deadlock', () => {
    const r = run(`__global__ int flag;\n__global__ int o[64];\nint n = 0;\nif (warpId == 0) { while (flag == 0); }\nelse { while (n < 50) n++; flag = 1; }\no[tid] = flag;`, { threadsPerBlock: 64 });
    expect(r.status).toBe('finished');
    expect(arrayValues(r, 'o')).toEqual(new Array(64).fill(1));
  });

  it('a loop that waits on clock() is not a deadlock (its state changes with time)', () => {
    const r = run('int t0 = clock();\nwhile (clock() < t0 + 2000);');
    expect(r.status).toBe('finished');
    expect(r.cycles).toBeGreaterThanOrEqual(2000);
  });

  it('an endless loop whose state changes stops at the step budget with a clear message', () => {
    const r = run('int i = 0;\nwhile (1) i = i + 1;', { stepBudget: 5000 });
    expect(r.status).toBe('budget');
    expect(r.instructions).toBe(5000);
    expect(r.message).toMatch(/^stopped by the step budget \(5000 warp instructions\) before the kernel finished: raise the budget or look for a loop that never ends\. still running: warp 0 at 2:/);
  });

  it('marks where the step budget stopped each unfinished warp, at the last cycle, past the event cap too', () => {
    const r = run('int i = 0;\nwhile (1) { if (tid % 2 == 0) i = i + 1; else i = i + 1; }', { stepBudget: 5000, maxEvents: 40 });
    expect(r.status).toBe('budget');
    const stops = r.events.filter((e) => e.kind === 'stopped');
    expect(stops.map((e) => e.warp)).toEqual(r.warps.filter((w) => w.state !== 'exited').map((w) => w.warp));
    expect(stops.length).toBeGreaterThan(0);
    for (const e of stops) expect(e.cycle).toBe(r.cycles);
    // The cap keeps the first events; the end state is kept beyond it.
    expect(r.events.length).toBe(40 + stops.length);
    expect(r.droppedEvents).toBeGreaterThan(0);
  });

  it('keeps at most maxEvents timeline events and counts the rest', () => {
    const r = run('int i = 0;\nwhile (i < 200) { if (tid % 2 == 0) i = i + 1; else i = i + 1; }', { maxEvents: 50 });
    expect(r.status).toBe('finished');
    expect(r.events.length).toBe(50);
    expect(r.droppedEvents).toBeGreaterThan(500);
  });
});

describe('SIMT executor: timing, errors and determinism', () => {
  it('clock() advances by the preset latencies: a read, then one add, then a read', () => {
    const r = run('__global__ int o[2];\nint a = clock();\nint x = tid + 1;\nint b = clock();\no[0] = a; o[1] = b;');
    const [a, b] = arrayValues(r, 'o');
    // first read: clock overhead (28) before the add issues; the add: one SP latency (24).
    expect(b - a).toBe(tesla.measurement.clockOverhead + tesla.alu.spLatency);
  });

  it('a slower ALU on another preset stretches the same kernel', () => {
    const src = 'int x = 1;\nfor (int k = 0; k < 10; k++) x = x * 3;';
    const fast = run(src);
    const slow = run(src, {}, { ...timing, aluLatency: timing.aluLatency * 2 });
    expect(slow.cycles).toBeGreaterThan(fast.cycles * 1.8);
  });

  it('run-time errors name line:column and the thread', () => {
    expect(() => run('__shared__ int s[16];\nint y = s[tid];')).toThrow(KernelError);
    expect(() => run('__shared__ int s[16];\nint y = s[tid];')).toThrow('2:9: s[16] is outside the array (0 to 15) (thread 16 of block 0)');
    expect(() => run('int y = 5 / (tid - 3);')).toThrow('1:11: integer division by zero (thread 3 of block 0)');
  });

  it('is deterministic: the same kernel and launch give the same run', () => {
    const src = divergenceKernel(Array.from({ length: 32 }, (_, i) => (i * 7) % 32), 2);
    const a = run(src, { threadsPerBlock: 96, blocks: 2 });
    const b = run(src, { threadsPerBlock: 96, blocks: 2 });
    expect(JSON.stringify({ ...b, arrays: b.arrays.map((x) => Array.from(x.values)) })).toBe(JSON.stringify({ ...a, arrays: a.arrays.map((x) => Array.from(x.values)) }));
  });
});
