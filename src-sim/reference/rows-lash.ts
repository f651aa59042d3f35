import type { ParamValues } from '../experiments/types';
import { calibrated, PREDICTED, predictedBecause, recovered, specification, withKind } from './kinds';
import { known, memoRun, take, type Measured } from './row-runs';
import type { Reference, ReproductionRow, RowResult } from './types';
import { LASH_MATMUL } from '../timing/workloads/lash';

/**
 * LASH (Lashgar and Baniasadi, A Case Against Small Data Types in GPGPUs) on the timing tier. The
 * published values live here with their citations; every measured value is a finding of a timing
 * experiment (lash-stencil, lash-apps, lash-sensitivity, lash-mlp), except LASH-CFG's configuration
 * facts, which are read from the preset as MEI-T1 reads specification values.
 *
 * Tolerance (REPRODUCTION.md): orderings and crossovers exact; percentages within half of the paper's
 * value either way ('half').
 */

type Runs = RowResult['runs'];
const run = memoRun;

const exact = (name: string, value: number | string, unit: string, citation: string, finding?: Reference['finding']): Reference => ({
  name,
  value,
  unit,
  tolerance: 'exact',
  citation,
  ...(finding ? { finding } : {}),
});
const half = (name: string, value: number, unit: string, citation: string, finding?: Reference['finding']): Reference => ({
  name,
  value,
  unit,
  tolerance: 'half',
  citation,
  ...(finding ? { finding } : {}),
});
const range = (name: string, lo: number, hi: number, unit: string, citation: string, finding?: Reference['finding']): Reference => ({
  name,
  value: (lo + hi) / 2,
  range: [lo, hi],
  unit,
  tolerance: 'range',
  citation,
  ...(finding ? { finding } : {}),
});

/** LASH VI: 512K elements, 4 iterations, 256 threads per block, int / short / char, L1 on. */
const STENCIL: ParamValues = { types: [4, 2, 1], n: 512 * 1024, iterations: 4, block: 256, l1: 'hw', scheduler: 'preset', epochCycles: 1000 };
const st = (key: string): Reference['finding'] => ({ experiment: 'lash-stencil', key });

// ---- LASH-CFG ------------------------------------------------------------------------------------------

/** LASH Table II, as data. */
const TABLE_II = {
  sms: 15,
  memoryControllers: 6,
  subPartitions: 2,
  l1Bytes: 16 * 1024,
  l1Sets: 32,
  l1Ways: 4,
  l1Line: 128,
  l1Mshrs: 32,
  l1Mergers: 8,
  l2SliceBytes: 64 * 1024,
  l2Sets: 64,
  l2Ways: 8,
  l2Line: 128,
  l2Mshrs: 32,
  l2Mergers: 4,
};

/** The probe measures MSHR entries and merger fields that fermi480 was set to from Table II. */
const MEASURED_BACK = calibrated("fermi480's L1 MSHR entries and merger fields were set from Table II; the lash-mlp probe measures them back");

const LASH_CFG: ReproductionRow = {
  id: 'LASH-CFG',
  paper: 'LASH',
  title: 'GPGPU-Sim GTX 480 configuration (LASH Tables I, II): MSHRs and mergers measured, the rest read from the timing data',
  presets: ['fermi480'],
  kind: specification('read back from the timing data of fermi480, which was set from LASH Tables I, II'),
  references: () => [
    exact('SMs', TABLE_II.sms, '', 'LASH Table II (15 SMs)'),
    exact('memory controllers', TABLE_II.memoryControllers, '', 'LASH Table II (6)'),
    exact('L2 sub-partitions', TABLE_II.memoryControllers * TABLE_II.subPartitions, '', 'LASH Table II (2 per memory controller)'),
    exact('L1 size', TABLE_II.l1Bytes, 'B', 'LASH Table II (16 KB: 32 sets x 4 ways x 128 B)'),
    exact('L1 sets', TABLE_II.l1Sets, '', 'LASH Table II'),
    exact('L1 ways', TABLE_II.l1Ways, '', 'LASH Table II'),
    exact('L1 line', TABLE_II.l1Line, 'B', 'LASH Table II'),
    withKind(exact('L1 MSHR entries (measured)', TABLE_II.l1Mshrs, '', 'LASH Table II (32 MSHR entries)', { experiment: 'lash-mlp', key: 'mlp.mshrEntries' }), MEASURED_BACK),
    withKind(exact('L1 merger fields (measured)', TABLE_II.l1Mergers, '', 'LASH Table II (8 merger fields per entry)', { experiment: 'lash-mlp', key: 'mlp.mergers' }), MEASURED_BACK),
    exact('L2 slice size', TABLE_II.l2SliceBytes, 'B', 'LASH Table II (64 KB per sub-partition)'),
    exact('L2 sets', TABLE_II.l2Sets, '', 'LASH Table II'),
    exact('L2 ways', TABLE_II.l2Ways, '', 'LASH Table II'),
    exact('L2 MSHR entries', TABLE_II.l2Mshrs, '', 'LASH Table II'),
    exact('L2 merger fields', TABLE_II.l2Mergers, '', 'LASH Table II'),
    exact('core clock', 1400, 'MHz', 'LASH Table I (1.40 GHz)'),
    exact('memory clock', 1800, 'MHz', 'LASH Table I (1.8 GHz)'),
  ],
  measure(preset, seed) {
    const runs: Runs = [];
    const out: Measured = {};
    const t = preset.timing;
    if (t) {
      out['SMs'] = t.sms;
      out['memory controllers'] = t.dram.channels;
      out['L2 sub-partitions'] = t.l2.partitions;
      if (t.l1) {
        out['L1 size'] = t.l1.sets * t.l1.ways * t.l1.lineBytes;
        out['L1 sets'] = t.l1.sets;
        out['L1 ways'] = t.l1.ways;
        out['L1 line'] = t.l1.lineBytes;
        const mlp = run(runs, 'lash-mlp', preset, { warps: 48, maxLoads: 32 }, seed);
        take(out, 'L1 MSHR entries (measured)', mlp, 'mlp.mshrEntries');
        take(out, 'L1 merger fields (measured)', mlp, 'mlp.mergers');
      }
      out['L2 slice size'] = t.l2.sets * t.l2.ways * t.l2.lineBytes;
      out['L2 sets'] = t.l2.sets;
      out['L2 ways'] = t.l2.ways;
      out['L2 MSHR entries'] = t.l2.mshrEntries;
      out['L2 merger fields'] = t.l2.mshrMergers;
      out['core clock'] = t.clocks.coreMHz;
      out['memory clock'] = t.clocks.memoryMHz;
    }
    return { measured: out, runs };
  },
};

// ---- LASH-MLP --------------------------------------------------------------------------------------------

const LASH_MLP: ReproductionRow = {
  id: 'LASH-MLP',
  paper: 'LASH',
  title: 'Outstanding loads per SM (LASH IV): mergers x min(lines, MSHRs); mergers x min(ways, MSHRs) in one set; mergers on one line',
  presets: ['fermi480'],
  kind: recovered("the outstanding requests follow Table II's merger fields (and, in one set, the ways) alone, by their ratio: the probe reads the configured MSHR table back from simulated timings (perturbation)"),
  references: () => {
    const { l1Mergers: m, l1Sets: s, l1Ways: w, l1Mshrs: e } = TABLE_II;
    return [
      exact('misses over all sets', m * Math.min(s * w, e), 'requests', 'LASH IV (#MSHRMergers x min(#cacheLines, #MSHRs)), Table II: 8 x min(128, 32)', { experiment: 'lash-mlp', key: 'mlp.spread' }),
      exact('misses in one set', m * Math.min(w, e), 'requests', 'LASH IV (#MSHRMergers x min(#wayInaSet, #MSHRs)), Table II: 8 x min(4, 32)', { experiment: 'lash-mlp', key: 'mlp.oneSet' }),
      exact('one line', m, 'requests', 'LASH IV (worst case: #MSHRMergers), Table II: 8', { experiment: 'lash-mlp', key: 'mlp.oneLine' }),
    ];
  },
  measure(preset, seed) {
    const runs: Runs = [];
    const out: Measured = {};
    const r = run(runs, 'lash-mlp', preset, { warps: 48, maxLoads: 32 }, seed);
    take(out, 'misses over all sets', r, 'mlp.spread');
    take(out, 'misses in one set', r, 'mlp.oneSet');
    take(out, 'one line', r, 'mlp.oneLine');
    return { measured: out, runs };
  },
};

// ---- LASH-F4, F5, F6: the stencil --------------------------------------------------------------------------

const LASH_F4: ReproductionRow = {
  id: 'LASH-F4',
  paper: 'LASH',
  title: '1D stencil, 512K elements, 4 iterations: short fastest, faster than int and than char (LASH Fig 4, VII-A); Fig 1\'s real-GPU 11 % and 12 % for context',
  presets: ['fermi480'],
  kind: predictedBecause("LASH VI names GPGPU-Sim's GTX 480 configuration, the source of fermi480's settings; the stencil's times are simulated from them, nothing was set from Fig 4 or Fig 1"),
  references: () => [
    exact('fastest type', 'short', '', 'LASH Fig 4, VII-A (the optimal type is in the middle)', st('stencil.fastestType')),
    {
      ...exact('short faster than int', 'yes', '', 'LASH VII-A, Fig 4 (of the simulator LASH states the ordering only: "the same trend can be seen")', st('stencil.shortBeatsInt')),
      context: 'real GTX 480: short faster than int by 11 % (LASH II, Fig 1; LASH VI: "the real GPU is used to measure performance"); the simulated margin is the finding "short faster than int by"',
    },
    {
      ...exact('short faster than char', 'yes', '', 'LASH VII-A, Fig 4 (of the simulator LASH states the ordering only)', st('stencil.shortBeatsChar')),
      context: 'real GTX 480: short faster than char by 12 % (LASH II, Fig 1); the simulated margin is the finding "short faster than char by"',
    },
  ],
  measure(preset, seed) {
    const runs: Runs = [];
    const out: Measured = {};
    const r = run(runs, 'lash-stencil', preset, STENCIL, seed);
    take(out, 'fastest type', r, 'stencil.fastestType');
    take(out, 'short faster than int', r, 'stencil.shortBeatsInt');
    take(out, 'short faster than char', r, 'stencil.shortBeatsChar');
    return { measured: out, runs };
  },
};

const LASH_F5: ReproductionRow = {
  id: 'LASH-F5',
  paper: 'LASH',
  title: 'Stencil memory metrics (LASH Fig 5): char makes fewer requests, uses less DRAM bandwidth, sees lower latency and L1 miss rate than int',
  presets: ['fermi480'],
  kind: PREDICTED,
  references: () => [
    half(
      'fewer memory requests (char vs int)',
      24,
      '%',
      "LASH VII-B, Fig 5a (\"char ... reduces memory accesses by 24%\"). Assumed: GPGPU-Sim 3.2.2's gpgpu_n_mem_read_global + gpgpu_n_mem_write_global, the requests SMs inject (shader.cc simt_core_cluster::icnt_inject_request_packet). Per warp of 32 elements int fetches one 128 B input line and stores once, char a quarter line and one store; the halo lines a 256-thread block re-fetches from its neighbours put char's saving between 33.3 % (every halo line fetched again) and 37.5 % (none), whatever the timing within those bounds",
      st('stencil.requestsCharVsInt'),
    ),
    half(
      'lower DRAM utilisation (char vs int)',
      31,
      'points',
      "LASH VII-B, Fig 5b (\"using char data type reduces DRAM bandwidth utilization ... by 31%\"). Read as percentage points of utilisation, as Fig 5d's \"8%-11%\" miss-rate drop is: a relative drop of 31 % would have char use the bus at 0.69 of int's rate while it moves a quarter of int's bytes (1 B against 4 B elements, same accesses) in about int's time (Fig 4: the types within 12 %), which LASH's own figures exclude. Assumed: GPGPU-Sim's bw_util (dram.cc dram_t::print: bwutil / n_cmd); the relative drop is finding stencil.dramCharVsInt",
      st('stencil.dramCharVsIntPoints'),
    ),
    half(
      'lower average latency (char vs int)',
      65,
      '%',
      "LASH VII-B, Fig 5c (65 %). Assumed: GPGPU-Sim's averagemflatency (mem_latency_stat.cc mf_total_lat / num_mfs over every data reply reaching an SM, store acknowledgements included)",
      st('stencil.latencyCharVsInt'),
    ),
    range(
      'lower L1 miss rate (char vs int)',
      4,
      16.5,
      'points',
      'LASH VII-B, Fig 5d ("reduce L1 cache miss rate by 8%-11%"; half of that band either way). Assumed: GPGPU-Sim\'s L1D_total_cache_miss_rate (gpu-cache.cc cache_stats::get_sub_stats: MISS / (HIT + MISS + HIT_RESERVED) over loads and stores; a request merged into a line being fetched is a HIT_RESERVED)',
      st('stencil.l1FetchRateCharVsInt'),
    ),
  ],
  measure(preset, seed) {
    const runs: Runs = [];
    const out: Measured = {};
    const r = run(runs, 'lash-stencil', preset, STENCIL, seed);
    take(out, 'fewer memory requests (char vs int)', r, 'stencil.requestsCharVsInt');
    take(out, 'lower DRAM utilisation (char vs int)', r, 'stencil.dramCharVsIntPoints');
    take(out, 'lower average latency (char vs int)', r, 'stencil.latencyCharVsInt');
    take(out, 'lower L1 miss rate (char vs int)', r, 'stencil.l1FetchRateCharVsInt');
    return { measured: out, runs };
  },
};

const LASH_F6: ReproductionRow = {
  id: 'LASH-F6',
  paper: 'LASH',
  title: 'LSU stall breakdown (LASH Fig 6): nomerger stalls rise from int to short to char, coalescing stalls fall',
  presets: ['fermi480'],
  kind: PREDICTED,
  references: () => [
    exact('nomerger stalls rise', 'yes', '', 'LASH VII-B, Fig 6 ("significant increase in the number of nomerger stalls")', st('stencil.nomergerRises')),
    exact('coalescing stalls fall', 'yes', '', 'LASH VII-B, Fig 6 ("significant decrease in coalescing stalls")', st('stencil.coalescingFalls')),
  ],
  measure(preset, seed) {
    const runs: Runs = [];
    const out: Measured = {};
    const r = run(runs, 'lash-stencil', preset, STENCIL, seed);
    take(out, 'nomerger stalls rise', r, 'stencil.nomergerRises');
    take(out, 'coalescing stalls fall', r, 'stencil.coalescingFalls');
    return { measured: out, runs };
  },
};

// ---- LASH-F7: resource sensitivity ---------------------------------------------------------------------

const SENS: ParamValues = { types: [4, 2, 1], n: 512 * 1024, iterations: 4, scheduler: 'preset' };
const se = (key: string): Reference['finding'] => ({ experiment: 'lash-sensitivity', key });

const LASH_F7: ReproductionRow = {
  id: 'LASH-F7',
  paper: 'LASH',
  title: 'Sensitivity to MSHRs, mergers, sets, ways (LASH Fig 7): int hardly changes; mergers decide short and char',
  presets: ['fermi480'],
  kind: PREDICTED,
  references: () => [
    range('int: largest change', 0, 10, '%', 'LASH VII-C ("no change to these resources impact int\'s performance heavily"; assumed: within 10 %)', se('sens.int.maxChange')),
    known(
      half('MSHRMergers+: int-char gap widens', 26, '%', 'LASH VII-C ("widens the gap between int and char by 26%")', se('sens.mergersPlus.gapWidening')),
      'Under greedy-then-oldest (GPGPU-Sim 3.2.2\'s GTX 480 scheduler) char at the baseline waits on full merger fields (3.9 M nomerger stall cycles at 8 fields per MSHR entry); 16 fields halve them (1.8 M) and cut char\'s time by 43.7 % (338.7 k -> 190.8 k cycles), while int, DRAM-bound with no nomerger stalls, keeps its 398.0 k: the int / char ratio goes from 1.18 to 2.09, +77.5 %. LASH\'s 26 % implies a char far less bound by its merger fields at the baseline than the model\'s. docs/TIMING.md, "fermi480 as GPGPU-Sim 3.2.2 ships it".',
    ),
    half('MSHRMergers-: short slower (performance)', 52, '%', 'LASH VII-C ("degrades performance of short and char by 52% and 25%"), read as performance (1 / time) lower by that fraction, as Fig 7 plots performance', se('sens.mergersMinus.shortSpeedDrop')),
    half('MSHRMergers-: char slower (performance)', 25, '%', 'LASH VII-C (25 %, performance as above)', se('sens.mergersMinus.charSpeedDrop')),
    exact('MSHRMergers-: char beats short', 'yes', '', 'LASH VII-C ("char outperforms short")', se('sens.mergersMinus.charBeatsShort')),
  ],
  measure(preset, seed) {
    const runs: Runs = [];
    const out: Measured = {};
    const r = run(runs, 'lash-sensitivity', preset, SENS, seed);
    take(out, 'int: largest change', r, 'sens.int.maxChange');
    take(out, 'MSHRMergers+: int-char gap widens', r, 'sens.mergersPlus.gapWidening');
    take(out, 'MSHRMergers-: short slower (performance)', r, 'sens.mergersMinus.shortSpeedDrop');
    take(out, 'MSHRMergers-: char slower (performance)', r, 'sens.mergersMinus.charSpeedDrop');
    take(out, 'MSHRMergers-: char beats short', r, 'sens.mergersMinus.charBeatsShort');
    return { measured: out, runs };
  },
};

// ---- LASH-F1: three applications ----------------------------------------------------------------------

const APPS: ParamValues = { types: [4, 2, 1], stencilN: 512 * 1024, matmulN: LASH_MATMUL.n, matmulKernel: LASH_MATMUL.kernel, stereoWidth: 192, l1: 'hw', scheduler: 'preset' };
const ap = (key: string): Reference['finding'] => ({ experiment: 'lash-apps', key });

const LASH_F1: ReproductionRow = {
  id: 'LASH-F1',
  paper: 'LASH',
  title: "Three applications x three types (LASH Fig 1, II): matrix multiply's int-char difference much smaller than stereo's and fastest with char, stereo matching 37 % faster with char, stencil best with short",
  presets: ['fermi480'],
  kind: PREDICTED,
  references: () => [
    {
      ...exact(
        "matrix multiply's int-char difference under half of stereo's",
        'yes',
        '',
        'LASH II ("Although the same trend can be seen in matrix-matrix multiplication, the performance impact is much lower"; "much lower" read as under half)',
        ap('apps.matmulUnderHalfStereo'),
      ),
      context: 'real GTX 480: less than 3 % between int and char for matrix multiply (LASH II, Fig 1; LASH VI: "the real GPU is used to measure performance"); LASH gives no code or size for it',
    },
    exact('matrix multiply: fastest type', 'char', '', 'LASH II ("Although the same trend can be seen in matrix-matrix multiplication": smaller types faster, as in stereo matching)', ap('apps.matmul.fastestType')),
    half('stereo: char faster than int', 37, '%', 'LASH II ("char data type reduces the execution time by 37%"); Fig 1, measured on the real GTX 480 (LASH VI)', ap('apps.stereo.charVsInt')),
    exact('stereo: fastest type', 'char', '', 'LASH II (smaller types reduce execution time significantly)', ap('apps.stereo.fastestType')),
    exact('stencil: fastest type', 'short', '', 'LASH II (the optimal type is short)', ap('apps.stencil.fastestType')),
  ],
  measure(preset, seed) {
    const runs: Runs = [];
    const out: Measured = {};
    const r = run(runs, 'lash-apps', preset, APPS, seed);
    take(out, "matrix multiply's int-char difference under half of stereo's", r, 'apps.matmulUnderHalfStereo');
    take(out, 'matrix multiply: fastest type', r, 'apps.matmul.fastestType');
    take(out, 'stereo: char faster than int', r, 'apps.stereo.charVsInt');
    take(out, 'stereo: fastest type', r, 'apps.stereo.fastestType');
    take(out, 'stencil: fastest type', r, 'apps.stencil.fastestType');
    return { measured: out, runs };
  },
};

// ---- LASH-280 --------------------------------------------------------------------------------------------

const LASH_280: ReproductionRow = {
  id: 'LASH-280',
  paper: 'LASH',
  title: 'The stencil on GTX 280 (no L1; LASH VIII): smaller types always faster',
  presets: ['tesla'],
  kind: predictedBecause("LASH VIII's GTX 280 without L1 is an input of the Tesla preset; the order of the types is simulated"),
  references: () => [exact('types fastest to slowest', 'char < short < int', '', 'LASH VIII ("under GTX280 ... smaller data types consistently perform better")', st('stencil.order'))],
  measure(preset, seed) {
    const runs: Runs = [];
    const out: Measured = {};
    const r = run(runs, 'lash-stencil', preset, { ...STENCIL, l1: 'bypass' }, seed);
    take(out, 'types fastest to slowest', r, 'stencil.order');
    return { measured: out, runs };
  },
};

export const ROWS: ReproductionRow[] = [LASH_CFG, LASH_MLP, LASH_F4, LASH_F5, LASH_F6, LASH_F7, LASH_F1, LASH_280];
