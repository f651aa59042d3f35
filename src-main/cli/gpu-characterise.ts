/**
 * `gpulab gpu characterise`: one command that probes the GPU here the way a researcher does, each
 * probe's range chosen from what the GPU showed before: the L1 (hit, size, line from capacity against
 * stride), the L1 beside the most shared memory, the fill units of a cold trace, the L2 (near
 * partition, far plateau, total) over twice the L2 the device reports, the L1 TLB, shared memory and
 * its bank conflicts. Every probe is a program of `gpu emit`, built and run under its own time limit
 * (cli/gpu.ts, buildAndRun), its output imported by the same analysers as `gpu import`. The result is
 * one summary (every quantity, its value or "cannot tell", the evidence and the probe it came from)
 * and, with --out, each probe's JSON lines beside summary.json, to import or keep as fixtures.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { importGpuOutput, ImportError, ProgramFailed, type GpuResult } from '../../src-sim/cuda/import';
import type { Finding } from '../../src-sim/experiments/types';
import { buildAndRun, timeoutSeconds, type GpuCliOutput, type GpuContext, type GpuOptions } from './gpu';

const KB = 1024;
const MB = 1024 * KB;
const GB = 1024 * MB;

/** One probe: its name, the program (experiment) and its parameters (name=value items). */
export interface Probe {
  name: string;
  experiment: string;
  params: string[];
}

/** Runs one probe on the GPU: its JSON-lines output, or an Error whose message says why not. */
export type ProbeRunner = (probe: Probe) => Promise<{ text: string; seconds: number }>;

/** Thrown by a runner when no probe can run here (no nvcc, no GPU, a GPU too old): characterise stops. */
export class NoProbeCanRun extends Error {
  constructor(override readonly cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

/** One characterised quantity. */
export interface Quantity {
  quantity: string;
  value: number | string;
  unit: string;
  evidence: string;
  /** The probe and finding it comes from ("" where no probe ran). */
  probe: string;
  key: string;
}

export interface ProbeRecord extends Probe {
  ok: boolean;
  seconds: number;
  error?: string;
}

export interface Characterisation {
  device: GpuResult['device'] | null;
  probes: ProbeRecord[];
  quantities: Quantity[];
}

const b = (n: number): string => (n % MB === 0 ? `${n / MB}MB` : n % KB === 0 ? `${n / KB}KB` : `${n}`);
const find = (r: GpuResult | null, key: string): Finding | undefined => r?.findings.find((f) => f.key === key);
const num = (f: Finding | undefined): number | undefined => (f && typeof f.value === 'number' ? f.value : undefined);

/**
 * Runs the probes in order, each range chosen from the readings before it. A probe that fails is
 * recorded with its reason and its quantities read "cannot tell"; the others still run.
 */
export async function characterise(runner: ProbeRunner, status: ((line: string) => void) | null = null): Promise<Characterisation> {
  const probes: ProbeRecord[] = [];
  const results = new Map<string, GpuResult>();
  let device: GpuResult['device'] | null = null;
  const step = async (p: Probe): Promise<GpuResult | null> => {
    status?.(`characterise: ${p.name} (${p.experiment} ${p.params.join(' ')})`);
    try {
      const out = await runner(p);
      const r = importGpuOutput(out.text);
      device ??= r.device;
      results.set(p.name, r);
      probes.push({ ...p, ok: true, seconds: out.seconds });
      return r;
    } catch (e) {
      if (e instanceof NoProbeCanRun) throw e;
      const why = e instanceof ImportError || e instanceof ProgramFailed || e instanceof Error ? e.message : String(e);
      probes.push({ ...p, ok: false, seconds: 0, error: why });
      status?.(`characterise: ${p.name} failed: ${why}`);
      return null;
    }
  };

  // 1. The L1: strides below, at and above a 128 B line, to 512 KB; to 2 MB where its end is not in view.
  let l1 = await step({ name: 'l1', experiment: 'pchase-average', params: ['strides=32,128,256,512', 'sizeFrom=8KB', 'sizeTo=512KB', 'sizeStep=8KB'] });
  const l1Size0 = num(find(l1, 's = 128 B.level1.sizeBytes'));
  if (l1 && (l1Size0 === undefined || l1Size0 >= 504 * KB))
    l1 = (await step({ name: 'l1-wide', experiment: 'pchase-average', params: ['strides=32,128,256,512', 'sizeFrom=16KB', 'sizeTo=2MB', 'sizeStep=16KB'] })) ?? l1;
  const l1Size = num(find(l1, 's = 128 B.level1.sizeBytes'));
  // 2. The L1 beside the most shared memory (carveout 100 %), up to the size just found.
  const smallTo = Math.min(Math.max(64 * KB, l1Size ?? 256 * KB), 256 * KB);
  await step({ name: 'l1-carveout-max', experiment: 'pchase-average', params: ['strides=128', 'sizeFrom=4KB', `sizeTo=${b(smallTo)}`, 'sizeStep=4KB', 'carveout=100'] });
  // 3. A cold trace at 4 B steps: the unit an L1 miss fills, and device memory's.
  await step({ name: 'cold', experiment: 'pchase-fine', params: ['size=64KB', 'stride=4', 'warmup=false', 'iterations=2048'] });
  // 4. The L2 over twice what the device reports (at least 8 MB), in about 24 steps of a whole MB.
  const l2Bytes = device ? (device as GpuResult['device']).l2Bytes : 0;
  const l2To = Math.min(Math.max(8 * MB, Math.ceil((2 * l2Bytes) / MB) * MB), 512 * MB);
  const l2Step = Math.max(MB, Math.round(l2To / 24 / MB) * MB);
  await step({ name: 'l2', experiment: 'pchase-average', params: ['strides=64', `sizeFrom=${b(2 * l2Step)}`, `sizeTo=${b(l2To)}`, `sizeStep=${b(l2Step)}`] });
  // 5. The L1 TLB: one element every 32 MB (an L2 TLB entry of Volta to Hopper), L1 bypassed, to 16 GB or half the memory.
  const mem = device ? (device as GpuResult['device']).globalBytes : 0;
  const tlbTo = Math.max(1 * GB, Math.min(16 * GB, Math.floor(mem / 2 / (32 * MB)) * 32 * MB));
  await step({ name: 'tlb', experiment: 'tlb-probes', params: ['space=global-cg', 'stride=32MB', 'sizeFrom=32MB', `sizeTo=${b(tlbTo)}`, 'sizeStep=32MB'] });
  // 6. Shared memory and its bank conflicts.
  await step({ name: 'banks', experiment: 'shared-bank-stride', params: ['strideFrom=0', 'strideTo=64'] });

  const l1Name = results.has('l1-wide') ? 'l1-wide' : 'l1';
  const q: Quantity[] = [];
  const take = (quantity: string, probe: string, key: string | ((r: GpuResult) => Finding | undefined), unit = ''): void => {
    const r = results.get(probe) ?? null;
    const f = r ? (typeof key === 'string' ? find(r, key) : key(r)) : undefined;
    const rec = probes.find((p) => p.name === probe);
    const why = !rec ? 'the probe did not run' : !rec.ok ? `the probe failed: ${rec.error}` : f ? f.evidence : 'the probe gives no such finding';
    q.push({ quantity, value: f ? f.value : 'cannot tell', unit: f?.unit ?? unit, evidence: why, probe, key: f?.key ?? (typeof key === 'string' ? key : '') });
  };
  take('L1 hit latency (index chase, 128 B stride)', l1Name, 's = 128 B.plateau1.latency', 'cycles');
  take('L1 size (default carveout)', l1Name, 's = 128 B.level1.sizeBytes', 'B');
  take('L1 line (capacity against stride)', l1Name, (r) => r.findings.find((f) => f.key.endsWith('line.fromStrides')), 'B');
  take('L1 replacement (rises like LRU)', l1Name, 's = 128 B.level1.regular');
  take('L1 size beside the most shared memory', 'l1-carveout-max', 's = 128 B.level1.sizeBytes', 'B');
  take('L1 fill unit (a cold miss every)', 'cold', 'trace.level2.everyBytes', 'B');
  take('device-memory fill unit', 'cold', 'trace.level3.everyBytes', 'B');
  take('L2 hit latency (near partition)', 'l2', 's = 64 B.plateau1.latency', 'cycles');
  take('L2 near partition size', 'l2', 's = 64 B.partition.nearBytes', 'B');
  take('L2 far plateau latency', 'l2', 's = 64 B.partition.farLatency', 'cycles');
  take('L2 size (both partitions)', 'l2', 's = 64 B.partition.totalBytes', 'B');
  take('device memory latency past the L2', 'l2', 's = 64 B.partition.dramLatency', 'cycles');
  take('L1 TLB reach', 'tlb', 'tlb.l1.reachBytes', 'B');
  take('shared memory latency', 'banks', 'shared.base', 'cycles');
  take('shared memory cost per further conflicting access', 'banks', 'shared.perConflict', 'cycles');
  return { device, probes, quantities: q };
}

/** The summary as text: the device, one line a quantity, one line a probe. */
export function characterisationText(c: Characterisation): string {
  const d = c.device;
  const head = d
    ? `Characterisation of ${d.name} (compute capability ${d.computeCapability}, ${d.sms} SMs at ${(d.clockKHz / 1000).toFixed(0)} MHz, L2 ${(d.l2Bytes / MB).toFixed(1)} MB reported)`
    : 'Characterisation: no probe ran';
  const fmt = (x: Quantity): string => {
    if (typeof x.value !== 'number') return String(x.value);
    if (x.unit === 'B') return x.value % MB === 0 ? `${x.value / MB} MB` : x.value % KB === 0 ? `${x.value / KB} KB` : `${x.value} B`;
    return `${x.value}${x.unit ? ` ${x.unit}` : ''}`;
  };
  const width = Math.max(...c.quantities.map((x) => x.quantity.length));
  const rows = c.quantities.map((x) => `${x.quantity.padEnd(width)}  ${fmt(x).padEnd(14)}  ${x.probe}: ${x.evidence}`);
  const runs = c.probes.map((p) => `  ${p.name}: ${p.experiment} ${p.params.join(' ')}  ${p.ok ? `${p.seconds.toFixed(1)} s` : `failed: ${p.error}`}`);
  return [head, '', ...rows, '', 'Probes:', ...runs].join('\n') + '\n';
}

export interface CharacteriseOptions extends GpuOptions {
  'probe-timeout'?: string;
}

/** gpu characterise [--arch sm_XX] [--probe-timeout s] [--out <dir>] [--format text|json] */
export async function gpuCharacterise(v: CharacteriseOptions, format: string, ctx: GpuContext, runner?: ProbeRunner): Promise<GpuCliOutput> {
  const timeoutS = timeoutSeconds(v['probe-timeout'], ctx, 300, '--probe-timeout');
  const texts = new Map<string, string>();
  const run: ProbeRunner =
    runner ??
    (async (p) => {
      let r: Awaited<ReturnType<typeof buildAndRun>>;
      try {
        r = await buildAndRun(p.experiment, p.params, v.arch, timeoutS, ctx, 'gpu characterise');
      } catch (e) {
        throw new NoProbeCanRun(e); // bad input, no nvcc or no usable GPU: the same for every probe
      }
      if (!r.ok) throw new Error(r.out.stderr.replace(/^gpulab: error: /, '').trim());
      return { text: r.text, seconds: r.seconds };
    });
  const recording: ProbeRunner = async (p) => {
    const out = await run(p);
    texts.set(p.name, out.text);
    return out;
  };
  let c: Characterisation;
  try {
    c = await characterise(recording, ctx.status);
  } catch (e) {
    if (e instanceof NoProbeCanRun) throw e.cause;
    throw e;
  }
  if (v.out !== undefined && v.out.trim() !== '') {
    const dir = resolve(v.out);
    mkdirSync(dir, { recursive: true });
    for (const [name, text] of texts) writeFileSync(join(dir, `${name}.jsonl`), text);
    writeFileSync(join(dir, 'summary.json'), JSON.stringify(c, null, 2) + '\n');
  }
  const out = format === 'json' ? JSON.stringify(c, null, 2) + '\n' : characterisationText(c);
  const failedAll = c.probes.length > 0 && c.probes.every((p) => !p.ok);
  return { code: failedAll ? 1 : 0, stdout: out, stderr: failedAll ? `gpulab: error: every probe failed; the first: ${c.probes[0].error}\n` : '' };
}
