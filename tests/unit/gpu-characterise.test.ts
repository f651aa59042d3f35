/**
 * `gpu characterise` (src-main/cli/gpu-characterise.ts): the probes in order, each range chosen from
 * the readings before it, and the summary of what the analysers read from each probe's output. The
 * GPU's side is played by the H100 and H200 fixtures (tests/fixtures/real): each probe is answered by
 * the stored run of the same program closest to it (their sweeps differ a little from the probes'), so
 * the test holds the orchestration and the summary to the analysers, not the GPU.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { characterise, gpuCharacterise, type Probe, type ProbeRunner } from '../../src-main/cli/gpu-characterise';
import { runCli } from '../../src-main/cli/main';
import { importGpuOutput } from '../../src-sim/cuda/import';

const ROOT = resolve(__dirname, '../..');
const tmp = mkdtempSync(join(tmpdir(), 'gpulab-characterise-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const FIXTURE: Record<string, string> = {
  l1: 'avg-l1',
  'l1-carveout-max': 'avg-l1-c100',
  cold: 'fine-cold-s4',
  l2: 'avg-l2',
  tlb: 'tlb-32m-cg',
  banks: 'banks-64',
};
const text = (gpu: string, file: string): string => readFileSync(join(ROOT, 'tests/fixtures/real', gpu, `${file}.jsonl`), 'utf8');
const fake = (gpu: string, seen: Probe[], fail?: string): ProbeRunner => async (p) => {
  seen.push(p);
  if (p.name === fail) throw new Error('the program failed: cudaMalloc: cudaErrorMemoryAllocation: out of memory');
  return { text: text(gpu, FIXTURE[p.name]), seconds: 0.5 };
};
const value = (gpu: string, file: string, key: string) => importGpuOutput(text(gpu, file)).findings.find((f) => f.key.endsWith(key))?.value;

describe('gpu characterise', () => {
  it.each([
    ['h100', 50, 100],
    ['h200', 60, 120],
  ])('on the %s: probes in order, the L2 swept to twice the %i MB it reports', async (gpu, _l2, to) => {
    const seen: Probe[] = [];
    const c = await characterise(fake(gpu, seen));
    expect(seen.map((p) => p.name)).toEqual(['l1', 'l1-carveout-max', 'cold', 'l2', 'tlb', 'banks']);
    // The L1 seen (240 KB) bounds the carveout probe; the L2 probe runs to twice the L2 the device reports.
    expect(seen[1].params).toContain('sizeTo=240KB');
    expect(seen[3].params).toContain(`sizeTo=${to}MB`);
    expect(seen[4].params).toContain('sizeTo=16384MB');
    expect(c.device?.name).toMatch(/NVIDIA H[12]00/);
    const got = Object.fromEntries(c.quantities.map((x) => [x.quantity, x.value]));
    expect(got['L1 size (default carveout)']).toBe(240 * 1024);
    expect(got['L1 line (capacity against stride)']).toBe(128);
    expect(got['L1 size beside the most shared memory']).toBe(20 * 1024);
    expect(got['L1 fill unit (a cold miss every)']).toBe(32);
    expect(got['device-memory fill unit']).toBe(64);
    expect(got['shared memory cost per further conflicting access']).toBe(2);
    // Each value is what the analysers read from the probe's output.
    expect(got['L1 hit latency (index chase, 128 B stride)']).toBe(value(gpu, 'avg-l1', 's = 128 B.plateau1.latency'));
    expect(got['L2 hit latency (near partition)']).toBe(value(gpu, 'avg-l2', 's = 64 B.plateau1.latency'));
    expect(got['L2 near partition size']).toBe(value(gpu, 'avg-l2', 's = 64 B.partition.nearBytes'));
    expect(got['L1 TLB reach']).toBe(value(gpu, 'tlb-32m-cg', 'tlb.l1.reachBytes'));
    for (const x of c.quantities) expect(x.evidence.length, x.quantity).toBeGreaterThan(10);
  });

  it('a probe that fails is recorded with its reason, its quantities read "cannot tell", and the others still run', async () => {
    const seen: Probe[] = [];
    const c = await characterise(fake('h100', seen, 'cold'));
    expect(seen.map((p) => p.name)).toEqual(['l1', 'l1-carveout-max', 'cold', 'l2', 'tlb', 'banks']);
    const cold = c.probes.find((p) => p.name === 'cold')!;
    expect(cold.ok).toBe(false);
    expect(cold.error).toMatch(/cudaErrorMemoryAllocation/);
    const fill = c.quantities.find((x) => x.quantity === 'device-memory fill unit')!;
    expect(fill.value).toBe('cannot tell');
    expect(fill.evidence).toMatch(/the probe failed: .*out of memory/);
    expect(c.quantities.find((x) => x.quantity === 'L1 TLB reach')!.value).not.toBe('cannot tell');
  });

  it('--out keeps each probe\'s output and the summary; text and JSON', async () => {
    const dir = join(tmp, 'out');
    const ctx = { usage: (m: string) => new Error(m), status: null };
    const r = await gpuCharacterise({ out: dir }, 'text', ctx, fake('h200', []));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Characterisation of NVIDIA H200/);
    expect(r.stdout).toMatch(/L1 line \(capacity against stride\)\s+128 B/);
    expect(readdirSync(dir).sort()).toEqual(['banks.jsonl', 'cold.jsonl', 'l1-carveout-max.jsonl', 'l1.jsonl', 'l2.jsonl', 'summary.json', 'tlb.jsonl']);
    expect(importGpuOutput(readFileSync(join(dir, 'l2.jsonl'), 'utf8')).device.l2Bytes).toBe(60 * 2 ** 20);
    const j = JSON.parse((await gpuCharacterise({}, 'json', ctx, fake('h100', []))).stdout);
    expect(j.probes).toHaveLength(6);
  });

  it('without nvcc or a GPU it refuses in one line (exit 2) before any probe', async () => {
    const path = process.env.PATH;
    const home = process.env.CUDA_HOME;
    process.env.PATH = join(tmp, 'no-such-dir');
    process.env.CUDA_HOME = join(tmp, 'no-such-dir');
    try {
      const r = await runCli(['gpu', 'characterise'], { version: '0.0.0', readFile: (f) => readFileSync(f, 'utf8'), status: null });
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/needs nvcc/);
      expect(r.stdout).toBe('');
    } finally {
      process.env.PATH = path;
      if (home === undefined) delete process.env.CUDA_HOME;
      else process.env.CUDA_HOME = home;
    }
  });
});

describe('gpu characterise as it ran on an H200 (tests/fixtures/real/h200/characterise)', () => {
  const dir = join(ROOT, 'tests/fixtures/real/h200/characterise');
  const stored = JSON.parse(readFileSync(join(dir, 'probes.json'), 'utf8')) as { probes: Probe[] };
  const replay: ProbeRunner = async (p) => ({ text: readFileSync(join(dir, `${p.name}.jsonl`), 'utf8'), seconds: 0 });

  it('the same readings choose the same probes, with the same ranges', async () => {
    const c = await characterise(replay);
    expect(c.probes.map(({ name, experiment, params }) => ({ name, experiment, params }))).toEqual(stored.probes.map(({ name, experiment, params }) => ({ name, experiment, params })));
  });

  it('reads the H200 as its programs measured it', async () => {
    const got = Object.fromEntries((await characterise(replay)).quantities.map((x) => [x.quantity, x.value]));
    expect(got).toMatchObject({
      'L1 hit latency (index chase, 128 B stride)': 38.9,
      'L1 size (default carveout)': 240 * 1024,
      'L1 line (capacity against stride)': 128,
      'L1 size beside the most shared memory': 20 * 1024,
      'L1 fill unit (a cold miss every)': 32,
      'device-memory fill unit': 64,
      'L2 near partition size': 20 * 2 ** 20,
      'L2 size (both partitions)': 50 * 2 ** 20,
      'L1 TLB reach': 512 * 2 ** 20,
      'shared memory latency': 29.08,
      'shared memory cost per further conflicting access': 2,
    });
    expect(got['L2 hit latency (near partition)']).toBeCloseTo(288.3, 1);
    expect(got['L2 far plateau latency']).toBeCloseTo(520.9, 1);
    expect(got['device memory latency past the L2']).toBeCloseTo(668.3, 1);
  });
});
