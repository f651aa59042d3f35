/**
 * What a timing-tier sweep costs, measured through the Slurm path without Slurm: a 100-point plan
 * (LASH's stencil on fermi480, int elements: 5 array sizes x 5 L1 MSHR counts x L1 on or bypassed x
 * the LRR or GTO scheduler)
 * written with `gpulab sweep --slurm`, every task run as its own process as a job array would
 * (`gpulab sweep task`), then `gpulab sweep collect` into a new database, twice (the second pass
 * finds every run already there), and sweeps.get / sweeps.csv on the result.
 *
 *   npx tsx scripts/sweep-cost.ts               # all 100 tasks, one at a time (about 7 min on 2 cores)
 *   npx tsx scripts/sweep-cost.ts --jobs 2      # two tasks at once
 *   npx tsx scripts/sweep-cost.ts --tasks 20    # only the first 20 points (collect sees 20 bundles)
 *   npx tsx scripts/sweep-cost.ts --keep        # keep the folder (plan, bundles, database)
 *
 * Prints the figures and their extrapolation to 10,000 points (linear in the points: the task and
 * collect times, the bundle and database bytes), and the same as JSON on the last line.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXPERIMENTS } from '../src-sim/experiments';
import { runCli } from '../src-main/cli/main';
import { RunStore } from '../src-main/services/store';
import { SweepService } from '../src-main/services/sweep/service';

const ROOT = new URL('..', import.meta.url).pathname;
const GPULAB = [process.execPath, join(ROOT, 'bin', 'gpulab.mjs')];

const PLAN = {
  name: 'cost: LASH stencil, size x L1 MSHRs x L1 x scheduler',
  experiment: 'lash-stencil',
  presets: ['fermi480'],
  params: { types: [4] },
  axes: [
    { param: 'n', values: [131072, 262144, 393216, 524288, 655360] },
    { field: 'timing.l1.mshrEntries', name: 'mshrs', values: [16, 24, 32, 48, 64] },
    { param: 'l1', values: ['hw', 'bypass'] },
    { param: 'scheduler', values: ['lrr', 'gto'] },
  ],
  seed: { rule: 'per-point', base: 1 },
};
const POINTS = 100;

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const n = Number(process.argv[i + 1]);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} takes a whole number from 1`);
  return n;
}
const TASKS = Math.min(POINTS, option('tasks', POINTS));
const JOBS = option('jobs', 1);
const KEEP = process.argv.includes('--keep');

/** CPU seconds of this process's waited-for children (Linux /proc; 0 elsewhere). */
function childCpuSeconds(): number {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').replace(/^.*\) /, '').split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100; // cutime + cstime, in USER_HZ (100)
  } catch {
    return 0;
  }
}

/** Runs the CLI as a process of its own: its wall and CPU seconds, and its output. */
function gpulab(args: string[]): { seconds: number; cpu: number; stdout: string } {
  const cpu0 = childCpuSeconds();
  const t0 = performance.now();
  const r = spawnSync(GPULAB[0]!, [...GPULAB.slice(1), ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const seconds = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`gpulab ${args.join(' ')}: exit ${r.status}\n${r.stdout}${r.stderr}`);
  return { seconds, cpu: childCpuSeconds() - cpu0, stdout: r.stdout };
}

/** The CLI in this process (no process start): its wall seconds and output. */
async function gpulabHere(args: string[]): Promise<{ seconds: number; stdout: string }> {
  const t0 = performance.now();
  const r = await runCli(args, { version: 'sweep-cost', readFile: (f) => readFileSync(f, 'utf8'), status: null });
  const seconds = (performance.now() - t0) / 1000;
  if (r.code !== 0) throw new Error(`gpulab ${args.join(' ')}: exit ${r.code}\n${r.stdout}${r.stderr}`);
  return { seconds, stdout: r.stdout };
}

const fileBytes = (db: string) => ['', '-wal', '-shm'].reduce((a, s) => a + (existsSync(db + s) ? statSync(db + s).size : 0), 0);

function task(planFile: string, bundles: string, index: number): Promise<number> {
  return new Promise((resolveTask, reject) => {
    const t0 = performance.now();
    const child = spawn(GPULAB[0]!, [...GPULAB.slice(1), 'sweep', 'task', planFile, '--index', String(index), '--out', bundles], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stdout.on('data', (d: Buffer) => (err += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => (code === 0 ? resolveTask((performance.now() - t0) / 1000) : reject(new Error(`task ${index}: exit ${code}\n${err}`))));
  });
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { mean: s.reduce((a, b) => a + b, 0) / s.length, min: s[0]!, median: s[Math.floor(s.length / 2)]!, max: s[s.length - 1]! };
};
const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`;
const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;
const sec = (s: number) => (s >= 3600 ? `${(s / 3600).toFixed(1)} h` : s >= 120 ? `${(s / 60).toFixed(1)} min` : `${s.toFixed(s < 10 ? 2 : 1)} s`);

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'gpulab-sweep-cost-'));
  try {
    const planFile = join(dir, 'plan.json');
    writeFileSync(planFile, JSON.stringify(PLAN, null, 2));
    const sweepDir = join(dir, 'sweep');
    gpulab(['sweep', planFile, '--slurm', sweepDir, '--db', join(dir, 'planning.db')]);
    const bundles = join(sweepDir, 'bundles');
    // The fixed part of a collect (process start, the database created, the sweep recorded): no bundles yet.
    const emptyDb = join(dir, 'empty.db');
    const empty = gpulab(['sweep', 'collect', sweepDir, '--db', emptyDb, '--format', 'json']);
    const emptyBytes = fileBytes(emptyDb);

    // The tasks, JOBS at a time, each a process of its own as a Slurm array task is.
    const times: number[] = new Array(TASKS);
    const cpu0 = childCpuSeconds();
    const t0 = performance.now();
    let next = 0;
    const lane = async () => {
      while (next < TASKS) {
        const i = next++;
        times[i] = await task(join(sweepDir, 'plan.json'), bundles, i);
        if (process.stderr.isTTY) process.stderr.write(`\rtasks ${next}/${TASKS}`);
      }
    };
    await Promise.all(Array.from({ length: JOBS }, lane));
    const taskWall = (performance.now() - t0) / 1000;
    const taskCpu = (childCpuSeconds() - cpu0) / TASKS;
    if (process.stderr.isTTY) process.stderr.write('\n');
    const sizes = readdirSync(bundles).filter((n) => n.endsWith('.gmlbundle')).map((n) => statSync(join(bundles, n)).size);

    // Collect into a new database, then again (every run already there).
    const db = join(dir, 'collected.db');
    const first = gpulab(['sweep', 'collect', sweepDir, '--db', db, '--format', 'json']);
    const report = JSON.parse(first.stdout) as { done: number; imported: number };
    if (report.done !== TASKS || report.imported !== TASKS) throw new Error(`collect: ${first.stdout}`);
    const second = gpulab(['sweep', 'collect', sweepDir, '--db', db, '--format', 'json']);
    const dbBytes = fileBytes(db);
    // The same in this process, without the process start: the cost of a bundle alone.
    await gpulabHere(['sweep', 'collect', sweepDir, '--db', join(dir, 'warm.db'), '--out', join(dir, 'none'), '--format', 'json']);
    const here = await gpulabHere(['sweep', 'collect', sweepDir, '--db', join(dir, 'here.db'), '--format', 'json']);
    const hereAgain = await gpulabHere(['sweep', 'collect', sweepDir, '--db', join(dir, 'here.db'), '--format', 'json']);

    // The sweep view's read and the CSV export, in this process.
    const store = RunStore.open(db, { appVersion: 'sweep-cost', recoverInterrupted: false });
    let getSeconds: number, csvSeconds: number, simSeconds: number[];
    try {
      const sweeps = new SweepService({ store, experiments: EXPERIMENTS });
      const id = sweeps.list()[0]!.id;
      let t = performance.now();
      const detail = sweeps.get(id);
      getSeconds = (performance.now() - t) / 1000;
      t = performance.now();
      sweeps.csv(id);
      csvSeconds = (performance.now() - t) / 1000;
      simSeconds = detail.points.filter((p) => p.durationMs !== null).map((p) => p.durationMs! / 1000);
    } finally {
      store.close();
    }

    const wall = stats(times);
    const sim = stats(simSeconds);
    const bundle = stats(sizes);
    const perBundleCollect = here.seconds / TASKS;
    const perPointBytes = (dbBytes - emptyBytes) / TASKS;
    const figures = {
      machine: `${cpus()[0]?.model ?? 'unknown CPU'}, ${availableParallelism()} cores`,
      tasks: TASKS,
      jobs: JOBS,
      taskWallSeconds: wall,
      taskCpuSeconds: taskCpu,
      simulationSeconds: sim,
      tasksWallSeconds: taskWall,
      bundleBytes: { ...bundle, total: sizes.reduce((a, b) => a + b, 0) },
      collectEmptySeconds: { wall: empty.seconds, cpu: empty.cpu },
      collectSeconds: { wall: first.seconds, cpu: first.cpu },
      collectAgainSeconds: { wall: second.seconds, cpu: second.cpu },
      collectInProcessSeconds: { first: here.seconds, again: hereAgain.seconds },
      databaseBytes: { empty: emptyBytes, collected: dbBytes },
      sweepsGetSeconds: getSeconds,
      sweepsCsvSeconds: csvSeconds,
    };
    const lines = [
      `${figures.machine}; ${TASKS} tasks of ${PLAN.experiment} on ${PLAN.presets.join(', ')}, ${JOBS} at a time`,
      `task (one process: start, simulate, write the bundle): wall mean ${sec(wall.mean)} (min ${sec(wall.min)}, max ${sec(wall.max)}), CPU ${sec(taskCpu)}; the simulation alone ${sec(sim.mean)} (min ${sec(sim.min)}, max ${sec(sim.max)})`,
      `all ${TASKS} tasks: ${sec(taskWall)}`,
      `bundle: mean ${kb(bundle.mean)} (min ${kb(bundle.min)}, max ${kb(bundle.max)}), ${mb(figures.bundleBytes.total)} in all`,
      `collect of ${TASKS} bundles into a new database: ${sec(first.seconds)} wall, ${sec(first.cpu)} CPU (with no bundles ${sec(empty.seconds)}, ${sec(empty.cpu)} CPU); again (all already there): ${sec(second.seconds)}`,
      `collect in this process, without the start: ${sec(here.seconds)}, ${(perBundleCollect * 1000).toFixed(1)} ms a bundle; again ${sec(hereAgain.seconds)}, ${((hereAgain.seconds / TASKS) * 1000).toFixed(1)} ms a bundle`,
      `database after collect: ${mb(dbBytes)}; with the sweep and no runs ${mb(emptyBytes)}: ${kb(perPointBytes)} a point`,
      `sweeps.get: ${sec(getSeconds)}, sweeps.csv: ${sec(csvSeconds)}`,
      '',
      'At 10,000 points (linear in the points):',
      `  task time: ${sec(wall.mean * 10_000)} in all; ${sec((wall.mean * 10_000) / 32)} on 64 cores (32 tasks at once, 2 CPUs each), ${sec((wall.mean * 10_000) / 500)} on 1,000`,
      `  bundles: ${mb(bundle.mean * 10_000)}; collect: ${sec(perBundleCollect * 10_000)}; database: ${mb(emptyBytes + perPointBytes * 10_000)}; sweeps.get: ${sec((getSeconds / TASKS) * 10_000)}`,
    ];
    console.log(lines.join('\n'));
    console.log(JSON.stringify(figures));
    if (KEEP) console.error(`kept ${dir}`);
  } finally {
    if (!KEEP) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
