/** The browser mode's wire codec (src-main/shared/wire.ts): exact for typed arrays and awkward numbers, strict on input. */
import { describe, expect, it } from 'vitest';
import { decodeFrame, decodeWire, encodeFrame, encodeWire, fromBase64, isFrame, toBase64, WireError } from '../../src-main/shared/wire';
import { Rng } from '../../src-sim/rng';
import { bytesOf, oddNaN, sampleResult } from './store-fixtures';

describe('wire codec', () => {
  it('base64 matches Node for every length from 0 to 64 bytes and for 100 random buffers', () => {
    const rng = new Rng(11);
    const buffers: Uint8Array[] = [];
    for (let n = 0; n <= 64; n++) buffers.push(Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) & 255));
    for (let k = 0; k < 100; k++) buffers.push(Uint8Array.from({ length: rng.int(2000) }, () => rng.int(256)));
    for (const b of buffers) {
      const text = toBase64(b);
      expect(text).toBe(Buffer.from(b).toString('base64'));
      expect(Buffer.from(fromBase64(text)).equals(Buffer.from(b))).toBe(true);
    }
  });

  it('restores every typed array kind with its constructor and bytes, views into larger buffers included', () => {
    const big = new ArrayBuffer(64);
    new Uint8Array(big).forEach((_, i, a) => (a[i] = i * 7));
    const values = {
      f64: Float64Array.of(1.5, oddNaN(), -0, Infinity, -Infinity, Number.MIN_VALUE),
      f32: Float32Array.of(0.1, -2.5),
      i32: Int32Array.of(-1, 2 ** 31 - 1, -(2 ** 31)),
      u32: Uint32Array.of(2 ** 32 - 1),
      i16: Int16Array.of(-32768),
      u16: Uint16Array.of(65535),
      i8: Int8Array.of(-128),
      u8: Uint8Array.of(0, 255),
      u8c: Uint8ClampedArray.of(7),
      view: new Float64Array(big, 8, 3),
      buffer: Buffer.from('bytes'),
      empty: new Float64Array(0),
    };
    const back = decodeWire(encodeWire(values)) as Record<string, ArrayBufferView & { length: number }>;
    for (const [key, original] of Object.entries(values)) {
      const restored = back[key];
      const expectedCtor = key === 'buffer' ? Uint8Array : original.constructor;
      expect(restored.constructor, key).toBe(expectedCtor);
      expect(bytesOf(restored as Float64Array).equals(bytesOf(original as Float64Array)), key).toBe(true);
      // The decoded array owns exactly its buffer.
      expect(restored.byteOffset).toBe(0);
      expect((restored.buffer as ArrayBuffer).byteLength).toBe(restored.byteLength);
    }
  });

  it('keeps a stored result exact: series bytes, NaN, -0 and infinities in tables, and the trace', () => {
    const r = sampleResult(300, true);
    const back = decodeWire(encodeWire(r)) as typeof r;
    expect(bytesOf(back.series[0].y as Float64Array).equals(bytesOf(r.series[0].y as Float64Array))).toBe(true);
    expect(Object.is(back.tables[0].rows[1].latency, NaN)).toBe(true);
    expect(Object.is(back.tables[0].rows[2].latency, -0)).toBe(true);
    expect(back.notes).toEqual(r.notes);
    for (const k of ['address', 'latency', 'level', 'tlb', 'set', 'way', 'evicted'] as const) {
      expect(back.trace![k].constructor).toBe(r.trace![k].constructor);
      expect(bytesOf(back.trace![k]).equals(bytesOf(r.trace![k]))).toBe(true);
    }
    expect(back).toEqual(r);
  });

  it('escapes data keys that start with $, so data is never read as a tag', () => {
    const data = { $f64: 'not base64!', $num: 'NaN', $$x: 1, plain: { $u8: [1, 2] }, list: [{ $: 0 }] };
    const text = encodeWire(data);
    expect(JSON.parse(text)).toEqual({ $$f64: 'not base64!', $$num: 'NaN', $$$x: 1, plain: { $$u8: [1, 2] }, list: [{ $$: 0 }] });
    expect(decodeWire(text)).toEqual(data);
  });

  it('keeps a "__proto__" key as a plain own key (it never becomes a prototype)', () => {
    const back = decodeWire('{"$$a": 1, "__proto__": {"polluted": true}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(back, '__proto__')).toBe(true);
    expect((back as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it.each([
    ['not JSON', '{'],
    ['an unknown tag', '{"$evil": 1}'],
    ['a tag beside other keys', '{"$f64": "AAAAAAAAAAA=", "x": 1}'],
    ['a tag holding a number', '{"$f64": 5}'],
    ['bad base64', '{"$u8": "@@@@"}'],
    ['base64 of a wrong length', '{"$u8": "AAA"}'],
    ['bytes that are not whole values', '{"$f64": "AAAA"}'],
    ['an unknown special number', '{"$num": "1e999"}'],
  ])('refuses %s', (_what, text) => {
    expect(() => decodeWire(text)).toThrow(WireError);
  });

  it('refuses to send a DataView', () => {
    expect(() => encodeWire({ v: new DataView(new ArrayBuffer(4)) })).toThrow(WireError);
  });
});

describe('binary frames', () => {
  const concat = (f: { chunks: Uint8Array[]; byteLength: number }): Uint8Array => {
    const out = new Uint8Array(f.byteLength);
    let o = 0;
    for (const c of f.chunks) {
      out.set(c, o);
      o += c.byteLength;
    }
    expect(o).toBe(f.byteLength);
    return out;
  };

  it('carry the same values as wire JSON, typed arrays as raw aligned bytes, each decoded array owning its buffer', () => {
    const big = new ArrayBuffer(64);
    new Uint8Array(big).forEach((_, i, a) => (a[i] = i * 7));
    const r = sampleResult(1000, true);
    const value = { result: r, odd: { $f64: 'data, not a tag', n: NaN, z: -0 }, u8: Uint8Array.of(1, 2, 3), view: new Float64Array(big, 8, 3), buffer: Buffer.from('xyz'), empty: new Int32Array(0) };
    const frame = encodeFrame(value);
    const bytes = concat(frame);
    expect(isFrame(bytes)).toBe(true);
    expect(frame.arrays).toBe(2 * r.series.length + 7 + 4);
    const back = decodeFrame(bytes.slice().buffer) as typeof value;
    expect(back).toEqual(decodeWire(encodeWire(value)));
    expect(back.result).toEqual(r);
    expect(Object.is(back.odd.z, -0)).toBe(true);
    for (const k of ['address', 'latency', 'level', 'tlb', 'set', 'way', 'evicted'] as const) {
      expect(back.result.trace![k].constructor).toBe(r.trace![k].constructor);
      expect(bytesOf(back.result.trace![k]).equals(bytesOf(r.trace![k]))).toBe(true);
      expect(back.result.trace![k].buffer.byteLength).toBe(back.result.trace![k].byteLength);
    }
    // Raw bytes: the frame is about the arrays' size, a third smaller than their base64.
    const arrayBytes = Object.values(r.trace!).reduce((n: number, v) => n + (ArrayBuffer.isView(v) ? v.byteLength : 0), 0);
    expect(bytes.byteLength).toBeLessThan(encodeWire(value).length);
    expect(bytes.byteLength).toBeGreaterThan(arrayBytes);
    // A frame of a value without typed arrays holds exactly the wire JSON.
    const plain = encodeFrame({ a: 1, b: [NaN] });
    expect(plain.arrays).toBe(0);
    expect(new TextDecoder().decode(plain.json)).toBe(encodeWire({ a: 1, b: [NaN] }));
  });

  it('decode from any offset of a larger buffer', () => {
    const bytes = concat(encodeFrame({ x: Float64Array.of(1, 2, 3) }));
    const shifted = new Uint8Array(bytes.byteLength + 3);
    shifted.set(bytes, 3);
    const back = decodeFrame(shifted.subarray(3)) as { x: Float64Array };
    expect(Array.from(back.x)).toEqual([1, 2, 3]);
  });

  it('refuse malformed frames', () => {
    const good = concat(encodeFrame({ x: Float64Array.of(1, 2) }));
    expect(() => decodeFrame(new TextEncoder().encode('{"result": 1}'))).toThrow(WireError);
    expect(() => decodeFrame(good.subarray(0, good.byteLength - 8))).toThrow(/past the end/);
    const header = (json: string) => {
      const j = new TextEncoder().encode(json);
      const b = new Uint8Array(16 + j.byteLength + 64);
      b.set(new TextEncoder().encode('GLWIRE01'));
      new DataView(b.buffer).setUint32(8, j.byteLength, true);
      b.set(j, 16);
      return b;
    };
    expect(() => decodeFrame(header('{"x": {"$bin": ["f64", 0, 12]}}'))).toThrow(/whole number/);
    expect(() => decodeFrame(header('{"x": {"$bin": ["evil", 0, 8]}}'))).toThrow(/unknown type/);
    expect(() => decodeFrame(header('{"x": {"$bin": ["f64", -8, 8]}}'))).toThrow(WireError);
    expect(() => decodeFrame(header('{"x": {"$bin": 5}}'))).toThrow(WireError);
    expect(() => decodeFrame(header('{"x": {"$evil": 5}}'))).toThrow(WireError);
    // "$bin" is a frame tag only: plain wire JSON refuses it.
    expect(() => decodeWire('{"x": {"$bin": ["f64", 0, 8]}}')).toThrow(WireError);
  });
});
