/**
 * Every check declares what it can prove (REPRODUCTION.md, "Every check declares its kind"), and the
 * declarations are held to the presets' provenance: a check whose citation names a table, figure or
 * section that is also the source of a number in the preset it runs on cannot call itself
 * 'predicted' without saying why that number does not determine the value, and never when the check
 * is a latency (a latency table set from the same source reads it back: 'calibrated').
 */
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src-sim/presets';
import type { Preset } from '../../src-sim/presets/types';
import { CHECK_KINDS, REPRODUCTION_ROWS, checkStatus, gateOpen, kindTotals, rowGate } from '../../src-sim/reference';
import { checkOne, kindOf } from '../../src-sim/reference/check';
import { PREDICTED, calibrated } from '../../src-sim/reference/kinds';
import type { CheckResult, Reference, RowResult } from '../../src-sim/reference/types';
import { sources } from '../../src-sim/reference/sources';

const PAPER_KEYS = ['MEI', 'WONG', 'LASH', 'SL1', 'JIA18', 'JIA19', 'ABD22', 'LUO24', 'H100', 'H200'];

/** Every source named by the preset's provenance. */
function presetSources(preset: Preset): Set<string> {
  const out = new Set<string>();
  for (const v of Object.values(preset.provenance)) if (!/^assumed/i.test(v)) for (const s of sources(v)) out.add(s);
  return out;
}

const cases: { row: (typeof REPRODUCTION_ROWS)[number]; preset: Preset; refs: Reference[] }[] = [];
for (const row of REPRODUCTION_ROWS)
  for (const id of row.presets) {
    const preset = findPreset(id);
    if (preset) cases.push({ row, preset, refs: row.references(preset) });
  }

describe('the sources a citation names', () => {
  it('reads tables, figures with lists and ranges, and sections, leaving parenthesised details out', () => {
    expect([...sources('MEI Table 3 (Fermi, L1 enabled, pattern 1)')]).toEqual(['MEI Table 3']);
    expect(sources('WONG IV-I1, Figs 13-14 (16 entries of 512 KB)')).toEqual(new Set(['WONG Fig 13', 'WONG Fig 14', 'WONG §IV-I1']));
    expect(sources('SL1 2.3.1, Fig 5 (one SMX flattens at about 32 GB/s)')).toEqual(new Set(['SL1 Fig 5', 'SL1 §2.3.1']));
    expect(sources('LASH VI (GPGPU-Sim 3.2.2: Table 9 of nothing)')).toEqual(new Set(['LASH §VI']));
    expect(sources('MEI 4.1, Fig 9 ("the non-LRU Fermi cache has a maximum miss rate of 50%")')).toEqual(new Set(['MEI Fig 9', 'MEI §4.1']));
    expect(sources('WONG Tables II, III (x); MEI Table 1')).toEqual(new Set(['WONG Table II', 'WONG Table III', 'MEI Table 1']));
  });
});

describe('every check declares its kind', () => {
  it('covers every row of all four papers on each preset its paper measured', () => {
    expect(new Set(cases.map((c) => c.row.paper))).toEqual(new Set(PAPER_KEYS));
    expect(cases.reduce((n, c) => n + c.refs.length, 0)).toBeGreaterThan(300);
  });

  it('gives each check a kind, and a one-line reason where it is calibrated or specification', () => {
    const bad: string[] = [];
    for (const { row, preset, refs } of cases)
      for (const ref of refs) {
        const k = kindOf(ref, row.kind);
        const where = `${row.id} on ${preset.id}: ${ref.name}`;
        if (!CHECK_KINDS.includes(k.kind)) bad.push(`${where}: kind ${String(k.kind)}`);
        if (k.kind !== 'predicted' && !(k.reason && k.reason.trim().length >= 20)) bad.push(`${where}: ${k.kind} without a reason`);
        if (k.reason && (k.reason.includes('\n') || k.reason.length > 300)) bad.push(`${where}: the reason is not one line`);
      }
    expect(bad).toEqual([]);
  });

  it("calls no check 'predicted' that cites a source of its preset's numbers without saying why, and no such latency at all", () => {
    const bad: string[] = [];
    for (const { row, preset, refs } of cases) {
      const fromPreset = presetSources(preset);
      for (const ref of refs) {
        const k = kindOf(ref, row.kind);
        if (k.kind !== 'predicted') continue;
        const shared = [...sources(ref.citation)].filter((s) => fromPreset.has(s));
        if (!shared.length) continue;
        const where = `${row.id} on ${preset.id}: "${ref.name}" cites ${shared.join(', ')}, a source of ${preset.id}'s numbers`;
        if (ref.tolerance === 'latency') bad.push(`${where}, and is a latency: calibrated`);
        else if (!k.reason) bad.push(`${where}, with no reason why that does not determine the value`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('marks the circular checks the papers name as consistency, not reproduction', () => {
    const kindsOf = (rowId: string): Set<string> => {
      const out = new Set<string>();
      for (const c of cases.filter((x) => x.row.id === rowId)) for (const r of c.refs) out.add(kindOf(r, c.row.kind).kind);
      return out;
    };
    // Table 1 facts and configuration rows are read back from preset data.
    for (const id of ['LASH-CFG', 'SL1-CLN', 'SL1-MON']) expect(kindsOf(id)).not.toContain('predicted');
    expect(kindsOf('MEI-T1')).toEqual(new Set(['specification', 'calibrated']));
    // Latency and throughput tables the presets were set from.
    for (const id of ['WONG-T2..T4', 'MEI-T3', 'MEI-T5', 'WONG-F9', 'SL1-LAT']) expect(kindsOf(id)).toEqual(new Set(['calibrated']));
  });
});

describe('the gate', () => {
  const ref = (over: Partial<Reference> = {}): Reference => ({ name: 'x', value: 10, unit: '%', tolerance: 'half', citation: 'P 1', ...over });
  const row = (checks: CheckResult[]): RowResult => ({ id: 'R', preset: 'p', target: '', simulated: '', pass: checks.every((c) => c.pass), checks, runs: [] });

  it('tells a pass, a known deviation, a new failure and an unexpected pass apart', () => {
    const pass = checkOne(ref(), 10, PREDICTED);
    const fail = checkOne(ref(), 40, PREDICTED);
    const known = checkOne(ref({ knownDeviation: 'the model counts twice' }), 40, PREDICTED);
    const stale = checkOne(ref({ knownDeviation: 'the model counts twice' }), 10, PREDICTED);
    expect([pass, fail, known, stale].map(checkStatus)).toEqual(['pass', 'fail', 'known', 'unexpected-pass']);
    expect(stale.pass).toBe(true);
    expect(stale.unexpectedPass).toBe(true);
    expect(stale.note).toBeUndefined();
    expect(rowGate(row([pass, known]))).toBe('known');
    expect(rowGate(row([pass, known, fail]))).toBe('fail');
    expect(rowGate(row([pass, stale]))).toBe('unexpected-pass');
    expect(gateOpen([row([pass]), row([known])])).toBe(true);
    expect(gateOpen([row([pass]), row([stale])])).toBe(false);
    expect(gateOpen([row([fail])])).toBe(false);
    // A row that threw has no checks and fails.
    expect(gateOpen([{ ...row([]), pass: false }])).toBe(false);
  });

  it('carries the kind, its reason and a context onto the check, and totals checks per kind', () => {
    const c = checkOne(ref({ context: 'real GPU: 11 %' }), 12, calibrated('the preset was set from it'));
    expect(c).toMatchObject({ kind: 'calibrated', kindReason: 'the preset was set from it', context: 'real GPU: 11 %', pass: true });
    const own = checkOne(ref({ kind: PREDICTED }), 12, calibrated('the preset was set from it'));
    expect(own.kind).toBe('predicted');
    const totals = kindTotals([row([c, own, checkOne(ref(), 99, PREDICTED)])]);
    expect(totals).toEqual({ predicted: { passed: 1, total: 2 }, recovered: { passed: 0, total: 0 }, calibrated: { passed: 1, total: 1 }, specification: { passed: 0, total: 0 } });
  });

  it('refuses a reference whose row declares no kind', () => {
    expect(() => checkOne(ref(), 10)).toThrow(/declares no kind/);
  });
});
