/**
 * Growing the typed-array pools of the timing tier (packets in the engine, requests in the DRAM
 * model): records live in parallel typed arrays indexed by slot, free slots on a stack. Pools double
 * when full, which happens a few times per run, never per access.
 */

type Pooled = Int32Array | Uint8Array | Float64Array;

/** A copy of `a` in an array of the same kind and length `m` (>= a.length). */
export function grown<T extends Pooled>(a: T, m: number): T {
  const b = new (a.constructor as new (n: number) => T)(m);
  b.set(a);
  return b;
}

/**
 * The free-slot stack of a pool grown from `n` to `m` slots: the old stack (its `top` entries) with
 * slots n .. m-1 pushed so that slot n is popped first. The new top is `top + m - n`.
 */
export function grownFreeStack(free: Int32Array, top: number, n: number, m: number): Int32Array {
  const f = new Int32Array(m);
  f.set(free);
  for (let i = n; i < m; i++) f[top++] = m - 1 - (i - n);
  return f;
}

/** A full ring buffer (`len` entries from `head`) copied in order into one twice as long, from index 0. */
export function grownRing(buf: Int32Array, head: number, len: number): Int32Array {
  const nb = new Int32Array(buf.length * 2);
  for (let i = 0; i < len; i++) nb[i] = buf[(head + i) % buf.length];
  return nb;
}
