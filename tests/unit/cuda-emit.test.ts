import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { thrown } from './thrown';
import { DEFAULT_ARCH, emitProgram, FORMAT_VERSION, GPU_EXPERIMENTS, patternOffsets, tlbReachPlan } from '../../src-sim/cuda/emit';
import { gpuParamSpecs } from '../../src-sim/cuda/params';
import { patternSequenceLength } from '../../src-sim/experiments/global-latency-patterns';
import { pchaseFine } from '../../src-sim/experiments/pchase-fine';
import { pchaseAverage } from '../../src-sim/experiments/pchase-average';
import { findPreset } from '../../src-sim/presets';
import { ExperimentError } from '../../src-sim/experiments/types';

const tmp = mkdtempSync(join(tmpdir(), 'gpulab-cuda-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The params JSON the program prints, read back out of its source. */
function paramsJsonOf(source: string): unknown {
  const m = /static const char\* PARAMS_JSON = "((?:[^"\\]|\\.)*)";/.exec(source);
  expect(m, 'PARAMS_JSON constant').not.toBeNull();
  return JSON.parse((m as RegExpExecArray)[1].replace(/\\(.)/g, '$1'));
}

describe('emitProgram', () => {
  it('covers the five experiments and names the program and build command after the experiment', () => {
    expect(GPU_EXPERIMENTS.map((e) => e.id)).toEqual(['pchase-average', 'pchase-fine', 'shared-bank-stride', 'tlb-probes', 'global-latency-patterns']);
    for (const e of GPU_EXPERIMENTS) {
      const p = emitProgram(e.id);
      expect(p.fileName).toBe(`${e.id}.cu`);
      expect(p.buildCommand).toBe(`nvcc -O2 -arch=${DEFAULT_ARCH} -o ${e.id} ${e.id}.cu`);
      expect(p.buildScript.split('\n').filter((l) => l.includes('nvcc -O2'))).toHaveLength(1);
      expect(emitProgram(e.id, {}, { arch: 'sm_90' }).buildCommand).toContain('-arch=sm_90 ');
      // Every program: device, clock, params and end lines; every CUDA call checked.
      for (const needle of ['"type\\":\\"device', '"type\\":\\"clock', '"type\\":\\"params', '"type\\":\\"end', 'cudaDevAttrL2CacheSize', 'cudaDriverGetVersion', 'cudaRuntimeGetVersion', '%%clock64'])
        expect(p.source, needle).toContain(needle);
      expect(p.source).toContain(`#define GPULAB_FORMAT ${FORMAT_VERSION}`);
      const calls = p.source.match(/\bcuda(Malloc|Memcpy|Free|FuncSetAttribute|MemGetInfo|Memset|GetDevice|GetDeviceProperties)\(/g) ?? [];
      const checked = p.source.match(/CHECK\(cuda(Malloc|Memcpy|Free|FuncSetAttribute|MemGetInfo|Memset|GetDevice|GetDeviceProperties)\(/g) ?? [];
      expect(checked.length).toBe(calls.length);
      // Each launch is followed by the launch check.
      const launches = p.source.match(/<<<[^>]+>>>\([^;]*\);\n\s*(\S+)/g) ?? [];
      expect(launches.length).toBeGreaterThan(0);
      for (const l of launches) expect(l).toMatch(/CHECK_LAUNCH\(\);$/);
    }
  });

  it('refuses an --arch that nvcc would not take', () => {
    expect(thrown(() => emitProgram('pchase-fine', {}, { arch: 'sm_90; rm -rf /' })).message).toMatch(/--arch must be native or a real architecture/);
  });

  it('pchase-average: strides, sizes and traversals appear, with the range checks and the load chosen by space', () => {
    const p = emitProgram('pchase-average', { strides: '32,128,4KB', sizeFrom: '8KB', sizeTo: '96MB', sizeStep: '2MB', traversals: '3' });
    expect(p.source).toContain('STRIDES[] = { 32ULL, 128ULL, 4096ULL }');
    expect(p.source).toContain(`SIZE_FROM = ${8 * 1024}ULL, SIZE_TO = ${96 * 2 ** 20}ULL, SIZE_STEP = ${2 * 2 ** 20}ULL`);
    expect(p.source).toContain('TRAVERSALS = 3ULL');
    expect(p.source).toContain('ld_ca(A + j)');
    expect(p.source).not.toContain('ld_cg(A + j)');
    for (const check of ['sizeTo must not be smaller than sizeFrom', 'a stride is larger than an array size', 'more than 2^32 elements', 'does not fit in half the free device memory', 'every stride must be a positive multiple of 4 B'])
      expect(p.source).toContain(check);
    expect(paramsJsonOf(p.source)).toEqual(p.params);
    expect(p.params).toEqual({ space: 'global', strides: [32, 128, 4096], sizeFrom: 8192, sizeTo: 96 * 2 ** 20, sizeStep: 2 * 2 ** 20, traversals: 3, clockOverhead: 'removed', carveout: 0, chase: 'index' });
    expect(emitProgram('pchase-average', { space: 'global-cg' }).source).toContain('ld_cg(A + j)');
  });

  it('pchase-fine: size, stride, iterations and warm-up appear; the trace bound is checked against the device', () => {
    const warm = emitProgram('pchase-fine', { size: '16KB', stride: '128', iterations: '4096', warmup: 'true' });
    expect(warm.source).toContain('SIZE = 16384ULL, STRIDE = 128ULL');
    expect(warm.source).toContain('ITERATIONS = 4096ULL');
    expect(warm.source).toContain('WARMUP = true');
    expect(warm.source).toContain('cudaDevAttrMaxSharedMemoryPerBlockOptin');
    expect(warm.source).toContain('stride is larger than size');
    const cold = emitProgram('pchase-fine', { warmup: 'false' });
    expect(cold.source).toContain('WARMUP = false');
    expect(cold.source).toContain('if (!WARMUP) cold_l2();');
  });

  it('shared-bank-stride: the stride range and accesses appear, and the shared-memory bound is checked', () => {
    const p = emitProgram('shared-bank-stride', { strideFrom: '0', strideTo: '64', strideStep: '2', accesses: '256' });
    expect(p.source).toContain('STRIDE_FROM = 0, STRIDE_TO = 64, STRIDE_STEP = 2');
    expect(p.source).toContain('ACCESSES = 256');
    expect(p.source).toContain('31 x stride + 1 words');
    expect(p.source).toContain('strideFrom <= strideTo <= 1024');
  });

  it('carveout: a real-GPU-only parameter the chase kernels pass to cudaFuncSetAttribute, range-checked in the program', () => {
    for (const id of ['pchase-average', 'pchase-fine', 'tlb-probes', 'global-latency-patterns']) {
      const p = emitProgram(id, { carveout: '50' });
      expect(p.params.carveout).toBe(50);
      expect(p.source).toContain('static const int CARVEOUT = 50;');
      expect(p.source).toMatch(/cudaFuncAttributePreferredSharedMemoryCarveout, CARVEOUT\)/);
      expect(p.source).toContain('carveout must be 0 to 100');
      expect(gpuParamSpecs(id).some((s) => s.name === 'carveout')).toBe(true);
    }
    expect(thrown(() => emitProgram('pchase-fine', { carveout: '120' })).message).toMatch(/parameter "carveout" is 120; allowed: 0 to 100/);
    expect(thrown(() => emitProgram('shared-bank-stride', { carveout: '10' })).message).toMatch(/unknown parameter "carveout"/);
    expect(gpuParamSpecs('pchase-fine').some((s) => s.name === 'jitter' || s.name === 'tpc')).toBe(false);
  });

  it('tlb-probes: the reach sweep only, its main curve and controls laid out by the simulated probe\'s own layouts', () => {
    const MB = 2 ** 20;
    const p = emitProgram('tlb-probes', { space: 'global-cg', sizeFrom: '2MB', sizeTo: '64MB' });
    const plan = tlbReachPlan(p.params);
    expect(plan.stride).toBe(2 * MB);
    expect(plan.skew).toBe(128);
    expect(plan.sizes).toEqual(Array.from({ length: 32 }, (_, i) => (i + 1) * 2 * MB));
    expect(plan.counts).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
    expect(plan.curves.map((c) => c.name)).toEqual(['main', 'block-pair', 'near-pair', 'own-page', 'double']);
    const at = (name: string, i: number): number => plan.curves.find((c) => c.name === name)!.addresses[i];
    // Element i at i x stride + (i x skew mod stride); near pairs share a page 2 KB apart; twice the stride.
    expect([at('main', 0), at('main', 1), at('main', 3)]).toEqual([0, 2 * MB + 128, 6 * MB + 384]);
    expect([at('near-pair', 2), at('near-pair', 3)]).toEqual([2 * MB, 2 * MB + 2048]);
    expect([at('own-page', 2), at('own-page', 3)]).toEqual([4 * MB, 6 * MB + 2048]);
    expect(at('double', 1)).toBe(4 * MB + 128);
    expect(p.source).toContain(`STRIDE = ${2 * MB}ULL`);
    expect(p.source).toContain('ld_cg64(A + j)');
    expect(p.source).toContain(`PER_CURVE = 32ULL`);
    expect(p.source).toContain('a curve does not start at address 0');
    // No block-pair control where the stride holds no two 64 KB blocks.
    expect(tlbReachPlan(emitProgram('tlb-probes', { stride: '64KB', sizeTo: '1MB' }).params).curves.map((c) => c.name)).toEqual(['main', 'near-pair', 'own-page', 'double']);
    expect(thrown(() => emitProgram('tlb-probes', { probe: 'offset' })).message).toMatch(/runs the reach probe only/);
    expect(thrown(() => emitProgram('tlb-probes', { space: 'texture' })).message).toMatch(/global memory only/);
    // 64-bit indices: arrays past 16 GB, elements at multiples of 8 B.
    expect(emitProgram('tlb-probes', { stride: '1GB', sizeFrom: '1GB', sizeTo: '16GB', sizeStep: '1GB' }).source).toContain('ld_ca64(A + j)');
    expect(thrown(() => emitProgram('tlb-probes', { stride: '2097156' })).message).toMatch(/multiple of 8 B on a real GPU/);
    expect(thrown(() => emitProgram('tlb-probes', { skew: '12' })).message).toMatch(/multiple of 8 B on a real GPU/);
    expect(thrown(() => emitProgram('tlb-probes', { stride: '8', sizeFrom: '8', sizeTo: '1MB', sizeStep: '8KB' })).message).toMatch(/at most 200000 addresses/);
  });

  it('global-latency-patterns: the sequence is patternStep\'s, in order; a sequence past the shared-memory trace is refused', () => {
    const raw = { page: '2MB', l1Flush: '20', l2Flush: '160', rounds: '2', farWindow: '1GB' };
    const p = emitProgram('global-latency-patterns', raw);
    const offs = patternOffsets(p.params);
    expect(offs.length).toBe(patternSequenceLength(p.params));
    expect(offs.slice(0, 3)).toEqual([640, 640, 768]);
    expect(p.source).toContain(`OFFSETS[] = { ${offs.slice(0, 3).map((o) => `${o}ULL`).join(', ')},`);
    expect(p.source).toContain(`K = ${offs.length};`);
    expect(p.source).toContain(`SPAN = ${Math.max(...offs) + 4}ULL`);
    expect(thrown(() => emitProgram('global-latency-patterns', { l2Flush: '4096', rounds: '8' })).message).toMatch(/a real GPU's trace holds at most/);
  });

  it('refuses bad parameters with the message the simulated experiment gives', () => {
    const fermi = findPreset('fermi');
    expect(fermi).toBeDefined();
    for (const [e, raw] of [
      [pchaseFine, { stride: '130' }],
      [pchaseFine, { size: '64', stride: '128' }],
      [pchaseAverage, { sizeFrom: '32KB', sizeTo: '16KB' }],
      [pchaseAverage, { strides: '64', sizeFrom: '1KB', sizeTo: '2MB', sizeStep: '4' }],
    ] as const) {
      const sim = thrown(() => e.run(fermi!, raw, 1, () => {}));
      expect(sim).toBeInstanceOf(ExperimentError);
      const real = thrown(() => emitProgram(e.id, raw));
      expect(real).toBeInstanceOf(ExperimentError);
      expect(real.message).toBe(sim.message);
    }
    // Out of a parameter's range: the experiment's own resolver.
    expect(thrown(() => emitProgram('shared-bank-stride', { strideTo: '2000' })).message).toMatch(/parameter "strideTo" is 2000; allowed: 0 to 1024/);
  });

  it('refuses the simulated chip\'s settings and values the programs cannot measure; ignores refine with a note', () => {
    expect(thrown(() => emitProgram('pchase-average', { jitter: '2' })).message).toMatch(/parameter "jitter" does not apply to a real GPU/);
    expect(thrown(() => emitProgram('pchase-fine', { tpc: '0' })).message).toMatch(/parameter "tpc" does not apply to a real GPU/);
    expect(thrown(() => emitProgram('pchase-average', { space: 'texture' })).message).toMatch(/global memory only/);
    expect(thrown(() => emitProgram('pchase-fine', { init: 'non-uniform' })).message).toMatch(/uniform chain/);
    expect(thrown(() => emitProgram('shared-bank-stride', { mode: '8-byte' })).message).toMatch(/8-byte/);
    const p = emitProgram('shared-bank-stride', { refine: '4' });
    expect(p.notes.some((n) => n.startsWith('parameter "refine" is ignored'))).toBe(true);
    expect(p.params).not.toHaveProperty('refine');
    expect(p.params).not.toHaveProperty('jitter');
  });
});

describe('a CUDA error and the build for the GPU here', () => {
  it('a failing CUDA call prints one error line with the call, the code and CUDA\'s own name and message, then exits 3 (g++ against a stand-in cuda_runtime.h)', () => {
    const source = emitProgram('pchase-fine').source;
    const part = source.slice(source.indexOf('#include <cstdio>'), source.indexOf('static void bad_param'));
    const dir = join(tmp, 'fail-cuda');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'cuda_runtime.h'),
      `typedef int cudaError_t;
enum { cudaSuccess = 0 };
static const char* cudaGetErrorName(cudaError_t e) { return e == 2 ? "cudaErrorMemoryAllocation" : "cudaErrorLaunchFailure"; }
static const char* cudaGetErrorString(cudaError_t e) { return e == 2 ? "out of \\"memory\\"" : "unspecified launch failure"; }
static cudaError_t cudaMalloc(void** p, unsigned long n) { (void)p; (void)n; return 2; }
static cudaError_t cudaGetLastError() { return 719; }
static cudaError_t cudaDeviceSynchronize() { return 0; }
`,
    );
    writeFileSync(join(dir, 'main.cpp'), `${part}\nint main(int argc, char**) { void* d; if (argc > 1) { CHECK_LAUNCH(); } CHECK(cudaMalloc(&d, 16)); return 0; }\n`);
    execFileSync('g++', ['-I', dir, '-o', join(dir, 'main'), join(dir, 'main.cpp')], { cwd: dir });
    const run = (args: string[]) => {
      try {
        execFileSync(join(dir, 'main'), args, { encoding: 'utf8', stdio: 'pipe' });
      } catch (e) {
        return e as { status: number; stdout: string; stderr: string };
      }
      throw new Error('expected the program to fail');
    };
    const r = run([]);
    expect(r.status).toBe(3);
    expect(r.stdout).toBe('{"type":"error","call":"cudaMalloc","code":2,"name":"cudaErrorMemoryAllocation","message":"out of \\"memory\\""}\n');
    expect(r.stderr).toMatch(/^pchase-fine: CUDA call cudaMalloc\(&d, 16\) failed at line \d+: out of "memory" \(cudaErrorMemoryAllocation\)/);
    expect(JSON.parse(run(['launch']).stdout)).toEqual({ type: 'error', call: 'kernel launch', code: 719, name: 'cudaErrorLaunchFailure', message: 'unspecified launch failure' });
  });

  it('--arch below sm_70 is refused: the programs target Volta and newer', () => {
    expect(thrown(() => emitProgram('pchase-fine', {}, { arch: 'sm_61' })).message).toBe('--arch sm_61 is older than Volta (sm_70): the programs target Volta and newer');
    expect(emitProgram('pchase-fine', {}, { arch: 'sm_70' }).buildCommand).toContain('-arch=sm_70 ');
  });

  it('build.sh for native builds for the compute capability nvidia-smi gives, and stops where no GPU is visible or it is older than Volta', () => {
    const dir = join(tmp, 'native');
    const bin = join(dir, 'bin');
    mkdirSync(bin, { recursive: true });
    const p = emitProgram('pchase-fine');
    writeFileSync(join(dir, 'build.sh'), p.buildScript);
    writeFileSync(join(bin, 'nvcc'), '#!/bin/sh\necho "nvcc $*"\n', { mode: 0o755 });
    const smi = (body: string | null) => {
      rmSync(join(bin, 'nvidia-smi'), { force: true });
      if (body !== null) writeFileSync(join(bin, 'nvidia-smi'), `#!/bin/sh\n${body}\n`, { mode: 0o755 });
    };
    const build = (env: Record<string, string> = {}) => {
      try {
        return { status: 0, stdout: execFileSync('/bin/sh', [join(dir, 'build.sh')], { encoding: 'utf8', stdio: 'pipe', env: { PATH: `${bin}:/usr/bin:/bin`, ...env } }), stderr: '' };
      } catch (e) {
        return e as { status: number; stdout: string; stderr: string };
      }
    };
    smi('echo "9.0"');
    expect(build().stdout).toBe('nvcc -O2 -arch=sm_90 -o pchase-fine pchase-fine.cu\n');
    smi('echo "12.0"; echo "12.0"');
    expect(build().stdout).toBe('nvcc -O2 -arch=sm_120 -o pchase-fine pchase-fine.cu\n');
    expect(build({ ARCH: 'sm_80' }).stdout).toBe('nvcc -O2 -arch=sm_80 -o pchase-fine pchase-fine.cu\n');
    smi(null);
    const none = build();
    expect(none.status).toBe(1);
    expect(none.stdout).toBe('');
    expect(none.stderr).toMatch(/^build\.sh: no GPU visible: nvidia-smi is not on PATH .*\(nvcc -arch=native would only warn and build sm_75 code\); pass --arch sm_XX to build for a GPU elsewhere/);
    smi('echo "No devices were found"; exit 6');
    expect(build().stderr).toMatch(/no GPU visible: nvidia-smi says 'No devices were found'/);
    smi('echo "6.1"');
    const old = build();
    expect(old.status).toBe(1);
    expect(old.stderr).toMatch(/compute capability 6\.1 \(sm_61\), older than Volta \(sm_70\): the programs target Volta and newer/);
  });
});
