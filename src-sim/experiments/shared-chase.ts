import type { SharedMemoryConfig } from '../model/shared';
import { conflictDegree, sharedLatency } from '../model/shared';
import type { Measurement } from './pchase';
import { checkStride } from './pchase';
import { ExperimentError } from './types';

/**
 * WONG IV-F: average latency of one thread's dependent loads through a __shared__ array of N bytes with
 * stride s (Listings 1-2 on shared memory). The model has no cache in front of the banks, so a load
 * costs the bank latency of its access whatever its address: a single thread is alone in its issue
 * group, conflict degree 1. The curve over N and s is flat by construction, which is WONG's finding;
 * the analyser, not this function, is what reads "no caching" off it.
 */
export function sharedAverageChase(cfg: SharedMemoryConfig, m: Measurement, N: number, s: number, accesses: number): number {
  checkStride(N, s);
  if (N > cfg.sizeBytes) throw new ExperimentError(`a shared array of ${N} B does not fit the ${cfg.sizeBytes} B of shared memory`, 'size');
  const latency = sharedLatency(cfg, conflictDegree(Int32Array.of(0), cfg.banks, cfg.modes[cfg.defaultMode], cfg.issueGroup));
  let sum = 0;
  for (let i = 0; i < accesses; i++) sum += m.read(latency);
  return sum / accesses;
}
