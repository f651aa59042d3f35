import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseArgs } from '../../src-main/contract';
import { runCli } from '../../src-main/cli/main';
import { compactList, slurmScript } from '../../src-main/cli/sweep';
import { MIGRATIONS, RunStore } from '../../src-main/services/store';
import type { RunJob } from '../../src-main/services/pool';
import { setField, SweepService } from '../../src-main/services/sweep';
import { axisValues, expandPlan, parsePlan, pointSeed, rangeValues } from '../../src-main/sweep-plan';
import { EXPERIMENTS } from '../../src-sim/experiments';
import { findPreset } from '../../src-sim/presets';
import { newRun, TempDb } from './store-fixtures';
import { testLab } from './lab-fixtures';

const FINE = { experiment: 'pchase-fine', presets: ['fermi'], params: { size: '4KB', iterations: 32 } };

function refusal(input: unknown): string {
  try {
    parsePlan(input);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('the plan was accepted');
}

describe('a sweep plan', () => {
  it('is validated with messages that name the place', () => {
    expect(refusal({ ...FINE, axes: [{ param: 'stride' }] })).toMatch(/axes\.0: give values or a range/);
    expect(refusal({ ...FINE, axes: [{ param: 'stride', field: 'timing.sms', values: [1] }] })).toMatch(/either a param .* or a field/);
    expect(refusal({ ...FINE, axes: [{ param: 'stride', range: { from: 64, to: 32, step: 1 } }] })).toMatch(/axes\.0\.range: to \(32\) is less than from \(64\)/);
    expect(refusal({ ...FINE, axes: [{ param: 'stride', range: { from: 1, to: 8 } }] })).toMatch(/give either step \(linear\) or times \(geometric\)/);
    expect(refusal({ ...FINE, axes: [{ param: 'a', values: [1] }, { param: 'b', name: 'a', values: [2] }] })).toMatch(/the axis name "a" repeats/);
    expect(refusal({ ...FINE, presets: [] })).toMatch(/presets: name at least one preset/);
    expect(refusal({ ...FINE, axes: [{ param: 'stride', values: [1] }], points: [{ strid: 1 }] })).toMatch(/points\.0\.strid: is not an axis/);
    expect(refusal({ ...FINE, axes: [{ param: 'stride', range: { from: 1, to: 1e6, step: 1 } }] })).toMatch(/has 1000000 values; at most 10000/);
    expect(refusal({ ...FINE, axes: [{ param: 'a', range: { from: 1, to: 200, step: 1 } }, { param: 'b', range: { from: 1, to: 200, step: 1 } }] })).toMatch(/the plan has 40000 points; at most 10000/);
    expect(refusal('{ not json')).toMatch(/not JSON/);
    expect(refusal({ ...FINE, extra: 1 })).toMatch(/extra/);
    // The contract takes the same schema (and refuses hostile shapes first).
    expect(() => parseArgs('sweeps.start', { plan: { ...FINE, axes: [{ param: 'stride' }] } })).toThrow(/sweeps\.start: plan\.axes\.0: give values or a range/);
    expect(() => parseArgs('sweeps.check', JSON.parse('{"plan":{"__proto__":{"x":1}}}'))).toThrow(/not allowed/);
  });

  it('expands lists and ranges as a cross product, presets first, the last axis fastest', () => {
    expect(rangeValues({ from: 0.1, to: 0.5, step: 0.1 })).toEqual([0.1, 0.2, 0.3, 0.4, 0.5]);
    expect(rangeValues({ from: 32, to: 1000, times: 2 })).toEqual([32, 64, 128, 256, 512]);
    expect(rangeValues({ from: 4, to: 4, step: 1 })).toEqual([4]);
    const plan = parsePlan({ ...FINE, presets: ['fermi', 'kepler'], axes: [{ param: 'stride', values: [32, 64] }, { param: 'iterations', range: { from: 16, to: 32, step: 16 } }] });
    const points = expandPlan(plan);
    expect(points.map((p) => [p.index, p.preset, p.values.stride, p.values.iterations])).toEqual([
      [0, 'fermi', 32, 16],
      [1, 'fermi', 32, 32],
      [2, 'fermi', 64, 16],
      [3, 'fermi', 64, 32],
      [4, 'kepler', 32, 16],
      [5, 'kepler', 32, 32],
      [6, 'kepler', 64, 16],
      [7, 'kepler', 64, 32],
    ]);
    expect(axisValues(plan.axes[1]!)).toEqual([16, 32]);
    const given = parsePlan({ ...FINE, axes: [{ param: 'stride' }, { param: 'iterations' }], points: [{ stride: 32, iterations: 8 }, { iterations: 64, stride: 128 }] });
    expect(expandPlan(given).map((p) => p.values)).toEqual([{ stride: 32, iterations: 8 }, { stride: 128, iterations: 64 }]);
  });

  it('gives seeds by rule: one for all, or one per point that does not move when points are added', () => {
    const fixed = expandPlan(parsePlan({ ...FINE, axes: [{ param: 'stride', values: [32, 64] }], seed: 9 }));
    expect(fixed.map((p) => p.seed)).toEqual([9, 9]);
    expect(expandPlan(parsePlan({ ...FINE, axes: [{ param: 'stride', values: [32] }] }))[0]!.seed).toBe(1);
    const a = expandPlan(parsePlan({ ...FINE, axes: [{ param: 'stride', values: [32, 64] }], seed: { rule: 'per-point', base: 5 } }));
    const b = expandPlan(parsePlan({ ...FINE, axes: [{ param: 'stride', values: [16, 32, 64] }], seed: { rule: 'per-point', base: 5 } }));
    expect(a[0]!.seed).not.toBe(a[1]!.seed);
    expect(b[1]!.seed).toBe(a[0]!.seed);
    expect(b[2]!.seed).toBe(a[1]!.seed);
    expect(pointSeed({ seed: { rule: 'per-point', base: 6 } }, 'fermi', { stride: 32 })).not.toBe(a[0]!.seed);
    for (const p of b) expect(Number.isInteger(p.seed) && p.seed >= 0 && p.seed <= 0xffffffff).toBe(true);
  });

  it('sets a preset field only where it exists, with a value of its kind', () => {
    const fermi = findPreset('fermi480')!;
    expect(setField(fermi, 'timing.l1.mshrEntries', 8).timing!.l1!.mshrEntries).toBe(8);
    expect(fermi.timing!.l1!.mshrEntries).not.toBe(8);
    expect(() => setField(fermi, 'timing.l1.mshrz', 8)).toThrow(/has no field timing\.l1\.mshrz/);
    expect(() => setField(fermi, 'timing.l1.mshrEntries', 'eight')).toThrow(/the preset's value is a number/);
  });
});

describe('the database', () => {
  let tmp: TempDb;
  beforeEach(() => (tmp = new TempDb()));
  afterEach(() => tmp.cleanup());

  it('migrates a database of the previous version to sweeps, keeping its runs', () => {
    const before = MIGRATIONS.filter((m) => m.version < 4);
    const old = tmp.open({ migrations: before }, 'old.db');
    expect(old.schemaVersion).toBe(before[before.length - 1]!.version);
    const run = old.createRun(newRun());
    old.close();
    const db = new Database(tmp.file('old.db'));
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name = 'sweeps'").get()).toEqual({ n: 0 });
    db.close();
    const now = tmp.open({}, 'old.db');
    expect(now.schemaVersion).toBe(4);
    expect(now.migratedFrom).toBe(before[before.length - 1]!.version);
    expect(now.getSummary(run.id).experiment).toBe(run.experiment);
    expect(now.connection.prepare('SELECT count(*) AS n FROM sweeps').get()).toEqual({ n: 0 });
  });

  it('lists the runs of a sweep apart from the others, and counts them by sweep', () => {
    const store = tmp.open();
    const loose = store.createRun(newRun());
    const jobs: RunJob[] = [];
    const sweeps = new SweepService({ store, experiments: EXPERIMENTS, enqueue: (j) => jobs.push(j) });
    const plan = parsePlan({ ...FINE, axes: [{ param: 'stride', values: [32, 64] }] });
    const id = sweeps.createSweep(plan);
    const queued = sweeps.queuePoints(id, sweeps.resolve(plan));
    const all = store.listRuns();
    expect(all.total).toBe(3);
    expect(all.sweeps).toBeUndefined();
    expect(all.items.find((r) => r.id === queued[1]!.runId)).toMatchObject({ sweepId: id, sweepPoint: 1 });
    expect(all.items.find((r) => r.id === loose.id)).not.toHaveProperty('sweepId');
    const grouped = store.listRuns({ sweep: 'none' });
    expect(grouped).toMatchObject({ total: 1, sweeps: [{ id, runs: 2 }] });
    expect(grouped.items.map((r) => r.id)).toEqual([loose.id]);
    // The other filters apply to the counts too.
    expect(store.listRuns({ sweep: 'none', status: 'done' })).toEqual({ total: 0, items: [], sweeps: [] });
    expect(store.listRuns({ sweep: 'none', experiment: 'pchase-fine' })).toMatchObject({ total: 0, sweeps: [{ id, runs: 2 }] });
    expect(store.listRuns({ sweep: id, sort: 'title', order: 'asc' }).items.map((r) => r.sweepPoint)).toEqual([0, 1]);
    // A summary read alone (and so a bundle) names no sweep: the sweep is the database's record.
    expect(store.getSummary(queued[0]!.runId)).not.toHaveProperty('sweepId');
    expect(() => parseArgs('runs.list', { sweep: 'some' })).toThrow(/sweep/);
  });

  it('accepts a list with a version missing between 1 and 4 (one another branch adds)', () => {
    const store = tmp.open({ migrations: MIGRATIONS }, 'gap.db');
    expect(store.schemaVersion).toBe(4);
    expect(MIGRATIONS.map((m) => m.version).at(-1)).toBe(4);
  });
});

describe('a sweep on the lab', () => {
  let tmp: TempDb;
  beforeEach(() => (tmp = new TempDb()));
  afterEach(() => tmp.cleanup());

  it('runs its points, resumes only the missing ones, reports and exports them', async () => {
    const { lab } = testLab(tmp.file(), { poolSize: 2 });
    try {
      const plan = { ...FINE, name: 'fine', axes: [{ param: 'stride', values: [32, 64, 128] }] };
      const check = await lab.api.sweeps.check({ plan });
      expect(check).toMatchObject({ ok: true, points: 3 });
      const bad = await lab.api.sweeps.check({ plan: { ...plan, axes: [{ param: 'stride', values: [32, 8192] }] } });
      expect(bad).toMatchObject({ ok: false, point: 1, preset: 'fermi', param: 'stride' });
      await expect(lab.api.sweeps.start({ plan: { ...plan, presets: ['nope'] } })).rejects.toThrow(/nope/);

      const first = lab.sweeps.startWithRuns(parsePlan(plan), true);
      expect(first).toMatchObject({ queued: 3, skipped: 0, resumed: false });
      // The last point is cancelled while queued; the others finish.
      const cancelled = first.runs[2]!.runId;
      expect(await lab.api.runs.cancel({ id: cancelled })).toEqual({ cancelled: true });
      await Promise.all(first.runs.map((r) => lab.finished(r.runId)));
      expect((await lab.api.sweeps.get({ id: first.sweepId })).points.map((p) => p.status)).toEqual(['done', 'done', 'cancelled']);
      // Started again: only that point runs.
      const again = lab.sweeps.startWithRuns(parsePlan(plan), true);
      expect(again).toMatchObject({ sweepId: first.sweepId, queued: 1, skipped: 2, resumed: true });
      expect(again.runs.map((r) => r.point)).toEqual([2]);
      await lab.finished(again.runs[0]!.runId);
      expect(await lab.api.sweeps.start({ plan })).toMatchObject({ queued: 0, skipped: 3 });

      const detail = await lab.api.sweeps.get({ id: first.sweepId });
      expect(detail.counts).toMatchObject({ points: 3, done: 3, pending: 0 });
      expect(detail.axes).toEqual(['stride']);
      expect(detail.points.map((p) => [p.values.stride, p.status])).toEqual([
        [32, 'done'],
        [64, 'done'],
        [128, 'done'],
      ]);
      expect(detail.metrics.length).toBeGreaterThan(0);
      expect(Object.keys(detail.points[0]!.metrics).length).toBeGreaterThan(0);

      // A fresh sweep of the same plan (resume: false) is a second sweep.
      const fresh = await lab.api.sweeps.start({ plan, resume: false });
      expect(fresh.sweepId).not.toBe(first.sweepId);
      await lab.api.sweeps.cancel({ id: fresh.sweepId });
      const list = await lab.api.sweeps.list();
      expect(list.map((s) => s.id)).toContain(first.sweepId);

      const csv = new TextDecoder().decode((await lab.api.sweeps.csv({ id: first.sweepId })).bytes);
      expect(csv.split('\n')[0]).toBe('# gpulab sweep csv,1');
      expect(csv).toMatch(/^point,preset,stride,seed,status,run id,duration ms,/m);
      expect(csv.split('\n').filter((l) => /^\d+,fermi,/.test(l))).toHaveLength(3);
      const pdf = await lab.api.sweeps.pdf({ id: first.sweepId, x: 'stride', by: null, title: 'Fine sweep' });
      expect(pdf).toMatchObject({ mimeType: 'application/pdf', fileName: expect.stringMatching(/^gpulab-sweep-fine-.*\.pdf$/) });
      expect(Buffer.from(pdf.bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
      await expect(lab.api.sweeps.pdf({ id: first.sweepId, x: 'size' })).rejects.toThrow(/x: the sweep has no axis "size"; it has: stride/);

      // Deleting waits for the sweep to end, then takes its runs with it.
      await Promise.all((await lab.api.sweeps.get({ id: fresh.sweepId })).points.filter((p) => p.runId).map((p) => lab.finished(p.runId!)));
      await lab.api.sweeps.delete({ id: first.sweepId });
      await expect(lab.api.sweeps.get({ id: first.sweepId })).rejects.toThrow(/no sweep/);
      expect(lab.store.hasRun(cancelled)).toBe(false);
    } finally {
      await lab.close();
    }
  }, 60_000);
});

describe('Slurm', () => {
  let tmp: TempDb;
  beforeEach(() => (tmp = new TempDb()));
  afterEach(() => tmp.cleanup());

  /** The command line in this process (runCli); the spawned entry is checked in cli.test.ts, the whole path through Slurm in tests/slurm/run.sh. */
  const cli = async (...args: string[]) => {
    const r = await runCli(args, { version: '0.0.0-test', readFile: (path) => readFileSync(path, 'utf8'), status: null });
    return { status: r.code, stdout: r.stdout, stderr: r.stderr };
  };

  it('writes a job array, runs tasks by hand, collects idempotently and resubmits what is missing', async () => {
    const planFile = join(tmp.dir, 'plan.json');
    writeFileSync(planFile, JSON.stringify({ ...FINE, name: 'slurm', axes: [{ param: 'stride', values: [32, 64, 128] }] }));
    const dir = join(tmp.dir, 'array');
    const made = await cli('sweep', planFile, '--slurm', dir, '--partition', 'short', '--account', 'lab1', '--max-parallel', '2', '--db', tmp.file('plan.db'), '--format', 'json');
    expect(made.stderr).toBe('');
    expect(JSON.parse(made.stdout)).toMatchObject({ points: 3 });
    const script = readFileSync(join(dir, 'sweep.sbatch'), 'utf8');
    expect(script).toMatch(/^#SBATCH --array=0-2%2$/m);
    expect(script).toMatch(/^#SBATCH --time=\d\d:\d\d:00$/m);
    expect(script).toMatch(/^#SBATCH --mem=\d+M$/m);
    expect(script).toMatch(/^#SBATCH --partition=short$/m);
    expect(script).toMatch(/^#SBATCH --account=lab1$/m);
    expect(script).toContain('index=$((10#$offset + 10#${SLURM_ARRAY_TASK_ID}))');
    expect(script).toContain('sweep task plan.json --index "$index" --out bundles/');
    expect(readFileSync(join(dir, 'submit.sh'), 'utf8')).toMatch(/^part 0 '0-2%2' "\$@"$/m);
    expect(script).not.toContain(tmp.dir);
    expect(spawnSync('bash', ['-n', join(dir, 'sweep.sbatch')]).status).toBe(0);
    const plan = JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8')) as { id: string };
    expect(plan.id).toMatch(/^[0-9a-f-]{36}$/);

    // Two of the three tasks, by hand, as Slurm would run them.
    for (const i of ['0', '2']) {
      const t = await cli('sweep', 'task', join(dir, 'plan.json'), '--index', i, '--out', join(dir, 'bundles'));
      expect(t.status, t.stderr).toBe(0);
    }
    expect(readdirSync(join(dir, 'bundles')).sort()).toEqual(['point-000000.gmlbundle', 'point-000002.gmlbundle']);

    const db = tmp.file('lab.db');
    const c1 = JSON.parse((await cli('sweep', 'collect', dir, '--db', db, '--format', 'json')).stdout) as Record<string, unknown>;
    expect(c1).toMatchObject({ sweepId: plan.id, points: 3, bundles: 2, imported: 2, alreadyHere: 0, done: 2, missing: [1], failed: [] });
    const c2 = JSON.parse((await cli('sweep', 'collect', dir, '--db', db, '--format', 'json', '--resubmit')).stdout) as Record<string, unknown>;
    expect(c2).toMatchObject({ imported: 0, alreadyHere: 2, done: 2, missing: [1] });
    expect(readFileSync(join(dir, 'resubmit.sbatch'), 'utf8')).toMatch(/^#SBATCH --array=1%2$/m);
    expect(readFileSync(join(dir, 'resubmit.sh'), 'utf8')).toMatch(/^part 0 '1%2' "\$@"$/m);
    // A bundle under another point's name (a copy of point 0's): refused with the file and why, nothing imported.
    copyFileSync(join(dir, 'bundles', 'point-000000.gmlbundle'), join(dir, 'bundles', 'point-000001.gmlbundle'));
    const c3 = await cli('sweep', 'collect', dir, '--db', db);
    expect(c3.status, c3.stderr).toBe(0);
    expect(c3.stdout).toMatch(/^Bundles: 3 found, 0 runs imported, 2 already here, 1 unreadable$/m);
    expect(c3.stdout).toMatch(/^ {2}point-000001\.gmlbundle: run [0-9a-f-]{36} is not point 1 of this sweep: its stride is 32, the point's 64 \(a bundle of another sweep\?\)$/m);
    expect(c3.stdout).toMatch(/^Missing: 1$/m);
    rmSync(join(dir, 'bundles', 'point-000001.gmlbundle'));

    // The collected runs equal a local run of the same point.
    const store = RunStore.open(db, { recoverInterrupted: false });
    try {
      const ids = (store.connection.prepare('SELECT run_id FROM sweep_runs WHERE sweep_id = ? ORDER BY point').all(plan.id) as { run_id: string }[]).map((r) => r.run_id);
      expect(ids).toHaveLength(2);
      const run = store.getRun(ids[0]!);
      expect(run.status).toBe('done');
      expect(run.params.stride).toBe(32);
    } finally {
      store.close();
    }
    expect(existsSync(join(dir, 'presets'))).toBe(false);
  }, 120_000);

  it('writes array lists and scripts Slurm reads', () => {
    expect(compactList([0, 1, 2, 5, 7, 8])).toBe('0-2,5,7-8');
    const s = slurmScript({ name: 'x', array: '0-9', maxParallel: 3, timeMinutes: 1500, memoryMb: 1024, note: 'n' });
    expect(s).toMatch(/--time=1-01:00:00/);
    expect(s).toMatch(/--array=0-9%3/);
  });
});
