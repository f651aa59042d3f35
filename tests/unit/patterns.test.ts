import { describe, expect, it } from 'vitest';
import { findExperiment } from '../../src-sim/experiments';
import { MAX_TRACE } from '../../src-sim/experiments/types';
import { findPreset } from '../../src-sim/presets';

const patterns = findExperiment('global-latency-patterns')!;
const fine = findExperiment('pchase-fine')!;

describe('global-latency-patterns', () => {
  it('meets all six patterns on Kepler and five on Fermi, each with distinct latencies', () => {
    const k = patterns.run(findPreset('kepler')!, {}, 1, () => {});
    expect(k.tables[0].rows.map((r) => r.pattern)).toEqual([1, 2, 3, 4, 5, 6]);
    const f = patterns.run(findPreset('fermi')!, {}, 1, () => {});
    const rows = f.tables[0].rows;
    expect(rows.map((r) => r.pattern)).toEqual([1, 2, 3, 4, 5]);
    expect(new Set(rows.map((r) => r.latency)).size).toBe(5);
  });
  it('does not reach the inactive-window pattern when the far probe is switched off', () => {
    const k = patterns.run(findPreset('kepler')!, { farWindow: 0 }, 1, () => {});
    expect(k.tables[0].rows.some((r) => r.pattern === 6)).toBe(false);
  });
  it('refuses a space without TLBs with a clear message', () => {
    expect(() => patterns.run(findPreset('fermi')!, { space: 'texture' }, 1, () => {})).toThrow(/space/);
  });
});

describe('pchase-fine', () => {
  it('records every access of a small chase; a warm L1-resident chase only hits', () => {
    const r = fine.run(findPreset('fermi')!, { size: '8KB', stride: 128, iterations: 500, warmup: true }, 1, () => {});
    expect(r.trace!.latency.length).toBe(500);
    expect(r.findings.find((f) => f.key === 'trace.levels')?.value).toBe(1);
    expect(r.series[1].y[1] - r.series[1].y[0]).toBe(32); // index advances by s / 4 bytes
  });
  it('computes addresses of a 4 GB chase without allocating the array', () => {
    const r = fine.run(findPreset('kepler')!, { size: '4GB', stride: '2MB', iterations: 4096 }, 1, () => {});
    expect(r.trace!.address[2047]).toBe(2047 * 2 * 1024 ** 2);
    expect(r.trace!.address[2048]).toBe(0);
  });
  it('bounds the trace and says so', () => {
    const r = fine.run(findPreset('fermi')!, { size: '4KB', stride: 128, iterations: MAX_TRACE + 1000 }, 1, () => {});
    expect(r.trace!.latency.length).toBe(MAX_TRACE);
    expect(r.trace!.dropped).toBe(1000);
    expect(r.notes.join(' ')).toMatch(/keeps the first/);
  });
  it('names the parameter on bad input', () => {
    expect(() => fine.run(findPreset('fermi')!, { stride: 6 }, 1, () => {})).toThrow(/"stride"/);
    expect(() => fine.run(findPreset('fermi')!, { stride: '64KB', size: '4KB' }, 1, () => {})).toThrow(/larger than/);
    expect(() => fine.run(findPreset('fermi')!, { init: 'non-uniform', space: 'texture' }, 1, () => {})).toThrow(/global/);
    expect(() => fine.run(findPreset('fermi')!, { space: 'constant' }, 1, () => {})).toThrow(/no constant memory space/);
  });
});
