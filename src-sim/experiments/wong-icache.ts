import { analyseCurve, staircaseFindings } from '../analysis/average-curve';
import { fetchFindings } from '../core/analysis';
import { clockTimeline, FetchUnit, loopCyclesPerInstruction } from '../core/ifetch';
import type { CoreConfig } from '../core/types';
import { Chip } from '../model/path';
import type { Preset } from '../presets/types';
import { Rng } from '../rng';
import { formatBytes, resolveParams } from './params';
import { checkWork, openSpace, TPC_PARAM } from './pchase';
import type { Experiment, Finding, ParamSpec, ParamValues, Progress, Series } from './types';
import { ExperimentError } from './types';
import { coreOf } from './wong-common';

/**
 * WONG IV-K, Figs 22-24: the instruction caches, seen through the time a warp takes to run loops of
 * independent 8-byte instructions of growing size (src-sim/core/ifetch.ts over the preset's
 * instruction path).
 *  - latency (Fig 22): the SM alone; the next-line prefetch hides the L2 behind the L1, so the 8 KB L2
 *    and the 32 KB L3 show, the 4 KB L1 does not.
 *  - l1 (Fig 23): the other SMs of the TPC flood the shared L2 with their own code, so the measured
 *    SM's L1 misses go to the L3 and the L1's size, line and sets show; over every TPC placement the
 *    L3's placement-dependent latency shows as a spread.
 *  - fetch (Fig 24): clock() reads timed while evicting warps on the same SM throw one line of the
 *    measured code out of the L1; the delays fall on fetch-block boundaries only.
 */

const PROBES = ['latency', 'l1', 'fetch'] as const;
type Probe = (typeof PROBES)[number];

const params: ParamSpec[] = [
  {
    name: 'probe',
    label: 'Probe',
    unit: '',
    kind: 'enum',
    default: 'latency',
    options: PROBES,
    description: 'latency: loop size sweep, SM alone (Fig 22); l1: zoomed sweep with the TPC\'s other SMs flooding the L2 (Fig 23); fetch: clock() timeline under evictions (Fig 24).',
  },
  { name: 'sizeFrom', label: 'Smallest loop (latency)', unit: 'B', kind: 'bytes', default: 1024, min: 64, max: 1 << 20, description: 'latency probe: first code size.' },
  { name: 'sizeTo', label: 'Largest loop (latency)', unit: 'B', kind: 'bytes', default: 40960, min: 64, max: 1 << 20, description: 'latency probe: last code size.' },
  { name: 'sizeStep', label: 'Size step (latency)', unit: 'B', kind: 'bytes', default: 256, min: 64, max: 1 << 16, description: 'latency probe: step of the code size (a multiple of the 64 B fetch).' },
  { name: 'zoomFrom', label: 'Smallest loop (l1)', unit: 'B', kind: 'bytes', default: 3072, min: 64, max: 1 << 20, description: 'l1 probe: first code size.' },
  { name: 'zoomTo', label: 'Largest loop (l1)', unit: 'B', kind: 'bytes', default: 6144, min: 64, max: 1 << 20, description: 'l1 probe: last code size.' },
  { name: 'zoomStep', label: 'Size step (l1)', unit: 'B', kind: 'bytes', default: 64, min: 64, max: 1 << 16, description: 'l1 probe: step (below the line size, so that its steps show).' },
  { name: 'floodWarps', label: 'Flooding warps per SM (l1)', unit: 'warps', kind: 'integer', default: 8, min: 0, max: 32, description: 'l1 probe: warps on each other SM of the TPC, each looping over its own four lines (1 KB) of code.' },
  { name: 'placements', label: 'All TPC placements (l1)', unit: '', kind: 'boolean', default: true, description: 'l1 probe: also run on every TPC and show the minimum and maximum (Fig 23).' },
  { name: 'loops', label: 'Timed passes', unit: '', kind: 'integer', default: 2, min: 1, max: 64, description: 'Timed passes over the loop after one untimed pass.' },
  { name: 'reads', label: 'clock() reads (fetch)', unit: '', kind: 'integer', default: 36, min: 8, max: 256, description: 'fetch probe: consecutive clock() reads of the measured code (WONG: 36, 72 instructions).' },
  { name: 'codeOffset', label: 'Code start in its line (fetch)', unit: 'B', kind: 'bytes', default: 96, min: 0, max: 4096, description: 'fetch probe: bytes into an L1 line where the measured code starts (WONG\'s code crosses lines at 160 and 416: 96 B in).' },
  { name: 'executions', label: 'Executions (fetch)', unit: '', kind: 'integer', default: 2000, min: 10, max: 100000, description: 'fetch probe: timelines averaged (WONG: 10,000).' },
  { name: 'evictions', label: 'Evicting fetches (fetch)', unit: '', kind: 'integer', default: 6, min: 0, max: 64, description: 'fetch probe: at most this many evicting-warp fetches between two of the measured warp\'s fetch blocks (uniform, seeded).' },
  TPC_PARAM,
];

function sweep(from: number, to: number, step: number, fetch: number, names: [string, string, string]): number[] {
  if (to < from) throw new ExperimentError(`parameter "${names[1]}" must not be smaller than "${names[0]}"`, names[1]);
  if (step % fetch !== 0) throw new ExperimentError(`parameter "${names[2]}" must be a multiple of the ${fetch} B fetch block`, names[2]);
  const out: number[] = [];
  for (let N = Math.ceil(from / fetch) * fetch; N <= to; N += step) out.push(N);
  if (out.length < 4) throw new ExperimentError(`the sweep has ${out.length} sizes; widen "${names[0]}".."${names[1]}" or lower "${names[2]}"`, names[1]);
  if (out.length > 4000) throw new ExperimentError(`the sweep has ${out.length} sizes; at most 4000 (raise "${names[2]}")`, names[2]);
  return out;
}

function tpcs(preset: Preset): number {
  return Math.max(1, Math.ceil(preset.chip.sms / preset.chip.smPerTpc));
}

/** Cycles per instruction of one loop size on one placement (a fresh chip: a kernel launch). */
function loopPoint(preset: Preset, core: CoreConfig, N: number, tpc: number, flood: number, loops: number, seed: number): number {
  const per = preset.chip.smPerTpc;
  const chip = new Chip(seed, per, preset.chip.sms);
  const sm = Math.max(0, tpc) * per;
  const cpi = core.scheduler.warpSize / core.units.sp.throughput;
  const measured = new FetchUnit(core, openSpace(preset, 'instruction', seed, tpc, chip, sm), cpi);
  measured.load(0, N);
  const others: FetchUnit[] = [];
  const line = measured.lineBytes;
  for (let s = 1; s < per && flood > 0; s++) {
    const path = openSpace(preset, 'instruction', seed, tpc, chip, sm + s);
    for (let j = 0; j < flood; j++) {
      const u = new FetchUnit(core, path, cpi);
      u.load((1 << 20) + ((s - 1) * flood + j) * 4 * line, 4 * line, line);
      others.push(u);
    }
  }
  return loopCyclesPerInstruction(measured, others, loops, core.icache.instructionBytes);
}

function curve(name: string, x: number[], y: ArrayLike<number>, group?: string): Series {
  return { name, x: Float64Array.from(x), y: Float64Array.from(y), xLabel: 'Code size', xUnit: 'B', yLabel: 'Time per instruction', yUnit: 'cycles', style: 'line', ...(group ? { group } : {}) };
}

function runLatency(preset: Preset, core: CoreConfig, p: ParamValues, seed: number, progress: Progress) {
  const ns = sweep(p.sizeFrom as number, p.sizeTo as number, p.sizeStep as number, core.icache.fetchBytes, ['sizeFrom', 'sizeTo', 'sizeStep']);
  const y = ns.map((N, i) => {
    const v = loopPoint(preset, core, N, p.tpc as number, 0, p.loops as number, Rng.derive(seed, i));
    progress(i + 1, ns.length, formatBytes(N));
    return v;
  });
  const findings = staircaseFindings(analyseCurve(ns, y, p.sizeStep as number), p.sizeStep as number, 'fig22');
  return {
    series: [curve('SM alone', ns, y)],
    tables: [],
    findings,
    notes: [
      `Loops of independent ${core.icache.instructionBytes}-byte instructions, one warp, ${p.loops} timed passes after one untimed; time per instruction.`,
      'The fetch unit requests the line a line ahead: an L2 hit arrives before it is needed, so the L1\'s overflow costs nothing here (WONG: "this test fails to detect the 4 KB L1").',
    ],
  };
}

function runL1(preset: Preset, core: CoreConfig, p: ParamValues, seed: number, progress: Progress) {
  const ns = sweep(p.zoomFrom as number, p.zoomTo as number, p.zoomStep as number, core.icache.fetchBytes, ['zoomFrom', 'zoomTo', 'zoomStep']);
  const flood = p.floodWarps as number;
  const places = p.placements ? tpcs(preset) : 0;
  const total = ns.length * (1 + places);
  let done = 0;
  const y = ns.map((N, i) => {
    const v = loopPoint(preset, core, N, p.tpc as number, flood, p.loops as number, Rng.derive(seed, i));
    progress(++done, total, `${formatBytes(N)}, TPC ${p.tpc}`);
    return v;
  });
  const series: Series[] = [curve(p.tpc === -1 ? 'mean placement' : `TPC ${p.tpc}`, ns, y)];
  const findings: Finding[] = staircaseFindings(analyseCurve(ns, y, p.zoomStep as number), p.zoomStep as number, 'fig23');
  if (places > 0) {
    const lo = new Float64Array(ns.length).fill(Infinity);
    const hi = new Float64Array(ns.length).fill(-Infinity);
    for (let t = 0; t < places; t++)
      ns.forEach((N, i) => {
        const v = loopPoint(preset, core, N, t, flood, p.loops as number, Rng.derive(seed, i));
        if (v < lo[i]) lo[i] = v;
        if (v > hi[i]) hi[i] = v;
        progress(++done, total, `${formatBytes(N)}, TPC ${t}`);
      });
    series.push(curve('minimum over TPCs', ns, lo), curve('maximum over TPCs', ns, hi));
    const spreadFirst = hi[0] - lo[0];
    const spreadLast = hi[ns.length - 1] - lo[ns.length - 1];
    findings.push(
      { key: 'fig23.firstDependsOnTpc', label: 'time at the smallest size depends on TPC placement', value: spreadFirst > 0.01 ? 'yes' : 'no', unit: '', evidence: `spread ${spreadFirst.toFixed(3)} cycles at ${formatBytes(ns[0])}` },
      { key: 'fig23.lastDependsOnTpc', label: 'time past the rise depends on TPC placement', value: spreadLast > 0.01 ? 'yes' : 'no', unit: '', evidence: `spread ${spreadLast.toFixed(3)} cycles at ${formatBytes(ns[ns.length - 1])}` },
    );
  }
  return {
    series,
    tables: [],
    findings,
    notes: [
      `${flood} warps on each other SM of the TPC loop over their own 1 KB (one fetch per line) and flood the shared L2: the measured SM's L1 misses go to the L3, too slow for the prefetch to hide.`,
      'The L1 is per SM: the flooding SMs do not shrink it (its size reads 4 KB with them running).',
    ],
  };
}

function runFetch(preset: Preset, core: CoreConfig, p: ParamValues, seed: number, progress: Progress) {
  const reads = p.reads as number;
  const execs = p.executions as number;
  const rng = new Rng(seed);
  const probe = openSpace(preset, 'instruction', seed, p.tpc as number);
  if (!probe.caches.length) throw new ExperimentError(`${preset.name}'s instruction path has no cache`);
  const l1 = probe.caches[0];
  const line = l1.lineBytes;
  const way = l1.sets * line;
  const offset = (p.codeOffset as number) % line;
  const base = 64 * way + offset;
  // The evicting warps each loop in their own line of the L1 set of the code's second line.
  const target = (Math.floor(base / line) + 1) * line;
  const evictors = Array.from({ length: 7 }, (_, e) => target + (e + 1) * way);
  const acc = new Float64Array(reads);
  for (let r = 0; r < execs; r++) {
    const chip = new Chip(Rng.derive(seed, r), preset.chip.smPerTpc, preset.chip.sms);
    const path = openSpace(preset, 'instruction', Rng.derive(seed, r), p.tpc as number, chip, 0);
    clockTimeline(core, path, base, reads, preset.measurement.clockOverhead, evictors, p.evictions as number, rng); // untimed first pass
    const t = clockTimeline(core, path, base, reads, preset.measurement.clockOverhead, evictors, p.evictions as number, rng);
    for (let k = 0; k < reads; k++) acc[k] += t[k] / execs;
    if ((r & 63) === 63 || r === execs - 1) progress(r + 1, execs, 'executions');
  }
  const offsets = Array.from({ length: reads }, (_, k) => 2 * core.icache.instructionBytes * k);
  const inc = offsets.map((_, k) => (k === 0 ? 0 : acc[k] - acc[k - 1]));
  const series: Series[] = [
    { name: 'clock() value', x: Float64Array.from(offsets), y: acc, xLabel: 'Code offset', xUnit: 'B', yLabel: 'Cycles since the first read', yUnit: 'cycles', style: 'scatter', group: 'timeline' },
    { name: 'increment', x: Float64Array.from(offsets), y: Float64Array.from(inc), xLabel: 'Code offset', xUnit: 'B', yLabel: 'Cycles since the previous read', yUnit: 'cycles', style: 'bar', group: 'increment' },
  ];
  return {
    series,
    tables: [],
    findings: fetchFindings(offsets, Array.from(acc)),
    notes: [
      `${reads} clock() reads (${2 * reads} instructions) starting ${offset} B into an L1 line, averaged over ${execs} executions; seven evicting warps loop in seven other lines of the L1 set of the code's second line and fetch up to ${p.evictions} times between two of the measured warp's fetch blocks.`,
      `An evicted line is refetched from the L2 when a fetch block (${core.icache.fetchBytes} B) of it begins: the delay shows at block boundaries only.`,
    ],
  };
}

export const wongIcache: Experiment = {
  id: 'wong-icache',
  title: 'Instruction caches and fetch (WONG Figs 22-24)',
  description:
    'Time per instruction of loops of growing size (the L2 and L3; with the TPC\'s other SMs flooding the L2, the L1) and a clock() timeline under evictions (the 64-byte fetch).',
  reproduces: ['WONG-F22..F24'],
  params,
  estimate(preset, raw) {
    const p = resolveParams(params, raw);
    const core = coreOf(preset);
    const probe = p.probe as Probe;
    const fb = core.icache.fetchBytes;
    const passes = 1 + (p.loops as number);
    if (probe === 'fetch') return (p.executions as number) * 2 * (p.reads as number) * (1 + (p.evictions as number));
    if (probe === 'latency') return sweep(p.sizeFrom as number, p.sizeTo as number, p.sizeStep as number, fb, ['sizeFrom', 'sizeTo', 'sizeStep']).reduce((a, N) => a + passes * (N / fb), 0);
    const ns = sweep(p.zoomFrom as number, p.zoomTo as number, p.zoomStep as number, fb, ['zoomFrom', 'zoomTo', 'zoomStep']);
    const runs = 1 + (p.placements ? tpcs(preset) : 0);
    return runs * ns.reduce((a, N) => a + passes * (N / fb) * (1 + 2 * (p.floodWarps as number)), 0);
  },
  run(preset, raw, seed, progress) {
    const p = resolveParams(params, raw);
    const core = coreOf(preset);
    if (!preset.spaces.instruction) openSpace(preset, 'instruction', seed); // throws the ExperimentError that names why
    checkWork(this.estimate(preset, p));
    const probe = p.probe as Probe;
    if (probe === 'latency') return runLatency(preset, core, p, seed, progress);
    if (probe === 'l1') return runL1(preset, core, p, seed, progress);
    return runFetch(preset, core, p, seed, progress);
  },
};
