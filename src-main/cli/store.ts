/**
 * The command line's database commands: `runs list|show|delete|export`, `bundle export|import`,
 * `db check`, and the saving half of `run --save`. Each takes `--db <file>` (default: the desktop app's
 * database, services/paths.ts) and validates what it asks of the store through the contract's
 * `parseArgs`, as the IPC handlers and HTTP routes do.
 *
 * Only `run --save` executes anything: it opens the lab service (a one-process pool) and leaves the
 * runs of other processes alone (an app may have the same database open). Every other command
 * opens the store alone, never marking other processes' runs interrupted. The lab service and the
 * exports are imported when a command needs them (ECharts and PDFKit take seconds to load).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { readRegularFile } from '../services/safe-read';
import { dirname, resolve } from 'node:path';
import type { DatabaseCheck, RunDetail, RunSummary } from '../contract';
import { LabError, LIMITS, parseArgs, RUN_STATUSES } from '../contract';
import { findExperiment } from '../../src-sim/experiments';
import type { Experiment, ExperimentResult, ParamValues, Progress } from '../../src-sim/experiments/types';
import type { Preset } from '../../src-sim/presets/types';
import { defaultDbPath } from '../services/paths';
import { checkBundle, RunStore } from '../services/store';
import { formatNumber, formatParam, resultJson, resultText, seriesCsv, textTable } from './format';
import { deviceLine } from '../../src-sim/cuda/run-record';

/** Exit codes (the same as cli/main.ts). */
const EXIT_OK = 0;
const EXIT_FAILED = 1;

export interface StoreCliOutput {
  code: number;
  stdout: string;
  stderr: string;
}

/** Bad input found here (a missing file, a missing option): the caller's CliError. */
export type UsageErrorFactory = (message: string) => Error;

export interface StoreContext {
  version: string;
  status: ((line: string) => void) | null;
  usage: UsageErrorFactory;
}

const ok = (stdout: string): StoreCliOutput => ({ code: EXIT_OK, stdout, stderr: '' });
const json = (value: unknown): string => JSON.stringify(value, null, 2) + '\n';
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

export function dbPath(db: string | undefined, ctx: StoreContext): string {
  if (db !== undefined && db.trim() === '') throw ctx.usage('--db needs a file name');
  return resolve(db ?? defaultDbPath());
}

/** The store of an existing database, read-only in spirit: other processes' runs are left as they are. */
export function openExisting(db: string, ctx: StoreContext): RunStore {
  if (!existsSync(db)) throw ctx.usage(`no database at ${db} (runs are saved there by gpulab run ... --save, or gpulab bundle import)`);
  return RunStore.open(db, { appVersion: ctx.version, recoverInterrupted: false });
}

export async function withStore<T>(store: RunStore, fn: (s: RunStore) => T | Promise<T>): Promise<T> {
  try {
    return await fn(store);
  } finally {
    store.close();
  }
}

function iso(ms: number | null): string {
  return ms === null ? '-' : new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
}

function duration(ms: number | null): string {
  return ms === null ? '-' : `${formatNumber(ms / 1000)} s`;
}

export function writeOut(file: string, bytes: Uint8Array, ctx: StoreContext): string {
  if (file.trim() === '') throw ctx.usage('the output file needs a name');
  const path = resolve(file);
  try {
    writeFileSync(path, bytes);
  } catch (e) {
    throw ctx.usage(`cannot write "${file}": ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  return path;
}

function whole(text: string | undefined, what: string, min: number, max: number, ctx: StoreContext): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text.trim()) || Number(text) < min || Number(text) > max) throw ctx.usage(`${what} must be a whole number from ${min} to ${max}; got "${text}"`);
  return Number(text);
}

// ---------------------------------------------------------------------------------------------
// runs list

export interface ListOptions {
  db?: string;
  experiment?: string;
  preset?: string;
  status?: string;
  tag?: string;
  text?: string;
  limit?: string;
}

export async function runsList(o: ListOptions, format: string, ctx: StoreContext): Promise<StoreCliOutput> {
  const db = dbPath(o.db, ctx);
  const status = o.status?.split(',').map((s) => s.trim());
  const badStatus = status?.find((s) => !(RUN_STATUSES as readonly string[]).includes(s));
  if (badStatus !== undefined) throw ctx.usage(`--status takes one or more of ${RUN_STATUSES.join(', ')} (comma-separated); got "${badStatus}"`);
  const query = parseArgs('runs.list', {
    ...(o.experiment === undefined ? {} : { experiment: o.experiment }),
    ...(o.preset === undefined ? {} : { preset: o.preset }),
    ...(status === undefined ? {} : { status: status.length === 1 ? status[0] : status }),
    ...(o.tag === undefined ? {} : { tag: o.tag }),
    ...(o.text === undefined ? {} : { text: o.text }),
    ...(o.limit === undefined ? {} : { limit: whole(o.limit, '--limit', 1, LIMITS.listPageMax, ctx) }),
  });
  // A database that does not exist yet holds no runs (and is not created by looking).
  const page = existsSync(db) ? await withStore(openExisting(db, ctx), (s) => s.listRuns(query)) : { total: 0, items: [] as RunSummary[] };
  if (format === 'json') return ok(json(page));
  const filtered = [o.experiment, o.preset, o.status, o.tag, o.text].some((x) => x !== undefined);
  if (page.total === 0) return ok(`No runs${filtered ? ' match' : ''} in ${db}.\n`);
  const table = textTable(
    ['id', 'created (UTC)', 'status', 'experiment', 'preset', 'seed', 'time', 'title', 'tags'],
    page.items.map((r) => [r.id, iso(r.createdAt), r.status, r.experiment, r.presetId, String(r.seed), duration(r.durationMs), r.title, r.tags.join(', ')]),
    [5, 6],
  );
  const more = page.total > page.items.length ? ` (the newest ${page.items.length} of ${page.total}: --limit shows more)` : '';
  return ok(`${table}\n\n${plural(page.total, 'run')}${filtered ? ' match' : ''} in ${db}${more}\n`);
}

// ---------------------------------------------------------------------------------------------
// runs show

function detailJson(r: RunDetail, traceLimit: number): Record<string, unknown> {
  const { result, ...rest } = r;
  return { ...rest, result: result ? resultJson(result, traceLimit) : null };
}

function paramLine(experiment: Experiment | undefined, params: ParamValues): string {
  const names = experiment ? experiment.params.map((s) => s.name) : Object.keys(params);
  return names
    .filter((n) => params[n] !== undefined)
    .map((n) => `${n}=${formatParam(experiment?.params.find((s) => s.name === n), params[n])}`)
    .join(' ');
}

function detailText(r: RunDetail): string {
  const e = findExperiment(r.experiment);
  const lines = [
    `Run ${r.id}${r.title ? `: ${r.title}` : ''}`,
    `Experiment: ${e ? `${e.title} (${r.experiment})` : r.experiment}`,
    r.device ? `Measured on: ${deviceLine(r.device)} (real)` : `Preset: ${r.presetName} (${r.preset?.device ?? ''})   seed ${r.seed}   simulator ${r.simVersion}`,
    `Status: ${r.status}${r.error ? `: ${r.error}` : ''}`,
    `Created ${iso(r.createdAt)} UTC   started ${iso(r.startedAt)}   finished ${iso(r.finishedAt)}   simulation ${duration(r.durationMs)}`,
    `Parameters: ${paramLine(e, r.params) || '(none)'}`,
  ];
  if (r.tags.length) lines.push(`Tags: ${r.tags.join(', ')}`);
  if (r.notes) lines.push(`Notes: ${r.notes.replace(/\s*\n\s*/g, ' / ')}`);
  lines.push('');
  return lines.join('\n') + '\n' + (r.result ? resultText(r.result) : '(no result: the run did not finish)\n');
}

export async function runsShow(id: string, o: { db?: string }, format: string, traceLimit: number, ctx: StoreContext): Promise<StoreCliOutput> {
  const db = dbPath(o.db, ctx);
  const args = parseArgs('runs.get', { id });
  const run = await withStore(openExisting(db, ctx), (s) => s.getRun(args.id));
  return ok(format === 'json' ? json(detailJson(run, traceLimit)) : detailText(run));
}

// ---------------------------------------------------------------------------------------------
// runs delete

export async function runsDelete(ids: string[], o: { db?: string }, format: string, ctx: StoreContext): Promise<StoreCliOutput> {
  const db = dbPath(o.db, ctx);
  const args = parseArgs('runs.delete', { ids });
  const deleted = await withStore(openExisting(db, ctx), (s) => s.deleteRuns(args.ids));
  return ok(format === 'json' ? json({ deleted }) : `Deleted ${plural(deleted, 'run')} from ${db}.\n`);
}

// ---------------------------------------------------------------------------------------------
// runs export

export async function runsExport(
  ids: string[],
  o: { db?: string; csv?: string; pdf?: string; title?: string; raw?: boolean; evidence?: boolean },
  format: string,
  ctx: StoreContext,
): Promise<StoreCliOutput> {
  const db = dbPath(o.db, ctx);
  if ((o.csv === undefined) === (o.pdf === undefined)) throw ctx.usage('give --csv <file> or --pdf <file> (one of them)');
  if (o.csv !== undefined && o.title !== undefined) throw ctx.usage('--title applies to --pdf only');
  if (o.csv !== undefined && o.raw) throw ctx.usage('--raw applies to --pdf only');
  if (o.csv !== undefined && o.evidence) throw ctx.usage('--evidence applies to --pdf only');
  const kind = o.csv !== undefined ? 'CSV' : 'PDF';
  const { exportCsv, exportPdf } = await import('../services/export');
  const file = await withStore(openExisting(db, ctx), (s) => {
    if (o.csv !== undefined) return exportCsv(s, parseArgs('exports.csv', { runIds: ids }).runIds);
    const a = parseArgs('exports.pdf', { runIds: ids, ...(o.title === undefined ? {} : { title: o.title }), ...(o.raw ? { raw: true } : {}), ...(o.evidence ? { evidence: true } : {}) });
    return exportPdf(s, a.runIds, { appVersion: ctx.version, raw: a.raw === true, evidence: a.evidence === true, ...(a.title === undefined ? {} : { title: a.title }) });
  });
  const path = writeOut((o.csv ?? o.pdf)!, file.bytes, ctx);
  if (format === 'json') return ok(json({ file: path, format: kind.toLowerCase(), bytes: file.bytes.byteLength, runs: ids.length }));
  return ok(`Wrote the ${kind} of ${plural(ids.length, 'run')} to ${path} (${file.bytes.byteLength} bytes).\n`);
}

// ---------------------------------------------------------------------------------------------
// bundles

export async function bundleExport(ids: string[], o: { db?: string; out?: string }, format: string, ctx: StoreContext): Promise<StoreCliOutput> {
  const db = dbPath(o.db, ctx);
  if (o.out === undefined) throw ctx.usage('missing --out <file> (where the bundle goes)');
  const args = parseArgs('bundles.export', { runIds: ids });
  const file = await withStore(openExisting(db, ctx), (s) => s.exportBundle(args.runIds));
  const path = writeOut(o.out, file.bytes, ctx);
  if (format === 'json') return ok(json({ file: path, bytes: file.bytes.byteLength, runs: args.runIds.length }));
  return ok(`Wrote a bundle of ${plural(args.runIds.length, 'run')} to ${path} (${file.bytes.byteLength} bytes).\n`);
}

export async function bundleImport(file: string, o: { db?: string }, format: string, ctx: StoreContext): Promise<StoreCliOutput> {
  const db = dbPath(o.db, ctx);
  let bytes: Uint8Array;
  // A regular file (or a link to one: the user names it) of a bundle's size at most, checked before
  // a byte is read: a named pipe or a device would block or never end.
  try {
    bytes = readRegularFile(file, LIMITS.bundleBytes, { followLinks: true });
  } catch (e) {
    const why = (e as Error).message;
    throw ctx.usage(/more than the \d+ it may hold/.test(why) ? `"${file}" is larger than a bundle may be (${LIMITS.bundleBytes} bytes)` : `cannot read "${file}": ${why.replace(/^cannot read it: /, '')}`);
  }
  const args = parseArgs('bundles.import', { bytes });
  // A refused bundle leaves no trace: not even a new, empty database.
  if (!existsSync(db)) await checkBundle(args.bytes);
  mkdirSync(dirname(db), { recursive: true });
  const report = await withStore(RunStore.open(db, { appVersion: ctx.version, recoverInterrupted: false }), (s) => s.importBundle(args.bytes));
  if (format === 'json') return ok(json(report));
  const skipped = report.skipped.length ? `; ${plural(report.skipped.length, 'run')} already there left as they were` : '';
  return ok(`Imported ${plural(report.imported.length, 'run')} into ${db}${skipped}.\n`);
}

// ---------------------------------------------------------------------------------------------
// run --save

/** JSON with object keys sorted: equal for equal data whatever the key order. */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : x,
  );
}

export interface SaveRequest {
  experiment: Experiment;
  preset: Preset;
  /** The preset came from --preset-file (it is stored as a custom preset). */
  presetFile?: string;
  /** The parameters as the user wrote them. */
  rawParams: Record<string, string>;
  seed: number;
  db?: string;
  progress: Progress;
}

export interface SavedRun {
  runId: string;
  db: string;
  params: ParamValues;
  result: ExperimentResult;
  durationMs: number | null;
}

/**
 * Runs one experiment through the lab service (a simulation process, the database) and waits for
 * it. A run that fails is stored as failed and reported with exit code 1.
 */
export async function saveRun(req: SaveRequest, ctx: StoreContext): Promise<SavedRun | StoreCliOutput> {
  const db = dbPath(req.db, ctx);
  const log: string[] = [];
  const { createLab } = await import('../services/lab');
  const lab = createLab({ dbPath: db, poolSize: 1, appVersion: ctx.version, recoverInterrupted: false, log: (line) => log.push(line) });
  // Ctrl+C: cancel the simulation and record the run as interrupted before leaving.
  const interrupt = (signal: NodeJS.Signals) => {
    process.stderr.write(`\ngpulab: ${signal}: the run is recorded as interrupted\n`);
    void lab.close().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  try {
    if (req.presetFile !== undefined) {
      let stored: Preset | undefined;
      try {
        stored = (await lab.api.presets.get({ id: req.preset.id })).preset;
      } catch (e) {
        if (!(e instanceof LabError && e.code === 'not-found')) throw e;
      }
      if (stored === undefined) await lab.api.presets.saveCustom({ preset: req.preset as unknown as Record<string, unknown> });
      else if (canonical(stored) !== canonical(req.preset))
        throw ctx.usage(`the database ${db} holds a different custom preset "${req.preset.id}"; give the preset in "${req.presetFile}" another id`);
    }
    const off = lab.on('run.progress', (p) => req.progress(p.done, p.total, p.phase));
    const { runId } = await lab.api.runs.start({ experiment: req.experiment.id, preset: req.preset.id, params: req.rawParams, seed: req.seed });
    const end = await lab.finished(runId);
    off();
    if (end.status !== 'done') {
      const detail = log.length ? `\n${log.slice(-10).join('\n')}` : '';
      return { code: EXIT_FAILED, stdout: '', stderr: `gpulab: run ${runId} ${end.status}: ${end.error ?? 'no reason given'} (stored in ${db})${detail}\n` };
    }
    const run = await lab.api.runs.get({ id: runId, full: true });
    if (!run.result) throw new Error(`run ${runId} is done but has no result`);
    return { runId, db, params: run.params, result: run.result, durationMs: run.durationMs };
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
    await lab.close();
  }
}

/** Formats a saved run's output like an unsaved one (cli/main.ts), with its id. */
export function savedOutput(saved: SavedRun, head: { json: Record<string, unknown>; text: string[] }, format: string, traceLimit: number): StoreCliOutput {
  if (format === 'csv') return { code: EXIT_OK, stdout: seriesCsv(saved.result.series), stderr: `gpulab: saved as run ${saved.runId} in ${saved.db}\n` };
  if (format === 'json') return ok(json({ runId: saved.runId, db: saved.db, ...head.json, ...resultJson(saved.result, traceLimit) }));
  return ok([`Saved as run ${saved.runId} in ${saved.db}`, ...head.text, ''].join('\n') + '\n' + resultText(saved.result));
}

// ---------------------------------------------------------------------------------------------
// db check

/**
 * The full integrity check of a database: "ok" (exit 0), or the problems SQLite found, one a line
 * and each naming the file, then what to do (exit 1). A file too damaged to open is the same
 * failure, with the reason its opening gave.
 */
export async function dbCheck(o: { db?: string }, format: string, ctx: StoreContext): Promise<StoreCliOutput> {
  const db = dbPath(o.db, ctx);
  let check: DatabaseCheck;
  try {
    check = await withStore(openExisting(db, ctx), (s) => s.checkDatabase());
  } catch (e) {
    if (!(e instanceof LabError && e.code === 'database-invalid')) throw e;
    check = { file: db, ok: false, problems: [e.message], advice: null, durationMs: 0 };
  }
  if (format === 'json') return { code: check.ok ? EXIT_OK : EXIT_FAILED, stdout: json(check), stderr: '' };
  if (check.ok) return ok(`ok\n`);
  const lines = check.problems.map((p) => `${check.file}: ${p.replace(/\s*\n\s*/g, '; ')}`);
  if (check.advice) lines.push(`${check.file}: the database is damaged: ${check.advice}`);
  return { code: EXIT_FAILED, stdout: '', stderr: `${lines.join('\n')}\n` };
}
