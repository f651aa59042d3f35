/**
 * The plateau and partition reading (src-sim/analysis/plateaus.ts) on the simulated hopper preset's
 * L2 sweep, as on the H100's (tests/unit/plateaus.test.ts): a sweep to 74 MB over a partitioned 50 MB
 * L2 is too slow for the unit tests.
 */
import { describe, expect, it } from 'vitest';
import { findExperiment, resolveParams } from '../../src-sim/experiments';
import type { Finding } from '../../src-sim/experiments/types';
import { findPreset } from '../../src-sim/presets';

const MB = 1024 * 1024;
const find = (fs: Finding[], key: string): Finding => {
  const f = fs.find((x) => x.key === key);
  if (!f) throw new Error(`no finding ${key}`);
  return f;
};

describe('plateaus and L2 partitions on the simulated hopper preset', () => {
  it('reads near partition, far plateau, total and device memory', () => {
    const e = findExperiment('pchase-average')!;
    const fs = e.run(findPreset('hopper')!, resolveParams(e.params, { strides: '64', sizeFrom: 2 * MB, sizeTo: 74 * MB, sizeStep: 4 * MB } as never), 1, () => {}).findings;
    const near = find(fs, 's = 64 B.partition.nearBytes').value as number;
    const total = find(fs, 's = 64 B.partition.totalBytes').value as number;
    expect(near).toBeGreaterThanOrEqual(22 * MB);
    expect(near).toBeLessThanOrEqual(26 * MB);
    expect(total).toBeGreaterThanOrEqual(46 * MB);
    expect(total).toBeLessThanOrEqual(54 * MB);
    const far = find(fs, 's = 64 B.partition.farLatency').value as number;
    const dram = find(fs, 's = 64 B.partition.dramLatency').value as number;
    expect(far).toBeGreaterThan(find(fs, 's = 64 B.flat1.latency').value as number);
    expect(dram).toBeGreaterThan(far);
  });
});
