import { describe, expect, it, vi } from 'vitest';
import type { ReproductionRow, RowResult } from '../../src-sim/reference/types';
import type * as Reference from '../../src-sim/reference';

/* `gpulab reproduce` against stand-in rows: one that passes, one whose experiment throws. */

const row = (id: string, presets: string[]): ReproductionRow => ({
  id,
  paper: 'MEI',
  title: id,
  presets,
  kind: { kind: 'predicted' },
  references: () => [],
  measure: () => ({ measured: {}, runs: [] }),
});
const ROWS = [row('X-OK', ['fermi']), row('X-BAD', ['fermi', 'kepler'])];
const KNOWN_ROW = row('X-KNOWN', ['fermi']);
const STALE_ROW = row('X-STALE', ['fermi']);

/* A failing row whose failing check carries its known deviation (the passing one carries none). */
const KNOWN: RowResult = {
  id: 'X-KNOWN',
  preset: 'fermi',
  target: 'a 10..20 %; b yes; c 4',
  simulated: 'a 40 %; b yes; c 4',
  deviation: 2,
  pass: false,
  checks: [
    { name: 'a', target: '10..20 %', rule: "inside the paper's range: 10..20 %", simulated: '40 %', deviation: 2, pass: false, citation: 'P 1', note: 'the model counts twice', kind: 'predicted' },
    { name: 'b', target: 'yes', rule: "the paper's word", simulated: 'yes', pass: true, citation: 'P 2', kind: 'calibrated', kindReason: 'the preset was set from P 2' },
    { name: 'c', target: '4', rule: "exactly the paper's value", simulated: '4', deviation: 0, pass: true, citation: 'P 3', kind: 'recovered', kindReason: 'the analyser infers the ways the preset was set to' },
  ],
  runs: [],
};

/* A passing row one of whose checks carries a known deviation that no longer holds. */
const STALE: RowResult = {
  id: 'X-STALE',
  preset: 'fermi',
  target: 'a 10..20 %',
  simulated: 'a 15 %',
  deviation: 0,
  pass: true,
  checks: [{ name: 'a', target: '10..20 %', rule: "inside the paper's range: 10..20 %", simulated: '15 %', deviation: 0, pass: true, citation: 'P 1', kind: 'predicted', unexpectedPass: true, context: 'real GPU: 11 %' }],
  runs: [],
};

vi.mock('../../src-sim/reference', async () => ({
  ...(await vi.importActual<typeof Reference>('../../src-sim/reference')),
  selectRows: (selector: string) =>
    selector === 'all' ? ROWS : selector === 'none' ? [] : selector === 'X-KNOWN' ? [KNOWN_ROW] : selector === 'X-STALE' ? [STALE_ROW] : ROWS.filter((r) => r.id === selector),
  reproduce: (selector: string): RowResult[] => {
    if (selector === 'X-BAD') throw new Error('the experiment is not implemented yet');
    if (selector === 'X-KNOWN') return [KNOWN];
    if (selector === 'X-STALE') return [STALE];
    return [{ id: selector, preset: 'fermi', target: 'L1 16 KB', simulated: 'L1 16 KB', deviation: 0, pass: true, checks: [], runs: [] }];
  },
}));

const { runCli } = await import('../../src-main/cli/main');
const ctx = { version: '0.0.0', readFile: () => '', status: null };

describe('gpulab reproduce with a row that throws', () => {
  it('reports the throwing row as failed on each of its presets and still runs the others', async () => {
    const r = await runCli(['reproduce', 'all', '--format', 'json', '--jobs', '1'], ctx);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({
      rows: [
        { id: 'X-OK', preset: 'fermi', target: 'L1 16 KB', simulated: 'L1 16 KB', deviation: 0, pass: true, gate: 'pass', checks: [] },
        { id: 'X-BAD', preset: 'fermi', target: '', simulated: 'error: the experiment is not implemented yet', pass: false, gate: 'fail', checks: [] },
        { id: 'X-BAD', preset: 'kepler', target: '', simulated: 'error: the experiment is not implemented yet', pass: false, gate: 'fail', checks: [] },
      ],
      passed: 1,
      failed: 2,
      gate: { open: false, known: 0, newFailures: 2, unexpectedPasses: 0 },
      totals: { predicted: { passed: 0, total: 0 }, recovered: { passed: 0, total: 0 }, calibrated: { passed: 0, total: 0 }, specification: { passed: 0, total: 0 } },
    });
  });

  it('prints each check with its kind (a recovered one counted beside the predicted headline) and a failing check\'s known deviation; a row failing only on known deviations passes the gate', async () => {
    const t = await runCli(['reproduce', 'X-KNOWN', '--jobs', '1'], ctx);
    expect(t.code).toBe(0);
    expect(t.stdout).toContain('KNOWN  X-KNOWN on fermi');
    expect(t.stdout).toContain('      [predicted]     a: 40 % (paper 10..20 %) fail (known deviation)\n');
    expect(t.stdout).toContain('      [calibrated]    b: yes (paper yes) pass\n');
    expect(t.stdout).toContain('      [recovered]     c: 4 (paper 4) pass\n');
    expect(t.stdout).toContain('      known:     a: the model counts twice\n');
    expect(t.stdout.match(/known:/g)).toHaveLength(1);
    expect(t.stdout).toContain('Predicted checks (reproductions): 0 of 1 passed.');
    // A recovered check is a method check: counted on its own line, beside the headline and not in it.
    expect(t.stdout).toContain('\nMethod checks (recovered): 1 of 1 passed (an analyser inferred');
    expect(t.stdout).toContain('Consistency: calibrated 1 of 1, specification 0 of 0 passed');
    const j = JSON.parse((await runCli(['reproduce', 'X-KNOWN', '--format', 'json', '--jobs', '1'], ctx)).stdout);
    expect(j.rows[0].notes).toEqual(['a: the model counts twice']);
    expect(j.rows[0].gate).toBe('known');
    expect(j.rows[0].checks).toEqual([
      { name: 'a', target: '10..20 %', rule: "inside the paper's range: 10..20 %", simulated: '40 %', pass: false, kind: 'predicted', citation: 'P 1', note: 'the model counts twice' },
      { name: 'b', target: 'yes', rule: "the paper's word", simulated: 'yes', pass: true, kind: 'calibrated', kindReason: 'the preset was set from P 2', citation: 'P 2' },
      { name: 'c', target: '4', rule: "exactly the paper's value", simulated: '4', pass: true, kind: 'recovered', kindReason: 'the analyser infers the ways the preset was set to', citation: 'P 3' },
    ]);
    expect(j.totals).toEqual({ predicted: { passed: 0, total: 1 }, recovered: { passed: 1, total: 1 }, calibrated: { passed: 1, total: 1 }, specification: { passed: 0, total: 0 } });
    expect(j.gate).toEqual({ open: true, known: 1, newFailures: 0, unexpectedPasses: 0 });
  });

  it('fails the gate on an unexpected pass: a check that passes while it carries a known deviation', async () => {
    const t = await runCli(['reproduce', 'X-STALE', '--jobs', '1'], ctx);
    expect(t.code).toBe(1);
    expect(t.stdout).toContain('UNEXPECTED PASS  X-STALE on fermi');
    expect(t.stdout).toContain('unexpected pass: a passes but carries a known deviation; remove the note');
    expect(t.stdout).toContain('          context: real GPU: 11 %');
    const j = JSON.parse((await runCli(['reproduce', 'X-STALE', '--format', 'json', '--jobs', '1'], ctx)).stdout);
    expect(j.rows[0].checks[0]).toMatchObject({ unexpectedPass: true, pass: true, context: 'real GPU: 11 %' });
    expect(j.gate).toMatchObject({ open: false, unexpectedPasses: 1 });
  });

  it('exits 0 when every selected row passes', async () => {
    const r = await runCli(['reproduce', 'X-OK', '--jobs', '1'], ctx);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^PASS {2}X-OK on fermi/);
    expect(r.stdout).toMatch(/Rows: 1 passed, 0 failed/);
  });

  it('refuses a selection with no rows as bad input', async () => {
    const r = await runCli(['reproduce', 'none', '--jobs', '1'], ctx);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toMatch(/^gpulab: error: no reproduction rows match "none"/);
  });
});
