/**
 * sweeps.collect: a Slurm folder's files as bytes (plan.json's text, custom presets, point bundles),
 * collected as `gpulab sweep collect` does (one SweepCollector): the sweep created from the plan,
 * each bundle imported into its point or refused whole with the file and the reason, idempotent,
 * the points missing and failed, resubmit.sh from the folder's sweep.sbatch.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LabError } from '../../src-main/contract';
import type { LabService } from '../../src-main/services/lab';
import { slurmScript } from '../../src-main/services/sweep';
import { pointBundleName } from '../../src-main/shared/sweep-folder';
import type { SweepPlan } from '../../src-main/sweep-plan';
import { parsePlan } from '../../src-main/sweep-plan';
import { TempDir, testLab } from './lab-fixtures';
import { TempDb } from './store-fixtures';
import { customPreset, pointBundle } from './sweep-fixtures';

const FINE = { experiment: 'pchase-fine', presets: ['fermi'], params: { size: '4KB', iterations: 32 } };

const text = (plan: SweepPlan) => JSON.stringify(plan, null, 2);
/** A bundle as the call takes it: the file's name and bytes. */
const file = (b: { name: string; bytes: Uint8Array<ArrayBuffer> }) => ({ name: b.name, bytes: b.bytes });

describe('sweeps.collect', () => {
  let tmp: TempDb;
  let dir: TempDir;
  let lab: LabService;
  beforeEach(() => {
    tmp = new TempDb();
    dir = new TempDir();
    lab = testLab(dir.file('lab.db')).lab;
  });
  afterEach(async () => {
    await lab.close();
    tmp.cleanup();
    dir.remove();
  });

  it('creates the sweep from plan.json, imports each bundle into its point, is idempotent, lists missing and failed points and answers resubmit.sh', async () => {
    const plan = parsePlan({ ...FINE, id: randomUUID(), name: 'slurm fine', axes: [{ param: 'stride', values: [32, 64, 128, 256] }] });
    const [b0, b1, b2] = [await pointBundle(tmp, plan, 0), await pointBundle(tmp, plan, 1, 'the simulation process ran out of memory'), await pointBundle(tmp, plan, 2)];
    const sbatch = slurmScript({ name: 'gpulab-x', array: '0-3', maxParallel: 2, arrayMax: 1000, timeMinutes: 5, memoryMb: 1024, note: 'n' });

    // The first batch: the sweep is made from the plan.
    const first = await lab.api.sweeps.collect({ plan: text(plan), bundles: [file(b0!), file(b2!)] });
    expect(first).toMatchObject({ sweepId: plan.id, name: 'slurm fine', created: true, points: 4, bundles: 2, imported: 2, alreadyHere: 0, unreadable: [], done: 2, missing: [1, 3], failed: [], resubmit: null, resubmitError: null });
    // The last batch, with sweep.sbatch: resubmit.sh for the missing and failed points.
    const last = await lab.api.sweeps.collect({ plan: text(plan), bundles: [file(b1!)], resubmit: { sbatch } });
    expect(last).toMatchObject({ created: false, imported: 1, alreadyHere: 0, done: 2, missing: [3], failed: [{ point: 1, status: 'failed', error: 'the simulation process ran out of memory' }] });
    expect(last.resubmit!.arrays).toEqual([{ offset: 0, array: '1,3' }]);
    expect(last.resubmit!.arrayMax).toBe(1000);
    expect(last.resubmit!.script).toMatch(/^part 0 '1,3%2' "\$@"$/m);
    expect(last.resubmit!.sbatch).toMatch(/^#SBATCH --array=1,3%2$/m);
    // The same resubmit.sh as the CLI's generator, with the array bound and %M given.
    const other = await lab.api.sweeps.collect({ plan: text(plan), resubmit: { sbatch, arrayMax: 2, maxParallel: 7 } });
    expect(other.resubmit!.arrays).toEqual([
      { offset: 0, array: '1' },
      { offset: 2, array: '1' },
    ]);
    expect(other.resubmit!.script).toMatch(/^part 2 '1%7' --dependency="afterany:\$last" "\$@"$/m);
    expect(other.resubmit!.sbatch).toBeNull();

    // Again, every bundle: nothing imported twice.
    const again = await lab.api.sweeps.collect({ plan: text(plan), bundles: [b0!, b1!, b2!].map(file) });
    expect(again).toMatchObject({ imported: 0, alreadyHere: 3, unreadable: [], done: 2, missing: [3] });
    const detail = await lab.api.sweeps.get({ id: plan.id! });
    expect(detail.points.map((p) => [p.status, p.runId, p.runs])).toEqual([
      ['done', b0!.runId, 1],
      ['failed', b1!.runId, 1],
      ['done', b2!.runId, 1],
      ['pending', null, 0],
    ]);
    // The workbench's sweep equals what the CLI makes: the plan as written, with its id.
    expect(detail.plan).toEqual(plan);

    // Everything done: nothing to resubmit.
    const b3 = await pointBundle(tmp, plan, 3);
    const rerun = await pointBundle(tmp, plan, 1);
    const done = await lab.api.sweeps.collect({ plan: text(plan), bundles: [file(b3), file(rerun)], resubmit: { sbatch } });
    expect(done).toMatchObject({ imported: 2, done: 4, missing: [], failed: [], resubmit: null });
  });

  it('refuses a bundle of another plan, a damaged one and a name the plan has no point for, naming the file; nothing of them is imported', async () => {
    const plan = parsePlan({ ...FINE, id: randomUUID(), axes: [{ param: 'stride', values: [32, 64] }] });
    const otherPlan = parsePlan({ ...FINE, id: randomUUID(), params: { size: '4KB', iterations: 16 }, axes: [{ param: 'stride', values: [32, 64] }] });
    const foreign = await pointBundle(tmp, otherPlan, 1);
    const good = await pointBundle(tmp, plan, 0);
    const damaged = { name: pointBundleName(1), bytes: good.bytes.slice(0, Math.floor(good.bytes.byteLength / 2)) };
    const before = lab.store.listRuns({}).total;

    const r = await lab.api.sweeps.collect({
      plan: text(plan),
      bundles: [file(foreign), damaged, { name: pointBundleName(7), bytes: good.bytes }, { name: 'notes.gmlbundle', bytes: good.bytes }, { name: pointBundleName(1), bytes: new Uint8Array(0) }],
    });
    expect(r).toMatchObject({ bundles: 5, imported: 0, alreadyHere: 0, done: 0, missing: [0, 1] });
    expect(r.unreadable.map((u) => u.file)).toEqual(['point-000001.gmlbundle', 'point-000001.gmlbundle', 'point-000007.gmlbundle', 'notes.gmlbundle', 'point-000001.gmlbundle']);
    expect(r.unreadable[0]!.reason).toBe(`run ${foreign.runId} is not point 1 of this sweep: its iterations is 16, the point's 32 (a bundle of another sweep?)`);
    expect(r.unreadable[1]!.reason).toMatch(/^the bundle is refused \(nothing was imported\): the file is truncated/);
    expect(r.unreadable[2]!.reason).toBe('the plan has no point 7');
    expect(r.unreadable[3]!.reason).toMatch(/not a point bundle/);
    expect(r.unreadable[4]!.reason).toMatch(/the file is empty$/);
    // Nothing half-imported: no run of those bundles is stored.
    expect(lab.store.listRuns({}).total).toBe(before);
    expect(lab.store.hasRun(foreign.runId)).toBe(false);

    // A point's bundle under another point's name: refused too (its stride is the other point's).
    const moved = await lab.api.sweeps.collect({ plan: text(plan), bundles: [{ name: pointBundleName(1), bytes: good.bytes }] });
    expect(moved.unreadable[0]!.reason).toMatch(/is not point 1 of this sweep: its stride is 32, the point's 64/);
    // Once a run is a point, the same run under another point of the same plan is refused.
    const fixed = parsePlan({ ...plan, id: randomUUID(), seed: 5 });
    const twin = await pointBundle(tmp, fixed, 0);
    expect((await lab.api.sweeps.collect({ plan: text(fixed), bundles: [file(twin)] })).imported).toBe(1);
    const other = parsePlan({ ...fixed, id: randomUUID(), name: 'a copy' });
    const again = await lab.api.sweeps.collect({ plan: text(other), bundles: [file(twin)] });
    expect(again.unreadable[0]!.reason).toMatch(new RegExp(`the run is point 0 of sweep ${fixed.id} already`));
  });

  it('checks the preset fields of a point, and saves the custom presets the database lacks', async () => {
    const plan = parsePlan({ ...FINE, id: randomUUID(), presets: ['lab-fermi'], axes: [{ field: 'timing.l1.mshrEntries', values: [16, 32] }] });
    const swapped = parsePlan({ ...plan, id: randomUUID(), axes: [{ field: 'timing.l1.mshrEntries', values: [32, 16] }] });
    const preset = { name: 'lab-fermi.json', text: JSON.stringify(customPreset('lab-fermi')) };
    await expect(lab.api.presets.get({ id: 'lab-fermi' })).rejects.toThrow(/lab-fermi/);
    const r = await lab.api.sweeps.collect({ plan: text(plan), presets: [preset], bundles: [file(await pointBundle(tmp, plan, 0)), file(await pointBundle(tmp, swapped, 1))] });
    expect((await lab.api.presets.get({ id: 'lab-fermi' })).preset.name).toBe('Custom lab-fermi');
    expect(r).toMatchObject({ imported: 1, done: 1, missing: [1] });
    expect(r.unreadable).toEqual([{ file: 'point-000001.gmlbundle', reason: expect.stringMatching(/its preset's timing\.l1\.mshrEntries is 16, the point's 32/) }]);
    // A preset file that is not a preset: refused whole, named by its file; nothing made.
    const bad = parsePlan({ ...plan, id: randomUUID(), presets: ['lab-other'] });
    const refused = await lab.api.sweeps.collect({ plan: text(bad), presets: [{ name: 'lab-other.json', text: JSON.stringify({ id: 'lab-other', name: 'x' }) }] }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(LabError);
    expect((refused as LabError).message).toMatch(/^presets\/lab-other\.json: /);
    expect((await lab.api.sweeps.list()).map((s) => s.id)).not.toContain(bad.id);
    await expect(lab.api.sweeps.collect({ plan: text(bad), presets: [{ name: 'lab-other.json', text: '{ nope' }] })).rejects.toThrow(/presets\/lab-other\.json: not JSON/);
  });

  it('refuses a plan.json that is not a Slurm folder\'s plan before storing anything', async () => {
    const plan = parsePlan({ ...FINE, id: randomUUID(), axes: [{ param: 'stride', values: [32] }] });
    const { id: _id, ...noId } = plan;
    await expect(lab.api.sweeps.collect({ plan: text(noId as SweepPlan) })).rejects.toThrow(/plan\.json has no sweep id: it was not written by gpulab sweep --slurm/);
    await expect(lab.api.sweeps.collect({ plan: '{ not json' })).rejects.toThrow(/plan\.json is not JSON/);
    await expect(lab.api.sweeps.collect({ plan: '{"__proto__":{"x":1}}' })).rejects.toThrow(/plan\.json: .*not allowed/);
    await expect(lab.api.sweeps.collect({ plan: JSON.stringify({ ...plan, axes: [{ param: 'stride' }] }) })).rejects.toThrow(/plan\.json: invalid sweep plan: axes\.0: give values or a range/);
    expect(await lab.api.sweeps.list()).toEqual([]);
    // A sweep of that id with another plan: a conflict.
    await lab.api.sweeps.collect({ plan: text(plan) });
    const changed = { ...plan, params: { ...plan.params, iterations: 8 } };
    await expect(lab.api.sweeps.collect({ plan: text(changed) })).rejects.toMatchObject({ code: 'conflict' });
    // sweep.sbatch from before offsets: resubmit.sh refused with the reason, the collect itself kept.
    const big = parsePlan({ ...FINE, id: randomUUID(), axes: [{ param: 'stride', values: [32, 64, 128] }] });
    const r = await lab.api.sweeps.collect({ plan: text(big), resubmit: { sbatch: '#!/bin/bash\n#SBATCH --array=0-2\nexec gpulab sweep task plan.json --index "$SLURM_ARRAY_TASK_ID"\n', arrayMax: 2 } });
    expect(r.resubmit).toBeNull();
    expect(r.resubmitError).toMatch(/^sweep\.sbatch runs points by their array task id alone \(it predates GPULAB_OFFSET\)/);
    expect(r.missing).toEqual([0, 1, 2]);
  });
});
