/**
 * The `gpulab` command line: listing presets and experiments, headless runs and the papers'
 * reproduction, and the database commands (cli/store.ts: `run --save`, `runs ...`, `bundle ...`, `db check`).
 * `runCli` builds the whole output before anything is printed, so a failure leaves stdout empty
 * and says one line on stderr.
 */
import { parseArgs } from 'node:util';
import { EXPERIMENTS, findExperiment } from '../../src-sim/experiments';
import { formatBytes, resolveParams } from '../../src-sim/experiments/params';
import type { Experiment, ParamValues, Progress } from '../../src-sim/experiments/types';
import { ExperimentError, MAX_TRACE } from '../../src-sim/experiments/types';
import { totalLines } from '../../src-sim/model/types';
import { findPreset, PRESETS } from '../../src-sim/presets';
import type { Preset, SpaceId } from '../../src-sim/presets/types';
import { formatIssues, validatePreset } from '../../src-sim/presets/validate';
import { checkStatus, kindTotals, reproduce, rowGate, selectRows } from '../../src-sim/reference';
import type { CheckKind, CheckResult, CheckStatus, RowGate, RowResult } from '../../src-sim/reference';
import { SIM_VERSION } from '../../src-sim/version';
import { findHostileShape, LabError, LIMITS } from '../contract';
import type { LabErrorCode } from '../contract';
import { defaultDbPath } from '../services/paths';
import { readRegularFile } from '../services/safe-read';
import type { WorkerLauncher } from '../services/pool/launcher';
import { ForkLauncher } from '../services/pool/node-launcher';
import { DEFAULT_ROW_JOBS, outcomeRows, rowJobs, runRowsInParallel } from '../services/pool/rows-parallel';
import { DEFAULT_TRACE_LIMIT, formatNumber, formatParam, resultJson, resultText, seriesCsv, textTable } from './format';
import type { StoreContext } from './store';
import { jsonErrorWhere } from '../../src-sim/json-error';

/** Exit codes: 0 success, 1 a reproduction row or a saved run failed (or an internal error), 2 bad input. */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** Bad input from the user: printed as one line, exit code 2. */
export class CliError extends Error {
  override name = 'CliError';
}

export interface CliOutput {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliContext {
  /** Package version (package.json). */
  version: string;
  readFile(path: string): string;
  /** Live status line sink (a TTY's stderr), or null for none. */
  status: ((line: string) => void) | null;
  /** Where `reproduce --jobs` starts its simulation processes (default: forks of the worker). */
  launcher?: () => WorkerLauncher;
}

const OPTIONS = {
  format: { type: 'string', short: 'f' },
  preset: { type: 'string', short: 'p' },
  'preset-file': { type: 'string' },
  param: { type: 'string', multiple: true, short: 'P' },
  seed: { type: 'string', short: 's' },
  jobs: { type: 'string', short: 'j' },
  'trace-limit': { type: 'string' },
  save: { type: 'boolean' },
  db: { type: 'string' },
  name: { type: 'string' },
  base: { type: 'string' },
  experiment: { type: 'string' },
  status: { type: 'string' },
  tag: { type: 'string' },
  text: { type: 'string' },
  limit: { type: 'string' },
  csv: { type: 'string' },
  pdf: { type: 'string' },
  title: { type: 'string' },
  raw: { type: 'boolean' },
  evidence: { type: 'boolean' },
  out: { type: 'string' },
  arch: { type: 'string' },
  timeout: { type: 'string' },
  'level-gap': { type: 'string' },
  'probe-timeout': { type: 'string' },
  slurm: { type: 'string' },
  partition: { type: 'string' },
  account: { type: 'string' },
  'max-parallel': { type: 'string' },
  'array-max': { type: 'string' },
  index: { type: 'string' },
  resubmit: { type: 'boolean' },
  quantity: { type: 'string' },
  over: { type: 'string' },
  by: { type: 'string' },
  chart: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
} as const;

type OptionName = keyof typeof OPTIONS;
type Values = ReturnType<typeof parse>['values'];

interface Command {
  usage: string;
  summary: string;
  /** Options besides --help; the first --format listed is the default. */
  options: OptionName[];
  formats?: readonly string[];
  positionals: [min: number, max: number];
  run(args: string[], v: Values, format: string, ctx: CliContext): CliOutput | Promise<CliOutput>;
}

/**
 * The database commands (cli/store.ts), loaded when one runs: the store, the pool and the exports
 * (better-sqlite3, ECharts, PDFKit) would slow every other command's start.
 */
const store = () => import('./store');

/** The real-GPU commands (cli/gpu.ts): emit, import and run the CUDA programs. */
const gpu = () => import('./gpu');
const gpuContext = (ctx: CliContext) => ({ usage: (message: string) => new CliError(message), status: ctx.status });

/** Error codes of the lab that mean "this request cannot be done" (exit 2) rather than "something broke" (exit 1). */
const USER_ERRORS: readonly LabErrorCode[] = ['invalid-args', 'not-found', 'conflict', 'immutable', 'invalid-preset', 'invalid-bundle'];

/** Commands with subcommands: `runs list` is COMMANDS['runs list']. */
const GROUPS = ['runs', 'bundle', 'db', 'gpu'] as const;

function parse(argv: string[]) {
  return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
}

const ok = (stdout: string): CliOutput => ({ code: EXIT_OK, stdout, stderr: '' });
const json = (value: unknown): string => JSON.stringify(value, null, 2) + '\n';

// ---------------------------------------------------------------------------------------------
// presets

function spacesOf(p: Preset): SpaceId[] {
  return (Object.keys(p.spaces) as SpaceId[]).filter((s) => p.spaces[s]);
}

function presetSummary(p: Preset) {
  const g = p.spaces.global;
  const t = g.translation;
  return {
    id: p.id,
    name: p.name,
    device: p.device,
    generation: p.generation,
    computeCapability: p.computeCapability,
    sms: p.chip.sms,
    sharedBytes: p.shared.sizeBytes,
    sharedBanks: p.shared.banks,
    globalLevels: g.levels.map((l) => ({ name: l.name, sizeBytes: l.sizeBytes, lineBytes: l.geometry.lineBytes, scope: l.scope })),
    pageBytes: t ? t.pageBytes : null,
    tlbEntries: t ? [totalLines(t.l1.geometry), totalLines(t.l2.geometry)] : null,
    spaces: spacesOf(p),
  };
}

function presetsCommand(_args: string[], _v: Values, format: string): CliOutput {
  const rows = PRESETS.map(presetSummary);
  if (format === 'json') return ok(json(rows));
  const table = textTable(
    ['id', 'name', 'device', 'generation', 'cc', 'SMs', 'shared', 'global memory path', 'page', 'TLB entries', 'spaces'],
    rows.map((r) => [
      r.id,
      r.name,
      r.device,
      r.generation,
      r.computeCapability,
      String(r.sms),
      `${formatBytes(r.sharedBytes)} / ${r.sharedBanks} banks`,
      r.globalLevels.map((l) => `${l.name} ${formatBytes(l.sizeBytes)} (${l.lineBytes} B lines)`).join(', ') || 'uncached',
      r.pageBytes === null ? '-' : formatBytes(r.pageBytes),
      r.tlbEntries === null ? '-' : r.tlbEntries.join(' + '),
      r.spaces.join(', '),
    ]),
    [5],
  );
  return ok(`${table}\n\nFull data of one preset (a start for a custom preset file): gpulab preset <id>\n`);
}

function presetCommand(args: string[]): CliOutput {
  return ok(json(builtinPreset(args[0])));
}

function builtinPreset(id: string): Preset {
  const p = findPreset(id);
  if (!p) throw new CliError(`unknown preset "${id}"; known: ${PRESETS.map((q) => q.id).join(', ')}`);
  return p;
}

/** A user's preset file: JSON, checked by the same validator as the built-in presets. */
function presetFromFile(path: string): Preset {
  let text: string;
  // A regular file (a link to one is the user's to name) of at most what the API takes, checked
  // before a byte is read: a pipe or a device would block or never end.
  try {
    text = new TextDecoder().decode(readRegularFile(path, LIMITS.presetJsonBytes, { followLinks: true }));
  } catch (e) {
    const why = (e as Error).message;
    throw new CliError(/more than the \d+ it may hold/.test(why) ? `preset file "${path}" is ${why.replace(/ it may hold$/, ' bytes a preset may hold')}` : `cannot read preset file "${path}": ${why.replace(/^cannot read it: /, '')}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new CliError(`preset file "${path}" is not valid JSON: ${jsonErrorWhere(e)}`);
  }
  // What the API refuses, the file is refused for too: keys that pollute prototypes, deep nesting.
  const hostile = findHostileShape(data);
  if (hostile) throw new CliError(`preset file "${path}": ${hostile}`);
  const v = validatePreset(data);
  if (!v.ok) {
    const more = v.issues.length > 5 ? `; and ${v.issues.length - 5} more` : '';
    throw new CliError(`invalid preset file "${path}": ${formatIssues(v.issues.slice(0, 5)).split('\n').join('; ')}${more}`);
  }
  if (findPreset(v.preset.id))
    throw new CliError(`preset file "${path}" uses the id of the built-in preset "${v.preset.id}"; give the custom preset its own id`);
  return v.preset;
}

/** --preset or --preset-file (exactly one when `required`). */
function choosePreset(v: Values, ctx: CliContext, required: boolean): Preset | undefined {
  if (v.preset !== undefined && v['preset-file'] !== undefined) throw new CliError('give --preset or --preset-file, not both');
  if (v.preset !== undefined) return builtinPreset(v.preset);
  if (v['preset-file'] !== undefined) return presetFromFile(v['preset-file']);
  if (required) throw new CliError(`missing --preset <id> (one of: ${PRESETS.map((p) => p.id).join(', ')}) or --preset-file <file.json>`);
  return undefined;
}

function parseSeed(text: string | undefined): number {
  if (text === undefined) return 1;
  if (!/^\d+$/.test(text.trim()) || Number(text) > 0xffffffff) throw new CliError(`--seed must be a whole number from 0 to 4294967295; got "${text}"`);
  return Number(text);
}

// ---------------------------------------------------------------------------------------------
// experiments

function paramsJson(e: Experiment) {
  return e.params.map((s) => ({
    name: s.name,
    label: s.label,
    kind: s.kind,
    unit: s.unit,
    default: s.default,
    ...('min' in s ? { min: s.min, max: s.max } : {}),
    ...('maxItems' in s ? { maxItems: s.maxItems } : {}),
    ...('options' in s ? { options: [...s.options] } : {}),
    ...('maxLength' in s ? { maxLength: s.maxLength } : {}),
    description: s.description,
  }));
}

function rangeText(s: Experiment['params'][number]): string {
  if (s.kind === 'enum') return s.options.join(' | ');
  if (s.kind === 'boolean') return 'true | false';
  if (s.kind === 'text') return `text, up to ${s.maxLength} characters`;
  const f = (n: number): string => (s.kind === 'bytes' || s.kind === 'bytes-list' ? formatBytes(n) : String(n));
  const r = `${f(s.min)} .. ${f(s.max)}`;
  return 'maxItems' in s ? `${r}, up to ${s.maxItems} values` : r;
}

function experimentsCommand(args: string[], _v: Values, format: string): CliOutput {
  const list = args.length ? [requireExperiment(args[0])] : EXPERIMENTS;
  if (format === 'json')
    return ok(json(list.map((e) => ({ id: e.id, title: e.title, description: e.description, reproduces: e.reproduces, params: paramsJson(e) }))));
  const blocks = list.map((e) => {
    const head = [`${e.id}: ${e.title}`, `  ${e.description}`];
    if (e.reproduces.length) head.push(`  Reproduces: ${e.reproduces.join(', ')}`);
    const params = e.params.length
      ? textTable(
          ['parameter', 'kind', 'unit', 'default', 'range', 'description'],
          e.params.map((s) => [s.name, s.kind, s.unit || '-', formatParam(s, s.default) || '-', rangeText(s), s.description]),
        )
          .split('\n')
          .map((l) => `  ${l}`)
          .join('\n')
      : '  (no parameters)';
    return `${head.join('\n')}\n${params}`;
  });
  return ok(blocks.join('\n\n') + '\n');
}

function requireExperiment(id: string): Experiment {
  const e = findExperiment(id);
  if (!e) throw new CliError(`unknown experiment "${id}"; known: ${EXPERIMENTS.map((x) => x.id).join(', ')}`);
  return e;
}

// ---------------------------------------------------------------------------------------------
// run

function rawParams(items: string[] | undefined, e: Experiment): Record<string, string> {
  const raw: Record<string, string> = {};
  for (const item of items ?? []) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw new CliError(`--param takes name=value; got "${item}" (parameters of ${e.id}: ${e.params.map((p) => p.name).join(', ') || 'none'})`);
    const name = item.slice(0, eq).trim();
    if (name in raw) throw new CliError(`parameter "${name}" is given twice`);
    raw[name] = item.slice(eq + 1);
  }
  return raw;
}

function statusProgress(ctx: CliContext, label: string): Progress {
  const sink = ctx.status;
  if (!sink) return () => {};
  let last = 0;
  return (done, total, phase) => {
    const now = Date.now();
    if (now - last < 100 && done < total) return;
    last = now;
    const pct = total > 0 ? Math.min(100, Math.floor((100 * done) / total)) : 0;
    sink(`${label}: ${phase} ${pct}%`);
  };
}

function parseTraceLimit(v: Values): number {
  if (v['trace-limit'] === undefined) return DEFAULT_TRACE_LIMIT;
  const traceLimit = Number(v['trace-limit']);
  if (!/^\d+$/.test(v['trace-limit'].trim()) || traceLimit > MAX_TRACE)
    throw new CliError(`--trace-limit must be a whole number from 0 to ${MAX_TRACE}; got "${v['trace-limit']}"`);
  return traceLimit;
}

function storeContext(ctx: CliContext): StoreContext {
  return { version: ctx.version, status: ctx.status, usage: (message) => new CliError(message) };
}

/**
 * A custom preset saved in the database (the app's presets page, gpu preset, a bundle), by its id:
 * the lab and the command line share the file (--db, or the default one).
 */
async function savedPreset(id: string, v: Values, ctx: CliContext): Promise<Preset> {
  const { dbPath } = await import('./store');
  const db = dbPath(v.db, storeContext(ctx));
  const builtIns = PRESETS.map((q) => q.id).join(', ');
  const { existsSync } = await import('node:fs');
  if (!existsSync(db)) throw new CliError(`unknown preset "${id}": not built in (${builtIns}), and no database at ${db} to hold a custom one (--db names another)`);
  const { RunStore } = await import('../services/store');
  let store: ReturnType<typeof RunStore.open>;
  try {
    store = RunStore.open(db, { appVersion: ctx.version, recoverInterrupted: false });
  } catch (e) {
    throw new CliError(`cannot read the custom presets of ${db}: ${(e as Error).message}`);
  }
  try {
    return store.getPreset(id).preset;
  } catch (e) {
    if (e instanceof LabError && e.code === 'not-found') {
      const custom = store.listPresets().filter((p) => !p.builtin).map((p) => p.id);
      throw new CliError(`unknown preset "${id}": not built in (${builtIns}), nor a custom preset in ${db}${custom.length ? ` (it holds ${custom.join(', ')})` : ' (it holds none)'}`);
    }
    throw e;
  } finally {
    store.close();
  }
}

function runCommand(args: string[], v: Values, format: string, ctx: CliContext): CliOutput | Promise<CliOutput> {
  if (v.preset !== undefined && v['preset-file'] === undefined && !findPreset(v.preset)) {
    requireExperiment(args[0]); // an unknown experiment first, as with a built-in preset
    return savedPreset(v.preset, v, ctx).then((p) => runWithPreset(args, v, format, ctx, p, true));
  }
  return runWithPreset(args, v, format, ctx, choosePreset(v, ctx, true) as Preset, false);
}

function runWithPreset(args: string[], v: Values, format: string, ctx: CliContext, preset: Preset, fromDb: boolean): CliOutput | Promise<CliOutput> {
  const e = requireExperiment(args[0]);
  const raw = rawParams(v.param, e);
  const builtIn = findPreset(preset.id) === preset;
  const seed = parseSeed(v.seed);
  const traceLimit = parseTraceLimit(v);
  if (v.db !== undefined && !v.save && !fromDb) throw new CliError('--db applies to run only with --save, or to find a custom preset by its id');
  const params: ParamValues = resolveParams(e.params, raw);
  const headJson = { experiment: e.id, preset: { id: preset.id, name: preset.name, device: preset.device, builtIn }, seed };
  const headText = (resolved: ParamValues, seconds: number): string[] => [
    `${e.title}`,
    `Preset: ${preset.name} (${preset.device})${builtIn ? '' : ' [custom]'}   seed ${seed}   simulator ${SIM_VERSION}   ${formatNumber(seconds)} s`,
    `Parameters: ${e.params.map((s) => `${s.name}=${formatParam(s, resolved[s.name])}`).join(' ') || '(none)'}`,
  ];

  if (v.save) {
    // In a simulation process, through the lab service, into the database.
    const progress = statusProgress(ctx, `${e.id} on ${preset.id}`);
    const request = { experiment: e, preset, ...(builtIn ? {} : { presetFile: v['preset-file'] }), rawParams: raw, seed, ...(v.db === undefined ? {} : { db: v.db }), progress };
    return store().then(async ({ saveRun, savedOutput }) => {
      const saved = await saveRun(request, storeContext(ctx));
      if ('code' in saved) return saved;
      const head = { json: { ...headJson, params: saved.params, simVersion: SIM_VERSION }, text: headText(saved.params, (saved.durationMs ?? 0) / 1000) };
      return savedOutput(saved, head, format, traceLimit);
    });
  }

  const started = Date.now();
  let result;
  try {
    result = e.run(preset, params, seed, statusProgress(ctx, `${e.id} on ${preset.id}`));
  } catch (err) {
    if (err instanceof ExperimentError) throw new ExperimentError(`${e.id} on ${preset.id}: ${err.message}`, err.param);
    throw err;
  }
  const seconds = (Date.now() - started) / 1000;

  if (format === 'csv') return ok(seriesCsv(result.series));
  if (format === 'json') return ok(json({ ...headJson, params, simVersion: SIM_VERSION, ...resultJson(result, traceLimit) }));
  return ok([...headText(params, seconds), ''].join('\n') + '\n' + resultText(result));
}

// ---------------------------------------------------------------------------------------------
// reproduce

/** A check as `reproduce` prints it in JSON: the CheckResult without its relative deviation. */
type CheckOut = Omit<CheckResult, 'deviation'>;

interface RowOut {
  id: string;
  preset: string;
  target: string;
  simulated: string;
  deviation?: number;
  pass: boolean;
  /** pass, known (fails only on known deviations), fail (a new failure) or unexpected-pass. */
  gate: RowGate;
  checks: CheckOut[];
  /** Known deviations of the failing checks ("check: why"). */
  notes?: string[];
}

const checkOut = ({ deviation: _deviation, ...c }: CheckResult): CheckOut => c;

const GATE_WORD: Record<RowGate, string> = { pass: 'PASS', known: 'KNOWN', fail: 'FAIL', 'unexpected-pass': 'UNEXPECTED PASS' };
const CHECK_WORD: Record<CheckStatus, string> = { pass: 'pass', known: 'fail (known deviation)', fail: 'FAIL', 'unexpected-pass': 'UNEXPECTED PASS' };


/** A (row, preset) as `reproduce` prints it in JSON. */
function rowOut(r: RowResult): RowOut {
  const notes = r.checks.flatMap((c) => (c.note ? [`${c.name}: ${c.note}`] : []));
  return {
    id: r.id,
    preset: r.preset,
    target: r.target,
    simulated: r.simulated,
    ...(r.deviation !== undefined ? { deviation: r.deviation } : {}),
    pass: r.pass,
    gate: rowGate(r),
    checks: r.checks.map(checkOut),
    ...(notes.length ? { notes } : {}),
  };
}

async function reproduceCommand(args: string[], v: Values, format: string, ctx: CliContext): Promise<CliOutput> {
  const override = choosePreset(v, ctx, false);
  const seed = parseSeed(v.seed);
  const jobsWanted = v.jobs === undefined ? DEFAULT_ROW_JOBS : /^\d+$/.test(v.jobs) ? Number(v.jobs) : NaN;
  if (!(jobsWanted >= 1 && jobsWanted <= 64)) throw new CliError(`--jobs must be a whole number from 1 to 64; got "${String(v.jobs)}"`);
  let rows;
  try {
    rows = selectRows(args[0]);
  } catch (e) {
    throw new CliError((e as Error).message);
  }
  if (rows.length === 0) throw new CliError(`no reproduction rows match "${args[0]}" (none are implemented yet)`);
  const progress = statusProgress(ctx, 'reproduce');
  const started = Date.now();
  const out: RowOut[] = [];
  const results: RowResult[] = [];
  const jobs = rowJobs(args[0], override);
  if (jobsWanted > 1 && jobs.length > 1) {
    // Each (row, preset) in the next free simulation process; the rows come back in their order.
    const scorecard = runRowsInParallel(ctx.launcher?.() ?? new ForkLauncher(), jobs, {
      concurrency: jobsWanted,
      seed,
      timeLimitMs: 30 * 60_000,
      onProgress: (done, total, phase) => progress(done, total, phase),
    });
    for (const o of await scorecard.done)
      for (const r of outcomeRows(o)) {
        results.push(r);
        out.push(rowOut(r));
      }
  } else
    rows.forEach((row, i) => {
      progress(i, rows.length, row.id);
      try {
        // Row by row: a row that throws is reported as failed, the others still run.
        for (const r of reproduce(row.id, override, seed)) {
          results.push(r);
          out.push(rowOut(r));
        }
      } catch (err) {
        const presets = override ? [override.id] : row.presets;
        for (const preset of presets) out.push({ id: row.id, preset, target: '', simulated: `error: ${(err as Error).message}`, pass: false, gate: 'fail', checks: [] });
      }
    });
  const seconds = (Date.now() - started) / 1000;
  const passed = out.filter((r) => r.pass).length;
  const failed = out.length - passed;
  const count = (g: RowGate): number => out.filter((r) => r.gate === g).length;
  const gate = { open: out.every((r) => r.gate === 'pass' || r.gate === 'known'), known: count('known'), newFailures: count('fail'), unexpectedPasses: count('unexpected-pass') };
  const totals = kindTotals(results);
  // The gate: a new failure or an unexpected pass fails the command; failures with a known deviation do not.
  const code = gate.open ? EXIT_OK : EXIT_FAILED;
  if (format === 'json') return { code, stdout: JSON.stringify({ rows: out, passed, failed, gate, totals }) + '\n', stderr: '' };
  const lines = out.map((r) =>
    [
      `${GATE_WORD[r.gate]}  ${r.id} on ${r.preset}${r.deviation !== undefined ? `  (largest deviation ${formatNumber(r.deviation * 100)} %)` : ''}`,
      ...(r.checks.length
        ? r.checks.flatMap((c) => [
            `      ${`[${c.kind}]`.padEnd(15)} ${c.name}: ${c.simulated} (paper ${c.target}) ${CHECK_WORD[checkStatus(c)]}`,
            // The band of a relative rule says more than the target; an exact or range rule is the target.
            ...(/^(within|a gain)/.test(c.rule) ? [`          rule: ${c.rule}`] : []),
            ...(c.context ? [`          context: ${c.context}`] : []),
          ])
        : [`      paper:     ${r.target || '-'}`, `      simulated: ${r.simulated}`]),
      ...(r.notes ?? []).map((n) => `      known:     ${n}`),
      ...r.checks.filter((c) => c.unexpectedPass).map((c) => `      unexpected pass: ${c.name} passes but carries a known deviation; remove the note`),
    ].join('\n'),
  );
  const t = (k: CheckKind): string => `${totals[k].passed} of ${totals[k].total}`;
  const summary = [
    `Predicted checks (reproductions): ${t('predicted')} passed.`,
    `Method checks (recovered): ${t('recovered')} passed (an analyser inferred from simulated timings alone what the presets were set to).`,
    `Consistency: calibrated ${t('calibrated')}, specification ${t('specification')} passed (these read back numbers the presets were set from).`,
    `Rows: ${passed} passed, ${failed} failed (${gate.known} only on known deviations, ${gate.newFailures} new failure${gate.newFailures === 1 ? '' : 's'}, ${gate.unexpectedPasses} unexpected pass${gate.unexpectedPasses === 1 ? '' : 'es'}) in ${formatNumber(seconds)} s (seed ${seed}); gate ${gate.open ? 'open' : 'CLOSED'}.`,
  ];
  return { code, stdout: `${lines.join('\n')}\n\n${summary.join('\n')}\n`, stderr: '' };
}

// ---------------------------------------------------------------------------------------------
// help

const COMMANDS: Record<string, Command> = {
  presets: {
    usage: 'presets [--format text|json]',
    summary: 'List the simulated GPUs and their key sizes.',
    options: ['format'],
    formats: ['text', 'json'],
    positionals: [0, 0],
    run: presetsCommand,
  },
  preset: {
    usage: 'preset <id>',
    summary: 'Print one preset in full as JSON (copy it, change the id, edit, use with --preset-file).',
    options: [],
    positionals: [1, 1],
    run: presetCommand,
  },
  experiments: {
    usage: 'experiments [<experiment>] [--format text|json]',
    summary: 'List the experiments and their parameters (name, kind, unit, default, range).',
    options: ['format'],
    formats: ['text', 'json'],
    positionals: [0, 1],
    run: experimentsCommand,
  },
  run: {
    usage: 'run <experiment> (--preset <id> | --preset-file <file.json>) [--param name=value ...] [--seed n] [--format text|json|csv] [--trace-limit n] [--save [--db <file>]]',
    summary: 'Run one experiment headless and print its findings, series and notes; --save stores the run in the database.',
    options: ['format', 'preset', 'preset-file', 'param', 'seed', 'trace-limit', 'save', 'db'],
    formats: ['text', 'json', 'csv'],
    positionals: [1, 1],
    run: runCommand,
  },
  reproduce: {
    usage: 'reproduce <row-id|MEI|WONG|LASH|SL1|all> [--preset <id> | --preset-file <file.json>] [--seed n] [--jobs n] [--format text|json]',
    summary: "Run the papers' reproduction rows and hold them to the published values (exit 1 on a new failure or an unexpected pass); --jobs simulation processes at once (default: one a core, at most 4; 1 runs them in this process).",
    options: ['preset', 'preset-file', 'seed', 'jobs', 'format'],
    formats: ['text', 'json'],
    positionals: [1, 1],
    run: reproduceCommand,
  },
  'runs list': {
    usage: 'runs list [--experiment <id>] [--preset <id>] [--status <s[,s...]>] [--tag <tag>] [--text <words>] [--limit n] [--db <file>] [--format text|json]',
    summary: 'List the saved runs, newest first, filtered by experiment, preset, status, tag or text.',
    options: ['experiment', 'preset', 'status', 'tag', 'text', 'limit', 'db', 'format'],
    formats: ['text', 'json'],
    positionals: [0, 0],
    run: async (_args, v, format, ctx) => (await store()).runsList(v, format, storeContext(ctx)),
  },
  'runs show': {
    usage: 'runs show <run-id> [--db <file>] [--format text|json] [--trace-limit n]',
    summary: 'One saved run: its metadata, parameters and result.',
    options: ['db', 'format', 'trace-limit'],
    formats: ['text', 'json'],
    positionals: [1, 1],
    run: async (args, v, format, ctx) => (await store()).runsShow(args[0], v, format, parseTraceLimit(v), storeContext(ctx)),
  },
  'runs delete': {
    usage: 'runs delete <run-id> [<run-id> ...] [--db <file>] [--format text|json]',
    summary: 'Delete finished runs with their results (all of them or, when one cannot be, none).',
    options: ['db', 'format'],
    formats: ['text', 'json'],
    positionals: [1, Infinity],
    run: async (args, v, format, ctx) => (await store()).runsDelete(args, v, format, storeContext(ctx)),
  },
  'runs export': {
    usage: 'runs export <run-id> [<run-id> ...] (--csv <file> | --pdf <file> [--title <title>] [--evidence] [--raw]) [--db <file>] [--format text|json]',
    summary: 'Write the CSV (one run, or several aligned on x) or the PDF report of saved runs (a handout of about a page a run; --evidence for every chart and the evidence).',
    options: ['csv', 'pdf', 'title', 'evidence', 'raw', 'db', 'format'],
    formats: ['text', 'json'],
    positionals: [1, Infinity],
    run: async (args, v, format, ctx) => (await store()).runsExport(args, v, format, storeContext(ctx)),
  },
  'bundle export': {
    usage: 'bundle export <run-id> [<run-id> ...] --out <file> [--db <file>] [--format text|json]',
    summary: 'Write finished runs with their preset snapshots to one bundle file, for another lab machine.',
    options: ['out', 'db', 'format'],
    formats: ['text', 'json'],
    positionals: [1, Infinity],
    run: async (args, v, format, ctx) => (await store()).bundleExport(args, v, format, storeContext(ctx)),
  },
  'bundle import': {
    usage: 'bundle import <file> [--db <file>] [--format text|json]',
    summary: 'Import a bundle: all of its runs or (when it is malformed or damaged) none.',
    options: ['db', 'format'],
    formats: ['text', 'json'],
    positionals: [1, 1],
    run: async (args, v, format, ctx) => (await store()).bundleImport(args[0], v, format, storeContext(ctx)),
  },
  'db check': {
    usage: 'db check [--db <file>] [--format text|json]',
    summary: "Check the whole database file (SQLite's integrity_check): ok (exit 0), or its problems and what to do (exit 1).",
    options: ['db', 'format'],
    formats: ['text', 'json'],
    positionals: [0, 0],
    run: async (_args, v, format, ctx) => (await store()).dbCheck(v, format, storeContext(ctx)),
  },
  sweep: {
    usage:
      'sweep <plan.json> [--db <file>] [--slurm <dir> [--partition p] [--account a] [--max-parallel M] [--array-max N]] | sweep task <dir>/plan.json --index <i> [--out <dir>/bundles/] | sweep collect <dir> [--db <file>] [--resubmit [--array-max N]] | sweep export <sweep-id> (--pdf <file> [--quantity <key>] [--over <axis>] [--by <axis>|none] [--chart lines|heatmap] [--title <title>] | --csv <file>) [--db <file>]',
    summary: 'Run a sweep plan on this machine (resumable), or write it as a Slurm job array, run one of its tasks, collect its bundles; export a sweep as a PDF report or CSV (docs/SWEEPS.md).',
    options: ['db', 'format', 'slurm', 'partition', 'account', 'max-parallel', 'array-max', 'index', 'out', 'resubmit', 'pdf', 'csv', 'title', 'quantity', 'over', 'by', 'chart'],
    formats: ['text', 'json'],
    positionals: [1, 2],
    run: async (args, v, format, ctx) =>
      (await import('./sweep')).sweepCommand(
        args,
        {
          db: v.db,
          slurm: v.slurm,
          partition: v.partition,
          account: v.account,
          maxParallel: v['max-parallel'],
          arrayMax: v['array-max'],
          index: v.index,
          out: v.out,
          resubmit: v.resubmit,
          csv: v.csv,
          pdf: v.pdf,
          title: v.title,
          quantity: v.quantity,
          over: v.over,
          by: v.by,
          chart: v.chart,
        },
        format,
        storeContext(ctx),
      ),
  },
  'gpu emit': {
    usage: 'gpu emit <pchase-average|pchase-fine|shared-bank-stride> [--param name=value ...] --out <dir> [--arch native|sm_XX] [--format text|json]',
    summary: 'Write the CUDA program of an experiment for a real NVIDIA GPU, and build.sh with its one-line nvcc command.',
    options: ['param', 'out', 'arch', 'format'],
    formats: ['text', 'json'],
    positionals: [1, 1],
    run: async (args, v, format, ctx) => (await gpu()).gpuEmit(args[0], v, format, gpuContext(ctx)),
  },
  'gpu import': {
    usage: 'gpu import <file.jsonl|characterisation.json> [--level-gap cycles] [--format text|json] [--save [--db <file>] [--title <title>]]',
    summary:
      "Read a real GPU program's JSON-lines output and print the findings of the experiment's analysers; --save stores it as a run with its measured device. A characterisation.json of gpu characterise is replayed through the analysers (its summary printed; --save stores it as a characterisation).",
    options: ['level-gap', 'format', 'save', 'db', 'title'],
    formats: ['text', 'json'],
    positionals: [1, 1],
    run: async (args, v, format, ctx) => {
      if (!v.save && (v.db !== undefined || v.title !== undefined)) throw new CliError('--db and --title apply to gpu import only with --save');
      if (!v.save && (await import('./gpu-characterise')).looksLikeCharacterisation(args[0]))
        return (await import('./gpu-characterise')).gpuImportCharacterisation(args[0], format, gpuContext(ctx));
      return v.save ? (await import('./gpu-save')).gpuImportSave(args[0], v, format, storeContext(ctx)) : (await gpu()).gpuImport(args[0], v, format, gpuContext(ctx));
    },
  },
  'gpu run': {
    usage: 'gpu run <pchase-average|pchase-fine|shared-bank-stride> [--param name=value ...] [--arch native|sm_XX] [--timeout s] [--level-gap cycles] [--format text|json] [--save [--db <file>] [--title <title>]]',
    summary: 'Build the CUDA program with nvcc, run it on this machine\'s GPU under a time limit and import its output; --save stores it as a run.',
    options: ['param', 'arch', 'timeout', 'level-gap', 'format', 'save', 'db', 'title'],
    formats: ['text', 'json'],
    positionals: [1, 1],
    run: async (args, v, format, ctx) => {
      if (!v.save && (v.db !== undefined || v.title !== undefined)) throw new CliError('--db and --title apply to gpu run only with --save');
      const save = v.save ? (await import('./gpu-save')).saveGpuText : null;
      return (await gpu()).gpuRun(args[0], v, format, { ...gpuContext(ctx), ...(save ? { save: (text: string, source: string) => save(text, source, Date.now(), v, format, storeContext(ctx)) } : {}) });
    },
  },
  'gpu characterise': {
    usage: 'gpu characterise [--arch native|sm_XX] [--probe-timeout s] [--out <dir>] [--format text|json] [--save [--db <file>]]',
    summary:
      "Probe this machine's GPU as a researcher would, each probe's range chosen from the last reading: L1 hit (index and pointer chase), size and line, the L1 beside each carveout, fill units, L2 partitions and size, the L1 TLB at 2 MB to 1 GB strides, shared memory; one summary; --out keeps each probe's output and characterisation.json; --save stores it as a characterisation.",
    options: ['arch', 'probe-timeout', 'out', 'format', 'save', 'db'],
    formats: ['text', 'json'],
    positionals: [0, 0],
    run: async (_args, v, format, ctx) => {
      if (!v.save && v.db !== undefined) throw new CliError('--db applies to gpu characterise only with --save');
      const save = v.save ? (await import('./gpu-save')).saveCharacterisationFile : null;
      return (await import('./gpu-characterise')).gpuCharacterise(v, format, gpuContext(ctx), undefined, save ? (file) => save(file, 'gpu characterise', v, format, storeContext(ctx)) : undefined);
    },
  },
  'gpu preset': {
    usage: 'gpu preset <runId> --name <name> [--base <preset>] [--db <file>] [--format text|json]',
    summary: "Make a custom preset from a saved real run: the closest preset (or --base) with the numbers the run's findings give, each with where it was measured.",
    options: ['name', 'base', 'db', 'format'],
    formats: ['text', 'json'],
    positionals: [1, 1],
    run: async (args, v, format, ctx) => (await import('./gpu-save')).gpuPreset(args[0], v, format, storeContext(ctx)),
  },
  help: {
    usage: 'help [<command>]',
    summary: 'Show this help, or the help of one command.',
    options: [],
    positionals: [0, 2],
    run: (args) => ok(helpText(args.length ? commandKey(args) : undefined)),
  },
};

/** Each command with the options and the number of arguments it takes (help and the API fuzz test read it). */
export function commandTable(): { name: string; options: readonly string[]; positionals: readonly [number, number] }[] {
  return Object.entries(COMMANDS).map(([name, c]) => ({ name, options: c.options, positionals: c.positionals }));
}

const OPTION_HELP: Record<string, string> = {
  format: '-f, --format <f>      output format (text is the default)',
  preset: '-p, --preset <id>     a built-in preset (gpulab presets), or the id of a custom preset saved in the database (--db or the default one)',
  'preset-file': '    --preset-file <f> a custom preset: JSON checked by the preset validator',
  param: '-P, --param n=v       an experiment parameter; repeat for more (gpulab experiments <id>)',
  seed: '-s, --seed <n>        seed of the run, 0 to 4294967295 (default 1): same seed, same result',
  jobs: '-j, --jobs <n>        reproduce: simulation processes at once, 1 to 64 (default one a core, at most 4; 1: in this process)',
  'trace-limit': `    --trace-limit <n> trace entries kept in --format json (default ${DEFAULT_TRACE_LIMIT}; the rest are counted in "dropped")`,
  save: '    --save            run in a simulation process and store the run in the database; prints its id',
  db: `    --db <file>       the database (default: ${defaultDbPath()})`,
  experiment: '    --experiment <id> only runs of this experiment',
  status: '    --status <s,...>  only runs in these states: queued, running, done, failed, cancelled, interrupted',
  tag: '    --tag <tag>       only runs with this tag',
  text: '    --text <words>    only runs whose title, notes or experiment id contain this (any case)',
  limit: '    --limit <n>       at most this many runs (default 50, newest first)',
  csv: '    --csv <file>      write CSV to this file',
  pdf: '    --pdf <file>      write the PDF report to this file',
  title: '    --title <title>   the PDF report\'s title; gpu import/run --save: the run\'s title',
  raw: '    --raw             the PDF report: append the runs\' result tables and the paper values no finding matched',
  evidence: '    --evidence        the PDF report in full: every chart, every finding with its evidence, the notes (default: a handout of about a page a run)',
  out: '    --out <path>      bundle export: the bundle file; gpu emit: the folder for the program; gpu characterise: the folder for its outputs',
  'probe-timeout': '    --probe-timeout <s> gpu characterise: the time limit of each probe, seconds (default 300)',
  arch: '    --arch <a>        nvcc -arch: native (the GPU of this machine, nvcc 11.5+) or sm_XX, e.g. sm_90 (default: native)',
  name: '    --name <name>     gpu preset: the new custom preset\'s name',
  base: '    --base <id>       gpu preset: the preset to clone (default: the closest built-in one)',
  timeout: '    --timeout <s>     time limit of the GPU program, seconds (default 600)',
  slurm: '    --slurm <dir>     sweep: write the plan and a Slurm job-array script (a task per point) into this folder',
  partition: '    --partition <p>   sweep --slurm: the Slurm partition',
  account: '    --account <a>     sweep --slurm: the Slurm account',
  'max-parallel': '    --max-parallel <M> sweep --slurm: at most M tasks at once (--array=0-N%M)',
  'array-max': "    --array-max <N>   sweep --slurm, collect --resubmit: at most N tasks a job array, more points in several (a cluster's MaxArraySize or less; default $GPULAB_ARRAY_MAX, else 1000)",
  index: '    --index <i>       sweep task: the point to run (default $SLURM_ARRAY_TASK_ID)',
  resubmit: '    --resubmit        sweep collect: write resubmit.sh (and resubmit.sbatch for one job array) for the points missing or failed',
  quantity: '    --quantity <key>  sweep export --pdf: the quantity of the chart and table (a finding key or mean:<series>; default the first with a number)',
  over: '    --over <axis>     sweep export --pdf: the chart\'s x axis (an axis name, or preset; default the first axis)',
  by: '    --by <axis>       sweep export --pdf: a line per value of this axis, the heatmap\'s second axis; none: one line',
  chart: '    --chart <kind>    sweep export --pdf: lines (default) or heatmap',
  'level-gap': '    --level-gap <c>   fine-grained traces: latencies further apart than this many cycles are separate levels (default 64; TLB reach sweeps: 10 x the measured noise, 8 to 64)',
};

/** The command a help request or a command line names: "runs list", "run", or a group ("runs"). */
function commandKey(words: string[]): string {
  const [first, second] = words;
  return (GROUPS as readonly string[]).includes(first) && second !== undefined ? `${first} ${second}` : first;
}

function groupHelp(group: string): string {
  const subs = Object.entries(COMMANDS).filter(([k]) => k.startsWith(`${group} `));
  return [`Usage: gpulab ${group} <${subs.map(([k]) => k.split(' ')[1]).join('|')}> ...`, '', ...subs.map(([, c]) => `  gpulab ${c.usage}\n      ${c.summary}`)].join('\n') + '\n';
}

function unknownCommand(name: string): CliError {
  const names = [...new Set(Object.keys(COMMANDS).map((k) => k.split(' ')[0]))];
  return new CliError(`unknown command "${name}"; commands: ${names.join(', ')} (gpulab help)`);
}

function helpText(command?: string): string {
  if (command !== undefined) {
    if ((GROUPS as readonly string[]).includes(command)) return groupHelp(command);
    const c = COMMANDS[command];
    if (!c) throw unknownCommand(command);
    const opts = c.options.map((o) => `  ${OPTION_HELP[o]}`);
    return [`Usage: gpulab ${c.usage}`, '', c.summary, ...(opts.length ? ['', 'Options:', ...opts] : [])].join('\n') + '\n';
  }
  const width = Math.max(...Object.keys(COMMANDS).map((k) => k.length));
  return [
    'gpulab: the GPU Memory Lab command line (simulated Tesla, Fermi, Kepler and Titan memory hierarchies).',
    '',
    'Usage: gpulab <command> [options]',
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(([k, c]) => `  ${k.padEnd(width)}  ${c.summary}`),
    '',
    'Examples:',
    '  gpulab presets',
    '  gpulab experiments pchase-average',
    '  gpulab run pchase-average --preset fermi --param strides=128 --param sizeTo=24KB',
    '  gpulab run pchase-average --preset kepler --format csv > curve.csv',
    '  gpulab run pchase-average --preset fermi --seed 7 --save',
    '  gpulab runs list --experiment pchase-average --status done',
    '  gpulab runs export <run-id> <run-id> --pdf report.pdf',
    '  gpulab sweep export <sweep-id> --pdf sweep.pdf --chart heatmap',
    '  gpulab bundle export <run-id> --out runs.gmlbundle',
    '  gpulab db check',
    '  gpulab reproduce all',
    '  gpulab gpu emit pchase-average --param strides=32,128 --param sizeTo=384KB --out ./prog',
    '',
    `The database commands use --db <file>, by default the desktop app's: ${defaultDbPath()}`,
    'Exit codes: 0 success, 1 a reproduction row or a saved run failed, 2 bad input (one line on stderr, nothing on stdout).',
    'gpulab help <command> shows the options of one command; gpulab --version the versions.',
  ].join('\n') + '\n';
}

// ---------------------------------------------------------------------------------------------

function dispatch(argv: string[], ctx: CliContext): CliOutput | Promise<CliOutput> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const unknown = /^Unknown option '([^']+)'/.exec(err.message);
    if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown) throw new CliError(`unknown option ${unknown[1]} (gpulab help)`);
    const hint = /ambiguous/.test(err.message) ? ' (a value that starts with "-" is written --option=value)' : '';
    throw new CliError(err.message.split('\n')[0] + hint);
  }
  const { values, positionals } = parsed;
  if (values.version) return ok(`gpulab ${ctx.version} (simulator ${SIM_VERSION})\n`);
  if (positionals.length === 0) return ok(helpText());
  const name = commandKey(positionals);
  const args = positionals.slice(name.split(' ').length);
  if ((GROUPS as readonly string[]).includes(name)) {
    if (values.help) return ok(groupHelp(name));
    throw new CliError(`"${name}" needs a subcommand: ${groupHelp(name).split('\n')[0].replace('Usage: ', '')}`);
  }
  const command = COMMANDS[name];
  if (!command) {
    if ((GROUPS as readonly string[]).includes(positionals[0])) throw new CliError(`unknown subcommand "${name}"; ${groupHelp(positionals[0]).split('\n')[0].replace('Usage: ', 'usage: ')}`);
    throw unknownCommand(name);
  }
  if (values.help) return ok(helpText(name));
  for (const key of Object.keys(values) as OptionName[]) {
    if (key !== 'help' && !command.options.includes(key)) throw new CliError(`option --${key} does not apply to "${name}" (gpulab help ${name})`);
  }
  const [min, max] = command.positionals;
  if (args.length < min) throw new CliError(`missing argument: gpulab ${command.usage}`);
  if (args.length > max) throw new CliError(`unexpected argument "${args[max]}": gpulab ${command.usage}`);
  const formats = command.formats ?? ['text'];
  const format = values.format ?? formats[0];
  if (!formats.includes(format)) throw new CliError(`--format must be one of: ${formats.join(', ')}; got "${format}"`);
  return command.run(args, values, format, ctx);
}

const FILE_ERRORS: Record<string, string> = {
  ENOENT: 'no such file or folder',
  EEXIST: 'something is already there (a file where a folder is needed, or the other way round)',
  ENOTDIR: 'a part of the path is not a folder',
  EISDIR: 'it is a folder',
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  ENAMETOOLONG: 'the name is too long',
  ELOOP: 'too many symbolic links',
  EMFILE: 'too many open files',
};

/** An error of the file system (writing an output, making a folder), in words; null for any other error. */
function fileProblem(e: unknown): string | null {
  if (!(e instanceof Error)) return null;
  const { code, path, syscall } = e as NodeJS.ErrnoException;
  if (typeof code !== 'string' || typeof path !== 'string' || !/^E[A-Z]+$/.test(code)) return null;
  const verb = syscall === 'mkdir' ? 'cannot make the folder' : syscall === 'open' || syscall === 'read' || syscall === 'stat' || syscall === 'lstat' ? 'cannot open' : 'cannot write';
  return `${verb} "${path}": ${FILE_ERRORS[code] ?? code} (${code})`;
}

function failure(e: unknown): CliOutput {
  const file = fileProblem(e);
  if (file) return { code: EXIT_FAILED, stdout: '', stderr: `gpulab: error: ${file}\n` };
  const usage = e instanceof CliError || e instanceof ExperimentError || (e instanceof LabError && USER_ERRORS.includes(e.code));
  const message = (e instanceof Error ? e.message : String(e)).replace(/\s*\n\s*/g, '; ');
  const kind = usage ? 'error' : e instanceof LabError ? 'error' : 'internal error';
  return { code: usage ? EXIT_USAGE : EXIT_FAILED, stdout: '', stderr: `gpulab: ${kind}: ${message}\n` };
}

/**
 * Runs one command line. Never rejects: bad input becomes exit code 2 and one line on stderr, a
 * failure of the database or of a saved run exit code 1.
 */
export async function runCli(argv: string[], ctx: CliContext): Promise<CliOutput> {
  try {
    return await dispatch(argv, ctx);
  } catch (e) {
    return failure(e);
  }
}
