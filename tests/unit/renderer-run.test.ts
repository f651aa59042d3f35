// @vitest-environment happy-dom
/**
 * The run view (src-renderer/src/views/RunView.vue with components/Run*.vue and LabChart.vue) and
 * its pure helpers (src-main/shared/findings.ts, composables/runcharts.ts), against a fake LabApi:
 * the findings table with the preset's true values, deviations and pass/fail; the metadata; charts
 * grouped by axes, log axes, the trace chart; rerun (runs.start with the same experiment, preset,
 * parameters and seed, then the new run's page); duplicate into the builder; live progress of a
 * queued run and the reload when it finishes; loading, missing and error states.
 */
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryHistory, createRouter, type Router } from 'vue-router';
import type { ExperimentInfo, LabApi, LabEvents, RunDetail, RunReferences } from '../../src-main/contract';
import { setLab } from '../../src-renderer/src/api';
import LabChart from '../../src-renderer/src/components/LabChart.vue';
import { setTheme } from '../../src-renderer/src/composables/theme';
import { compare, findingRows, formatDeviation, formatValue, rowTags, trueValue } from '../../src-main/shared/findings';
import { byteInterval, byteTicks, chartGroups, seriesOption, startsAtZero, traceOption, traceWindow, traceWindowUpdate, wantsLogX, xExtent, type ChartSeries } from '../../src-renderer/src/composables/runcharts';
import { useNotify } from '../../src-renderer/src/stores/notify';
import RunView from '../../src-renderer/src/views/RunView.vue';
import { fineChase, Measurement, openSpace } from '../../src-sim/experiments/pchase';
import type { Finding, Trace } from '../../src-sim/experiments/types';
import { findExperiment } from '../../src-sim/experiments';
import { resolveParams } from '../../src-sim/experiments/params';
import type { Preset } from '../../src-sim/presets/types';
import { fermi } from '../../src-sim/presets/fermi';
import { kepler } from '../../src-sim/presets/kepler';
import { tesla } from '../../src-sim/presets/tesla';
import { titan } from '../../src-sim/presets/titan';
import { hopper } from '../../src-sim/presets/hopper';

// ---------------------------------------------------------------------------------------------
// findings.ts
// ---------------------------------------------------------------------------------------------

describe('true values from the preset snapshot', () => {
  it('a sectored cache: the line size a chase sees and a plateau below the line are the sector\'s', () => {
    const p = { strides: [32], sizeFrom: 2 * 2 ** 20, sizeTo: 16 * 2 ** 20, sizeStep: 2 * 2 ** 20 };
    // Hopper's L1: 128 B lines of 32 B sectors. At a 32 B stride every access misses the L1 and hits L2.
    expect(trueValue('cache.lineBytes', hopper, { space: 'global' })).toMatchObject({ value: 32 });
    expect(trueValue('s = 32 B.plateau1.latency', hopper, p)?.value).toBe(hopper.spaces.global.latency['L2/l1']);
  });

  it('cache.* is the probed first level of the chosen space, with the L1 configuration applied', () => {
    const g = { space: 'global' };
    expect(trueValue('cache.sizeBytes', fermi, g)?.value).toBe(16 * 1024);
    expect(trueValue('cache.lineBytes', fermi, g)?.value).toBe(128);
    expect(trueValue('cache.sets', fermi, g)?.value).toBe(32);
    expect(trueValue('cache.ways', fermi, g)).toMatchObject({ value: 4, source: 'spaces.global.levels.0.geometry.ways', tolerance: 'exact' });
    expect(trueValue('cache.policy', fermi, g)?.value).toBe('not LRU');
    expect(trueValue('cache.hotWay', fermi, g)?.value).toBe(2); // MEI's "way 2", the preset's hotWay index 1
    expect(trueValue('cache.hitLatency', fermi, g)).toMatchObject({ value: 116, tolerance: 'latency' });
    const big = { space: 'global', l1Config: '48KB' };
    expect(trueValue('cache.sizeBytes', fermi, big)?.value).toBe(48 * 1024);
    expect(trueValue('cache.ways', fermi, big)).toMatchObject({ value: 6, source: 'l1Configs.0.geometry.ways' });
    const tex = { space: 'texture' };
    expect(trueValue('cache.sets', fermi, tex)?.value).toBe(4);
    expect(trueValue('cache.ways', fermi, tex)?.value).toBe(96);
    expect(trueValue('cache.policy', fermi, tex)?.value).toBe('LRU');
    expect(trueValue('cache.hitLatency', fermi, tex)?.value).toBe(240);
    // Tesla's global memory has no cache: nothing to compare with.
    expect(trueValue('cache.sizeBytes', tesla, g)).toBeNull();
  });

  it('tlb.* from the translation, shared.* from preset.shared, patterns from the latency table, clock.*', () => {
    expect(trueValue('tlb.l1.entries', fermi, {})?.value).toBe(16);
    expect(trueValue('tlb.l2.entries', fermi, {})?.value).toBe(65);
    expect(trueValue('tlb.l2.sets', fermi, {})?.value).toBe(7);
    expect(trueValue('tlb.l2.setSizes', fermi, {})).toMatchObject({ value: '17,8,8,8,8,8,8', tolerance: 'list' });
    expect(trueValue('tlb.l2.ways', fermi, {})).toBeNull(); // unequal sets have no single way count
    expect(trueValue('tlb.l1.reachBytes', tesla, {})?.value).toBe(8 * 1024 * 1024);
    expect(trueValue('tlb.l1.entryBytes', tesla, {})?.value).toBe(512 * 1024);
    expect(trueValue('tlb.l2.ways', tesla, {})?.value).toBe(8);
    expect(trueValue('tlb.pageBytes', fermi, {})?.value).toBe(2 * 1024 * 1024);
    expect(trueValue('tlb.window.bytes', kepler, {})?.value).toBe(512 * 1024 * 1024);
    expect(trueValue('tlb.window.bytes', fermi, {})).toBeNull();
    expect(trueValue('tlb.l1.fullyAssociative', tesla, {})?.value).toBe('yes');
    expect(trueValue('shared.maxDegree', fermi, {})?.value).toBe(32);
    expect(trueValue('shared.base', tesla, {})).toMatchObject({ value: 38, tolerance: 'latency' });
    expect(trueValue('pattern1.latency', fermi, { space: 'global' })?.value).toBe(116);
    expect(trueValue('pattern5.latency', fermi, { space: 'global' })?.value).toBe(1259);
    expect(trueValue('pattern1.latency', fermi, { space: 'global', clockOverhead: 'included' })?.value).toBe(116 + 28);
    expect(trueValue('pattern6.latency', fermi, { space: 'global' })).toBeNull(); // no page window on Fermi
    expect(trueValue('clock.overhead', tesla, {})?.value).toBe(28);
    expect(trueValue('s = 64 B.level1.sizeBytes', tesla, { space: 'texture', sizeFrom: 1024, sizeTo: 2 ** 20 })?.value).toBe(5 * 1024);
    expect(trueValue('s = 64 B.level2.lineBytes', tesla, { space: 'texture', sizeFrom: 1024, sizeTo: 2 ** 20 })?.value).toBe(256);
    expect(trueValue('trace.levels', fermi, {})).toBeNull();
    expect(trueValue('no.such.key', fermi, {})).toBeNull();
  });

  it("a tlb-probes run's entries and sets are the elements of its stride the TLB holds, from the snapshot (WONG's L2 TLB: 64, not 1024 x 8)", () => {
    const tlb = findExperiment('tlb-probes')!;
    const rows = (preset: Preset, raw: Record<string, unknown>) => {
      const params = resolveParams(tlb.params, raw);
      const findings = tlb.run(preset, params, 1, () => {}).findings;
      return new Map(findingRows(findings, preset, params, [], 'tlb-probes').map((r) => [r.finding.key, r]));
    };
    // Tesla global memory at the probe's 512 KB stride: 1024 sets of 4 KB lines, every 128th set reached.
    const global = rows(tesla, { probe: 'reach' });
    // The probe does not count the sets its stride does not reach: 'cannot tell', never 64 as the L2's entries.
    expect(global.get('tlb.l2.entries')!.finding.value).toBe('cannot tell');
    expect(global.get('tlb.l2.entries')!.truth).toMatchObject({ value: 64, source: 'spaces.global.translation.l2.sizeBytes / 524288 B stride' });
    expect(global.get('tlb.l2.sets')!.truth?.value).toBe(8);
    expect(global.get('tlb.l2.setSizes')!.truth?.value).toBe('8,8,8,8,8,8,8,8');
    for (const key of ['tlb.l1.entries', 'tlb.l2.setSizes', 'tlb.l2.ways']) expect(global.get(key)!.vsTruth.pass, key).toBe(true);
    // A stride finer than an entry's coverage keeps the geometry's count (Tesla texture: 16 L1 TLB entries of 512 KB at 256 KB).
    const texture = rows(tesla, { probe: 'reach', space: 'texture' });
    expect(texture.get('tlb.l1.entries')!.truth?.value).toBe(16);
    expect(texture.get('tlb.l2.entries')!.truth?.value).toBe(16 * 2 ** 20 / (256 * 1024));
    // Behind the texture L1 the probe may not decide the L2 TLB's entries; what it reports is never wrong.
    expect(texture.get('tlb.l2.entries')!.vsTruth.pass).not.toBe(false);
    // A stride of one entry (Fermi, 2 MB) reads the geometry: 65 entries in sets of 17 and 8.
    const missed = rows(fermi, { probe: 'missed-entries' });
    expect(missed.get('tlb.l2.entries')!.truth).toMatchObject({ value: 65, source: 'spaces.global.translation.l2.geometry' });
    expect(missed.get('tlb.l2.setSizes')!.vsTruth.pass).toBe(true);
    // Outside tlb-probes no stride is known: the geometry's count.
    expect(trueValue('tlb.l2.entries', tesla, {})?.value).toBe(8192);
  });

  it('compares: sizes exactly, latencies within 5 %, set sizes as a multiset, words case-insensitively', () => {
    expect(compare(16384, 16384, 'exact')).toEqual({ deviation: 0, pass: true });
    expect(compare(5, 4, 'exact')).toEqual({ deviation: 0.25, pass: false });
    expect(compare(120, 116, 'latency').pass).toBe(true);
    expect(compare(110, 116, 'latency')).toMatchObject({ pass: false });
    expect(compare(110, 116, 'latency').deviation).toBeCloseTo(-6 / 116);
    expect(compare('8,17,8,8,8,8,8', '17,8,8,8,8,8,8', 'list')).toEqual({ deviation: null, pass: true });
    expect(compare('17,8,8', '17,8,8,8', 'list').pass).toBe(false);
    expect(compare('lru', 'LRU', 'word').pass).toBe(true);
    expect(compare(3, 4, 'range', [2, 5]).pass).toBe(true);
    // An analyser's "cannot tell" is neither a match nor a mismatch.
    expect(compare('cannot tell', 16384, 'exact')).toEqual({ deviation: null, pass: null });
  });

  it('rows: a verdict against the paper where it has a value, else against the preset', () => {
    const findings: Finding[] = [
      { key: 'cache.sizeBytes', label: 'Cache size C', value: 16384, unit: 'B', evidence: 'e' },
      { key: 'cache.ways', label: 'Ways', value: 5, unit: '', evidence: 'e' },
      { key: 'trace.levels', label: 'Levels', value: 3, unit: '', evidence: 'e' },
    ];
    const rows = findingRows(findings, fermi, { space: 'global' }, [
      { key: 'cache.sizeBytes', value: 16 * 1024, unit: 'B', tolerance: 'exact', citation: 'MEI Table 4' },
    ]);
    expect(rows[0].verdict).toEqual({ pass: true, against: 'paper' });
    expect(rows[1].verdict).toEqual({ pass: false, against: 'preset' });
    expect(rows[1].vsTruth.deviation).toBeCloseTo(0.25);
    expect(rows[2].truth).toBeNull();
    expect(rows[2].verdict).toBeNull();
  });

  it("relative paper figures ('half' tolerance) take the main process's verdict, with the deviation shown", () => {
    const f: Finding = { key: 'speedup', label: 'Speed-up', value: 0.13, unit: 'fraction', evidence: '' };
    const ref = { key: 'speedup', value: 0.11, unit: 'fraction', tolerance: 'half' as const, citation: 'LASH Fig 6' };
    const [pass] = findingRows([f], null, {}, [{ ...ref, pass: true }]);
    expect(pass.vsPaper.deviation).toBeCloseTo(0.02 / 0.11);
    expect(pass.verdict).toEqual({ pass: true, against: 'paper' });
    const [fail] = findingRows([f], null, {}, [{ ...ref, pass: false }]);
    expect(fail.verdict).toEqual({ pass: false, against: 'paper' });
    // Without a verdict from the main process, a relative figure gets none.
    expect(findingRows([f], null, {}, [ref])[0].verdict).toBeNull();
  });

  it("a curve's level N is the Nth structure in the swept range, compared only when the curve rose once per structure", () => {
    const f = (key: string, value: number): Finding => ({ key, label: key, value, unit: '', evidence: '' });
    const range = { sizeFrom: 1024, sizeTo: 512 * 1024 };
    const two = findingRows([f('s = 64 B.levels', 2), f('s = 64 B.level1.sizeBytes', 5120), f('s = 64 B.level2.ways', 8)], tesla, { space: 'texture', ...range });
    expect(two.map((r) => r.truth?.value ?? null)).toEqual([2, 5 * 1024, 8]);
    expect(two[1].truth?.source).toBe('spaces.texture.levels.0.sizeBytes');
    // Without the swept range the numbering cannot be read from the preset: no guess.
    expect(findingRows([f('s = 64 B.levels', 2), f('s = 64 B.level1.sizeBytes', 5120)], tesla, { space: 'texture' })[1].truth).toBeNull();
    // Four rises where the preset has one structure in 4 KB..96 KB (Fermi's L1): level 2 gets no guess, the count fails.
    const four = findingRows([f('s = 128 B.levels', 4), f('s = 128 B.level2.sizeBytes', 140288)], fermi, { space: 'global', sizeFrom: 4096, sizeTo: 96 * 1024 });
    expect(four[0].truth?.value).toBe(1);
    expect(four[0].verdict).toEqual({ pass: false, against: 'preset' });
    expect(four[1].truth).toBeNull();
    expect(four[1].verdict).toBeNull();
  });

  it('average curves: sizes, ways and plateaus of caches and TLB reaches in the range, a mixed plateau for strides shorter than a line', () => {
    // Fermi, 1-32 KB at 64 B: the 16 KB L1 (128 B lines); past it every other access enters a new line.
    const l1 = { space: 'global', sizeFrom: 1024, sizeTo: 32 * 1024 };
    expect(trueValue('s = 64 B.levels', fermi, l1)?.value).toBe(1);
    expect(trueValue('s = 64 B.level1.sizeBytes', fermi, l1)?.value).toBe(16 * 1024);
    expect(trueValue('s = 64 B.level1.waySizeBytes', fermi, l1)?.value).toBe(4 * 1024);
    expect(trueValue('s = 64 B.plateau1.latency', fermi, l1)).toMatchObject({ value: 116, tolerance: 'latency' });
    expect(trueValue('s = 64 B.plateau2.latency', fermi, l1)).toMatchObject({ value: (116 + 404) / 2, source: 'spaces.global.latency: 1/2 L2/l1 + 1/2 L1/l1' });
    expect(trueValue('s = 128 B.plateau2.latency', fermi, l1)?.value).toBe(404);
    // Tesla (no global cache), 4-64 MB at 512 KB: the two TLB reaches, data in memory throughout.
    const tlb = { space: 'global', sizeFrom: 4 * 2 ** 20, sizeTo: 64 * 2 ** 20 };
    expect(trueValue('s = 512 KB.levels', tesla, tlb)?.value).toBe(2);
    expect(trueValue('s = 512 KB.level1.sizeBytes', tesla, tlb)).toMatchObject({ value: 8 * 2 ** 20, source: 'spaces.global.translation.l1.sizeBytes' });
    expect(trueValue('s = 512 KB.level2.sizeBytes', tesla, tlb)?.value).toBe(32 * 2 ** 20);
    expect([1, 2, 3].map((n) => trueValue(`s = 512 KB.plateau${n}.latency`, tesla, tlb)?.value)).toEqual([440, 487, 698]);
    // A stride shorter than a page sees no TLB reach.
    expect(trueValue('s = 64 B.levels', tesla, tlb)?.value).toBe(0);
    // Kepler at 2 MB: a stride over a whole way of its L2 crowds a few sets: the preset does not say where the curve rises.
    expect(trueValue('s = 2 MB.level1.sizeBytes', kepler, { space: 'global', sizeFrom: 16 * 2 ** 20, sizeTo: 256 * 2 ** 20 })).toBeNull();
    // Tesla's constant hierarchy (constant-hierarchy curves are named s<stride>): three levels.
    const c = { probe: 'latency', sizeFrom: 256, sizeTo: 40960 };
    expect([1, 2, 3].map((n) => trueValue(`s64.level${n}.sizeBytes`, tesla, c, 'constant-hierarchy')?.value)).toEqual([2048, 8192, 32768]);
    expect(trueValue('s64.plateau3.latency', tesla, c, 'constant-hierarchy')?.value).toBeCloseTo((3 * 81 + 220) / 4);
    expect(trueValue('s256.plateau3.latency', tesla, c, 'constant-hierarchy')?.value).toBe(220);
  });

  it('texture mapping, TLB latencies, miss latency, shared-memory modes, clock and eviction shares', () => {
    expect(trueValue('texture.setIndexBits', fermi, {})).toMatchObject({ value: '7-8', tolerance: 'word' });
    expect(trueValue('texture.granularityBytes', fermi, {})?.value).toBe(128);
    expect(trueValue('texture.linesPerSet', fermi, {})?.value).toBe(96);
    expect(trueValue('texture.setIndexBits', tesla, {})?.value).toBe('5-7');
    expect(trueValue('cache.setIndexBits', fermi, { space: 'global' })?.value).toBe('7-11');
    expect(trueValue('cache.missLatency', fermi, { space: 'global' })?.value).toBe(404);
    expect(['l1Hit', 'l2Hit', 'l2Miss'].map((k) => trueValue(`tlb.latency.${k}`, kepler, {})?.value)).toEqual([230, 236, 289]);
    expect(trueValue('tlb.latency.l2Miss', tesla, {})?.value).toBe(698);
    expect(trueValue('clock.opCycles', tesla, {})).toMatchObject({ source: 'alu.issueCycles', tolerance: 'exact' });
    // Kepler's two bank modes, over the run's strides.
    const strides = { strideFrom: 0, strideTo: 64, strideStep: 1 };
    expect(trueValue('shared.4-byte.oddConflictFree', kepler, strides)?.value).toBe('yes');
    expect(trueValue('shared.8-byte.oddConflictFree', kepler, strides)?.value).toBe('no');
    expect(trueValue('shared.4-byte.repeatWords', kepler, strides)?.value).toBe(64);
    expect(trueValue('shared.repeatWords', fermi, strides)?.value).toBe(32);
    expect(trueValue('shared.maxDegree', tesla, strides)?.value).toBe(16);
    expect(String(trueValue('shared.8-byte.betterAt', kepler, strides)?.value)).toMatch(/^6,10,12,/);
    // Statistical shares: a deviation, never a verdict.
    const share = findingRows([{ key: 'cache.way2.evictionShare', label: 'Way 2', value: 0.47, unit: 'fraction', evidence: '' }], fermi, { space: 'global' })[0];
    expect(share.truth?.value).toBe(0.5);
    expect(share.vsTruth.deviation).toBeCloseTo(-0.06);
    expect(share.verdict).toBeNull();
  });

  it('every finding of real runs gets a true value, except measurement-only keys, and the values pass', () => {
    const cases: [string, Preset, Record<string, unknown>][] = [
      ['pchase-average', fermi, {}],
      ['pchase-average', tesla, { strides: [512 * 1024], sizeFrom: '4 MB', sizeTo: '64 MB', sizeStep: '512 KB' }],
      ['pchase-average', titan, {}],
      ['cache-structure', fermi, {}],
      ['shared-bank-stride', kepler, {}],
      ['texture-set-mapping', fermi, {}],
      ['tlb-probes', fermi, {}],
      ['constant-hierarchy', tesla, {}],
      ['global-latency-patterns', kepler, {}],
    ];
    const measurementOnly = /(\.plateaus|\.flat\d+\.(latency|toBytes)|\.partition\.\w+|\.steps|\.regular|\.rule|\.setMapping|\.setIndexXor|\.maxMissRate|^trace\..*|^clock\.serialized)$/;
    for (const [id, preset, raw] of cases) {
      const e = findExperiment(id)!;
      const params = resolveParams(e.params, raw);
      const found = e.run(preset, params, 1, () => {}).findings;
      const rows = findingRows(found, preset, params, [], id);
      // A curve whose level count is "cannot tell" numbers its levels and plateaus unconfirmed: no true values.
      const unnumbered = new Set(found.filter((f) => f.key.endsWith('.levels') && f.value === 'cannot tell').map((f) => f.key.slice(0, -'.levels'.length)));
      for (const r of rows) {
        const what = `${id} on ${preset.id}: ${r.finding.key} = ${String(r.finding.value)}`;
        if (measurementOnly.test(r.finding.key) || r.finding.value === 'cannot tell') continue;
        const curve = /^(.*)\.(level\d+\.[A-Za-z]+|plateau\d+\.latency)$/.exec(r.finding.key);
        if (curve && unnumbered.has(curve[1]!)) continue;
        expect(r.truth, what).not.toBeNull();
        if (r.vsTruth.pass !== null) expect(r.vsTruth.pass, `${what}, preset ${String(r.truth?.value)}`).toBe(true);
      }
    }
  });

  it('formats values, deviations and row tags', () => {
    expect(formatValue(16384, 'B')).toBe('16 KB');
    expect(formatValue(512, 'B')).toBe('512 B');
    expect(formatValue(16512, 'B')).toBe('16.125 KB');
    expect(formatValue(100_000, 'B')).toBe('100,000 B');
    expect(formatValue(130 * 1024 * 1024, 'B')).toBe('130 MB');
    expect(formatValue(115.96, 'cycles')).toBe('116 cycles');
    expect(formatValue(0.125, 'fraction')).toBe('12.5 %');
    expect(formatValue(true)).toBe('yes');
    expect(formatValue([64, 128], 'B')).toBe('64 B, 128 B');
    expect(formatValue(null)).toBe('—');
    expect(formatDeviation(0.25)).toBe('+25 %');
    expect(formatDeviation(-0.0123)).toBe('−1.2 %');
    expect(formatDeviation(0)).toBe('0 %');
    expect(formatDeviation(null)).toBe('');
    expect(rowTags(['lab-3', 'MEI-T3', 'WONG-F10..F12'])).toEqual(['MEI-T3', 'WONG-F10..F12']);
  });
});

// ---------------------------------------------------------------------------------------------
// runcharts.ts
// ---------------------------------------------------------------------------------------------

/** ECharts options are checked field by field: a loose view of them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = Record<string, any>;

const sizes = Float64Array.from({ length: 40 }, (_, i) => 1024 * (i + 1));
function s(name: string, over: Partial<ChartSeries> = {}): ChartSeries {
  return { name, x: sizes, y: sizes.map((v) => v / 100), xLabel: 'Array size N', xUnit: 'B', yLabel: 'Average latency', yUnit: 'cycles', style: 'line', ...over };
}

describe('chart options', () => {
  it('a chart of shares or rates starts at zero, so that equal shares look equal (MEI Fig 8)', () => {
    const share = { name: 'share', x: [1, 2, 3, 4], y: [0.1635, 0.1675, 0.165, 0.504], xLabel: 'Way', xUnit: '', yLabel: 'Share of replacements', yUnit: '', style: 'scatter' as const };
    expect(startsAtZero([share])).toBe(true);
    expect((seriesOption([share]).yAxis as { scale: boolean }).scale).toBe(false);
    const latency = { ...share, y: [116, 404, 488, 655], yLabel: 'Latency', yUnit: 'cycles' };
    expect(startsAtZero([latency])).toBe(false);
    expect((seriesOption([latency]).yAxis as { scale: boolean }).scale).toBe(true);
    // A "rate" above 1 is no share.
    expect(startsAtZero([{ ...share, y: [0.5, 2] }])).toBe(false);
  });
  it('groups series with the same axes into one chart', () => {
    const groups = chartGroups([s('s = 64 B'), s('s = 128 B'), s('misses', { yLabel: 'Misses', yUnit: '' })]);
    expect(groups.map((g) => g.series.map((x) => x.name))).toEqual([['s = 64 B', 's = 128 B'], ['misses']]);
    expect(groups[0].title).toBe('Average latency vs array size N');
  });

  it('uses a log x axis when asked or when byte sizes span more than three decades', () => {
    expect(wantsLogX([s('a')])).toBe(false); // 1 KB..40 KB
    expect(wantsLogX([s('a', { logX: true })])).toBe(true);
    const wide = Float64Array.from([1024, 4096, 2 ** 22]);
    expect(wantsLogX([s('a', { x: wide, y: wide })])).toBe(true);
    expect(wantsLogX([s('a', { x: wide, y: wide, xUnit: '' })])).toBe(false); // not sizes
  });

  it('linear byte axes tick at powers of two', () => {
    expect(byteInterval(320 * 1024)).toBe(32 * 1024);
    expect(byteInterval(40 * 1024)).toBe(4 * 1024);
    expect(byteInterval(1000)).toBe(128);
    const o = seriesOption([s('a')]) as Loose; // 1 KB..40 KB
    expect(o.xAxis.type).toBe('value');
    expect([o.xAxis.min, o.xAxis.max]).toEqual([0, 40 * 1024]);
    expect(o.xAxis.axisLabel.customValues).toEqual(Array.from({ length: 11 }, (_, i) => i * 4096));
    expect(xExtent([s('a')])).toEqual([1024, 40 * 1024]);
    // Zoomed into 42.6 KB..133.4 KB: 16 KB ticks on whole multiples, not 42.6 KB, 58.6 KB, ...
    expect(byteTicks(43581, 136643)).toEqual([3, 4, 5, 6, 7, 8].map((k) => k * 16384));
  });

  it('puts units on the axes, zoom, a legend and typed-array data with LTTB sampling', () => {
    const o = seriesOption([s('s = 64 B')], { logX: true }) as Loose;
    expect(o.xAxis.type).toBe('log');
    expect(o.xAxis.name).toBe('Array size N (B)');
    expect([o.xAxis.min, o.xAxis.max]).toEqual([1024, 40 * 1024]);
    expect(o.yAxis.name).toBe('Average latency (cycles)');
    expect(o.xAxis.axisLabel.formatter(16384)).toBe('16 KB');
    expect(o.dataZoom.map((d: { type: string }) => d.type)).toEqual(['inside', 'slider']);
    expect(o.legend).toBeTruthy();
    expect(o.series[0].data).toBeInstanceOf(Float64Array);
    expect(o.series[0].data.length).toBe(80);
    expect(o.series[0].sampling).toBe('lttb');
    const tip = o.tooltip.formatter([{ seriesName: 's = 64 B', marker: '', value: [2048, 116.5] }]);
    expect(tip).toContain('2 KB');
    expect(tip).toContain('116.5 cycles');
  });

  const n = 10_000;
  const trace = {
    address: Float64Array.from({ length: n }, (_, i) => i * 128),
    latency: Float64Array.from({ length: n }, (_, i) => (i === 5001 ? 1259 : i % 3 === 0 ? 116 : 404)),
    level: Uint8Array.from({ length: n }, (_, i) => (i === 5001 ? 2 : i % 3 === 0 ? 0 : 1)),
    levelNames: ['L1', 'L2', 'memory'],
  };

  it('a trace: one large-mode scatter per served level, the array index on a second axis, opened on the first accesses', () => {
    const o = traceOption(trace) as Loose;
    expect(o.series.map((x: Loose) => x.id)).toEqual(['level0', 'level1', 'level2', 'index']);
    expect(o.series[0].name).toBe('L1 hit (3,333)'); // 3,334 multiples of 3, less access 5001 served by memory
    expect(o.series[2].name).toBe('memory (1)');
    expect(o.series[0].itemStyle.color).toBe('#2e9d5b');
    expect(o.series[0].large).toBe(true);
    expect(o.series[3]).toMatchObject({ name: 'array index', yAxisIndex: 1 });
    expect(o.yAxis[1].name).toBe('Array index (elements)');
    expect(o.dataZoom[0].endValue).toBe(3999);
    expect(o.xAxis.max).toBe(n - 1);
    // The opening window holds the first accesses (and one span beyond), not all 10,000.
    const xs = (d: Float64Array) => Array.from(d.filter((_, k) => k % 2 === 0));
    expect(Math.max(...xs(o.series[0].data))).toBeLessThan(8000);
    expect(xs(o.series[2].data)).toEqual([5001]); // within one span beyond the window
  });

  it('trace windows: every point of a narrow span, per-bucket extremes of a wide one (a lone miss survives)', () => {
    const narrow = traceWindow(trace, 100, 1099);
    expect(narrow.bucket).toBe(1);
    expect([narrow.from, narrow.to]).toEqual([0, 2099]);
    expect(narrow.levels[0].length / 2).toBe(700); // i % 3 == 0 for i in 0..2099
    expect(narrow.levels[1].length / 2).toBe(1400);
    expect(narrow.index.length / 2).toBe(2100);
    expect(narrow.index[2 * 5 + 1]).toBe(160); // access 5: address 640 = element 160

    const wide = traceWindow(trace, 0, n - 1, 4, 1000);
    expect(wide.bucket).toBe(10);
    expect(wide.levels[0].length / 2).toBeLessThanOrEqual(2 * 1000);
    expect(wide.levels[2].length / 2).toBe(1);
    expect(Array.from(wide.levels[2])).toEqual([5001, 1259]);
    // The index keeps each bucket's lowest and highest element: the first and the last of every 10.
    expect(Array.from(wide.index.subarray(0, 4))).toEqual([0, 0, 9, 9 * 32]);

    const update = traceWindowUpdate(trace, 50, 50.5) as Loose;
    expect(update.series.map((x: Loose) => x.id)).toEqual(['level0', 'level1', 'level2', 'index']);
    expect(update.series[2].data.length).toBe(2); // access 5001 lies in [4999.5, 5049.5] +- one span
  });
});

// ---------------------------------------------------------------------------------------------
// The view
// ---------------------------------------------------------------------------------------------

const ID = '00000000-0000-4000-8000-000000000001';
const NEW_ID = '00000000-0000-4000-8000-000000000002';

const EXPERIMENTS: ExperimentInfo[] = [
  {
    id: 'cache-structure',
    title: 'Cache structure (MEI 3.2)',
    description: 'd',
    reproduces: ['MEI-T4'],
    params: [
      { name: 'space', label: 'Memory space', unit: '', kind: 'enum', default: 'global', options: ['global', 'texture'], description: 'd' },
      { name: 'maxSize', label: 'Largest size searched', unit: 'B', kind: 'bytes', default: 131072, min: 64, max: 2097152, description: 'd' },
    ],
  },
  { id: 'pchase-fine', title: 'Fine-grained P-chase', description: 'd', reproduces: [], params: [] },
];

function detail(over: Partial<RunDetail> = {}): RunDetail {
  const x = Float64Array.from([16384, 16512, 16640]);
  return {
    id: ID,
    experiment: 'cache-structure',
    title: '',
    presetId: 'fermi',
    presetName: 'Fermi',
    seed: 42,
    simVersion: '1.2.3',
    status: 'done',
    error: null,
    createdAt: Date.UTC(2026, 0, 2, 10, 0),
    startedAt: Date.UTC(2026, 0, 2, 10, 0),
    finishedAt: Date.UTC(2026, 0, 2, 10, 1),
    durationMs: 1234,
    tags: ['MEI-T4'],
    notes: '',
    preset: fermi,
    params: { space: 'global', maxSize: 131072 },
    result: {
      series: [
        { name: 'step 1', x, y: Float64Array.from([116, 116, 404]), xLabel: 'Array size N', xUnit: 'B', yLabel: 'Misses', yUnit: '', style: 'line' },
        { name: 'step 2', x, y: Float64Array.from([0, 1, 2]), xLabel: 'Array size N', xUnit: 'B', yLabel: 'Misses', yUnit: '', style: 'line' },
        { name: 'latency', x, y: Float64Array.from([116, 200, 300]), xLabel: 'Array size N', xUnit: 'B', yLabel: 'Latency', yUnit: 'cycles', style: 'scatter' },
      ],
      tables: [{ name: 'Steps', columns: [{ key: 'n', label: 'N', unit: 'B' }, { key: 'misses', label: 'Misses' }], rows: [{ n: 16384, misses: 0 }] }],
      findings: [
        { key: 'cache.sizeBytes', label: 'Cache size C', value: 16384, unit: 'B', evidence: 'step 1' },
        { key: 'cache.ways', label: 'Ways', value: 5, unit: '', evidence: 'step 3' },
        { key: 'cache.maxMissRate', label: 'Largest miss rate', value: 0.5, unit: '', evidence: 'step 3' },
      ],
      notes: ['A note from the experiment.'],
    },
    ...over,
  };
}

function fineTrace(k = 600): Trace {
  const model = openSpace(fermi, 'global', 1);
  let j = 0;
  return fineChase(model, new Measurement(0, 0, 1), () => {
    const a = j;
    j = (j + 128) % (16 * 1024 + 128);
    return a;
  }, k);
}

interface Fake {
  lab: LabApi;
  get: ReturnType<typeof vi.fn>;
  start: ReturnType<typeof vi.fn>;
  emit<E extends keyof LabEvents>(e: E, p: LabEvents[E]): void;
  runs: Map<string, RunDetail | Error>;
}

const NO_REFERENCES = (runId: string): RunReferences => ({ runId, rows: [], findings: [], unmatched: [] });

function fakeLab(initial: RunDetail | Error, references: (runId: string) => RunReferences | Error = NO_REFERENCES): Fake {
  const runs = new Map<string, RunDetail | Error>([[ID, initial]]);
  const referencesCall = vi.fn(async ({ runId }: { runId: string }) => {
    const r = references(runId);
    if (r instanceof Error) throw r;
    return r;
  });
  const listeners: { [E in keyof LabEvents]?: ((p: LabEvents[E]) => void)[] } = {};
  const get = vi.fn(async ({ id }: { id: string }) => {
    const r = runs.get(id);
    if (!r) throw Object.assign(new Error(`no run ${id}`), { code: 'not-found' });
    if (r instanceof Error) throw r;
    return r;
  });
  const start = vi.fn(async () => {
    runs.set(NEW_ID, detail({ id: NEW_ID, status: 'queued', result: null, startedAt: null, finishedAt: null, durationMs: null }));
    return { runId: NEW_ID };
  });
  const lab = {
    runs: { get, start, list: vi.fn(async () => ({ total: 0, items: [] })), cancel: vi.fn(), update: vi.fn(), delete: vi.fn() },
    presets: { list: vi.fn(async () => []), get: vi.fn() },
    experiments: { list: vi.fn(async () => EXPERIMENTS) },
    reproduce: { references: referencesCall, rows: vi.fn() },
    app: { version: vi.fn() },
    on<E extends keyof LabEvents>(e: E, fn: (p: LabEvents[E]) => void) {
      ((listeners[e] ??= []) as ((p: LabEvents[E]) => void)[]).push(fn);
      return () => {};
    },
  } as unknown as LabApi;
  return {
    lab,
    get,
    start,
    runs,
    emit(e, p) {
      for (const fn of listeners[e] ?? []) fn(p);
    },
  };
}

let wrapper: VueWrapper | null = null;
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
  setLab(null);
});

async function mountRun(fake: Fake, id = ID): Promise<{ w: VueWrapper; router: Router }> {
  setLab(fake.lab);
  setActivePinia(createPinia());
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/runs/:id', component: RunView, props: true },
      { path: '/:p(.*)*', component: { template: '<div />' } },
    ],
  });
  await router.push(`/runs/${id}`);
  // Mounted directly (not through RouterView) so the test controls the id prop.
  wrapper = mount(RunView, { props: { id }, global: { plugins: [router] }, attachTo: document.body });
  await flushPromises();
  return { w: wrapper, router };
}

describe('RunView', () => {
  it('shows the header, findings with the preset value, deviation and pass/fail, tables, notes and metadata', async () => {
    const { w } = await mountRun(fakeLab(detail()));
    expect(w.find('[data-testid="run-title"]').text()).toBe('Cache structure (MEI 3.2)');
    expect(w.find('[data-testid="run-status"]').text()).toBe('done');
    expect(w.find('[data-testid="run-preset"]').text()).toContain('Fermi');

    const size = w.find('[data-testid="finding-cache.sizeBytes"]');
    expect(size.find('[data-testid="finding-value"]').text()).toBe('16 KB');
    expect(size.find('[data-testid="finding-truth"]').text()).toBe('16 KB');
    expect(size.find('[data-testid="finding-dev-truth"]').text()).toBe('0 %');
    expect(size.find('[data-testid="finding-verdict"] .pass').text()).toBe('pass');
    const ways = w.find('[data-testid="finding-cache.ways"]');
    expect(ways.find('[data-testid="finding-truth"]').text()).toBe('4');
    expect(ways.find('[data-testid="finding-dev-truth"]').text()).toBe('+25 %');
    expect(ways.find('[data-testid="finding-verdict"] .fail').text()).toBe('fail');
    const rate = w.find('[data-testid="finding-cache.maxMissRate"]');
    expect(rate.find('[data-testid="finding-truth"]').text()).toBe('—');
    expect(rate.find('[data-testid="finding-verdict"]').text()).toBe('');
    expect(w.find('[data-testid="findings-summary"]').text()).toBe('1 of 2 checked values pass');
    // No paper value matches these findings: the paper column is a dash; the row tag points to the scorecard.
    expect(size.find('[data-testid="finding-paper"]').text()).toBe('—');
    expect(w.find('[data-testid="findings-paper-note"]').text()).toContain('MEI-T4');

    expect(w.find('[data-testid="run-table-0"]').text()).toContain('16 KB');
    expect(w.find('[data-testid="run-notes"]').text()).toContain('A note from the experiment.');
    expect(w.find('[data-testid="meta-seed"]').text()).toBe('42');
    expect(w.find('[data-testid="meta-version"]').text()).toBe('1.2.3');
    expect(w.find('[data-testid="meta-duration"]').text()).toBe('1.2 s');
    expect(w.find('[data-testid="param-maxSize"]').text()).toContain('Largest size searched');
    expect(w.find('[data-testid="param-maxSize"]').text()).toContain('128 KB');
    // The preset snapshot is collapsed until opened.
    const details = w.find('details.snapshot');
    expect(w.find('[data-testid="preset-snapshot"]').text()).toBe('');
    (details.element as HTMLDetailsElement).open = true;
    await details.trigger('toggle');
    expect(w.find('[data-testid="preset-snapshot"]').text()).toContain('"GeForce GTX 560 Ti"');
  });

  it("shows the paper's value from reproduce.references: citation on hover, deviation, a verdict against the paper, the other values", async () => {
    const ref = (name: string, value: number | string, unit: string, tolerance: 'latency' | 'exact', citation: string) => ({ name, value, unit, tolerance, citation });
    const references = (runId: string): RunReferences => ({
      runId,
      rows: [{ id: 'MEI-T4', paper: 'MEI', title: 'Cache structures' }],
      findings: [
        // The main process's check is what the verdict shows.
        { key: 'cache.sizeBytes', paper: { rowIds: ['MEI-T4'], reference: ref('L1 size', 16384, 'B', 'exact', 'MEI Table 4 (Fermi L1)') }, check: { name: 'L1 size', target: '16 KB', rule: 'exactly the paper\'s value', simulated: '16 KB', deviation: 0, pass: true, kind: 'recovered' as const, kindReason: 'the analyser infers the size the preset was set to' } },
        { key: 'cache.ways', paper: { rowIds: ['MEI-T4'], reference: ref('L1 ways', 4, '', 'exact', 'MEI Table 4 (Fermi L1 ways)') }, check: { name: 'L1 ways', target: '4', rule: 'exactly the paper\'s value', simulated: '5', deviation: 0.25, pass: false, note: 'the probe counts one way too many', kind: 'predicted' as const, context: 'the real GPU: 4 ways' } },
      ],
      unmatched: [{ rowIds: ['MEI-T4'], reference: ref('L1 line', 128, 'B', 'exact', 'MEI Table 4 (Fermi L1 line)') }],
    });
    const fake = fakeLab(detail({ result: { ...detail().result!, findings: [...detail().result!.findings, { key: 'cache.hitLatency', label: 'Hit latency', value: 120, unit: 'cycles', evidence: 'e' }] } }), (id) =>
      id === ID ? { ...references(id), findings: [...references(id).findings, { key: 'cache.hitLatency', paper: { rowIds: ['MEI-T4'], reference: ref('L1 hit', 116, 'cycles', 'latency', 'MEI Table 3') }, check: { name: 'L1 hit', target: '116 cycles', rule: "within 5 % of the paper's value: 110.2..121.8 cycles", simulated: '120 cycles', deviation: 0.034, pass: true, kind: 'calibrated' as const, kindReason: 'the preset latency was set from Table 3' } }] } : new Error('wrong run'),
    );
    const { w } = await mountRun(fake);
    const size = w.find('[data-testid="finding-cache.sizeBytes"]');
    const paper = size.find('[data-testid="finding-paper"]');
    expect(paper.text()).toContain('16 KB');
    expect(paper.text()).toContain('MEI Table 4 (Fermi L1)');
    expect(paper.attributes('title')).toContain('MEI Table 4 (Fermi L1)');
    expect(paper.attributes('title')).toContain('MEI-T4');
    expect(size.find('[data-testid="finding-dev-paper"]').text()).toBe('0 %');
    expect(size.find('[data-testid="finding-verdict"]').text()).toContain('pass');
    expect(size.find('[data-testid="finding-verdict"]').text()).toContain('vs paper');
    const ways = w.find('[data-testid="finding-cache.ways"]');
    expect(ways.find('[data-testid="finding-paper"]').text()).toContain('4');
    expect(ways.find('[data-testid="finding-dev-paper"]').text()).toBe('+25 %');
    expect(ways.find('[data-testid="finding-verdict"]').text()).toContain('fail');
    // A failing check's known deviation sits under its verdict; a passing one has none.
    expect(ways.find('[data-testid="finding-known"]').text()).toContain('the probe counts one way too many');
    expect(size.find('[data-testid="finding-known"]').exists()).toBe(false);
    const hit = w.find('[data-testid="finding-cache.hitLatency"]');
    expect(hit.find('[data-testid="finding-paper"]').text()).toContain('116 cycles');
    // Each paper value shows the rule its check applies, with its band.
    expect(hit.find('[data-testid="finding-rule"]').text()).toBe("within 5 % of the paper's value: 110.2..121.8 cycles");
    expect(hit.find('[data-testid="finding-dev-paper"]').text()).toBe('+3.4 %');
    expect(hit.find('[data-testid="finding-verdict"] .pass').exists()).toBe(true);
    // Each paper verdict says what it can prove: a reproduction, a method check or consistency, with the reason.
    expect(ways.find('[data-testid="finding-kind"]').text()).toBe('predicted');
    expect(ways.find('[data-testid="finding-kind"]').classes()).toContain('kind-predicted');
    expect(size.find('[data-testid="finding-kind"]').text()).toBe('recovered');
    expect(size.find('[data-testid="finding-kind"]').classes()).toContain('kind-recovered');
    expect(size.find('[data-testid="finding-kind"]').attributes('title')).toBe('the analyser infers the size the preset was set to');
    expect(hit.find('[data-testid="finding-kind"]').text()).toBe('calibrated');
    expect(hit.find('[data-testid="finding-kind"]').attributes('title')).toBe('the preset latency was set from Table 3');
    expect(ways.find('[data-testid="finding-context"]').text()).toBe('context: the real GPU: 4 ways');
    expect(size.find('[data-testid="finding-context"]').exists()).toBe(false);
    // A finding without a paper value keeps its preset verdict (none here) and a dash.
    expect(w.find('[data-testid="finding-cache.maxMissRate"] [data-testid="finding-paper"]').text()).toBe('—');
    expect(w.find('[data-testid="findings-summary"]').text()).toBe('2 of 3 checked values pass');
    expect(w.find('[data-testid="findings-paper-rows"]').text()).toContain('MEI-T4');
    expect(w.find('[data-testid="findings-paper-note"]').exists()).toBe(false);
    expect(w.find('[data-testid="findings-unmatched"]').text()).toContain('L1 line');
    expect(w.find('[data-testid="findings-unmatched"]').text()).toContain('128 B');
  });

  it('a failed reproduce.references leaves the paper column empty and says why', async () => {
    const { w } = await mountRun(fakeLab(detail(), () => Object.assign(new Error('the lab is shutting down'), { code: 'conflict' })));
    expect(w.find('[data-testid="finding-cache.sizeBytes"] [data-testid="finding-value"]').text()).toBe('16 KB');
    expect(w.find('[data-testid="findings-paper-error"]').text()).toContain('the lab is shutting down');
  });

  it('draws one chart per group of series sharing axes (ECharts, SVG without a canvas)', async () => {
    const { w } = await mountRun(fakeLab(detail()));
    const charts = w.findAll('[data-testid="lab-chart"]');
    expect(charts).toHaveLength(2); // Misses (two series) and Latency
    expect(charts[0].attributes('data-points')).toBe('6');
    expect(charts[0].find('svg').exists()).toBe(true);
    expect(w.find('[data-testid="open-cache"]').exists()).toBe(false); // no trace
  });

  it('a fine-grained run: the trace chart replaces its latency and index series; Cache view opens', async () => {
    const trace = fineTrace();
    const x = Float64Array.from({ length: trace.latency.length }, (_, i) => i);
    const run = detail({
      experiment: 'pchase-fine',
      result: {
        series: [
          { name: 'latency', x, y: trace.latency, xLabel: 'Access', xUnit: '', yLabel: 'Latency', yUnit: 'cycles', style: 'scatter' },
          { name: 'index', x, y: x, xLabel: 'Access', xUnit: '', yLabel: 'Array index', yUnit: 'elements', style: 'scatter' },
        ],
        tables: [],
        findings: [],
        notes: [],
        trace,
      },
    });
    const { w, router } = await mountRun(fakeLab(run));
    expect(w.find('[data-testid="trace-chart"]').exists()).toBe(true);
    expect(w.findAll('[data-testid="lab-chart"]')).toHaveLength(0);
    expect(w.text()).toContain('Series drawn here: latency, index');
    expect(w.find('[data-testid="findings-empty"]').exists()).toBe(true);
    await w.find('[data-testid="open-cache"]').trigger('click');
    await flushPromises();
    expect(router.currentRoute.value.path).toBe(`/runs/${ID}/cache`);
  });

  it('a fine-grained run as runs.get sends it (trace apart): the page shows at once, the trace chart when runs.trace answers', async () => {
    const trace = fineTrace();
    const run = detail({
      experiment: 'pchase-fine',
      result: {
        series: [],
        tables: [],
        findings: [{ key: 'trace.levels', label: 'Distinct latency levels', value: 2, unit: '', evidence: 'e' }],
        notes: [],
        traceInfo: { accesses: trace.latency.length, dropped: 0, levelNames: trace.levelNames, series: ['latency', 'index'] },
      },
    });
    let answer!: (t: Trace | null) => void;
    const fake = fakeLab(run);
    const traceCall = vi.fn(() => new Promise<Trace | null>((resolve) => (answer = resolve)));
    (fake.lab.runs as unknown as { trace: typeof traceCall }).trace = traceCall;
    const { w } = await mountRun(fake);
    expect(traceCall).toHaveBeenCalledWith({ id: ID });
    expect(w.find('[data-testid="findings-table"]').exists()).toBe(true);
    expect(w.find('[data-testid="trace-loading"]').exists()).toBe(true);
    expect(w.find('[data-testid="trace-chart"]').exists()).toBe(false);
    expect(w.text()).toContain(`${trace.latency.length} accesses`);
    expect(w.text()).toContain('Series drawn here: latency, index');
    expect(w.find('[data-testid="open-cache"]').exists()).toBe(true);
    expect(w.text()).not.toContain('no series to plot');
    answer(trace);
    await flushPromises();
    expect(w.find('[data-testid="trace-loading"]').exists()).toBe(false);
    expect(w.find('[data-testid="trace-chart"]').exists()).toBe(true);
  });

  it('a trace that fails to load says why and tries again', async () => {
    const trace = fineTrace();
    const fake = fakeLab(detail({ experiment: 'pchase-fine', result: { series: [], tables: [], findings: [], notes: [], traceInfo: { accesses: trace.latency.length, dropped: 0, levelNames: trace.levelNames, series: [] } } }));
    const traceCall = vi.fn().mockRejectedValueOnce(Object.assign(new Error('the lab server is not reachable'), { code: 'unreachable' })).mockResolvedValueOnce(trace);
    (fake.lab.runs as unknown as { trace: typeof traceCall }).trace = traceCall;
    const { w } = await mountRun(fake);
    expect(w.find('[data-testid="trace-error"]').text()).toContain('not reachable');
    await w.find('[data-testid="trace-error"] button').trigger('click');
    await flushPromises();
    expect(w.find('[data-testid="trace-chart"]').exists()).toBe(true);
  });

  it('Rerun starts the same experiment, preset, parameters and seed and opens the new run', async () => {
    const fake = fakeLab(detail());
    const { w, router } = await mountRun(fake);
    await w.find('[data-testid="rerun"]').trigger('click');
    await flushPromises();
    expect(fake.start).toHaveBeenCalledTimes(1);
    expect(fake.start).toHaveBeenCalledWith({ experiment: 'cache-structure', preset: 'fermi', params: { space: 'global', maxSize: 131072 }, seed: 42 });
    expect(router.currentRoute.value.path).toBe(`/runs/${NEW_ID}`);
  });

  it('a failed rerun is reported in words', async () => {
    const fake = fakeLab(detail());
    fake.start.mockRejectedValueOnce(Object.assign(new Error('no preset "fermi"'), { code: 'not-found' }));
    const { w, router } = await mountRun(fake);
    await w.find('[data-testid="rerun"]').trigger('click');
    await flushPromises();
    expect(useNotify().notices.map((n) => n.text)).toContain('Could not start the rerun: no preset "fermi"');
    expect(router.currentRoute.value.path).toBe(`/runs/${ID}`);
  });

  it('Duplicate into builder opens the builder with the experiment, preset and parameters', async () => {
    const { w, router } = await mountRun(fakeLab(detail()));
    await w.find('[data-testid="duplicate"]').trigger('click');
    await flushPromises();
    const r = router.currentRoute.value;
    expect(r.path).toBe('/experiments');
    expect(r.query).toMatchObject({ experiment: 'cache-structure', preset: 'fermi' });
    expect(JSON.parse(String(r.query.params))).toEqual({ space: 'global', maxSize: 131072 });
  });

  it('a queued run shows live progress and reloads with its results when it finishes', async () => {
    const queued = detail({ status: 'queued', result: null, startedAt: null, finishedAt: null, durationMs: null });
    const fake = fakeLab(queued);
    const { w } = await mountRun(fake);
    expect(w.find('[data-testid="run-progress"]').text()).toContain('Waiting in the queue');
    fake.emit('queue.changed', { queued: [], running: [ID] });
    fake.emit('run.progress', { runId: ID, done: 50, total: 200, phase: 'step 1' });
    await flushPromises();
    expect(w.find('[data-testid="run-status"]').text()).toBe('running');
    expect(w.find('[data-testid="run-progress"]').text()).toContain('step 1 · 50 / 200 (25 %)');
    expect(w.find('[data-testid="findings-table"]').exists()).toBe(false);
    fake.runs.set(ID, detail());
    fake.emit('run.finished', { runId: ID, status: 'done', error: null });
    await flushPromises();
    expect(w.find('[data-testid="run-progress"]').exists()).toBe(false);
    expect(w.find('[data-testid="run-status"]').text()).toBe('done');
    expect(w.find('[data-testid="findings-table"]').exists()).toBe(true);
  });

  it('while unfinished it also looks again every few seconds (a finish the events did not bring)', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const fake = fakeLab(detail({ status: 'running', result: null, finishedAt: null, durationMs: null }));
      const { w } = await mountRun(fake);
      expect(w.find('[data-testid="run-progress"]').exists()).toBe(true);
      const calls = fake.get.mock.calls.length;
      fake.runs.set(ID, detail());
      vi.advanceTimersByTime(4000);
      await flushPromises();
      expect(fake.get.mock.calls.length).toBe(calls + 1);
      expect(w.find('[data-testid="run-status"]').text()).toBe('done');
      vi.advanceTimersByTime(20_000);
      await flushPromises();
      expect(fake.get.mock.calls.length).toBe(calls + 1); // finished: no more polling
    } finally {
      vi.useRealTimers();
    }
  });

  it('a failed run shows its error; a missing run and an unreachable workbench have their own states', async () => {
    const { w } = await mountRun(fakeLab(detail({ status: 'failed', error: 'parameter "stride" is too large', result: null })));
    expect(w.find('[data-testid="run-failure"]').text()).toContain('parameter "stride" is too large');
    expect(w.find('[data-testid="rerun"]').exists()).toBe(true);
    w.unmount();
    wrapper = null;

    const { w: w2 } = await mountRun(fakeLab(detail()), '00000000-0000-4000-8000-000000000099');
    expect(w2.find('[data-testid="run-missing"]').exists()).toBe(true);
    w2.unmount();
    wrapper = null;

    const { w: w3 } = await mountRun(fakeLab(Object.assign(new Error('the workbench cannot be reached'), { code: 'unreachable' })));
    expect(w3.find('[data-testid="run-error"]').text()).toContain('the workbench cannot be reached');
    expect(useNotify().notices.some((n) => n.text.includes('the workbench cannot be reached'))).toBe(true);
  });
});

describe('LabChart', () => {
  it('mounts an ECharts chart, redraws on new series and disposes of it on unmount', async () => {
    const w = mount(LabChart, { props: { series: [s('a')], title: 'T' }, attachTo: document.body });
    await flushPromises();
    const vm = w.vm as unknown as { chart: { getOption(): Loose; isDisposed(): boolean } };
    const chart = vm.chart;
    expect(chart.getOption().series).toHaveLength(1);
    expect(w.attributes('data-log-x')).toBe('false');
    await w.setProps({ series: [s('a'), s('b', { logX: true })] });
    expect(chart.getOption().series).toHaveLength(2);
    expect(w.attributes('data-log-x')).toBe('true');
    expect(chart.getOption().xAxis[0].type).toBe('log');
    w.unmount();
    expect(chart.isDisposed()).toBe(true);
  });

  it("follows the sidebar's theme: its title and legend take the dark theme's text colour, and back", async () => {
    const w = mount(LabChart, { props: { series: [s('a')], title: 'T' }, attachTo: document.body });
    await flushPromises();
    const vm = w.vm as unknown as { chart: { getOption(): Loose } };
    const colour = (): unknown => vm.chart.getOption().title[0].textStyle.color;
    const light = colour();
    setTheme('dark');
    await flushPromises();
    expect(colour()).not.toBe(light);
    expect(vm.chart.getOption().legend[0].textStyle.color).toBe(colour());
    setTheme('light');
    await flushPromises();
    expect(colour()).toBe(light);
    setTheme('system');
    w.unmount();
  });
});

describe('trace windows from blocks', () => {
  it('a zoomed-out window assembled from precomputed blocks keeps every level extreme and index extreme', () => {
    const n = 200_000;
    const level = new Uint8Array(n);
    const latency = new Float64Array(n).fill(116);
    const address = Float64Array.from({ length: n }, (_, i) => (i * 128) % 16512);
    for (const i of [77, 123_456, 199_999]) {
      level[i] = 2;
      latency[i] = 1259 + (i % 7);
    }
    for (let i = 1000; i < n; i += 997) {
      level[i] = 1;
      latency[i] = 404;
    }
    const trace = { address, latency, level, levelNames: ['L1', 'L2', 'memory'] };
    const w = traceWindow(trace, 0, n - 1); // 3000 buckets: about 67 accesses each -> blocks of 16 (buckets of 64)
    expect(w.bucket).toBe(64);
    const xs = (d: Float64Array) => Array.from(d.filter((_, k) => k % 2 === 0));
    expect(xs(w.levels[2])).toEqual([77, 123_456, 199_999]);
    expect(w.levels[0].length / 2).toBeLessThanOrEqual(2 * Math.ceil(n / 64));
    // Every L2 access lies in its own bucket: all of them survive.
    expect(xs(w.levels[1])).toHaveLength(Math.floor((n - 1 - 1000) / 997) + 1);
    // The same window computed access by access (no blocks) agrees on the extremes per bucket.
    const wide = traceWindow(trace, 0, n - 1, 4, 100); // 2000-access buckets -> blocks of 256 (buckets of 1792)
    expect(wide.bucket).toBe(1792);
    expect(xs(wide.levels[2])).toEqual([77, 123_456, 199_999]);
    const ys = (d: Float64Array) => Array.from(d.filter((_, k) => k % 2 === 1));
    expect(Math.max(...ys(wide.index))).toBe(Math.floor((16512 - 128) / 4));
    expect(Math.min(...ys(wide.index))).toBe(0);
  });
});
