import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportPdf, paperComparison } from '../../src-main/services/export';
import { reportFindings, verdictCounts } from '../../src-main/services/export/pdf';
import { displayValue } from '../../src-main/services/export/format';
import { pdfText } from '../../src-main/services/export/pdf-writer';
import { SIM_VERSION } from '../../src-sim/version';
import { ExportLab, hasTool } from './export-fixtures';
import { preset } from './store-fixtures';

const HAS_POPPLER = hasTool('pdftotext') && hasTool('pdftoppm');
if (!HAS_POPPLER) console.warn('export-pdf tests: pdftotext/pdftoppm not found (Debian: apt-get install -y poppler-utils); text and page checks are skipped');
const NOW = Date.UTC(2026, 10, 2, 9, 30, 0);
const work = mkdtempSync(join(tmpdir(), 'gpulab-pdf-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let lab: ExportLab;
beforeEach(() => {
  lab = new ExportLab();
});
afterEach(() => lab.cleanup());

let files = 0;
function save(bytes: Uint8Array): string {
  const file = join(work, `report-${++files}.pdf`);
  writeFileSync(file, bytes);
  return file;
}

/** The PDF's text (pdftotext), whitespace collapsed so that wrapped lines still match. */
function textOf(file: string): string {
  const r = spawnSync('pdftotext', [file, '-'], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.replace(/\s+/g, ' ');
}

/** The text of one page (1-based), whitespace collapsed. */
function pageText(file: string, page: number): string {
  const r = spawnSync('pdftotext', ['-f', String(page), '-l', String(page), file, '-'], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.replace(/\s+/g, ' ');
}

/** Positions of `parts` in `text`, each searched after the previous one: -1 where one is missing or out of order. */
function inOrder(text: string, parts: readonly string[]): number[] {
  let from = 0;
  return parts.map((p) => {
    const at = text.indexOf(p, from);
    if (at >= 0) from = at + p.length;
    return at;
  });
}

function pageCount(file: string): number {
  const r = spawnSync('pdfinfo', [file], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return Number(/Pages:\s+(\d+)/.exec(r.stdout)?.[1]);
}

/** Renders every page with pdftoppm and returns the PNG files. */
function renderPages(file: string): string[] {
  const dir = mkdtempSync(join(work, 'png-'));
  const r = spawnSync('pdftoppm', ['-png', '-r', '30', file, join(dir, 'p')], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return readdirSync(dir).filter((f) => f.endsWith('.png'));
}

/** The decompressed content of every stream, and the PDF's object dictionaries (uncompressed in PDFKit's output). */
function streams(bytes: Uint8Array): { contents: string[]; raw: string } {
  const raw = Buffer.from(bytes).toString('latin1');
  const contents: string[] = [];
  const re = /(?<!end)stream\r?\n/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(raw))) {
    const start = m.index + m[0].length;
    const dict = raw.slice(raw.lastIndexOf(' obj', m.index), m.index);
    const length = Number(/\/Length (\d+)/.exec(dict)?.[1]);
    expect(Number.isInteger(length)).toBe(true);
    const body = Buffer.from(bytes).subarray(start, start + length);
    contents.push(dict.includes('/FlateDecode') ? inflateSync(body).toString('latin1') : body.toString('latin1'));
    re.lastIndex = start + length;
  }
  return { contents, raw };
}

/** Vector drawing: many path operators (moveto/lineto/curveto), no raster image anywhere. */
function expectVectorCharts(bytes: Uint8Array): void {
  const { contents, raw } = streams(bytes);
  expect(raw).not.toMatch(/\/Subtype\s*\/Image/);
  const all = contents.join('\n');
  const n = '-?[\\d.]+';
  const count = (op: string, args: number): number => all.match(new RegExp(`${Array(args).fill(n).join(' ')} ${op}\\b`, 'g'))?.length ?? 0;
  // moveto, lineto and curveto (scatter symbols are circles): a drawn chart has hundreds of them.
  expect(count('m', 2)).toBeGreaterThan(20);
  expect(count('l', 2) + count('c', 6)).toBeGreaterThan(100);
  expect(all).toMatch(/\bS\b/); // strokes
}

describe('PDF report', () => {
  it('reports one run: summary, metadata, a vector chart, findings beside the true and paper values, raw data on request', async () => {
    const id = lab.run('shared-bank-stride', 'fermi', {}, 4242, { title: 'Bank conflicts, "Fermi"', notes: 'first look', tags: ['shared'] });
    const file = await exportPdf(lab.store, [id], { now: NOW, appVersion: '9.8.7', raw: true, evidence: true });
    expect(file.mimeType).toBe('application/pdf');
    expect(file.fileName).toBe('gpulab-report-shared-bank-stride-fermi-2026-11-02-09-30-00.pdf');
    expect(Buffer.from(file.bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    expect(file.bytes.byteLength).toBeLessThan(150_000);
    expectVectorCharts(file.bytes);
    if (!HAS_POPPLER) return;
    const path = save(file.bytes);
    const text = textOf(path);
    for (const s of [
      'GPU Memory Lab',
      'Bank conflicts, "Fermi"',
      'Generated 2026-11-02 09:30:00 UTC (app 9.8.7, simulator',
      'Runs in this report (1)',
      'Run 1: Bank conflicts, "Fermi"',
      'Fermi - GeForce GTX 560 Ti (preset "fermi"; Fermi)',
      'Seed 4242',
      `Simulator ${SIM_VERSION}`,
      'Parameters',
      'First stride (strideFrom)',
      'Figure 1. Average latency vs Stride',
      'Stride (words)',
      'Average latency (cycles)',
      'Findings',
      'Paper values of MEI-T1, MEI-F5 where a finding names the same quantity',
      'Finding Inferred Preset (true) Paper Verdict',
      'shared: conflict-free latency 50 cycles 50 cycles 50 cycles',
      'Raw data',
      'Paper values',
      'MEI 4.1, Fig 5 (1210 cycles)',
      'Conflict degree per stride',
    ])
      expect(text).toContain(s);
    const run = lab.store.getRun(id);
    const findings = run.result?.findings ?? [];
    expect(findings.length).toBeGreaterThan(3);
    for (const f of findings) {
      expect(text).toContain(f.label);
      expect(text).toContain(displayValue(f.value, f.unit).replace(/\s+/g, ' '));
    }
    // A finding that names a paper quantity sits beside the paper's value and its citation.
    const cmp = paperComparison(run, findings);
    const matched = cmp.findings.filter((b) => b.paper);
    expect(matched.length).toBeGreaterThan(0);
    for (const b of matched) expect(text).toContain(b.paper?.reference.citation);
    // Each check says what it can prove: the stride sweep's conflict rule is recovered (it names the
    // preset's bank count), the odd strides' freedom from conflicts predicted, its base latency calibrated.
    expect(text).toContain('kind: predicted (the model produced the value');
    expect(text).toContain('recovered (an analyser inferred from simulated timings alone what the preset was set to: a method check)');
    expect(new Set(matched.map((b) => b.check?.kind))).toEqual(new Set(['predicted', 'recovered', 'calibrated']));
    expect(text).toMatch(/gcd\(stride, 32\).*pass recovered/);
    // A reference no finding matched is listed with its value.
    expect(cmp.unmatched.some((v) => v.reference.name === '32-way conflict')).toBe(true);
    expect(text).toContain('32-way conflict 1210 cycles');
    expect(renderPages(path)).toHaveLength(pageCount(path));
    // Without raw data the tables and the unmatched paper values are named, not printed.
    const plain = textOf(save((await exportPdf(lab.store, [id], { now: NOW })).bytes));
    expect(plain).not.toContain('Conflict degree per stride (inferred from latency) Stride');
    expect(plain).not.toContain('32-way conflict 1210 cycles');
    expect(plain).toContain('Raw data: a table (Conflict degree per stride (inferred from latency), 65 rows)');
    expect(plain).toContain('in the CSV export, or in a report exported with raw data.');
  });

  it('opens with a summary page: the runs with GPU and experiment, then per run each judged quantity with inferred, true and paper values and its verdict', async () => {
    const ids = [
      lab.run('pchase-fine', 'fermi', { space: 'global', size: 8192, stride: 128, iterations: 1024, warmup: true }, 1, { title: 'Fine chase' }),
      lab.run('pchase-average', 'tesla', { space: 'texture', strides: [8], sizeFrom: 4608, sizeTo: 5888, sizeStep: 16, traversals: 1, tpc: -1 }, 2, { title: 'Texture L1 curve' }),
      lab.run('shared-bank-stride', 'fermi', { strideFrom: 0, strideTo: 64, mode: 'default' }, 3, { title: 'Bank strides' }),
    ];
    const runs = ids.map((id) => lab.store.getRun(id));
    const rows = runs.map((r) => reportFindings(r));
    // Every judged quantity: the texture curve's size, line and ways agree with paper and preset.
    const tex = rows[1];
    for (const key of ['s = 8 B.level1.sizeBytes', 's = 8 B.level1.lineBytes', 's = 8 B.level1.ways']) {
      const r = tex.find((x) => x.finding.key === key);
      expect(r?.verdict).toBe('pass');
      expect(r?.against).toBe('paper');
      expect(r?.truth).not.toBe('');
      // WONG's texture structure is inferred from simulated timings: a method check.
      expect(r?.kind).toBe('recovered');
    }
    // A quantity only the preset knows is judged against the preset.
    expect(tex.find((x) => x.finding.key === 's = 8 B.level1.sets')).toMatchObject({ verdict: 'pass', against: 'preset', paper: '' });
    expect(verdictCounts(rows[2])).toBe('7 pass');
    if (!HAS_POPPLER) return;
    const file = save((await exportPdf(lab.store, ids, { now: NOW, title: 'Memory hierarchy lab', evidence: true })).bytes);
    const first = pageText(file, 1);
    expect(inOrder(first, ['Memory hierarchy lab', 'Generated 2026-11-02 09:30:00 UTC', 'Runs in this report (3)', 'Fine chase', 'Texture L1 curve', 'Bank strides', 'Verdicts'])).not.toContain(-1);
    // The runs table: GPU (preset), experiment and the counts of verdicts of each run, in the report's order.
    expect(
      inOrder(first, ['1 Fine chase Fermi (fermi) Fine-grained P-chase', '1 done 1 pass', '2 Texture L1 curve Tesla (tesla) P-chase: average latency vs array size', '2 done 8 pass', '3 Bank strides Fermi (fermi) Shared memory', '3 done 7 pass']),
    ).not.toContain(-1);
    // Per run its verdicts, runs in order, each quantity with inferred, true and paper values and the verdict.
    const heads = ['Run 1: Fine chase - Fermi, pchase-fine', 'Run 2: Texture L1 curve - Tesla, pchase-average', 'Run 3: Bank strides - Fermi, shared-bank-stride'];
    expect(inOrder(first, heads)).not.toContain(-1);
    expect(first).toContain('Quantity Inferred Preset (true) Paper Verdict');
    expect(first).toContain('s = 8 B: level 1 associativity 20 20 20 pass');
    expect(first).toContain('s = 8 B: level 1 sets 8 8 - pass');
    expect(first).toContain('shared: conflict-free latency 50 cycles 50 cycles 50 cycles pass');
    expect(first).toContain('Latency level 1 116 cycles - 116 cycles pass');
    // Measurement-only findings stay in the run's section; no chart and no run section on the summary.
    expect(first).not.toContain('s = 8 B: level 1 steps in the rise');
    expect(first).not.toContain('Figure 1.');
    // Then the runs' sections: chart, findings (with evidence), parameters, in that order, run by run.
    const text = textOf(file);
    expect(
      inOrder(text.slice(first.length - 40), [
        'Run 1: Fine chase', 'Figure 1.', 'Findings', 'Evidence', 'Parameters',
        'Run 2: Texture L1 curve', 'Figure 3.', 'Findings', 'Parameters',
        'Run 3: Bank strides', 'Figure 4.', 'Findings', 'Parameters',
      ]),
    ).not.toContain(-1);
    expect(text).toContain('s = 8 B: level 1 steps in the rise 8 - - -');
    // Run 2's findings carry their kind under the verdict: recovered for the texture structure.
    expect(text).toMatch(/s = 8 B: level 1 associativity 20 20 20 .{0,120}pass recovered/);
    // Fewer pages than the same report with its raw data, which comes last.
    const pages = pageCount(file);
    const rawFile = save((await exportPdf(lab.store, ids, { now: NOW, title: 'Memory hierarchy lab', raw: true, evidence: true })).bytes);
    expect(pages).toBeLessThanOrEqual(7);
    expect(pageCount(rawFile)).toBeGreaterThan(pages);
    const raw = textOf(rawFile);
    const appendix = raw.indexOf("Raw data Each run's result tables");
    expect(appendix).toBeGreaterThan(raw.indexOf('Parameters', raw.indexOf('Run 3: Bank strides GPU')));
    expect(raw.indexOf('Conflict degree per stride (inferred from latency) Stride')).toBeGreaterThan(appendix);
  });

  it('is a handout by default: a page a run, its first two charts, the findings that say something, the rest named in a line', async () => {
    if (!HAS_POPPLER) return;
    const ids = [
      lab.run('pchase-average', 'fermi', {}, 1, { title: 'Curve A' }),
      lab.run('pchase-average', 'kepler', {}, 1, { title: 'Curve B' }),
      lab.run('shared-bank-stride', 'fermi', {}, 1, { title: 'Banks C' }),
    ];
    const handout = save((await exportPdf(lab.store, ids, { now: NOW, title: 'Handout' })).bytes);
    const full = save((await exportPdf(lab.store, ids, { now: NOW, title: 'Full', evidence: true })).bytes);
    // The summary page, a page per run (the bank run's paper values spill onto a second), the comparison of the two curves.
    expect(pageCount(handout)).toBeLessThanOrEqual(1 + ids.length + 2);
    expect(pageCount(full)).toBeGreaterThan(pageCount(handout));
    const text = textOf(handout);
    expect(text).not.toContain('Evidence');
    expect(text).toMatch(/Cannot tell \(\d+\): .*The report with the evidence says why, and what to run next\./);
    expect(text).toMatch(/Parameters: space = global; strides = 64 B; /);
    expect(text).toContain('shared: conflict-free latency 50 cycles 50 cycles 50 cycles');
    // Each run's section begins a page.
    const pages = Array.from({ length: pageCount(handout) }, (_, i) => pageText(handout, i + 1).trimStart());
    for (let k = 1; k <= ids.length; k++) expect(pages.some((t) => t.startsWith(`Run ${k}: `)), `run ${k} starts a page`).toBe(true);
    expect(textOf(full)).toContain('Evidence');
    console.log(`three runs: a handout of ${pageCount(handout)} pages, the full report ${pageCount(full)}`);
  });

  it('lists the known deviation of each finding that differs from the paper, and of no other', async () => {
    const id = lab.run('lash-sensitivity', 'fermi480', { n: 16384, iterations: 1, types: '4,1' }, 1, { title: 'Small sensitivity study' });
    const run = lab.store.getRun(id);
    const cmp = paperComparison(run, run.result?.findings ?? []);
    const differs = cmp.findings.filter((b) => b.check && !b.check.pass && b.paper?.reference.knownDeviation);
    const plainFails = cmp.findings.filter((b) => b.check && !b.check.pass && !b.paper?.reference.knownDeviation);
    // The small study misses LASH's Mergers+ figure, whose reference carries its known deviation.
    expect(differs.map((b) => b.finding.key)).toEqual(['sens.mergersPlus.gapWidening']);
    if (!HAS_POPPLER) return;
    const text = textOf(save((await exportPdf(lab.store, [id], { now: NOW })).bytes));
    expect(text).toContain('Known deviations');
    const flat = (s: string): string => s.replace(/\s+/g, ' ');
    for (const b of differs) expect(text).toContain(flat(`${b.finding.label}: ${b.paper?.reference.knownDeviation}`));
    // Only the known deviations are listed: a failing check without one adds no line to the section.
    const section = text.slice(text.indexOf('Known deviations'), text.indexOf('Evidence', text.indexOf('Known deviations')));
    for (const b of plainFails) expect(section).not.toContain(`${b.finding.label}: `);
  });

  it('reports three runs of one experiment on different presets with a comparison section', async () => {
    const ids = ['fermi', 'kepler', 'titan'].map((p, i) => lab.run('global-latency-patterns', p, {}, 7 + i));
    const file = await exportPdf(lab.store, ids, { now: NOW, title: 'Latency patterns on three GPUs', raw: true });
    expect(file.fileName).toBe('gpulab-report-3-runs-2026-11-02-09-30-00.pdf');
    expect(file.bytes.byteLength).toBeLessThan(400_000);
    expectVectorCharts(file.bytes);
    if (!HAS_POPPLER) return;
    const path = save(file.bytes);
    const text = textOf(path);
    for (const s of [
      'Latency patterns on three GPUs',
      'Runs in this report (3)',
      'Compared after the runs: Global memory latency by access pattern (MEI Table 3) (global-latency-patterns), runs 1, 2, 3.',
      'Run 1: global-latency-patterns on Fermi',
      'Run 2: global-latency-patterns on Kepler',
      'Run 3: global-latency-patterns on Titan',
      'Seed 7',
      'Seed 8',
      'Seed 9',
      'Kepler - GeForce GTX 780',
      'Titan - GeForce GTX Titan Black',
      'Comparison: Global memory latency by access pattern (MEI Table 3)',
      '3 runs of global-latency-patterns, one colour per preset.',
      'Fermi: run 1',
      'Kepler: run 2',
      'Titan: run 3',
      'Parameters side by side',
      'Series overlaid',
      'Findings side by side',
      // The paper's Kepler value of pattern 1, with its check's rule and its citation, beside the Kepler run's finding.
      "230 cycles within 5 % of the paper's value: 218.5..241.5 cycles MEI Table 3 (Kepler, pattern 1)",
      // Fermi's paper values do not name the patterns the same way: listed under "Paper values".
      'L1 off, pattern 5 1245 cycles',
    ])
      expect(text).toContain(s);
    const runs = ids.map((id) => lab.store.getRun(id));
    for (const r of runs) for (const f of r.result?.findings ?? []) expect(text).toContain(displayValue(f.value, f.unit));
    expect(renderPages(path)).toHaveLength(pageCount(path));
  });

  it('downsamples long series: a 200,000-access trace makes a small vector PDF', async () => {
    const id = lab.run('pchase-fine', 'fermi', { iterations: 200_000, size: '64KB' }, 1);
    const series = lab.store.getRun(id).result?.series ?? [];
    expect(series[0].x.length).toBe(200_000);
    const file = await exportPdf(lab.store, [id], { now: NOW });
    expect(file.bytes.byteLength).toBeLessThan(300_000);
    expectVectorCharts(file.bytes);
    if (!HAS_POPPLER) return;
    const text = textOf(save(file.bytes));
    expect(text).toContain('1 series, 200000 points.');
    expect(text).toContain('Figure 2. Array index vs Access');
  });

  it('lists a failed run with its error, and shows non-Latin text as "?" rather than garbage', async () => {
    const r = lab.store.createRun({ experiment: 'tlb-probes', preset: preset('kepler'), params: {}, seed: 2, title: 'Übung ≥ 漢字 run' });
    lab.store.startRun(r.id);
    lab.store.endRun(r.id, 'failed', 'the simulation process exited with code 134');
    const ok = lab.run('shared-bank-stride', 'kepler', {}, 1);
    const file = await exportPdf(lab.store, [r.id, ok], { now: NOW });
    expect(pdfText('Übung ≥ 漢字 – “ok”')).toBe('Übung ? ?? – “ok”');
    if (!HAS_POPPLER) return;
    const text = textOf(save(file.bytes));
    expect(text).toContain('Run 1: Übung ? ?? run');
    expect(text).toContain('Error the simulation process exited with code 134');
    expect(text).toContain('This run ended failed; it has no result.');
    expect(text).toContain('Run 2: shared-bank-stride on Kepler');
    expect(text).not.toContain('Comparison:'); // one finished run per experiment: nothing to compare
  });

  it('prints a table too wide for the page in parts of whole columns, each with the row labels, no number broken', async () => {
    const columns = [{ key: 'run', label: 'Run' }, ...Array.from({ length: 15 }, (_, j) => ({ key: `c${j}`, label: `Quantity number ${j + 1}`, unit: 'cycles' }))];
    const rows = ['Baseline int', 'MSHRMergers- short'].map((run, i) => ({ run, ...Object.fromEntries(columns.slice(1).map((c, j) => [c.key, 10_000_000 + 1000 * i + j])) }));
    const result = { series: [], findings: [], notes: [], tables: [{ name: 'Per machine and type', columns, rows }] };
    const id = lab.finish({ experiment: 'lash-sensitivity', preset: preset('fermi480'), params: {}, seed: 1, title: 'Wide table' }, result);
    const file = await exportPdf(lab.store, [id], { now: NOW, raw: true });
    if (!HAS_POPPLER) return;
    const text = textOf(save(file.bytes));
    const parts = [...text.matchAll(/\(part (\d) of (\d); column 1 repeated\)/g)].map((m) => [Number(m[1]), Number(m[2])]);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts).toEqual(parts.map((_, i) => [i + 1, parts.length]));
    // every cell whole, and each row label once per part
    for (const r of rows) for (const c of columns.slice(1)) expect(text).toContain(String(r[c.key as keyof typeof r]));
    for (const r of rows) expect(text.split(r.run).length - 1).toBe(parts.length);
    for (const c of columns.slice(1)) expect(text).toContain(`${c.label} (cycles)`);
  });

  it('is reproducible: the same runs and date give the same bytes', async () => {
    const id = lab.run('shared-bank-stride', 'kepler', {}, 1);
    const a = await exportPdf(lab.store, [id], { now: NOW });
    const b = await exportPdf(lab.store, [id], { now: NOW });
    expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
  });
});
