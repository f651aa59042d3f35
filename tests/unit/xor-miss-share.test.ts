/**
 * The closed form of an XOR-indexed hypothesis's miss share (src-sim/analysis/average-curve.ts) against
 * a plain walk over every line, and the shared walk against it too, on seeded random geometries, sizes and load counts.
 */
import { describe, expect, it } from 'vitest';
import { xorMissShareConsecutive, xorMissShareWalk, type Hypothesis } from '../../src-sim/analysis/average-curve';
import { Rng } from '../../src-sim/rng';
import { xorSet } from '../../src-sim/model/index/xor';

/** The miss share as a plain walk: each touched line counted into its set, an LRU set past its ways missing every line. */
function reference(h: Hypothesis, Ns: number[], s: number, loads: (N: number) => number, sr: number): number[] {
  const counts = new Int32Array(h.sets);
  const touched: number[] = [];
  let over = 0;
  let l = 0;
  const step = Math.max(1, sr / h.lineBytes);
  return Ns.map((N) => {
    for (; l * h.lineBytes < N; l += step) {
      touched.push(l);
      const c = ++counts[xorSet(l, h.sets)];
      if (c === h.ways + 1) over += c;
      else if (c > h.ways + 1) over += 1;
    }
    const E = N / s;
    const L = loads(N);
    const T = Math.floor(L / E);
    const r = L - T * E;
    // Items of the partial traversal: one per sr bytes of its r loads.
    const m = r <= 0 ? 0 : Math.floor(((r - 1) * s) / (sr <= h.lineBytes ? h.lineBytes : sr)) + 1;
    let part = 0;
    for (let j = 0; j < m; j++) if (counts[j < touched.length ? xorSet(touched[j], h.sets) : 0] > h.ways) part++;
    return (T * over + part) / L;
  });
}

describe('xorMissShareConsecutive', () => {
  it('gives a plain walk\'s numbers for 400 random hypotheses, the level above\'s line below and past the hypothesis\'s', () => {
    const rng = new Rng(20261202);
    const pick = (n: number) => rng.int(n);
    let compared = 0;
    let consecutive = 0;
    for (let t = 0; t < 400; t++) {
      const lineBytes = 2 ** (4 + pick(5));
      const sets = 2 ** (1 + pick(8));
      const ways = 1 + pick(12);
      const s = Math.min(lineBytes, 2 ** (2 + pick(6)));
      // The level above's line: up to the hypothesis's line (every line touched) or past it (the shared walk alone).
      const sr = Math.max(s, 2 ** (2 + pick(8)));
      const h: Hypothesis = { lineBytes, sets, ways, index: 'xor', run: 1, sizeBytes: lineBytes * sets * ways };
      const base = lineBytes * sets * ways;
      const Ns = Array.from({ length: 12 }, (_, i) => Math.max(s, Math.round((base * (0.5 + i * 0.15)) / s) * s));
      const traversals = 1 + pick(3);
      const loads = (N: number) => Math.max(256, Math.ceil(N / s) * traversals + pick(2) * pick(50));
      const memo = new Map<number, number>();
      const fixed = (N: number) => memo.get(N) ?? (memo.set(N, loads(N)), memo.get(N)!);
      const b = xorMissShareWalk(h, Ns, s, fixed, sr);
      const c = reference(h, Ns, s, fixed, sr);
      const a = sr <= lineBytes ? xorMissShareConsecutive(h, Ns, s, fixed, sr) : null;
      for (let i = 0; i < Ns.length; i++) {
        if (a) expect(a[i], JSON.stringify({ h, N: Ns[i], s, sr })).toBeCloseTo(c[i], 12);
        expect(b[i], JSON.stringify({ h, N: Ns[i], s, sr })).toBeCloseTo(c[i], 12);
      }
      if (a) consecutive++;
      compared++;
    }
    expect(compared).toBe(400);
    expect(consecutive).toBeGreaterThan(100);
  });
});
