/**
 * The scorecard over several simulation processes. A row is pure (its preset, its seed, its
 * experiments), so its result is the same in any process and any order; but rows of one paper on one
 * preset often read the same runs (LASH F4 to F6 one stencil study, the SL1 rows one application
 * study), which a process computes once (src-sim/reference/row-runs.ts). So the (row, preset) jobs go
 * in groups of the runs they share (jobGroups), each group to the next free process, costliest
 * first, and the results come back in the order of the rows.
 */
import { findPreset } from '../../../src-sim/presets';
import type { Preset } from '../../../src-sim/presets/types';
import { availableParallelism } from 'node:os';
import { findExperiment } from '../../../src-sim/experiments';
import { REPRODUCTION_ROWS, selectRows } from '../../../src-sim/reference';
import { referencedRuns } from '../../../src-sim/reference/plan';
import type { ReferencedRun } from '../../../src-sim/reference/plan';
import type { RowResult } from '../../../src-sim/reference/types';
import type { WorkerLauncher } from './launcher';
import { SimProcess } from './sim-process';

/** Simulation processes a scorecard uses by default: one a core, at most four. */
export const DEFAULT_ROW_JOBS = Math.max(1, Math.min(4, availableParallelism()));

/** One (row, preset) of a selection. */
export interface RowJob {
  rowId: string;
  paper: string;
  preset: Preset;
}

/** The (row, preset) pairs a selector names: each row on its own presets, or every row on `override`. */
export function rowJobs(selector: string, override?: Preset): RowJob[] {
  const jobs: RowJob[] = [];
  for (const row of selectRows(selector)) {
    const presets = override ? [override] : row.presets.map((id) => findPreset(id)).filter((p): p is Preset => p !== undefined);
    for (const preset of presets) jobs.push({ rowId: row.id, paper: row.paper, preset });
  }
  return jobs;
}

export interface ParallelRowsOptions {
  /** Processes at once (at least 1; no more than the jobs). */
  concurrency: number;
  seed: number;
  /** Per job. */
  timeLimitMs: number;
  /** After each job: how many are done, of how many, and what runs now. */
  onProgress?: (done: number, total: number, phase: string) => void;
  log?: (line: string) => void;
}

/** What became of one job: its rows, or why it gave none (a process that died, a time limit, a cancel). */
export interface JobOutcome {
  job: RowJob;
  rows: RowResult[];
  error?: string;
}

/** A running scorecard: its outcomes, in the jobs' order, and a way to stop it. */
export interface ParallelRows {
  done: Promise<JobOutcome[]>;
  cancel(): void;
}

/**
 * The runs a job's references name on its preset (src-sim/reference/plan.ts), by key, with each
 * run's estimated work (the experiment's `estimate`; Infinity where it cannot say); a row whose
 * references name no run (matched by label) gets one key for its paper and preset, of unknown cost.
 */
function jobRuns(job: RowJob): Map<string, number> {
  const out = new Map<string, number>();
  const row = REPRODUCTION_ROWS.find((r) => r.id === job.rowId);
  let runs: ReferencedRun[] = [];
  try {
    runs = row ? referencedRuns(row, job.preset) : [];
  } catch {
    // (a row whose references throw fails when it runs; here it only needs a group)
  }
  for (const r of runs) {
    let work = Infinity;
    try {
      work = findExperiment(r.experiment)?.estimate(job.preset, r.params) ?? Infinity;
    } catch {
      // (parameters the experiment refuses: cost unknown)
    }
    out.set(`${job.preset.id}\u0000${r.key}`, Number.isNaN(work) ? Infinity : work);
  }
  if (out.size === 0) out.set(`${job.preset.id}\u0000${job.paper}\u0000(by label)`, Infinity);
  return out;
}

/**
 * Indices of the jobs in groups that may share runs (a process computes a run once for every row
 * of its group that asks for it, src-sim/reference/row-runs.ts): jobs whose references name the same
 * run (experiment, parameters, preset) go together, transitively; rows that name none go with the
 * other such rows of their paper and preset. Costliest groups first (the sum of their runs'
 * estimated work; unknown counts as most), so that the longest runs start first and the short ones
 * fill in behind them. Sharing is only a saving: a run two groups name is computed by each, with the
 * same result.
 */
export function jobGroups(jobs: readonly RowJob[]): number[][] {
  const parent = jobs.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  // Each run: the first job that names it and its work.
  const runs = new Map<string, { job: number; work: number }>();
  jobs.forEach((job, i) => {
    for (const [key, work] of jobRuns(job)) {
      const first = runs.get(key);
      if (first === undefined) runs.set(key, { job: i, work });
      else parent[find(i)] = find(first.job);
    }
  });
  const groups = new Map<number, number[]>();
  jobs.forEach((_, i) => {
    const r = find(i);
    groups.set(r, [...(groups.get(r) ?? []), i]);
  });
  const cost = new Map<number, number>();
  for (const { job, work } of runs.values()) cost.set(find(job), (cost.get(find(job)) ?? 0) + work);
  const weight = (g: number[]): number => cost.get(find(g[0])) ?? 0;
  // (two unknown costs give NaN, which falls through to the size)
  return [...groups.values()].sort((a, b) => weight(b) - weight(a) || b.length - a.length || a[0] - b[0]);
}

export function runRowsInParallel(launcher: WorkerLauncher, jobs: readonly RowJob[], options: ParallelRowsOptions): ParallelRows {
  const outcomes: (JobOutcome | undefined)[] = new Array(jobs.length);
  const groups = jobGroups(jobs);
  const procs = new Set<SimProcess>();
  let next = 0;
  let finished = 0;
  let cancelled = false;
  const running = new Map<number, string>();
  const phase = (): string => [...running.values()].join(', ');
  const worker = async (): Promise<void> => {
    let proc: SimProcess | null = null;
    try {
      while (!cancelled && next < groups.length) {
        for (const i of groups[next++]) {
          if (cancelled) break;
          const job = jobs[i];
          if (!proc || !proc.available) {
            if (proc) procs.delete(proc);
            proc = new SimProcess(launcher, { ...(options.log ? { log: options.log } : {}) });
            procs.add(proc);
          }
          running.set(i, `${job.rowId} on ${job.preset.id}`);
          options.onProgress?.(finished, jobs.length, phase());
          const answer = await proc.run({ type: 'rows', runId: `rows-${proc.id}-${i}`, selector: job.rowId, preset: job.preset, seed: options.seed }, { timeLimitMs: options.timeLimitMs });
          running.delete(i);
          finished++;
          if (answer.kind === 'rows') outcomes[i] = { job, rows: answer.rows };
          else if (answer.kind === 'error' || answer.kind === 'killed') outcomes[i] = { job, rows: [], error: answer.message };
          else outcomes[i] = { job, rows: [], error: answer.kind === 'died' ? answer.message : `the process answered ${answer.kind}` };
          options.onProgress?.(finished, jobs.length, phase());
        }
      }
    } finally {
      if (proc) {
        proc.kill('closed');
        procs.delete(proc);
      }
    }
  };
  const n = Math.max(1, Math.min(Math.floor(options.concurrency), groups.length));
  const done = Promise.all(Array.from({ length: n }, () => worker())).then(() =>
    jobs.map((job, i) => outcomes[i] ?? { job, rows: [], error: 'the scorecard was cancelled before this row ran' }),
  );
  return {
    done,
    cancel() {
      cancelled = true;
      for (const p of procs) p.kill('cancelled');
    },
  };
}

/** A job's rows: what the process measured, or one failed row saying why there is none. */
export function outcomeRows(o: JobOutcome): RowResult[] {
  if (o.rows.length || o.error === undefined) return o.rows;
  return [{ id: o.job.rowId, preset: o.job.preset.id, target: '', simulated: `error: ${o.error}`, pass: false, checks: [], runs: [] }];
}
