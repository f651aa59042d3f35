/**
 * The bundle file: finished runs with their preset snapshots, to carry to another machine.
 *
 * File = gzip of a UTF-8 JSON envelope:
 *   { "format": "gpu-memory-lab.bundle", "version": 1, "createdAt": ISO, "app": "0.1.0",
 *     "runCount": n, "sha256": hex, "payload": "<JSON text>" }
 * `sha256` is the SHA-256 of the payload text's UTF-8 bytes. The payload is
 *   { "runs": [ { id, experiment, title, status, error, seed, simVersion, createdAt, startedAt,
 *                 finishedAt, durationMs, tags, notes, preset, params, result } ] }
 * with typed arrays as base64 of their little-endian bytes (series x/y float64; trace arrays as
 * their own types) and non-finite numbers as {"$num": "NaN"} (codec.ts). A plain (not gzipped)
 * envelope is accepted too.
 *
 * `decodeBundle` checks everything (gzip, UTF-8, JSON, format, version, checksum, every field,
 * every array length) before anything touches a database, and says what is wrong.
 */
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { z } from 'zod';
import type { RunDetail, StoredResult, StoredSeries } from '../../contract';
import { boundedJson, FIELDS, findHostileShape, LabError, LIMITS, PRESET_ID_PATTERN } from '../../contract';
import type { Trace } from '../../../src-sim/experiments/types';
import { MAX_TRACE } from '../../../src-sim/experiments/types';
import { decodeJson, encodeJson, fromBase64, fromBytes, toBytes } from './codec';

export const BUNDLE_FORMAT = 'gpu-memory-lab.bundle';
export const BUNDLE_VERSION = 1;
export const BUNDLE_EXTENSION = '.gmlbundle';
/** Runs one bundle may carry. */
export const MAX_BUNDLE_RUNS = 10_000;
/** Largest uncompressed envelope accepted (guards against gzip bombs). */
const MAX_EXPANDED_BYTES = 1536 * 1024 * 1024;

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

export function encodeBundle(runs: RunDetail[], appVersion: string, now: number): Buffer {
  const payload = encodeJson({ runs: runs.map(bundleRun) });
  const envelope = {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    createdAt: new Date(now).toISOString(),
    app: appVersion,
    runCount: runs.length,
    sha256: sha256(payload),
    payload,
  };
  return gzipSync(Buffer.from(JSON.stringify(envelope), 'utf8'));
}

function bundleRun(r: RunDetail): Record<string, unknown> {
  const { result, ...rest } = r;
  return { ...rest, result: result ? bundleResult(result) : null };
}

function bundleResult(res: StoredResult): Record<string, unknown> {
  const out: Record<string, unknown> = {
    tables: res.tables,
    findings: res.findings,
    notes: res.notes,
    series: res.series.map(({ x, y, ...meta }) => ({ meta, x: toBytes(x, 'f64').toString('base64'), y: toBytes(y, 'f64').toString('base64') })),
  };
  if (res.trace) {
    const t = res.trace;
    const trace: Record<string, unknown> = { levelNames: t.levelNames, dropped: t.dropped };
    for (const [key, kind] of TRACE_ARRAYS) trace[key] = toBytes(t[key], kind).toString('base64');
    out.trace = trace;
  }
  return out;
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

// ---------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------

function refuse(why: string): never {
  throw new LabError('invalid-bundle', `the bundle is refused (nothing was imported): ${why}`);
}

/** Any JS number, NaN and infinities included (tables and findings may hold them). */
const anyNumber = z.custom<number>((v) => typeof v === 'number', 'must be a number');
const shortText = FIELDS.text(2_000);
const base64 = z.string().max(LIMITS.bundleBytes * 2);

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
  x: base64,
  y: base64,
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
  address: base64,
  latency: base64,
  level: base64,
  tlb: base64,
  set: base64,
  way: base64,
  evicted: base64,
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
    preset: boundedJson(LIMITS.presetJsonBytes, LIMITS.presetDepth).refine(
      (p) => typeof p.id === 'string' && PRESET_ID_PATTERN.test(p.id) && typeof p.name === 'string',
      'a preset snapshot needs an id and a name',
    ),
    params: FIELDS.params,
    result: resultSchema.nullable(),
  })
  .refine((r) => (r.status === 'done') === (r.result !== null), 'a done run carries a result and no other run does')
  .refine((r) => r.preset.id === r.presetId, 'presetId differs from the id of the preset snapshot');

const envelopeSchema = z.strictObject({
  format: z.literal(BUNDLE_FORMAT),
  version: z.literal(BUNDLE_VERSION),
  createdAt: z.string().max(40),
  app: z.string().max(40),
  runCount: z.int().min(0).max(MAX_BUNDLE_RUNS),
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 hex digits'),
  payload: z.string(),
});

const payloadSchema = z.strictObject({ runs: z.array(runSchema).max(MAX_BUNDLE_RUNS) });

function issuesText(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');
}

/** Reads a bundle file and returns its runs, or throws LabError('invalid-bundle') saying why. */
export function decodeBundle(bytes: Uint8Array): RunDetail[] {
  if (bytes.byteLength === 0) refuse('the file is empty');
  if (bytes.byteLength > LIMITS.bundleBytes) refuse(`the file is larger than ${LIMITS.bundleBytes} bytes`);
  let raw: Uint8Array = bytes;
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      raw = gunzipSync(bytes, { maxOutputLength: MAX_EXPANDED_BYTES });
    } catch (err) {
      const msg = (err as Error).message;
      refuse(/end of file/i.test(msg) ? 'the file is truncated (its gzip stream ends early)' : `the file is damaged (gzip: ${msg})`);
    }
  }
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
    refuse(`the file is not valid JSON (${(err as Error).message}); it may be truncated or not a bundle`);
  }
  if (!envelope || typeof envelope !== 'object' || (envelope as { format?: unknown }).format !== BUNDLE_FORMAT)
    refuse(`the file is not a GPU Memory Lab bundle (format "${BUNDLE_FORMAT}" expected)`);
  const version = (envelope as { version?: unknown }).version;
  if (typeof version === 'number' && version > BUNDLE_VERSION)
    refuse(`the bundle has format version ${version}, newer than this app reads (${BUNDLE_VERSION}): update the app`);
  const env = envelopeSchema.safeParse(envelope);
  if (!env.success) refuse(`its envelope is malformed: ${issuesText(env.error)}`);
  if (sha256(env.data.payload) !== env.data.sha256) refuse('its checksum does not match its contents: the file was changed or damaged');
  let payload: unknown;
  try {
    payload = decodeJson(env.data.payload);
  } catch (err) {
    refuse(`its payload is not valid JSON (${(err as Error).message})`);
  }
  const hostile = findHostileShape(payload, 50_000_000);
  if (hostile) refuse(`its contents are not plain data: ${hostile}`);
  const parsed = payloadSchema.safeParse(payload);
  if (!parsed.success) refuse(`its contents are malformed: ${issuesText(parsed.error)}`);
  const runs = parsed.data.runs;
  if (runs.length !== env.data.runCount) refuse(`it announces ${env.data.runCount} runs but holds ${runs.length}`);
  const ids = new Set<string>();
  for (const r of runs) {
    if (ids.has(r.id)) refuse(`run ${r.id} appears twice`);
    ids.add(r.id);
  }
  return runs.map((r, i) => {
    try {
      return {
        ...r,
        tags: [...new Set(r.tags)].sort(),
        preset: r.preset as unknown as RunDetail['preset'],
        result: r.result ? readResult(r.result) : null,
      };
    } catch (err) {
      refuse(`runs.${i} (${r.id}): ${(err as Error).message}`);
    }
  });
}

function readResult(r: z.output<typeof resultSchema>): StoredResult {
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
  }
  return out;
}
