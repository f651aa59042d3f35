/**
 * Reading a real GPU's output: the JSON lines a generated program prints, validated line by line
 * (zod), then handed to the same analysers the simulated experiment calls. Pure: it takes text.
 */
import { z } from 'zod';
import { analyseAverageCurve, noiseSigma } from '../analysis/average-curve';
import { type StrideCurve, sweepPlateauFindings } from '../analysis/plateaus';
import { analyseBanks, bankFindings, degreeColumn, WARP, type PairProbe } from '../analysis/banks';
import { isPeriodic, type ChaseRecord } from '../analysis/structure';
import { classifyRises, tlbLevelsOf, type ElementCurve } from '../analysis/tlb';
import { latencyLevels } from '../analysis/levels';
import { PATTERNS, patternStep, patternTable } from '../experiments/global-latency-patterns';
import { cannotTell } from '../analysis/cannot-tell';
import { formatBytes } from '../experiments/params';
import { traversal } from '../experiments/pchase';
import { coldFillFindings, mergeDeviceMemory, traceFindings } from '../experiments/pchase-fine';
import type { ExperimentResult, Finding, ParamValues, Series, Table } from '../experiments/types';
import { FORMAT_VERSION } from './common';
import { checkGpuParams, tlbReachPlan } from './emit';
import { REACH_CURVES } from './programs';
import { hardwareParams, resolveGpuParams } from './params';
import { jsonErrorWhere } from '../json-error';

/** A malformed output file: the message names the line. */
export class ImportError extends Error {
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(line === undefined ? message : `line ${line}: ${message}`);
    this.name = 'ImportError';
  }
}

/**
 * The program's own error line: it stopped on a CUDA error or refused its parameters. `reason` is the
 * message without the line ("the program failed: cudaMalloc: cudaErrorMemoryAllocation: out of memory").
 */
export class ProgramFailed extends ImportError {
  constructor(
    readonly failure: ProgramErrorLine,
    readonly reason: string,
    line: number,
  ) {
    super(reason, line);
    this.name = 'ProgramFailed';
  }

  /** A CUDA error (not a refused parameter). */
  get cuda(): boolean {
    return 'call' in this.failure || this.failure.exitCode !== 2;
  }
}

/** The words of a program's error line. */
export function failureReason(e: ProgramErrorLine): string {
  if ('call' in e) return `the program failed: ${e.call}: ${e.name}: ${e.message}`;
  return e.exitCode === 2 ? `the program stopped with an error (exit code ${e.exitCode}): ${e.message}` : `the program failed (exit code ${e.exitCode}): ${e.message}`;
}

/** Characters a line of a program's output may hold: its longest, a trace line of 1024 accesses, is about 16 KB. */
export const MAX_LINE_CHARS = 1024 * 1024;

/** The first well-formed error line of a program's output, wherever it is (before the device line too), or null. */
export function programFailure(text: string): ProgramFailed | null {
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    if (raw.length > MAX_LINE_CHARS || !raw.includes('"error"')) continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      continue;
    }
    const r = ErrorLine.safeParse(value);
    if (r.success) return new ProgramFailed(r.data, failureReason(r.data), i + 1);
  }
  return null;
}

const int = z.number().int();
const count = int.nonnegative();

/** The device's properties as a program prints them (the `device` line); a stored real run keeps them too (run-record.ts). */
export const DEVICE_FIELDS = {
  name: z.string().min(1).max(200),
  computeCapability: z.string().regex(/^\d+\.\d+$/),
  sms: int.positive(),
  /** The SM clock rate attribute, kHz. */
  clockKHz: count,
  l2Bytes: count,
  sharedPerBlock: count,
  sharedPerBlockOptin: count,
  sharedPerSM: count,
  globalBytes: count,
  /** CUDA's integers: 13000 is 13.0. */
  driverVersion: count,
  runtimeVersion: count,
};
const DeviceLine = z.strictObject({ type: z.literal('device'), ...DEVICE_FIELDS });
const ClockLine = z.strictObject({ type: z.literal('clock'), overheadCycles: count, min: count, max: count, samples: int.positive() });
const PROGRAM_EXPERIMENTS = ['pchase-average', 'pchase-fine', 'shared-bank-stride', 'tlb-probes', 'global-latency-patterns'] as const;
const ParamsLine = z.strictObject({
  type: z.literal('params'),
  experiment: z.enum(PROGRAM_EXPERIMENTS),
  format: int,
  params: z.record(z.string(), z.union([z.number(), z.string(), z.boolean(), z.array(z.number())])),
});
const AveragePoint = z.strictObject({
  type: z.literal('point'),
  stride: int.positive(),
  size: int.positive(),
  loads: int.positive(),
  cycles: count,
  cycles2: count,
  latency: z.number(),
  load: z.enum(['ld.global.ca', 'ld.global.cg']),
});
const ReachPoint = z.strictObject({
  type: z.literal('point'),
  curve: z.enum(REACH_CURVES),
  elements: int.positive(),
  stride: int.positive(),
  size: int.positive(),
  loads: int.positive(),
  cycles: count,
  cycles2: count,
  latency: z.number(),
  load: z.enum(['ld.global.ca', 'ld.global.cg']),
});
const BankPoint = z
  .strictObject({
  type: z.literal('point'),
  probe: z.enum(['sweep', 'threads', 'pair-search', 'pair']),
  stride: count.optional(),
  threads: int.min(1).max(WARP).optional(),
  partner: count.optional(),
  thread: count.optional(),
  pair: z.tuple([count, count]).optional(),
  second: int.min(1).max(WARP - 1).optional(),
  accesses: int.positive(),
  words: z.array(int.min(-1)).length(WARP),
  cycles: z.array(count).min(2),
  cycles2: z.array(count).min(2),
  latency: z.number(),
  })
  .refine((p) => p.cycles.length === p.cycles2.length, { message: 'cycles and cycles2 differ in length' });
const TraceLine = z
  .strictObject({ type: z.literal('trace'), from: count, load: z.enum(['ld.global.ca', 'ld.global.cg']), index: z.array(count), cycles: z.array(count) })
  .refine((t) => t.index.length === t.cycles.length, { message: 'index and cycles differ in length' });
const NoteLine = z.strictObject({ type: z.literal('note'), text: z.string() });
/** A CUDA call that failed: the call, CUDA's error code, name (cudaGetErrorName) and message (cudaGetErrorString). */
const CudaErrorLine = z.strictObject({ type: z.literal('error'), call: z.string().max(200), code: int, name: z.string().max(200), message: z.string().max(2000) });
/** A parameter the program refused (exit code 2), or a CUDA error as programs before the call/name form wrote it (exit code 3). */
const StopLine = z.strictObject({ type: z.literal('error'), experiment: z.string(), exitCode: int, message: z.string() });
const ErrorLine = z.union([CudaErrorLine, StopLine]);
export type ProgramErrorLine = z.infer<typeof ErrorLine>;
const EndLine = z.strictObject({ type: z.literal('end'), version: int, experiment: z.string(), records: count });

export type DeviceInfo = z.infer<typeof DeviceLine>;
export type AveragePointLine = z.infer<typeof AveragePoint>;
export type BankPointLine = z.infer<typeof BankPoint>;
export type ReachPointLine = z.infer<typeof ReachPoint>;
export type TraceChunk = z.infer<typeof TraceLine>;

/** One program's output, validated. */
export interface GpuOutput {
  experiment: 'pchase-average' | 'pchase-fine' | 'shared-bank-stride' | 'tlb-probes' | 'global-latency-patterns';
  device: DeviceInfo;
  clockOverhead: number;
  /** The experiment's parameters, resolved and checked as a simulated run checks them. */
  params: ParamValues;
  averagePoints: AveragePointLine[];
  reachPoints: ReachPointLine[];
  bankPoints: BankPointLine[];
  trace: { index: number[]; cycles: number[]; load: string } | null;
  notes: string[];
}

const quoted = (keys: readonly PropertyKey[]): string => keys.map((k) => `"${String(k)}"`).join(', ');

/** What is wrong with a line, in words: the fields it lacks, those it should not have, then the first others. */
function issueText(e: z.ZodError, value: unknown): string {
  const has = (k: PropertyKey) => typeof value === 'object' && value !== null && Object.hasOwn(value, k);
  const missing = e.issues.filter((i) => i.path.length === 1 && !has(i.path[0]!)).map((i) => i.path[0]!);
  const unknown = e.issues.flatMap((i) => (i.code === 'unrecognized_keys' ? i.keys : []));
  const parts: string[] = [];
  if (missing.length) parts.push(`it lacks ${missing.length > 4 ? `${quoted(missing.slice(0, 4))} and ${missing.length - 4} more fields` : quoted(missing)}`);
  if (unknown.length) parts.push(`it has ${unknown.length === 1 ? 'a field' : 'fields'} a program never prints (${quoted(unknown.slice(0, 4))})`);
  const others = e.issues.filter((i) => i.code !== 'unrecognized_keys' && !(i.path.length === 1 && !has(i.path[0]!)));
  for (const i of others.slice(0, 3))
    parts.push(`${i.path.length ? `"${i.path.join('.')}"` : 'the line'}: ${i.message.replace(/^Invalid input: expected (\w+), received (\w+)$/, 'must be a $1, not a $2')}`);
  return parts.join('; ');
}

function isJsonDocument(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function parseLine<T>(schema: z.ZodType<T>, value: unknown, line: number, what: string): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const incomplete = r.error.issues.every((i) => i.path.length === 1 && typeof value === 'object' && value !== null && !Object.hasOwn(value, i.path[0]!));
  throw new ImportError(`${incomplete ? `the ${what} line is incomplete` : `malformed ${what} line`}: ${issueText(r.error, value)}`, line);
}

/**
 * Validates a program's JSON lines: device, clock, params, the measurements, end. Throws an
 * ImportError naming the line at the first problem; an error line from the program is reported as such.
 */
export function parseGpuOutput(text: string): GpuOutput {
  // The program's own error says why it stopped, whatever came before it.
  const failed = programFailure(text);
  if (failed) throw failed;
  const lines = text.split(/\r?\n/);
  let device: DeviceInfo | undefined;
  let clock: number | undefined;
  let head: z.infer<typeof ParamsLine> | undefined;
  let params: ParamValues | undefined;
  let ended = false;
  let last = 0;
  const averagePoints: AveragePointLine[] = [];
  // A program prints each point once: a repeated one is a file put together by hand or twice over.
  const seenPoints = new Map<string, number>();
  const once = (key: string, n: number, what: string): void => {
    const first = seenPoints.get(key);
    if (first !== undefined) throw new ImportError(`${what} repeats line ${first}: a program prints each point once`, n);
    seenPoints.set(key, n);
  };
  const reachPoints: ReachPointLine[] = [];
  const bankPoints: BankPointLine[] = [];
  const chunks: TraceChunk[] = [];
  const notes: string[] = [];
  lines.forEach((raw, i) => {
    const n = i + 1;
    if (raw.trim() === '') return;
    last = n;
    if (ended) throw new ImportError('text after the end line', n);
    if (raw.length > MAX_LINE_CHARS) throw new ImportError(`the line is ${Math.ceil(raw.length / 1024)} KB long: no line a program prints is over ${MAX_LINE_CHARS / 1024} KB (a trace line of 1024 accesses is about 16 KB)`, n);
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      if (n === 1 && isJsonDocument(text)) throw new ImportError('the file is one JSON document, not the JSON lines a program from gpulab gpu emit prints (a run exported from gpulab?)');
      throw new ImportError(`not JSON (${jsonErrorWhere(e)})`, n);
    }
    const type = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as { type?: unknown }).type : undefined;
    if (typeof type !== 'string') throw new ImportError('a line must be a JSON object with a "type"', n);
    if (type === 'error') {
      const e: ProgramErrorLine = Object.hasOwn(value as object, 'call') ? parseLine(CudaErrorLine, value, n, 'error') : parseLine(StopLine, value, n, 'error');
      throw new ProgramFailed(e, failureReason(e), n);
    }
    if (type !== 'device' && !device) throw new ImportError(`a "${type}" line before the device line (the output must start with it)`, n);
    switch (type) {
      case 'device':
        if (device) throw new ImportError('a second device line', n);
        device = parseLine(DeviceLine, value, n, 'device');
        return;
      case 'clock':
        clock = parseLine(ClockLine, value, n, 'clock').overheadCycles;
        return;
      case 'params': {
        if (head) throw new ImportError('a second params line', n);
        const named = (value as { experiment?: unknown }).experiment;
        if (typeof named === 'string' && !(PROGRAM_EXPERIMENTS as readonly string[]).includes(named))
          throw new ImportError(`the params line names the experiment "${named.slice(0, 80)}", which has no real-GPU program (those with one: ${PROGRAM_EXPERIMENTS.join(', ')})`, n);
        head = parseLine(ParamsLine, value, n, 'params');
        if (head.format !== FORMAT_VERSION) throw new ImportError(`format ${head.format}; this version of gpulab reads format ${FORMAT_VERSION}`, n);
        try {
          const resolved = resolveGpuParams(head.experiment, head.params).params;
          checkGpuParams(head.experiment, resolved);
          params = hardwareParams(resolved);
        } catch (e) {
          throw new ImportError(`the parameters are not valid for ${head.experiment}: ${(e as Error).message}`, n);
        }
        return;
      }
      case 'point':
        if (!head) throw new ImportError('a point before the params line', n);
        if (head.experiment === 'pchase-average') {
          const pt = parseLine(AveragePoint, value, n, 'point');
          once(`${pt.stride}:${pt.size}`, n, `the point of stride ${pt.stride} B and size ${pt.size} B`);
          averagePoints.push(pt);
        } else if (head.experiment === 'tlb-probes') {
          const pt = parseLine(ReachPoint, value, n, 'point');
          once(`${pt.curve}:${pt.elements}`, n, `the ${pt.curve} curve's point of ${pt.elements} elements`);
          reachPoints.push(pt);
        }
        else if (head.experiment === 'shared-bank-stride') bankPoints.push(parseLine(BankPoint, value, n, 'point'));
        else throw new ImportError(`a point line in the output of ${head.experiment}, which prints trace lines`, n);
        return;
      case 'trace': {
        if (!head) throw new ImportError('a trace before the params line', n);
        if (head.experiment !== 'pchase-fine' && head.experiment !== 'global-latency-patterns') throw new ImportError(`a trace line in the output of ${head.experiment}`, n);
        const t = parseLine(TraceLine, value, n, 'trace');
        const have = chunks.reduce((a, c) => a + c.index.length, 0);
        if (t.from !== have) throw new ImportError(`the trace chunk starts at access ${t.from}; ${have} accesses came before it`, n);
        chunks.push(t);
        return;
      }
      case 'note':
        notes.push(parseLine(NoteLine, value, n, 'note').text);
        return;
      case 'end': {
        const e = parseLine(EndLine, value, n, 'end');
        if (e.version !== FORMAT_VERSION) throw new ImportError(`end line of format ${e.version}; this version of gpulab reads format ${FORMAT_VERSION}`, n);
        if (head && e.experiment !== head.experiment) throw new ImportError(`the end line names ${e.experiment}, the params line ${head.experiment}`, n);
        ended = true;
        return;
      }
      default:
        throw new ImportError(`unknown line type "${type}" (known: device, clock, params, point, trace, note, error, end)`, n);
    }
  });
  if (!device) throw new ImportError('no device line: is this the output of a program from gpulab gpu emit?');
  if (!head || !params) throw new ImportError('no params line', last || undefined);
  if (clock === undefined) throw new ImportError('no clock line (the measured clock overhead)', last);
  if (!ended) throw new ImportError(`the output ends at line ${last} without an end line: the program did not finish (stopped by its time limit, or crashed?)`);
  const experiment = head.experiment;
  if ((experiment === 'pchase-average' && averagePoints.length === 0) || (experiment === 'tlb-probes' && !reachPoints.some((p) => p.curve === 'main'))) throw new ImportError('no point lines: nothing was measured', last);
  if (experiment === 'shared-bank-stride' && !bankPoints.some((p) => p.probe === 'sweep')) throw new ImportError('no sweep points: nothing was measured', last);
  if ((experiment === 'pchase-fine' || experiment === 'global-latency-patterns') && chunks.length === 0) throw new ImportError('no trace lines: nothing was measured', last);
  const trace = chunks.length ? { index: chunks.flatMap((c) => c.index), cycles: chunks.flatMap((c) => c.cycles), load: chunks[0].load } : null;
  return { experiment, device, clockOverhead: clock, params, averagePoints, reachPoints, bankPoints, trace, notes };
}

// ---------------------------------------------------------------------------------------------
// Analysis: the simulated experiments' analysers, on the measured numbers.

/** The result of an imported run: what `gpulab run` prints for a simulated one. */
export interface GpuResult extends ExperimentResult {
  device: DeviceInfo;
  experiment: string;
  params: ParamValues;
}

const removed = (o: GpuOutput): boolean => o.params.clockOverhead === 'removed';

/**
 * One load's latency from two timed stretches of n and 2n loads: their difference over n (the clock
 * reads and the fixed cost of a stretch cancel) when the clock overhead is removed, else the plain
 * average of the longer stretch.
 */
function stretchLatency(c1: number, c2: number, n: number, clockRemoved: boolean): number {
  return clockRemoved ? (c2 - c1) / n : c2 / (2 * n);
}

/**
 * Sorted latencies of a fine-grained trace further apart than this many cycles start a new level. Real
 * GPUs have no seeded jitter to size it from: one level spreads over tens of cycles (an H100 L2 hit: about
 * 256 to 326) while levels lie hundreds apart (L1 39, L2 about 290, device memory from about 520).
 */
export const DEFAULT_LEVEL_GAP = 64;

/**
 * Cycles within which two average latencies of a noise-free measured curve are one reading: an H200's
 * pointer chase reads 31.996 cycles at 8 KB and 32.000 at 240 KB (a fixed start-up cost spread over
 * more loads), with no miss between; a single miss in the shortest timed stretch (256 loads) adds
 * about a cycle.
 */
const MEASURED_RESOLUTION = 0.05;

/**
 * The default level gap of a TLB reach sweep, from the measured noise: TLB_GAP_SIGMAS robust noise
 * deviations of the main curve (noiseSigma, from its point-to-point differences), no less than
 * TLB_GAP_FLOOR (an H100's L2 hits wander by about 3 cycles either way between element counts, more
 * than their point-to-point noise shows) and no more than DEFAULT_LEVEL_GAP. An H100's 9-cycle step at a
 * 32 MB stride (noise 0.1 cycles a point) then reads as a rise.
 */
export const TLB_GAP_SIGMAS = 10;
export const TLB_GAP_FLOOR = 8;

export function tlbDefaultGap(y: ArrayLike<number>): { gap: number; sigma: number } {
  const sigma = noiseSigma(y);
  return { gap: Math.min(DEFAULT_LEVEL_GAP, Math.max(TLB_GAP_FLOOR, TLB_GAP_SIGMAS * sigma)), sigma };
}

export interface ImportOptions {
  /** Fine-grained traces: neighbouring sorted latencies further apart than this many cycles start a new level (default DEFAULT_LEVEL_GAP). */
  levelGap?: number;
}

function averageResult(o: GpuOutput): Pick<ExperimentResult, 'series' | 'findings' | 'notes'> {
  const strides = o.params.strides as number[];
  const trav = o.params.traversals as number;
  const series: Series[] = [];
  const findings: Finding[] = [];
  const notes: string[] = [];
  const used: StrideCurve[] = [];
  for (const s of strides) {
    const pts = o.averagePoints.filter((p) => p.stride === s).sort((a, b) => a.size - b.size);
    if (pts.length === 0) {
      notes.push(`No points were measured at stride ${formatBytes(s)}.`);
      continue;
    }
    const name = `s = ${formatBytes(s)}`;
    const x = pts.map((p) => p.size);
    const y = pts.map((p) => stretchLatency(p.cycles, p.cycles2, p.loads, removed(o)));
    series.push({ name, x: Float64Array.from(x), y: Float64Array.from(y), xLabel: 'Array size N', xUnit: 'B', yLabel: 'Average latency', yUnit: 'cycles', style: 'line' });
    // As the simulated experiment reads it: only sizes that are whole multiples of the stride when there are enough of them.
    const all = x.map((_, j) => j);
    const whole = all.filter((j) => x[j] % s === 0);
    const use = whole.length >= 8 && whole.length < all.length ? whole : all;
    used.push({ stride: s, label: name, x: use.map((j) => x[j]), y: use.map((j) => y[j]) });
    const loads = new Map(pts.map((p) => [p.size, p.loads]));
    findings.push(
      ...analyseAverageCurve(
        use.map((j) => x[j]),
        use.map((j) => y[j]),
        s,
        name,
        { loads: (N) => (N % s === 0 ? (loads.get(N) ?? Math.max(256, traversal(N, s) * trav)) : 0), resolution: MEASURED_RESOLUTION },
      ),
    );
  }
  // Readings that need no LRU fit: flat plateaus and L2 partitions, the line from capacity against stride.
  findings.push(...sweepPlateauFindings(used, o.device.l2Bytes));
  notes.push(
    removed(o)
      ? 'Each point is the difference of two timed stretches of the chase (n and 2n loads after one untimed traversal) over n: the clock reads and the fixed cost of a timed stretch cancel.'
      : 'Each point is the plain average of a timed stretch of 2n loads after one untimed traversal (clock overhead included, as the parameter asks).',
  );
  return { series, findings, notes };
}

/** Per-access latencies of one bank point's passes, their mean and standard error. */
function timedPoint(p: BankPointLine, clockRemoved: boolean): { mean: number; se: number } {
  const v = p.cycles.map((c, r) => stretchLatency(c, p.cycles2[r], p.accesses, clockRemoved));
  const mean = v.reduce((a, b) => a + b, 0) / v.length;
  const sd = Math.sqrt(v.reduce((a, b) => a + (b - mean) ** 2, 0) / (v.length - 1));
  return { mean, se: sd / Math.sqrt(v.length) };
}

function bankResult(o: GpuOutput): Pick<ExperimentResult, 'series' | 'findings' | 'notes'> & { tables: Table[] } {
  const ov = removed(o);
  const sweepPts = o.bankPoints.filter((p) => p.probe === 'sweep');
  const strides = sweepPts.map((p) => p.stride ?? 0);
  const sweepT = sweepPts.map((p) => timedPoint(p, ov));
  const threads = o.bankPoints.filter((p) => p.probe === 'threads').sort((a, b) => (a.threads ?? 0) - (b.threads ?? 0));
  if (threads.length !== WARP) throw new ImportError(`the thread probe has ${threads.length} points; ${WARP} expected (threads 1..${WARP})`);
  const star = threads[0].stride ?? 0;
  const probeT = threads.map((p) => timedPoint(p, ov));
  const pairPts = o.bankPoints.filter((p) => p.probe === 'pair').sort((a, b) => (a.second ?? 0) - (b.second ?? 0));
  let pair: PairProbe | undefined;
  if (pairPts.length === WARP - 1 && pairPts[0].pair) {
    const t = pairPts.map((p) => timedPoint(p, ov));
    pair = { words: pairPts[0].pair, latency: t.map((x) => x.mean), se: t.map((x) => x.se) };
  } else if (pairPts.length) throw new ImportError(`the pair probe has ${pairPts.length} points; ${WARP - 1} expected`);
  const a = analyseBanks(
    { strides, latency: sweepT.map((t) => t.mean), se: sweepT.map((t) => t.se) },
    { stride: star, latency: probeT.map((t) => t.mean), se: probeT.map((t) => t.se) },
    pair,
    pair ? {} : { pair: o.notes.join('; ') || 'the program ran no pair probe' },
  );
  const series: Series[] = [
    { name: 'latency', x: Float64Array.from(strides), y: Float64Array.from(sweepT, (t) => t.mean), xLabel: 'Stride', xUnit: 'words', yLabel: 'Average latency', yUnit: 'cycles', style: 'line' },
    { name: `threads 0..n-1 at stride ${star}`, x: Float64Array.from({ length: WARP }, (_, i) => i + 1), y: Float64Array.from(probeT, (t) => t.mean), xLabel: 'Active threads', xUnit: '', yLabel: 'Average latency', yUnit: 'cycles', style: 'line' },
  ];
  if (pair)
    series.push({ name: `words ${pair.words[0]} and ${pair.words[1]} on threads 0 and n`, x: Float64Array.from({ length: WARP - 1 }, (_, i) => i + 1), y: Float64Array.from(pair.latency), xLabel: 'Second thread', xUnit: '', yLabel: 'Average latency', yUnit: 'cycles', style: 'line' });
  const column = degreeColumn(a);
  const table: Table = {
    name: 'Conflict degree per stride (inferred from latency)',
    columns: [
      { key: 'stride', label: 'Stride', unit: 'words' },
      { key: 'device', label: 'device', unit: 'way' },
    ],
    rows: strides.map((s, i) => ({ stride: s, device: column[i] })),
  };
  const passes = sweepPts[0].cycles.length;
  return {
    series,
    tables: [table],
    findings: bankFindings('shared', strides, a, 'series "latency"'),
    notes: [
      `Latencies are the mean of ${passes} timed passes, each the difference of ${2 * sweepPts[0].accesses} and ${sweepPts[0].accesses} dependent reads per thread over ${sweepPts[0].accesses}${removed(o) ? '' : ' (clock overhead included: the longer stretch alone)'}, with their standard errors from the spread of the passes; degrees are inferred from the latencies.`,
    ],
  };
}

function fineResult(o: GpuOutput, gap: number): Pick<ExperimentResult, 'series' | 'findings' | 'notes'> {
  const t = o.trace as NonNullable<GpuOutput['trace']>;
  const ov = removed(o) ? o.clockOverhead : 0;
  const latency = Float64Array.from(t.cycles, (c) => c - ov);
  const n = latency.length;
  const N = o.params.size as number;
  const s = o.params.stride as number;
  // The simulated experiment's reading: latencies grouped into levels, then the share above the fastest.
  const { findings, levels } = traceFindings(latency, gap, `${n} recorded latencies, clustered (levels more than ${gap} cycles apart)`);
  // MEI 3.2 (4): under LRU the hits and misses of a uniform chase repeat every traversal.
  const per = traversal(N, s);
  const traversals = Math.floor(n / per);
  if (levels.length > 1 && traversals >= 4) {
    const threshold = (levels[0].max + levels[1].min) / 2;
    const rec: ChaseRecord = { N, s, address: Float64Array.from(t.index, (j) => j * 4), latency, perTraversal: per };
    findings.push({
      key: 'trace.periodic',
      label: 'Hits and misses repeat every traversal (as under LRU)',
      value: isPeriodic(rec, threshold) ? 'yes' : 'no',
      unit: '',
      evidence: `misses (above ${threshold.toFixed(1)} cycles) of traversals 4..${traversals} (${per} accesses each) compared with traversal 3 (MEI 3.2 (4))`,
    });
  }
  // A cold first traversal: the unit each miss brings in, as the simulated experiment reads it.
  if (!o.params.warmup) {
    findings.push(...coldFillFindings(latency, levels, s, per));
    mergeDeviceMemory(findings, levels);
  }
  const x = Float64Array.from({ length: n }, (_, i) => i);
  return {
    series: [
      { name: 'latency', x, y: latency, xLabel: 'Access', xUnit: '', yLabel: 'Latency', yUnit: 'cycles', style: 'scatter' },
      { name: 'index', x, y: Float64Array.from(t.index), xLabel: 'Access', xUnit: '', yLabel: 'Array index', yUnit: 'elements', style: 'scatter' },
    ],
    findings,
    notes: [
      `N = ${formatBytes(N)}, s = ${formatBytes(s)}: ${traversal(N, s)} accesses per traversal; ${o.params.warmup ? 'after one untimed traversal' : 'from a cold start (L2 flushed first)'}; loads ${t.load}.`,
      `Each latency includes the store of the returned index to shared memory (MEI Listing 4)${removed(o) ? ` and has the clock overhead (${o.clockOverhead} cycles) removed` : ''}; sorted latencies more than ${gap} cycles apart start a new level.`,
    ],
  };
}

/**
 * tlb-probes' reach sweep: the main curve's rises classified by the controls measured beside it, as the
 * simulated probe classifies them (classifyRises, tlbLevelsOf): what moves when two elements share a
 * page, when each has its own, and at twice the stride. A real GPU's curve wanders by a few cycles (an
 * H100's L2 hits: 269 to 306 cycles between sizes), so only a rise of the level gap or more is a rise,
 * as the fine-grained traces' levels are split. The simulated probe's later checks (flat plateaus,
 * hidden overflows, traces behind a step, policy, entry coverage) need chases chosen from these
 * readings and are not run: the findings stop at reach, entries and the latencies of the steps.
 */
/** The fewest elements a real reach curve is read from (see tlbResult). */
const MIN_TLB_ELEMENTS = 4;

function tlbResult(o: GpuOutput, given: number | undefined): Pick<ExperimentResult, 'series' | 'findings' | 'notes'> & { tables: Table[] } {
  const plan = tlbReachPlan(o.params);
  // A chase over one to three elements reads below every translation level on a real GPU (an H200 at
  // a 32 MB stride: 267.4, 264.7 and 279.3 cycles at one, two and three elements, 287 to 290 from four
  // to sixteen, 298 to 300 past the L1 TLB's 16), and no TLB of these GPUs holds fewer than four
  // entries: the curves start at four elements.
  const curve = (name: string): ElementCurve | null => {
    const pts = o.reachPoints.filter((p) => p.curve === name && p.elements >= MIN_TLB_ELEMENTS).sort((a, b) => a.elements - b.elements);
    return pts.length ? { elements: pts.map((p) => p.elements), y: pts.map((p) => stretchLatency(p.cycles, p.cycles2, p.loads, removed(o))) } : null;
  };
  const main = curve('main') as ElementCurve;
  const near = curve('near-pair');
  const own = curve('own-page');
  if (!near || !own) throw new ImportError('the reach output lacks its near-pair or own-page control curve');
  const fromNoise = tlbDefaultGap(main.y);
  const gap = given ?? fromNoise.gap;
  const gapNote =
    given === undefined
      ? `the level gap, ${gap.toFixed(1)} cycles, comes from the main curve's noise (${fromNoise.sigma.toFixed(2)} cycles a point: ${TLB_GAP_SIGMAS} deviations, at least ${TLB_GAP_FLOOR} and at most ${DEFAULT_LEVEL_GAP} cycles; --level-gap sets it)`
      : `the level gap, ${gap} cycles, is the one given`;
  const { checks, segmentation } = classifyRises(main, curve('block-pair'), near, own, curve('double'), gap);
  const walk = tlbLevelsOf(checks, segmentation.tolerance);
  const findings: Finding[] = [];
  const lastN = main.elements[main.elements.length - 1];
  const src = `main curve at stride ${formatBytes(plan.stride)}`;
  for (const lvl of [1, 2]) {
    const k = `tlb.l${lvl}`;
    const l = walk.levels.find((x) => x.level === lvl);
    if (!l) {
      const why =
        walk.stop ??
        (checks.length === 0
          ? `no step of ${+gap.toFixed(1)} cycles or more between plateaus of the main curve up to ${lastN} elements (N = ${formatBytes(lastN * plan.stride)}); it runs between ${Math.min(...Array.from(main.y)).toFixed(1)} and ${Math.max(...Array.from(main.y)).toFixed(1)} cycles`
          : lvl === 1
            ? 'no rise the controls name a translation step'
            : `no second translation rise up to ${lastN} elements`);
      findings.push(cannotTell(`${k}.entries`, `L${lvl} TLB entries`, why, lvl === 1 ? 'a wider sweep (larger sizeTo), another stride, or a smaller level gap' : 'a wider sweep (larger sizeTo)'));
      continue;
    }
    const c = l.check;
    findings.push({ key: `${k}.reachBytes`, label: `L${lvl} TLB reach`, value: c.fit * plan.stride, unit: 'B', evidence: `${src}: ${c.fit} elements fit (${c.lo.toFixed(1)} cycles), the latency rises to ${c.hi.toFixed(1)} by ${c.full}; ${c.reason}` });
    findings.push(
      c.doubleSame
        ? { key: `${k}.entries`, label: `L${lvl} TLB entries`, value: c.fit, unit: '', evidence: `the rise starts at the same count at twice the stride: each element has its own entry` }
        : cannotTell(`${k}.entries`, `L${lvl} TLB entries`, `at twice the stride the rise ${c.doubleHalf ? 'starts at half the count: two elements share an entry at this stride' : 'does not start at the same count'}`, 'a sweep at a larger stride'),
    );
    findings.push({ key: `tlb.latency.l${lvl}Step`, label: `Latency before and after the L${lvl} TLB step`, value: `${c.lo.toFixed(1)} -> ${c.hi.toFixed(1)}`, unit: 'cycles', evidence: `${src}: plateaus either side of the rise at ${c.fit} elements` });
  }
  // A lower bound where no level shows: one element per page, and the latency never moves by the gap.
  const ownLo = Math.min(...Array.from(own.y));
  const ownHi = Math.max(...Array.from(own.y));
  const ownLast = own.elements[own.elements.length - 1];
  if (walk.levels.length === 0 && ownHi - ownLo < gap)
    findings.push({
      key: 'tlb.flatUpTo',
      label: 'One element a page: latency flat up to',
      value: ownLast * plan.stride,
      unit: 'B',
      evidence: `the own-page control (each element in a ${formatBytes(plan.stride)} block of its own: a page of its own where pages are no larger) stays between ${ownLo.toFixed(1)} and ${ownHi.toFixed(1)} cycles up to ${ownLast} elements: up to there every translation hits, or a miss costs less than ${+gap.toFixed(1)} cycles`,
    });
  const series: Series[] = [];
  for (const name of REACH_CURVES) {
    const cv = curve(name);
    if (cv) series.push({ name, x: Float64Array.from(cv.elements), y: Float64Array.from(cv.y), xLabel: 'Elements', xUnit: '', yLabel: 'Average latency', yUnit: 'cycles', style: 'line' });
  }
  const table: Table = {
    name: 'Rises of the main curve and what the controls say',
    columns: [
      { key: 'fit', label: 'Fit', unit: 'elements' },
      { key: 'full', label: 'Full', unit: 'elements' },
      { key: 'lo', label: 'Before', unit: 'cycles' },
      { key: 'hi', label: 'After', unit: 'cycles' },
      { key: 'verdict', label: 'Verdict' },
      { key: 'reason', label: 'Why' },
    ],
    rows: checks.map((c) => ({ fit: c.fit, full: c.full, lo: Math.round(c.lo * 10) / 10, hi: Math.round(c.hi * 10) / 10, verdict: c.verdict, reason: c.reason })),
  };
  return {
    series,
    tables: [table],
    findings,
    notes: [
      `Main curve: element i at i x ${formatBytes(plan.stride)} + (i x ${plan.skew} B mod ${formatBytes(plan.stride)}); ${main.elements.length} counts up to ${lastN} elements (N = ${formatBytes(lastN * plan.stride)}); controls: ${plan.curves.slice(1).map((c) => c.name).join(', ')}; loads ${o.reachPoints[0].load}.`,
      `Rises are steps of ${+gap.toFixed(1)} cycles or more (${gapNote}); the simulated probe's later checks (flat plateaus, hidden overflows, a trace behind each step, the policy, entry coverage) are not run on hardware.`,
    ],
  };
}

/**
 * MEI Table 3's sequence on a real GPU: no counters say where an access hit, so each access is read
 * by the pattern the sequence means it to meet (patternStep). The reading holds where the flushes
 * outnumber the TLBs' entries and the caches keep the probe lines: the notes say where the latencies
 * contradict that.
 */
function patternsResult(o: GpuOutput, gap: number): Pick<ExperimentResult, 'series' | 'findings' | 'notes'> & { tables: Table[] } {
  const t = o.trace as NonNullable<GpuOutput['trace']>;
  const ov = removed(o) ? o.clockOverhead : 0;
  const latency = Float64Array.from(t.cycles, (c) => c - ov);
  const sums = new Float64Array(7);
  const counts = new Float64Array(7);
  for (let i = 0; i < latency.length; i++) {
    const pat = patternStep(o.params, i).pattern;
    sums[pat] += latency[i];
    counts[pat]++;
  }
  const rows: Table['rows'] = [];
  const findings: Finding[] = [];
  const mean = (id: number): number => sums[id] / counts[id];
  for (const pat of PATTERNS) {
    if (!counts[pat.id]) continue;
    const latency = Math.round(mean(pat.id) * 10) / 10;
    rows.push({ pattern: pat.id, data: pat.data, l1Tlb: pat.l1Tlb, l2Tlb: pat.l2Tlb, latency, count: counts[pat.id] });
    findings.push({
      key: `pattern${pat.id}.latency`,
      label: `Pattern ${pat.id} (data ${pat.data}, L1 TLB ${pat.l1Tlb}, L2 TLB ${pat.l2Tlb})`,
      value: latency,
      unit: 'cycles',
      evidence: `mean of the ${counts[pat.id]} accesses the sequence places in this pattern (by position: a real GPU has no counters to say where an access hit)`,
    });
  }
  const levels = latencyLevels(latency, gap);
  findings.push({ key: 'trace.levels', label: 'Distinct latency levels in the trace', value: levels.length, unit: '', evidence: `latencies cluster at ${levels.map((l) => Math.round(l.latency)).join(', ')} cycles (levels more than ${gap} cycles apart)` });
  const notes: string[] = [`Page stride ${formatBytes(o.params.page as number)}; ${latency.length} accesses in ${o.params.rounds as number} rounds; loads ${t.load}.`];
  const near = (a: number, b: number): boolean => counts[a] > 0 && counts[b] > 0 && Math.abs(mean(a) - mean(b)) <= gap;
  if (near(1, 2)) notes.push(`Patterns 1 and 2 differ by less than ${gap} cycles: the ${o.params.l1Flush as number} flush pages may not have pushed the probe page out of the L1 TLB (raise l1Flush), or its miss costs little.`);
  if (near(2, 3)) notes.push(`Patterns 2 and 3 differ by less than ${gap} cycles: the ${o.params.l2Flush as number} flush pages may not have pushed the probe page out of the L2 TLB (raise l2Flush), or the L2 TLB reaches further.`);
  if (counts[6] && near(5, 6)) notes.push('Pattern 6 is as fast as pattern 5: no window of active page entries shows at this far address (MEI saw one on Kepler only).');
  const x = Float64Array.from({ length: latency.length }, (_, i) => i);
  return {
    series: [{ name: 'latency', x, y: latency, xLabel: 'Access', xUnit: '', yLabel: 'Latency', yUnit: 'cycles', style: 'scatter' }],
    tables: [patternTable(rows, 'Data cache')],
    findings,
    notes,
  };
}

/** Runs the simulated experiment's analysers on a validated output. */
export function analyseGpuOutput(o: GpuOutput, options: ImportOptions = {}): GpuResult {
  const gap = options.levelGap ?? DEFAULT_LEVEL_GAP;
  if (!(gap > 0)) throw new ImportError(`the level gap must be a positive number of cycles; got ${gap}`);
  const base = { device: o.device, experiment: o.experiment, params: o.params };
  const carveout = o.params.carveout === undefined ? [] : [`Shared-memory carveout asked for: ${String(o.params.carveout)} % of the largest (the driver rounds it up to a configuration the SM has).`];
  const chase =
    o.experiment !== 'pchase-average'
      ? []
      : o.params.chase === 'pointer'
        ? ['Chase: pointer (64-bit addresses, p = *p): one load a step and no address arithmetic, so an L1 hit reads the load alone.']
        : ['Chase: index (32-bit element indices, j = A[j], as MEI): each step adds the arithmetic that scales the index to an address (on Hopper LEA and LEA.HI.X), so an L1 hit reads a few cycles over the load alone.'];
  const common = [
    ...carveout,
    ...chase,
    `Measured on ${o.device.name} (compute capability ${o.device.computeCapability}, ${o.device.sms} SMs, ${formatBytes(o.device.l2Bytes)} L2); clock overhead (two back-to-back reads) ${o.clockOverhead} cycles, ${o.params.clockOverhead === 'removed' ? 'removed' : 'included'}.`,
    ...o.notes.map((t) => `The program: ${t}`),
  ];
  if (o.experiment === 'pchase-average') {
    const r = averageResult(o);
    return { ...base, series: r.series, tables: [], findings: r.findings, notes: [...common, ...r.notes] };
  }
  if (o.experiment === 'tlb-probes') {
    const r = tlbResult(o, options.levelGap);
    return { ...base, series: r.series, tables: r.tables, findings: r.findings, notes: [...common, ...r.notes] };
  }
  if (o.experiment === 'global-latency-patterns') {
    const r = patternsResult(o, gap);
    return { ...base, series: r.series, tables: r.tables, findings: r.findings, notes: [...common, ...r.notes] };
  }
  if (o.experiment === 'shared-bank-stride') {
    const r = bankResult(o);
    return { ...base, series: r.series, tables: r.tables, findings: r.findings, notes: [...common, ...r.notes] };
  }
  const r = fineResult(o, gap);
  return { ...base, series: r.series, tables: [], findings: r.findings, notes: [...common, ...r.notes] };
}

/** parseGpuOutput, then analyseGpuOutput. */
export function importGpuOutput(text: string, options: ImportOptions = {}): GpuResult {
  return analyseGpuOutput(parseGpuOutput(text), options);
}
