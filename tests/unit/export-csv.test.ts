import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LabError, LIMITS } from '../../src-main/contract';
import type { RunDetail } from '../../src-main/contract';
import { alignOnX, exportComparisonCsv, exportCsv, exportRunCsv, guardText, unguardText } from '../../src-main/services/export';
import type { ExperimentResult } from '../../src-sim/experiments/types';
import { SIM_VERSION } from '../../src-sim/version';
import { ExportLab, num, parseCsv, readComparisonCsv, readRunCsv, unguard } from './export-fixtures';
import { preset, sampleResult } from './store-fixtures';

let lab: ExportLab;
beforeEach(() => {
  lab = new ExportLab();
});
afterEach(() => lab.cleanup());

/** Every value equal to the stored Float64 (Object.is: NaN equals NaN, -0 differs from 0). */
function expectSame(actual: readonly number[], stored: ArrayLike<number>): void {
  expect(actual.length).toBe(stored.length);
  for (let i = 0; i < stored.length; i++) if (!Object.is(actual[i], stored[i])) throw new Error(`value ${i}: read ${actual[i]}, stored ${stored[i]}`);
}

function expectMetadata(meta: Record<string, string>, run: RunDetail): void {
  expect(meta.id).toBe(run.id);
  expect(unguard(meta.title)).toBe(run.title);
  expect(meta.experiment).toBe(run.experiment);
  expect(meta['preset id']).toBe(run.presetId);
  expect(unguard(meta['preset name'])).toBe(run.presetName);
  expect(unguard(meta.device)).toBe(run.preset!.device);
  expect(JSON.parse(meta.params)).toEqual(run.params);
  expect(Number(meta.seed)).toBe(run.seed);
  expect(meta['simulator version']).toBe(run.simVersion);
  expect(meta.status).toBe(run.status);
  expect(Date.parse(meta.created)).toBe(run.createdAt);
  expect(meta.started === '' ? null : Date.parse(meta.started)).toBe(run.startedAt);
  expect(meta.finished === '' ? null : Date.parse(meta.finished)).toBe(run.finishedAt);
  expect(meta['duration ms'] === '' ? null : Number(meta['duration ms'])).toBe(run.durationMs);
  expect(JSON.parse(meta.tags)).toEqual(run.tags);
  expect(unguard(meta.notes)).toBe(run.notes);
  expect(meta.error === undefined ? null : unguard(meta.error)).toBe(run.error);
}

describe('CSV of one run', () => {
  it('writes series sharing x as one wide table that reads back to the stored Float64 values', () => {
    const id = lab.run('pchase-average', 'fermi', { strides: [128, 256], sizeFrom: '4KB', sizeTo: '24KB', sizeStep: '512B' }, 11, { tags: ['l1', 'fermi'], notes: 'sweep, "quick"' });
    const file = exportRunCsv(lab.store, id);
    const run = lab.store.getRun(id);
    expect(file.mimeType).toBe('text/csv');
    expect(file.fileName).toBe(`gpulab-pchase-average-fermi-${id.slice(0, 8)}.csv`);
    const csv = readRunCsv(file.bytes);
    expect(csv.layout).toBe('wide');
    expectMetadata(csv.meta, run);
    expect(csv.meta['experiment title']).toBe('P-chase: average latency vs array size');
    expect(csv.meta['simulator version']).toBe(SIM_VERSION);
    const series = run.result?.series ?? [];
    expect(csv.series.map((s) => s.name)).toEqual(['s = 128 B', 's = 256 B']);
    series.forEach((s, j) => {
      expectSame(csv.series[j].x, s.x);
      expectSame(csv.series[j].y, s.y);
      expect(csv.series[j].info).toEqual([s.name, s.xLabel, s.xUnit, s.yLabel, s.yUnit, s.style ?? '', s.logX ? 'yes' : 'no', String(s.x.length), s.stack ?? '', s.group ?? '', s.xCategories?.length ? JSON.stringify(s.xCategories) : '']);
    });
    const findings = run.result?.findings ?? [];
    expect(findings.length).toBeGreaterThan(3);
    expect(csv.findings.map((f) => f[0])).toEqual(findings.map((f) => f.key));
    findings.forEach((f, i) => {
      const row = csv.findings[i];
      expect(unguard(row[1])).toBe(f.label);
      expect(row[3]).toBe(typeof f.value === 'number' ? 'number' : 'text');
      expect(row[3] === 'number' ? Number(row[2]) : unguard(row[2])).toBe(f.value);
      expect([row[4], unguard(row[5])]).toEqual([f.unit, f.evidence]);
    });
  });

  it('writes series with different x in long form, exact for awkward numbers', () => {
    const base = sampleResult(64, false);
    const xs = Float64Array.from([0.1 + 0.2, -0, 1e-300, 2 ** 53 + 2, Math.PI, Number.MIN_VALUE, -1.5e308]);
    const result: ExperimentResult = {
      ...base,
      series: [...base.series, { name: 'odd "one", =x', x: xs, y: Float64Array.from(xs, (v) => v / 3), xLabel: 'x', xUnit: '', yLabel: 'y', yUnit: 'cycles', style: 'scatter' }],
    };
    const id = lab.finish({ experiment: 'pchase-average', preset: preset('kepler'), params: { strides: [64] }, seed: 0, title: 'A, "quoted" title' }, result, 0.1 + 0.2);
    const run = lab.store.getRun(id);
    const csv = readRunCsv(exportRunCsv(lab.store, id).bytes);
    expect(csv.layout).toBe('long');
    expectMetadata(csv.meta, run);
    expect(Number(csv.meta['duration ms'])).toBe(0.1 + 0.2);
    const stored = run.result?.series ?? [];
    expect(csv.series.map((s) => s.name)).toEqual(stored.map((s) => s.name));
    stored.forEach((s, j) => {
      expectSame(csv.series[j].x, s.x);
      expectSame(csv.series[j].y, s.y);
    });
    // The NaN with an odd payload reads back as NaN; -0, infinities and subnormals exactly.
    expect(Number.isNaN(csv.series[0].y[1])).toBe(true);
    expect(Object.is(csv.series[0].y[2], -0)).toBe(true);
    expect(Object.is(csv.series[2].x[1], -0)).toBe(true);
    expect(csv.tables).toHaveLength(1);
    expect(csv.tables[0].header).toEqual(['Level', 'Latency (cycles)']);
    expect(csv.tables[0].rows.map((r) => [r[0], num(r[1])])).toEqual([
      ['L1', 96],
      ['L2', NaN],
      ['memory', -0],
    ]);
    expect(csv.notes).toEqual(base.notes);
  });

  it('keeps commas, quotes, newlines and formula-like text in titles, notes, names and findings', () => {
    const title = 'L1, "big" sweep =SUM(A1)';
    const notes = '=cmd|" /C calc"!A0\nline two, with "quotes"\n\tline three';
    const result: ExperimentResult = {
      series: [{ name: '+s, "64"\nB', x: [1, 2], y: [3, 4], xLabel: '@x', xUnit: 'B', yLabel: "'y", yUnit: '' }],
      tables: [],
      findings: [
        { key: 'k1', label: '-label, with "quotes"', value: '=1+1', unit: '', evidence: 'a,b\n"c"' },
        { key: 'k2', label: 'negative', value: -12.5, unit: 'cycles', evidence: "'quoted'" },
        { key: 'k3', label: 'numeric text', value: '32', unit: '', evidence: '' },
      ],
      notes: ['', '- dash note', 'fine'],
    };
    const id = lab.finish({ experiment: 'clock', preset: preset('tesla'), params: {}, seed: 5, title, notes }, result);
    const bytes = exportRunCsv(lab.store, id).bytes;
    const text = Buffer.from(bytes).toString('utf8');
    // No field begins with a formula character once parsed (the apostrophe guard).
    for (const rec of parseCsv(bytes)) for (const f of rec) expect(/^[=+@]/.test(f) || (/^-\D/.test(f) && f.length > 1)).toBe(false);
    expect(text).toContain("'=cmd");
    const csv = readRunCsv(bytes);
    expect(unguard(csv.meta.title)).toBe(title);
    expect(unguard(csv.meta.notes)).toBe(notes);
    expect(csv.series[0].name).toBe('+s, "64"\nB');
    expect(csv.series[0].info.slice(1, 5).map(unguard)).toEqual(['@x', 'B', "'y", '']);
    expect(csv.findings.map((f) => [f[0], unguard(f[1]), f[3] === 'number' ? Number(f[2]) : unguard(f[2]), f[4], unguard(f[5])])).toEqual(
      result.findings.map((f) => [f.key, f.label, f.value, f.unit, f.evidence]),
    );
    expect(csv.findings[2][3]).toBe('text'); // "32" stays text
    expect(csv.notes).toEqual(result.notes);
  });

  it('exports a failed run: its metadata with the error and empty sections', () => {
    const r = lab.store.createRun({ experiment: 'pchase-average', preset: preset('fermi'), params: { strides: [64] }, seed: 3, title: 'doomed' });
    lab.store.startRun(r.id);
    lab.store.endRun(r.id, 'failed', 'the simulation process crashed: SIGKILL, "out of memory"');
    const csv = readRunCsv(exportRunCsv(lab.store, r.id).bytes);
    expectMetadata(csv.meta, lab.store.getRun(r.id));
    expect(unguard(csv.meta.error)).toBe('the simulation process crashed: SIGKILL, "out of memory"');
    expect(csv.series).toEqual([]);
    expect(csv.findings).toEqual([]);
  });
});

describe('CSV of a comparison', () => {
  it('aligns the series of three runs on the union of their x values, blank where a run has no point', () => {
    const ids = [
      lab.run('pchase-average', 'fermi', { strides: [128], sizeFrom: '4KB', sizeTo: '24KB', sizeStep: '1KB' }, 1, { title: 'Fermi, L1' }),
      lab.run('pchase-average', 'kepler', { strides: [128, 256], sizeFrom: '8KB', sizeTo: '32KB', sizeStep: '1536B' }, 2),
      lab.run('pchase-average', 'tesla', { strides: [64], sizeFrom: '2KB', sizeTo: '12KB', sizeStep: '512B' }, 3, { notes: 'multi\nline, "notes"' }),
    ];
    const file = exportComparisonCsv(lab.store, ids);
    expect(file.fileName).toBe(`gpulab-comparison-pchase-average-3-runs-${ids[0].slice(0, 8)}.csv`);
    const runs = ids.map((id) => lab.store.getRun(id));
    const csv = readComparisonCsv(file.bytes);
    runs.forEach((run, k) => expectMetadata(csv.runs[k].meta, run));
    // x: ascending union of every run's x.
    const x = csv.rows.map((r) => Number(r[0]));
    const union = [...new Set(runs.flatMap((r) => (r.result?.series ?? []).flatMap((s) => Array.from(s.x))))].sort((a, b) => a - b);
    expect(x).toEqual(union);
    expect(csv.header.slice(1)).toEqual(['run 1 Fermi: s = 128 B', 'run 2 Kepler: s = 128 B', 'run 2 Kepler: s = 256 B', 'run 3 Tesla: s = 64 B']);
    const columns = runs.flatMap((r) => r.result?.series ?? []);
    columns.forEach((s, j) => {
      const at = new Map(Array.from(s.x, (v, i) => [v, s.y[i]]));
      let filled = 0;
      csv.rows.forEach((row, i) => {
        const v = num(row[j + 1]);
        if (at.has(x[i])) {
          expect(Object.is(v, at.get(x[i]))).toBe(true);
          filled++;
        } else expect(v).toBeUndefined();
      });
      expect(filled).toBe(s.x.length);
    });
    const total = runs.reduce((a, r) => a + (r.result?.findings.length ?? 0), 0);
    expect(csv.findings).toHaveLength(total);
    expect(csv.findings.filter((f) => f[0] === '2').map((f) => f[1])).toEqual(runs[1].result?.findings.map((f) => f.key));
  });

  it('gives each quantity on x its own section: array sizes, access indices, missed addresses, ways', () => {
    const ids = [
      lab.run('pchase-average', 'fermi', { strides: [128], sizeFrom: '4KB', sizeTo: '24KB', sizeStep: '1KB' }, 1),
      lab.run('cache-structure', 'fermi', { steps: 4 }, 1),
    ];
    const runs = ids.map((id) => lab.store.getRun(id));
    const csv = readComparisonCsv(exportComparisonCsv(lab.store, ids).bytes);
    const series = runs.flatMap((r, k) => (r.result?.series ?? []).map((s) => ({ k, s })));
    const quantities = [...new Set(series.map(({ s }) => (s.xUnit ? `${s.xLabel} (${s.xUnit})` : s.xLabel)))];
    // Several quantities (array size, access index, missed address, way ...), each once, in order of appearance.
    expect(quantities.length).toBeGreaterThan(3);
    expect(csv.groups.map((g) => g.header[0])).toEqual(quantities);
    // Every series sits in the section of its own x, with its points at their x; no series twice.
    let placed = 0;
    for (const { k, s } of series) {
      const name = `run ${k + 1} ${runs[k].presetName}: ${s.name}`;
      const g = csv.groups.find((gr) => gr.header[0] === (s.xUnit ? `${s.xLabel} (${s.xUnit})` : s.xLabel))!;
      const col = g.header.indexOf(name);
      expect(col).toBeGreaterThan(0);
      const read = g.rows.filter((r) => r[col] !== '').map((r) => [Number(r[0]), Number(r[col])]);
      expect(read).toEqual(Array.from(s.x, (x, i) => [x, s.y[i]]).sort((a, b) => a[0] - b[0] || 0));
      placed++;
    }
    expect(placed).toBe(csv.groups.reduce((a, g) => a + g.header.length - 1, 0));
  });

  it('exportCsv writes one run alone and several as a comparison', () => {
    const a = lab.run('shared-bank-stride', 'kepler', {}, 1);
    const b = lab.run('shared-bank-stride', 'fermi', {}, 1);
    expect(parseCsv(exportCsv(lab.store, [a]).bytes)[0][0]).toBe('# gpulab run csv');
    expect(parseCsv(exportCsv(lab.store, [a, b]).bytes)[0][0]).toBe('# gpulab comparison csv');
  });

  it('refuses unknown runs, repeated ids and too many runs', () => {
    const a = lab.run('shared-bank-stride', 'fermi', {}, 1);
    const missing = '00000000-0000-4000-8000-000000000000';
    const code = (fn: () => unknown): string => {
      try {
        fn();
      } catch (err) {
        expect(err).toBeInstanceOf(LabError);
        return (err as LabError).code;
      }
      return 'no error';
    };
    expect(code(() => exportComparisonCsv(lab.store, [a, missing]))).toBe('not-found');
    expect(code(() => exportComparisonCsv(lab.store, [a, a]))).toBe('invalid-args');
    expect(code(() => exportComparisonCsv(lab.store, []))).toBe('invalid-args');
    const many = Array.from({ length: LIMITS.runsPerReport + 1 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    expect(code(() => exportComparisonCsv(lab.store, many))).toBe('invalid-args');
  });
});

describe('CSV helpers', () => {
  it('aligns repeated x values occurrence by occurrence', () => {
    const { x, rowOf } = alignOnX([{ x: [1, 1, 2, -0] }, { x: [2, 1, 3, 0, 1, 1] }]);
    expect(x).toEqual([-0, 0, 1, 1, 1, 2, 3]);
    expect(Object.is(x[0], -0)).toBe(true);
    expect(Array.from(rowOf[0])).toEqual([2, 3, 5, 0]);
    expect(Array.from(rowOf[1])).toEqual([5, 2, 6, 1, 3, 4]);
  });

  it('guards text reversibly and leaves numbers and plain text alone', () => {
    for (const s of ['=1+1', '+x', '@a', '\tz', '\rz', "'a", "''", '-cmd', 'plain', '-', '-5', '-1.5e3', '', 'a=b']) expect(unguardText(guardText(s))).toBe(s);
    expect(['plain', '-', '-5', '-1.5e3', '', 'a=b'].map(guardText)).toEqual(['plain', '-', '-5', '-1.5e3', '', 'a=b']);
    expect(['=1', '-cmd', "'a"].map(guardText)).toEqual(["'=1", "'-cmd", "''a"]);
  });
});
