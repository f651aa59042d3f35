import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { firstCapacity, lineFromStrides, readPlateaus, sweepPlateauFindings } from '../../src-sim/analysis/plateaus';
import { importGpuOutput, TLB_GAP_FLOOR } from '../../src-sim/cuda/import';
import { findExperiment, resolveParams } from '../../src-sim/experiments';
import type { Finding } from '../../src-sim/experiments/types';
import { findPreset } from '../../src-sim/presets';
import type { Preset } from '../../src-sim/presets/types';

const FIXTURES = join(resolve(__dirname, '../..'), 'tests/fixtures/real/h100');
const fixture = (name: string): string => readFileSync(join(FIXTURES, `${name}.jsonl`), 'utf8');
type Point = { type: string; stride: number; size: number; loads: number; cycles: number; cycles2: number; curve?: string; elements?: number };
const points = (name: string): Point[] =>
  fixture(name)
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Point)
    .filter((l) => l.type === 'point');
/** One stride's curve, computed here from the raw stretches: (cycles of 2n loads - cycles of n loads) / n. */
const curve = (name: string, s: number): { x: number[]; y: number[] } => {
  const p = points(name)
    .filter((q) => q.stride === s)
    .sort((a, b) => a.size - b.size);
  return { x: p.map((q) => q.size), y: p.map((q) => (q.cycles2 - q.cycles) / q.loads) };
};
const find = (fs: Finding[], key: string): Finding => {
  const f = fs.find((x) => x.key === key);
  expect(f, `finding ${key} among ${fs.map((x) => x.key).join(', ')}`).toBeDefined();
  return f as Finding;
};
const run = (preset: Preset, raw: Record<string, unknown>): Finding[] => {
  const e = findExperiment('pchase-average')!;
  return e.run(preset, resolveParams(e.params, raw as never), 1, () => {}).findings;
};
const MB = 1024 * 1024;

describe('line size from capacity against stride', () => {
  it('reads 128 B on the H100 (capacity the same at 32 and 128 B, twice it at 256 B)', () => {
    const r = importGpuOutput(fixture('avg-l1'));
    const f = find(r.findings, 'line.fromStrides');
    // From the raw points: the last size before the latency leaves the first plateau by more than a cycle.
    const leave = (s: number): number => {
      const { x, y } = curve('avg-l1', s);
      return x[y.findIndex((v) => v > y[0] + 1) - 1];
    };
    expect(leave(32)).toBe(leave(128));
    expect(leave(256)).toBe(2 * leave(128));
    expect(f.value).toBe(128);
    expect(f.evidence).toContain(`stays 240 KB up to 128 B`);
    expect(f.evidence).toContain('the line a tag covers');
  });

  it('cannot tell on the L2 sweep, where the two strides neither share a capacity nor grow with the stride', () => {
    expect(find(importGpuOutput(fixture('avg-l2')).findings, 'line.fromStrides').value).toBe('cannot tell');
  });

  it('on a set-indexed simulated L1 (Fermi) names the way as well as the line, and reads no line from strides the capacity does not move at', () => {
    const fermi = findPreset('fermi')!;
    const low = find(run(fermi, { strides: '64,128,256', sizeFrom: '1KB', sizeTo: '32KB', sizeStep: '1KB' }), 'line.fromStrides');
    expect(low.value).toBe('cannot tell');
    expect(low.evidence).toContain('picks its set by address bits');
    // Fermi's 16 KB L1 of 4 ways: the capacity stays to one way (4 KB) and doubles past it.
    const high = find(run(fermi, { strides: '2KB,4KB,8KB', sizeFrom: '8KB', sizeTo: '64KB', sizeStep: '2KB' }), 'line.fromStrides');
    expect(high.value).toBe('cannot tell');
    expect(high.evidence).toContain('or one way');
  });

  it('reads the line of a simulated fully associative L1, sectored or not', () => {
    for (const sector of [0, 32]) {
      const p = structuredClone(findPreset('fermi')!) as Preset;
      const l1 = p.spaces.global!.levels[0];
      l1.geometry = { ...l1.geometry, lineBytes: 128, sets: 1, ways: 256, index: { kind: 'bits' }, policy: { kind: 'lru' }, ...(sector ? { sectorBytes: sector } : {}) };
      const f = find(run(p, { strides: '32,64,128,256,512', sizeFrom: '2KB', sizeTo: '160KB', sizeStep: '2KB' }), 'line.fromStrides');
      expect(f.value, f.evidence).toBe(128);
    }
  });

  it('says cannot tell with too few strides or no stride above the line', () => {
    expect(lineFromStrides([{ stride: 64, capacity: 1024, step: 64 }]).value).toBe('cannot tell');
    const flat = lineFromStrides([
      { stride: 32, capacity: 4096, step: 64 },
      { stride: 64, capacity: 4096, step: 64 },
    ]);
    expect(flat.value).toBe('cannot tell');
    expect(flat.evidence).toContain('64 B or larger');
    // Growth by less than the stride: the line lies between the strides read.
    const between = lineFromStrides([
      { stride: 32, capacity: 4096, step: 64 },
      { stride: 64, capacity: 4096, step: 64 },
      { stride: 256, capacity: 8192, step: 64 },
    ]);
    expect(between.value).toBe('cannot tell');
    expect(between.evidence).toContain('between the strides read');
    const { x, y } = curve('avg-l1', 256);
    expect(firstCapacity(x, y, 256).capacity).toBe(491520);
  });
});

describe('plateaus and L2 partitions', () => {
  it('reads the H100 L2 sweep as near partition, far plateau, total and device memory', () => {
    const r = importGpuOutput(fixture('avg-l2'));
    const { x, y } = curve('avg-l2', 64);
    const near = find(r.findings, 's = 64 B.partition.nearBytes').value as number;
    const total = find(r.findings, 's = 64 B.partition.totalBytes').value as number;
    const far = find(r.findings, 's = 64 B.partition.farLatency').value as number;
    const dram = find(r.findings, 's = 64 B.partition.dramLatency').value as number;
    expect(near).toBeGreaterThanOrEqual(22 * MB);
    expect(near).toBeLessThanOrEqual(24 * MB);
    expect(total).toBeGreaterThanOrEqual(46 * MB);
    expect(total).toBeLessThanOrEqual(50 * MB);
    // The raw points: flat within a cycle up to the near size, the far latency at 40 MB, device memory at the end.
    const at = (N: number): number => y[x.indexOf(N)];
    for (let i = 0; x[i] <= near; i++) expect(Math.abs(y[i] - y[0])).toBeLessThan(1.5);
    expect(at(near + 4 * MB) - y[0]).toBeGreaterThan(100);
    expect(far).toBeCloseTo(at(40 * MB), 0);
    expect(Math.abs(dram - y[y.length - 1])).toBeLessThan(1);
    expect(find(r.findings, 's = 64 B.plateaus').value).toBe(3);
    // At 512 B the curve creeps up past the L2 with no flat device-memory plateau.
    expect(find(r.findings, 's = 512 B.partition.nearBytes').value).toBe('cannot tell');
  });

  it('cannot tell where the curve is not flat', () => {
    const x = Array.from({ length: 40 }, (_, i) => (i + 1) * 2 * MB);
    const ramp = x.map((_, i) => 300 + 10 * i);
    expect(readPlateaus(x, ramp).plateaus).toHaveLength(0);
    const fs = sweepPlateauFindings([{ stride: 64, label: 'r', x, y: ramp }]);
    expect(find(fs, 'r.partition.nearBytes').value).toBe('cannot tell');
    // Below the L1 no partition reading is made.
    expect(sweepPlateauFindings([{ stride: 64, label: 'r', x: x.map((v) => v / 1024), y: ramp }]).some((f) => f.key.includes('partition'))).toBe(false);
  });
});

describe('TLB level gap from the noise', () => {
  it('reads the 9-cycle step of the H100 at a 32 MB stride by default, as --level-gap 8 does, and not with the old 64', () => {
    const t = fixture('tlb-32m-cg');
    const main = points('tlb-32m-cg')
      .filter((p) => p.curve === 'main')
      .sort((a, b) => (a.elements ?? 0) - (b.elements ?? 0))
      .map((p) => (p.cycles2 - p.cycles) / p.loads);
    // The step between 16 and 17 elements, from the raw points.
    expect(main[16] - main[15]).toBeGreaterThan(TLB_GAP_FLOOR);
    expect(main[16] - main[15]).toBeLessThan(64);
    const def = importGpuOutput(t);
    expect(find(def.findings, 'tlb.l1.reachBytes').value).toBe(16 * 32 * MB);
    expect(find(importGpuOutput(t, { levelGap: 8 }).findings, 'tlb.l1.reachBytes').value).toBe(16 * 32 * MB);
    expect(importGpuOutput(t, { levelGap: 64 }).findings.some((f) => f.key === 'tlb.l1.reachBytes')).toBe(false);
    expect(def.notes.join(' ')).toContain("comes from the main curve's noise");
  });
});

describe('cold-trace device memory', () => {
  it('reads the H100 cold trace as hits and one device-memory level', () => {
    const r = importGpuOutput(fixture('fine-16k-cold'));
    expect(find(r.findings, 'trace.levels').value).toBe(2);
    const dm = find(r.findings, 'trace.deviceMemory');
    expect(dm.evidence).toContain('not cache levels');
    expect(r.findings.some((f) => f.key === 'trace.level3.latency')).toBe(false);
    // The mean and spread of every access above the L1 hits, from the raw trace.
    const tr = fixture('fine-16k-cold')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string; cycles?: number[] })
      .find((l) => l.type === 'trace')!;
    const slow = tr.cycles!.map((c) => c - 2).filter((c) => c > 200);
    const mean = slow.reduce((a, b) => a + b, 0) / slow.length;
    expect(find(r.findings, 'trace.level2.latency').value as number).toBeCloseTo(mean, 0);
    expect(dm.value).toBe(`${Math.min(...slow)}..${Math.max(...slow)} (mean ${mean.toFixed(1)})`);
    expect(find(r.findings, 'trace.level2.everyBytes').value).toBe(128);
  });

  it('leaves every level of a simulated cold trace as read: exact latencies are each a level of their own (the first access, a TLB miss, included)', () => {
    const e = findExperiment('pchase-fine')!;
    const r = e.run(findPreset('fermi')!, resolveParams(e.params, { size: '32KB', stride: 32, warmup: false, iterations: 2048 } as never), 1, () => {});
    const lat = r.trace!.latency;
    expect(find(r.findings, 'trace.levels').value).toBe(4);
    expect(find(r.findings, 'trace.level2.latency').value).toBe(404);
    expect(find(r.findings, 'trace.level2.everyBytes').value).toBe(128);
    expect(find(r.findings, 'trace.level3.everyBytes').value).toBe(128);
    expect(find(r.findings, 'trace.level4.latency').value).toBe(Math.max(...lat));
    expect(r.findings.some((f) => f.key === 'trace.deviceMemory')).toBe(false);
  });
});
