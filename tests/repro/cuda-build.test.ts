/**
 * The emitted CUDA programs built by the nvcc of this machine (`npm run test:repro`; about 20 s of
 * compiler time): every experiment's program compiles with -Werror all-warnings for sm_90, and the
 * chase loops compile to one dependent load a step where cuobjdump exists. Skipped, with the reason
 * printed, where there is no nvcc. The unit suite (tests/unit/cuda-emit.test.ts) checks the sources.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findNvcc } from '../../src-main/cli/gpu';
import { emitProgram, GPU_EXPERIMENTS } from '../../src-sim/cuda/emit';

const tmp = mkdtempSync(join(tmpdir(), 'gpulab-cuda-build-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the programs compile', () => {
  const nvcc = findNvcc();
  if (!nvcc) console.log('cuda-emit: skipping the nvcc builds: no nvcc on PATH or in $CUDA_HOME/bin');
  for (const e of GPU_EXPERIMENTS) {
    // Concurrent: each build waits on its own nvcc process.
    (nvcc ? it.concurrent : it.skip)(`${e.id} builds with nvcc -O2 -arch=sm_90`, async () => {
      const p = emitProgram(e.id, {}, { arch: 'sm_90' });
      const dir = join(tmp, e.id);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, p.fileName), p.source);
      const args = p.buildCommand.split(' ').slice(1);
      await promisify(execFile)(nvcc as string, [...args.slice(0, -3), '-Werror', 'all-warnings', ...args.slice(-3)], { cwd: dir, timeout: 120_000 });
    });
  }
});

/**
 * The chase loop of a SASS listing: the instructions between consecutive global loads of the function
 * whose name contains `fn`. One dependent load a step means no other load between two, and only the
 * address arithmetic (at most three instructions) beside it.
 */
function chaseSteps(sass: string, fn: string): string[][] {
  const start = sass.split('\n').findIndex((l) => l.includes('Function :') && l.includes(fn));
  if (start < 0) return [];
  const body: string[] = [];
  for (const line of sass.split('\n').slice(start + 1)) {
    if (line.includes('Function :')) break;
    const m = /\/\*[0-9a-f]{4}\*\/\s+([^;]+);/.exec(line);
    if (m) body.push(m[1].trim());
  }
  const loads = body.map((ins, i) => (/^(@!?P\d+ )?LDG\b/.test(ins) ? i : -1)).filter((i) => i >= 0);
  return loads.slice(1).map((at, k) => body.slice(loads[k] + 1, at));
}

describe('the chase compiles to one load a step (where cuobjdump exists)', () => {
  const nvcc = findNvcc();
  const cuobjdump = nvcc ? join(dirname(nvcc), 'cuobjdump') : '';
  const has = Boolean(nvcc) && existsSync(cuobjdump);
  if (!has) console.log('cuda-emit: skipping the SASS check: no cuobjdump beside nvcc');
  for (const [id, raw] of [
    ['pchase-average', {}],
    ['tlb-probes', { sizeTo: '16MB' }],
  ] as const) {
    it.skipIf(!has)(`${id}: between two loads of the chase only the address arithmetic`, () => {
      const p = emitProgram(id, raw, { arch: 'sm_90' });
      const dir = join(tmp, `sass-${id}`);
      execFileSync('mkdir', ['-p', dir]);
      writeFileSync(join(dir, p.fileName), p.source);
      execFileSync(nvcc as string, ['-O2', '-arch=sm_90', '-cubin', '-o', 'k.cubin', p.fileName], { cwd: dir, stdio: 'pipe', timeout: 120_000 });
      const sass = execFileSync(cuobjdump, ['-sass', 'k.cubin'], { cwd: dir, encoding: 'utf8' });
      const steps = chaseSteps(sass, 'chase');
      expect(steps.length).toBeGreaterThan(0);
      for (const between of steps.slice(0, 8)) {
        expect(between.some((ins) => /\bLD/.test(ins))).toBe(false);
        expect(between.length).toBeLessThanOrEqual(3);
      }
    });
  }
});
