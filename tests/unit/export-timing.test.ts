/**
 * The timing tier's series outside the renderer: the PDF's charts (export/charts.ts: stacked bars
 * on a category axis, `group`, one stacked bar per run in a comparison), a PDF report of a run with
 * a stall breakdown, the CSV's series info (stack, group, x categories), and the store and bundles
 * keeping the new series fields.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportCsv, exportPdf } from '../../src-main/services/export';
import { categories, chartOption, comparisonCharts, isCategorical, runCharts, tint } from '../../src-main/services/export/charts';
import { renderChartSvg } from '../../src-main/services/export/pdf';
import type { Series } from '../../src-sim/experiments/types';
import { ExportLab, hasTool, readRunCsv } from './export-fixtures';
import { EPOCH, epochSeries, REASONS, stall, stallSeries, timingResult, TYPES } from './renderer-timing-fixtures';
import { preset, TempDb } from './store-fixtures';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

const HAS_POPPLER = hasTool('pdftotext');
const work = mkdtempSync(join(tmpdir(), 'gpulab-timing-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let lab: ExportLab;
beforeEach(() => {
  lab = new ExportLab();
});
afterEach(() => lab.cleanup());

function runOf(result = timingResult(2000)): string {
  return lab.finish({ experiment: 'lash-stencil', preset: preset('fermi'), params: {}, seed: 3, title: 'Stencil stalls' }, result);
}

describe('PDF charts of bars', () => {
  it('a run: the stall breakdown is one chart (its group), stacked bars on the data types', () => {
    const specs = runCharts(timingResult(500).series as Series[]);
    expect(specs.map((s) => s.title)).toEqual(['Time vs Data type', 'Stall breakdown', 'Occupancy per SM vs Cycle']);
    // A group named by an id ('stalls') is titled from its series.
    expect(runCharts(stallSeries().map((s) => ({ ...s, group: 'stalls' })))[0]!.title).toBe('LSU stall cycles vs Data type');
    const stalls = specs[1]!;
    expect(isCategorical(stalls)).toBe(true);
    expect(isCategorical(specs[2]!)).toBe(false);
    expect(categories(stalls)).toEqual({ labels: TYPES, values: REASONS.map((_, r) => TYPES.map((_, t) => stall(r, t))) });
    const o = chartOption(stalls, { width: 480, height: 220 }) as Loose;
    expect(o.xAxis).toMatchObject({ type: 'category', data: TYPES, name: 'Data type' });
    expect(o.yAxis).toMatchObject({ name: 'LSU stall cycles (cycles)', scale: false });
    expect(o.series.map((s: Loose) => [s.type, s.stack])).toEqual(REASONS.map(() => ['bar', 'stalls']));
    expect(o.legend.show).toBe(true);
    // Rendered: one rectangle per bar segment (4 reasons x 3 types), the labels as text.
    const svg = renderChartSvg(o, 480, 220);
    for (const t of TYPES) expect(svg).toContain(`>${t}<`);
    expect(svg).toContain('LSU stall cycles (cycles)');
    const bars = [...svg.matchAll(/<path d="M([\d.]+) ([\d.]+)l[\d.]+ 0l0 -([\d.]+)[^"]*" fill="(#[0-9a-f]{6})"[^>]*ecmeta_series_index="(\d)" ecmeta_data_index="(\d)" ecmeta_ssr_type="chart"/g)];
    expect(bars).toHaveLength(12);
    expect(new Set(bars.map((b) => b[4])).size).toBe(4);
    // Stacked: at each type the four segments share an x and sit one on top of the next.
    for (let t = 0; t < 3; t++) {
      const col = bars.filter((b) => b[6] === String(t)).sort((a, b) => Number(a[5]) - Number(b[5]));
      expect(new Set(col.map((b) => b[1])).size).toBe(1);
      for (let r = 1; r < 4; r++) expect(Math.abs(Number(col[r]![2]) - (Number(col[r - 1]![2]) - Number(col[r - 1]![3])))).toBeLessThanOrEqual(1);
    }
  });

  it('a comparison: at each data type one stacked bar per run, segments in shades of the run colour', () => {
    const specs = comparisonCharts([
      { label: 'Fermi', color: '#2e6fb7', series: stallSeries() },
      { label: 'Titan', color: '#e07b12', series: stallSeries(2) },
    ]);
    expect(specs).toHaveLength(1);
    const lines = specs[0]!.lines;
    expect(lines.map((l) => l.stack)).toEqual([...REASONS.map(() => 'Fermi: stalls'), ...REASONS.map(() => 'Titan: stalls')]);
    expect(lines.map((l) => l.name)).toEqual([...REASONS.map((r) => `Fermi: ${r}`), ...REASONS.map((r) => `Titan: ${r}`)]);
    expect(lines[0]!.color).toBe('#2e6fb7');
    expect(lines[3]!.color).toBe(tint('#2e6fb7', 0.65));
    expect(lines[4]!.color).toBe('#e07b12');
    const o = chartOption(specs[0]!, { width: 480, height: 220 }) as Loose;
    expect(o.series[5].data).toEqual(TYPES.map((_, t) => stall(1, t, 2)));
  });

  it('epoch series over 100k cycles are thinned for the page, keeping their extremes', () => {
    const [spec] = runCharts(epochSeries(100_000));
    const o = chartOption(spec!, { width: 480, height: 220 }) as Loose;
    for (const s of o.series) {
      expect(s.type).toBe('line');
      expect(s.data.length).toBeLessThan(4000);
    }
    const ys = (o.series[0].data as [number, number][]).map((p) => p[1]);
    expect(Math.max(...ys)).toBeCloseTo(28, 3);
    expect(Math.min(...ys)).toBeCloseTo(4, 3);
    expect((o.series[0].data as [number, number][]).at(-1)![0]).toBe(99_999 * EPOCH);
  });
});

describe('PDF report of a run with a stacked bar chart', () => {
  it('draws the stall breakdown as vector bars with its categories, legend and axis names', async () => {
    const id = runOf();
    const file = await exportPdf(lab.store, [id], { now: Date.UTC(2026, 10, 2), evidence: true });
    expect(Buffer.from(file.bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    expect(file.bytes.byteLength).toBeLessThan(300_000);
    const raw = Buffer.from(file.bytes).toString('latin1');
    expect(raw).not.toMatch(/\/Subtype\s*\/Image/);
    if (!HAS_POPPLER) return;
    const path = join(work, 'stalls.pdf');
    writeFileSync(path, file.bytes);
    const r = spawnSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const text = r.stdout.replace(/\s+/g, ' ');
    for (const s of ['Stall breakdown', 'LSU stall cycles (cycles)', 'Data type', 'int', 'short', 'char', ...REASONS, 'Occupancy per SM vs Cycle', 'Cycle (cycles)'])
      expect(text).toContain(s);
  });
});

describe('CSV and the store keep the new series fields', () => {
  it("the CSV's series info names each series' stack, group and categories; x stays the category index", () => {
    const id = runOf(timingResult(100));
    const csv = readRunCsv(exportCsv(lab.store, [id]).bytes);
    const stalls = csv.series.find((s) => s.name === 'nomshrline')!;
    expect(stalls.info.slice(5)).toEqual(['bar', 'no', '3', 'stalls', 'Stall breakdown', JSON.stringify(TYPES)]);
    expect(JSON.parse(stalls.info[10]!)).toEqual(TYPES);
    expect(stalls.x).toEqual([2, 0, 1]);
    expect(stalls.y).toEqual([2, 0, 1].map((t) => stall(1, t)));
    const epoch = csv.series.find((s) => s.name === 'MSHR entries in use')!;
    expect(epoch.info.slice(5)).toEqual(['line', 'no', '100', '', '', '']);
  });

  it('the store and bundles give back style, stack, group and xCategories as they were', async () => {
    const id = runOf(timingResult(50));
    const got = lab.store.getRun(id).result!.series;
    const want = timingResult(50).series;
    expect(got.map(({ x: _x, y: _y, ...meta }) => meta)).toEqual(want.map(({ x: _x, y: _y, ...meta }) => meta));
    const other = new TempDb();
    try {
      const there = other.open({ now: () => Date.UTC(2026, 10, 3) }, 'there.db');
      expect((await there.importBundle((await lab.store.exportBundle([id])).bytes)).imported).toEqual([id]);
      const back = there.getRun(id).result!.series;
      expect(back).toEqual(got);
      expect(back[1]).toMatchObject({ style: 'bar', stack: 'stalls', group: 'Stall breakdown', xCategories: TYPES });
    } finally {
      other.cleanup();
    }
  });
});
