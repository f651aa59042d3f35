import { simulate } from '../timing/engine';
import type { IndexExpr, Instr, Kernel, TimingConfig, TimingStats } from '../timing/types';
import { resolveParams } from './params';
import { timingOf } from './lash-common';
import type { Experiment, Finding, ParamSpec, Series } from './types';
import { ExperimentError } from './types';

/**
 * LASH IV: how many loads one SM can keep outstanding. Three microkernels on one SM of the preset,
 * each loading far more than the L1 can track; the peak of merger fields in use (requests waiting for
 * data), sampled every cycle, is the bound:
 *  - spread: warp w loads line w, over all sets (bound mergers x min(lines, MSHRs));
 *  - one set: the warps' lines 1 MB (or a multiple of the sets above it) apart, all in one L1 set
 *    (bound mergers x min(ways, MSHRs));
 *  - one line: every warp loads line 0 (bound: mergers).
 * Each warp loads its line k times (independent loads), then uses them; every pattern runs for
 * k = 1 .. maxLoads and its bound is the largest peak over k (the LSU stalls in order, so how many
 * requests pile up before the first stall depends on k).
 * Memory is made very slow during the runs (DRAM latency + 100 000 cycles) so that nothing returns
 * while the SM piles up requests. The peak of MSHR entries in use in the spread case and the one-line
 * peak give the MSHR entries and
 * merger fields. The kernels know the L1's sets and line size (as LASH does); the bounds come from the
 * runs alone.
 */

const params: ParamSpec[] = [
  { name: 'warps', label: 'Warps', unit: 'warps', kind: 'integer', default: 48, min: 1, max: 64, description: 'Warps loading at once on the one SM (at most its warp slots).' },
  { name: 'maxLoads', label: 'Loads per warp, up to', unit: 'loads', kind: 'integer', default: 32, min: 1, max: 32, description: 'Each pattern runs with 1, 2, ... up to this many independent loads of its line per warp; the peaks are the largest over these runs.' },
];

/** Cycles added to the DRAM latency during the measurement. */
const SLOW_MEMORY = 100_000;

type Scenario = 'spread' | 'oneSet' | 'oneLine';
const SCENARIOS: Scenario[] = ['spread', 'oneSet', 'oneLine'];
const LABEL: Record<Scenario, string> = { spread: 'lines over all sets', oneSet: 'lines of one set', oneLine: 'one line' };

/**
 * Lines apart of two lines in one set: a multiple of the sets that is at least 1 MB, so that the
 * address bits up to 19 agree, which puts them in one set by linear indexing and by GPGPU-Sim's
 * Fermi hash (l1.setIndex 'fermi-hash' XORs bits 7-11 with bits 13-19).
 */
function oneSetStride(sets: number, line: number): number {
  return sets * Math.ceil((1 << 20) / (sets * line));
}

/** Element index (4 B elements) every thread of warp w loads: one line per warp. */
function warpLine(s: Scenario, sets: number, line: number): IndexExpr {
  const perLine = line / 4;
  const warp = { var: 'gtid', div: 32 };
  if (s === 'spread') return { terms: [{ coef: perLine, ...warp }] };
  if (s === 'oneSet') return { terms: [{ coef: perLine * oneSetStride(sets, line), ...warp }] };
  return { terms: [] };
}

function kernel(s: Scenario, cfg: TimingConfig, warps: number, loads: number): Kernel {
  const l1 = cfg.l1!;
  const index = warpLine(s, l1.sets, l1.lineBytes);
  const body: Instr[] = [];
  // `loads` independent loads of the same addresses (each a separate request), then one use of all.
  for (let i = 0; i < loads; i++) body.push({ op: 'ld', array: 'x', index, dst: i });
  body.push({ op: 'alu', count: 1, uses: body.map((_, i) => i), dst: loads });
  return {
    name: `mlp-${s}`,
    // blocks of at most 8 warps, all resident on the one SM at once
    grid: Math.ceil(warps / 8),
    block: 32 * Math.min(8, warps),
    arrays: [{ name: 'x', elemBytes: 4, length: (l1.lineBytes / 4) * oneSetStride(l1.sets, l1.lineBytes) * 64, space: 'global' }],
    body,
  };
}

export const lashMlp: Experiment = {
  id: 'lash-mlp',
  title: 'LASH: outstanding loads per SM (MSHRs and mergers)',
  description:
    'Microkernels on one SM that load far more than its L1 can track: the peak number of requests waiting for data with misses spread over the cache, confined to one set, and on one line (LASH IV bounds).',
  reproduces: ['LASH-MLP', 'LASH-CFG'],
  params,
  estimate(_preset, raw) {
    const p = resolveParams(params, raw);
    const k = p.maxLoads as number;
    const w = p.warps as number;
    const blocks = Math.max(1, Math.floor(w / 8));
    return 3 * w * ((blocks + 1) / 2) * ((k * (k + 1)) / 2) * 32;
  },
  run(preset, raw, seed, progress) {
    const p = resolveParams(params, raw);
    const base = timingOf(preset);
    if (!base.l1) throw new ExperimentError(`${preset.name} has no L1 data cache: no MSHRs to measure`);
    // One SM, and memory made slow (DRAM latency + 100 000 cycles) so that no fill returns while the
    // SM piles up requests: the peak then shows the L1's limits, not the issue rate.
    const cfg: TimingConfig = { ...base, sms: 1, dram: { ...base.dram, latency: base.dram.latency + SLOW_MEMORY } };
    const fit = Math.min(cfg.maxWarpsPerSM, Math.floor(cfg.maxThreadsPerSM / 32), 8 * cfg.maxBlocksPerSM);
    const warps = Math.min(p.warps as number, fit) - (Math.min(p.warps as number, fit) % Math.min(8, Math.min(p.warps as number, fit)));
    const maxLoads = p.maxLoads as number;
    // For each pattern: the run with the highest peak of merger fields in use, and its k.
    // Also over the number of warps, a block (8 warps) at a time: once the MSHRs are full the next
    // warp's miss stalls the in-order LSU, and warps whose loads were still queued behind it (the
    // issue order interleaves warps: instruction buffers, the memory pipeline) never add theirs, so
    // the peak can come with fewer warps than the SM holds.
    const step = Math.min(8, warps);
    const counts: number[] = [];
    for (let n = step; n <= warps; n += step) counts.push(n);
    const stats: TimingStats[] = [];
    const bestK: number[] = [];
    const bestW: number[] = [];
    SCENARIOS.forEach((s, i) => {
      let best: TimingStats | undefined;
      let k0 = 1;
      let w0 = warps;
      for (let k = 1; k <= maxLoads; k++) {
        progress(i * maxLoads + k - 1, SCENARIOS.length * maxLoads, LABEL[s]);
        for (const n of counts) {
          const r = simulate(cfg, [kernel(s, cfg, n, k)], { l1: 'hw', scheduler: 'gto', epochCycles: 50, maxCycles: 1e9, seed });
          if (!best || r.peak!.mergerFields > best.peak!.mergerFields) {
            best = r;
            k0 = k;
            w0 = n;
          }
        }
      }
      stats.push(best!);
      bestK.push(k0);
      bestW.push(w0);
    });
    progress(1, 1, 'done');
    const outstanding = stats.map((s) => s.peak!.mergerFields);
    const entries = stats.map((s) => s.peak!.mshrEntries);
    const series: Series[] = SCENARIOS.map((s, i) => ({
      name: LABEL[s],
      x: stats[i].epochs.cycle,
      y: stats[i].epochs.mergerOccupancy,
      xLabel: 'Time',
      xUnit: 'cycles',
      yLabel: 'Requests waiting for data',
      yUnit: 'requests',
      style: 'step',
      group: 'outstanding',
    }));
    series.push({
      name: 'Peak outstanding requests',
      x: Float64Array.from(SCENARIOS.map((_, i) => i)),
      y: Float64Array.from(outstanding),
      xLabel: 'Access pattern',
      xUnit: '',
      yLabel: 'Peak outstanding requests',
      yUnit: 'requests',
      style: 'bar',
      xCategories: SCENARIOS.map((s) => LABEL[s]),
      group: 'peak',
    });
    const findings: Finding[] = [
      { key: 'mlp.spread', label: 'Peak outstanding loads, misses over all sets', value: outstanding[0], unit: 'requests', evidence: `${bestW[0]} warps, each ${bestK[0]} loads of its own line; peak merger fields in use` },
      { key: 'mlp.oneSet', label: 'Peak outstanding loads, misses in one set', value: outstanding[1], unit: 'requests', evidence: `${bestW[1]} warps, the warps' lines 1 MB apart (one set), ${bestK[1]} loads each; peak merger fields in use` },
      { key: 'mlp.oneLine', label: 'Peak outstanding loads, one line', value: outstanding[2], unit: 'requests', evidence: `${bestW[2]} warps, every warp loads line 0, ${bestK[2]} loads each; peak merger fields in use` },
      { key: 'mlp.mshrEntries', label: 'MSHR entries (peak in use, spread)', value: entries[0], unit: 'entries', evidence: 'peak MSHR entries in use with misses over all sets' },
      { key: 'mlp.mergers', label: 'Merger fields per entry', value: outstanding[2], unit: 'requests', evidence: 'one line: one entry, all its merger fields' },
      {
        key: 'mlp.waysBound',
        label: 'Lines in flight in one set',
        value: entries[1],
        unit: 'lines',
        evidence: 'peak MSHR entries in use when every miss maps to one set',
      },
    ];
    return { series, tables: [], findings, notes: [`One SM of ${preset.name}; ${warps} warps; stall cycles: ${stats.map((s, i) => `${SCENARIOS[i]} nomerger ${s.stalls.nomerger}, nomshrline ${s.stalls.nomshrline}, nocacheline ${s.stalls.nocacheline}`).join('; ')}.`] };
  },
};
