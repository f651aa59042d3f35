import { dominantLevel, latencyLevels } from '../analysis/levels';
import { findExperiment } from '../experiments';
import type { ExperimentResult, ParamValues } from '../experiments/types';
import type { Preset } from '../presets/types';
import { calibrated, predictedBecause, recovered, specification, withKind } from './kinds';
import { rowRunProgress } from './row-runs';
import type { Reference, ReproductionRow, RowResult } from './types';

/** Runs one experiment for a row and records it among the row's runs. */
export function runFor(
  runs: RowResult['runs'],
  experiment: string,
  preset: Preset,
  params: ParamValues,
  seed: number,
): ExperimentResult {
  runs.push({ experiment, params });
  const e = findExperiment(experiment);
  if (!e) throw new Error(`row needs experiment ${experiment}, which is not registered`);
  return e.run(preset, params, seed, rowRunProgress);
}

export function finding(r: ExperimentResult, key: string): number | string | undefined {
  return r.findings.find((f) => f.key === key)?.value;
}

const lat = (name: string, value: number, citation: string): Reference => ({ name, value, unit: 'cycles', tolerance: 'latency', citation });
/** The same reference, placed beside finding `key` of a run of `experiment` with `params` (Reference.finding). */
export const beside = (ref: Reference, experiment: string, key: string, params?: ParamValues): Reference => ({
  ...ref,
  finding: params ? { experiment, key, params: hintParams(params), ...(Object.values(params).some(Array.isArray) ? { run: { ...params } as Record<string, string | number | boolean | number[]> } : {}) } : { experiment, key },
});
/** Scalar parameters only: list parameters (strides) are named by the finding key itself. */
function hintParams(params: ParamValues): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [k, v] of Object.entries(params)) if (!Array.isArray(v)) out[k] = v;
  return out;
}
const exact = (name: string, value: number | string, unit: string, citation: string): Reference => ({ name, value, unit, tolerance: 'exact', citation });

// ---- MEI Table 1 -------------------------------------------------------------------------------------

/** The stride sweep MEI-T1 and MEI-F5 read (all strides 0..64 words, the preset's default bank mode). */
const BANK_SWEEP: ParamValues = { strideFrom: 0, strideTo: 64, mode: 'default' };
/**
 * The sweep's parameters as a hint: with one bank mode every mode choice ("all" by default) is the
 * default mode's sweep, so a run with the experiment's defaults takes the paper's values; with two
 * (Kepler) the findings of "all" are per mode and another mode's would not be the default's.
 */
const bankSweepHint = (preset: Preset): ParamValues =>
  Object.keys(preset.shared.modes).length > 1 ? BANK_SWEEP : { strideFrom: BANK_SWEEP.strideFrom, strideTo: BANK_SWEEP.strideTo };
const onBankSweep = (ref: Reference, key: string, preset: Preset): Reference => beside(ref, 'shared-bank-stride', key, bankSweepHint(preset));

const T1: Record<string, Reference[]> = {
  Tesla: [
    exact('shared memory size', 16 * 1024, 'B', 'MEI Table 1 (GTX 280: 16 KB)'),
    exact('shared memory banks', 16, '', 'MEI Table 1 (GTX 280: 16 banks)'),
    exact('bank-width modes', '4-byte', '', 'MEI Table 1 (GTX 280: 4-byte banks)'),
    exact('texture units', 'per-TPC', '', 'MEI Table 1 (GTX 280: per-TPC texture units)'),
    exact('global memory cached', 'no', '', 'MEI Table 1 (GTX 280: global memory non-cached)'),
  ],
  Fermi: [
    exact('shared memory size', 48 * 1024, 'B', 'MEI Table 1 (GTX 560 Ti: 16/48 KB; 48 KB beside a 16 KB L1)'),
    exact('shared memory banks', 32, '', 'MEI Table 1 (GTX 560 Ti: 32 banks)'),
    exact('bank-width modes', '4-byte', '', 'MEI Table 1 (GTX 560 Ti: 4-byte banks)'),
    exact('texture units', 'per-SM', '', 'MEI Table 1 (GTX 560 Ti: per-SM texture units)'),
    exact('global memory cached', 'L1+L2', '', 'MEI Table 1 (GTX 560 Ti: cached in L1 and L2)'),
    exact('L1 size', 16 * 1024, 'B', 'MEI Table 1 (64 KB less 48 KB of shared memory)'),
    exact('L2 size', 512 * 1024, 'B', 'MEI Table 1 (GTX 560 Ti: 512 KB)'),
  ],
  Kepler: [
    exact('shared memory size', 48 * 1024, 'B', 'MEI Table 1 (GTX 780: 16/32/48 KB)'),
    exact('shared memory banks', 32, '', 'MEI Table 1 (GTX 780: 32 banks)'),
    exact('bank-width modes', '4-byte/8-byte', '', 'MEI Table 1 (GTX 780: 4/8-byte bank width)'),
    exact('texture units', 'per-SM', '', 'MEI Table 1 (GTX 780: per-SM texture units)'),
    exact('global memory cached', 'L2', '', 'MEI Table 1 (GTX 780: cached in L2 or read-only data cache)'),
    exact('L2 size', 1536 * 1024, 'B', 'MEI Table 1 (GTX 780: 1536 KB)'),
  ],
};

/** The bank count is measured, but the preset's bank count was set from the same Table 1 entry. */
const BANKS_KIND = calibrated("the preset's bank count was set from Table 1; the stride sweep's largest conflict degree measures it back");

const MEI_T1: ReproductionRow = {
  id: 'MEI-T1',
  paper: 'MEI',
  title: 'Device facts (MEI Table 1): specification values read from the preset, bank count measured',
  presets: ['tesla', 'fermi', 'kepler'],
  kind: specification("read back from the preset's Table 1 data, except the bank count, which the stride sweep measures"),
  // The bank count is the sweep's largest conflict degree; the other facts are the preset's specification.
  references: (preset) => (T1[preset.generation] ?? []).map((r) => (r.name === 'shared memory banks' ? withKind(onBankSweep(r, 'shared.maxDegree', preset), BANKS_KIND) : r)),
  measure(preset, seed) {
    const runs: RowResult['runs'] = [];
    const banks = runFor(runs, 'shared-bank-stride', preset, BANK_SWEEP, seed);
    const global = preset.spaces.global;
    const cachedIn = global.levels.map((l) => l.name.replace(/ .*/, '')).join('+');
    const measured: Record<string, number | string> = {
      // Specification facts of Table 1 (what the preset declares):
      'shared memory size': preset.shared.sizeBytes,
      'bank-width modes': Object.keys(preset.shared.modes).join('/'),
      'texture units': preset.spaces.texture?.levels[0]?.scope === 'tpc' ? 'per-TPC' : 'per-SM',
      'global memory cached': cachedIn === '' ? 'no' : cachedIn,
      // Measured: the largest conflict degree of the stride sweep is the number of banks.
      'shared memory banks': finding(banks, 'shared.maxDegree') as number,
    };
    const l1 = global.levels.find((l) => l.scope === 'sm');
    const l2 = global.levels.find((l) => l.scope === 'chip');
    if (l1) measured['L1 size'] = l1.sizeBytes;
    if (l2) measured['L2 size'] = l2.sizeBytes;
    return { measured, runs };
  },
};

// ---- MEI Fig 5: Fermi shared memory -------------------------------------------------------------------

/** The conflict rule is inferred from latencies over every stride; only the word-to-bank mapping is an input. */
const BANK_RULE_KIND = predictedBecause(
  'the preset gives the word-to-bank mapping (word w in bank w mod 32, Fig 4); the degree rule is inferred from the simulated latencies of 65 strides',
);

/**
 * The rule names the bank count the preset was set to (32, MEI Table 1): the sweep's analyser reads
 * it back. The perturbation cannot show it alone (at 16 or 64 banks a warp's degrees follow no gcd
 * rule the analyser states), so the kind is declared, never counted as predicted.
 */
const BANK_COUNT_READ_BACK = recovered("the rule's 32 is the preset's bank count (MEI Table 1), which the stride sweep's analyser reads back from simulated latencies: a method check");

const MEI_F5: ReproductionRow = {
  id: 'MEI-F5',
  paper: 'MEI',
  title: 'Fermi shared memory latency vs stride (bank conflicts)',
  presets: ['fermi'],
  kind: calibrated("the preset's conflict-free latency and cost per further way were fitted to Fig 5's 50, 88 and 1210 cycles"),
  references: (preset) => [
    // Stride 0 is conflict-free (a broadcast): the sweep's conflict-free latency is the same quantity.
    onBankSweep(lat('stride 0 (broadcast)', 50, 'MEI 4.1, Fig 5 (about 50 cycles)'), 'shared.base', preset),
    lat('2-way conflict', 88, 'MEI 4.1, Fig 5 (88 cycles)'),
    lat('32-way conflict', 1210, 'MEI 4.1, Fig 5 (1210 cycles)'),
    withKind(onBankSweep(exact('degree rule', 'gcd(stride, 32)', '', 'MEI 4.1, Fig 4 (the way of bank conflict equals gcd(stride, 32))'), 'shared.rule', preset), BANK_COUNT_READ_BACK),
    withKind(onBankSweep(exact('odd strides conflict-free', 'yes', '', 'MEI 4.1 (no bank conflict for odd strides)'), 'shared.oddConflictFree', preset), BANK_RULE_KIND),
  ],
  measure(preset, seed) {
    const runs: RowResult['runs'] = [];
    const r = runFor(runs, 'shared-bank-stride', preset, BANK_SWEEP, seed);
    const s = r.series[0];
    const degrees = r.tables[0].rows.map((row) => Number(Object.values(row)[1]));
    const latencyAtDegree = (d: number): number | undefined => {
      const i = degrees.indexOf(d);
      return i < 0 ? undefined : s.y[i];
    };
    const measured: Record<string, number | string> = {
      'stride 0 (broadcast)': s.x[0] === 0 ? s.y[0] : NaN,
      'degree rule': (finding(r, 'shared.rule') as string) ?? 'none',
      'odd strides conflict-free': (finding(r, 'shared.oddConflictFree') as string) ?? 'no',
    };
    const two = latencyAtDegree(2);
    const all = latencyAtDegree(32);
    if (two !== undefined) measured['2-way conflict'] = two;
    if (all !== undefined) measured['32-way conflict'] = all;
    return { measured, runs };
  },
};

// ---- MEI Fig 7: Kepler 4-byte vs 8-byte mode ----------------------------------------------------------

/** MEI Fig 7's sweep: even strides 2..32 in both bank modes. */
const EVEN_SWEEP: ParamValues = { strideFrom: 2, strideTo: 32, strideStep: 2, mode: 'all' };

/** Kepler's 2-way degrees at strides 4 and 6 scale with the preset's issue group (a warp, MEI 3.1) alone: perturbation shows it. */
const ISSUE_GROUP_DEGREE = recovered(
  "the degree follows the preset's issue group (one warp, MEI 3.1) alone, by its ratio: the stride sweep reads the configured bank mapping back",
);

const MEI_F7: ReproductionRow = {
  id: 'MEI-F7',
  paper: 'MEI',
  title: 'Kepler shared memory: 4-byte vs 8-byte bank mode, even strides',
  presets: ['kepler'],
  kind: predictedBecause("the preset gives each mode's word-to-bank mapping (the reading of Fig 6); the conflict degree at each stride is measured from simulated latencies"),
  references: () => {
    const c = 'MEI 4.1, Figs 6-7';
    // "8-byte mode is superior to 4-byte mode for other even strides whose number is not a power of two":
    // the strides of the sweep (2..32) that the statement names.
    const better = [];
    for (let s = 2; s <= 32; s += 2) if ((s & (s - 1)) !== 0) better.push(s);
    return [
      exact('stride 2, 4-byte mode', 1, 'way', `${c} (stride 2: no bank conflict in either mode)`),
      exact('stride 2, 8-byte mode', 1, 'way', `${c} (stride 2: no bank conflict in either mode)`),
      withKind(exact('stride 4, 4-byte mode', 2, 'way', `${c} (stride 4: 2-way, half as Fermi)`), ISSUE_GROUP_DEGREE),
      withKind(exact('stride 6, 4-byte mode', 2, 'way', `${c} (stride 6: 2-way in 4-byte mode)`), ISSUE_GROUP_DEGREE),
      exact('stride 6, 8-byte mode', 1, 'way', `${c} (stride 6: no conflict in 8-byte mode)`),
      beside(exact('8-byte never worse', 'yes', '', `${c} (8-byte mode further reduces bank conflict)`), 'shared-bank-stride', 'shared.8-byte.neverWorse', EVEN_SWEEP),
      beside(exact('8-byte strictly better at', better.join(','), 'words', `${c} (even strides that are not powers of two)`), 'shared-bank-stride', 'shared.8-byte.betterAt', EVEN_SWEEP),
    ];
  },
  measure(preset, seed) {
    const runs: RowResult['runs'] = [];
    const r = runFor(runs, 'shared-bank-stride', preset, EVEN_SWEEP, seed);
    const rows = r.tables[0].rows;
    const at = (stride: number, mode: string): number | undefined => rows.find((row) => row.stride === stride)?.[mode] as number | undefined;
    const measured: Record<string, number | string> = {};
    const put = (name: string, v: number | string | undefined): void => {
      if (v !== undefined) measured[name] = v;
    };
    put('stride 2, 4-byte mode', at(2, '4-byte'));
    put('stride 2, 8-byte mode', at(2, '8-byte'));
    put('stride 4, 4-byte mode', at(4, '4-byte'));
    put('stride 6, 4-byte mode', at(6, '4-byte'));
    put('stride 6, 8-byte mode', at(6, '8-byte'));
    put('8-byte never worse', finding(r, 'shared.8-byte.neverWorse'));
    put('8-byte strictly better at', finding(r, 'shared.8-byte.betterAt'));
    return { measured, runs };
  },
};

// ---- MEI Table 3: global latency patterns -------------------------------------------------------------

const T3_KEPLER = [230, 236, 289, 371, 734, 1000];
const T3_FERMI_ON = [116, 404, 488, 655, 1259];
const T3_FERMI_OFF = [371, 398, 482, 639, 1245];

const MEI_T3: ReproductionRow = {
  id: 'MEI-T3',
  paper: 'MEI',
  title: 'Global memory latency by access pattern (one non-uniform-stride run)',
  presets: ['fermi', 'kepler'],
  kind: calibrated("each pattern's latency in the preset's tables was set from Table 3"),
  references: (preset) => {
    // The finding each value sits beside in a run's findings table: pattern N of a run in that space.
    const at = (space: string, i: number): Reference['finding'] => ({ experiment: 'global-latency-patterns', key: `pattern${i + 1}.latency`, params: { space } });
    if (preset.generation === 'Kepler')
      return T3_KEPLER.map((v, i) => ({ ...lat(`pattern ${i + 1}`, v, `MEI Table 3 (Kepler, pattern ${i + 1})`), finding: at('global', i) }));
    if (preset.generation === 'Fermi')
      return [
        ...T3_FERMI_ON.map((v, i) => ({ ...lat(`L1 on, pattern ${i + 1}`, v, `MEI Table 3 (Fermi, L1 enabled, pattern ${i + 1})`), finding: at('global', i) })),
        ...T3_FERMI_OFF.map((v, i) => ({ ...lat(`L1 off, pattern ${i + 1}`, v, `MEI Table 3 (Fermi, L1 disabled, pattern ${i + 1})`), finding: at('global-cg', i) })),
      ];
    return [];
  },
  measure(preset, seed) {
    const runs: RowResult['runs'] = [];
    const measured: Record<string, number | string> = {};
    const collect = (prefix: string, r: ExperimentResult): void => {
      for (let p = 1; p <= 6; p++) {
        const v = finding(r, `pattern${p}.latency`);
        if (v !== undefined) measured[`${prefix}pattern ${p}`] = v;
      }
    };
    if (preset.generation === 'Fermi') {
      collect('L1 on, ', runFor(runs, 'global-latency-patterns', preset, { space: 'global' }, seed));
      collect('L1 off, ', runFor(runs, 'global-latency-patterns', preset, { space: 'global-cg' }, seed));
    } else collect('', runFor(runs, 'global-latency-patterns', preset, { space: 'global' }, seed));
    return { measured, runs };
  },
};

// ---- MEI Table 5: texture vs global -------------------------------------------------------------------

/** MEI Table 5's fine-grained chases: array size and stride per quantity (warm, 1024 accesses). */
const T5_CHASES: Record<string, ParamValues> = {
  // Small arrays stay in the first level; 64 KB of texture and 256 KB of global overflow it but fit in L2.
  'texture L1 hit': { space: 'texture', size: 4096, stride: 32, iterations: 1024, warmup: true },
  'texture L1 miss, L2 hit': { space: 'texture', size: 64 * 1024, stride: 32, iterations: 1024, warmup: true },
  'global L1 miss, L2 hit': { space: 'global', size: 256 * 1024, stride: 128, iterations: 1024, warmup: true },
  'global L1 hit': { space: 'global', size: 8192, stride: 128, iterations: 1024, warmup: true },
};
/** A warm chase that stays in one level shows one latency level: the level most accesses show. */
const t5 = (name: string, value: number, citation: string): Reference => beside(lat(name, value, citation), 'pchase-fine', 'trace.level1.latency', T5_CHASES[name]);

const T5: Record<string, Reference[]> = {
  Fermi: [
    t5('texture L1 hit', 240, 'MEI Table 5 (Fermi texture L1 hit)'),
    t5('texture L1 miss, L2 hit', 470, 'MEI Table 5 (Fermi texture L1 miss, L2 hit)'),
    t5('global L1 hit', 116, 'MEI Table 5 (Fermi global L1 hit)'),
    t5('global L1 miss, L2 hit', 404, 'MEI Table 5 (Fermi global L1 miss, L2 hit)'),
  ],
  Kepler: [
    t5('texture L1 hit', 110, 'MEI Table 5 (Kepler texture L1 hit)'),
    t5('texture L1 miss, L2 hit', 220, 'MEI Table 5 (Kepler texture L1 miss, L2 hit)'),
    t5('global L1 miss, L2 hit', 230, 'MEI Table 5 (Kepler global: L2 hit)'),
  ],
};

/** The latency most accesses of a warm fine-grained chase show. */
function dominantLatency(r: ExperimentResult): number {
  const trace = r.trace;
  if (!trace) return NaN;
  return dominantLevel(latencyLevels(trace.latency))?.latency ?? NaN;
}

const MEI_T5: ReproductionRow = {
  id: 'MEI-T5',
  paper: 'MEI',
  title: 'Texture vs global memory latency',
  presets: ['fermi', 'kepler'],
  kind: calibrated("the preset's texture and global latencies were set from Table 5"),
  references: (preset) => T5[preset.generation] ?? [],
  measure(preset, seed) {
    const runs: RowResult['runs'] = [];
    const chase = (name: string): number => dominantLatency(runFor(runs, 'pchase-fine', preset, T5_CHASES[name], seed));
    const measured: Record<string, number | string> = {
      'texture L1 hit': chase('texture L1 hit'),
      'texture L1 miss, L2 hit': chase('texture L1 miss, L2 hit'),
      'global L1 miss, L2 hit': chase('global L1 miss, L2 hit'),
    };
    if (preset.spaces.global.levels.some((l) => l.scope === 'sm')) measured['global L1 hit'] = chase('global L1 hit');
    return { measured, runs };
  },
};

export const ROWS: ReproductionRow[] = [MEI_T1, MEI_F5, MEI_F7, MEI_T3, MEI_T5];
