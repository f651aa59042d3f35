/** A seeded stream of byte addresses for cache tests: half in a hot quarter of `span`, some anywhere in it, the rest a stream over four spans. */
import { Rng } from '../../src-sim/rng';

export function mixedTrace(seed: number, n: number, span: number): Float64Array {
  const rng = new Rng(seed);
  const out = new Float64Array(n);
  let stream = 0;
  for (let i = 0; i < n; i++) {
    const r = rng.next();
    if (r < 0.5) out[i] = rng.int(span / 4);
    else if (r < 0.8) out[i] = rng.int(span);
    else out[i] = stream = (stream + 4) % (4 * span);
  }
  return out;
}
