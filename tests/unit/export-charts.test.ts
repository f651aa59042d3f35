import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  besidePaper,
  chartOption,
  comparisonCharts,
  downsampleLine,
  downsampleScatter,
  namesMatch,
  paperRows,
  presetColors,
  renderChartSvg,
  runCharts,
} from '../../src-main/services/export';
import type { PaperRow } from '../../src-main/services/export';
import { PRESET_COLORS } from '../../src-main/services/export/charts';
import type { Finding, Series } from '../../src-sim/experiments/types';
import { preset } from './store-fixtures';

const series = (name: string, over: Partial<Series> = {}): Series => ({
  name,
  x: [1024, 2048, 4096, 8192],
  y: [10, 10, 30, 30],
  xLabel: 'Array size',
  xUnit: 'B',
  yLabel: 'Latency',
  yUnit: 'cycles',
  style: 'line',
  ...over,
});

type Axis = { type?: string; logBase?: number; name?: string; interval?: number; min?: unknown; max?: unknown };
type OptionLike = { animation?: boolean; xAxis: Axis; yAxis: Axis; legend: { show?: boolean }; series: { type: string; data: [number, number][]; color?: string; lineStyle?: { type?: string } }[] };
const asOption = (o: unknown): OptionLike => o as OptionLike;

describe('chart options', () => {
  it('puts series with the same axes on one chart and others on their own', () => {
    const charts = runCharts([series('s = 64 B'), series('s = 128 B'), series('index', { yLabel: 'Array index', yUnit: 'elements' })]);
    expect(charts.map((c) => [c.title, c.lines.map((l) => l.name)])).toEqual([
      ['Latency vs Array size', ['s = 64 B', 's = 128 B']],
      ['Array index vs Array size', ['index']],
    ]);
    expect(charts[0].lines[0].color).not.toBe(charts[0].lines[1].color);
  });

  it('draws a log x axis where the series say logX, without animation, and byte ticks on powers of two', () => {
    const log = asOption(chartOption(runCharts([series('a', { logX: true, x: [0, 1024, 4096, 65536] })])[0], { width: 480, height: 240 }));
    expect(log.animation).toBe(false);
    expect(log.xAxis.type).toBe('log');
    expect(log.xAxis.logBase).toBe(2);
    expect(log.xAxis.name).toBe('Array size (B)');
    expect(log.series[0].data.map((p) => p[0])).toEqual([1024, 4096, 65536]); // x <= 0 has no place on a log axis
    const lin = asOption(chartOption(runCharts([series('a', { x: [4096, 8192, 40960, 20480] })])[0], { width: 480, height: 240 }));
    expect(lin.xAxis.type).toBe('value');
    expect(Math.log2(lin.xAxis.interval as number) % 1).toBe(0);
    expect(lin.xAxis.min).toBe(0);
    expect(lin.xAxis.max).toBe(40960);
    expect(lin.legend.show).toBe(false); // one series: no legend
  });

  it('gives each preset one colour in a comparison and tells runs of the same preset apart by dashes', () => {
    const charts = comparisonCharts([
      { label: 'Fermi', color: PRESET_COLORS.fermi, series: [series('s = 64 B'), series('s = 128 B')] },
      { label: 'Kepler', color: PRESET_COLORS.kepler, series: [series('s = 64 B')] },
      { label: 'Kepler (run 3)', color: PRESET_COLORS.kepler, dashOffset: 1, series: [series('s = 64 B')] },
    ]);
    expect(charts).toHaveLength(1);
    expect(charts[0].lines.map((l) => [l.name, l.color, l.dash])).toEqual([
      ['Fermi: s = 64 B', PRESET_COLORS.fermi, 'solid'],
      ['Fermi: s = 128 B', PRESET_COLORS.fermi, 'dashed'],
      ['Kepler', PRESET_COLORS.kepler, 'solid'],
      ['Kepler (run 3)', PRESET_COLORS.kepler, 'dashed'],
    ]);
    const o = asOption(chartOption(charts[0], { width: 480, height: 240 }));
    expect(o.legend.show).toBe(true);
    expect(o.series.map((s) => s.color)).toEqual([PRESET_COLORS.fermi, PRESET_COLORS.fermi, PRESET_COLORS.kepler, PRESET_COLORS.kepler]);
  });

  it('keeps built-in preset colours and gives custom presets distinct unused ones', () => {
    const c = presetColors(['my-gpu', 'fermi', 'other', 'kepler', 'fermi']);
    expect(c.get('fermi')).toBe(PRESET_COLORS.fermi);
    expect(c.get('kepler')).toBe(PRESET_COLORS.kepler);
    expect(new Set(c.values()).size).toBe(4);
  });

  it('renders server-side to an SVG with paths and the axis names as text', () => {
    const svg = renderChartSvg(chartOption(runCharts([series('a'), series('b')])[0], { width: 480, height: 240 }), 480, 240);
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('Latency (cycles)');
    expect(svg).toContain('Array size (B)');
    expect(svg).toContain('8 KB');
    expect((svg.match(/<path/g) ?? []).length).toBeGreaterThan(10);
  });

  it('bounds the points of a chart of many runs and drops the legend it could not fit', () => {
    const big = Float64Array.from({ length: 50_000 }, (_, i) => i);
    const runs = Array.from({ length: 40 }, (_, k) => ({ label: `run ${k}`, color: '#000', series: [series('s', { x: big, y: big })] }));
    const o = asOption(chartOption(comparisonCharts(runs)[0], { width: 480, height: 240 }));
    const points = o.series.reduce((a, s) => a + s.data.length, 0);
    expect(points).toBeLessThanOrEqual(40_000);
    expect(o.legend.show).toBe(false);
  });

  it('the option builder is pure: no Node or runtime ECharts import, so the renderer can use it', () => {
    const source = readFileSync(new URL('../../src-main/services/export/charts.ts', import.meta.url), 'utf8');
    const imports = [...source.matchAll(/^import\s+(type\s+)?[^;]*?from\s+'([^']+)'/gm)].map((m) => ({ typeOnly: Boolean(m[1]), from: m[2] }));
    expect(imports.length).toBeGreaterThan(0);
    for (const { typeOnly, from } of imports) {
      expect(from).not.toMatch(/^node:|^(fs|path|os|zlib|child_process)$|^pdfkit|^svg-to-pdfkit/);
      if (from === 'echarts') expect(typeOnly).toBe(true);
      if (!from.startsWith('echarts')) expect(from).toMatch(/src-sim\//);
    }
  });
});

describe('downsampling', () => {
  it('keeps a line within its budget with its first and last points, its spike and its dip', () => {
    const n = 100_000;
    const x = Float64Array.from({ length: n }, (_, i) => i);
    const y = Float64Array.from({ length: n }, (_, i) => 100 + Math.sin(i / 50));
    y[31_337] = 5000;
    y[77_777] = -40;
    y[5] = NaN;
    const out = downsampleLine(x, y, 1000);
    expect(out.length).toBeLessThanOrEqual(1000);
    expect(out[0]).toEqual([0, 100]);
    expect(out[out.length - 1]).toEqual([n - 1, y[n - 1]]);
    expect(out).toContainEqual([31_337, 5000]);
    expect(out).toContainEqual([77_777, -40]);
    expect(out.every((p, i) => i === 0 || p[0] > out[i - 1][0])).toBe(true); // in x order
    expect(out.some((p) => Number.isNaN(p[1]))).toBe(false);
    expect(downsampleLine([1, 2, 3], [4, 5, 6], 1000)).toEqual([
      [1, 4],
      [2, 5],
      [3, 6],
    ]);
  });

  it('keeps one scatter point per grid cell, so outliers survive and dense clouds shrink', () => {
    const n = 200_000;
    const x = Float64Array.from({ length: n }, (_, i) => i);
    const y = Float64Array.from({ length: n }, (_, i) => (i === 123_456 ? 1259 : 655 + (i % 3)));
    const out = downsampleScatter(x, y, 100, 50);
    expect(out.length).toBeLessThanOrEqual(100 * 50);
    expect(out.length).toBeGreaterThan(50);
    expect(out).toContainEqual([123_456, 1259]);
  });
});

describe('paper values beside findings', () => {
  const f = (label: string, value: number | string, unit = 'cycles'): Finding => ({ key: label, label, value, unit, evidence: '' });
  const row = (id: string, refs: [string, number | string, string][]): PaperRow => ({
    id,
    paper: 'MEI',
    title: id,
    references: refs.map(([name, value, unit]) => ({
      name,
      value,
      unit,
      tolerance: typeof value === 'number' && unit === 'cycles' ? 'latency' : 'exact',
      citation: `${id} cite ${name}`,
      kind: { kind: 'calibrated', reason: 'the preset was set from it' },
    })),
  });

  it('matches a reference to the finding that names it, in full, after a prefix, or followed by a remark', () => {
    expect(namesMatch({ name: 'pattern 1', unit: 'cycles' }, f('Pattern 1 (data hit, L1 TLB hit)', 1))).toBe(true);
    expect(namesMatch({ name: 'odd strides conflict-free', unit: '' }, f('shared: odd strides conflict-free', 'yes', ''))).toBe(true);
    expect(namesMatch({ name: 'pattern 1', unit: 'cycles' }, f('Pattern 10 (data miss)', 1))).toBe(false);
    expect(namesMatch({ name: 'pattern 1', unit: 'B' }, f('Pattern 1', 1))).toBe(false); // units differ
    expect(namesMatch({ name: 'latency', unit: 'cycles' }, f('s = 64 B: plateau 1 latency', 1))).toBe(false);
  });

  it('pairs only one-to-one matches, checks them with the row tolerance and lists the rest', () => {
    const findings = [f('Pattern 1 (hit)', 236), f('Pattern 2 (miss)', 300), f('L1 size', 16384, 'B'), f('L1 size (48 KB)', 49152, 'B')];
    const rows = [
      row('R1', [
        ['pattern 1', 230, 'cycles'],
        ['pattern 2', 236, 'cycles'],
        ['L1 size', 16384, 'B'],
        ['pattern 9', 1, 'cycles'],
      ]),
      row('R2', [['pattern 1', 230, 'cycles']]),
    ];
    const cmp = besidePaper(findings, rows);
    expect(cmp.findings.map((b) => [b.finding.label, b.paper?.reference.name, b.check?.pass])).toEqual([
      ['Pattern 1 (hit)', 'pattern 1', true], // 2.6 % off: within 5 %
      ['Pattern 2 (miss)', 'pattern 2', false], // 27 % off
      ['L1 size', undefined, undefined], // "L1 size" fits two findings: ambiguous
      ['L1 size (48 KB)', undefined, undefined],
    ]);
    expect(cmp.findings[0].paper?.rowIds).toEqual(['R1', 'R2']); // the same value of two rows counts once
    expect(cmp.unmatched.map((v) => v.reference.name)).toEqual(['L1 size', 'pattern 9']);
    expect(cmp.findings[0].check?.kind).toBe('calibrated');
  });

  it('takes the rows the experiment reproduces on the presets the paper measured, none for a custom preset', () => {
    const kepler = preset('kepler');
    expect(paperRows('global-latency-patterns', 'kepler', kepler).map((r) => r.id)).toEqual(['MEI-T3']);
    expect(paperRows('global-latency-patterns', 'kepler', kepler)[0].references[0]).toMatchObject({ name: 'pattern 1', value: 230 });
    expect(paperRows('global-latency-patterns', 'my-kepler', { ...kepler, id: 'my-kepler' })).toEqual([]);
    expect(paperRows('pchase-average', 'fermi', preset('fermi'))).toEqual([]);
    expect(paperRows('no-such-experiment', 'fermi', preset('fermi'))).toEqual([]);
  });
});
