/** Shared fixtures of the export tests: a store with real runs, and a reader of the CSV format (csv.ts). */
import { spawnSync } from 'node:child_process';
import { parse } from 'csv-parse/sync';
import { expect } from 'vitest';
import type { NewRun, RunStore } from '../../src-main/services/store';
import { findExperiment, resolveParams } from '../../src-sim/experiments';
import type { ExperimentResult, RawParams } from '../../src-sim/experiments/types';
import { Clock, preset, TempDb } from './store-fixtures';

/** A temporary store whose runs are real experiment runs (or given results). */
export class ExportLab {
  readonly tmp = new TempDb();
  readonly clock = new Clock();
  readonly store: RunStore = this.tmp.open({ now: this.clock.now });

  /** Runs an experiment of src-sim on a built-in preset and stores it as a finished run. */
  run(experiment: string, presetId: string, raw: RawParams, seed: number, extra: Partial<NewRun> = {}): string {
    const e = findExperiment(experiment);
    if (!e) throw new Error(`no experiment ${experiment}`);
    const p = preset(presetId);
    const params = resolveParams(e.params, raw);
    return this.finish({ experiment, preset: p, params, seed, ...extra }, e.run(p, params, seed, () => {}));
  }

  /** Stores a given result as a finished run. */
  finish(input: NewRun, result: ExperimentResult, durationMs = 1234.5): string {
    const r = this.store.createRun(input);
    this.clock.advance(1500);
    this.store.startRun(r.id);
    this.clock.advance(2000);
    this.store.finishRun(r.id, result, { durationMs });
    return r.id;
  }

  cleanup(): void {
    this.tmp.cleanup();
  }
}

export function parseCsv(bytes: Uint8Array): string[][] {
  return parse(Buffer.from(bytes).toString('utf8'), { relax_column_count: true }) as string[][];
}

/** Removes the apostrophe the exporter puts before text a spreadsheet would take for a formula. */
export const unguard = (s: string): string => (s.startsWith("'") ? s.slice(1) : s);

/** The numbers of a column: Number(text), blank cells as undefined. */
export const num = (s: string): number | undefined => (s === '' ? undefined : Number(s));

const SECTIONS = new Set(['# series info', '# series', '# table', '# findings', '# result notes', '# run']);

export interface ReadSeries {
  name: string;
  info: string[];
  x: number[];
  y: number[];
}

export interface ReadRunCsv {
  meta: Record<string, string>;
  series: ReadSeries[];
  layout: string;
  tables: { name: string; header: string[]; rows: string[][] }[];
  findings: string[][];
  notes: string[];
}

/** A cursor over parsed records that knows the section rules of the format. */
class Cursor {
  i = 0;
  constructor(readonly recs: string[][]) {}
  peek(): string[] | undefined {
    return this.recs[this.i];
  }
  next(): string[] {
    const r = this.recs[this.i++];
    if (!r) throw new Error('unexpected end of the CSV');
    return r;
  }
  take(n: number): string[][] {
    const out = this.recs.slice(this.i, this.i + n);
    expect(out.length).toBe(n);
    this.i += n;
    return out;
  }
  /** Metadata records up to the next section marker. */
  meta(): Record<string, string> {
    const meta: Record<string, string> = {};
    while (this.peek() && !SECTIONS.has(this.peek()?.[0] as string)) {
      const [k, v] = this.next();
      expect(k.startsWith('# ')).toBe(true);
      meta[k.slice(2)] = v;
    }
    return meta;
  }
  seriesInfo(): ReadSeries[] {
    const [mark, n] = this.next();
    expect(mark).toBe('# series info');
    expect(this.next()).toEqual(['name', 'x label', 'x unit', 'y label', 'y unit', 'style', 'log x', 'points', 'stack', 'group', 'x categories']);
    return this.take(Number(n)).map((info) => ({ name: unguard(info[0]), info, x: [], y: [] }));
  }
}

/** Reads a one-run CSV by its section counts (the format in src-main/services/export/csv.ts). */
export function readRunCsv(bytes: Uint8Array): ReadRunCsv {
  const c = new Cursor(parseCsv(bytes));
  expect(c.next()).toEqual(['# gpulab run csv', '1']);
  const meta = c.meta();
  const series = c.seriesInfo();
  const [mark, layout, count] = c.next();
  expect(mark).toBe('# series');
  c.next(); // header
  const rows = c.take(Number(count));
  if (layout === 'wide') {
    series.forEach((s, j) => {
      s.x = rows.map((r) => Number(r[0]));
      s.y = rows.map((r) => Number(r[j + 1]));
    });
  } else {
    expect(layout).toBe('long');
    let at = 0;
    for (const s of series) {
      const mine = rows.slice(at, at + Number(s.info[7]));
      at += mine.length;
      for (const r of mine) expect(unguard(r[0])).toBe(s.name);
      s.x = mine.map((r) => Number(r[1]));
      s.y = mine.map((r) => Number(r[2]));
    }
    expect(at).toBe(rows.length);
  }
  const tables: ReadRunCsv['tables'] = [];
  while (c.peek()?.[0] === '# table') {
    const [, name, n] = c.next();
    tables.push({ name: unguard(name), header: c.next(), rows: c.take(Number(n)) });
  }
  const [fmark, fn] = c.next();
  expect(fmark).toBe('# findings');
  expect(c.next()).toEqual(['key', 'label', 'value', 'kind', 'unit', 'evidence']);
  const findings = c.take(Number(fn));
  const [nmark, nn] = c.next();
  expect(nmark).toBe('# result notes');
  const notes = c.take(Number(nn)).map((r) => unguard(r[0]));
  expect(c.peek()).toBeUndefined();
  return { meta, series, layout, tables, findings, notes };
}

export interface ReadComparisonCsv {
  runs: { meta: Record<string, string>; series: ReadSeries[] }[];
  /** One wide section per quantity on x: its header (x with its unit, then the series) and rows. */
  groups: { header: string[]; rows: string[][] }[];
  /** The first section's (the only one where every series shares its x quantity). */
  header: string[];
  rows: string[][];
  findings: string[][];
}

export function readComparisonCsv(bytes: Uint8Array): ReadComparisonCsv {
  const c = new Cursor(parseCsv(bytes));
  expect(c.next()).toEqual(['# gpulab comparison csv', '2']);
  const [rmark, n] = c.next();
  expect(rmark).toBe('# runs');
  const runs: ReadComparisonCsv['runs'] = [];
  for (let k = 1; k <= Number(n); k++) {
    expect(c.next()).toEqual(['# run', String(k)]);
    const meta = c.meta();
    runs.push({ meta, series: c.seriesInfo() });
  }
  const [gmark, g] = c.next();
  expect(gmark).toBe('# series groups');
  const groups: ReadComparisonCsv['groups'] = [];
  for (let k = 0; k < Number(g); k++) {
    const [mark, layout, count] = c.next();
    expect([mark, layout]).toEqual(['# series', 'wide']);
    const header = c.next();
    groups.push({ header, rows: c.take(Number(count)) });
  }
  const [fmark, fn] = c.next();
  expect(fmark).toBe('# findings');
  expect(c.next()).toEqual(['run', 'key', 'label', 'value', 'kind', 'unit', 'evidence']);
  const findings = c.take(Number(fn));
  expect(c.peek()).toBeUndefined();
  return { runs, groups, header: groups[0]?.header ?? [], rows: groups[0]?.rows ?? [], findings };
}

/** Whether a command-line tool is installed. */
export function hasTool(name: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).status === 0;
}
