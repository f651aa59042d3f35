/**
 * The PDF report of a sweep (src-main/services/export/sweep-pdf.ts): a small sweep run in this
 * process (its points run as the pool would run them, one failed and one never run), its report read
 * back with pdftotext: the plan with its axes, the counts, the chart's title and a row per point;
 * the heatmap; the chart's quantity and axes checked against the sweep; a page rendered to PNG.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src-main/cli/main';
import { parseArgs } from '../../src-main/contract';
import type { SweepDetail } from '../../src-main/sweep-contract';
import { parsePlan } from '../../src-main/sweep-plan';
import { chooseChart, exportSweepPdf, renderSweepReport } from '../../src-main/services/export';
import type { RunJob } from '../../src-main/services/pool';
import type { RunStore } from '../../src-main/services/store';
import { SweepService } from '../../src-main/services/sweep';
import { EXPERIMENTS, findExperiment } from '../../src-sim/experiments';
import type { ParamValues } from '../../src-sim/experiments/types';
import { hasTool } from './export-fixtures';
import { TempDb } from './store-fixtures';

const HAS_POPPLER = hasTool('pdftotext') && hasTool('pdftoppm');
if (!HAS_POPPLER) console.warn('sweep-pdf tests: pdftotext/pdftoppm not found (Debian: apt-get install -y poppler-utils); text and page checks are skipped');
const NOW = Date.UTC(2026, 10, 2, 9, 30, 0);
const work = mkdtempSync(join(tmpdir(), 'gpulab-sweep-pdf-'));
afterAll(() => (process.env.KEEP_PDF ? undefined : rmSync(work, { recursive: true, force: true })));

let files = 0;
function save(bytes: Uint8Array): string {
  const file = join(work, `sweep-${++files}.pdf`);
  writeFileSync(file, bytes);
  return file;
}

/** The PDF's text (pdftotext -layout keeps a table's row on one line), and whitespace-collapsed. */
function textOf(file: string): { layout: string; flat: string } {
  const r = spawnSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return { layout: r.stdout, flat: r.stdout.replace(/\s+/g, ' ') };
}

const PLAN = {
  name: 'fine chase: stride x iterations',
  experiment: 'pchase-fine',
  presets: ['fermi'],
  params: { size: '4KB' },
  axes: [
    { param: 'stride', values: [32, 64, 128] },
    { param: 'iterations', values: [16, 32] },
  ],
  seed: { rule: 'per-point' as const, base: 3 },
};

/**
 * A sweep of PLAN on a store, its points run here as the pool runs them: point 4 fails (its run
 * ends failed with a reason), point 5 is never queued (pending); the others are done.
 */
function runSweep(store: RunStore): { sweeps: SweepService; id: string } {
  const jobs: RunJob[] = [];
  const sweeps = new SweepService({ store, experiments: EXPERIMENTS, enqueue: (j) => jobs.push(j) });
  const plan = parsePlan(PLAN);
  const id = sweeps.createSweep(plan);
  sweeps.queuePoints(id, sweeps.resolve(plan, new Set([0, 1, 2, 3, 4])));
  const e = findExperiment(plan.experiment)!;
  jobs.forEach((j, i) => {
    store.startRun(j.runId);
    if (i === 4) store.endRun(j.runId, 'failed', 'the simulation process exited (test)');
    else store.finishRun(j.runId, e.run(j.preset, j.params as ParamValues, j.seed, () => {}), { durationMs: 120 });
  });
  return { sweeps, id };
}

describe('the PDF report of a sweep', () => {
  let tmp: TempDb;
  let store: RunStore;
  beforeEach(() => {
    tmp = new TempDb();
    store = tmp.open();
  });
  afterEach(() => tmp.cleanup());

  it('holds the plan, the counts, the chart and a row per point', async () => {
    const { sweeps, id } = runSweep(store);
    const d = sweeps.get(id);
    expect(d.counts).toMatchObject({ points: 6, done: 4, failed: 1, pending: 1 });
    const quantity = d.metrics.find((m) => d.points.some((p) => typeof p.metrics[m.key] === 'number'))!;
    const file = await exportSweepPdf(d, { now: NOW, appVersion: '9.9.9' });
    expect(file.mimeType).toBe('application/pdf');
    expect(file.fileName).toBe('gpulab-sweep-fine-chase-stride-x-iterations-2026-11-02-09-30-00.pdf');
    expect(Buffer.from(file.bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    if (!HAS_POPPLER) return;
    const path = save(file.bytes);
    const { layout, flat } = textOf(path);
    // The plan: experiment, presets, base parameters, the axes with their values, the seed rule.
    expect(flat).toContain('fine chase: stride x iterations');
    expect(flat).toContain('2026-11-02 09:30:00 UTC (app 9.9.9');
    expect(flat).toMatch(/Experiment .*\(pchase-fine\)/);
    expect(flat).toContain('size = 4KB');
    expect(flat).toContain('Axes (2)');
    expect(flat).toMatch(/stride the parameter stride 32, 64, 128/);
    expect(flat).toMatch(/iterations the parameter iterations 16, 32/);
    expect(flat).toContain('6: the cross product of the axes');
    expect(flat).toContain('mixed from the base 3');
    // The counts: 6 points, 4 done, 1 failed, 1 missing.
    expect(layout).toMatch(/Points\s+Done\s+Failed\s+Missing\n\s*6\s+4\s+1\s+1\n/);
    expect(flat).toContain('4 of 6 points done; failed: 1 failed; missing: 1 never run.');
    // The chart (the view's default: the first quantity over the first axis, a line per the second).
    expect(flat).toContain(`Figure 1. ${quantity.label}`);
    expect(flat).toContain('over stride, a line per iterations');
    expect(flat).toContain('iterations=16');
    expect(flat).toContain('4 of 6 points have a value');
    // A row per point: index, stride, iterations, status, the quantity.
    expect(flat).toContain('Points (6)');
    const rows = layout.split('\n').filter((l) => /^\s*\d\s+\d+\s+\d+\s+(done|failed|pending)\b/.test(l)).map((l) => l.trim().split(/\s+/).slice(0, 4));
    expect(rows).toEqual([
      ['0', '32', '16', 'done'],
      ['1', '32', '32', 'done'],
      ['2', '64', '16', 'done'],
      ['3', '64', '32', 'done'],
      ['4', '128', '16', 'failed'],
      ['5', '128', '32', 'pending'],
    ]);
    const value = d.points[0]!.metrics[quantity.key] as number;
    expect(layout.split('\n').find((l) => /^\s*0\s+32\s+16\s+done/.test(l))).toContain(String(Number(value.toPrecision(4))));
    // The failed point with its reason.
    expect(flat).toContain('Failed points (1)');
    expect(flat).toContain('the simulation process exited (test)');
    // The chart is vectors and text: its axis names are in the text, no image in the file.
    expect(Buffer.from(file.bytes).toString('latin1')).not.toMatch(/\/Subtype\s*\/Image/);

    // The first page as an image (pdftoppm), for a look: it renders, and is not blank.
    const dir = mkdtempSync(join(work, 'png-'));
    const r = spawnSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '2', path, join(dir, 'page')], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const pngs = readdirSync(dir).filter((f) => f.endsWith('.png'));
    expect(pngs.length).toBeGreaterThan(0);
    for (const p of pngs) expect(statSync(join(dir, p)).size).toBeGreaterThan(10_000);
  }, 60_000);

  it('draws a heatmap over two axes, or the quantity and axes asked for', async () => {
    const { sweeps, id } = runSweep(store);
    const d = sweeps.get(id);
    const key = d.metrics.find((m) => m.key === 'trace.level2.latency')!;
    const bytes = await renderSweepReport(d, { now: NOW, quantity: key.key, x: 'iterations', by: 'stride', chart: 'heatmap', title: 'Heat' });
    if (!HAS_POPPLER) return;
    const { flat } = textOf(save(bytes));
    expect(flat).toContain('Heat');
    expect(flat).toContain(`Figure 1. ${key.label}${key.unit ? ` (${key.unit})` : ''} over iterations and stride`);
    expect(flat).toContain('Empty cells: no done point there.');
    const one = await renderSweepReport(d, { now: NOW, by: null });
    const lines = textOf(save(one)).flat;
    expect(lines).toMatch(/Figure 1\. [^.]* over stride /);
    expect(lines).not.toContain('a line per');
  }, 60_000);

  it('refuses a quantity or an axis the sweep does not have, naming those it has', () => {
    const d: SweepDetail = {
      id: '3b241101-e2bb-4255-8caf-4136c566a962',
      name: 'x',
      experiment: 'pchase-fine',
      presets: ['fermi'],
      axes: ['stride'],
      counts: { points: 1, pending: 1, queued: 0, running: 0, done: 0, failed: 0, cancelled: 0, interrupted: 0 },
      createdAt: 0,
      plan: { experiment: 'pchase-fine', presets: ['fermi'], params: {}, axes: [{ param: 'stride', values: [32] }], seed: 1 },
      metrics: [],
      points: [{ index: 0, preset: 'fermi', values: { stride: 32 }, seed: 1, status: 'pending', runId: null, runs: 0, durationMs: null, error: null, metrics: {} }],
    };
    expect(chooseChart(d)).toEqual({ quantity: null, x: 'stride', by: null, chart: 'lines' });
    expect(() => chooseChart(d, { quantity: 'lat' })).toThrow(/quantity: the sweep has no quantity "lat"; it has none yet/);
    expect(() => chooseChart(d, { x: 'size' })).toThrow(/x: the sweep has no axis "size"; it has: stride/);
    expect(() => chooseChart(d, { chart: 'heatmap' })).toThrow(/a heatmap needs two axes; the sweep has only stride/);
    // The contract refuses what no sweep could take before the service looks.
    const id = d.id;
    expect(() => parseArgs('sweeps.pdf', { id, x: 'stride', by: 'stride' })).toThrow(/by: by must be another axis than x/);
    expect(() => parseArgs('sweeps.pdf', { id, by: null, chart: 'heatmap' })).toThrow(/a heatmap needs a second axis/);
    expect(() => parseArgs('sweeps.pdf', { id, quantity: 'a\u0007' })).toThrow(/control characters/);
    expect(() => parseArgs('sweeps.pdf', { id, chart: 'pie' })).toThrow(/chart/);
    expect(parseArgs('sweeps.pdf', { id })).toEqual({ id, chart: 'lines' });
  });

  it('says so when no point is done yet', async () => {
    const jobs: RunJob[] = [];
    const sweeps = new SweepService({ store, experiments: EXPERIMENTS, enqueue: (j) => jobs.push(j) });
    const id = sweeps.createSweep(parsePlan(PLAN));
    const bytes = await renderSweepReport(sweeps.get(id), { now: NOW });
    if (!HAS_POPPLER) return;
    const { layout, flat } = textOf(save(bytes));
    expect(flat).toContain('No chart yet: no done point has a number for any quantity.');
    expect(layout).toMatch(/\n\s*6\s+0\s+0\s+6\n/);
    expect(flat).toContain('missing: 6 never run');
  });

  it('is written by gpulab sweep export --pdf (and --csv), with the chart asked for', async () => {
    const { id } = runSweep(store);
    const cli = (...args: string[]) => runCli(args, { version: '0.0.0', readFile: (path) => readFileSync(path, 'utf8'), status: null });
    const out = join(tmp.dir, 'sweep.pdf');
    const made = await cli('sweep', 'export', id, '--pdf', out, '--over', 'iterations', '--by', 'stride', '--chart', 'heatmap', '--quantity', 'trace.level2.latency', '--db', tmp.file(), '--format', 'json');
    expect(made.stderr).toBe('');
    expect(JSON.parse(made.stdout)).toMatchObject({ file: out, format: 'pdf', sweepId: id });
    expect(readFileSync(out).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    if (HAS_POPPLER) expect(textOf(out).flat).toContain('over iterations and stride');
    const csv = join(tmp.dir, 'sweep.csv');
    expect((await cli('sweep', 'export', id, '--csv', csv, '--db', tmp.file())).stdout).toMatch(/^Wrote the CSV of sweep .* \(\d+ bytes\)\.\n$/);
    expect(readFileSync(csv, 'utf8')).toMatch(/^# gpulab sweep csv,1\n/);
    // Refusals name what is wrong.
    expect((await cli('sweep', 'export', id, '--csv', csv, '--chart', 'heatmap', '--db', tmp.file())).stderr).toMatch(/--chart applies to --pdf only/);
    expect((await cli('sweep', 'export', id, '--pdf', out, '--over', 'size', '--db', tmp.file())).stderr).toMatch(/x: the sweep has no axis "size"; it has: stride, iterations/);
    expect((await cli('sweep', 'export', id, '--db', tmp.file())).stderr).toMatch(/give --csv <file> or --pdf <file>/);
    expect((await cli('sweep', 'plan.json', '--pdf', out)).stderr).toMatch(/--pdf belongs to sweep export/);
  }, 60_000);
});
