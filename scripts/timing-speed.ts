/**
 * CPU time of the timing engine on a few LASH and SL1 workloads, for comparing two builds side by
 * side on a shared machine (process.cpuUsage, so time the process waits for a core is not counted):
 *
 *   npx tsx scripts/timing-speed.ts            # one pass: LASH's stencil (int, short, char; LRR and GTO), two SL1 apps
 *
 * Prints one line per workload (CPU seconds, simulated cycles) and the total. Run it alternately in
 * the two working trees (e.g. a `git worktree` of the older commit) and compare the totals.
 */
import { findPreset } from '../src-sim/presets';
import type { Preset } from '../src-sim/presets/types';
import { simulate } from '../src-sim/timing/engine';
import { ELEM_TYPES, LASH_STENCIL, stencilKernels } from '../src-sim/timing/workloads/lash';
import { findSl1App } from '../src-sim/timing/workloads/sl1-apps';

const fermi480 = (findPreset('fermi480') as Preset).timing!;
const titan = (findPreset('titan') as Preset).timing!;

const work: [string, () => number][] = [];
for (const type of ELEM_TYPES) work.push([`stencil ${type} lrr`, () => simulate(fermi480, stencilKernels({ ...LASH_STENCIL, type }), { l1: 'hw', scheduler: 'lrr' }).cycles]);
work.push([`stencil char gto`, () => simulate(fermi480, stencilKernels({ ...LASH_STENCIL, type: 'char' }), { l1: 'hw' }).cycles]);
for (const id of ['wc', 'kmeans']) {
  const app = findSl1App(id)!;
  const k = app.build({ shape: { grid: titan.sms * 8, block: 256 }, records: 64, config: titan });
  work.push([`sl1 ${id} titan hw`, () => simulate(titan, [k], { l1: 'hw', epochCycles: 100_000 }).cycles]);
}

let total = 0;
for (const [name, fn] of work) {
  const s = process.cpuUsage();
  const cycles = fn();
  const d = process.cpuUsage(s);
  const sec = (d.user + d.system) / 1e6;
  total += sec;
  console.log(`${name.padEnd(22)} ${sec.toFixed(2)} s  ${cycles} cycles`);
}
console.log(`total ${total.toFixed(2)} s`);
