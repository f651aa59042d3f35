import type { ParamValues } from '../experiments/types';
import { beside, runFor } from './rows-core';
import { calibrated, INFERRED, predictedBecause, withKind } from './kinds';
import type { KindDecl, Reference, ReproductionRow, RowResult } from './types';

/**
 * WONG's core rows on the Tesla preset: arithmetic latency and throughput (Tables II-IV), latency and
 * throughput against warps (Fig 6), the register file (Fig 9), constant L3 bandwidth (Fig 19) and the
 * instruction caches (Figs 22-24). The paper's values are data here, with their citations; every
 * measured value is a finding of one run of a registered experiment (src-sim/experiments/wong-*.ts),
 * named beside its reference.
 */

type Runs = RowResult['runs'];
type Measured = Record<string, number | string>;

const run = runFor;

/** Reference `ref`, measured by finding `key` of `experiment` run with `params`. */
interface Spec {
  ref: Reference;
  key: string;
}

/** A row whose references are each one finding of one run: references and measure from one list. */
function row(id: string, title: string, kind: KindDecl, experiment: string, sweeps: { params: ParamValues; specs: Spec[] }[]): ReproductionRow {
  return {
    id,
    paper: 'WONG',
    title,
    presets: ['tesla'],
    kind,
    references: () => sweeps.flatMap((s) => s.specs.map((x) => beside(x.ref, experiment, x.key, s.params))),
    measure(preset, seed) {
      const runs: Runs = [];
      const out: Measured = {};
      for (const s of sweeps) {
        const r = run(runs, experiment, preset, s.params, seed);
        for (const x of s.specs) {
          const v = r.findings.find((f) => f.key === x.key)?.value;
          if (v !== undefined) out[x.ref.name] = v;
        }
      }
      return { measured: out, runs };
    },
  };
}

const lat = (name: string, v: number, unit: string, citation: string): Reference => ({ name, value: v, unit, tolerance: 'latency', citation });
const exact = (name: string, v: number | string, unit: string, citation: string): Reference => ({ name, value: v, unit, tolerance: 'exact', citation });
const spec = (ref: Reference, key: string): Spec => ({ ref, key });

// ---- WONG IV-B, Tables II-IV ---------------------------------------------------------------------------

/** WONG Tables III and IV, row by row: finding id, the row as printed, latency (clocks), throughput (ops/clock). */
const TABLE_ROWS: [table: 'III' | 'IV', id: string, row: string, latency: number, throughput: number][] = [
  ['III', 'int.add', 'add, sub, max, min (uint, int)', 24, 7.9],
  ['III', 'int.mad', 'mad (uint, int)', 120, 1.4],
  ['III', 'int.mul', 'mul (uint, int)', 96, 1.7],
  ['III', 'uint.div', 'div (uint)', 608, 0.28],
  ['III', 'int.div', 'div (int)', 684, 0.23],
  ['III', 'uint.rem', 'rem (uint)', 728, 0.24],
  ['III', 'int.rem', 'rem (int)', 784, 0.2],
  ['III', 'uint.logic', 'and, or, xor, shl, shr (uint)', 24, 7.9],
  ['III', 'float.add', 'add, sub, max, min (float)', 24, 7.9],
  ['III', 'float.mad', 'mad (float)', 24, 7.9],
  ['III', 'float.mul', 'mul (float)', 24, 11.2],
  ['III', 'float.div', 'div (float)', 137, 1.5],
  ['III', 'double.add', 'add, sub, max, min (double)', 48, 1.0],
  ['III', 'double.mad', 'mad (double)', 48, 1.0],
  ['III', 'double.mul', 'mul (double)', 48, 1.0],
  ['III', 'double.div', 'div (double)', 1366, 0.063],
  ['IV', '__umul24', '__umul24() (uint)', 24, 7.9],
  ['IV', '__mul24', '__mul24() (int)', 24, 7.9],
  ['IV', '__usad', '__usad() (uint)', 24, 7.9],
  ['IV', '__sad', '__sad() (int)', 24, 7.9],
  ['IV', '__umulhi', '__umulhi() (uint)', 144, 1.0],
  ['IV', '__mulhi', '__mulhi() (int)', 180, 0.77],
  ['IV', '__fadd_rn', '__fadd_rn(), __fadd_rz() (float)', 24, 7.9],
  ['IV', '__fmul_rn', '__fmul_rn(), __fmul_rz() (float)', 26, 10.4],
  ['IV', '__fdividef', '__fdividef() (float)', 52, 1.9],
  ['IV', '__dadd_rn', '__dadd_rn() (double)', 48, 1.0],
  ['IV', '__sinf', '__sinf(), __cosf() (float)', 48, 2.0],
  ['IV', '__tanf', '__tanf() (float)', 98, 0.67],
  ['IV', '__exp2f', '__exp2f() (float)', 48, 2.0],
  ['IV', '__expf', '__expf(), __exp10f() (float)', 72, 2.0],
  ['IV', '__log2f', '__log2f() (float)', 28, 2.0],
  ['IV', '__logf', '__logf(), __log10f() (float)', 52, 2.0],
  ['IV', '__powf', '__powf() (float)', 75, 1.0],
  ['IV', 'rsqrt', 'rsqrt() (float)', 28, 2.0],
  ['IV', 'sqrt', 'sqrt() (float)', 56, 2.0],
];

const T2 = 'WONG Table II';
const UNITS: [key: 'sp' | 'sfu' | 'dpu', name: string, latency: number, throughput: number, issue: number][] = [
  ['sp', 'SP', 24, 8, 4],
  ['sfu', 'SFU', 28, 2, 16],
  ['dpu', 'DPU', 48, 1, 32],
];

const WONG_T2: ReproductionRow = row(
  'WONG-T2..T4',
  'Arithmetic pipelines: SP 24 clk, 8 ops/clk; SFU 28, 2 (4 for mul); DPU 48, 1; every row of Tables III and IV (WONG IV-B)',
  calibrated("the preset's units, per-operation latencies and throughputs, instruction counts and dual issue were set from Tables II-IV and IV-B"),
  'wong-arith',
  [
    {
      params: { table: 'all', chain: 128, threads: 512 },
      specs: [
        ...UNITS.flatMap(([k, n, l, t, i]) => [
          spec(lat(`${n} latency`, l, 'cycles', `${T2} (${n}: ${l} clocks)`), `${k}.latency`),
          spec(lat(`${n} throughput`, t, 'ops/clk', `${T2} (${n}: ${t} ops/clock)`), `${k}.throughput`),
          spec(lat(`${n} issue rate`, i, 'clk/warp', `${T2} (${n}: ${i} clocks/warp)`), `${k}.issueRate`),
        ]),
        spec(exact('float mul issued to SP and SFU', 'yes', '', 'WONG IV-B (11.2 ops/clock, above the SP\'s eight: mul is issued to both SP and SFU)'), 'float.mul.dualIssue'),
        spec(
          { name: 'SFU mul throughput', value: 4, unit: 'ops/clk', tolerance: 'half', citation: 'WONG IV-B, Table V (each SFU ~2 multiplications per cycle, 4 in total; read off 11.2 against 7.9)' },
          'sfu.mulThroughput',
        ),
        spec(exact('int mul instructions', 4, '', 'WONG IV-B (32-bit integer multiplication translates to four native instructions, 96 cycles)'), 'int.mul.instructions'),
        spec(exact('int mad instructions', 5, '', 'WONG IV-B (32-bit integer mad translates to five dependent instructions, 120 cycles)'), 'int.mad.instructions'),
        ...TABLE_ROWS.flatMap(([t, id, label, l, tp]) => [
          spec(lat(`${label} latency`, l, 'cycles', `WONG Table ${t} (${label}: ${l} clocks)`), `${id}.latency`),
          spec(lat(`${label} throughput`, tp, 'ops/clk', `WONG Table ${t} (${label}: ${tp} ops/clock)`), `${id}.throughput`),
        ]),
      ],
    },
  ],
);

// ---- WONG IV-B, Fig 6 ----------------------------------------------------------------------------------

const F6 = 'WONG IV-B, Fig 6';
/** Fig 6's shape: the SP's latency and rate are Table II inputs, and the write-back delay was fitted to Fig 6 itself. */
const F6_KIND = calibrated(
  "the SP's 24 cycles and 8 ops/clk are preset inputs (Table II), and the assumed write-back delay was chosen to reproduce Fig 6's six and seven unfilled warps",
);
const WONG_F6: ReproductionRow = row('WONG-F6', 'SP latency and throughput against warps: 24 clk up to 6 warps, linear rise, saturation at 8 ops/clk; 6 and 7 warps do not fill the pipeline (WONG Fig 6)', F6_KIND, 'wong-warps', [
  {
    params: { warpsFrom: 1, warpsTo: 24, chain: 256, op: 'int.add' },
    specs: [
      spec(lat('latency with few warps', 24, 'cycles', `${F6} (below six concurrent warps the observed latency is 24 cycles)`), 'warps.latency'),
      spec(exact('latency unchanged up to', 5, 'warps', `${F6} (24 cycles below six warps; all warps see the same latency)`), 'warps.flatUpTo'),
      spec(exact('throughput rises linearly', 'yes', '', `${F6} (throughput increases linearly while the pipeline is not full)`), 'warps.linear'),
      spec(lat('saturated throughput', 8, 'ops/clk', `${F6} (saturates at eight operations per clock, the number of SPs)`), 'warps.saturation'),
      spec(exact('warps that do not fill the pipeline', '6, 7', '', `${F6} (the scheduler does not fill the pipeline with six or seven warps)`), 'warps.unfilled'),
      spec(exact('pipeline full from', 8, 'warps', `${F6} (six and seven warps fall short; more fill it)`), 'warps.fullFrom'),
      spec(lat('warps the Programming Guide expects to suffice', 6, 'warps', `${F6} (the Programming Guide: six warps, 192 threads, hide read-after-write latency)`), 'warps.enoughInTheory'),
    ],
  },
]);

// ---- WONG IV-E, Fig 9 ----------------------------------------------------------------------------------

const RF = 'WONG IV-E';
const WONG_F9: ReproductionRow = row('WONG-F9', 'Register file: 16,384 registers; threads per block quantised to 64 when registers limit; 88 registers: 128 threads, 69 % used (WONG Fig 9)', calibrated("the preset's register file (16,384 registers, 64 logical banks, granularity 4, the launch limits) was set from IV-E and Table I"), 'wong-regfile', [
  {
    params: { regsFrom: 1, regsTo: 136, tryThreads: 1024 },
    specs: [
      spec(exact('registers per SM', 16384, 'registers', `${RF}, Fig 9 (16,384 32-bit registers, 64 KB)`), 'regfile.registers'),
      spec(exact('threads per block', 512, 'threads', 'WONG Table I, IV-E (512 threads per block; below 32 registers this limits)'), 'regfile.maxThreadsPerBlock'),
      spec(exact('registers per thread', 128, 'registers', `${RF} (more than 128 registers per thread fails to launch)`), 'regfile.maxRegsPerThread'),
      spec(exact('thread quantum', 64, 'threads', `${RF}, Fig 9 (threads per block quantised to 64 when limited by the register file: 64 logical banks)`), 'regfile.threadQuantum'),
      spec(exact('register granularity', 4, 'registers', `${RF} (registers per thread rounded up to a multiple of four)`), 'regfile.regGranularity'),
      spec(exact('fully usable from', 32, 'registers/thread', `${RF}, Fig 9 (below 32 registers per thread the file cannot be fully used)`), 'regfile.fullFrom'),
      spec(exact('threads at 88 registers', 128, 'threads', `${RF} (88 registers per thread: only 128 threads)`), 'regfile.at88.threads'),
      spec(
        { name: 'file used at 88 registers', value: 69, unit: '%', tolerance: 'range', range: [68.5, 69.5], citation: `${RF} (11,264 of 16,384 registers: 69 %)` },
        'regfile.at88.utilisation',
      ),
    ],
  },
]);

// ---- WONG IV-J3, Fig 19 --------------------------------------------------------------------------------

const F19 = 'WONG IV-J3, Fig 19';
const WONG_F19: ReproductionRow = row('WONG-F19', 'Constant L3 bandwidth: ~9.75 B/clk aggregate between 10 and 20 blocks, ~1.2 B/clk for one SM (WONG Fig 19)', calibrated("the constant L3's per-SM and aggregate rates were set from Fig 19"), 'wong-const-bw', [
  {
    params: { blocksFrom: 1, blocksTo: 40, bytesPerBlock: 8192 },
    specs: [
      spec(lat('aggregate bandwidth, 10-20 blocks', 9.75, 'B/clk', `${F19} (~9.75 bytes/clock between 10 and 20 blocks)`), 'constL3.aggregate'),
      spec(lat('one SM', 1.2, 'B/clk', `${F19} (one block: an SM fetches only ~1.2 bytes/clock)`), 'constL3.perSM'),
      spec(withKind(exact('drops above 30 blocks', 'yes', '', `${F19} (above 30 blocks some SMs run more than one block: load imbalance)`), predictedBecause('the rates are preset inputs; the drop comes from blocks doubling up on SMs past 30 blocks')), 'constL3.dropAbove30'),
    ],
  },
]);

// ---- WONG IV-K, Figs 22-24 -----------------------------------------------------------------------------

const IK = 'WONG IV-K';
/** Instruction-cache checks that read back an input or a fitted setting, or follow from inputs. */
const ICACHE_PREFETCH = calibrated('the assumed one-line prefetch was chosen so that Fig 22 sees the L2 and L3 but not the L1');
const ICACHE_FETCH = calibrated("the preset's 64-byte fetch was set from Fig 24");
const ICACHE_PLACEMENT = calibrated('the preset puts the interconnect after the per-TPC instruction L2, as Fig 23 shows');
const ICACHE_EVICTED = predictedBecause("the L1's line size and the 64-byte fetch are inputs; the evicted region is measured from the fetch timings of Fig 24's code");
const WONG_F22: ReproductionRow = row('WONG-F22..F24', 'Instruction caches: L1 4 KB 4-way 256 B lines per SM; L2 8 KB and L3 32 KB (shared with constants); 64-byte fetch (WONG Figs 22-24)', INFERRED, 'wong-icache', [
  {
    params: { probe: 'latency' },
    specs: [
      spec(withKind(exact('levels seen, SM alone', 2, '', `${IK}, Fig 22 (the 8 KB L2 and 32 KB L3 are visible, the 4 KB L1 is not)`), ICACHE_PREFETCH), 'fig22.levels'),
      spec(withKind(exact('first level seen, SM alone', 8192, 'B', `${IK}, Fig 22 (this test fails to detect the 4 KB L1: prefetching hides the L2 latency)`), ICACHE_PREFETCH), 'fig22.level1.sizeBytes'),
      spec(exact('L2 ways', 4, '', `${IK}2, Fig 22 (8 KB 4-way L2)`), 'fig22.level1.ways'),
      spec(exact('L3 size', 32768, 'B', `${IK}3, Fig 22 (32 KB L3)`), 'fig22.level2.sizeBytes'),
      spec(exact('L3 ways', 8, '', `${IK}3, Fig 22 (8-way L3)`), 'fig22.level2.ways'),
    ],
  },
  {
    params: { probe: 'l1' },
    specs: [
      spec(exact('L1 size', 4096, 'B', `${IK}1, Fig 23 (4 KB; it does not shrink when the TPC's other SMs flood their hierarchies)`), 'fig23.level1.sizeBytes'),
      spec(exact('L1 line', 256, 'B', `${IK}1, Fig 23 (256-byte lines)`), 'fig23.level1.lineBytes'),
      spec(exact('L1 sets', 4, '', `${IK}1, Fig 23 (four cache sets)`), 'fig23.level1.sets'),
      spec(exact('L1 ways', 4, '', `${IK}1, Fig 23 (4-way)`), 'fig23.level1.ways'),
      spec(withKind(exact('L1 time depends on TPC placement', 'no', '', `${IK}, Fig 23 (maximum and minimum over placements part only past the L1)`), ICACHE_PLACEMENT), 'fig23.firstDependsOnTpc'),
      spec(withKind(exact('L3 time depends on TPC placement', 'yes', '', `${IK}, Fig 23 (L3 has TPC placement-dependent latency)`), ICACHE_PLACEMENT), 'fig23.lastDependsOnTpc'),
    ],
  },
  {
    params: { probe: 'fetch' },
    specs: [
      spec(withKind(exact('fetch size', 64, 'B', `${IK}4, Fig 24 (the SM fetches from the L1 in blocks of 64 bytes)`), ICACHE_FETCH), 'fetch.blockBytes'),
      spec(withKind(exact('evicted region from', 160, 'B', `${IK}4, Fig 24 (the code spans three 256-byte lines, boundaries at 160 and 416)`), ICACHE_EVICTED), 'fetch.evictedFrom'),
      spec(withKind(exact('evicted region to', 416, 'B', `${IK}4, Fig 24 (a whole line, 160-416, is evicted when a conflict occurs)`), ICACHE_EVICTED), 'fetch.evictedTo'),
      spec(withKind(exact('evicted region size', 256, 'B', `${IK}4, Fig 24 (a whole 256-byte cache line is evicted)`), ICACHE_EVICTED), 'fetch.evictedBytes'),
    ],
  },
]);

export const ROWS: ReproductionRow[] = [WONG_T2, WONG_F6, WONG_F9, WONG_F19, WONG_F22];
