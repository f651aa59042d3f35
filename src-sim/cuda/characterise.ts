/**
 * A real GPU characterised as a researcher would, one probe after another, each probe's range chosen
 * from what the GPU showed before: the L1 (hit by an index chase and by a pure pointer chase, size,
 * line from capacity against stride, replacement), the L1 beside each shared-memory carveout the GPU
 * offers, the fill units of a cold trace, the L2 (near partition, far plateau, total) over twice the
 * L2 the device reports and each end it shows again at 1 MB steps, the L1 TLB at strides of 2 MB to 1 GB (its reach at each, then its entries
 * and an entry's coverage from where the step moves), shared memory and its bank conflicts.
 *
 * Pure: the probes run through a ProbeRunner (the CLI's and the lab's build and run the programs of
 * `gpu emit`; a replay answers from stored outputs), and every output is read by the analysers of
 * `gpu import`. A characterisation's file (CharacterisationFile) holds every probe's output, so that
 * importing it replays the same probes through the analysers of the version that imports it.
 */
import { importGpuOutput, ImportError, ProgramFailed, type GpuResult } from './import';
import type { Finding } from '../experiments/types';
import { CHARACTERISATION_FILE_TYPE } from './characterisation-file';

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
  /** The probe (or probes, comma-separated) it comes from. */
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

/**
 * The shared-memory capacities an SM can be configured with, per compute capability, in KB, as the
 * CUDA C++ Programming Guide lists them (sections "Compute Capability 7.x", "8.x" and "9.0", Shared
 * Memory: "the shared memory capacity can be set to ..."). The carveout probes ask for each by its
 * percentage of the largest; the driver rounds a percentage up to the next configuration.
 */
export const SHARED_CAPACITIES_KB: Readonly<Record<string, readonly number[]>> = {
  '7.0': [0, 8, 16, 32, 64, 96],
  '7.2': [0, 8, 16, 32, 64, 96],
  '7.5': [32, 64],
  '8.0': [0, 8, 16, 32, 64, 100, 132, 164],
  '8.6': [0, 8, 16, 32, 64, 100],
  '8.7': [0, 8, 16, 32, 64, 100, 132, 164],
  '8.9': [0, 8, 16, 32, 64, 100],
  '9.0': [0, 8, 16, 32, 64, 100, 132, 164, 196, 228],
};

/**
 * The carveouts to probe on a device: each capacity of its compute capability with the percentage
 * that asks for it (the smallest that the driver rounds up to it). A compute capability the table
 * does not hold gets the two ends only (0 and 100 %), each named by its percentage.
 */
export function carveoutPlan(computeCapability: string, sharedPerSM: number): { label: string; kb: number | null; percent: number }[] {
  const caps = SHARED_CAPACITIES_KB[computeCapability];
  if (!caps) return [{ label: '0 %', kb: null, percent: 0 }, { label: '100 %', kb: null, percent: 100 }];
  const max = caps[caps.length - 1];
  if (Math.abs(max * KB - sharedPerSM) > 8 * KB)
    // A device whose reported shared memory per SM is not its capability's largest: the ends only.
    return [{ label: '0 %', kb: null, percent: 0 }, { label: '100 %', kb: null, percent: 100 }];
  return caps.map((kb, i) => {
    if (i === 0) return { label: `${kb} KB`, kb, percent: 0 };
    // The smallest whole percentage whose capacity is past the configuration below.
    const below = caps[i - 1];
    let percent = Math.floor((below * 100) / max) + 1;
    while (percent < 100 && (percent * max) / 100 <= below) percent++;
    return { label: `${kb} KB`, kb, percent: Math.min(100, percent) };
  });
}

const b = (n: number): string => (n % GB === 0 ? `${n / GB}GB` : n % MB === 0 ? `${n / MB}MB` : n % KB === 0 ? `${n / KB}KB` : `${n}`);
const fmtBytes = (n: number): string => (n % GB === 0 ? `${n / GB} GB` : n % MB === 0 ? `${n / MB} MB` : n % KB === 0 ? `${n / KB} KB` : `${n} B`);
const find = (r: GpuResult | null | undefined, key: string): Finding | undefined => r?.findings.find((f) => f.key === key);
const num = (f: Finding | undefined): number | undefined => (f && typeof f.value === 'number' ? f.value : undefined);

/** The strides of the L1 TLB ladder, 2 MB to 1 GB. */
export const TLB_STRIDES = [2 * MB, 8 * MB, 32 * MB, 128 * MB, 512 * MB, 1 * GB] as const;
/** Elements each TLB sweep reaches at most (where the memory allows), and the fewest worth a sweep. */
const TLB_ELEMENTS = 512;
const TLB_MIN_ELEMENTS = 18;
/** The tlb-probes program's largest array (its sizeTo parameter's maximum). */
const TLB_MAX_BYTES = 64 * GB;

/**
 * The L1 TLB's entries and an entry's coverage from its reach at several strides. Where the stride
 * is at least an entry's coverage, each element needs an entry of its own: the step comes at the
 * same count of elements (the entries). Below it, several elements share an entry: the step comes
 * at the same array size (entries x coverage). Entries are read where the two largest strides that
 * answered agree in elements; the coverage where the strides below them agree in bytes and that
 * size over the entries falls between the strides either side.
 */
export function tlbLadder(readings: readonly { stride: number; reach: number | undefined; probe: string; sweptBytes?: number }[]): { entries: Quantity; coverage: Quantity } {
  const seen = readings.filter((r): r is { stride: number; reach: number; probe: string } => r.reach !== undefined).sort((x, y) => x.stride - y.stride);
  const probes = readings.map((r) => r.probe).join(', ');
  const list = seen.map((r) => `${fmtBytes(r.stride)}: ${fmtBytes(r.reach)} (${r.reach / r.stride} elements)`).join('; ') || 'no stride gave a reach';
  const none = (why: string, quantity: string, unit: string): Quantity => ({ quantity, value: 'cannot tell', unit, evidence: why, probe: probes, key: '' });
  const entriesQ = 'L1 TLB entries';
  const coverageQ = 'L1 TLB entry coverage';
  if (seen.length < 2) {
    const why = `reach at ${seen.length} stride${seen.length === 1 ? '' : 's'} only (${list}): entries need two strides that agree in elements`;
    return { entries: none(why, entriesQ, ''), coverage: none(why, coverageQ, 'B') };
  }
  const els = seen.map((r) => r.reach / r.stride);
  const top = els[els.length - 1];
  if (!Number.isInteger(top) || els[els.length - 2] !== top) {
    const why = `the two largest strides that answered do not step at the same count of elements (${list})`;
    return { entries: none(why, entriesQ, ''), coverage: none(why, coverageQ, 'B') };
  }
  let k = els.length - 1;
  while (k > 0 && els[k - 1] === top) k--;
  const entries: Quantity = {
    quantity: entriesQ,
    value: top,
    unit: '',
    evidence: `the step comes after ${top} elements at every stride from ${fmtBytes(seen[k].stride)} (${list})`,
    probe: probes,
    key: 'tlb.l1.entries',
  };
  const below = seen.slice(0, k);
  // A smaller stride whose sweep found no step: with entries of at most the smallest stride that
  // steps at `top` elements, its step would have come by top x that stride; a sweep past it that saw
  // none is not what such entries do.
  const silent = readings.filter((r) => r.reach === undefined && r.stride < seen[k].stride && (r.sweptBytes ?? 0) > top * seen[k].stride);
  if (silent.length)
    return {
      entries,
      coverage: none(
        `with ${top} entries of at most ${fmtBytes(seen[k].stride)} each the step would come by ${fmtBytes(top * seen[k].stride)} at any smaller stride, yet ${silent.map((r) => `${fmtBytes(r.stride)} shows none up to ${fmtBytes(r.sweptBytes!)}`).join(' and ')}: no single coverage of ${top} entries explains the strides together (${list})`,
        coverageQ,
        'B',
      ),
    };
  if (!below.length)
    return { entries, coverage: none(`every stride (the smallest ${fmtBytes(seen[0].stride)}) steps at ${top} elements: an entry covers ${fmtBytes(seen[0].stride)} or less; a smaller stride would tell (${list})`, coverageQ, 'B') };
  const bytes = below[below.length - 1].reach;
  const cov = bytes / top;
  const agree = below.every((r) => r.reach === bytes);
  const between = cov > below[below.length - 1].stride && cov <= seen[k].stride;
  if (!agree || !between || !Number.isInteger(cov))
    return {
      entries,
      coverage: none(
        `below ${fmtBytes(seen[k].stride)} the reach ${agree ? `is ${fmtBytes(bytes)}, ${fmtBytes(cov)} an entry, not between the strides either side` : 'differs from stride to stride'} (${list})`,
        coverageQ,
        'B',
      ),
    };
  return {
    entries,
    coverage: {
      quantity: coverageQ,
      value: cov,
      unit: 'B',
      evidence: `below ${fmtBytes(seen[k].stride)} the step comes at ${fmtBytes(bytes)} whatever the stride: ${fmtBytes(bytes)} over ${top} entries (${list})`,
      probe: probes,
      key: 'tlb.l1.coverage',
    },
  };
}

/** Cycles over a plateau's latency that a point may read and still be on it: 1 % of it, at least 2. */
const plateauBand = (lo: number): number => Math.max(2, 0.01 * lo);

/**
 * Where a plateau of a fine sweep ends, read against the plateau's latency from the coarser sweep
 * before it: the last size within plateauBand of it, where the sweep starts on it and, once off it,
 * does not come back.
 */
/** The curve of a fine end sweep, or why there is none to read (as a "cannot tell" quantity). */
function endCurve(quantity: string, probe: string, r: GpuResult | undefined, rec: ProbeRecord | undefined, refs: (number | undefined)[]): { none: (why: string) => Quantity; sr: GpuResult['series'][number] | null; why: string | null } {
  const none = (why: string): Quantity => ({ quantity, value: 'cannot tell', unit: 'B', evidence: why, probe, key: '' });
  const sr = r?.series[0] ?? null;
  const why = !rec ? 'the probe did not run (the sweep before it found no such end)' : !rec.ok ? `the probe failed: ${rec.error}` : !sr || refs.some((x) => x === undefined) ? 'the probe gives no curve to read' : null;
  return { none, sr, why };
}

export function plateauEnd(quantity: string, probe: string, r: GpuResult | undefined, lo: number | undefined, rec: ProbeRecord | undefined): Quantity {
  const { none, sr, why } = endCurve(quantity, probe, r, rec, [lo]);
  if (why || !sr || lo === undefined) return none(why ?? 'the probe gives no curve to read');
  const top = lo + plateauBand(lo);
  const n = sr.x.length;
  let k = 0;
  while (k < n && sr.y[k] <= top) k++;
  if (k === 0) return none(`the sweep starts off the plateau (${fmtBytes(sr.x[0])} reads ${sr.y[0].toFixed(1)} cycles, over ${top.toFixed(1)}): a sweep from a smaller size`);
  if (k === n) return none(`the sweep stays on the plateau (at most ${top.toFixed(1)} cycles) to ${fmtBytes(sr.x[n - 1])}: a wider sweep`);
  for (let j = k; j < n; j++) if (sr.y[j] <= top) return none(`the curve comes back to the plateau at ${fmtBytes(sr.x[j])} after leaving it at ${fmtBytes(sr.x[k])}`);
  return {
    quantity,
    value: sr.x[k - 1],
    unit: 'B',
    evidence: `${fmtBytes(sr.x[k - 1])} reads ${sr.y[k - 1].toFixed(1)} cycles, within ${plateauBand(lo).toFixed(1)} of the plateau's ${lo.toFixed(1)}; ${fmtBytes(sr.x[k])} reads ${sr.y[k].toFixed(1)} and every size after it more`,
    probe,
    key: `${probe}.plateauEnd`,
  };
}

/**
 * Where a rise between two plateaus of a fine sweep ends, read against the plateaus' own latencies
 * (from the coarser sweep before it): the last size whose latency is under half-way from the lower to
 * the upper, where the sweep crosses half-way once and stays above.
 */
export function midpointEnd(quantity: string, probe: string, r: GpuResult | undefined, lo: number | undefined, hi: number | undefined, rec: ProbeRecord | undefined): Quantity {
  const { none, sr, why } = endCurve(quantity, probe, r, rec, [lo, hi]);
  if (why || !sr || lo === undefined || hi === undefined || !(hi > lo)) return none(why ?? 'the probe gives no curve to read');
  const mid = (lo + hi) / 2;
  const n = sr.x.length;
  let k = 0;
  while (k < n && sr.y[k] < mid) k++;
  if (k === 0) return none(`the sweep starts above half-way (${mid.toFixed(1)} cycles): a sweep from a smaller size`);
  if (k === n) return none(`the sweep stays under half-way (${mid.toFixed(1)} cycles) to ${fmtBytes(sr.x[n - 1])}: a wider sweep`);
  for (let j = k; j < n; j++) if (sr.y[j] < mid) return none(`the curve crosses half-way (${mid.toFixed(1)} cycles) more than once (back under it at ${fmtBytes(sr.x[j])})`);
  return {
    quantity,
    value: sr.x[k - 1],
    unit: 'B',
    evidence: `${fmtBytes(sr.x[k - 1])} reads ${sr.y[k - 1].toFixed(1)} cycles and ${fmtBytes(sr.x[k])} ${sr.y[k].toFixed(1)}: the curve passes half-way between ${lo.toFixed(1)} and ${hi.toFixed(1)} cycles there and stays above`,
    probe,
    key: `${probe}.midpoint`,
  };
}

/**
 * Runs the probes in order, each range chosen from the readings before it. A probe that fails is
 * recorded with its reason and its quantities read "cannot tell"; the others still run.
 */
export async function characterise(runner: ProbeRunner, status: ((line: string) => void) | null = null): Promise<Characterisation> {
  const probes: ProbeRecord[] = [];
  const results = new Map<string, GpuResult>();
  let device: GpuResult['device'] | null = null;
  let planned = 0;
  const step = async (p: Probe): Promise<GpuResult | null> => {
    planned++;
    status?.(`characterise: probe ${planned}: ${p.name} (${p.experiment} ${p.params.join(' ')})`);
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
  const dev = (): GpuResult['device'] | null => device as GpuResult['device'] | null;

  // 1. The L1 by an index chase: strides below, at and above a 128 B line, to 512 KB; to 2 MB where its end is not in view.
  let l1 = await step({ name: 'l1', experiment: 'pchase-average', params: ['strides=32,128,256,512', 'sizeFrom=8KB', 'sizeTo=512KB', 'sizeStep=8KB'] });
  const l1Size0 = num(find(l1, 's = 128 B.level1.sizeBytes'));
  if (l1 && (l1Size0 === undefined || l1Size0 >= 504 * KB))
    l1 = (await step({ name: 'l1-wide', experiment: 'pchase-average', params: ['strides=32,128,256,512', 'sizeFrom=16KB', 'sizeTo=2MB', 'sizeStep=16KB'] })) ?? l1;
  const l1Size = num(find(l1, 's = 128 B.level1.sizeBytes'));
  // 2. The same L1 by a pure pointer chase (one load a step): the hit without the index arithmetic.
  const l1To = Math.min(Math.max(64 * KB, 2 * (l1Size ?? 256 * KB)), 2 * MB);
  await step({ name: 'l1-pointer', experiment: 'pchase-average', params: ['strides=128', 'sizeFrom=8KB', `sizeTo=${b(Math.ceil(l1To / (8 * KB)) * 8 * KB)}`, 'sizeStep=8KB', 'chase=pointer'] });
  // 3. The L1 beside each shared-memory capacity the GPU offers, to the size just found (4 KB steps).
  const d0 = dev();
  const smallTo = Math.min(Math.max(64 * KB, (l1Size ?? 256 * KB) + 16 * KB), 512 * KB);
  const plan = d0 ? carveoutPlan(d0.computeCapability, d0.sharedPerSM) : [];
  const carveouts: { label: string; name: string }[] = [];
  for (const c of plan.filter((x) => x.percent > 0)) {
    const name = `l1-carveout-${c.kb === null ? `${c.percent}pct` : `${c.kb}KB`}`;
    carveouts.push({ label: c.kb === null ? `the carveout of ${c.percent} %` : `${c.label} of shared memory (carveout ${c.percent} %)`, name });
    await step({ name, experiment: 'pchase-average', params: ['strides=128', 'sizeFrom=4KB', `sizeTo=${b(smallTo)}`, 'sizeStep=4KB', `carveout=${c.percent}`] });
  }
  // 4. A cold trace at 4 B steps: the unit an L1 miss fills (its sector), and device memory's.
  await step({ name: 'cold', experiment: 'pchase-fine', params: ['size=64KB', 'stride=4', 'warmup=false', 'iterations=2048'] });
  // 5. The L2 over twice what the device reports (at least 8 MB), in about 24 steps of a whole MB.
  const l2Bytes = dev()?.l2Bytes ?? 0;
  const l2To = Math.min(Math.max(8 * MB, Math.ceil((2 * l2Bytes) / MB) * MB), 512 * MB);
  const l2Step = Math.max(MB, Math.round(l2To / 24 / MB) * MB);
  await step({ name: 'l2', experiment: 'pchase-average', params: ['strides=64', `sizeFrom=${b(2 * l2Step)}`, `sizeTo=${b(l2To)}`, `sizeStep=${b(l2Step)}`] });
  // 5b. Each end the L2 probe found, again at 1 MB steps: from a step before it to two after.
  const l2r = results.get('l2');
  const ends: { name: string; from: number; lo: number | undefined; hi: number | undefined }[] = [
    { name: 'l2-near-end', from: num(find(l2r, 's = 64 B.partition.nearBytes')) ?? 0, lo: num(find(l2r, 's = 64 B.plateau1.latency')), hi: num(find(l2r, 's = 64 B.partition.farLatency')) },
    { name: 'l2-total-end', from: num(find(l2r, 's = 64 B.partition.totalBytes')) ?? 0, lo: num(find(l2r, 's = 64 B.partition.farLatency')), hi: num(find(l2r, 's = 64 B.partition.dramLatency')) },
  ];
  for (const e of ends)
    if (e.from > 0 && e.lo !== undefined && e.hi !== undefined && l2Step > MB)
      await step({ name: e.name, experiment: 'pchase-average', params: ['strides=64', `sizeFrom=${b(Math.max(MB, e.from - l2Step))}`, `sizeTo=${b(e.from + 2 * l2Step)}`, 'sizeStep=1MB'] });
  // 6. The L1 TLB, L1 bypassed, at strides of 2 MB to 1 GB: up to 512 elements each, within a quarter
  //    of the memory (the double-stride control spans twice the array) and the program's 64 GB.
  const mem = dev()?.globalBytes ?? 0;
  const tlbRuns: { stride: number; probe: string; sweptBytes: number }[] = [];
  for (const s of TLB_STRIDES) {
    const elements = Math.min(TLB_ELEMENTS, Math.floor(Math.min(mem / 4, TLB_MAX_BYTES) / s));
    if (elements < TLB_MIN_ELEMENTS) continue;
    const name = `tlb-${b(s)}`;
    tlbRuns.push({ stride: s, probe: name, sweptBytes: elements * s });
    await step({ name, experiment: 'tlb-probes', params: ['space=global-cg', `stride=${b(s)}`, `sizeFrom=${b(s)}`, `sizeTo=${b(elements * s)}`, `sizeStep=${b(s)}`] });
  }
  // 7. Shared memory and its bank conflicts.
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
  take('L1 hit latency (pointer chase, 128 B stride)', 'l1-pointer', 's = 128 B.plateau1.latency', 'cycles');
  take('L1 size (the smallest carveout)', l1Name, 's = 128 B.level1.sizeBytes', 'B');
  take('L1 size (pointer chase)', 'l1-pointer', 's = 128 B.level1.sizeBytes', 'B');
  take('L1 line (capacity against stride)', l1Name, (r) => r.findings.find((f) => f.key.endsWith('line.fromStrides')), 'B');
  take('L1 replacement (rises like LRU)', l1Name, 's = 128 B.level1.regular');
  for (const c of carveouts) take(`L1 size beside ${c.label}`, c.name, 's = 128 B.level1.sizeBytes', 'B');
  take('L1 sector (the unit a cold miss fills)', 'cold', 'trace.level2.everyBytes', 'B');
  take('device-memory fill unit', 'cold', 'trace.level3.everyBytes', 'B');
  take('L2 hit latency (near partition)', 'l2', 's = 64 B.plateau1.latency', 'cycles');
  take('L2 near partition size', 'l2', 's = 64 B.partition.nearBytes', 'B');
  take('L2 far plateau latency', 'l2', 's = 64 B.partition.farLatency', 'cycles');
  take('L2 size (both partitions)', 'l2', 's = 64 B.partition.totalBytes', 'B');
  take('device memory latency past the L2', 'l2', 's = 64 B.partition.dramLatency', 'cycles');
  for (const e of ends) {
    const near = e.name === 'l2-near-end';
    const what = near ? 'L2 near partition' : 'L2 size';
    const rec = probes.find((p) => p.name === e.name);
    q.push(plateauEnd(`${what} (1 MB steps: the last size on the ${near ? 'near' : 'far'} plateau)`, e.name, results.get(e.name), e.lo, rec));
    q.push(midpointEnd(`${what} (1 MB steps: the last size under half-way to ${near ? 'the far plateau' : 'device memory'})`, e.name, results.get(e.name), e.lo, e.hi, rec));
  }
  for (const t of tlbRuns) take(`L1 TLB reach at a ${fmtBytes(t.stride)} stride`, t.probe, 'tlb.l1.reachBytes', 'B');
  // A sweep that failed says nothing of where a step is: only the ones that ran count as swept.
  const ladder = tlbLadder(
    tlbRuns.map((t) => ({ stride: t.stride, reach: num(find(results.get(t.probe), 'tlb.l1.reachBytes')), probe: t.probe, ...(results.has(t.probe) ? { sweptBytes: t.sweptBytes } : {}) })),
  );
  q.push(ladder.entries, ladder.coverage);
  take('shared memory latency', 'banks', 'shared.base', 'cycles');
  take('shared memory cost per further conflicting access', 'banks', 'shared.perConflict', 'cycles');
  return { device, probes, quantities: q };
}

/** A value as the summary prints it. */
export function quantityText(x: Pick<Quantity, 'value' | 'unit'>): string {
  if (typeof x.value !== 'number') return String(x.value);
  if (x.unit === 'B') return fmtBytes(x.value);
  return `${x.value}${x.unit ? ` ${x.unit}` : ''}`;
}

/** The summary's first line: the device and what it reports. */
export function characterisationTitle(c: Pick<Characterisation, 'device'>): string {
  const d = c.device;
  return d
    ? `Characterisation of ${d.name} (compute capability ${d.computeCapability}, ${d.sms} SMs at ${(d.clockKHz / 1000).toFixed(0)} MHz, L2 ${(d.l2Bytes / MB).toFixed(1)} MB reported)`
    : 'Characterisation: no probe ran';
}

/** The summary as text: the device, one line a quantity, one line a probe. */
export function characterisationText(c: Characterisation): string {
  const width = Math.max(...c.quantities.map((x) => x.quantity.length));
  const rows = c.quantities.map((x) => `${x.quantity.padEnd(width)}  ${quantityText(x).padEnd(14)}  ${x.probe}: ${x.evidence}`);
  const runs = c.probes.map((p) => `  ${p.name}: ${p.experiment} ${p.params.join(' ')}  ${p.ok ? `${p.seconds.toFixed(1)} s` : `failed: ${p.error}`}`);
  return [characterisationTitle(c), '', ...rows, '', 'Probes:', ...runs].join('\n') + '\n';
}

/** The file a characterisation is kept and imported as: the summary and every probe's output. */
export interface CharacterisationFile {
  type: 'gpulab-characterisation';
  format: 1;
  /** When the probes ran (ms since the epoch). */
  measuredAt: number;
  summary: Characterisation;
  /** Each probe's JSON-lines output, by probe name. */
  outputs: Record<string, string>;
}

export { CHARACTERISATION_FILE_TYPE, isCharacterisationFile } from './characterisation-file';

/**
 * Reads a characterisation's file and replays its probes through today's analysers: the probes the
 * readings choose must be the file's (else the file is refused), and the summary is made again.
 */
export async function replayCharacterisation(text: string): Promise<{ file: CharacterisationFile; characterisation: Characterisation }> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new ImportError(`not a characterisation file: ${(e as Error).message}`);
  }
  const f = raw as Partial<CharacterisationFile>;
  if (!f || typeof f !== 'object' || f.type !== CHARACTERISATION_FILE_TYPE) throw new ImportError('not a characterisation file: its "type" is not "gpulab-characterisation"');
  if (f.format !== 1) throw new ImportError(`a characterisation file of format ${String(f.format)}; this version reads format 1`);
  if (typeof f.measuredAt !== 'number' || !Number.isFinite(f.measuredAt)) throw new ImportError('a characterisation file without its "measuredAt" time');
  const outputs = f.outputs;
  if (!outputs || typeof outputs !== 'object') throw new ImportError('a characterisation file without the probes\' "outputs"');
  const stored = f.summary?.probes;
  if (!Array.isArray(stored)) throw new ImportError('a characterisation file without its summary\'s probes');
  const failed = new Map(stored.filter((p) => p && p.ok === false).map((p) => [p.name, String(p.error ?? 'failed')]));
  const seconds = new Map(stored.map((p) => [p.name, typeof p.seconds === 'number' ? p.seconds : 0]));
  let asked = 0;
  const replay: ProbeRunner = async (p) => {
    // The readings must choose the file's probes, in its order: refused at the first that differs.
    const want = (stored as Probe[])[asked++];
    if (!want || want.name !== p.name || (want.params ?? []).join(' ') !== p.params.join(' '))
      throw new NoProbeCanRun(
        new ImportError(
          `the file's probes (${stored.map((x) => x.name).join(', ')}) are not the ones its readings choose here: probe ${asked} is ${p.name} (${p.params.join(' ')}), the file's ${want ? `${want.name} (${(want.params ?? []).join(' ')})` : 'none'}; it was made by another version of the probes`,
        ),
      );
    const out = (outputs as Record<string, unknown>)[p.name];
    if (typeof out === 'string') return { text: out, seconds: seconds.get(p.name) ?? 0 };
    throw new Error(failed.get(p.name) ?? `the file holds no output of probe "${p.name}"`);
  };
  let c: Characterisation;
  try {
    c = await characterise(replay);
  } catch (e) {
    if (e instanceof NoProbeCanRun && e.cause instanceof ImportError) throw e.cause;
    throw e;
  }
  // Each probe asked was the file's in turn (the runner checked it): what is left is a file holding more.
  if (asked !== stored.length)
    throw new ImportError(
      `the file's probes (${stored.map((p) => p.name).join(', ')}) are not the ones its readings choose here (${c.probes.map((p) => p.name).join(', ')}): it was made by another version of the probes`,
    );
  return { file: f as CharacterisationFile, characterisation: c };
}
