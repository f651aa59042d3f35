import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src-main/cli/main';
import { ID_PATTERN } from '../../src-main/contract';

/* The database commands of gpulab as a user runs them, on temporary databases: run --save (once
   through the spawned entry, then in this process through runCli, which gives the entry's output),
   runs list/show/export/delete, bundle export/import, and their refusals. */

const ROOT = resolve(__dirname, '../..');
const tmp = mkdtempSync(join(tmpdir(), 'gpulab-cli-store-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const A = join(tmp, 'a.db');
const B = join(tmp, 'b.db');

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The command line as a process: its entry, output and exit code (one test goes through it). */
function gpulabProcess(...args: string[]): Ran {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src-main/cli.ts', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The command line in this process (runCli, what the entry prints): the same output, without a process start each. */
async function gpulab(...args: string[]): Promise<Ran> {
  return runCli(args, { version: '0.0.0', readFile: (path) => readFileSync(path, 'utf8'), status: null });
}

function okJson<T = Record<string, unknown>>(r: Ran): T {
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
}

/** Bad input: exit 2, nothing on stdout, one line on stderr. */
function expectRefused(r: Ran, fragment: RegExp): void {
  expect(r.code, r.stderr || r.stdout.slice(0, 200)).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(/^gpulab: error: /);
  expect(r.stderr).toMatch(fragment);
}

const small = ['--param', 'sizeFrom=1KB', '--param', 'sizeTo=20KB', '--param', 'strides=64,128'];

interface RunJson {
  runId: string;
  db: string;
  experiment: string;
  preset: { id: string };
  seed: number;
  params: Record<string, unknown>;
  series: { name: string; x: number[]; y: number[] }[];
  findings: unknown[];
}
interface Page {
  total: number;
  items: { id: string; presetId: string; status: string; seed: number; experiment: string }[];
}

let fermi: RunJson;
let kepler = '';

// Each test spawns the CLI several times: generous limits for a busy machine.
describe('gpulab run --save', { timeout: 240_000 }, () => {
  it('runs in a simulation process, stores the run, prints its id and the same result as an unsaved run', async () => {
    fermi = okJson<RunJson>(gpulabProcess('run', 'pchase-average', '--preset', 'fermi', ...small, '--seed', '7', '--save', '--db', A, '--format', 'json'));
    expect(fermi.runId).toMatch(ID_PATTERN);
    expect(fermi.db).toBe(A);
    expect(existsSync(A)).toBe(true);
    const unsaved = okJson<RunJson>(await gpulab('run', 'pchase-average', '--preset', 'fermi', ...small, '--seed', '7', '--format', 'json'));
    const { runId: _id, db: _db, ...saved } = fermi;
    expect(saved).toEqual(unsaved);

    const text = await gpulab('run', 'pchase-average', '--preset', 'kepler', ...small, '--seed', '3', '--save', '--db', A);
    expect(text.code, text.stderr).toBe(0);
    const first = /^Saved as run (\S+) in (.+)$/m.exec(text.stdout);
    expect(first?.[2]).toBe(A);
    kepler = first?.[1] ?? '';
    expect(kepler).toMatch(ID_PATTERN);
    expect(text.stdout).toMatch(/^Findings$/m);
  });

  it('refuses --db without --save, and bad parameters before anything is stored', async () => {
    expectRefused(await gpulab('run', 'pchase-average', '--preset', 'fermi', '--db', A), /--db applies to run only with --save/);
    expectRefused(await gpulab('run', 'pchase-average', '--preset', 'fermi', '--param', 'sizeTo=99GB', '--save', '--db', A), /sizeTo/);
    expect(okJson<Page>(await gpulab('runs', 'list', '--db', A, '--format', 'json')).total).toBe(2);
  });
});

describe('gpulab runs', { timeout: 240_000 }, () => {
  it('lists the runs, newest first, and filters them', async () => {
    const all = okJson<Page>(await gpulab('runs', 'list', '--db', A, '--format', 'json'));
    expect(all.items.map((r) => r.id)).toEqual([kepler, fermi.runId]);
    expect(all.items.map((r) => r.status)).toEqual(['done', 'done']);
    expect(okJson<Page>(await gpulab('runs', 'list', '--db', A, '--preset', 'kepler', '--format', 'json')).items.map((r) => r.id)).toEqual([kepler]);
    expect(okJson<Page>(await gpulab('runs', 'list', '--db', A, '--status', 'failed,cancelled', '--format', 'json')).total).toBe(0);
    const one = okJson<Page>(await gpulab('runs', 'list', '--db', A, '--limit', '1', '--format', 'json'));
    expect([one.total, one.items.length]).toEqual([2, 1]);

    const text = await gpulab('runs', 'list', '--db', A);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(fermi.runId);
    expect(text.stdout).toContain(kepler);
    expect(text.stdout).toMatch(/2 runs in /);
    expect((await gpulab('runs', 'list', '--db', A, '--experiment', 'tlb-probe')).stdout).toMatch(/^No runs match/);
  });

  it('shows one run with its parameters and result', async () => {
    const shown = okJson<{ id: string; seed: number; status: string; params: Record<string, unknown>; preset: { id: string }; result: { series: RunJson['series']; findings: unknown[] } }>(
      await gpulab('runs', 'show', fermi.runId, '--db', A, '--format', 'json'),
    );
    expect(shown).toMatchObject({ id: fermi.runId, seed: 7, status: 'done', params: fermi.params, preset: { id: 'fermi' } });
    expect(shown.result.series).toEqual(fermi.series);
    expect(shown.result.findings).toEqual(fermi.findings);
    const text = await gpulab('runs', 'show', fermi.runId, '--db', A);
    expect(text.stdout).toMatch(new RegExp(`^Run ${fermi.runId}`));
    expect(text.stdout).toMatch(/^Status: done$/m);
    expect(text.stdout).toMatch(/^Findings$/m);
  });

  it('exports CSV and PDF files', async () => {
    const csv = join(tmp, 'one.csv');
    expect((await gpulab('runs', 'export', fermi.runId, '--csv', csv, '--db', A)).stdout).toMatch(/^Wrote the CSV of 1 run to /);
    const text = readFileSync(csv, 'utf8');
    expect(text).toContain(`# id,${fermi.runId}`);
    const rows = parse(text, { comment: '#', relax_column_count: true }) as string[][];
    expect(rows.length).toBeGreaterThan(fermi.series[0].x.length);

    const pdf = join(tmp, 'two.pdf');
    const out = okJson<{ file: string; format: string; bytes: number; runs: number }>(
      await gpulab('runs', 'export', fermi.runId, kepler, '--pdf', pdf, '--title', 'Fermi and Kepler', '--db', A, '--format', 'json'),
    );
    expect(out).toMatchObject({ file: pdf, format: 'pdf', runs: 2 });
    const bytes = readFileSync(pdf);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.byteLength).toBe(out.bytes);
  });

  it('refuses what it cannot do with one line and exit code 2', async () => {
    expectRefused(await gpulab('runs', 'show', 'not-an-id', '--db', A), /must be a run id/);
    expectRefused(await gpulab('runs', 'show', '00000000-0000-4000-8000-000000000000', '--db', A), /no run with id/);
    expectRefused(await gpulab('runs', 'export', fermi.runId, '--db', A), /--csv <file> or --pdf <file>/);
    expectRefused(await gpulab('runs', 'list', '--status', 'bogus', '--db', A), /--status takes/);
    expectRefused(await gpulab('runs', 'frobnicate', '--db', A), /unknown subcommand "runs frobnicate"/);
    expectRefused(await gpulab('runs', 'show', fermi.runId, '--db', join(tmp, 'missing.db')), /no database at/);
    // Listing a database that does not exist shows no runs and creates nothing.
    expect((await gpulab('runs', 'list', '--db', join(tmp, 'missing.db'))).stdout).toMatch(/^No runs in /);
    expect(existsSync(join(tmp, 'missing.db'))).toBe(false);
  });
});

describe('gpulab bundle', { timeout: 240_000 }, () => {
  const bundle = join(tmp, 'runs.gmlbundle');

  it('carries runs to another database, where they read back the same', async () => {
    expect(okJson(await gpulab('bundle', 'export', fermi.runId, kepler, '--out', bundle, '--db', A, '--format', 'json'))).toMatchObject({ file: bundle, runs: 2 });
    expect((await gpulab('bundle', 'import', bundle, '--db', B)).stdout).toMatch(/^Imported 2 runs into /);
    const again = okJson<{ imported: string[]; skipped: string[] }>(await gpulab('bundle', 'import', bundle, '--db', B, '--format', 'json'));
    expect([again.imported, [...again.skipped].sort()]).toEqual([[], [fermi.runId, kepler].sort()]);
    const there = okJson<Page>(await gpulab('runs', 'list', '--db', B, '--format', 'json'));
    expect(there.items.map((r) => r.id).sort()).toEqual([fermi.runId, kepler].sort());
    const a = okJson(await gpulab('runs', 'show', fermi.runId, '--db', A, '--format', 'json'));
    const b = okJson(await gpulab('runs', 'show', fermi.runId, '--db', B, '--format', 'json'));
    expect(b).toEqual(a);
  });

  it('refuses a damaged bundle and changes nothing', async () => {
    const bytes = readFileSync(bundle);
    const cut = join(tmp, 'cut.gmlbundle');
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.byteLength / 2)));
    expectRefused(await gpulab('bundle', 'import', cut, '--db', B), /bundle/);
    expectRefused(await gpulab('bundle', 'import', cut, '--db', join(tmp, 'fresh.db')), /bundle/);
    expect(existsSync(join(tmp, 'fresh.db'))).toBe(false);
    expectRefused(await gpulab('bundle', 'import', join(tmp, 'nowhere.gmlbundle'), '--db', B), /cannot read/);
    // A named pipe or a device is refused by what it is, not read for ever or waited on.
    const pipe = join(tmp, 'pipe.gmlbundle');
    spawnSync('mkfifo', [pipe]);
    expectRefused(await gpulab('bundle', 'import', pipe, '--db', B), /cannot read ".*pipe\.gmlbundle": a named pipe, not a regular file/);
    expectRefused(await gpulab('bundle', 'import', '/dev/zero', '--db', B), /cannot read "\/dev\/zero": a device, not a regular file/);
    expectRefused(await gpulab('bundle', 'export', fermi.runId, '--db', A), /--out/);
    expect(okJson<Page>(await gpulab('runs', 'list', '--db', B, '--format', 'json')).total).toBe(2);
  });

  it('deletes runs from one database only', async () => {
    expect((await gpulab('runs', 'delete', fermi.runId, '--db', B)).stdout).toMatch(/^Deleted 1 run from /);
    expect(okJson<Page>(await gpulab('runs', 'list', '--db', B, '--format', 'json')).items.map((r) => r.id)).toEqual([kepler]);
    expectRefused(await gpulab('runs', 'delete', fermi.runId, '--db', B), /no run with id/);
    expect(okJson(await gpulab('runs', 'delete', kepler, '--db', B, '--format', 'json'))).toEqual({ deleted: 1 });
    expect(okJson<Page>(await gpulab('runs', 'list', '--db', B, '--format', 'json')).total).toBe(0);
    expect(okJson<Page>(await gpulab('runs', 'list', '--db', A, '--format', 'json')).total).toBe(2);
  });
});

describe('gpulab run --preset <custom id>: a preset saved in the database', { timeout: 240_000 }, () => {
  it('runs with a custom preset the database holds, by its id, with or without --save; an unknown id names what the database holds', async () => {
    const db = join(tmp, 'presets.db');
    const { RunStore } = await import('../../src-main/services/store');
    const { findPreset } = await import('../../src-sim/presets');
    const store = RunStore.open(db, { appVersion: '0.0.0', recoverInterrupted: false });
    const mine = { ...structuredClone(findPreset('fermi')!), id: 'my-fermi', name: 'My Fermi' };
    store.saveCustomPreset(mine);
    store.close();
    const shown = okJson<RunJson>(await gpulab('run', 'pchase-average', '--preset', 'my-fermi', '--db', db, ...small, '--format', 'json'));
    expect(shown.preset).toMatchObject({ id: 'my-fermi', builtIn: false });
    // The same numbers as the built-in preset it was cloned from.
    const fermi = okJson<RunJson>(await gpulab('run', 'pchase-average', '--preset', 'fermi', ...small, '--format', 'json'));
    expect(shown.series.map((x) => x.y)).toEqual(fermi.series.map((x) => x.y));
    const saved = okJson<RunJson>(await gpulab('run', 'pchase-average', '--preset', 'my-fermi', '--db', db, ...small, '--save', '--format', 'json'));
    expect(saved.runId).toMatch(ID_PATTERN);
    expectRefused(await gpulab('run', 'pchase-average', '--preset', 'nobody', '--db', db, ...small), /unknown preset "nobody": not built in \(tesla, .*\), nor a custom preset in .*presets\.db \(it holds my-fermi\)/);
    expectRefused(await gpulab('run', 'pchase-average', '--preset', 'nobody', '--db', join(tmp, 'none.db'), ...small), /no database at .*none\.db to hold a custom one/);
  });
});
