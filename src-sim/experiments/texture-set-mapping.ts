import { cannotTell } from '../analysis/cannot-tell';
import { analyseSetMapping, policyVerdict } from '../analysis/structure';
import type { SpaceId } from '../presets/types';
import { fourStepOptions, STRUCTURE_PARAMS, stepSeries, structureEstimate } from './cache-structure';
import { formatBytes, resolveParams, withoutImpossibleNext } from './params';
import { checkWork, CLOCK_PARAM, JITTER_PARAM } from './pchase';
import { DEFAULT_L1_CONFIG } from '../presets/l1-config';
import { presetTarget, walkFourSteps } from './structure-probes';
import type { Experiment, Finding, ParamSpec, Series, Table } from './types';
import { withFollowUps } from './refine';

const params: ParamSpec[] = [
  {
    name: 'space',
    label: 'Memory space',
    unit: '',
    kind: 'enum',
    default: 'texture',
    options: ['texture', 'constant', 'global', 'global-cg'],
    description: 'Whose first cache level to map: texture (tex1Dfetch on linear memory, MEI Fig 12) or another space for comparison.',
  },
  ...STRUCTURE_PARAMS,
  JITTER_PARAM,
  CLOCK_PARAM,
];

/** Address ranges of a set's lines, merged: "0-127, 512-639, ...". */
function ranges(lineSet: Int32Array, set: number, lineBytes: number, max: number): string {
  const out: string[] = [];
  let start = -1;
  let shown = 0;
  for (let l = 0; l <= lineSet.length; l++) {
    const inSet = l < lineSet.length && lineSet[l] === set;
    if (inSet && start < 0) start = l;
    if (!inSet && start >= 0) {
      if (shown++ < max) out.push(`${start * lineBytes}-${l * lineBytes - 1}`);
      start = -1;
    }
  }
  return out.join(', ') + (shown > max ? `, ... (${shown} ranges)` : '');
}

/**
 * MEI Fig 12: which set each line of the texture L1 goes to. The sets are read from the step-3
 * sweep (s = b, N from C by b): the lines that start missing together when a set first overflows
 * are that set's lines.
 */
export const textureSetMapping: Experiment = withFollowUps({
  id: 'texture-set-mapping',
  title: 'Texture L1 set mapping (MEI Fig 12)',
  description:
    'MEI Fig 12: walks the four-step method on the texture L1, then assigns every 32 B line of the cache-sized array to the set whose overflow first made it miss, and reads the set-index bits off the pattern (each 128 B to the next set: bits 7-8).',
  reproduces: ['MEI-F12', 'MEI-T4'],
  params,
  estimate(preset, raw) {
    const p = resolveParams(params, raw);
    return structureEstimate(preset, p, p.space as SpaceId, DEFAULT_L1_CONFIG, 4);
  },
  run(preset, raw, seed, progress) {
    const p = resolveParams(params, raw);
    const o = fourStepOptions(p, 4);
    const budget = this.estimate(preset, p);
    checkWork(budget);
    const target = presetTarget(preset, p.space as SpaceId, DEFAULT_L1_CONFIG, p, seed);
    const r = walkFourSteps(target, o, progress, budget);
    const prefix = p.space === 'texture' ? 'texture' : (p.space as string);
    const findings: Finding[] = [];
    const series: Series[] = [];
    const tables: Table[] = [];
    const notes = [...r.notes, `${r.accesses} simulated accesses (by step: ${r.stepAccesses.join(', ')}).`];
    const C = r.size.sizeBytes;
    const b = r.line?.lineBytes;
    if (C !== undefined && r.size.consistent) findings.push({ key: `${prefix}.sizeBytes`, label: 'Cache size', value: C, unit: 'B', evidence: 'step 1: largest N without a warm miss' });
    if (C !== undefined && b !== undefined) {
      findings.push({ key: `${prefix}.lineBytes`, label: 'Line size', value: b, unit: 'B', evidence: 'step 2: greatest common divisor of the missed addresses' });
      findings.push({ key: `${prefix}.lines`, label: 'Lines', value: C / b, unit: '', evidence: 'C / b' });
    }
    if (r.sets && b !== undefined) {
      const map = analyseSetMapping(r.sets, b);
      const lineAddr = Array.from(map.lineSet, (_, l) => l * b);
      series.push({
        name: 'MEI Fig 12: set of each line (sets named in the order they overflowed)',
        x: Float64Array.from(lineAddr),
        y: Float64Array.from(map.lineSet),
        xLabel: 'Line address',
        xUnit: 'B',
        yLabel: 'Set',
        yUnit: '',
        style: 'scatter',
      });
      series.push({
        name: 'Lines per set',
        x: Float64Array.from(map.linesPerSet, (_, i) => i),
        y: Float64Array.from(map.linesPerSet),
        xLabel: 'Set',
        xUnit: '',
        yLabel: 'Lines',
        yUnit: '',
        style: 'scatter',
      });
      tables.push({
        name: 'MEI Fig 12: lines of each set',
        columns: [
          { key: 'set', label: 'Set' },
          { key: 'lines', label: 'Lines' },
          { key: 'addresses', label: 'Addresses (B)' },
        ],
        rows: map.linesPerSet.map((n, s) => ({ set: s, lines: n, addresses: ranges(map.lineSet, s, b, 6) })),
      });
      const unassigned = map.lineSet.filter((s) => s < 0).length;
      if (unassigned) notes.push(`${unassigned} lines never started missing at a set's first overflow (a policy that does not miss every line): left unassigned.`);
      // The overflows of the sweep are sets only where the four-step analysis decided the sets (a bit-selection
      // mapping, or eviction sets under a periodic policy): under random or hot-way replacement a set's lines
      // start missing over several overflows, and the groups of first misses are not sets.
      const S = r.sets.sets;
      const decided = S !== undefined && map.sets === S && !r.sets.undecided;
      const why = r.sets.undecided?.reason ?? (S === undefined ? 'the step-3 sweep does not decide the sets' : `the first misses form ${map.sets} groups, but the four-step analysis finds ${S} sets`);
      const next = r.sets.undecided?.next ?? 'a longer step-3 sweep (raise "sweepBeyond")';
      if (decided)
        findings.push({
          key: `${prefix}.sets`,
          label: 'Sets',
          value: map.sets,
          unit: '',
          evidence: r.sets.mapping
            ? `step 3: set = (address / ${r.sets.mapping.granularityBytes}) mod ${r.sets.mapping.sets} explains every first miss of the sweep`
            : `step 3: ${S} sets (${r.sets.setsFrom ?? 'overflows'}); the first misses fall in as many groups`,
        });
      else findings.push(cannotTell(`${prefix}.sets`, 'Sets', why, next));
      // Lines per set: every line of [0, C) assigned, the groups summing to C / b and, where the ways are
      // known, each group of that many lines (the unequal sets' own sizes where they are unequal).
      const whole = unassigned === 0 && C !== undefined && map.linesPerSet.reduce((a, n) => a + n, 0) === C / b;
      const ways = r.sets.setWays ?? (typeof r.sets.ways === 'number' ? new Array<number>(map.sets).fill(r.sets.ways) : undefined);
      const fitsWays = ways !== undefined && [...ways].sort((x, y) => x - y).join(',') === [...map.linesPerSet].sort((x, y) => x - y).join(',');
      const equal = map.linesPerSet.every((n) => n === map.linesPerSet[0]);
      if (decided && whole && fitsWays)
        findings.push({
          key: `${prefix}.linesPerSet`,
          label: 'Lines per set',
          value: equal ? map.linesPerSet[0] : map.linesPerSet.join('/'),
          unit: '',
          evidence: 'lines of [0, C) that started missing when their set overflowed',
        });
      else
        findings.push(
          cannotTell(
            `${prefix}.linesPerSet`,
            'Lines per set',
            !decided ? why : !whole ? `${unassigned} of ${map.lineSet.length} lines never started missing at a set's first overflow, or the groups do not add up to C / b` : `the groups (${map.linesPerSet.join('/')}) are not the ways the sweep found`,
            next,
          ),
        );
      if (decided && map.bitSelected && map.granularityBytes !== undefined) {
        findings.push({ key: `${prefix}.granularityBytes`, label: 'Consecutive bytes per set', value: map.granularityBytes, unit: 'B', evidence: `runs of ${map.runLines} lines share a set; the pattern repeats every ${formatBytes((map.periodLines ?? 0) * b)}` });
        if (map.setIndexBits)
          findings.push({ key: `${prefix}.setIndexBits`, label: 'Set-index address bits', value: map.setIndexBits, unit: '', evidence: `set = (address / ${map.granularityBytes}) mod ${map.sets}` });
      } else if (decided) notes.push('The set of a line does not follow a bit-selection pattern of the address.');
    }
    if (r.policy) {
      findings.push({
        key: `${prefix}.policy`,
        label: 'Replacement policy',
        value: policyVerdict(r.policy, r.recency),
        unit: '',
        evidence: r.policy.periodic ? 'step 4: periodic miss pattern' : 'step 4: aperiodic miss pattern',
      });
    }
    const steps = stepSeries(r).filter((s) => s.name.startsWith('step 3'));
    return { series: [...series, ...steps], tables, findings: withoutImpossibleNext(findings, params, p), notes };
  },
});
