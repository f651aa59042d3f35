/**
 * Simulator speed (`npm run bench`): (a) a P-chase that stays in the Fermi L1, (b) a global P-chase
 * that misses every cache and TLB on the way to DRAM, (d) the timing tier's LASH stencil, (c) the wall
 * time of `reproduce` for the latency tier's rows (MEI, WONG) and, reported, for the timing tier's (LASH, SL1).
 * Prints measured values beside their targets. Exits 0 regardless, unless --check is given: then
 * exit 1 when a target is missed.
 */
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { openSpace } from '../../src-sim/experiments/pchase';
import type { PathModel } from '../../src-sim/model/path';
import { findPreset } from '../../src-sim/presets';
import type { Preset } from '../../src-sim/presets/types';
import { reproduce } from '../../src-sim/reference';
import { simulate } from '../../src-sim/timing/engine';
import { ELEM_TYPES, LASH_STENCIL, stencilKernels } from '../../src-sim/timing/workloads/lash';

const KB = 1024;
const MB = 1024 * KB;
const check = process.argv.includes('--check');
const fermi = findPreset('fermi') as Preset;

/** The hot loop of a uniform-stride P-chase (as pchase.ts's averageChase, without the measurement). */
function chase(model: PathModel, N: number, s: number, accesses: number, start = 0): { sum: number; next: number } {
  let j = start;
  let sum = 0;
  for (let i = 0; i < accesses; i++) {
    sum += model.access(j);
    j += s;
    if (j >= N) j -= N;
  }
  return { sum, next: j };
}

/** Accesses per second: best of `reps` timed runs of `accesses` after an untimed warm-up of the same model. */
function rate(model: PathModel, N: number, s: number, accesses: number, reps = 3): number {
  let j = chase(model, N, s, Math.min(accesses, 2_000_000)).next;
  let best = 0;
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    j = chase(model, N, s, accesses, j).next;
    const dt = (performance.now() - t0) / 1000;
    best = Math.max(best, accesses / dt);
  }
  return best;
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

interface Row {
  name: string;
  measured: string;
  target: string;
  met: boolean;
  detail: string;
}
const rows: Row[] = [];

// (a) 12 KB with 128 B stride: 96 lines in the 16 KB L1 (3 per set of 4 ways), one 2 MB page in the L1 TLB.
{
  const N = 12 * KB;
  const s = 128;
  const model = openSpace(fermi, 'global', 1);
  const r = rate(model, N, s, 20_000_000);
  rows.push({
    name: '(a) L1-resident P-chase (Fermi global, N = 12 KB, s = 128 B)',
    measured: `${(r / 1e6).toFixed(1)} M accesses/s`,
    target: '>= 100 M/s',
    met: r >= 100e6,
    detail: outcomes(model, N, s, 100_000, 0),
  });
}

// (b) 512 MB with 2 MB + 128 B stride: 256 pages (over the 16-entry L1 TLB and 65-entry L2 TLB), and the
// address sequence repeats only after 4 M accesses, so every load misses L1 and L2 and goes to DRAM.
{
  const N = 512 * MB;
  const s = 2 * MB + 128;
  const model = openSpace(fermi, 'global', 1);
  const r = rate(model, N, s, 3_000_000);
  rows.push({
    name: '(b) full-path P-chase (Fermi global, N = 512 MB, s = 2 MB + 128 B)',
    measured: `${(r / 1e6).toFixed(1)} M accesses/s`,
    target: '>= 25 M/s',
    met: r >= 25e6,
    detail: outcomes(model, N, s, 100_000, 0),
  });
}

// (d) the timing tier: LASH's full stencil (15 SMs, 512K elements, 4 launches) for int, short and char.
{
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
    target: '< 10 s',
    met: seconds < 10,
    detail: `one full stencil each (target: under 10 s): ${each.join(', ')}; ${(cycles / seconds / 1e6).toFixed(2)} M simulated cycles/s, ${(instructions / seconds / 1e6).toFixed(2)} M warp instructions/s, ${cycles} cycles, ${progressCalls} progress reports`,
  });
}

// (c) every reproduction row on its own presets: the latency tier's rows (MEI, WONG) against the
// 5 s target, and the timing tier's rows (LASH, SL1: whole-GPU simulations) reported.
for (const [label, papers, limit] of [
  ['MEI + WONG (latency tier)', ['MEI', 'WONG'], 5],
  ['LASH + SL1 (timing tier)', ['LASH', 'SL1'], Infinity],
] as const) {
  const t0 = performance.now();
  const results = papers.flatMap((p) => reproduce(p));
  const seconds = (performance.now() - t0) / 1000;
  const passed = results.filter((r) => r.pass).length;
  rows.push({
    name: `(c) reproduce ${label}`,
    measured: `${seconds.toFixed(2)} s`,
    target: Number.isFinite(limit) ? `< ${limit} s` : 'reported',
    met: seconds < limit,
    detail: `${results.length} row runs, ${passed} pass`,
  });
}

const widths = [0, 1, 2].map((c) => Math.max(...rows.map((r) => [r.name, r.measured, r.target][c].length)));
console.log(`Simulator bench: Node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'} x ${cpus().length}\n`);
for (const r of rows) {
  console.log(`${r.name.padEnd(widths[0])}  ${r.measured.padStart(widths[1])}  target ${r.target.padEnd(widths[2])}  ${r.met ? 'met' : 'MISSED'}`);
  console.log(`    ${r.detail}`);
}
const missed = rows.filter((r) => !r.met).length;
if (check && missed) {
  console.error(`bench: ${missed} target(s) missed`);
  process.exitCode = 1;
}
