/**
 * JSON on the wire of the browser mode, exact for everything the contract carries.
 *
 * Plain JSON would lose what the contract's results hold: typed arrays (series, traces, file bytes)
 * and the numbers JSON cannot write (NaN, +-Infinity, -0). `encodeWire` writes them as one-key
 * tagged objects and `decodeWire` restores them, byte for byte:
 *
 *   Float64Array  -> {"$f64": "<base64 of its bytes, little-endian>"}   (also $f32 $i32 $u32 $i16 $u16 $i8 $u8 $u8c)
 *   NaN, -0, ...  -> {"$num": "NaN" | "Infinity" | "-Infinity" | "-0"}
 *
 * An object key of the data itself that starts with "$" is escaped with one more "$" ("$x" is sent
 * as "$$x"), so data can never be mistaken for a tag. A "$" key that is neither a tag nor escaped
 * is refused (WireError), as is a malformed tag.
 *
 * Pure and browser-safe: no Node built-ins, no DOM (the renderer imports it through http-client.ts).
 */
import { jsonErrorWhere } from '../../src-sim/json-error';

/** A wire text that does not decode (the HTTP server answers 400). */
export class WireError extends Error {
  override name = 'WireError';
}

type TypedArray =
  | Float64Array
  | Float32Array
  | Int32Array
  | Uint32Array
  | Int16Array
  | Uint16Array
  | Int8Array
  | Uint8Array
  | Uint8ClampedArray;

interface TypedCtor {
  new (buffer: ArrayBuffer): TypedArray;
  readonly BYTES_PER_ELEMENT: number;
}

/** Tag -> constructor. Uint8Array after Uint8ClampedArray is irrelevant: tags are matched by constructor name. */
const TAGS: Readonly<Record<string, TypedCtor>> = {
  $f64: Float64Array,
  $f32: Float32Array,
  $i32: Int32Array,
  $u32: Uint32Array,
  $i16: Int16Array,
  $u16: Uint16Array,
  $i8: Int8Array,
  $u8: Uint8Array,
  $u8c: Uint8ClampedArray,
};
const NUM_TAG = '$num';
const SPECIAL_NUMBERS: Readonly<Record<string, number>> = { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity, '-0': -0 };

function tagOf(view: ArrayBufferView): string {
  if (view instanceof Float64Array) return '$f64';
  if (view instanceof Float32Array) return '$f32';
  if (view instanceof Int32Array) return '$i32';
  if (view instanceof Uint32Array) return '$u32';
  if (view instanceof Int16Array) return '$i16';
  if (view instanceof Uint16Array) return '$u16';
  if (view instanceof Int8Array) return '$i8';
  if (view instanceof Uint8ClampedArray) return '$u8c';
  if (view instanceof Uint8Array) return '$u8'; // Node's Buffer included
  throw new WireError(`cannot send a ${view.constructor?.name ?? 'binary view'}`);
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The bytes of a typed array, little-endian (a copy on big-endian hosts only). */
function littleEndianBytes(a: TypedArray): Uint8Array {
  const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const size = a.BYTES_PER_ELEMENT;
  return LITTLE_ENDIAN || size === 1 ? bytes : swapped(bytes, size);
}

function swapped(bytes: Uint8Array, size: number): Uint8Array {
  const out = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; i += size) for (let k = 0; k < size; k++) out[i + k] = bytes[i + size - 1 - k];
  return out;
}

// ---------------------------------------------------------------------------------------------
// Base64 (RFC 4648, with padding): no btoa/Buffer, so it is the same code in Node and browsers.
// ---------------------------------------------------------------------------------------------

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const ENCODE = new Uint8Array(64);
const DECODE = new Int16Array(128).fill(-1);
for (let i = 0; i < 64; i++) {
  ENCODE[i] = ALPHABET.charCodeAt(i);
  DECODE[ALPHABET.charCodeAt(i)] = i;
}
const PAD = 61; // '='
const ascii = new TextDecoder();

export function toBase64(bytes: Uint8Array): string {
  const n = bytes.length;
  const out = new Uint8Array(Math.ceil(n / 3) * 4);
  let o = 0;
  let i = 0;
  for (; i + 2 < n; i += 3) {
    const v = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out[o++] = ENCODE[v >> 18];
    out[o++] = ENCODE[(v >> 12) & 63];
    out[o++] = ENCODE[(v >> 6) & 63];
    out[o++] = ENCODE[v & 63];
  }
  if (i < n) {
    const two = i + 1 < n;
    const v = (bytes[i] << 16) | (two ? bytes[i + 1] << 8 : 0);
    out[o++] = ENCODE[v >> 18];
    out[o++] = ENCODE[(v >> 12) & 63];
    out[o++] = two ? ENCODE[(v >> 6) & 63] : PAD;
    out[o++] = PAD;
  }
  return ascii.decode(out);
}

export function fromBase64(text: string): Uint8Array {
  if (text.length % 4 !== 0) throw new WireError('base64 text must have a length divisible by 4');
  let pad = 0;
  if (text.length > 0 && text.charCodeAt(text.length - 1) === PAD) pad++;
  if (text.length > 1 && text.charCodeAt(text.length - 2) === PAD) pad++;
  const out = new Uint8Array((text.length / 4) * 3 - pad);
  let o = 0;
  for (let i = 0; i < text.length; i += 4) {
    const c0 = sextet(text, i);
    const c1 = sextet(text, i + 1);
    const last = i + 4 === text.length;
    const c2 = last && pad === 2 ? 0 : sextet(text, i + 2);
    const c3 = last && pad >= 1 ? 0 : sextet(text, i + 3);
    const v = (c0 << 18) | (c1 << 12) | (c2 << 6) | c3;
    out[o++] = v >> 16;
    if (o < out.length) out[o++] = (v >> 8) & 255;
    if (o < out.length) out[o++] = v & 255;
  }
  return out;
}

function sextet(text: string, i: number): number {
  const c = text.charCodeAt(i);
  const v = c < 128 ? DECODE[c] : -1;
  if (v < 0) throw new WireError(`invalid base64 character at ${i}`);
  return v;
}

// ---------------------------------------------------------------------------------------------
// Encode / decode
// ---------------------------------------------------------------------------------------------

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

function setOwn(o: Record<string, unknown>, key: string, value: unknown): void {
  // defineProperty, not assignment: a "__proto__" key stays a plain key (and the contract refuses it).
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

function replacer(this: unknown, key: string, given: unknown): unknown {
  // The holder's own value: JSON.stringify has already applied toJSON (Node's Buffer has one).
  const raw = (this as Record<string, unknown>)[key];
  const value = ArrayBuffer.isView(raw) ? raw : given;
  if (typeof value === 'number') {
    if (Number.isFinite(value) && !Object.is(value, -0)) return value;
    return { [NUM_TAG]: Object.is(value, -0) ? '-0' : String(value) };
  }
  if (value === null || typeof value !== 'object') return value;
  if (ArrayBuffer.isView(value)) {
    if (value instanceof DataView) throw new WireError('cannot send a DataView');
    return { [tagOf(value)]: toBase64(littleEndianBytes(value as TypedArray)) };
  }
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    if (!keys.some((k) => k.startsWith('$'))) return value;
    const out: Record<string, unknown> = {};
    for (const k of keys) setOwn(out, k.startsWith('$') ? `$${k}` : k, value[k]);
    return out;
  }
  return value;
}

/** JSON text of a value, with typed arrays and non-finite numbers tagged (see the module comment). */
export function encodeWire(value: unknown): string {
  return JSON.stringify(value === undefined ? null : value, replacer);
}

function reviver(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const o = value as Record<string, unknown>;
  const keys = Object.keys(o);
  if (!keys.some((k) => k.startsWith('$'))) return value;
  if (keys.length === 1) {
    const tag = keys[0];
    const payload = o[tag];
    const ctor = Object.prototype.hasOwnProperty.call(TAGS, tag) ? TAGS[tag] : undefined;
    if (ctor) {
      if (typeof payload !== 'string') throw new WireError(`${tag} must hold base64 text`);
      const bytes = fromBase64(payload);
      const size = ctor.BYTES_PER_ELEMENT;
      if (bytes.length % size !== 0) throw new WireError(`${tag} holds ${bytes.length} bytes, not a whole number of ${size}-byte values`);
      // fromBase64 and swapped make fresh, exactly sized buffers: the typed array owns all of its buffer.
      const own = LITTLE_ENDIAN || size === 1 ? bytes : swapped(bytes, size);
      return new ctor(own.buffer as ArrayBuffer);
    }
    if (tag === NUM_TAG) {
      if (typeof payload !== 'string' || !Object.prototype.hasOwnProperty.call(SPECIAL_NUMBERS, payload)) throw new WireError(`${NUM_TAG} must be NaN, Infinity, -Infinity or -0`);
      return SPECIAL_NUMBERS[payload];
    }
  }
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    if (k.startsWith('$$')) setOwn(out, k.slice(1), o[k]);
    else if (k.startsWith('$')) throw new WireError(`unknown tag "${k.slice(0, 20)}"`);
    else setOwn(out, k, o[k]);
  }
  return out;
}

/** The value `encodeWire` wrote. Throws WireError on text that is not JSON or holds a malformed tag. */
export function decodeWire(text: string): unknown {
  try {
    return JSON.parse(text, reviver) as unknown;
  } catch (err) {
    if (err instanceof WireError) throw err;
    throw new WireError(`not JSON: ${jsonErrorWhere(err)}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Binary frames: the same values, with typed arrays as raw bytes instead of base64
// ---------------------------------------------------------------------------------------------

/**
 * A binary frame carries a value whose typed arrays are large (a run's trace, its series) without
 * base64 or a JSON string of their size:
 *
 *   bytes 0-7    "GLWIRE01"
 *   bytes 8-11   J, the length of the JSON text (uint32, little-endian); bytes 12-15 zero
 *   16..16+J     wire JSON (as `encodeWire` writes it) in which each typed array is
 *                {"$bin": ["<tag without $>", <offset>, <byteLength>]}
 *   then         zero padding to a multiple of 8, and the arrays' little-endian bytes, each at an
 *                offset (from the start of this section) that is a multiple of 8
 *
 * `decodeFrame` returns typed arrays that each own their buffer (one copy of their bytes).
 */
export const FRAME_CONTENT_TYPE = 'application/x-gpulab-frame';
const FRAME_MAGIC = 'GLWIRE01';
const BIN_TAG = '$bin';
const FRAME_HEADER = 16;

const align8 = (n: number): number => (n + 7) & ~7;

/**
 * The frame of a value, as chunks to write one after another, and their total length. `arrays`
 * counts its typed arrays; with none, `json` is exactly what `encodeWire` writes.
 */
export function encodeFrame(value: unknown): { chunks: Uint8Array[]; byteLength: number; arrays: number; json: Uint8Array } {
  const arrays: Uint8Array[] = [];
  let offset = 0;
  const frameReplacer = function (this: unknown, key: string, given: unknown): unknown {
    const raw = (this as Record<string, unknown>)[key];
    if (ArrayBuffer.isView(raw) && !(raw instanceof DataView)) {
      const view = raw as TypedArray;
      const bytes = littleEndianBytes(view);
      const at = offset;
      arrays.push(bytes);
      offset = align8(offset + bytes.byteLength);
      return { [BIN_TAG]: [tagOf(view).slice(1), at, bytes.byteLength] };
    }
    return replacer.call(this, key, given);
  };
  const json = new TextEncoder().encode(JSON.stringify(value === undefined ? null : value, frameReplacer));
  const header = new Uint8Array(FRAME_HEADER);
  for (let i = 0; i < FRAME_MAGIC.length; i++) header[i] = FRAME_MAGIC.charCodeAt(i);
  new DataView(header.buffer).setUint32(8, json.byteLength, true);
  const chunks: Uint8Array[] = [header, json];
  let length = FRAME_HEADER + json.byteLength;
  const pad = (to: number) => {
    if (to > length) chunks.push(new Uint8Array(to - length));
    length = to;
  };
  pad(align8(length));
  const base = length;
  for (const bytes of arrays) {
    pad(base + align8(length - base));
    chunks.push(bytes);
    length += bytes.byteLength;
  }
  return { chunks, byteLength: length, arrays: arrays.length, json };
}

/** Whether bytes start like a frame. */
export function isFrame(bytes: Uint8Array): boolean {
  if (bytes.byteLength < FRAME_HEADER) return false;
  for (let i = 0; i < FRAME_MAGIC.length; i++) if (bytes[i] !== FRAME_MAGIC.charCodeAt(i)) return false;
  return true;
}

/** The length of a frame's JSON text (its header says it). Throws WireError when the bytes are not a frame. */
export function frameJsonLength(bytes: Uint8Array): number {
  if (!isFrame(bytes)) throw new WireError('not a lab frame');
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(8, true);
}

/** The value `encodeFrame` wrote. Throws WireError on a malformed frame. */
export function decodeFrame(input: ArrayBuffer | Uint8Array): unknown {
  const bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
  if (!isFrame(bytes)) throw new WireError('not a lab frame');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const jsonLength = view.getUint32(8, true);
  if (FRAME_HEADER + jsonLength > bytes.byteLength) throw new WireError('the frame is shorter than its JSON');
  const text = new TextDecoder().decode(bytes.subarray(FRAME_HEADER, FRAME_HEADER + jsonLength));
  const base = align8(FRAME_HEADER + jsonLength);
  const frameReviver = (key: string, value: unknown): unknown => {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const o = value as Record<string, unknown>;
      const keys = Object.keys(o);
      if (keys.length === 1 && keys[0] === BIN_TAG) return binArray(bytes, base, o[BIN_TAG]);
    }
    return reviver(key, value);
  };
  try {
    return JSON.parse(text, frameReviver) as unknown;
  } catch (err) {
    if (err instanceof WireError) throw err;
    throw new WireError(`not JSON: ${jsonErrorWhere(err)}`);
  }
}

function binArray(bytes: Uint8Array, base: number, spec: unknown): TypedArray {
  if (!Array.isArray(spec) || spec.length !== 3) throw new WireError(`${BIN_TAG} must be [type, offset, byteLength]`);
  const [type, offset, length] = spec as [unknown, unknown, unknown];
  const tag = `$${String(type)}`;
  const ctor = Object.prototype.hasOwnProperty.call(TAGS, tag) ? TAGS[tag] : undefined;
  if (!ctor) throw new WireError(`${BIN_TAG}: unknown type "${String(type).slice(0, 10)}"`);
  if (!Number.isInteger(offset) || !Number.isInteger(length) || (offset as number) < 0 || (length as number) < 0)
    throw new WireError(`${BIN_TAG}: offset and length must be whole numbers`);
  const start = base + (offset as number);
  const end = start + (length as number);
  if (end > bytes.byteLength) throw new WireError(`${BIN_TAG}: the array runs past the end of the frame`);
  const size = ctor.BYTES_PER_ELEMENT;
  if ((length as number) % size !== 0) throw new WireError(`${BIN_TAG} holds ${length as number} bytes, not a whole number of ${size}-byte values`);
  // A copy: each array owns exactly its buffer, as after decodeWire (a view into the frame would
  // keep the whole frame alive and expose its other bytes through .buffer).
  const own = bytes.slice(start, end);
  return new ctor((LITTLE_ENDIAN || size === 1 ? own : swapped(own, size)).buffer as ArrayBuffer);
}
