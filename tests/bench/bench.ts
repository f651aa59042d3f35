/**
 * Simulator speed (`npm run bench`): the latency tier's access path against a yardstick, (a) a P-chase
 * that stays in the Fermi L1, (b) a global P-chase that misses every cache and TLB on the way to DRAM,
 * (d) the timing tier's LASH stencil of three types, (c) the wall time of `reproduce` for the latency
 * tier's rows (MEI, WONG: in this process) and for the timing tier's (LASH, SL1: the scorecard as the
 * workbench and `gpulab reproduce` run it, over one simulation process a core, at most four).
 *
 * The latency tier is measured in one alternating run: every round runs each contender in turn (the
 * yardstick, the generic path, the path compiled for the geometry), so a load that comes and goes
 * on a shared machine falls on all of them alike; each is timed by the wall clock and by the process's
 * CPU time (process.cpuUsage), and the best round of each is reported. The machine's load average is
 * printed before and after.
 *
 * (f, g) The run view and the cache view of a 2M-access run in the browser mode (tests/bench/views.ts;
 * the built renderer and Chromium needed, else the rows say why they did not run). (h) The scorecard
 * as the workbench runs it (every row on its own presets, over simulation processes): each paper
 * alone, then all of them, against budgets set here.
 *
 * Prints measured values beside their targets. Exits 0 regardless, unless --check is given: then exit
 * 1 when a target is missed. --latency runs the latency tier's rows only; --templates the template
 * row (e) alone; --views (f, g) alone; --scorecard (h) alone.
 */
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { openSpace } from '../../src-sim/experiments/pchase';
import { compilePath } from '../../src-sim/model/compiled';
import type { CompiledPath } from '../../src-sim/model/compiled';
import { Chip, PathModel } from '../../src-sim/model/path';
import type { CacheLevelConfig, PathConfig } from '../../src-sim/model/path';
import { findPreset } from '../../src-sim/presets';
import type { Preset } from '../../src-sim/presets/types';
import { ForkLauncher } from '../../src-main/services/pool/node-launcher';
import { DEFAULT_ROW_JOBS, outcomeRows, rowJobs, runRowsInParallel } from '../../src-main/services/pool/rows-parallel';
import { reproduce, rowPlans, selectRows } from '../../src-sim/reference';
import { benchViews } from './views';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { resolveParams } from '../../src-sim/experiments/params';
import { galleryTemplates } from '../repro/gallery';
import { Rng } from '../../src-sim/rng';
import { simulate } from '../../src-sim/timing/engine';
import { ELEM_TYPES, LASH_STENCIL, stencilKernels } from '../../src-sim/timing/workloads/lash';

const KB = 1024;
const MB = 1024 * KB;
const check = process.argv.includes('--check');
const latencyOnly = process.argv.includes('--latency');
const templatesOnly = process.argv.includes('--templates');
const viewsOnly = process.argv.includes('--views');
const scorecardOnly = process.argv.includes('--scorecard');
const only = latencyOnly || templatesOnly || viewsOnly || scorecardOnly;
const fermi = findPreset('fermi') as Preset;
const ROUNDS = 5;

interface Row {
  name: string;
  measured: string;
  target: string;
  met: boolean;
  detail: string;
}
const rows: Row[] = [];
const loadBefore = loadavg();

// ---- The yardstick: a plain typed-array LRU cache, kept here as the machine's measure -------------

/**
 * A minimal set-associative LRU cache written by hand over Int32Arrays (what one would write in C):
 * a tag and a use stamp per way, a hit refreshes the stamp, a miss replaces the way with the oldest
 * stamp (invalid ways, stamp 0, first, in way order). Power-of-two sets and lines only.
 */
class Yardstick {
  readonly tags: Int32Array;
  readonly stamps: Int32Array;
  readonly ways: number;
  readonly setMask: number;
  readonly lineShift: number;
  now = 0;
  constructor(bytes: number, ways: number, lineBytes: number) {
    const sets = bytes / lineBytes / ways;
    this.tags = new Int32Array(sets * ways).fill(-1);
    this.stamps = new Int32Array(sets * ways);
    this.ways = ways;
    this.setMask = sets - 1;
    this.lineShift = Math.log2(lineBytes);
  }
}

/** One access of the yardstick: 1 on a hit, 0 on a miss (the line is then filled). */
function yardAccess(y: Yardstick, addr: number): number {
  const tags = y.tags;
  const stamps = y.stamps;
  const line = addr >>> y.lineShift;
  const base = (line & y.setMask) * y.ways;
  const end = base + y.ways;
  const now = ++y.now;
  let victim = base;
  for (let w = base; w < end; w++) {
    if (tags[w] === line) {
      stamps[w] = now;
      return 1;
    }
    if (stamps[w] < stamps[victim]) victim = w;
  }
  tags[victim] = line;
  stamps[victim] = now;
  return 0;
}

/** The latencies every contender sums: an L1 hit 1, an L2 hit 10, memory 100 (so equal sums mean equal hit counts). */
const LAT = { l1: 1, l2: 10, mem: 100 };

/** The yardstick's latency of one access through an L1 and an optional L2. */
function yardPath(l1: Yardstick, l2: Yardstick | null, addr: number): number {
  if (yardAccess(l1, addr) === 1) return LAT.l1;
  if (l2 === null) return LAT.mem;
  return yardAccess(l2, addr) === 1 ? LAT.l2 : LAT.mem;
}

function benchLevel(name: string, bytes: number, ways: number): CacheLevelConfig {
  const lineBytes = 128;
  return { name, sizeBytes: bytes, scope: 'sm', geometry: { lineBytes, sets: bytes / lineBytes / ways, ways, index: { kind: 'bits' }, policy: { kind: 'lru' } } };
}

/** The same hierarchy as the yardstick's, as a path of the project's model. */
function benchPath(withL2: boolean): PathModel {
  const cfg: PathConfig = {
    description: 'bench',
    levels: [benchLevel('L1', 16 * KB, 4), ...(withL2 ? [benchLevel('L2', MB, 8)] : [])],
    latency: { 'L1/-': LAT.l1, 'memory/-': LAT.mem, ...(withL2 ? { 'L2/-': LAT.l2 } : {}) },
    interconnectFrom: withL2 ? 2 : 1,
  };
  return new PathModel(cfg, new Chip(1, 1));
}

// ---- Alternating rounds ----------------------------------------------------------------------------

/** One contender: runs its next `count` accesses and returns the sum of their latencies. */
interface Contender {
  name: string;
  run: () => number;
  accesses: number;
}

interface Timing {
  /** Best rates over the rounds, accesses per second, by wall-clock and by CPU time. */
  wall: number;
  cpu: number;
  /** Sum of latencies of the first timed round (the same for every contender of a pattern). */
  sum: number;
}

/** Runs the contenders in turn, ROUNDS times after one untimed round, and keeps each one's best. */
function alternate(contenders: Contender[]): Timing[] {
  const out = contenders.map(() => ({ wall: 0, cpu: 0, sum: NaN }));
  for (const c of contenders) c.run();
  for (let r = 0; r < ROUNDS; r++) {
    contenders.forEach((c, i) => {
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const sum = c.run();
      const wall = (performance.now() - t0) / 1000;
      const cu = process.cpuUsage(cpu0);
      const cpu = (cu.user + cu.system) / 1e6;
      const o = out[i];
      if (r === 0) o.sum = sum;
      o.wall = Math.max(o.wall, c.accesses / wall);
      o.cpu = Math.max(o.cpu, c.accesses / Math.max(cpu, 1e-6));
    });
  }
  return out;
}

const M = (r: number): string => `${(r / 1e6).toFixed(1)}`;

/** Stride contenders over [0, N): the yardstick, the generic path and the compiled path, each its own state. */
function strideContenders(N: number, s: number, count: number, withL2: boolean): Contender[] {
  const y1 = new Yardstick(16 * KB, 4, 128);
  const y2 = withL2 ? new Yardstick(MB, 8, 128) : null;
  let jy = 0;
  const generic = benchPath(withL2);
  let jg = 0;
  const compiled = compilePath(benchPath(withL2)) as CompiledPath;
  let jc = 0;
  return [
    {
      name: 'yardstick',
      accesses: count,
      run: () => {
        let sum = 0;
        for (let i = 0; i < count; i++) {
          sum += yardPath(y1, y2, jy);
          jy += s;
          if (jy >= N) jy -= N;
        }
        return sum;
      },
    },
    {
      name: 'generic',
      accesses: count,
      run: () => {
        let sum = 0;
        for (let i = 0; i < count; i++) {
          sum += generic.access(jg);
          jg += s;
          if (jg >= N) jg -= N;
        }
        return sum;
      },
    },
    {
      name: 'compiled',
      accesses: count,
      run: () => {
        const sum = compiled.walk(N, s, 0, jc, count);
        jc = compiled.next;
        return sum;
      },
    },
  ];
}

/** Contenders over a fixed address list. */
function listContenders(addrs: Float64Array, withL2: boolean): Contender[] {
  const y1 = new Yardstick(16 * KB, 4, 128);
  const y2 = withL2 ? new Yardstick(MB, 8, 128) : null;
  const generic = benchPath(withL2);
  const compiled = compilePath(benchPath(withL2)) as CompiledPath;
  const n = addrs.length;
  return [
    {
      name: 'yardstick',
      accesses: n,
      run: () => {
        let sum = 0;
        for (let i = 0; i < n; i++) sum += yardPath(y1, y2, addrs[i]);
        return sum;
      },
    },
    {
      name: 'generic',
      accesses: n,
      run: () => {
        let sum = 0;
        for (let i = 0; i < n; i++) sum += generic.access(addrs[i]);
        return sum;
      },
    },
    { name: 'compiled', accesses: n, run: () => compiled.array(addrs, 0, n) },
  ];
}

// The yardstick's patterns: a 16 KB 4-way LRU L1 of 128 B lines (and a 1 MB 8-way L2 in the last).
if (!only || latencyOnly) {
  const rng = new Rng(2024);
  const random = Float64Array.from({ length: 4_000_000 }, () => rng.int((64 * MB) / 4) * 4);
  const patterns: [string, Contender[]][] = [
    ['stride 128 B over 20 KB', strideContenders(20 * KB, 128, 10_000_000, false)],
    ['stride 4 B over 24 KB', strideContenders(24 * KB, 4, 20_000_000, false)],
    ['random over 64 MB', listContenders(random, false)],
    ['random over 64 MB, L1 + L2', listContenders(random, true)],
  ];
  for (const [name, cs] of patterns) {
    const [y, g, c] = alternate(cs);
    if (g.sum !== y.sum || c.sum !== y.sum) throw new Error(`bench: ${name}: the contenders disagree (sums ${y.sum}, ${g.sum}, ${c.sum})`);
    const ratio = c.cpu / y.cpu;
    rows.push({
      name: `yardstick: ${name}`,
      measured: `${ratio.toFixed(2)}x`,
      target: '>= 2x the yardstick',
      met: ratio >= 2,
      detail: `M accesses/s CPU (wall): compiled ${M(c.cpu)} (${M(c.wall)}), generic ${M(g.cpu)} (${M(g.wall)}), yardstick ${M(y.cpu)} (${M(y.wall)}); generic ${(g.cpu / y.cpu).toFixed(2)}x; identical latency sums`,
    });
  }
}

/** Where the accesses of a chase were served: "level/TLB outcome" -> share. */
function outcomes(model: PathModel, N: number, s: number, accesses: number, start: number): string {
  const counts = new Map<string, number>();
  let j = start;
  for (let i = 0; i < accesses; i++) {
    model.access(j);
    const k = `${model.levelName(model.lastLevel)}/${model.lastTlb}`;
    counts.set(k, (counts.get(k) ?? 0) + 1);
    j += s;
    if (j >= N) j -= N;
  }
  return [...counts.entries()].map(([k, c]) => `${k} ${((100 * c) / accesses).toFixed(0)} %`).join(', ');
}

/** (a) and (b): the generic and the compiled Fermi global path, alternating; the target on the compiled path's CPU time. */
function chaseRow(name: string, N: number, s: number, count: number, target: number): void {
  const generic = openSpace(fermi, 'global', 1);
  const model = openSpace(fermi, 'global', 1);
  const compiled = compilePath(model) as CompiledPath;
  let jg = 0;
  let jc = 0;
  const [g, c] = alternate([
    {
      name: 'generic',
      accesses: count,
      run: () => {
        let sum = 0;
        for (let i = 0; i < count; i++) {
          sum += generic.access(jg);
          jg += s;
          if (jg >= N) jg -= N;
        }
        return sum;
      },
    },
    {
      name: 'compiled',
      accesses: count,
      run: () => {
        const sum = compiled.walk(N, s, 0, jc, count);
        jc = compiled.next;
        return sum;
      },
    },
  ]);
  if (g.sum !== c.sum) throw new Error(`bench: ${name}: generic and compiled paths disagree`);
  rows.push({
    name,
    measured: `${M(c.cpu)} M accesses/s`,
    target: `>= ${target / 1e6} M/s (CPU time)`,
    met: c.cpu >= target,
    detail: `compiled ${M(c.cpu)} M/s CPU, ${M(c.wall)} M/s wall; generic path ${M(g.cpu)} M/s CPU, ${M(g.wall)} M/s wall (${(c.cpu / g.cpu).toFixed(2)}x); ${outcomes(openSpace(fermi, 'global', 1), N, s, 100_000, 0)}`,
  });
}

// (a) 12 KB with 128 B stride: 96 lines in the 16 KB L1 (3 per set of 4 ways), one 2 MB page in the L1 TLB.
if (!only || latencyOnly) chaseRow('(a) L1-resident P-chase (Fermi global, N = 12 KB, s = 128 B)', 12 * KB, 128, 20_000_000, 100e6);
// (b) 512 MB with 2 MB + 128 B stride: 256 pages (over the 16-entry L1 TLB and 65-entry L2 TLB), and the
// address sequence repeats only after 4 M accesses, so every load misses L1 and L2 and goes to DRAM.
if (!only || latencyOnly) chaseRow('(b) full-path P-chase (Fermi global, N = 512 MB, s = 2 MB + 128 B)', 512 * MB, 2 * MB + 128, 3_000_000, 25e6);

// (d) the timing tier: LASH's full stencil (15 SMs, 512K elements, 4 launches) for int, short and char.
if (!only) {
  const preset = findPreset('fermi480') as Preset;
  let cycles = 0;
  let instructions = 0;
  let progressCalls = 0;
  const each: string[] = [];
  const t0 = performance.now();
  for (const type of ELEM_TYPES) {
    const t1 = performance.now();
    const st = simulate(preset.timing!, stencilKernels({ ...LASH_STENCIL, type }), { l1: 'hw', scheduler: 'lrr', progress: () => progressCalls++ });
    cycles += st.cycles;
    instructions += st.warpInstructions;
    each.push(`${type} ${((performance.now() - t1) / 1000).toFixed(2)} s`);
  }
  const seconds = (performance.now() - t0) / 1000;
  rows.push({
    name: '(d) timing tier: LASH stencil x int/short/char (fermi480)',
    measured: `${seconds.toFixed(2)} s`,
    target: '< 5 s',
    met: seconds < 5,
    detail: `one full stencil each: ${each.join(', ')}; ${(cycles / seconds / 1e6).toFixed(2)} M simulated cycles/s, ${(instructions / seconds / 1e6).toFixed(2)} M warp instructions/s, ${cycles} cycles, ${progressCalls} progress reports`,
  });
}

// (e) what a lab waits on: every run a gallery template starts, in this process (as a simulation
// process runs it), each against 3 s.
const TEMPLATE_RUN_S = 3;
if (!only || templatesOnly) {
  const times: { what: string; s: number }[] = [];
  for (const { row, e } of galleryTemplates())
    for (const plan of rowPlans(row, e.id)) {
      const preset = findPreset(plan.preset) as Preset;
      for (const raw of plan.params) {
        const t = performance.now();
        e.run(preset, resolveParams(e.params, raw), 1, () => {});
        times.push({ what: `${row.id} ${e.id} on ${plan.preset}`, s: (performance.now() - t) / 1000 });
      }
    }
  times.sort((a, b) => b.s - a.s);
  const over = times.filter((t) => t.s >= TEMPLATE_RUN_S);
  rows.push({
    name: '(e) every gallery template run (this process)',
    measured: `${times[0]?.s.toFixed(2) ?? '0'} s slowest`,
    target: `< ${TEMPLATE_RUN_S} s each`,
    met: over.length === 0,
    detail: `${times.length} runs, ${over.length} of ${TEMPLATE_RUN_S} s or more${over.length ? `: ${over.slice(0, 8).map((t) => `${t.what} ${t.s.toFixed(1)} s`).join('; ')}` : ''}; the fastest half under ${times[Math.floor(times.length / 2)]?.s.toFixed(2) ?? '0'} s`,
  });
}

// (c) every reproduction row on its own presets: the latency tier's rows (MEI, WONG) in this process
// against the 5 s target, and the timing tier's rows (LASH, SL1: whole-GPU simulations) as the
// scorecard runs them, over simulation processes, against 90 s of wall time.
if (!only) {
  const t0 = performance.now();
  const results = ['MEI', 'WONG'].flatMap((p) => reproduce(p));
  const seconds = (performance.now() - t0) / 1000;
  rows.push({
    name: '(c) reproduce MEI + WONG (latency tier, this process)',
    measured: `${seconds.toFixed(2)} s`,
    target: '< 5 s',
    met: seconds < 5,
    detail: `${results.length} row runs, ${results.filter((r) => r.pass).length} pass`,
  });
  const jobs = [...rowJobs('LASH'), ...rowJobs('SL1')];
  const t1 = performance.now();
  const outcomes = await runRowsInParallel(new ForkLauncher(), jobs, { concurrency: DEFAULT_ROW_JOBS, seed: 1, timeLimitMs: 30 * 60_000 }).done;
  const wall = (performance.now() - t1) / 1000;
  const timing = outcomes.flatMap(outcomeRows);
  const errors = outcomes.filter((o) => o.error !== undefined).length;
  rows.push({
    name: `(c) reproduce LASH + SL1 (timing tier, ${DEFAULT_ROW_JOBS} processes)`,
    measured: `${wall.toFixed(2)} s`,
    target: '< 90 s',
    met: wall < 90 && errors === 0,
    detail: `${timing.length} row runs, ${timing.filter((r) => r.pass).length} pass${errors ? `, ${errors} without a result` : ''}; wall time, process start-up included`,
  });
}

// (f, g) the run view and the cache view of a 2M-access run, in the browser mode.
if (!only || viewsOnly) {
  const missing = !existsSync(resolve(import.meta.dirname, '../../out/renderer/index.html'))
    ? 'the built renderer is missing (npm run build)'
    : !existsSync(process.env.CHROME_PATH ?? '/usr/bin/chromium')
      ? `no Chromium at ${process.env.CHROME_PATH ?? '/usr/bin/chromium'} (apt-get install -y chromium, or CHROME_PATH)`
      : undefined;
  if (missing) rows.push({ name: '(f, g) run view and cache view of a 2M-access run', measured: 'not run', target: '< 1 s', met: false, detail: missing });
  else rows.push(...(await benchViews()));
}

// (h) the scorecard as the workbench runs it: every row on its own presets over simulation processes
// (process start-up included), each paper alone and then all of them.
// Budgets: a latency-tier paper's scorecard is what a lab opens and reads at once (5 s); the timing
// tier's papers (LASH, SL1) simulate whole GPUs cycle by cycle, a minute each; all of them in 2 min.
const TIMING_PAPERS = new Set(['LASH', 'SL1']);
const paperBudget = (paper: string): number => (TIMING_PAPERS.has(paper) ? 60 : 5);
const ALL_BUDGET_S = 120;
if (!only || scorecardOnly) {
  const papers = [...new Set(selectRows('all').map((r) => r.paper))];
  const each: { paper: string; s: number; rows: number; pass: number; errors: number }[] = [];
  const score = async (selector: string) => {
    const t = performance.now();
    const outcomes = await runRowsInParallel(new ForkLauncher(), rowJobs(selector), { concurrency: DEFAULT_ROW_JOBS, seed: 1, timeLimitMs: 30 * 60_000 }).done;
    const r = outcomes.flatMap(outcomeRows);
    return { s: (performance.now() - t) / 1000, rows: r.length, pass: r.filter((x) => x.pass).length, errors: outcomes.filter((o) => o.error !== undefined).length };
  };
  for (const paper of papers) each.push({ paper, ...(await score(paper)) });
  each.sort((a, b) => b.s - a.s);
  rows.push({
    name: `(h) scorecard of one paper (${DEFAULT_ROW_JOBS} processes)`,
    measured: `${each[0]!.s.toFixed(2)} s slowest`,
    target: '< 5 s, LASH and SL1 < 60 s',
    met: each.every((e) => e.s < paperBudget(e.paper) && e.errors === 0),
    detail: each.map((e) => `${e.paper} ${e.s.toFixed(1)} s (${e.rows} row runs)${e.s < paperBudget(e.paper) ? '' : ' OVER'}`).join(', '),
  });
  const whole = await score('all');
  rows.push({
    name: `(h) scorecard of every paper (${DEFAULT_ROW_JOBS} processes)`,
    measured: `${whole.s.toFixed(2)} s`,
    target: `< ${ALL_BUDGET_S} s`,
    met: whole.s < ALL_BUDGET_S && whole.errors === 0,
    detail: `${whole.rows} row runs, ${whole.pass} pass${whole.errors ? `, ${whole.errors} without a result` : ''}; wall time, process start-up included`,
  });
}

const widths = [0, 1, 2].map((c) => Math.max(...rows.map((r) => [r.name, r.measured, r.target][c].length)));
const load = (l: number[]): string => l.map((x) => x.toFixed(2)).join(' ');
console.log(`Simulator bench: Node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'} x ${cpus().length}`);
console.log(`Load average (1, 5, 15 min): ${load(loadBefore)} before, ${load(loadavg())} after; ${ROUNDS} alternating rounds, best of each\n`);
for (const r of rows) {
  console.log(`${r.name.padEnd(widths[0])}  ${r.measured.padStart(widths[1])}  target ${r.target.padEnd(widths[2])}  ${r.met ? 'met' : 'MISSED'}`);
  console.log(`    ${r.detail}`);
}
const missed = rows.filter((r) => !r.met).length;
if (check && missed) {
  console.error(`bench: ${missed} target(s) missed`);
  process.exitCode = 1;
}
