/**
 * The timing engine as its importers see it under scripts/timing-fingerprint.ts: the same exports,
 * with simulate() recording a hash of its inputs and of the full statistics record of each call.
 */
import { createHash } from 'node:crypto';
import * as real from '../src-sim/timing/engine';
import type { Kernel, TimingConfig, TimingOptions, TimingStats } from '../src-sim/timing/types';

export * from '../src-sim/timing/engine';

export interface TapRecord {
  kernels: string;
  input: string;
  stats: string;
  cycles: number;
  ms: number;
}

const taps: TapRecord[] = [];
(globalThis as { __timingTap?: TapRecord[] }).__timingTap = taps;

/** JSON with typed arrays as plain arrays, functions dropped: a stable text of a value. */
export function stableText(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => {
    if (ArrayBuffer.isView(x) && !(x instanceof DataView)) return Array.from(x as unknown as ArrayLike<number>);
    if (typeof x === 'function') return undefined;
    return x;
  });
}

export const hash = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 16);

export function simulate(config: TimingConfig, kernels: Kernel[], options: Partial<TimingOptions> = {}): TimingStats {
  const t0 = performance.now();
  const { progress: _p, ...opts } = options;
  const input = hash(stableText({ config, kernels, opts }));
  const stats = real.simulate(config, kernels, options);
  taps.push({ kernels: kernels.map((k) => k.name).join('+'), input, stats: hash(stableText(stats)), cycles: stats.cycles, ms: performance.now() - t0 });
  return stats;
}
