/**
 * Sweeps larger than Slurm's MaxArraySize: the job arrays a sweep (or the points to resubmit) is
 * cut into, the scripts that submit them (checked with bash -n, and run against a stand-in sbatch
 * that records its calls), and the point each task runs (sweep.sbatch run as Slurm would, its
 * offset added to the task id): by echoing the task's command line, and by running those points.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoreContext } from '../../src-main/cli/store';
import { runCli } from '../../src-main/cli/main';
import { ARRAY_LIST_CHARS, arrayParts, DEFAULT_ARRAY_MAX, sweepCommand } from '../../src-main/cli/sweep';
import type { ArrayPart } from '../../src-main/cli/sweep';
import { RunStore } from '../../src-main/services/store';
import { TempDb } from './store-fixtures';

const STRIDES = [32, 64, 128, 256, 512, 1024];
/** 12 points: fermi then kepler, six strides each. */
const PLAN = { name: 'parts', experiment: 'pchase-fine', presets: ['fermi', 'kepler'], params: { size: '4KB', iterations: 32 }, axes: [{ param: 'stride', values: STRIDES }] };
/** 2,500 points. */
const BIG = { experiment: 'pchase-fine', presets: ['fermi'], params: { size: '4KB' }, axes: [{ param: 'stride', values: [32, 64, 128, 256, 512] }, { param: 'iterations', range: { from: 1, to: 500, step: 1 } }] };

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** The task ids of an --array list ("0-4,7%3"). */
function taskIds(array: string): number[] {
  return array
    .replace(/%\d+$/, '')
    .split(',')
    .flatMap((t) => {
      const [a, b] = t.split('-').map(Number);
      return b === undefined ? [a!] : range(a!, b);
    });
}

/** Every point the parts run, in order; each task id below arrayMax and each list within bounds. */
function covered(parts: readonly Pick<ArrayPart, 'offset' | 'array'>[], arrayMax: number): number[] {
  return parts.flatMap((p) => {
    expect(p.array.replace(/%\d+$/, '').length).toBeLessThanOrEqual(ARRAY_LIST_CHARS);
    const ids = taskIds(p.array);
    for (const id of ids) expect(id).toBeLessThan(arrayMax);
    return ids.map((id) => p.offset + id);
  });
}

describe('job arrays of a sweep', () => {
  it('cut a whole sweep into arrays of task ids 0 to arrayMax - 1 at offsets of arrayMax', () => {
    expect(arrayParts(range(0, 11), 1000)).toEqual([{ offset: 0, array: '0-11', tasks: 12 }]);
    expect(arrayParts(range(0, 999), 1000)).toEqual([{ offset: 0, array: '0-999', tasks: 1000 }]);
    expect(arrayParts(range(0, 1000), 1000)).toEqual([
      { offset: 0, array: '0-999', tasks: 1000 },
      { offset: 1000, array: '0', tasks: 1 },
    ]);
    const all = arrayParts(range(0, 9999));
    expect(DEFAULT_ARRAY_MAX).toBe(1000);
    expect(all.map((p) => [p.offset, p.array])).toEqual(range(0, 9).map((i) => [i * 1000, '0-999']));
    expect(arrayParts(range(0, 11), 5).map((p) => [p.offset, p.array])).toEqual([
      [0, '0-4'],
      [5, '0-4'],
      [10, '0-1'],
    ]);
    expect(arrayParts([], 1000)).toEqual([]);
  });

  it('cut the points to resubmit by blocks of arrayMax, and split a list too long for one submission', () => {
    expect(arrayParts([1], 1000)).toEqual([{ offset: 0, array: '1', tasks: 1 }]);
    expect(arrayParts([1500, 1501, 2600], 1000).map((p) => [p.offset, p.array])).toEqual([
      [1000, '500-501'],
      [2000, '600'],
    ]);
    expect(arrayParts([3, 7, 8, 9, 12], 5).map((p) => [p.offset, p.array])).toEqual([
      [0, '3'],
      [5, '2-4'],
      [10, '2'],
    ]);
    // A run across a block's end goes on in the next part.
    expect(arrayParts(range(995, 2004), 1000).map((p) => [p.offset, p.array])).toEqual([
      [0, '995-999'],
      [1000, '0-999'],
      [2000, '0-4'],
    ]);
    // Every other point of 10,000: each list at most ARRAY_LIST_CHARS, all points exactly once.
    const scattered = range(0, 4999).map((i) => 2 * i);
    const parts = arrayParts(scattered);
    expect(parts.length).toBeGreaterThan(10);
    expect(covered(parts, DEFAULT_ARRAY_MAX)).toEqual(scattered);
    expect(parts.reduce((n, p) => n + p.tasks, 0)).toBe(5000);
    for (const max of [1, 2, 3, 7, 1000])
      for (const points of [scattered.slice(0, 300), range(0, 40), [0, 5, 6, 7, 30, 31, 99]]) expect(covered(arrayParts(points, max, 20), max)).toEqual(points);
  });
});

describe('Slurm scripts of a large sweep', () => {
  let tmp: TempDb;
  let fake: string;
  beforeEach(() => {
    tmp = new TempDb();
    // A stand-in sbatch: records its arguments, answers a job id as --parsable does.
    fake = join(tmp.dir, 'fake');
    mkdirSync(join(fake, 'bin'), { recursive: true });
    writeFileSync(
      join(fake, 'bin', 'sbatch'),
      ['#!/bin/bash', 'n=$(( $(cat "$FAKE/n" 2>/dev/null || echo 0) + 1 ))', 'echo "$n" > "$FAKE/n"', 'printf "%s\\n" "$@" > "$FAKE/call-$n"', 'echo "$((700 + n));cluster1"', ''].join('\n'),
      { mode: 0o755 },
    );
  });
  afterEach(() => tmp.cleanup());

  const env = (extra: Record<string, string> = {}) => {
    const e: Record<string, string | undefined> = { ...process.env, ...extra };
    if (!('GPULAB_ARRAY_MAX' in extra)) delete e.GPULAB_ARRAY_MAX;
    return e;
  };
  /** The command line in this process (runCli), with `extra` in the environment meanwhile. */
  const cli = async (args: string[], extra: Record<string, string> = {}) => {
    const saved = process.env.GPULAB_ARRAY_MAX;
    if ('GPULAB_ARRAY_MAX' in extra) process.env.GPULAB_ARRAY_MAX = extra.GPULAB_ARRAY_MAX;
    else delete process.env.GPULAB_ARRAY_MAX;
    try {
      const r = await runCli(args, { version: '0.0.0-test', readFile: (path) => readFileSync(path, 'utf8'), status: null });
      return { status: r.code, stdout: r.stdout, stderr: r.stderr };
    } finally {
      if (saved === undefined) delete process.env.GPULAB_ARRAY_MAX;
      else process.env.GPULAB_ARRAY_MAX = saved;
    }
  };
  const bash = (file: string, extra: Record<string, string> = {}, args: string[] = []) => spawnSync('bash', [file, ...args], { cwd: tmp.dir, encoding: 'utf8', timeout: 120_000, env: env({ FAKE: fake, PATH: `${join(fake, 'bin')}:${process.env.PATH}`, ...extra }) });
  /** The sbatch calls a submit script made, each as its arguments. */
  const calls = (): string[][] =>
    readdirSync(fake)
      .filter((n) => n.startsWith('call-'))
      .sort((a, b) => Number(a.slice(5)) - Number(b.slice(5)))
      .map((n) => readFileSync(join(fake, n), 'utf8').trimEnd().split('\n'));
  const write = async (plan: object, dir: string, args: string[] = [], extra: Record<string, string> = {}) => {
    const planFile = join(tmp.dir, `${dir}.json`);
    writeFileSync(planFile, JSON.stringify(plan));
    const made = await cli(['sweep', planFile, '--slurm', join(tmp.dir, dir), '--db', tmp.file('plan.db'), '--format', 'json', ...args], extra);
    expect(made.stderr).toBe('');
    expect(made.status).toBe(0);
    return JSON.parse(made.stdout) as { points: number; arrayMax: number; arrays: { offset: number; array: string }[]; submit: string };
  };
  /** The command line a task of sweep.sbatch runs (GPULAB=echo), as Slurm would start it. */
  const taskLine = (dir: string, offset: string | null, task: number) => {
    const r = bash(join(dir, 'sweep.sbatch'), { GPULAB: 'echo', SLURM_SUBMIT_DIR: dir, SLURM_ARRAY_TASK_ID: String(task), ...(offset === null ? {} : { GPULAB_OFFSET: offset }) });
    expect(r.stderr).toBe('');
    return r.stdout.trim();
  };

  it('submits a sweep of 2,500 points as three arrays of at most 1,000 tasks, chained under --max-parallel', async () => {
    const out = await write(BIG, 'big', ['--max-parallel', '50', '--partition', 'short']);
    const dir = join(tmp.dir, 'big');
    expect(out).toMatchObject({ points: 2500, arrayMax: 1000, submit: join(dir, 'submit.sh') });
    expect(out.arrays).toEqual([
      { offset: 0, array: '0-999' },
      { offset: 1000, array: '0-999' },
      { offset: 2000, array: '0-499' },
    ]);
    const script = readFileSync(join(dir, 'sweep.sbatch'), 'utf8');
    expect(script).toMatch(/^#SBATCH --array=0-999%50$/m);
    expect(script).toMatch(/^#SBATCH --partition=short$/m);
    const submit = readFileSync(join(dir, 'submit.sh'), 'utf8');
    for (const text of [script, submit]) expect(text).not.toContain(tmp.dir);
    for (const f of ['sweep.sbatch', 'submit.sh']) expect(spawnSync('bash', ['-n', join(dir, f)]).status).toBe(0);

    // submit.sh, run from elsewhere with an argument for every sbatch.
    const r = bash(join(dir, 'submit.sh'), {}, ['--qos=long']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual([
      'Submitted batch job 701 (--array=0-999%50, GPULAB_OFFSET=0)',
      'Submitted batch job 702 (--array=0-999%50, GPULAB_OFFSET=1000)',
      'Submitted batch job 703 (--array=0-499%50, GPULAB_OFFSET=2000)',
    ]);
    const made = calls();
    expect(made).toEqual([
      ['--parsable', '--array=0-999%50', '--export=ALL,GPULAB_OFFSET=0', '--qos=long', 'sweep.sbatch'],
      ['--parsable', '--array=0-999%50', '--export=ALL,GPULAB_OFFSET=1000', '--dependency=afterany:701', '--qos=long', 'sweep.sbatch'],
      ['--parsable', '--array=0-499%50', '--export=ALL,GPULAB_OFFSET=2000', '--dependency=afterany:702', '--qos=long', 'sweep.sbatch'],
    ]);
    const parts = made.map((c) => ({ offset: Number(c[2]!.split('=').at(-1)), array: c[1]!.slice('--array='.length) }));
    expect(covered(parts, 1000)).toEqual(range(0, 2499));

    // The point of each part's first and last task: the offset plus the task id.
    for (const p of parts)
      for (const task of [0, taskIds(p.array).at(-1)!]) expect(taskLine(dir, String(p.offset), task)).toBe(`sweep task plan.json --index ${p.offset + task} --out bundles/`);
    // sbatch sweep.sbatch alone: no offset, the task id is the point.
    expect(taskLine(dir, null, 999)).toBe('sweep task plan.json --index 999 --out bundles/');
    expect(taskLine(dir, '0042', 8)).toBe('sweep task plan.json --index 50 --out bundles/');
    const bad = bash(join(dir, 'sweep.sbatch'), { GPULAB: 'echo', SLURM_SUBMIT_DIR: dir, SLURM_ARRAY_TASK_ID: '1', GPULAB_OFFSET: '1+$(id)' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/GPULAB_OFFSET must be a whole number/);
    expect(bad.stdout).toBe('');

    // Nothing collected yet: every point to resubmit, in the same three arrays.
    const c = await cli(['sweep', 'collect', dir, '--db', tmp.file('lab.db'), '--format', 'json', '--resubmit']);
    expect(c.stderr).toBe('');
    expect(JSON.parse(c.stdout)).toMatchObject({ resubmit: join(dir, 'resubmit.sh'), resubmitArrays: out.arrays });
    expect(existsSync(join(dir, 'resubmit.sbatch'))).toBe(false);
    expect(readFileSync(join(dir, 'resubmit.sh'), 'utf8')).toMatch(/^part 2000 '0-499%50' --dependency="afterany:\$last" "\$@"$/m);
  }, 120_000);

  it('collect reads regular files only: a link (to a secret or to /dev/zero) and a named pipe are refused by what they are, unread, and the rest goes on', async () => {
    await write(PLAN, 'hostile');
    const dir = join(tmp.dir, 'hostile');
    const bundles = join(dir, 'bundles');
    mkdirSync(bundles, { recursive: true });
    const secret = join(tmp.dir, 'secret.txt');
    writeFileSync(secret, 'SECRET-BYTES-NEVER-SHOWN');
    symlinkSync(secret, join(bundles, 'point-000000.gmlbundle'));
    symlinkSync('/dev/zero', join(bundles, 'point-000001.gmlbundle'));
    expect(spawnSync('mkfifo', [join(bundles, 'point-000002.gmlbundle')]).status).toBe(0);
    writeFileSync(join(bundles, 'point-000003.gmlbundle'), 'not a bundle');
    const started = Date.now();
    const c = await cli(['sweep', 'collect', dir, '--db', tmp.file('lab.db'), '--format', 'json']);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(c.stderr).toBe('');
    const r = JSON.parse(c.stdout) as { bundles: number; imported: number; unreadable: { file: string; reason: string }[] };
    expect(r).toMatchObject({ bundles: 4, imported: 0 });
    const why = Object.fromEntries(r.unreadable.map((u) => [u.file, u.reason]));
    expect(why['point-000000.gmlbundle']).toMatch(/^a symbolic link, not a regular file/);
    expect(why['point-000001.gmlbundle']).toMatch(/^a symbolic link, not a regular file/);
    expect(why['point-000002.gmlbundle']).toMatch(/^a named pipe, not a regular file/);
    // A regular file that is not a bundle is read and refused as a bundle.
    expect(why['point-000003.gmlbundle']).toBeTruthy();
    expect(c.stdout).not.toContain('SECRET');
  }, 60_000);

  it('keeps one sbatch of one array for a sweep that fits, its submit.sh the same call', async () => {
    const out = await write(PLAN, 'small', ['--max-parallel', '4']);
    const dir = join(tmp.dir, 'small');
    expect(out.arrays).toEqual([{ offset: 0, array: '0-11' }]);
    expect(readFileSync(join(dir, 'sweep.sbatch'), 'utf8')).toMatch(/^#SBATCH --array=0-11%4$/m);
    expect(bash(join(dir, 'submit.sh')).stdout).toBe('Submitted batch job 701 (--array=0-11%4, GPULAB_OFFSET=0)\n');
    expect(calls()).toEqual([['--parsable', '--array=0-11%4', '--export=ALL,GPULAB_OFFSET=0', 'sweep.sbatch']]);
  }, 60_000);

  it('runs the right points from arrays at offsets, and resubmits the rest in arrays of the same bound', async () => {
    // The bound from the environment (a site's setting), as --array-max gives it.
    const out = await write(PLAN, 'parts', [], { GPULAB_ARRAY_MAX: '5' });
    const dir = join(tmp.dir, 'parts');
    expect(out).toMatchObject({ points: 12, arrayMax: 5 });
    expect(out.arrays).toEqual([
      { offset: 0, array: '0-4' },
      { offset: 5, array: '0-4' },
      { offset: 10, array: '0-1' },
    ]);
    const submit = readFileSync(join(dir, 'submit.sh'), 'utf8');
    expect(submit).not.toContain('--dependency');
    expect(spawnSync('bash', ['-n', join(dir, 'submit.sh')]).status).toBe(0);

    // Two tasks as Slurm starts them: part 2's task 0 (point 5) and part 3's task 1 (point 11); each
    // point run as its task line says (the whole path through Slurm: tests/slurm/run.sh).
    for (const [offset, task] of [
      [5, 0],
      [10, 1],
    ]) {
      const line = taskLine(dir, String(offset), task);
      expect(line).toBe(`sweep task plan.json --index ${offset + task} --out bundles/`);
      const r = await cli(['sweep', 'task', join(dir, 'plan.json'), '--index', String(offset + task), '--out', join(dir, 'bundles')]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^point ${offset + task}: done`));
    }
    expect(readdirSync(join(dir, 'bundles')).sort()).toEqual(['point-000005.gmlbundle', 'point-000011.gmlbundle']);

    const db = tmp.file('lab.db');
    writeFileSync(join(dir, 'resubmit.sbatch'), 'stale');
    const c = JSON.parse((await cli(['sweep', 'collect', dir, '--db', db, '--format', 'json', '--resubmit'])).stdout) as { done: number; missing: number[]; resubmitArrays: unknown };
    expect(c).toMatchObject({ done: 2, missing: [0, 1, 2, 3, 4, 6, 7, 8, 9, 10] });
    // The bound recorded in sweep.sbatch (5), with no GPULAB_ARRAY_MAX here.
    expect(c.resubmitArrays).toEqual([
      { offset: 0, array: '0-4' },
      { offset: 5, array: '1-4' },
      { offset: 10, array: '0' },
    ]);
    expect(existsSync(join(dir, 'resubmit.sbatch'))).toBe(false);
    const r = bash(join(dir, 'resubmit.sh'));
    expect(r.status, r.stderr).toBe(0);
    expect(covered(calls().map((a) => ({ offset: Number(a[2]!.split('=').at(-1)), array: a[1]!.slice('--array='.length) })), 5)).toEqual(c.missing);

    // The points ran are the plan's: point 5 is fermi at the last stride, point 11 kepler's.
    const store = RunStore.open(db, { recoverInterrupted: false });
    try {
      const rows = store.connection.prepare('SELECT point, run_id FROM sweep_runs ORDER BY point').all() as { point: number; run_id: string }[];
      expect(rows.map((x) => x.point)).toEqual([5, 11]);
      expect(rows.map((x) => [store.getRun(x.run_id).preset!.id, store.getRun(x.run_id).params.stride])).toEqual([
        ['fermi', 1024],
        ['kepler', 1024],
      ]);
    } finally {
      store.close();
    }

    // A larger bound: one array from offset 0, so resubmit.sbatch too, as ever.
    const one = JSON.parse((await cli(['sweep', 'collect', dir, '--db', db, '--format', 'json', '--resubmit'], { GPULAB_ARRAY_MAX: '1000' })).stdout) as { resubmitArrays: unknown };
    expect(one.resubmitArrays).toEqual([{ offset: 0, array: '0-4,6-10' }]);
    const single = readFileSync(join(dir, 'resubmit.sbatch'), 'utf8');
    expect(single).toMatch(/^#SBATCH --array=0-4,6-10$/m);
    expect(single.replace(/^#SBATCH --array=.*$/m, '')).toBe(readFileSync(join(dir, 'sweep.sbatch'), 'utf8').replace(/^#SBATCH --array=.*$/m, ''));

    const refused = await cli(['sweep', join(tmp.dir, 'parts.json'), '--slurm', join(tmp.dir, 'other'), '--db', tmp.file('plan.db')], { GPULAB_ARRAY_MAX: '0' });
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/GPULAB_ARRAY_MAX must be a whole number from 1 to 4000000/);
  }, 120_000);

  it('takes --array-max', async () => {
    const ctx: StoreContext = { version: '0.0.0-test', status: null, usage: (message) => new Error(message) };
    const planFile = join(tmp.dir, 'plan.json');
    writeFileSync(planFile, JSON.stringify(PLAN));
    const saved = process.env.GPULAB_ARRAY_MAX;
    process.env.GPULAB_ARRAY_MAX = '9';
    try {
      const r = await sweepCommand([planFile], { slurm: join(tmp.dir, 'a'), arrayMax: '4', db: tmp.file('plan.db') }, 'json', ctx);
      expect((JSON.parse(r.stdout) as { arrays: unknown }).arrays).toEqual([
        { offset: 0, array: '0-3' },
        { offset: 4, array: '0-3' },
        { offset: 8, array: '0-3' },
      ]);
      await expect(sweepCommand([planFile], { slurm: join(tmp.dir, 'b'), arrayMax: '1e3', db: tmp.file('plan.db') }, 'json', ctx)).rejects.toThrow(/--array-max must be a whole number/);
      expect(() => sweepCommand([planFile], { arrayMax: '4' }, 'json', ctx)).toThrow(/--array-max go with --slurm/);
    } finally {
      if (saved === undefined) delete process.env.GPULAB_ARRAY_MAX;
      else process.env.GPULAB_ARRAY_MAX = saved;
    }
  }, 60_000);
});
