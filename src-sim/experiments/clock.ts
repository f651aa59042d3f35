import type { BlockStamp } from '../analysis/clock';
import { clockCost, inferClockScope, launchesSerialised } from '../analysis/clock';
import type { Preset } from '../presets/types';
import { Rng } from '../rng';
import { resolveParams } from './params';
import type { Experiment, ParamSpec, Series, Table } from './types';
import { ExperimentError } from './types';

/**
 * WONG IV-A: clock() and its registers.
 *  - Overhead: clock() is a move from the clock register followed by a dependent shift by one (the
 *    counter runs at half the shader clock). One warp issues in order; an instruction waits for its
 *    operands (SP latency) and for its issue slot (issue cycles). Two clock() reads with k independent
 *    operations between them are simulated instruction by instruction and their readings subtracted.
 *  - Scope (Fig 5): two serialised launches record clock() at each block's start and end. Each clock
 *    register (one per SM, TPC or chip, as the preset says) starts from its own seeded value.
 * Assumed where WONG is silent: the move from the clock register has the SP latency; blocks are dealt
 * to TPCs round-robin (block i on TPC i mod TPCs), and the blocks of one launch start together.
 */

const params: ParamSpec[] = [
  { name: 'maxOps', label: 'Operations between reads', unit: '', kind: 'integer', default: 8, min: 0, max: 64, description: 'The overhead curve runs 0..maxOps independent operations between two clock() reads.' },
  { name: 'firstBlocks', label: 'Blocks, first launch', unit: '', kind: 'integer', default: 10, min: 1, max: 1024, description: 'Blocks of the first kernel launch (WONG Fig 5: 10, one per TPC).' },
  { name: 'secondBlocks', label: 'Blocks, second launch', unit: '', kind: 'integer', default: 30, min: 1, max: 1024, description: 'Blocks of the second launch (WONG Fig 5: 30, one per SM); at most one per SM.' },
  { name: 'blockCycles', label: 'Block run time', unit: 'cycles', kind: 'integer', default: 20000, min: 100, max: 1e9, description: 'Cycles each block runs between its two clock() reads.' },
  { name: 'launchGap', label: 'Launch gap', unit: 'cycles', kind: 'integer', default: 5000, min: 0, max: 1e9, description: 'Cycles between the end of the first launch and the start of the second (kernel launch overhead, assumed).' },
];

/** One instruction of the timed sequence: destination register, source registers, reads the clock. */
interface Insn {
  dst: number;
  srcs: number[];
  clock: boolean;
}

/** clock(); k independent ops; clock(): registers 0 and 1 take the readings, 2.. the ops. */
export function clockProgram(ops: number): Insn[] {
  const p: Insn[] = [
    { dst: 0, srcs: [], clock: true },
    { dst: 0, srcs: [0], clock: false },
  ];
  for (let k = 0; k < ops; k++) p.push({ dst: 2 + k, srcs: [2 + k + ops], clock: false });
  p.push({ dst: 1, srcs: [], clock: true }, { dst: 1, srcs: [1], clock: false });
  return p;
}

/**
 * Issues a program in order for one warp: each instruction waits for its issue slot (issueCycles after
 * the previous one) and for its sources (latency after their producer). Returns the cycles at which the
 * clock-reading instructions issue.
 */
export function issueClockReads(program: Insn[], issueCycles: number, latency: number): number[] {
  const ready = new Map<number, number>();
  const reads: number[] = [];
  let t = -issueCycles;
  for (const insn of program) {
    let at = t + issueCycles;
    for (const r of insn.srcs) at = Math.max(at, ready.get(r) ?? 0);
    t = at;
    ready.set(insn.dst, at + latency);
    if (insn.clock) reads.push(at);
  }
  return reads;
}

/** Value clock() returns at shader cycle `cycle` from a register started at `offset`: a counter at half
 *  the shader clock, shifted left by one (WONG IV-A). */
export function clockValue(cycle: number, offset: number): number {
  return 2 * Math.floor((cycle + offset) / 2);
}

function clockFacts(preset: Preset): { issue: number; scope: 'sm' | 'tpc' | 'chip' } {
  const issue = preset.alu.issueCycles;
  const scope = preset.measurement.clockScope;
  if (issue === undefined)
    throw new ExperimentError(`${preset.name} does not give the cycles between two issues of a warp (alu.issueCycles); WONG measures clock() on GT200 only`);
  if (scope === undefined)
    throw new ExperimentError(`${preset.name} does not say which unit owns the clock register (measurement.clockScope); WONG measures it on GT200 only`);
  return { issue, scope };
}

export const clock: Experiment = {
  id: 'clock',
  title: 'clock(): overhead and per-TPC clock registers (WONG IV-A, Fig 5)',
  description:
    'Two clock() reads around independent operations, simulated instruction by instruction; then two serialised kernel launches whose blocks record clock() at start and end, showing which blocks share a clock register.',
  reproduces: ['WONG-CLK'],
  params,
  estimate(_preset, raw) {
    const p = resolveParams(params, raw);
    return (p.maxOps as number) + (p.firstBlocks as number) + (p.secondBlocks as number);
  },
  run(preset, raw, seed, progress) {
    const p = resolveParams(params, raw);
    const { issue, scope } = clockFacts(preset);
    const per = preset.chip.smPerTpc;
    const tpcs = Math.max(1, Math.ceil(preset.chip.sms / per));
    for (const name of ['firstBlocks', 'secondBlocks'])
      if ((p[name] as number) > preset.chip.sms)
        throw new ExperimentError(`parameter "${name}" is ${p[name]}; ${preset.name} has ${preset.chip.sms} SMs (one block per SM: 1 to ${preset.chip.sms})`, name);

    // Each clock register starts from its own seeded value (registers are not synchronised).
    const registers = scope === 'sm' ? preset.chip.sms : scope === 'tpc' ? tpcs : 1;
    const offsets = Array.from({ length: registers }, (_, k) => new Rng(Rng.derive(seed, k)).int(1 << 30));
    const registerOf = (sm: number): number => (scope === 'sm' ? sm : scope === 'tpc' ? Math.floor(sm / per) : 0);

    // 1. Overhead: deltas of two readings on one SM, 0..maxOps operations between them.
    const maxOps = p.maxOps as number;
    const deltas = new Float64Array(maxOps + 1);
    const start = new Rng(Rng.derive(seed, 0xc10c)).int(1 << 20);
    for (let k = 0; k <= maxOps; k++) {
      const [t1, t2] = issueClockReads(clockProgram(k), issue, preset.alu.spLatency);
      deltas[k] = clockValue(start + t2, offsets[0]) - clockValue(start + t1, offsets[0]);
    }
    progress(1, 3, 'overhead');

    // 2. Fig 5: two serialised launches; block i runs on TPC i mod TPCs, SM (i div TPCs) mod smPerTpc.
    const stamps: BlockStamp[] = [];
    let now = 0;
    [p.firstBlocks as number, p.secondBlocks as number].forEach((blocks, launch) => {
      const begin = now;
      for (let i = 0; i < blocks; i++) {
        const tpc = i % tpcs;
        const sm = tpc * per + (Math.floor(i / tpcs) % per);
        const off = offsets[registerOf(sm)];
        const end = begin + (p.blockCycles as number);
        stamps.push({ launch: launch + 1, block: i, sm, tpc, start: clockValue(begin, off), end: clockValue(end, off) });
        now = Math.max(now, end);
      }
      now += p.launchGap as number;
      progress(2 + launch, 3, `launch ${launch + 1}`);
    });

    const cost = clockCost(deltas);
    const scopeSeen = inferClockScope(stamps, 64);
    const serialised = launchesSerialised(stamps, 1, 2);
    const series: Series[] = [
      {
        name: 'clock() delta',
        x: Float64Array.from({ length: maxOps + 1 }, (_, k) => k),
        y: deltas,
        xLabel: 'Independent operations between the reads',
        xUnit: '',
        yLabel: 'Difference of readings',
        yUnit: 'cycles',
        style: 'line',
      },
    ];
    for (const launch of [1, 2]) {
      const mine = stamps.filter((s) => s.launch === launch);
      for (const which of ['start', 'end'] as const)
        series.push({
          name: `launch ${launch} ${which}`,
          x: Float64Array.from(mine, (s) => s.sm),
          y: Float64Array.from(mine, (s) => s[which]),
          xLabel: 'SM the block ran on',
          xUnit: '',
          yLabel: 'clock() value',
          yUnit: 'cycles',
          style: 'scatter',
        });
    }
    const table: Table = {
      name: 'Block timestamps (WONG Fig 5)',
      columns: [
        { key: 'launch', label: 'Launch' },
        { key: 'block', label: 'Block' },
        { key: 'sm', label: 'SM' },
        { key: 'tpc', label: 'TPC' },
        { key: 'start', label: 'Start', unit: 'cycles' },
        { key: 'end', label: 'End', unit: 'cycles' },
      ],
      rows: stamps.map((s) => ({ launch: s.launch, block: s.block, sm: s.sm, tpc: s.tpc, start: s.start, end: s.end })),
    };
    const findings = [
      {
        key: 'clock.overhead',
        label: 'clock() followed by a non-dependent operation',
        value: cost.overhead,
        unit: 'cycles',
        evidence: 'difference of two back-to-back clock() readings (the second read is the non-dependent operation)',
      },
      {
        key: 'clock.opCycles',
        label: 'Cost of each further independent operation',
        value: cost.perOp,
        unit: 'cycles',
        evidence: `median growth of the difference over 0..${maxOps} operations`,
      },
      {
        key: 'clock.scope',
        label: 'Clock register shared by',
        value: scopeSeen,
        unit: '',
        evidence: 'start stamps of blocks launched together: equal within a TPC, different across TPCs means one register per TPC',
      },
      {
        key: 'clock.serialized',
        label: 'Kernel launches serialised',
        value: serialised ? 'yes' : 'no',
        unit: '',
        evidence: 'on every SM that ran blocks of both launches, the second starts after the first ends (one clock)',
      },
    ];
    const notes = [
      `Assumed: the move from the clock register has the SP latency (${preset.alu.spLatency} cycles) and the shift waits for it; issue slots are ${issue} cycles apart.`,
      ...(cost.overhead !== preset.measurement.clockOverhead
        ? [`The preset's clock() overhead, added to timed loads elsewhere, is ${preset.measurement.clockOverhead} cycles; this simulation gives ${cost.overhead}.`]
        : []),
    ];
    return { series, tables: [table], findings, notes };
  },
};
