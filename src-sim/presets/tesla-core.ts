import type { CoreConfig, CoreOp, CoreOpUnit } from '../core/types';

/** GT200's execution core as WONG measured it (Tables II-IV, IV-E, IV-J3, IV-K). */

type Row = [id: string, label: string, type: string, unit: CoreOpUnit, instructions: number, latency: number, throughput: number];

/** WONG Table III: arithmetic and logic operations. */
const TABLE_III: Row[] = [
  ['int.add', 'add, sub, max, min', 'uint, int', 'sp', 1, 24, 7.9],
  ['int.mad', 'mad', 'uint, int', 'sp', 5, 120, 1.4],
  ['int.mul', 'mul', 'uint, int', 'sp', 4, 96, 1.7],
  ['uint.div', 'div', 'uint', 'routine', 1, 608, 0.28],
  ['int.div', 'div', 'int', 'routine', 1, 684, 0.23],
  ['uint.rem', 'rem', 'uint', 'routine', 1, 728, 0.24],
  ['int.rem', 'rem', 'int', 'routine', 1, 784, 0.2],
  ['uint.logic', 'and, or, xor, shl, shr', 'uint', 'sp', 1, 24, 7.9],
  ['float.add', 'add, sub, max, min', 'float', 'sp', 1, 24, 7.9],
  ['float.mad', 'mad', 'float', 'sp', 1, 24, 7.9],
  ['float.mul', 'mul', 'float', 'sp+sfu', 1, 24, 11.2],
  ['float.div', 'div', 'float', 'routine', 1, 137, 1.5],
  ['double.add', 'add, sub, max, min', 'double', 'dpu', 1, 48, 1.0],
  ['double.mad', 'mad', 'double', 'dpu', 1, 48, 1.0],
  ['double.mul', 'mul', 'double', 'dpu', 1, 48, 1.0],
  ['double.div', 'div', 'double', 'routine', 1, 1366, 0.063],
];

/** WONG Table IV: mathematical intrinsics. */
const TABLE_IV: Row[] = [
  ['__umul24', '__umul24()', 'uint', 'sp', 1, 24, 7.9],
  ['__mul24', '__mul24()', 'int', 'sp', 1, 24, 7.9],
  ['__usad', '__usad()', 'uint', 'sp', 1, 24, 7.9],
  ['__sad', '__sad()', 'int', 'sp', 1, 24, 7.9],
  ['__umulhi', '__umulhi()', 'uint', 'routine', 1, 144, 1.0],
  ['__mulhi', '__mulhi()', 'int', 'routine', 1, 180, 0.77],
  ['__fadd_rn', '__fadd_rn(), __fadd_rz()', 'float', 'sp', 1, 24, 7.9],
  ['__fmul_rn', '__fmul_rn(), __fmul_rz()', 'float', 'sp+sfu', 1, 26, 10.4],
  ['__fdividef', '__fdividef()', 'float', 'routine', 1, 52, 1.9],
  ['__dadd_rn', '__dadd_rn()', 'double', 'dpu', 1, 48, 1.0],
  ['__sinf', '__sinf(), __cosf()', 'float', 'sfu', 2, 48, 2.0],
  ['__tanf', '__tanf()', 'float', 'routine', 1, 98, 0.67],
  ['__exp2f', '__exp2f()', 'float', 'sfu', 2, 48, 2.0],
  ['__expf', '__expf(), __exp10f()', 'float', 'routine', 1, 72, 2.0],
  ['__log2f', '__log2f()', 'float', 'sfu', 1, 28, 2.0],
  ['__logf', '__logf(), __log10f()', 'float', 'routine', 1, 52, 2.0],
  ['__powf', '__powf()', 'float', 'routine', 1, 75, 1.0],
  ['rsqrt', 'rsqrt()', 'float', 'sfu', 1, 28, 2.0],
  ['sqrt', 'sqrt()', 'float', 'sfu', 2, 56, 2.0],
];

const op = (table: 'III' | 'IV') => ([id, label, type, unit, instructions, latency, throughput]: Row): CoreOp => ({ id, label, type, table, unit, instructions, latency, throughput });

export const TESLA_CORE: CoreConfig = {
  scheduler: { warpSize: 32, issueCycles: 1, busyWritebackDelay: 6 },
  units: {
    sp: { count: 8, latency: 24, throughput: 8 },
    sfu: { count: 2, latency: 28, throughput: 2, mulThroughput: 4 },
    dpu: { count: 1, latency: 48, throughput: 1 },
  },
  ops: [...TABLE_III.map(op('III')), ...TABLE_IV.map(op('IV'))],
  regfile: { registers: 16384, banks: 64, regGranularity: 4, maxRegsPerThread: 128, maxThreadsPerBlock: 512, maxBytesPerBlock: 65536 },
  icache: { fetchBytes: 64, instructionBytes: 8, prefetchLines: 1 },
  constantL3: { bytesPerCyclePerSM: 1.2, bytesPerCycleTotal: 9.75 },
};

const NOTES: Record<string, string> = {
  'int.mad': '; IV-B: five dependent native instructions, 120 cycles',
  'int.mul': '; IV-B: four native instructions, 96 cycles',
  'float.mul': '; IV-B: 11.2 > 8 ops/clk, so issued to both the SP and the SFUs',
  '__fmul_rn': '; issued to the SP and the SFUs like mul',
  '__sinf': '; IV-B: two dependent instructions on a single operand',
  '__exp2f': '; IV-B: two dependent instructions on a single operand',
  sqrt: '; IV-B: a reciprocal-sqrt followed by a reciprocal',
};

/** Provenance of TESLA_CORE, keyed below "core." (tesla.ts prefixes it). */
export const TESLA_CORE_PROVENANCE: Record<string, string> = {
  'scheduler.warpSize': 'WONG Table I (warps of 32 threads)',
  'scheduler.issueCycles':
    "assumed: WONG IV-B measures 11.2 ops/clk for float mul, above the SP's 8, so the scheduler must feed the SP and the SFUs within one 4-cycle SP slot; WONG gives no issue interval, and one warp instruction per cycle lets both pipelines fill",
  'scheduler.busyWritebackDelay':
    'assumed: WONG Fig 6 shows six and seven warps short of 8 ops/clk without saying why; an SP result written back 6 cycles late when the SP accepted an instruction at every opportunity since it issued reproduces 24 cycles below six warps, 6 and 7 warps unfilled and saturation from 8',
  'units.sp': 'WONG Table II, Table I (8 SPs per SM; 24 cycles, 8 ops/clk, 4 clocks per warp)',
  'units.sfu': 'WONG Table II, Table I (2 SFUs per SM; 28 cycles, 2 ops/clk, 16 clocks per warp)',
  'units.sfu.mulThroughput': 'WONG IV-B, Table V (each SFU ~2 multiplications per cycle, 4 in total)',
  'units.dpu': 'WONG Table II, Table I (1 DPU per SM; 48 cycles, 1 op/clk, 32 clocks per warp)',
  ...Object.fromEntries(
    [...TABLE_III.map((r) => ['III', r] as const), ...TABLE_IV.map((r) => ['IV', r] as const)].map(([t, r], i) => [
      `ops.${i}`,
      `WONG Table ${t} (${r[1]} ${r[2]}: ${r[3] === 'routine' ? 'a multi-instruction routine, modelled as one step of this latency and throughput' : r[3].toUpperCase().replace('+', ' and ')}, ${r[5]} cycles, ${r[6]} ops/clk${NOTES[r[0]] ?? ''})`,
    ]),
  ),
  'regfile.registers': 'WONG IV-E, Table V (16,384 32-bit registers per SM)',
  'regfile.banks': 'WONG IV-E, Table V (64 logical banks; threads per block quantised to 64)',
  'regfile.regGranularity': 'WONG IV-E (registers per thread rounded up to a multiple of four, citing nvcc [4])',
  'regfile.maxRegsPerThread': 'WONG IV-E, Table I (more than 128 registers per thread fails to launch)',
  'regfile.maxThreadsPerBlock': 'WONG Table I (512 threads per block)',
  'regfile.maxBytesPerBlock': 'WONG IV-E (more than 64 KB of registers in a block fails to launch)',
  'icache.fetchBytes': 'WONG IV-K4, Fig 24 (the SM fetches 64 bytes at a time from the L1)',
  'icache.instructionBytes': 'WONG IV-K (8-byte arithmetic instructions)',
  'icache.prefetchLines':
    'assumed: WONG IV-K says a small amount of prefetching hides the L2 latency in Fig 22; one 256-byte line ahead (128 cycles of code) hides an L2 hit (81) but not an L3 hit (220)',
  'constantL3.bytesPerCyclePerSM': 'WONG IV-J3, Fig 19 (one SM fetches ~1.2 bytes/clock, even with more demand from its block)',
  'constantL3.bytesPerCycleTotal': 'WONG IV-J3, Fig 19 (~9.75 bytes/clock aggregate between 10 and 20 blocks)',
};
