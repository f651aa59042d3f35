import type { IndexExpr, Kernel } from './types';

/**
 * Where the engine puts global arrays and how it evaluates an element index: shared with the S-L1
 * monitoring phase (sl1.ts), whose line tags must agree with the engine's.
 *
 * Layout: one layout for all kernels of a run. Global arrays are named; an array keeps its address
 * from one launch to the next (so caches stay warm). In order of first appearance (kernels in order,
 * arrays in declaration order), each array starts at the previous one's end rounded up to 4 KB,
 * the first at `baseAddress` rounded up to 4 KB; an array declared with different lengths gets the
 * largest. Shared arrays have no global address.
 */
export function layoutArrays(kernels: readonly Kernel[], baseAddress = 0): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const k of kernels)
    for (const a of k.arrays) if (a.space === 'global') sizes.set(a.name, Math.max(sizes.get(a.name) ?? 0, a.length * a.elemBytes));
  const out = new Map<string, number>();
  let cursor = Math.ceil(baseAddress / 4096) * 4096;
  for (const [name, bytes] of sizes) {
    out.set(name, cursor);
    cursor = Math.ceil((cursor + Math.max(bytes, 1)) / 4096) * 4096;
  }
  return out;
}

/** Byte address of element 0 of every global array of one kernel run alone. */
export function arrayBases(kernel: Kernel, baseAddress = 0): Record<string, number> {
  return Object.fromEntries(layoutArrays([kernel], baseAddress));
}

/**
 * Element index of one thread: offset + sum of coef * ((floor(v / div)) mod mod) over the terms,
 * floored to an integer and clamped into [0, length - 1]. `vars` gives tid, bid, bdim, gdim and the
 * loop variables; gtid defaults to bid * bdim + tid.
 */
export function evalIndex(expr: IndexExpr, vars: Record<string, number>, length: number): number {
  let v = expr.offset ?? 0;
  for (const t of expr.terms) {
    let x = t.var === 'gtid' && vars.gtid === undefined ? vars.bid * vars.bdim + vars.tid : vars[t.var];
    if (x === undefined) throw new Error(`index variable "${t.var}" has no value`);
    const d = t.div ?? 1;
    if (d > 1) x = Math.floor(x / d);
    const m = t.mod ?? 0;
    if (m > 0) x = ((x % m) + m) % m;
    v += t.coef * x;
  }
  v = Math.floor(v);
  return v < 0 ? 0 : v >= length ? length - 1 : v;
}
