/**
 * Encoding of results for the database and for bundles.
 *
 * Typed arrays become little-endian byte blobs (the same bytes on every machine, so a bundle made
 * on one reads back byte-exact on another). JSON gets a reviver for the numbers JSON cannot hold
 * (NaN, ±Infinity, -0), so that tables and findings read back identical.
 */
import type { TraceStart } from '../../../src-sim/experiments/types';
import { MAX_TRACE_START } from '../../../src-sim/experiments/types';

export type ArrayKind = 'f64' | 'i32' | 'u8';
type ArrayOf<K extends ArrayKind> = K extends 'f64' ? Float64Array : K extends 'i32' ? Int32Array : Uint8Array;

const WIDTH: Record<ArrayKind, number> = { f64: 8, i32: 4, u8: 1 };
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function make<K extends ArrayKind>(kind: K, length: number): ArrayOf<K> {
  const a = kind === 'f64' ? new Float64Array(length) : kind === 'i32' ? new Int32Array(length) : new Uint8Array(length);
  return a as ArrayOf<K>;
}

/** The little-endian bytes of a numeric array as `kind` (copied; the input may be any ArrayLike). */
export function toBytes(values: ArrayLike<number>, kind: ArrayKind): Buffer {
  const typed = sameKind(values, kind) ? values : copyInto(values, make(kind, values.length));
  const view = Buffer.from(typed.buffer, typed.byteOffset, typed.byteLength);
  if (LITTLE_ENDIAN || kind === 'u8') return Buffer.from(view);
  const out = Buffer.from(view);
  if (kind === 'f64') out.swap64();
  else out.swap32();
  return out;
}

/** The typed array whose little-endian bytes these are; throws when the length does not fit. */
export function fromBytes<K extends ArrayKind>(bytes: Uint8Array, kind: K, what: string): ArrayOf<K> {
  const width = WIDTH[kind];
  if (bytes.byteLength % width !== 0) throw new Error(`${what}: ${bytes.byteLength} bytes is not a whole number of ${width}-byte values`);
  const out = make(kind, bytes.byteLength / width);
  const raw = new Uint8Array(out.buffer);
  raw.set(bytes);
  if (!LITTLE_ENDIAN && width > 1) {
    const b = Buffer.from(out.buffer);
    if (width === 8) b.swap64();
    else b.swap32();
  }
  return out;
}

function sameKind(values: ArrayLike<number>, kind: ArrayKind): values is Float64Array | Int32Array | Uint8Array {
  return (
    (kind === 'f64' && values instanceof Float64Array) || (kind === 'i32' && values instanceof Int32Array) || (kind === 'u8' && values instanceof Uint8Array)
  );
}

function copyInto<T extends Float64Array | Int32Array | Uint8Array>(values: ArrayLike<number>, out: T): T {
  for (let i = 0; i < values.length; i++) out[i] = values[i];
  return out;
}

// ---------------------------------------------------------------------------------------------

const NUM_KEY = '$num';

/** JSON that keeps NaN, Infinity, -Infinity and -0 (as `{"$num": "NaN"}` etc.). */
export function encodeJson(value: unknown): string {
  // The replacer costs a call per value; most data (presets, parameters) has no awkward number.
  if (!hasAwkwardNumber(value, 0)) return JSON.stringify(value);
  return JSON.stringify(value, function (this: unknown, _key, v: unknown) {
    if (typeof v === 'number' && (!Number.isFinite(v) || Object.is(v, -0))) return { [NUM_KEY]: Object.is(v, -0) ? '-0' : String(v) };
    return v;
  });
}

function hasAwkwardNumber(v: unknown, depth: number): boolean {
  if (typeof v === 'number') return !Number.isFinite(v) || Object.is(v, -0);
  if (v === null || typeof v !== 'object' || depth > 64) return depth > 64;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (hasAwkwardNumber(v[i], depth + 1)) return true;
    return false;
  }
  if (ArrayBuffer.isView(v)) return true;
  for (const k in v) if (Object.prototype.hasOwnProperty.call(v, k) && hasAwkwardNumber((v as Record<string, unknown>)[k], depth + 1)) return true;
  return false;
}

export function decodeJson<T = unknown>(text: string): T {
  if (!text.includes(`"${NUM_KEY}"`)) return JSON.parse(text) as T;
  return JSON.parse(text, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const keys = Object.keys(v);
      if (keys.length === 1 && keys[0] === NUM_KEY) {
        const s = (v as Record<string, unknown>)[NUM_KEY];
        if (s === '-0') return -0;
        if (s === 'NaN' || s === 'Infinity' || s === '-Infinity') return Number(s);
      }
    }
    return v;
  }) as T;
}

/** Strict base64: refuses characters outside the alphabet and bad padding (Buffer.from is lenient). */
export function fromBase64(text: string, what: string): Buffer {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw new Error(`${what} is not valid base64`);
  return Buffer.from(text, 'base64');
}

// ---------------------------------------------------------------------------------------------

/**
 * A trace's start state (src-sim/results.ts TraceStart) as JSON data, in the trace's metadata in the
 * database and in a bundle's run line: its arrays as base64 of their little-endian bytes.
 */
export interface EncodedTraceStart {
  accesses: number;
  /** float64 per slot. */
  lines: string;
  /** int32 per slot. */
  age: string;
}

export function encodeTraceStart(s: TraceStart): EncodedTraceStart {
  return { accesses: s.accesses, lines: toBytes(s.lines, 'f64').toString('base64'), age: toBytes(s.age, 'i32').toString('base64') };
}

/** The start state back; throws (naming `what`) on arrays of different lengths or past MAX_TRACE_START slots. */
export function decodeTraceStart(e: EncodedTraceStart, what: string): TraceStart {
  const lines = fromBytes(fromBase64(e.lines, `${what} lines`), 'f64', `${what} lines`);
  const age = fromBytes(fromBase64(e.age, `${what} age`), 'i32', `${what} age`);
  if (lines.length !== age.length) throw new Error(`${what}: ${lines.length} lines but ${age.length} ages`);
  if (lines.length > MAX_TRACE_START) throw new Error(`${what}: ${lines.length} slots, more than ${MAX_TRACE_START}`);
  if (!Number.isSafeInteger(e.accesses) || e.accesses < 0) throw new Error(`${what}: accesses must be a whole number of at least 0`);
  return { accesses: e.accesses, lines, age };
}
