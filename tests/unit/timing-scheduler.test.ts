import { describe, expect, it } from 'vitest';
import { findExperiment } from '../../src-sim/experiments';
import { findPreset } from '../../src-sim/presets';
import { validatePreset } from '../../src-sim/presets/validate';
import { schedulerOf } from '../../src-sim/timing/types';

/* A preset names its GPU's warp scheduler (TimingConfig.warpScheduler); runs use it unless they name another as a what-if. */

describe('the warp scheduler a run uses', () => {
  it("is the run's choice, else the preset's, else loose round-robin", () => {
    expect(schedulerOf({ warpScheduler: 'gto' }, 'preset')).toBe('gto');
    expect(schedulerOf({ warpScheduler: 'gto' }, 'lrr')).toBe('lrr');
    expect(schedulerOf({}, 'preset')).toBe('lrr');
    expect(schedulerOf({ warpScheduler: 'lrr' }, 'gto')).toBe('gto');
  });

  it("fermi480 runs GPGPU-Sim 3.2.2's GTX 480 scheduler, greedy-then-oldest, citing the option", () => {
    const p = findPreset('fermi480')!;
    expect(p.timing!.warpScheduler).toBe('gto');
    expect(p.provenance['timing.warpScheduler']).toMatch(/-gpgpu_scheduler gto/);
    expect(p.provenance['timing.aluLatency']).toMatch(/-ptx_opcode_latency_int 4,13,4,5,145/);
    expect(p.timing!.aluLatency).toBe(8);
  });

  it("a stencil run by default equals one under the preset's policy and differs from the loose round-robin what-if", () => {
    const e = findExperiment('lash-stencil')!;
    const p = findPreset('fermi480')!;
    const small = { n: 16384, iterations: 1, types: '1' };
    const cycles = (scheduler?: string) => e.run(p, { ...small, ...(scheduler ? { scheduler } : {}) }, 1, () => {}).series[0]!.y;
    expect(cycles()).toEqual(cycles('gto'));
    expect(cycles('lrr')).not.toEqual(cycles('gto'));
  });

  it('refuses an unknown policy in a custom preset', () => {
    const p = structuredClone(findPreset('fermi480')!);
    (p.timing as { warpScheduler: string }).warpScheduler = 'round-robin';
    expect(validatePreset(p).ok).toBe(false);
  });
});
