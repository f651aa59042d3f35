import { stencilKernels } from '../timing/workloads/lash';
import type { ElemType } from '../timing/workloads/lash';
import type { SchedulerChoice, TimingStats } from '../timing/types';
import { STALL_REASONS } from '../timing/types';
import { resolveParams } from './params';
import {
  bars,
  checkTimingWork,
  EPOCH_PARAM,
  hasMissQueueStalls,
  memoryRequests,
  L1_PARAM,
  pctOver,
  pctUnder,
  runStep,
  SCHEDULER_PARAM,
  statsTable,
  timingOf,
  typeName,
  TYPES_PARAM,
  warpAccesses,
} from './lash-common';
import type { Experiment, Finding, ParamSpec, ParamValues, Series } from './types';

/**
 * LASH V-VII: the 1D stencil under int, short and char elements on the timing tier. Execution time
 * (Fig 4), the memory metrics (Fig 5: requests, DRAM utilisation, load latency, L1 miss rate), the
 * LSU stall breakdown (Fig 6) and the MSHR and merger occupancy over time.
 */

const params: ParamSpec[] = [
  TYPES_PARAM,
  { name: 'n', label: 'Elements', unit: 'elements', kind: 'integer', default: 512 * 1024, min: 1024, max: 16 * 1024 * 1024, description: 'Elements of the input and output arrays (LASH VI: 512K).' },
  { name: 'iterations', label: 'Iterations', unit: 'launches', kind: 'integer', default: 4, min: 1, max: 16, description: 'Stencil iterations, one kernel launch each with input and output swapped (LASH VI: 4).' },
  { name: 'block', label: 'Threads per block', unit: 'threads', kind: 'integer', default: 256, min: 32, max: 1024, description: 'LASH VI: 256 (eight warps).' },
  L1_PARAM,
  SCHEDULER_PARAM,
  EPOCH_PARAM,
];

function kernelsFor(p: ParamValues, bytes: number) {
  return stencilKernels({ n: p.n as number, iterations: p.iterations as number, block: p.block as number, type: 'int' as ElemType, elemBytes: bytes });
}

/** L1 accesses (GPGPU-Sim's L1D_total_cache_accesses): load accesses, plus stores when they look up L1. */
function l1Accesses(s: TimingStats): number {
  return s.requests.l1 + (s.l1Stores?.accesses ?? 0);
}

/** Findings over int, short and char when the run has all three (LASH's comparisons). */
export function stencilFindings(names: string[], stats: TimingStats[]): Finding[] {
  const at = (n: string): TimingStats | undefined => stats[names.indexOf(n)];
  const out: Finding[] = [];
  const cycles = stats.map((s) => s.cycles);
  const fastest = names[cycles.indexOf(Math.min(...cycles))];
  out.push({ key: 'stencil.fastestType', label: 'Fastest element type', value: fastest, unit: '', evidence: `execution time: ${names.map((n, i) => `${n} ${cycles[i]}`).join(', ')} cycles` });
  const i4 = at('int');
  const i2 = at('short');
  const i1 = at('char');
  if (i4 && i2) {
    out.push({ key: 'stencil.shortBeatsInt', label: 'short faster than int', value: i2.cycles < i4.cycles ? 'yes' : 'no', unit: '', evidence: `short ${i2.cycles}, int ${i4.cycles} cycles` });
    out.push({ key: 'stencil.shortVsInt', label: 'short faster than int by', value: pctOver(i4.cycles, i2.cycles), unit: '%', evidence: `int ${i4.cycles} / short ${i2.cycles} cycles - 1` });
  }
  if (i1 && i2) {
    out.push({ key: 'stencil.shortBeatsChar', label: 'short faster than char', value: i2.cycles < i1.cycles ? 'yes' : 'no', unit: '', evidence: `short ${i2.cycles}, char ${i1.cycles} cycles` });
    out.push({ key: 'stencil.shortVsChar', label: 'short faster than char by', value: pctOver(i1.cycles, i2.cycles), unit: '%', evidence: `char ${i1.cycles} / short ${i2.cycles} cycles - 1` });
  }
  if (i4 && i1) {
    // LASH Fig 5a, "total number of memory requests": GPGPU-Sim 3.2.2 counts the memory requests
    // (mem_fetch) the SMs inject into the interconnect in shader.cc
    // simt_core_cluster::icnt_inject_request_packet (gpgpu_n_mem_read_global for L1 read misses that
    // fetch, gpgpu_n_mem_write_global for stores); each reaches an L2 slice once, so it is the L2's
    // request count. L1 accesses (L1D_total_cache_accesses) cannot be it: coalescing gives every type
    // the same count (evidence below).
    out.push({
      key: 'stencil.requestsCharVsInt',
      label: 'char: fewer memory requests than int by',
      value: pctUnder(memoryRequests(i1), memoryRequests(i4)),
      unit: '%',
      evidence: `requests the SMs sent to L2 (gpgpu_n_mem_read_global + gpgpu_n_mem_write_global): char ${memoryRequests(i1)}, int ${memoryRequests(i4)}; for comparison L1 accesses char ${l1Accesses(i1)}, int ${l1Accesses(i4)}; DRAM requests char ${i1.requests.dram}, int ${i4.requests.dram}`,
    });
    // Fig 5b: dram.cc dram_t::print's bw_util (bwutil / n_cmd: data-bus cycles of column commands over
    // all DRAM cycles), the quantity GPGPU-Sim names bandwidth utilisation (dram_eff divides by the
    // cycles with requests pending instead).
    out.push({
      key: 'stencil.dramCharVsInt',
      label: 'char: lower DRAM bandwidth utilisation than int by',
      value: pctUnder(i1.dramUtilisation, i4.dramUtilisation),
      unit: '%',
      evidence: `DRAM utilisation: char ${(100 * i1.dramUtilisation).toFixed(1)} %, int ${(100 * i4.dramUtilisation).toFixed(1)} %`,
    });
    // The same two utilisations as a difference in percentage points (LASH-F5 reads Fig 5b's "31%" so;
    // see the row's citation in src-sim/reference/rows-lash.ts).
    out.push({
      key: 'stencil.dramCharVsIntPoints',
      label: 'char: lower DRAM bandwidth utilisation than int by (percentage points)',
      value: +(100 * (i4.dramUtilisation - i1.dramUtilisation)).toFixed(1),
      unit: 'points',
      evidence: `DRAM utilisation (bw_util): int ${(100 * i4.dramUtilisation).toFixed(1)} % - char ${(100 * i1.dramUtilisation).toFixed(1)} %`,
    });
    out.push({
      key: 'stencil.latencyCharVsInt',
      label: 'char: lower average memory access latency than int by',
      // LASH's numbers are GPGPU-Sim's memory statistics: averagemflatency, mem_latency_stat.cc
      // mf_total_lat / num_mfs, the mean cycles from a mem_fetch's creation (L1 accepting the miss or
      // store) to its reply leaving the cluster's response FIFO (shader.cc simt_core_cluster::icnt_cycle
      // -> memlatstat_read_done: read replies and write acks alike); L1 hits and merges are not in it.
      value: pctUnder(i1.avgFetchLatency ?? i1.avgMemLatency, i4.avgFetchLatency ?? i4.avgMemLatency),
      unit: '%',
      evidence: `mean cycles from L1 accepting a miss or store to its reply (averagemflatency): char ${(i1.avgFetchLatency ?? 0).toFixed(0)}, int ${(i4.avgFetchLatency ?? 0).toFixed(0)}; issue-to-data over all global loads: char ${i1.avgMemLatency.toFixed(0)}, int ${i4.avgMemLatency.toFixed(0)}`,
    });
    out.push({
      key: 'stencil.l1MissCharVsInt',
      label: 'char: lower L1 miss rate than int by',
      value: +(100 * (i4.missRate.l1 - i1.missRate.l1)).toFixed(1),
      unit: 'points',
      evidence: `L1 miss rate (merged requests count as misses): char ${(100 * i1.missRate.l1).toFixed(1)} %, int ${(100 * i4.missRate.l1).toFixed(1)} %`,
    });
  }
  if (i4 && i1 && i4.requests.l1 > 0 && i1.requests.l1 > 0) {
    // Fig 5d: gpu-sim.cc's L1D_total_cache_miss_rate = misses / accesses of cache_sub_stats
    // (gpu-cache.cc cache_stats::get_sub_stats: accesses = HIT + MISS + HIT_RESERVED over every access
    // type, global stores included; misses = MISS; a merge into a line being fetched is HIT_RESERVED,
    // select_stats_status; refused attempts are RESERVATION_FAIL, in neither).
    const fr = (x: TimingStats) => (100 * ((x.l1Fetches ?? 0) + (x.l1Stores?.misses ?? 0))) / (x.requests.l1 + (x.l1Stores?.accesses ?? 0));
    const withStores = i4.l1Stores !== undefined && i1.l1Stores !== undefined;
    out.push({
      key: 'stencil.l1FetchRateCharVsInt',
      label: 'char: lower L1 miss rate than int by (merges as hits)',
      value: +(fr(i4) - fr(i1)).toFixed(1),
      unit: 'points',
      evidence: `L1 misses per L1 access (GPGPU-Sim's L1D_total_cache_miss_rate: a merge into a line being fetched is a HIT_RESERVED${withStores ? ', stores are accesses and count as misses unless they find their line' : ', loads only'}): char ${fr(i1).toFixed(1)} %, int ${fr(i4).toFixed(1)} %`,
    });
  }
  if (i4 && i2 && i1) {
    const nm = [i4, i2, i1].map((s) => s.stalls.nomerger);
    const co = [i4, i2, i1].map((s) => s.stalls.coalescing);
    out.push({
      key: 'stencil.nomergerRises',
      label: 'nomerger stalls rise from int to short to char',
      value: nm[0] < nm[1] && nm[1] < nm[2] ? 'yes' : nm[0] < nm[2] && nm[1] <= nm[2] ? 'for char' : 'no',
      unit: '',
      evidence: `nomerger stall cycles int ${nm[0]}, short ${nm[1]}, char ${nm[2]}`,
    });
    out.push({
      key: 'stencil.coalescingFalls',
      label: 'coalescing stalls fall from int to short to char',
      value: co[0] > co[1] && co[1] > co[2] ? 'yes' : 'no',
      unit: '',
      evidence: `coalescing stall cycles int ${co[0]}, short ${co[1]}, char ${co[2]}`,
    });
    const order = [...names].sort((a, b) => at(a)!.cycles - at(b)!.cycles);
    out.push({ key: 'stencil.order', label: 'Types from fastest to slowest', value: order.join(' < '), unit: '', evidence: 'execution time' });
  }
  return out;
}

export const lashStencil: Experiment = {
  id: 'lash-stencil',
  title: 'LASH: 1D stencil under int, short, char',
  description:
    'The 1D stencil of LASH Eq. 1 (separate input and output arrays, one thread per element, iterations as launches) on the timing tier: time per element type, memory requests, DRAM use, load latency, L1 miss rate, the LSU stall breakdown and the MSHR occupancy over time.',
  reproduces: ['LASH-F4', 'LASH-F5', 'LASH-F6', 'LASH-280'],
  params,
  estimate(_preset, raw) {
    const p = resolveParams(params, raw);
    return (p.types as number[]).reduce((s, b) => s + warpAccesses(kernelsFor(p, b)), 0) * 32;
  },
  run(preset, raw, seed, progress) {
    const p = resolveParams(params, raw);
    const cfg = timingOf(preset);
    const types = p.types as number[];
    checkTimingWork(types.reduce((s, b) => s + warpAccesses(kernelsFor(p, b)), 0));
    const names = types.map(typeName);
    const stats = types.map((b, i) =>
      runStep(cfg, kernelsFor(p, b), { l1: p.l1 as 'hw' | 'bypass', scheduler: p.scheduler as SchedulerChoice, epochCycles: p.epochCycles as number, seed }, progress, i, types.length, `stencil ${names[i]}`),
    );
    progress(1, 1, 'done');
    const series: Series[] = [
      bars('Execution time', names, stats.map((s) => s.cycles), 'Execution time', 'cycles', 'time'),
      bars(`Time relative to ${names[0]}`, names, stats.map((s) => s.cycles / stats[0].cycles), 'Normalised time', '', 'normalised'),
      bars('Memory requests', names, stats.map(memoryRequests), 'Requests to L2', 'requests', 'requests'),
      bars('DRAM bandwidth utilisation', names, stats.map((s) => 100 * s.dramUtilisation), 'DRAM utilisation', '%', 'dram'),
      bars('Average load latency', names, stats.map((s) => s.avgMemLatency), 'Load latency', 'cycles', 'latency'),
      bars('L1 miss rate', names, stats.map((s) => 100 * s.missRate.l1), 'L1 miss rate', '%', 'l1miss'),
      ...STALL_REASONS.map((r) => bars(r, names, stats.map((s) => s.stalls[r]), 'LSU stall cycles', 'cycles', 'stalls', 'stalls')),
      ...(hasMissQueueStalls(stats)
        ? [bars('missqueue (not in LASH Fig 6)', names, stats.map((s) => s.missQueueStalls ?? 0), 'LSU stall cycles', 'cycles', 'stalls', 'stalls')]
        : []),
    ];
    stats.forEach((s, i) => {
      const line = (name: string, y: Float64Array, yLabel: string, group: string): Series => ({
        name: `${name} (${names[i]})`,
        x: s.epochs.cycle,
        y,
        xLabel: 'Time',
        xUnit: 'cycles',
        yLabel,
        yUnit: 'per SM',
        style: 'line',
        group,
      });
      series.push(line('MSHR entries in use', s.epochs.mshrOccupancy, 'MSHR occupancy', 'mshr'));
      series.push(line('Merger fields in use', s.epochs.mergerOccupancy, 'Merger occupancy', 'mergers'));
    });
    const notes = [
      `${preset.name}: ${cfg.sms} SMs, L1 ${cfg.l1 ? `${cfg.l1.sets} sets x ${cfg.l1.ways} ways x ${cfg.l1.lineBytes} B, ${cfg.l1.mshrEntries} MSHRs x ${cfg.l1.mshrMergers} mergers` : 'none'}; L1 mode ${p.l1}, scheduler ${p.scheduler}.`,
      'The L1 miss rate series counts merged requests (hits on a line still being fetched) as misses; the load latency series is from issue to data over all global loads. The char-vs-int findings measure what GPGPU-Sim 3.2.2 prints: requests the SMs send below L1 (gpgpu_n_mem_read_global + gpgpu_n_mem_write_global), bw_util, averagemflatency (L1 accepting a miss or store to its reply) and L1D_total_cache_miss_rate (merges as hits, stores as accesses when the preset looks stores up in L1).',
    ];
    return { series, tables: [statsTable('Stencil per element type', names, stats)], findings: stencilFindings(names, stats), notes };
  },
};
