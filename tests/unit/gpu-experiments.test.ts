/**
 * gpu.experiments: the Real GPU page's experiments and parameters come from the main process, so the
 * renderer ships no experiment code. Each experiment with a CUDA program is listed with its
 * real-GPU-only parameters, and an enum keeps only the choices its program takes (the TLB program
 * runs the reach probe only).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TempDir, testLab } from './lab-fixtures';

let tmp: TempDir | null = null;
afterEach(() => {
  tmp?.remove();
  tmp = null;
});

describe('gpu.experiments', () => {
  it('lists the experiments with a CUDA program and their real-GPU parameters', async () => {
    tmp = new TempDir();
    const { lab } = testLab(tmp.file('lab.db'));
    try {
      const list = await lab.api.gpu.experiments();
      expect(list.map((e) => e.id)).toEqual(['pchase-average', 'pchase-fine', 'shared-bank-stride', 'tlb-probes', 'global-latency-patterns']);
      const avg = list.find((e) => e.id === 'pchase-average')!;
      expect(avg.params.map((p) => p.name)).toEqual(expect.arrayContaining(['carveout', 'chase', 'strides']));
      const probe = list.find((e) => e.id === 'tlb-probes')!.params.find((p) => p.name === 'probe')!;
      expect(probe.kind === 'enum' && probe.options).toEqual(['reach']);
      expect(probe.default).toBe('reach');
    } finally {
      await lab.close();
    }
  });
});
