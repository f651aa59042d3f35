import type { CoreConfig } from './types';

/**
 * WONG IV-J3, Fig 19: aggregate read bandwidth of the constant L3 while `blocks` blocks each read
 * `bytesPerBlock` bytes of constants with independent requests. Blocks go to SMs round-robin (one
 * block per SM up to the SM count, then a second block on the first SMs). Every SM fetches at most
 * `bytesPerCyclePerSM`, whatever the demand of its block(s); the L3 serves at most
 * `bytesPerCycleTotal`, shared fairly among the SMs still reading (max-min fair rates). Returns the
 * cycles until the last block finishes, and the aggregate bandwidth (bytes read / cycles).
 */
export function constantL3Run(bw: CoreConfig['constantL3'], sms: number, blocks: number, bytesPerBlock: number): { cycles: number; bytesPerCycle: number } {
  const load = new Float64Array(Math.min(blocks, sms));
  for (let b = 0; b < blocks; b++) load[b % sms] += bytesPerBlock;
  const left = Array.from(load).sort((a, b) => a - b);
  let t = 0;
  let i = 0;
  let done = 0;
  while (i < left.length) {
    const active = left.length - i;
    const rate = Math.min(bw.bytesPerCyclePerSM, bw.bytesPerCycleTotal / active);
    // The SM with the least left finishes first; all active SMs read at `rate` until then.
    const dt = (left[i] - done) / rate;
    t += dt;
    done = left[i];
    while (i < left.length && left[i] - done <= 1e-9) i++;
  }
  return { cycles: t, bytesPerCycle: t > 0 ? (blocks * bytesPerBlock) / t : 0 };
}
