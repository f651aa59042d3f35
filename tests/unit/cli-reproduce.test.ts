import { describe, expect, it, vi } from 'vitest';
import type { ReproductionRow, RowResult } from '../../src-sim/reference/types';

/* `gpulab reproduce` against stand-in rows: one that passes, one whose experiment throws. */

const row = (id: string, presets: string[]): ReproductionRow => ({ id, paper: 'MEI', title: id, presets, references: () => [], measure: () => ({ measured: {}, runs: [] }) });
const ROWS = [row('X-OK', ['fermi']), row('X-BAD', ['fermi', 'kepler'])];
const KNOWN_ROW = row('X-KNOWN', ['fermi']);

/* A failing row whose failing check carries its known deviation (the passing one carries none). */
const KNOWN: RowResult = {
  id: 'X-KNOWN',
  preset: 'fermi',
  target: 'a 10..20 %; b yes',
  simulated: 'a 40 %; b yes',
  deviation: 2,
  pass: false,
  checks: [
    { name: 'a', target: '10..20 %', simulated: '40 %', deviation: 2, pass: false, citation: 'P 1', note: 'the model counts twice' },
    { name: 'b', target: 'yes', simulated: 'yes', pass: true, citation: 'P 2' },
  ],
  runs: [],
};

vi.mock('../../src-sim/reference', () => ({
  selectRows: (selector: string) => (selector === 'all' ? ROWS : selector === 'none' ? [] : selector === 'X-KNOWN' ? [KNOWN_ROW] : ROWS.filter((r) => r.id === selector)),
  reproduce: (selector: string): RowResult[] => {
    if (selector === 'X-BAD') throw new Error('the experiment is not implemented yet');
    if (selector === 'X-KNOWN') return [KNOWN];
    return [{ id: selector, preset: 'fermi', target: 'L1 16 KB', simulated: 'L1 16 KB', deviation: 0, pass: true, checks: [], runs: [] }];
  },
}));

const { runCli } = await import('../../src-main/cli/main');
const ctx = { version: '0.0.0', readFile: () => '', status: null };

describe('gpulab reproduce with a row that throws', () => {
  it('reports the throwing row as failed on each of its presets and still runs the others', async () => {
    const r = await runCli(['reproduce', 'all', '--format', 'json'], ctx);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({
      rows: [
        { id: 'X-OK', preset: 'fermi', target: 'L1 16 KB', simulated: 'L1 16 KB', deviation: 0, pass: true },
        { id: 'X-BAD', preset: 'fermi', target: '', simulated: 'error: the experiment is not implemented yet', pass: false },
        { id: 'X-BAD', preset: 'kepler', target: '', simulated: 'error: the experiment is not implemented yet', pass: false },
      ],
      passed: 1,
      failed: 2,
    });
  });

  it('prints the known deviation of a failing check under its row, in text and JSON', async () => {
    const t = await runCli(['reproduce', 'X-KNOWN'], ctx);
    expect(t.code).toBe(1);
    expect(t.stdout).toContain('FAIL  X-KNOWN on fermi');
    expect(t.stdout).toContain('      known:     a: the model counts twice\n');
    expect(t.stdout.match(/known:/g)).toHaveLength(1);
    const j = JSON.parse((await runCli(['reproduce', 'X-KNOWN', '--format', 'json'], ctx)).stdout);
    expect(j.rows[0].notes).toEqual(['a: the model counts twice']);
  });

  it('exits 0 when every selected row passes', async () => {
    const r = await runCli(['reproduce', 'X-OK'], ctx);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^PASS {2}X-OK on fermi/);
    expect(r.stdout).toMatch(/1 passed, 0 failed/);
  });

  it('refuses a selection with no rows as bad input', async () => {
    const r = await runCli(['reproduce', 'none'], ctx);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toMatch(/^gpulab: error: no reproduction rows match "none"/);
  });
});
