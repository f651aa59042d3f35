/**
 * The same programs on two GPUs of one chip (an H100 and an H200, both GH100 with the same SM): the
 * analysers give the same answer wherever the SM decides it, from two independent sets of runs
 * (tests/fixtures/real/h100 and h200), and a different one only where the parts differ (the L2 the
 * CUDA runtime reports: 50 MB and 60 MB).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGpuOutput } from '../../src-sim/cuda/import';

const ROOT = resolve(__dirname, '../..');
const read = (gpu: string, file: string) => importGpuOutput(readFileSync(join(ROOT, 'tests/fixtures/real', gpu, `${file}.jsonl`), 'utf8'));
const value = (gpu: string, file: string, key: string): number | string | undefined => read(gpu, file).findings.find((f) => f.key === key)?.value;

/** Structures: the same exact answer on both. */
const SAME: [string, string][] = [
  ['avg-l1', 's = 128 B.level1.sizeBytes'],
  ['avg-l1', 's = 256 B.level1.sizeBytes'],
  ['avg-l1-c0', 's = 128 B.level1.sizeBytes'],
  ['avg-l1-c100', 's = 128 B.level1.sizeBytes'],
  ['fine-cold-s4', 'trace.level2.everyBytes'],
  ['fine-cold-s4', 'trace.level3.everyBytes'],
  ['banks-64', 'shared.perConflict'],
  ['banks-64', 'shared.rule'],
];
/** Latencies the SM decides: within 5 % of each other. */
const CLOSE: [string, string][] = [
  ['avg-l1', 's = 128 B.plateau1.latency'],
  ['avg-l2', 's = 64 B.plateau1.latency'],
  ['banks-64', 'shared.base'],
];

describe('an H100 and an H200 read alike where the SM decides', () => {
  it.each(SAME)('%s: %s is the same on both, and decided', (file, key) => {
    const a = value('h100', file, key);
    expect(a, `${file} ${key}`).toBeDefined();
    expect(a).not.toBe('cannot tell');
    expect(value('h200', file, key)).toEqual(a);
  });

  it.each(CLOSE)('%s: %s agrees within 5 %%', (file, key) => {
    const a = value('h100', file, key) as number;
    const b = value('h200', file, key) as number;
    expect(typeof a).toBe('number');
    expect(Math.abs(b / a - 1)).toBeLessThan(0.05);
  });

  it('the line from capacity against stride reads 128 B on both', () => {
    for (const gpu of ['h100', 'h200']) {
      const f = read(gpu, 'avg-l1').findings.find((x) => x.key.endsWith('line.fromStrides'));
      expect(f?.value, gpu).toBe(128);
    }
  });

  it('the devices differ where the parts do: the L2 the runtime reports', () => {
    expect(read('h100', 'avg-l2').device.l2Bytes).toBe(50 * 2 ** 20);
    expect(read('h200', 'avg-l2').device.l2Bytes).toBe(60 * 2 ** 20);
  });
});
