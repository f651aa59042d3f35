import { describe, expect, it } from 'vitest';
import { findExperiment } from '../../src-sim/experiments';
import { findPreset } from '../../src-sim/presets';
import type { Preset } from '../../src-sim/presets/types';
import { runRow } from '../../src-sim/reference/check';
import { REPRODUCTION_ROWS } from '../../src-sim/reference';
import { isolatedLatencies, ROWS } from '../../src-sim/reference/rows-sl1';
import type { TimingConfig } from '../../src-sim/timing/types';

const titan = findPreset('titan') as Preset;
const timing = (titan as Preset & { timing: TimingConfig }).timing;
const row = (id: string) => {
  const r = ROWS.find((x) => x.id === id);
  if (!r) throw new Error(`no row ${id}`);
  return r;
};

/**
 * Rows whose targets the model reaches today. SL1-F1, F7, F12 and F13 carry known deviations (F7's
 * means, per-application range, grep and slowdown set with SL1 4.1's 16 KB hardware L1; F1's
 * 2048-thread hit rate with Titan's L1 allocating on fill; F12's overhead and F13's 24 B count under
 * Titan's greedy-then-oldest scheduler): their other checks must pass. See docs/SL1.md for the
 * numbers and why.
 */
const PASSING = ['SL1-LAT', 'SL1-F5', 'SL1-F6', 'SL1-SHM', 'SL1-CLN', 'SL1-F8', 'SL1-F9', 'SL1-MON'];
const WITH_KNOWN = ['SL1-F1', 'SL1-F7', 'SL1-F12', 'SL1-F13'];

describe('SL1 rows on the Titan preset', () => {
  it('has every SL1 row of REPRODUCTION.md, registered, each reference citing SL1', () => {
    expect(ROWS.map((r) => r.id)).toEqual(['SL1-LAT', 'SL1-F1', 'SL1-F5', 'SL1-F6', 'SL1-SHM', 'SL1-CLN', 'SL1-F7', 'SL1-F8', 'SL1-F9', 'SL1-F12', 'SL1-F13', 'SL1-MON']);
    for (const r of ROWS) {
      expect(REPRODUCTION_ROWS).toContain(r);
      expect(r.paper).toBe('SL1');
      expect(r.presets).toEqual(['titan']);
      for (const ref of r.references(titan)) expect(ref.citation).toMatch(/^SL1 /);
    }
  });

  it('measures isolated latencies from the engine, not from the preset table', () => {
    const m = isolatedLatencies(timing);
    expect(m.registers).toBeCloseTo(timing.aluLatency, 6);
    // A slower L2 in the configuration shows in the measured L2 and DRAM latencies.
    const slow = isolatedLatencies({ ...timing, l2: { ...timing.l2, hitLatency: timing.l2.hitLatency + 50 } });
    expect((slow.L2 as number) - (m.L2 as number)).toBeCloseTo(50, 0);
    expect((slow.DRAM as number) - (m.DRAM as number)).toBeGreaterThanOrEqual(49);
    expect(slow.L1).toBe(m.L1);
  });

  for (const id of WITH_KNOWN) {
    it(`${id}: every check without a known deviation passes, and no known deviation passes unexpectedly`, { timeout: 600_000 }, () => {
      const res = runRow(row(id), titan, 1);
      const refs = row(id).references(titan);
      const noted = new Set(refs.filter((r) => r.knownDeviation).map((r) => r.name));
      expect(noted.size).toBeGreaterThan(0);
      expect(res.checks.filter((c) => !noted.has(c.name) && !c.pass).map((c) => `${c.name}: ${c.simulated}`)).toEqual([]);
      expect(res.checks.filter((c) => c.unexpectedPass).map((c) => c.name)).toEqual([]);
    });
  }

  it("SL1-F13 judges 8 B lines on the applications S-L1 caches (Kmeans, with no S-L1 lines, may tie)", { timeout: 600_000 }, () => {
    const res = runRow(row('SL1-F13'), titan, 1);
    const by = (n: string) => res.checks.find((c) => c.name === n);
    expect(by('apps faster with 8 B lines')?.simulated).toMatch(/^0 /);
    expect(by('apps S-L1 caches that are not slower with 8 B lines')?.simulated).toBe('(none)');
    expect(res.checks.map((c) => c.name)).not.toContain('apps slower with 8 B lines');
  });

  for (const id of PASSING) {
    it(`${id} passes`, { timeout: 600_000 }, () => {
      const res = runRow(row(id), titan, 1);
      expect(res.checks.filter((c) => !c.pass), `${id}: ${res.simulated}`).toEqual([]);
      for (const run of res.runs) expect(findExperiment(run.experiment), run.experiment).toBeDefined();
    });
  }
});
