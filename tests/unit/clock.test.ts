import { describe, expect, it } from 'vitest';
import type { BlockStamp } from '../../src-sim/analysis/clock';
import { clockCost, inferClockScope, launchesSerialised } from '../../src-sim/analysis/clock';
import { clock, clockProgram, clockValue, issueClockReads } from '../../src-sim/experiments/clock';
import { ExperimentError } from '../../src-sim/experiments/types';
import { findPreset } from '../../src-sim/presets';
import type { Preset } from '../../src-sim/presets/types';

const tesla = findPreset('tesla') as Preset;
const noop = () => {};
const find = (r: ReturnType<typeof clock.run>, key: string) => r.findings.find((f) => f.key === key)?.value;

describe('clock() overhead (WONG IV-A)', () => {
  it('two back-to-back reads are 24 + 4 cycles apart; each independent op adds an issue slot', () => {
    expect(issueClockReads(clockProgram(0), 4, 24)).toEqual([0, 28]);
    expect(issueClockReads(clockProgram(3), 4, 24)).toEqual([0, 40]);
    expect(issueClockReads(clockProgram(0), 2, 10)).toEqual([0, 12]);
  });

  it('reads a half-rate counter shifted left by one', () => {
    expect(clockValue(0, 0)).toBe(0);
    expect(clockValue(1, 0)).toBe(0);
    expect(clockValue(2, 0)).toBe(2);
    expect(clockValue(28, 7) - clockValue(0, 7)).toBe(28);
  });

  it('the experiment measures 28 cycles and 4 per further op on Tesla', () => {
    const r = clock.run(tesla, { maxOps: 4 }, 1, noop);
    expect(find(r, 'clock.overhead')).toBe(28);
    expect(find(r, 'clock.opCycles')).toBe(4);
    expect(Array.from(r.series[0].y)).toEqual([28, 32, 36, 40, 44]);
  });

  it('follows the preset: a 10-cycle SP latency gives 14', () => {
    const p = structuredClone(tesla);
    p.alu.spLatency = 10;
    expect(find(clock.run(p, {}, 1, noop), 'clock.overhead')).toBe(14);
  });
});

describe('clock registers (WONG Fig 5)', () => {
  it('reads per-TPC registers on Tesla, and whatever scope the preset gives', () => {
    for (const [scope, seen] of [['tpc', 'TPC'], ['sm', 'SM'], ['chip', 'chip']] as const) {
      const p = structuredClone(tesla);
      p.measurement.clockScope = scope;
      const r = clock.run(p, {}, 11, noop);
      expect(find(r, 'clock.scope')).toBe(seen);
      expect(find(r, 'clock.serialized')).toBe('yes');
    }
  });

  it('one block per TPC cannot tell TPC from SM registers', () => {
    expect(find(clock.run(tesla, { firstBlocks: 10, secondBlocks: 10 }, 1, noop), 'clock.scope')).toBe('unclear');
  });

  it('different seeds start the registers differently', () => {
    const a = clock.run(tesla, {}, 1, noop).tables[0].rows.map((r) => r.start);
    const b = clock.run(tesla, {}, 2, noop).tables[0].rows.map((r) => r.start);
    expect(a).not.toEqual(b);
  });

  it('refuses presets without clock facts and too many blocks', () => {
    expect(() => clock.run(findPreset('fermi') as Preset, {}, 1, noop)).toThrow(ExperimentError);
    expect(() => clock.run(tesla, { secondBlocks: 31 }, 1, noop)).toThrow(/secondBlocks/);
  });

  it('analyser: scope and serialisation from stamps alone', () => {
    const b = (launch: number, sm: number, tpc: number, start: number, end: number): BlockStamp => ({ launch, block: sm, sm, tpc, start, end });
    expect(inferClockScope([b(1, 0, 0, 100, 200), b(1, 1, 0, 100, 200), b(1, 3, 1, 900, 1000), b(1, 4, 1, 900, 1000)], 8)).toBe('TPC');
    expect(inferClockScope([b(1, 0, 0, 100, 200), b(1, 1, 0, 500, 600), b(1, 3, 1, 900, 1000)], 8)).toBe('SM');
    expect(inferClockScope([b(1, 0, 0, 100, 200), b(1, 3, 1, 104, 204)], 8)).toBe('chip');
    expect(launchesSerialised([b(1, 0, 0, 100, 200), b(2, 0, 0, 300, 400), b(2, 3, 1, 50, 150), b(1, 3, 1, 0, 40)], 1, 2)).toBe(true);
    expect(launchesSerialised([b(1, 0, 0, 100, 200), b(2, 0, 0, 150, 400)], 1, 2)).toBe(false);
    expect(clockCost([28, 32, 36])).toEqual({ overhead: 28, perOp: 4 });
  });
});
