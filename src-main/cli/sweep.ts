/**
 * `gpulab sweep`: a sweep plan (src-main/sweep-plan.ts) run on this machine's pool, or handed to
 * Slurm as a job array and collected back as bundles.
 *
 * - `sweep plan.json`: records the sweep (or takes up the one of the same plan) and runs every
 *   point without a done run on the local pool, with a progress bar on a terminal's stderr.
 * - `sweep plan.json --slurm <dir>`: writes <dir>/plan.json (with the sweep's id), <dir>/sweep.sbatch
 *   (a job array, a task per point; time and memory per task from the plan's estimate), <dir>/submit.sh
 *   (the sbatch calls: one array, or several of at most --array-max tasks, each with its offset) and
 *   the custom presets it uses (<dir>/presets/); nothing of this machine (no absolute paths).
 * - `sweep task <dir>/plan.json --index i --out <dir>/bundles/`: runs point i in a simulation
 *   process on a database of its own (a temporary folder) and writes the run as one bundle,
 *   `point-<i>.gmlbundle`, under a temporary name first, then renamed: a reader never sees half.
 * - `sweep collect <dir>`: imports every bundle into the sweep (runs already here are skipped, so
 *   it can run again, also while the array still runs), lists the missing and failed points;
 *   `--resubmit` writes <dir>/resubmit.sh for just those (and resubmit.sbatch when one array from
 *   offset 0 runs them).
 * - `sweep export <sweep-id> --pdf <file>` (or `--csv <file>`): the sweep's PDF report (plan,
 *   progress, a chart of one quantity, a row per point) or its CSV, as `sweeps.pdf` and `sweeps.csv`.
 */
import { randomUUID } from 'node:crypto';
import { readRegularFile } from '../services/safe-read';
import { jsonErrorWhere } from '../../src-sim/json-error';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { EXPERIMENTS } from '../../src-sim/experiments';
import { MAX_TRACE } from '../../src-sim/experiments/types';
import { findPreset } from '../../src-sim/presets';
import { presetStateBytes } from '../../src-sim/presets/validate';
import { LabError, LIMITS, parseArgs } from '../contract';
import type { SweepPlan } from '../sweep-plan';
import { expandPlan, parsePlan, pointLabel, SWEEP_LIMITS } from '../sweep-plan';
import { bundlePoint, compactList, pointBundleName as bundleName } from '../shared/sweep-folder';
import { LabService } from '../services/lab';
import { RunStore } from '../services/store';
import type { CollectState, CollectTally } from '../services/sweep';
import {
  ARRAY_MAX_LIMIT,
  arrayParts,
  DEFAULT_ARRAY_MAX,
  pointsToResubmit,
  resubmitScripts,
  saveMissingPresets,
  scriptArrayMax,
  slurmScript,
  submitScript,
  SweepCollector,
  SweepRefusal,
  SweepService,
} from '../services/sweep';
import { textTable } from './format';
import type { StoreCliOutput, StoreContext } from './store';
import { dbPath, openExisting, withStore, writeOut } from './store';

export interface SweepOptions {
  db?: string;
  slurm?: string;
  partition?: string;
  account?: string;
  maxParallel?: string;
  /** sweep --slurm, collect --resubmit: the most tasks of one job array (a site's MaxArraySize or less). */
  arrayMax?: string;
  index?: string;
  out?: string;
  resubmit?: boolean;
  /** sweep export: where the CSV or the PDF goes (one of them). */
  csv?: string;
  pdf?: string;
  /** sweep export --pdf: the report's title, and the chart's quantity, axes and kind. */
  title?: string;
  quantity?: string;
  over?: string;
  by?: string;
  chart?: string;
}

/** Where nothing has measured an experiment's speed yet: a cautious guess (ms per unit of work). */
export const FALLBACK_MS_PER_WORK = 0.01;
/** A simulation process, the bundle writer and Node itself, before the preset's state and the trace. */
const BASE_MEMORY_BYTES = 768 * 1024 * 1024;
/** Bytes per recorded trace access, counted three times (worker, main process, bundle). */
const TRACE_BYTES = 48 * 3;

const json = (value: unknown): string => JSON.stringify(value, null, 2) + '\n';
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The most a sweep.sbatch may hold (the one gpulab writes is a few KB). */
const SBATCH_BYTES = 1024 * 1024;

function readPlan(path: string, ctx: StoreContext): SweepPlan {
  let text: string;
  try {
    text = new TextDecoder().decode(readRegularFile(path, SWEEP_LIMITS.planBytes));
  } catch (err) {
    throw ctx.usage(`cannot read the plan ${path}: ${(err as Error).message}`);
  }
  try {
    return parsePlan(text);
  } catch (err) {
    throw ctx.usage(`${path}: ${(err as Error).message}`);
  }
}

function bar(done: number, total: number, width = 30): string {
  const filled = total > 0 ? Math.round((width * done) / total) : width;
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
}

function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? `${h}h${String(m).padStart(2, '0')}m` : m ? `${m}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

/** Saves the plan's custom presets (from <dir>/presets/<id>.json) into a task's own database. */
function loadPresets(store: RunStore, planDir: string, plan: SweepPlan): void {
  for (const id of plan.presets) {
    if (findPreset(id)) continue;
    const file = join(planDir, 'presets', `${id}.json`);
    if (!existsSync(file)) continue;
    // A file the folder holds: a regular file of a preset's size only, read without following links.
    let text: string;
    try {
      text = new TextDecoder().decode(readRegularFile(file, LIMITS.presetJsonBytes));
    } catch (err) {
      throw new LabError('invalid-preset', `cannot read ${file}: ${(err as Error).message}`);
    }
    let value: unknown;
    try {
      value = JSON.parse(text) as unknown;
    } catch (err) {
      throw new LabError('invalid-preset', `${file} is not JSON: ${jsonErrorWhere(err)}`);
    }
    store.saveCustomPreset(value);
  }
}

// ---------------------------------------------------------------------------------------------
// Local

export async function sweepLocal(planPath: string, v: SweepOptions, format: string, ctx: StoreContext): Promise<StoreCliOutput> {
  const plan = readPlan(planPath, ctx);
  const lab = new LabService({ dbPath: dbPath(v.db, ctx), appVersion: ctx.version, recoverInterrupted: false, log: () => {} });
  const stop = () => void lab.close();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    let started;
    try {
      started = lab.sweeps.startWithRuns(plan, true);
    } catch (err) {
      throw err instanceof Error && /^sweeps\.start: /.test(err.message) ? ctx.usage(err.message.replace(/^sweeps\.start: /, '')) : err;
    }
    const total = started.runs.length;
    const t0 = Date.now();
    let finished = 0;
    let failed = 0;
    const draw = () => {
      if (!ctx.status) return;
      const elapsed = (Date.now() - t0) / 1000;
      const eta = finished > 0 && finished < total ? ` eta ${clock((elapsed / finished) * (total - finished))}` : '';
      ctx.status(`sweep ${bar(finished, total)} ${finished}/${total}${failed ? ` (${failed} failed)` : ''} ${clock(elapsed)}${eta}`);
    };
    draw();
    const timer = setInterval(draw, 500);
    try {
      await Promise.all(
        started.runs.map(async ({ runId }) => {
          const end = await lab.finished(runId);
          finished++;
          if (end.status !== 'done') failed++;
          draw();
        }),
      );
    } finally {
      clearInterval(timer);
    }
    const detail = lab.sweeps.get(started.sweepId);
    const bad = detail.points.filter((p) => p.status !== 'done');
    const out = {
      sweepId: started.sweepId,
      name: detail.name,
      points: detail.points.length,
      ran: total,
      alreadyDone: started.skipped,
      resumed: started.resumed,
      counts: detail.counts,
      notDone: bad.map((p) => ({ point: p.index, preset: p.preset, values: p.values, status: p.status, error: p.error })),
    };
    const stdout =
      format === 'json'
        ? json(out)
        : [
            `Sweep ${detail.name} (${started.sweepId})${started.resumed ? ', resumed' : ''}`,
            `${plural(detail.points.length, 'point')}: ran ${total} now, ${started.skipped} already done or running; done ${detail.counts.done}, failed ${detail.counts.failed + detail.counts.cancelled + detail.counts.interrupted}`,
            ...(bad.length ? ['', textTable(['point', 'preset', 'values', 'status', 'reason'], bad.slice(0, 50).map((p) => [String(p.index), p.preset, pointLabel(p), p.status, (p.error ?? '').slice(0, 80)]))] : []),
            '',
          ].join('\n');
    return { code: bad.length ? 1 : 0, stdout, stderr: '' };
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await lab.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Slurm

const safeWord = (s: string, what: string, ctx: StoreContext): string => {
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(s)) throw ctx.usage(`${what} must be letters, digits, "_", "." or "-" (got "${s.slice(0, 40)}")`);
  return s;
};

interface TaskBudget {
  timeMinutes: number;
  memoryMb: number;
  note: string;
}

/** Time and memory of one task: the longest point's estimated time (x3, plus start-up), and the largest preset state and trace. */
function taskBudget(lab: LabService, plan: SweepPlan): TaskBudget {
  const check = lab.sweeps.check(plan);
  if (!check.ok) throw new SweepRefusal(check.point, check.preset, check.param, check.message);
  const resolved = lab.sweeps.resolve(plan);
  const longestWork = resolved.reduce((a, r) => Math.max(a, r.estimate), 0);
  const measured = check.longestSeconds;
  const seconds = measured ?? (longestWork * FALLBACK_MS_PER_WORK) / 1000;
  const timeMinutes = Math.max(5, Math.ceil((3 * seconds + 120) / 60));
  const bytes = resolved.reduce((a, r) => Math.max(a, BASE_MEMORY_BYTES + presetStateBytes(r.preset) + Math.min(r.estimate, MAX_TRACE) * TRACE_BYTES), 0);
  const memoryMb = Math.ceil(bytes / (256 * 1024 * 1024)) * 256;
  const note =
    measured === null
      ? `Time per task: a guess (${FALLBACK_MS_PER_WORK} ms per unit of work; no finished ${plan.experiment} runs in the database): run a few points locally first for a measured one.`
      : `Time per task: three times the longest point's estimate (${Math.round(seconds)} s, from this machine's finished ${plan.experiment} runs) plus 2 min.`;
  return { timeMinutes, memoryMb, note };
}

function parseMaxParallel(v: SweepOptions, ctx: StoreContext): number | undefined {
  if (v.maxParallel === undefined) return undefined;
  const n = Number(v.maxParallel);
  if (!/^\d+$/.test(v.maxParallel) || n < 1 || n > 100_000) throw ctx.usage(`--max-parallel must be a whole number from 1 to 100000; got "${v.maxParallel}"`);
  return n;
}

/**
 * The most tasks of one job array: --array-max, else the GPULAB_ARRAY_MAX environment variable (a
 * site's setting), else `fallback`.
 */
function parseArrayMax(v: SweepOptions, ctx: StoreContext, fallback = DEFAULT_ARRAY_MAX): number {
  const env = process.env.GPULAB_ARRAY_MAX;
  const [text, what] = v.arrayMax !== undefined ? [v.arrayMax, '--array-max'] : env !== undefined && env !== '' ? [env, 'GPULAB_ARRAY_MAX'] : [undefined, ''];
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > ARRAY_MAX_LIMIT) throw ctx.usage(`${what} must be a whole number from 1 to ${ARRAY_MAX_LIMIT} (a cluster's MaxArraySize or less); got "${text.slice(0, 40)}"`);
  return n;
}

/** A lab for planning: the given (or default) database when it exists, for its custom presets and measured speeds; else a temporary one. */
function planningLab(v: SweepOptions, ctx: StoreContext): { lab: LabService; cleanup: () => Promise<void> } {
  const file = dbPath(v.db, ctx);
  if (existsSync(file)) {
    const lab = new LabService({ dbPath: file, appVersion: ctx.version, recoverInterrupted: false, poolSize: 1, log: () => {} });
    return { lab, cleanup: () => lab.close() };
  }
  const tmp = mkdtempSync(join(tmpdir(), 'gpulab-plan-'));
  const lab = new LabService({ dbPath: join(tmp, 'lab.db'), appVersion: ctx.version, recoverInterrupted: false, poolSize: 1, log: () => {} });
  return { lab, cleanup: async () => (await lab.close(), rmSync(tmp, { recursive: true, force: true })) };
}

export async function sweepSlurm(planPath: string, v: SweepOptions, format: string, ctx: StoreContext): Promise<StoreCliOutput> {
  const plan = readPlan(planPath, ctx);
  const dir = resolve(v.slurm!);
  const maxParallel = parseMaxParallel(v, ctx);
  const arrayMax = parseArrayMax(v, ctx);
  const partition = v.partition === undefined ? undefined : safeWord(v.partition, '--partition', ctx);
  const account = v.account === undefined ? undefined : safeWord(v.account, '--account', ctx);
  if (existsSync(join(dir, 'plan.json'))) throw ctx.usage(`${dir} already holds a sweep (plan.json); collect it, or choose another folder`);
  const { lab, cleanup } = planningLab(v, ctx);
  try {
    let budget: TaskBudget;
    try {
      budget = taskBudget(lab, plan);
    } catch (err) {
      if (err instanceof SweepRefusal) throw ctx.usage(err.message);
      throw err;
    }
    const stored: SweepPlan = { ...plan, id: plan.id ?? randomUUID() };
    const points = expandPlan(stored).length;
    mkdirSync(join(dir, 'bundles'), { recursive: true });
    mkdirSync(join(dir, 'logs'), { recursive: true });
    const custom = plan.presets.filter((id) => !findPreset(id));
    if (custom.length) {
      mkdirSync(join(dir, 'presets'), { recursive: true });
      for (const id of custom) writeFileSync(join(dir, 'presets', `${id}.json`), json(lab.store.getPreset(id).preset));
    }
    writeFileSync(join(dir, 'plan.json'), json(stored));
    const name = `gpulab-${stored.id!.slice(0, 8)}`;
    const parts = arrayParts(
      Array.from({ length: points }, (_, i) => i),
      arrayMax,
    );
    const script = slurmScript({ name, array: parts[0]!.array, arrayMax, ...(maxParallel ? { maxParallel } : {}), ...(partition ? { partition } : {}), ...(account ? { account } : {}), ...budget });
    writeFileSync(join(dir, 'sweep.sbatch'), script, { mode: 0o755 });
    writeFileSync(join(dir, 'submit.sh'), submitScript(parts, { script: 'sweep.sbatch', arrayMax, ...(maxParallel ? { maxParallel } : {}), what: 'the sweep' }), { mode: 0o755 });
    const out = {
      sweepId: stored.id,
      dir,
      points,
      script: join(dir, 'sweep.sbatch'),
      submit: join(dir, 'submit.sh'),
      arrayMax,
      arrays: parts.map(({ offset, array }) => ({ offset, array })),
      timeMinutes: budget.timeMinutes,
      memoryMb: budget.memoryMb,
    };
    const stdout =
      format === 'json'
        ? json(out)
        : [
            parts.length === 1
              ? `Wrote ${join(dir, 'sweep.sbatch')}: a job array of ${plural(points, 'task')} (${budget.timeMinutes} min, ${budget.memoryMb} MB each), submit.sh, plan.json${custom.length ? ` and ${plural(custom.length, 'custom preset')}` : ''}.`
              : `Wrote ${join(dir, 'sweep.sbatch')} and submit.sh: ${plural(points, 'task')} (${budget.timeMinutes} min, ${budget.memoryMb} MB each) as ${parts.length} job arrays of at most ${arrayMax} (Slurm's MaxArraySize; --array-max to match a cluster's), plan.json${custom.length ? ` and ${plural(custom.length, 'custom preset')}` : ''}.`,
            parts.length === 1 ? `Submit: cd ${dir} && sbatch sweep.sbatch (or bash submit.sh)` : `Submit: bash ${join(dir, 'submit.sh')}`,
            `Collect: gpulab sweep collect ${dir} (again at any time; --resubmit for the points missing or failed)`,
            '',
          ].join('\n');
    return { code: 0, stdout, stderr: '' };
  } finally {
    await cleanup();
  }
}

// ---------------------------------------------------------------------------------------------
// One task of the array

export async function sweepTask(planPath: string, v: SweepOptions, format: string, ctx: StoreContext): Promise<StoreCliOutput> {
  const plan = readPlan(planPath, ctx);
  if (!plan.id) throw ctx.usage(`${planPath} has no sweep id: write it with gpulab sweep <plan> --slurm <dir>`);
  const indexText = v.index ?? process.env.SLURM_ARRAY_TASK_ID;
  const points = expandPlan(plan).length;
  const index = Number(indexText);
  if (indexText === undefined || !/^\d+$/.test(indexText) || index >= points) throw ctx.usage(`--index must be a point of the plan, 0 to ${points - 1}; got "${indexText ?? ''}"`);
  const outDir = resolve(v.out ?? join(dirname(planPath), 'bundles'));
  mkdirSync(outDir, { recursive: true });
  const tmp = mkdtempSync(join(tmpdir(), 'gpulab-task-'));
  const lab = new LabService({ dbPath: join(tmp, 'lab.db'), appVersion: ctx.version, recoverInterrupted: false, poolSize: 1, log: () => {} });
  try {
    loadPresets(lab.store, dirname(resolve(planPath)), plan);
    let resolved;
    try {
      resolved = lab.sweeps.resolve(plan, new Set([index]));
    } catch (err) {
      if (err instanceof SweepRefusal) throw ctx.usage(err.message);
      throw err;
    }
    const sweepId = lab.sweeps.ensureSweep(plan);
    const { runId } = lab.sweeps.queuePoints(sweepId, resolved)[0]!;
    const end = await lab.finished(runId);
    const file = await lab.store.exportBundle([runId]);
    const target = join(outDir, bundleName(index));
    const temporary = join(outDir, `.${bundleName(index)}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`);
    writeFileSync(temporary, file.bytes);
    renameSync(temporary, target);
    const out = { point: index, runId, status: end.status, error: end.error, bundle: target };
    const stdout = format === 'json' ? json(out) : `point ${index}: ${end.status}${end.error ? ` (${end.error})` : ''}; wrote ${target}\n`;
    return { code: end.status === 'done' ? 0 : 1, stdout, stderr: '' };
  } finally {
    await lab.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Collect

export interface CollectReport extends CollectTally, CollectState {
  sweepId: string;
  points: number;
  /** resubmit.sh (with --resubmit, when some point is missing or failed): it submits resubmitArrays. */
  resubmit: string | null;
  /** The job arrays of sweep.sbatch that run those points: a point is offset + a task id of the array. */
  resubmitArrays: { offset: number; array: string }[];
}

export async function sweepCollect(dirArg: string, v: SweepOptions, format: string, ctx: StoreContext): Promise<StoreCliOutput> {
  const dir = resolve(dirArg);
  const plan = readPlan(join(dir, 'plan.json'), ctx);
  if (!plan.id) throw ctx.usage(`${join(dir, 'plan.json')} has no sweep id: it was not written by gpulab sweep --slurm`);
  const maxParallel = parseMaxParallel(v, ctx);
  const scriptFile = join(dir, 'sweep.sbatch');
  let script = '';
  if (v.resubmit)
    try {
      script = new TextDecoder().decode(readRegularFile(scriptFile, SBATCH_BYTES));
    } catch (err) {
      throw ctx.usage(`cannot read ${scriptFile} (--resubmit rewrites it): ${(err as Error).message.replace(/^cannot read it: /, '')}`);
    }
  const arrayMax = parseArrayMax(v, ctx, scriptArrayMax(script) ?? DEFAULT_ARRAY_MAX);
  const file = dbPath(v.db, ctx);
  mkdirSync(dirname(file), { recursive: true });
  const store = RunStore.open(file, { appVersion: ctx.version, recoverInterrupted: false });
  try {
    saveMissingPresets(store, plan, (id) => {
      const preset = join(dir, 'presets', `${id}.json`);
      return existsSync(preset) ? (JSON.parse(new TextDecoder().decode(readRegularFile(preset, LIMITS.presetJsonBytes))) as unknown) : undefined;
    });
    const sweeps = new SweepService({ store, experiments: EXPERIMENTS });
    const collector = new SweepCollector(store, sweeps, plan, EXPERIMENTS);
    const sweepId = collector.sweepId;
    const bundleDir = v.out === undefined ? join(dir, 'bundles') : resolve(v.out);
    const names = existsSync(bundleDir) ? readdirSync(bundleDir).filter((n) => bundlePoint(n) !== null).sort() : [];
    // Each bundle a regular file of at most a bundle's size: never a link, a pipe or a device the folder holds.
    for (const name of names) await collector.add(name, () => readRegularFile(join(bundleDir, name), LIMITS.bundleBytes));
    const points = collector.points.length;
    const state = collector.state();
    const report: CollectReport = { sweepId, points, ...collector.tally, ...state, resubmit: null, resubmitArrays: [] };
    const again = pointsToResubmit(state);
    if (v.resubmit && again.length) {
      let r;
      try {
        r = resubmitScripts(again, script, { arrayMax, ...(maxParallel ? { maxParallel } : {}) });
      } catch (err) {
        if (err instanceof SweepRefusal) throw ctx.usage(`${scriptFile} ${err.message}`);
        throw err;
      }
      report.resubmit = join(dir, 'resubmit.sh');
      report.resubmitArrays = r.arrays;
      writeFileSync(report.resubmit, r.script, { mode: 0o755 });
      const single = join(dir, 'resubmit.sbatch');
      if (r.sbatch !== null) writeFileSync(single, r.sbatch, { mode: 0o755 });
      else rmSync(single, { force: true });
    }
    const stdout =
      format === 'json'
        ? json(report)
        : [
            `Sweep ${sweeps.name(sweepId)} (${sweepId}): ${report.done} of ${plural(points, 'point')} done`,
            `Bundles: ${report.bundles} found, ${plural(report.imported, 'run')} imported, ${report.alreadyHere} already here${report.unreadable.length ? `, ${report.unreadable.length} unreadable` : ''}`,
            ...report.unreadable.map((u) => `  ${u.file}: ${u.reason}`),
            `Missing: ${report.missing.length ? compactList(report.missing) : 'none'}`,
            `Failed: ${report.failed.length ? report.failed.map((f) => `${f.point} (${f.status}${f.error ? `: ${f.error.slice(0, 60)}` : ''})`).join(', ') : 'none'}`,
            ...(v.resubmit
              ? [
                  !report.resubmit
                    ? 'Nothing to resubmit.'
                    : report.resubmitArrays.length === 1 && report.resubmitArrays[0]!.offset === 0
                      ? `Wrote resubmit.sbatch and resubmit.sh for ${plural(again.length, 'point')}: cd ${dir} && sbatch resubmit.sbatch (or bash resubmit.sh)`
                      : `Wrote resubmit.sh for ${plural(again.length, 'point')} in ${plural(report.resubmitArrays.length, 'job array')} (at most ${arrayMax} tasks each): bash ${report.resubmit}`,
                ]
              : []),
            '',
          ].join('\n');
    return { code: 0, stdout, stderr: '' };
  } finally {
    store.close();
  }
}

// The Slurm scripts' generators live in services/sweep/slurm.ts (sweeps.collect answers resubmit.sh with them too).
export { ARRAY_LIST_CHARS, arrayParts, DEFAULT_ARRAY_MAX, slurmScript, submitScript } from '../services/sweep';
export type { ArrayPart, ScriptOptions } from '../services/sweep';
export { compactList };

// ---------------------------------------------------------------------------------------------
// Export

export async function sweepExport(id: string, v: SweepOptions, format: string, ctx: StoreContext): Promise<StoreCliOutput> {
  const db = dbPath(v.db, ctx);
  if ((v.csv === undefined) === (v.pdf === undefined)) throw ctx.usage('give --csv <file> or --pdf <file> (one of them)');
  const pdfOnly = (['title', 'quantity', 'over', 'by', 'chart'] as const).filter((k) => v[k] !== undefined);
  if (v.csv !== undefined && pdfOnly.length) throw ctx.usage(`--${pdfOnly[0]} applies to --pdf only`);
  const kind = v.csv !== undefined ? 'CSV' : 'PDF';
  const { exportSweepPdf } = await import('../services/export');
  const file = await withStore(openExisting(db, ctx), (store) => {
    const sweeps = new SweepService({ store, experiments: EXPERIMENTS });
    if (v.csv !== undefined) return sweeps.csv(parseArgs('sweeps.csv', { id }).id);
    const a = parseArgs('sweeps.pdf', {
      id,
      ...(v.quantity === undefined ? {} : { quantity: v.quantity }),
      ...(v.over === undefined ? {} : { x: v.over }),
      ...(v.by === undefined ? {} : { by: v.by === 'none' ? null : v.by }),
      ...(v.chart === undefined ? {} : { chart: v.chart }),
      ...(v.title === undefined ? {} : { title: v.title }),
    });
    const { id: sweepId, ...choice } = a;
    return exportSweepPdf(sweeps.get(sweepId), { ...choice, appVersion: ctx.version });
  });
  const path = writeOut((v.csv ?? v.pdf)!, file.bytes, ctx);
  if (format === 'json') return { code: 0, stdout: json({ file: path, format: kind.toLowerCase(), bytes: file.bytes.byteLength, sweepId: id }), stderr: '' };
  return { code: 0, stdout: `Wrote the ${kind} of sweep ${id} to ${path} (${file.bytes.byteLength} bytes).\n`, stderr: '' };
}

/** `gpulab sweep ...`: the subcommand by its first word. */
export function sweepCommand(args: string[], v: SweepOptions, format: string, ctx: StoreContext): Promise<StoreCliOutput> {
  const [first, second] = args;
  const exportOnly = (['csv', 'pdf', 'title', 'quantity', 'over', 'by', 'chart'] as const).find((k) => v[k] !== undefined);
  if (exportOnly && first !== 'export') throw ctx.usage(`--${exportOnly} belongs to sweep export`);
  if (first === 'task') {
    if (!second) throw ctx.usage('missing argument: gpulab sweep task <dir>/plan.json --index <i> --out <dir>/bundles/');
    return sweepTask(second, v, format, ctx);
  }
  if (first === 'collect') {
    if (!second) throw ctx.usage('missing argument: gpulab sweep collect <dir>');
    return sweepCollect(second, v, format, ctx);
  }
  if (first === 'export') {
    if (!second) throw ctx.usage('missing argument: gpulab sweep export <sweep-id> (--pdf <file> | --csv <file>)');
    if (v.slurm !== undefined || v.partition !== undefined || v.account !== undefined || v.maxParallel !== undefined || v.arrayMax !== undefined || v.index !== undefined || v.out !== undefined || v.resubmit)
      throw ctx.usage('sweep export takes --pdf or --csv, the chart options and --db');
    return sweepExport(second, v, format, ctx);
  }
  if (second !== undefined) throw ctx.usage(`unexpected argument "${second}": gpulab sweep <plan.json> | sweep task <plan> | sweep collect <dir> | sweep export <sweep-id>`);
  if (v.index !== undefined || v.resubmit) throw ctx.usage('--index belongs to sweep task, --resubmit to sweep collect');
  if (v.slurm !== undefined) return sweepSlurm(first!, v, format, ctx);
  if (v.partition !== undefined || v.account !== undefined || v.maxParallel !== undefined || v.arrayMax !== undefined) throw ctx.usage('--partition, --account, --max-parallel and --array-max go with --slurm <dir>');
  return sweepLocal(first!, v, format, ctx);
}

