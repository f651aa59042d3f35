/** A sweep's point bundles as `gpulab sweep task` writes them, made in this process (no simulation). */
import { randomUUID } from 'node:crypto';
import { SweepService } from '../../src-main/services/sweep';
import { pointBundleName } from '../../src-main/shared/sweep-folder';
import type { SweepPlan } from '../../src-main/sweep-plan';
import { EXPERIMENTS } from '../../src-sim/experiments';
import { findPreset } from '../../src-sim/presets';
import type { TempDb } from './store-fixtures';
import { sampleResult } from './store-fixtures';

/**
 * A point's bundle as `gpulab sweep task` writes it: the point's run on a database of its own (its
 * preset and parameters as the sweep resolves them), done with a result or failed with a reason.
 */
export async function pointBundle(tmp: TempDb, plan: SweepPlan, index: number, outcome: 'done' | string = 'done'): Promise<{ name: string; bytes: Uint8Array<ArrayBuffer>; runId: string }> {
  const store = tmp.open({}, `task-${randomUUID()}.db`);
  for (const id of plan.presets) if (!findPreset(id)) store.saveCustomPreset(customPreset(id));
  const sweeps = new SweepService({ store, experiments: EXPERIMENTS });
  sweeps.ensureSweep(plan);
  const [r] = sweeps.resolve(plan, new Set([index]));
  const run = store.createRun({ experiment: plan.experiment, preset: r!.preset, params: r!.params, seed: r!.point.seed });
  store.startRun(run.id);
  if (outcome === 'done') store.finishRun(run.id, sampleResult(20, false), { durationMs: 5 });
  else store.endRun(run.id, 'failed', outcome);
  const file = await store.exportBundle([run.id]);
  return { name: pointBundleName(index), bytes: file.bytes as Uint8Array<ArrayBuffer>, runId: run.id };
}

export function customPreset(id: string): Record<string, unknown> {
  return { ...structuredClone(findPreset('fermi')!), id, name: `Custom ${id}`, builtin: false } as unknown as Record<string, unknown>;
}
