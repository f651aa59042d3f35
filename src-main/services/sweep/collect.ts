/**
 * Collecting a sweep's Slurm folder (src-main/shared/sweep-folder.ts names its files): the CLI's
 * `gpulab sweep collect <dir>` reads the folder from disk, the workbench's `sweeps.collect` gets the
 * same files as bytes; both go through `SweepCollector`, so a bundle is collected one way.
 *
 * - The sweep is the plan's (its id): created from plan.json when the database has none with that
 *   id; refused when one exists with another plan. The plan's custom presets are saved first where
 *   the database lacks them (presets/<id>.json).
 * - Each bundle `point-<index>.gmlbundle` is imported whole or not at all: before anything is
 *   written, each run in it must be that point of this plan (the experiment, the preset, the seed,
 *   the plan's parameters and preset fields of the point) and of no other point or sweep; a bundle
 *   of another plan, a damaged one, or a name the plan has no point for is refused with the reason.
 *   Runs already here are skipped and linked again (nothing twice): collecting is idempotent.
 * - The report: the points done, missing (no run yet, or queued or running here) and failed (with
 *   the reason), and on request resubmit.sh for the missing and failed ones (./slurm.ts).
 */
import type { RunDetail } from '../../contract';
import { findHostileShape, LabError } from '../../contract';
import type { SweepCollectArgs, SweepCollectResult, SweepPointStatus } from '../../sweep-contract';
import type { SweepPlan, SweepPoint } from '../../sweep-plan';
import { expandPlan, parsePlan, pointFields, pointParams } from '../../sweep-plan';
import { bundlePoint } from '../../shared/sweep-folder';
import { resolveParams } from '../../../src-sim/experiments/params';
import type { Experiment } from '../../../src-sim/experiments/types';
import { findPreset } from '../../../src-sim/presets';
import type { RunStore } from '../store';
import type { SweepService } from './service';
import { canonical, SweepRefusal } from './service';
import { resubmitScripts } from './slurm';
import { jsonErrorWhere } from '../../../src-sim/json-error';

/** Bundles read and what became of them. */
export interface CollectTally {
  bundles: number;
  imported: number;
  alreadyHere: number;
  unreadable: { file: string; reason: string }[];
}

/** The sweep's points after a collect. */
export interface CollectState {
  done: number;
  missing: number[];
  failed: { point: number; status: SweepPointStatus; error: string | null }[];
}

const show = (v: unknown): string => (v === undefined ? 'not set' : typeof v === 'string' ? v : JSON.stringify(v));

/** The value at a dotted path of a preset ("timing.l1.mshrEntries"), or undefined. */
function fieldOf(preset: unknown, path: string): unknown {
  let node = preset;
  for (const key of path.split('.')) {
    if (node === null || typeof node !== 'object' || !Object.prototype.hasOwnProperty.call(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/**
 * Saves the plan's custom presets that the database lacks (so that the sweep view can name them),
 * from `lookup(id)`: the preset as JSON, or undefined where the folder has none.
 */
export function saveMissingPresets(store: RunStore, plan: SweepPlan, lookup: (id: string) => unknown): void {
  for (const id of plan.presets) {
    if (findPreset(id)) continue;
    try {
      store.getPreset(id);
    } catch {
      const preset = lookup(id);
      if (preset !== undefined) store.saveCustomPreset(preset);
    }
  }
}

export class SweepCollector {
  readonly sweepId: string;
  /** Whether the sweep was created now (the database had none with the plan's id). */
  readonly created: boolean;
  readonly points: readonly SweepPoint[];
  readonly tally: CollectTally = { bundles: 0, imported: 0, alreadyHere: 0, unreadable: [] };
  private readonly experiment: Experiment | undefined;

  /** The plan must carry its sweep's id (plan.json of a Slurm folder); throws LabError otherwise, or when the id is another plan's. */
  constructor(
    private readonly store: RunStore,
    private readonly sweeps: SweepService,
    readonly plan: SweepPlan,
    experiments: readonly Experiment[],
  ) {
    if (!plan.id) throw new LabError('invalid-args', 'plan.json has no sweep id: it was not written by gpulab sweep --slurm');
    const existing = sweeps.findSweep(plan, false);
    this.created = existing === null;
    this.sweepId = existing ?? sweeps.createSweep(plan);
    this.points = expandPlan(plan);
    this.experiment = experiments.find((e) => e.id === plan.experiment);
  }

  /** Imports one bundle file into its point, or records why not (nothing of it imported). */
  async add(file: string, read: () => Uint8Array | Promise<Uint8Array>): Promise<void> {
    this.tally.bundles++;
    const index = bundlePoint(file);
    if (index === null) {
      this.tally.unreadable.push({ file, reason: 'not a point bundle: the name is not point-<index>.gmlbundle' });
      return;
    }
    const point = this.points[index];
    if (!point) {
      this.tally.unreadable.push({ file, reason: `the plan has no point ${index}` });
      return;
    }
    try {
      const r = await this.store.importBundle(await read(), (run) => this.check(run, point));
      this.tally.imported += r.imported.length;
      this.tally.alreadyHere += r.skipped.length;
      for (const id of [...r.imported, ...r.skipped]) this.sweeps.link(this.sweepId, index, id);
    } catch (err) {
      this.tally.unreadable.push({ file, reason: (err as Error).message.slice(0, 300) });
    }
  }

  /** Refuses a run that is not this point of this plan (or that is another point's already). */
  private check(run: RunDetail, point: SweepPoint): void {
    const why = this.mismatch(run, point);
    if (why) throw new LabError('invalid-bundle', `run ${run.id} is not point ${point.index} of this sweep: ${why}`);
  }

  private mismatch(run: RunDetail, point: SweepPoint): string | null {
    const plan = this.plan;
    if (run.experiment !== plan.experiment) return `it is a run of ${run.experiment}, the sweep's experiment is ${plan.experiment} (a bundle of another sweep?)`;
    if (run.presetId !== point.preset) return `its preset is ${run.presetId}, the point's ${point.preset} (a bundle of another sweep?)`;
    if (run.seed !== point.seed) return `its seed is ${run.seed}, the point's ${point.seed} (a bundle of another sweep?)`;
    const given = pointParams(plan, point);
    let expected: Record<string, unknown> = given;
    try {
      if (this.experiment) expected = resolveParams(this.experiment.params, given);
    } catch {
      // Parameters this version no longer resolves: compared as the plan writes them.
    }
    for (const key of Object.keys(given)) {
      const want = expected[key];
      if (expected === given && typeof want === 'string') continue; // a size as written ("4KB"): not comparable unresolved
      if (canonical(run.params[key]) !== canonical(want)) return `its ${key} is ${show(run.params[key])}, the point's ${show(want)} (a bundle of another sweep?)`;
    }
    for (const [path, want] of pointFields(plan, point)) {
      if (!run.preset) return 'it is a run of a real GPU, not a simulated point';
      const have = fieldOf(run.preset, path);
      if (canonical(have) !== canonical(want)) return `its preset's ${path} is ${show(have)}, the point's ${show(want)} (a bundle of another sweep?)`;
    }
    const linked = this.sweeps.pointOf(run.id);
    if (linked && (linked.sweepId !== this.sweepId || linked.point !== point.index))
      return `the run is point ${linked.point} of ${linked.sweepId === this.sweepId ? 'this sweep' : `sweep ${linked.sweepId}`} already`;
    return null;
  }

  /** The sweep's points now: done, missing and failed. */
  state(): CollectState {
    const out: CollectState = { done: 0, missing: [], failed: [] };
    this.sweeps.pointStates(this.sweepId).forEach(({ status, error }, i) => {
      if (status === 'done') out.done++;
      else if (status === 'pending' || status === 'queued' || status === 'running') out.missing.push(i);
      else out.failed.push({ point: i, status, error });
    });
    return out;
  }
}

/** The points to run again: missing and failed, sorted. */
export function pointsToResubmit(state: CollectState): number[] {
  return [...state.missing, ...state.failed.map((f) => f.point)].sort((a, b) => a - b);
}

/** plan.json's text as a plan: JSON, plain data, a valid plan; refused (invalid-args) with the reason. */
export function planFromText(text: string): SweepPlan {
  let raw: unknown;
  try {
    raw = JSON.parse(text) as unknown;
  } catch (err) {
    throw new LabError('invalid-args', `plan.json is not JSON: ${jsonErrorWhere(err)}`);
  }
  const hostile = findHostileShape(raw);
  if (hostile) throw new LabError('invalid-args', `plan.json: ${hostile}`);
  try {
    return parsePlan(raw);
  } catch (err) {
    throw new LabError('invalid-args', `plan.json: ${(err as Error).message}`);
  }
}

/**
 * `sweeps.collect`: a folder's files as the workbench sends them (plan.json's text, the custom
 * presets' texts, a batch of bundles, sweep.sbatch for resubmit.sh). Refused whole (nothing stored)
 * for a plan.json or a preset file that cannot be read; each bundle then imported or refused alone.
 */
export async function collectSweep(store: RunStore, sweeps: SweepService, experiments: readonly Experiment[], a: SweepCollectArgs): Promise<SweepCollectResult> {
  const plan = planFromText(a.plan);
  if (!plan.id) throw new LabError('invalid-args', 'plan.json has no sweep id: it was not written by gpulab sweep --slurm');
  const presets = new Map<string, { file: string; value: unknown }>();
  for (const p of a.presets) {
    let value: unknown;
    try {
      value = JSON.parse(p.text) as unknown;
    } catch (err) {
      throw new LabError('invalid-preset', `presets/${p.name}: not JSON: ${jsonErrorWhere(err)}`);
    }
    const hostile = findHostileShape(value);
    if (hostile) throw new LabError('invalid-preset', `presets/${p.name}: ${hostile}`);
    const id = (value as { id?: unknown } | null)?.id;
    if (typeof id === 'string') presets.set(id, { file: p.name, value });
  }
  saveMissingPresetsNamed(store, plan, presets);
  const collector = new SweepCollector(store, sweeps, plan, experiments);
  for (const b of a.bundles) await collector.add(b.name, () => b.bytes);
  const state = collector.state();
  let resubmit: SweepCollectResult['resubmit'] = null;
  let resubmitError: string | null = null;
  const again = pointsToResubmit(state);
  if (a.resubmit && again.length) {
    try {
      const r = resubmitScripts(again, a.resubmit.sbatch, {
        ...(a.resubmit.arrayMax === undefined ? {} : { arrayMax: a.resubmit.arrayMax }),
        ...(a.resubmit.maxParallel === undefined ? {} : { maxParallel: a.resubmit.maxParallel }),
      });
      resubmit = { script: r.script, sbatch: r.sbatch, arrays: r.arrays, arrayMax: r.arrayMax };
    } catch (err) {
      if (!(err instanceof SweepRefusal)) throw err;
      resubmitError = `sweep.sbatch ${err.message}`;
    }
  }
  return {
    sweepId: collector.sweepId,
    name: sweeps.name(collector.sweepId),
    created: collector.created,
    points: collector.points.length,
    ...collector.tally,
    ...state,
    resubmit,
    resubmitError,
  };
}

/** saveMissingPresets from the files sent, a refused preset named by its file. */
function saveMissingPresetsNamed(store: RunStore, plan: SweepPlan, presets: Map<string, { file: string; value: unknown }>): void {
  for (const id of plan.presets) {
    const p = presets.get(id);
    if (!p) continue;
    try {
      saveMissingPresets(store, { ...plan, presets: [id] }, () => p.value);
    } catch (err) {
      throw new LabError(err instanceof LabError ? err.code : 'invalid-preset', `presets/${p.file}: ${(err as Error).message}`);
    }
  }
}
