/**
 * The bundle file: finished runs with their preset snapshots, to carry to another machine.
 *
 * Format 2 (written now) is gzip of UTF-8 JSON lines, read and written as a stream, one run after
 * another, so memory holds one run at a time whatever the bundle's size:
 *   line 1: { "format": "gpu-memory-lab.bundle", "version": 2, "createdAt": ISO, "app": "0.1.0", "runCount": n }
 *   per run: { "run": { id, experiment, title, status, error, seed, simVersion, createdAt, startedAt,
 *              finishedAt, durationMs, tags, notes, preset, params, result } }
 *     where result's series x/y and trace arrays are byte counts; then the bytes of each array in
 *     order (series 0 x, series 0 y, ..., then the trace's address, latency, level, tlb, set, way,
 *     evicted), little-endian, as lines { "b": "<base64 of at most 1 MiB>" }. A trace recorded after
 *     a warm-up pass also holds `start` { accesses, lines, age } in the run line, its two arrays as
 *     base64 of their little-endian bytes (float64, int32; bounded by the traced structure's size).
 *   last line: { "end": true, "runCount": n, "sha256": hex } (SHA-256 of every byte before it).
 * Format 1 (read only; older apps wrote it) is gzip of one JSON envelope
 *   { "format", "version": 1, "createdAt", "app", "runCount", "sha256", "payload": "<JSON text>" }
 * with the runs in the payload and arrays as base64 strings; it is read whole, so at most
 * MAX_LEGACY_BYTES.
 *
 * The checksum detects damage (a truncated download, a flipped bit), not deliberate changes: anyone
 * can recompute it. Bundles are not signed: they travel between a user's own lab machines, and what
 * they carry is checked as strictly as anything a user types (every field, every array length, each
 * preset snapshot with the full preset validator) before anything touches a database.
 *
 * Inflation is counted as it goes: a bundle that expands past MAX_EXPANDED_BYTES (format 2) or
 * MAX_LEGACY_BYTES (format 1) is refused ("bundle expands past N MB") without holding it.
 */
import { createHash } from 'node:crypto';
import type { Hash } from 'node:crypto';
import { createGunzip, createGzip, gzipSync } from 'node:zlib';
import { z } from 'zod';
import type { RunDetail, StoredResult, StoredSeries } from '../../contract';
import { boundedJson, FIELDS, findHostileShape, LabError, LIMITS, PRESET_ID_PATTERN } from '../../contract';
import type { Trace } from '../../../src-sim/experiments/types';
import { MAX_TRACE, MAX_TRACE_START } from '../../../src-sim/experiments/types';
import { formatIssues, validatePreset } from '../../../src-sim/presets/validate';
import { measuredDeviceSchema, realDeviceId, realDeviceLabel } from '../../../src-sim/cuda/run-record';
import { decodeJson, decodeTraceStart, encodeJson, encodeTraceStart, fromBase64, fromBytes, toBytes } from './codec';
import { jsonErrorWhere } from '../../../src-sim/json-error';

export const BUNDLE_FORMAT = 'gpu-memory-lab.bundle';
/** The format this app writes (it reads 1 and 2). */
export const BUNDLE_VERSION = 2;
/** The legacy format: one JSON envelope, read whole. */
export const LEGACY_BUNDLE_VERSION = 1;
export const BUNDLE_EXTENSION = '.gmlbundle';
/** Runs one bundle may carry. */
export const MAX_BUNDLE_RUNS = 10_000;
/** Largest uncompressed format-2 bundle (read as a stream; guards against gzip bombs). */
export const MAX_EXPANDED_BYTES = 2048 * 1024 * 1024;
/**
 * Largest uncompressed format-1 bundle: the longest string JavaScript holds (about 512 MiB), so no
 * format-1 bundle an app could write is refused, and reading one never holds more than this.
 */
export const MAX_LEGACY_BYTES = 512 * 1024 * 1024;
/** Raw bytes per array line of format 2. */
const CHUNK_BYTES = 1024 * 1024;
/** Longest line of format 2: a run's metadata (tables, findings, notes, preset) or an array chunk. */
const MAX_LINE_BYTES = 64 * 1024 * 1024;
/** Largest array of one run (bytes), as a format-2 run line may announce it. */
const MAX_ARRAY_BYTES = 512 * 1024 * 1024;

const TRACE_ARRAYS = [
  ['address', 'f64'],
  ['latency', 'f64'],
  ['level', 'u8'],
  ['tlb', 'u8'],
  ['set', 'i32'],
  ['way', 'i32'],
  ['evicted', 'f64'],
] as const;

// ---------------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------------

/**
 * Writes a bundle (format 2) of the runs `next` hands out one at a time (each is read from the
 * store only when its turn comes and dropped after), and resolves with the gzip bytes. Compression
 * runs on libuv's thread pool and the writer yields to the event loop between chunks, so other
 * calls go on meanwhile.
 */
export async function writeBundle(count: number, next: (i: number) => RunDetail, appVersion: string, now: number): Promise<Buffer> {
  const gzip = createGzip();
  const out: Buffer[] = [];
  gzip.on('data', (b: Buffer) => out.push(b));
  const finished = new Promise<void>((resolve, reject) => {
    gzip.on('end', resolve);
    gzip.on('error', reject);
  });
  const hash = createHash('sha256');
  const write = async (text: string): Promise<void> => {
    const bytes = Buffer.from(`${text}\n`, 'utf8');
    hash.update(bytes);
    if (!gzip.write(bytes)) await new Promise<void>((r) => gzip.once('drain', r));
  };
  await write(JSON.stringify({ format: BUNDLE_FORMAT, version: BUNDLE_VERSION, createdAt: new Date(now).toISOString(), app: appVersion, runCount: count }));
  for (let i = 0; i < count; i++) {
    const run = next(i);
    const { line, arrays } = runLine(run);
    await write(line);
    for (const bytes of arrays) {
      for (let at = 0; at < bytes.byteLength; at += CHUNK_BYTES) await write(`{"b":"${bytes.subarray(at, at + CHUNK_BYTES).toString('base64')}"}`);
    }
  }
  const end = `${JSON.stringify({ end: true, runCount: count, sha256: hash.digest('hex') })}\n`;
  gzip.end(Buffer.from(end, 'utf8'));
  await finished;
  return Buffer.concat(out);
}

/** A run's metadata line (arrays as byte counts) and the arrays' bytes, in the order they follow it. */
function runLine(r: RunDetail): { line: string; arrays: Buffer[] } {
  const { result, ...rest } = r;
  const arrays: Buffer[] = [];
  const add = (b: Buffer): number => (arrays.push(b), b.byteLength);
  let res: Record<string, unknown> | null = null;
  if (result) {
    res = {
      tables: result.tables,
      findings: result.findings,
      notes: result.notes,
      series: result.series.map(({ x, y, ...meta }) => ({ meta, x: add(toBytes(x, 'f64')), y: add(toBytes(y, 'f64')) })),
    };
    if (result.trace) {
      const t = result.trace;
      const trace: Record<string, unknown> = { levelNames: t.levelNames, dropped: t.dropped, ...(t.start ? { start: encodeTraceStart(t.start) } : {}) };
      for (const [key, kind] of TRACE_ARRAYS) trace[key] = add(toBytes(t[key], kind));
      res.trace = trace;
    }
  }
  return { line: `{"run":${encodeJson({ ...rest, result: res })}}`, arrays };
}

/**
 * Format 1, whole in memory: what older apps wrote. Kept to make small legacy bundles (tests of the
 * legacy reader); it cannot hold runs whose JSON passes JavaScript's longest string.
 */
export function encodeBundle(runs: RunDetail[], appVersion: string, now: number): Buffer {
  const payload = encodeJson({ runs: runs.map(legacyRun) });
  const envelope = {
    format: BUNDLE_FORMAT,
    version: LEGACY_BUNDLE_VERSION,
    createdAt: new Date(now).toISOString(),
    app: appVersion,
    runCount: runs.length,
    sha256: sha256(payload),
    payload,
  };
  return gzipSync(Buffer.from(JSON.stringify(envelope), 'utf8'));
}

function legacyRun(r: RunDetail): Record<string, unknown> {
  const { result, ...rest } = r;
  if (!result) return { ...rest, result: null };
  const out: Record<string, unknown> = {
    tables: result.tables,
    findings: result.findings,
    notes: result.notes,
    series: result.series.map(({ x, y, ...meta }) => ({ meta, x: toBytes(x, 'f64').toString('base64'), y: toBytes(y, 'f64').toString('base64') })),
  };
  if (result.trace) {
    const t = result.trace;
    const trace: Record<string, unknown> = { levelNames: t.levelNames, dropped: t.dropped, ...(t.start ? { start: encodeTraceStart(t.start) } : {}) };
    for (const [key, kind] of TRACE_ARRAYS) trace[key] = toBytes(t[key], kind).toString('base64');
    out.trace = trace;
  }
  return { ...rest, result: out };
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

// ---------------------------------------------------------------------------------------------
// Reading: schemas
// ---------------------------------------------------------------------------------------------

function refuse(why: string): never {
  throw new LabError('invalid-bundle', `the bundle is refused (nothing was imported): ${why}`);
}

const mb = (bytes: number): string => `${Math.round(bytes / (1024 * 1024))} MB`;

/** Any JS number, NaN and infinities included (tables and findings may hold them). */
const anyNumber = z.custom<number>((v) => typeof v === 'number', 'must be a number');
const shortText = FIELDS.text(2_000);

/** A trace start state's array: base64 of at most MAX_TRACE_START float64s. */
const startArray = z.string().max(Math.ceil((MAX_TRACE_START * 8) / 3) * 4);

/** The schemas of a run, with arrays as `array` (format 1: base64 strings; format 2: byte counts). */
function runSchemas<A extends z.ZodType>(array: A) {
  const seriesSchema = z.strictObject({
    meta: z.strictObject({
      name: shortText,
      xLabel: shortText,
      xUnit: shortText,
      yLabel: shortText,
      yUnit: shortText,
      style: z.enum(['line', 'step', 'scatter', 'bar']).optional(),
      logX: z.boolean().optional(),
      stack: shortText.optional(),
      xCategories: z.array(shortText).max(1_000).optional(),
      group: shortText.optional(),
    }),
    x: array,
    y: array,
  });

  const tableSchema = z.strictObject({
    name: shortText,
    columns: z.array(z.strictObject({ key: shortText, label: shortText, unit: shortText.optional() })).max(256),
    rows: z.array(z.record(z.string().max(200), z.union([z.string().max(100_000), anyNumber]))).max(1_000_000),
  });

  const findingSchema = z.strictObject({
    key: shortText,
    label: shortText,
    value: z.union([z.string().max(100_000), anyNumber]),
    unit: shortText,
    evidence: FIELDS.text(100_000),
  });

  const traceSchema = z.strictObject({
    levelNames: z.array(shortText).max(64),
    dropped: z.int().min(0),
    start: z.strictObject({ accesses: z.int().min(0), lines: startArray, age: startArray }).optional(),
    address: array,
    latency: array,
    level: array,
    tlb: array,
    set: array,
    way: array,
    evicted: array,
  });

  const resultSchema = z.strictObject({
    tables: z.array(tableSchema).max(1_000),
    findings: z.array(findingSchema).max(10_000),
    notes: z.array(FIELDS.text(100_000)).max(10_000),
    series: z.array(seriesSchema).max(10_000),
    trace: traceSchema.optional(),
  });

  const ms = z.int().min(0).max(8.64e15);
  const runSchema = z
    .strictObject({
      id: FIELDS.runId,
      experiment: FIELDS.experimentId,
      title: FIELDS.title,
      presetId: FIELDS.presetId,
      presetName: shortText,
      seed: FIELDS.seed,
      simVersion: FIELDS.line(40, 1),
      status: z.enum(['done', 'failed', 'cancelled', 'interrupted']),
      error: FIELDS.text(100_000).nullable(),
      createdAt: ms,
      startedAt: ms.nullable(),
      finishedAt: ms.nullable(),
      durationMs: z.number().min(0).nullable(),
      tags: FIELDS.tags,
      notes: FIELDS.notes,
      preset: boundedJson(LIMITS.presetJsonBytes, LIMITS.presetDepth)
        .refine((p) => typeof p.id === 'string' && PRESET_ID_PATTERN.test(p.id) && typeof p.name === 'string', 'a preset snapshot needs an id and a name')
        .nullable(),
      /** A real run: its measured-device record, in place of the preset snapshot (null). */
      real: z.literal(true).optional(),
      device: measuredDeviceSchema.nullable().optional(),
      params: FIELDS.params,
      result: resultSchema.nullable(),
    })
    .refine((r) => (r.status === 'done') === (r.result !== null), 'a done run carries a result and no other run does')
    .refine((r) => (r.preset === null) === Boolean(r.device), 'a run carries a preset snapshot or (a real run) a measured device, one of them')
    .refine((r) => Boolean(r.real) === Boolean(r.device), 'a real run carries its measured device, and only a real run does')
    .refine((r) => (r.device ? r.presetId === realDeviceId(r.device.name) : r.preset?.id === r.presetId), 'presetId differs from the id of the preset snapshot or device')
    .refine((r) => (r.device ? r.presetName === realDeviceLabel(r.device.name) : r.preset?.name === r.presetName), 'presetName differs from the name of the preset snapshot or device');
  return { runSchema, resultSchema };
}

const legacy = runSchemas(z.string().max(LIMITS.bundleBytes * 2));
const streamed = runSchemas(z.int().min(0).max(MAX_ARRAY_BYTES));

const envelopeSchema = z.strictObject({
  format: z.literal(BUNDLE_FORMAT),
  version: z.literal(LEGACY_BUNDLE_VERSION),
  createdAt: z.string().max(40),
  app: z.string().max(40),
  runCount: z.int().min(0).max(MAX_BUNDLE_RUNS),
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 hex digits'),
  payload: z.string(),
});

const headerSchema = z.strictObject({
  format: z.literal(BUNDLE_FORMAT),
  version: z.literal(BUNDLE_VERSION),
  createdAt: z.string().max(40),
  app: z.string().max(40),
  runCount: z.int().min(0).max(MAX_BUNDLE_RUNS),
});

const endSchema = z.strictObject({ end: z.literal(true), runCount: z.int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 hex digits') });

const payloadSchema = z.strictObject({ runs: z.array(legacy.runSchema).max(MAX_BUNDLE_RUNS) });

function issuesText(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');
}

/** The preset snapshot of a bundled run passes the same validator as a custom preset. */
function checkSnapshot(preset: unknown, where: string): void {
  if (preset === null) return; // a real run: its device record was checked with the run
  const v = validatePreset(preset);
  if (!v.ok) refuse(`${where}: its preset snapshot is invalid: ${formatIssues(v.issues.slice(0, 5)).replace(/\n/g, '; ')}`);
}

// ---------------------------------------------------------------------------------------------
// Reading: the inflated text, as lines
// ---------------------------------------------------------------------------------------------

/** Inflated chunks of a bundle (gzip or plain), counted against `limit()` as they come. */
async function* inflate(bytes: Uint8Array, limit: () => number): AsyncGenerator<Buffer> {
  const gz = bytes[0] === 0x1f && bytes[1] === 0x8b;
  let total = 0;
  const count = (b: Buffer): Buffer => {
    total += b.byteLength;
    if (total > limit()) refuse(`the bundle expands past ${mb(limit())}: it is damaged, or made to exhaust memory`);
    return b;
  };
  if (!gz) {
    for (let at = 0; at < bytes.byteLength; at += CHUNK_BYTES) yield count(Buffer.from(bytes.buffer, bytes.byteOffset + at, Math.min(CHUNK_BYTES, bytes.byteLength - at)));
    return;
  }
  const gunzip = createGunzip();
  const feed = (async () => {
    for (let at = 0; at < bytes.byteLength; at += CHUNK_BYTES) {
      if (gunzip.destroyed) return;
      const ok = gunzip.write(Buffer.from(bytes.buffer, bytes.byteOffset + at, Math.min(CHUNK_BYTES, bytes.byteLength - at)));
      if (!ok)
        await new Promise<void>((r) => {
          // One of the two fires; the other is removed, so that listeners do not pile up chunk by chunk.
          const done = () => {
            gunzip.off('drain', done);
            gunzip.off('close', done);
            r();
          };
          gunzip.once('drain', done);
          gunzip.once('close', done);
        });
    }
    gunzip.end();
  })();
  try {
    for await (const chunk of gunzip) yield count(chunk as Buffer);
  } catch (err) {
    if (err instanceof LabError) throw err;
    const msg = (err as Error).message;
    refuse(/end of file/i.test(msg) ? 'the file is truncated (its gzip stream ends early)' : `the file is damaged (gzip: ${msg})`);
  } finally {
    gunzip.destroy();
    void feed.catch(() => undefined);
  }
}

/**
 * Splits inflated chunks into lines (without their newline), hashing every byte of each line it
 * hands out; a line longer than `maxLine()` is refused.
 */
/** Thrown by LineReader.push to make its caller drain an over-long line (an async step) before refusing. */
class DrainFirst {
  constructor(readonly drain: () => Promise<never>) {}
}

class LineReader {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Offset of the first newline in `pending`, or -1 (each chunk is scanned once, as it arrives). */
  private newline = -1;
  constructor(
    private readonly source: AsyncGenerator<Buffer>,
    private readonly maxLine: () => number,
    readonly hash: Hash = createHash('sha256'),
  ) {}

  /** The whole of what is left (format 1). */
  async rest(): Promise<Buffer> {
    for await (const chunk of this.source) this.push(chunk, false);
    const all = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    return all;
  }

  /** The next line, or null at the end. `hashIt` false leaves it out of the checksum (the caller decides). */
  async next(hashIt = true): Promise<Buffer | null> {
    for (;;) {
      if (this.newline >= 0) {
        const all = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes);
        const nl = this.newline;
        const line = all.subarray(0, nl);
        const rest = all.subarray(nl + 1);
        this.pending = rest.byteLength ? [rest] : [];
        this.pendingBytes = rest.byteLength;
        this.newline = rest.indexOf(0x0a);
        if (hashIt) this.hash.update(all.subarray(0, nl + 1));
        return line;
      }
      const { value, done } = await this.source.next();
      if (done) {
        if (this.pendingBytes === 0) return null;
        const line = Buffer.concat(this.pending, this.pendingBytes);
        this.pending = [];
        this.pendingBytes = 0;
        return line;
      }
      try {
        this.push(value, true);
      } catch (err) {
        if (err instanceof DrainFirst) await err.drain();
        throw err;
      }
    }
  }

  /** The first bytes read (they decide the format), without taking them. */
  async peek(bytes: number): Promise<Buffer> {
    while (this.pendingBytes < bytes) {
      const { value, done } = await this.source.next();
      if (done) break;
      this.push(value, true);
    }
    return Buffer.concat(this.pending, this.pendingBytes).subarray(0, bytes);
  }

  private push(chunk: Buffer, lines: boolean): void {
    if (lines && this.newline < 0) {
      const i = chunk.indexOf(0x0a);
      if (i >= 0) this.newline = this.pendingBytes + i;
    }
    this.pending.push(chunk);
    this.pendingBytes += chunk.byteLength;
    if (lines && this.newline < 0 && this.pendingBytes > this.maxLine()) this.overlong();
  }

  /**
   * A line past the longest allowed: its bytes are dropped as they come (memory stays bounded)
   * until it ends, and then it is refused; a bomb reaches the expansion limit first and is named so.
   */
  private overlong(): never {
    this.pending = [];
    this.pendingBytes = 0;
    const drain = async (): Promise<never> => {
      for (;;) {
        const { value, done } = await this.source.next();
        if (done || value.includes(0x0a)) refuse(`a line of the bundle is longer than ${mb(this.maxLine())}: it is damaged`);
      }
    };
    throw new DrainFirst(drain);
  }
}

// ---------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------

/**
 * Reads a bundle and hands each run, checked, to `onRun` (one at a time: the run is dropped after
 * the call unless the callee keeps it). Throws LabError('invalid-bundle') saying what is wrong; a
 * run handed out before the bundle proves damaged further on is not taken back here (readers that
 * write check first: see `checkBundle`).
 */
export async function readBundle(bytes: Uint8Array, onRun: (run: RunDetail) => void | Promise<void>): Promise<{ runCount: number; version: number }> {
  if (bytes.byteLength === 0) refuse('the file is empty');
  if (bytes.byteLength > LIMITS.bundleBytes) refuse(`the file is larger than ${LIMITS.bundleBytes} bytes`);
  let version = 0;
  const limit = (): number => (version === BUNDLE_VERSION ? MAX_EXPANDED_BYTES : MAX_LEGACY_BYTES);
  const lines = new LineReader(inflate(bytes, limit), () => (version === BUNDLE_VERSION ? MAX_LINE_BYTES : MAX_LEGACY_BYTES));
  const head = (await lines.peek(4096)).toString('latin1');
  const first = /^\{"format":"gpu-memory-lab\.bundle","version":(\d+)[,}]/.exec(head);
  if (first && Number(first[1]) === BUNDLE_VERSION && head.includes('\n')) version = BUNDLE_VERSION;
  if (version !== BUNDLE_VERSION) {
    const runs = decodeLegacy(await lines.rest());
    for (const r of runs) await onRun(r);
    return { runCount: runs.length, version: LEGACY_BUNDLE_VERSION };
  }
  const headerLine = await lines.next();
  const header = headerSchema.safeParse(parseLine(headerLine!, 'its first line'));
  if (!header.success) refuse(`its first line is malformed: ${issuesText(header.error)}`);
  const ids = new Set<string>();
  let index = 0;
  let ended = false;
  for (;;) {
    const line = await lines.next(false);
    if (line === null) break;
    const value = parseLine(line, `line ${index + 2}`);
    if (value && typeof value === 'object' && 'end' in value) {
      const end = endSchema.safeParse(value);
      if (!end.success) refuse(`its last line is malformed: ${issuesText(end.error)}`);
      if (header.data.runCount !== index) refuse(`it announces ${header.data.runCount} runs but holds ${index}`);
      if (end.data.runCount !== index) refuse(`its last line counts ${end.data.runCount} runs but it holds ${index}`);
      if (lines.hash.digest('hex') !== end.data.sha256) refuse('the file is damaged: its checksum does not match its contents');
      if ((await lines.next()) !== null) refuse('it holds data after its last line');
      ended = true;
      break;
    }
    lines.hash.update(line);
    lines.hash.update('\n');
    const run = await readRun(value, index, lines);
    if (ids.has(run.id)) refuse(`run ${run.id} appears twice`);
    ids.add(run.id);
    if (index >= header.data.runCount) refuse(`it announces ${header.data.runCount} runs but holds more`);
    await onRun(run);
    index++;
  }
  if (!ended) refuse('the file is truncated (its last line is missing)');
  return { runCount: index, version: BUNDLE_VERSION };
}

/** Reads a whole bundle into memory: for small bundles and tests (importing streams: RunStore.importBundle). */
export async function decodeBundle(bytes: Uint8Array): Promise<RunDetail[]> {
  const runs: RunDetail[] = [];
  await readBundle(bytes, (r) => void runs.push(r));
  return runs;
}

/** Checks a whole bundle, keeping nothing of it: the run ids, in order. */
export async function checkBundle(bytes: Uint8Array): Promise<string[]> {
  const ids: string[] = [];
  await readBundle(bytes, (r) => void ids.push(r.id));
  return ids;
}

function parseLine(line: Buffer, what: string): unknown {
  let value: unknown;
  try {
    value = decodeJson(new TextDecoder('utf-8', { fatal: true }).decode(line));
  } catch (err) {
    refuse(`${what} is not valid JSON (${jsonErrorWhere(err)}); the file is damaged`);
  }
  const hostile = findHostileShape(value, 5_000_000);
  if (hostile) refuse(`${what}: its contents are not plain data: ${hostile}`);
  return value;
}

/** One run of format 2: its line (already parsed), then its arrays' lines. */
async function readRun(value: unknown, index: number, lines: LineReader): Promise<RunDetail> {
  const wrapper = value as { run?: unknown } | null;
  if (!wrapper || typeof wrapper !== 'object' || Object.keys(wrapper).length !== 1 || !('run' in wrapper)) refuse(`runs.${index}: expected a run line`);
  const parsed = streamed.runSchema.safeParse(wrapper.run);
  if (!parsed.success) refuse(`its contents are malformed: ${issuesText(parsed.error).replace(/^/, `runs.${index}.`)}`);
  const r = parsed.data;
  const where = `runs.${index} (${r.id})`;
  checkSnapshot(r.preset, where);
  const readArray = async (bytes: number, what: string): Promise<Buffer> => {
    const out = Buffer.allocUnsafe(bytes);
    let at = 0;
    while (at < bytes) {
      const line = await lines.next();
      if (line === null) refuse('the file is truncated (it ends inside a run)');
      const chunk = parseLine(line, `${where} ${what}`) as { b?: unknown };
      if (!chunk || typeof chunk !== 'object' || typeof chunk.b !== 'string' || Object.keys(chunk).length !== 1) refuse(`${where} ${what}: expected an array line`);
      let data: Buffer;
      try {
        data = fromBase64(chunk.b, `${where} ${what}`);
      } catch (err) {
        refuse((err as Error).message);
      }
      if (at + data.byteLength > bytes) refuse(`${where} ${what}: more bytes than the ${bytes} announced`);
      data.copy(out, at);
      at += data.byteLength;
    }
    return out;
  };
  let result: StoredResult | null = null;
  try {
    if (r.result) {
      const res = r.result;
      const series: StoredSeries[] = [];
      for (const [i, s] of res.series.entries()) {
        const x = fromBytes(await readArray(s.x, `series ${i} x`), 'f64', `series ${i} x`);
        const y = fromBytes(await readArray(s.y, `series ${i} y`), 'f64', `series ${i} y`);
        if (x.length !== y.length) throw new Error(`series ${i} has ${x.length} x values but ${y.length} y values`);
        series.push({ ...s.meta, x, y });
      }
      result = { series, tables: res.tables, findings: res.findings, notes: res.notes };
      if (res.trace) {
        const t = res.trace;
        const arrays: Record<string, ArrayLike<number>> = {};
        let n = -1;
        for (const [key, kind] of TRACE_ARRAYS) {
          const a = fromBytes(await readArray(t[key], `trace ${key}`), kind, `trace ${key}`);
          if (n >= 0 && a.length !== n) throw new Error(`trace ${key} has ${a.length} entries, the others ${n}`);
          n = a.length;
          arrays[key] = a;
        }
        if (n > MAX_TRACE) throw new Error(`the trace has ${n} accesses, more than ${MAX_TRACE}`);
        result.trace = { ...(arrays as unknown as Omit<Trace, 'levelNames' | 'dropped'>), levelNames: t.levelNames, dropped: t.dropped };
        if (t.start) result.trace.start = decodeTraceStart(t.start, 'trace start');
      }
    }
  } catch (err) {
    if (err instanceof LabError) throw err;
    refuse(`${where}: ${(err as Error).message}`);
  }
  return { ...r, tags: [...new Set(r.tags)].sort(), preset: r.preset as unknown as RunDetail['preset'], result };
}

/** Format 1: one envelope, its payload checked as a whole. */
function decodeLegacy(raw: Uint8Array): RunDetail[] {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    refuse('the file is neither gzip nor UTF-8 text');
  }
  let envelope: unknown;
  try {
    envelope = JSON.parse(text);
  } catch (err) {
    refuse(`the file is not valid JSON (${jsonErrorWhere(err)}); it may be truncated or not a bundle`);
  }
  if (!envelope || typeof envelope !== 'object' || (envelope as { format?: unknown }).format !== BUNDLE_FORMAT)
    refuse(`the file is not a GPU Memory Lab bundle (format "${BUNDLE_FORMAT}" expected)`);
  const version = (envelope as { version?: unknown }).version;
  if (typeof version === 'number' && version > BUNDLE_VERSION)
    refuse(`the bundle has format version ${version}, newer than this app reads (${BUNDLE_VERSION}): update the app`);
  const env = envelopeSchema.safeParse(envelope);
  if (!env.success) refuse(`its envelope is malformed: ${issuesText(env.error)}`);
  if (sha256(env.data.payload) !== env.data.sha256) refuse('the file is damaged: its checksum does not match its contents');
  let payload: unknown;
  try {
    payload = decodeJson(env.data.payload);
  } catch (err) {
    refuse(`its payload is not valid JSON (${jsonErrorWhere(err)})`);
  }
  const hostile = findHostileShape(payload, 50_000_000);
  if (hostile) refuse(`its contents are not plain data: ${hostile}`);
  const parsed = payloadSchema.safeParse(payload);
  if (!parsed.success) refuse(`its contents are malformed: ${issuesText(parsed.error)}`);
  const runs = parsed.data.runs;
  if (runs.length !== env.data.runCount) refuse(`it announces ${env.data.runCount} runs but holds ${runs.length}`);
  const ids = new Set<string>();
  for (const [i, r] of runs.entries()) {
    if (ids.has(r.id)) refuse(`run ${r.id} appears twice`);
    ids.add(r.id);
    checkSnapshot(r.preset, `runs.${i} (${r.id})`);
  }
  return runs.map((r, i) => {
    try {
      return {
        ...r,
        tags: [...new Set(r.tags)].sort(),
        preset: r.preset as unknown as RunDetail['preset'],
        result: r.result ? readLegacyResult(r.result) : null,
      };
    } catch (err) {
      refuse(`runs.${i} (${r.id}): ${(err as Error).message}`);
    }
  });
}

function readLegacyResult(r: z.output<typeof legacy.resultSchema>): StoredResult {
  const series: StoredSeries[] = r.series.map((s, i) => {
    const x = fromBytes(fromBase64(s.x, `series ${i} x`), 'f64', `series ${i} x`);
    const y = fromBytes(fromBase64(s.y, `series ${i} y`), 'f64', `series ${i} y`);
    if (x.length !== y.length) throw new Error(`series ${i} has ${x.length} x values but ${y.length} y values`);
    return { ...s.meta, x, y };
  });
  const out: StoredResult = { series, tables: r.tables, findings: r.findings, notes: r.notes };
  if (r.trace) {
    const t = r.trace;
    const arrays: Record<string, ArrayLike<number>> = {};
    let n = -1;
    for (const [key, kind] of TRACE_ARRAYS) {
      const a = fromBytes(fromBase64(t[key], `trace ${key}`), kind, `trace ${key}`);
      if (n >= 0 && a.length !== n) throw new Error(`trace ${key} has ${a.length} entries, the others ${n}`);
      n = a.length;
      arrays[key] = a;
    }
    if (n > MAX_TRACE) throw new Error(`the trace has ${n} accesses, more than ${MAX_TRACE}`);
    out.trace = { ...(arrays as unknown as Omit<Trace, 'levelNames' | 'dropped'>), levelNames: t.levelNames, dropped: t.dropped };
    if (t.start) out.trace.start = decodeTraceStart(t.start, 'trace start');
  }
  return out;
}
