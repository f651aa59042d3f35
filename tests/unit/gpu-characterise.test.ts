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
import { replayCharacterisation } from '../../src-sim/cuda/characterise';
import { gunzipSync } from 'node:zlib';
import { runCli } from '../../src-main/cli/main';
import { importGpuOutput } from '../../src-sim/cuda/import';

const ROOT = resolve(__dirname, '../..');
const tmp = mkdtempSync(join(tmpdir(), 'gpulab-characterise-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/**
 * The stored run that answers each probe: the same program, its sweep a little different. The pointer
 * chase and the carveouts the fixtures lack are answered by the index chase and by the carveout
 * fixture of the nearest percentage; the TLB strides the fixtures lack fail, as a probe would.
 */
const FIXTURE: Record<string, string> = {
  l1: 'avg-l1',
  'l1-pointer': 'avg-l1',
  cold: 'fine-cold-s4',
  l2: 'avg-l2',
  'l2-near-end': 'avg-l2',
  'l2-total-end': 'avg-l2',
  'tlb-2MB': 'tlb-2m-cg',
  'tlb-32MB': 'tlb-32m-cg',
  banks: 'banks-64',
};
const text = (gpu: string, file: string): string => readFileSync(join(ROOT, 'tests/fixtures/real', gpu, `${file}.jsonl`), 'utf8');
const carveoutFixture = (gpu: string, percent: number): string => {
  const have = readdirSync(join(ROOT, 'tests/fixtures/real', gpu)).flatMap((f) => /^avg-l1-c(\d+)\.jsonl$/.exec(f)?.[1] ?? []).map(Number);
  const best = have.reduce((a, x) => (Math.abs(x - percent) < Math.abs(a - percent) ? x : a), have[0]);
  return `avg-l1-c${best}`;
};
const fake = (gpu: string, seen: Probe[], fail?: string): ProbeRunner => async (p) => {
  seen.push(p);
  if (p.name === fail) throw new Error('the program failed: cudaMalloc: cudaErrorMemoryAllocation: out of memory');
  const carveout = p.params.find((x) => x.startsWith('carveout='));
  const file = carveout ? carveoutFixture(gpu, Number(carveout.slice(9))) : FIXTURE[p.name];
  if (!file) throw new Error(`the program failed: no fixture answers probe ${p.name}`);
  return { text: text(gpu, file), seconds: 0.5 };
};
const CARVEOUTS_90 = ['8KB', '16KB', '32KB', '64KB', '100KB', '132KB', '164KB', '196KB', '228KB'].map((k) => `l1-carveout-${k}`);
const TLBS = ['tlb-2MB', 'tlb-8MB', 'tlb-32MB', 'tlb-128MB', 'tlb-512MB', 'tlb-1GB'];
const ORDER = ['l1', 'l1-pointer', ...CARVEOUTS_90, 'cold', 'l2', 'l2-near-end', 'l2-total-end', ...TLBS, 'banks'];
const value = (gpu: string, file: string, key: string) => importGpuOutput(text(gpu, file)).findings.find((f) => f.key.endsWith(key))?.value;

describe('gpu characterise', () => {
  it.each([
    ['h100', 50, 100],
    ['h200', 60, 120],
  ])('on the %s: probes in order, the L2 swept to twice the %i MB it reports', async (gpu, _l2, to) => {
    const seen: Probe[] = [];
    const c = await characterise(fake(gpu, seen));
    expect(seen.map((p) => p.name)).toEqual(ORDER);
    const probe = (name: string) => seen.find((p) => p.name === name)!;
    // The L1 seen (240 KB) bounds the pointer chase (twice it) and the carveout probes (16 KB past it);
    // each capacity of compute capability 9.0 is asked for by the smallest percentage the driver rounds up to it.
    expect(probe('l1-pointer').params).toEqual(expect.arrayContaining(['chase=pointer', 'sizeTo=480KB']));
    expect(probe('l1-carveout-8KB').params).toEqual(expect.arrayContaining(['carveout=1', 'sizeTo=256KB']));
    expect(probe('l1-carveout-16KB').params).toContain('carveout=4');
    expect(probe('l1-carveout-228KB').params).toContain('carveout=86');
    // The L2 probe runs to twice the L2 the device reports; the TLB ladder to 512 elements within a quarter of the memory.
    expect(probe('l2').params).toContain(`sizeTo=${to}MB`);
    expect(probe('tlb-2MB').params).toContain('sizeTo=1GB');
    expect(probe('tlb-1GB').params).toContain(`sizeTo=${gpu === 'h100' ? 19 : 34}GB`);
    expect(c.device?.name).toMatch(/NVIDIA H[12]00/);
    const got = Object.fromEntries(c.quantities.map((x) => [x.quantity, x.value]));
    expect(got['L1 size (the smallest carveout)']).toBe(240 * 1024);
    expect(got['L1 line (capacity against stride)']).toBe(128);
    expect(got['L1 size beside 228 KB of shared memory (carveout 86 %)']).toBe(20 * 1024);
    expect(got['L1 sector (the unit a cold miss fills)']).toBe(32);
    expect(got['device-memory fill unit']).toBe(64);
    expect(got['shared memory cost per further conflicting access']).toBe(2);
    // Each value is what the analysers read from the probe's output.
    expect(got['L1 hit latency (index chase, 128 B stride)']).toBe(value(gpu, 'avg-l1', 's = 128 B.plateau1.latency'));
    expect(got['L2 hit latency (near partition)']).toBe(value(gpu, 'avg-l2', 's = 64 B.plateau1.latency'));
    expect(got['L2 near partition size']).toBe(value(gpu, 'avg-l2', 's = 64 B.partition.nearBytes'));
    expect(got['L1 TLB reach at a 32 MB stride']).toBe(value(gpu, 'tlb-32m-cg', 'tlb.l1.reachBytes'));
    // One stride answered: the entries and their coverage need two.
    expect(got['L1 TLB entries']).toBe('cannot tell');
    for (const x of c.quantities) expect(x.evidence.length, x.quantity).toBeGreaterThan(10);
  });

  it('a probe that fails is recorded with its reason, its quantities read "cannot tell", and the others still run', async () => {
    const seen: Probe[] = [];
    const c = await characterise(fake('h100', seen, 'cold'));
    expect(seen.map((p) => p.name)).toEqual(ORDER);
    const cold = c.probes.find((p) => p.name === 'cold')!;
    expect(cold.ok).toBe(false);
    expect(cold.error).toMatch(/cudaErrorMemoryAllocation/);
    const fill = c.quantities.find((x) => x.quantity === 'device-memory fill unit')!;
    expect(fill.value).toBe('cannot tell');
    expect(fill.evidence).toMatch(/the probe failed: .*out of memory/);
    expect(c.quantities.find((x) => x.quantity === 'L1 TLB reach at a 32 MB stride')!.value).not.toBe('cannot tell');
  });

  it('--out keeps each probe\'s output and the summary; text and JSON', async () => {
    const dir = join(tmp, 'out');
    const ctx = { usage: (m: string) => new Error(m), status: null };
    const r = await gpuCharacterise({ out: dir }, 'text', ctx, fake('h200', []));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Characterisation of NVIDIA H200/);
    expect(r.stdout).toMatch(/L1 line \(capacity against stride\)\s+128 B/);
    // Each probe that ran (the fixtures lack four TLB strides), the summary and the characterisation's file.
    const ran = ORDER.filter((n) => !['tlb-8MB', 'tlb-128MB', 'tlb-512MB', 'tlb-1GB'].includes(n));
    expect(readdirSync(dir).sort()).toEqual([...ran.map((n) => `${n}.jsonl`), 'characterisation.json', 'summary.json'].sort());
    const replayed = await replayCharacterisation(readFileSync(join(dir, 'characterisation.json'), 'utf8'));
    expect(replayed.characterisation.quantities.map((x) => x.value)).toEqual(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')).quantities.map((x: { value: unknown }) => x.value));
    expect(importGpuOutput(readFileSync(join(dir, 'l2.jsonl'), 'utf8')).device.l2Bytes).toBe(60 * 2 ** 20);
    const j = JSON.parse((await gpuCharacterise({}, 'json', ctx, fake('h100', []))).stdout);
    expect(j.probes).toHaveLength(ORDER.length);
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

/** The quantities whose answer is a structure (a size, a count, yes or no): the same from two runs. */
const STRUCTURAL = (q: string): boolean => !/latency/.test(q);

describe('gpu characterise as it ran on an H200, twice (tests/fixtures/real/h200/characterise)', () => {
  const dir = join(ROOT, 'tests/fixtures/real/h200/characterise');
  const file = (run: string) => gunzipSync(readFileSync(join(dir, `${run}.json.gz`))).toString('utf8');
  const replays = Promise.all(['run1', 'run2'].map((r) => replayCharacterisation(file(r))));

  it('the same readings choose the same probes, with the same ranges, as on the GPU', async () => {
    for (const { file: f, characterisation: c } of await replays) {
      expect(c.probes.map(({ name, params }) => ({ name, params }))).toEqual(f.summary.probes.map(({ name, params }) => ({ name, params })));
      expect(c.probes.every((p) => p.ok)).toBe(true);
    }
  });

  it('reads the H200 as its programs measured it', async () => {
    const [one] = await replays;
    const got = Object.fromEntries(one.characterisation.quantities.map((x) => [x.quantity, x.value]));
    expect(got).toMatchObject({
      'L1 hit latency (index chase, 128 B stride)': 38.9,
      'L1 hit latency (pointer chase, 128 B stride)': 32,
      'L1 size (the smallest carveout)': 240 * 1024,
      'L1 size (pointer chase)': 240 * 1024,
      'L1 line (capacity against stride)': 128,
      'L1 replacement (rises like LRU)': 'no',
      'L1 size beside 8 KB of shared memory (carveout 1 %)': 216 * 1024,
      'L1 size beside 16 KB of shared memory (carveout 4 %)': 148 * 1024,
      'L1 size beside 32 KB of shared memory (carveout 8 %)': 84 * 1024,
      'L1 size beside 64 KB of shared memory (carveout 15 %)': 20 * 1024,
      'L1 size beside 228 KB of shared memory (carveout 86 %)': 20 * 1024,
      'L1 sector (the unit a cold miss fills)': 32,
      'device-memory fill unit': 64,
      'L2 near partition size': 20 * 2 ** 20,
      'L1 TLB reach at a 2 MB stride': 'cannot tell',
      'L1 TLB reach at a 32 MB stride': 512 * 2 ** 20,
      'L1 TLB reach at a 1 GB stride': 16 * 2 ** 30,
      'L1 TLB entries': 16,
      'L1 TLB entry coverage': 'cannot tell',
      'shared memory latency': 29.08,
      'shared memory cost per further conflicting access': 2,
    });
    expect(got['L2 hit latency (near partition)']).toBeCloseTo(287.5, 1);
    expect(got['L2 far plateau latency']).toBeCloseTo(534.0, 1);
    expect(got['device memory latency past the L2']).toBeCloseTo(692.3, 1);
    // The ends again at 1 MB steps: the near plateau to 23 MB, the far one to 52 MB, half-way to device memory at 59 MB.
    expect(got['L2 size (both partitions)']).toBe(50 * 2 ** 20);
    expect(got['L2 near partition (1 MB steps: the last size on the near plateau)']).toBe(23 * 2 ** 20);
    expect(got['L2 near partition (1 MB steps: the last size under half-way to the far plateau)']).toBe('cannot tell');
    expect(got['L2 size (1 MB steps: the last size on the far plateau)']).toBe(52 * 2 ** 20);
    expect(got['L2 size (1 MB steps: the last size under half-way to device memory)']).toBe(59 * 2 ** 20);
    // The strides of 2 and 8 MB show no step to 1 and 4 GB: no one coverage explains them with the rest.
    const cov = one.characterisation.quantities.find((x) => x.quantity === 'L1 TLB entry coverage')!;
    expect(cov.evidence).toMatch(/2 MB shows none up to 1 GB and 8 MB shows none up to 4 GB/);
  });

  it('two runs give the same structures, and latencies within 1 %', async () => {
    const [a, b] = (await replays).map((r) => new Map(r.characterisation.quantities.map((x) => [x.quantity, x])));
    expect([...a.keys()]).toEqual([...b.keys()]);
    const differ: string[] = [];
    for (const [q, x] of a) {
      const y = b.get(q)!;
      if (STRUCTURAL(q) ? x.value !== y.value : Math.abs((x.value as number) - (y.value as number)) > 0.01 * Math.abs(x.value as number)) differ.push(q);
    }
    expect(differ).toEqual([]);
  });
});
