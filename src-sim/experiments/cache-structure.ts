import { cannotTell } from '../analysis/cannot-tell';
import { policyVerdict, xorLabel } from '../analysis/structure';
import type { Preset, SpaceId } from '../presets/types';
import { formatBytes, resolveParams, withoutImpossibleNext } from './params';
import { CLOCK_PARAM, JITTER_PARAM, SPACE_PARAM, WORD, checkWork } from './pchase';
import type { FourStepOptions, FourSteps } from './structure-probes';
import { fourStepEstimate, L1_CONFIG_PARAM, presetTarget, walkFourSteps } from './structure-probes';
import type { Experiment, Finding, ParamSpec, ParamValues, Series, Table } from './types';
import { ExperimentError, MAX_TRACE } from './types';
import { withFollowUps } from './refine';

/** Parameters shared with texture-set-mapping (which adds none of its own beyond the space). */
export const STRUCTURE_PARAMS: ParamSpec[] = [
  { name: 'element', label: 'Element size', unit: 'B', kind: 'bytes', default: WORD, min: WORD, max: 256, description: 'Bytes of one array element, the stride of steps 1 and 2 (MEI: one unsigned int); a multiple of 4, at most the line size.' },
  { name: 'maxSize', label: 'Largest size searched', unit: 'B', kind: 'bytes', default: 128 * 1024, min: 64, max: 2 * 1024 * 1024, description: 'Step 1 looks for the cache size C up to this array size.' },
  { name: 'maxLine', label: 'Largest line size', unit: 'B', kind: 'bytes', default: 256, min: WORD, max: 16 * 1024, description: 'Step 2 probes N = C + 1 element up to C + 4 x this, enough to resolve lines up to this size.' },
  { name: 'k', label: 'Step 4 accesses', unit: '', kind: 'integer', default: 16384, min: 256, max: MAX_TRACE, description: 'Timed accesses of the long step-4 trace at N = C + b, s = b (MEI: k >> N/s).' },
  { name: 'passes', label: 'Warm traversals', unit: '', kind: 'integer', default: 8, min: 3, max: 256, description: 'Warm traversals per step-3 probe when the miss pattern is not periodic (a periodic one needs 3).' },
  { name: 'sweepBeyond', label: 'Step 3 reach', unit: 'B', kind: 'bytes', default: 0, min: 0, max: 1024 * 1024, description: 'Step 3 runs to at least N = C + this (MEI Fig 9: 8 KB beyond 16 KB); 0: until every set overflows.' },
];

const STEPS_PARAM: ParamSpec = {
  name: 'steps',
  label: 'Steps to walk',
  unit: '',
  kind: 'integer',
  default: 4,
  min: 1,
  max: 4,
  description: 'Walk MEI steps 1 to this one (1: size; 2: + line; 3: + sets and ways; 4: + policy).',
};

const params: ParamSpec[] = [SPACE_PARAM, ...STRUCTURE_PARAMS, STEPS_PARAM, L1_CONFIG_PARAM, JITTER_PARAM, CLOCK_PARAM];

export function fourStepOptions(p: ParamValues, lastStep: number): FourStepOptions {
  const element = p.element as number;
  if (element % WORD !== 0) throw new ExperimentError(`parameter "element" must be a multiple of ${WORD} B; got ${element} B`, 'element');
  if ((p.maxSize as number) < 2 * element)
    throw new ExperimentError(`parameter "maxSize" (${formatBytes(p.maxSize as number)}) must hold at least two elements`, 'maxSize');
  return {
    element,
    maxSize: p.maxSize as number,
    maxLine: p.maxLine as number,
    k: p.k as number,
    passes: p.passes as number,
    sweepBeyond: p.sweepBeyond as number,
    lastStep,
  };
}

const series = (name: string, x: ArrayLike<number>, y: ArrayLike<number>, xl: string, xu: string, yl: string, yu: string, style: Series['style']): Series => ({
  name,
  x: Float64Array.from(x as ArrayLike<number>),
  y: Float64Array.from(y as ArrayLike<number>),
  xLabel: xl,
  xUnit: xu,
  yLabel: yl,
  yUnit: yu,
  style,
});

/**
 * Work estimate of a walk on `space`: for the limit and the progress bar only, so it may read the
 * preset's declared level (the findings never do); a level larger than maxSize stops at maxSize.
 */
export function structureEstimate(preset: Preset, p: ParamValues, space: SpaceId, l1Config: string, steps: number): number {
  const o = fourStepOptions(p, steps);
  const l1 = l1Config !== 'default' && space !== 'texture' ? preset.l1Configs?.find((c) => c.id === l1Config) : undefined;
  const level = preset.spaces[space]?.levels[0];
  const g = l1?.geometry ?? level?.geometry;
  const size = l1?.sizeBytes ?? level?.sizeBytes;
  if (!g || size === undefined) return fourStepEstimate(undefined, o);
  const shift = g.index.kind === 'bits' ? g.index.shiftBits : undefined;
  return fourStepEstimate(
    { sizeBytes: size, lineBytes: g.lineBytes, sets: g.sets, run: shift === undefined ? 1 : Math.max(1, 2 ** shift / g.lineBytes), periodic: g.policy.kind === 'lru' || g.policy.kind === 'fifo' },
    o,
  );
}

/** Evidence series of every step the walk reached. */
export function stepSeries(r: FourSteps): Series[] {
  const out: Series[] = [];
  out.push(series('step 1: misses per warm traversal vs N (s = 1 element)', r.size.n, r.size.missesPerTraversal, 'Array size N', 'B', 'Misses per traversal', '', 'scatter'));
  if (r.line) {
    out.push(series('step 2: missed lines vs N (s = 1 element)', r.line.n, r.line.missedLines, 'Array size N', 'B', 'Distinct lines missing', '', 'scatter'));
    out.push(series('step 2: missed index pattern', r.line.patternAddress, r.line.patternN, 'Missed address', 'B', 'Array size N', 'B', 'scatter'));
  }
  if (r.sets) {
    out.push(series('step 3: lines missing vs N (s = b, cumulative)', r.sets.n, r.sets.cumulativeMissedLines, 'Array size N', 'B', 'Lines that have missed', '', 'step'));
    out.push(series('step 3: lines starting to miss at each step', r.sets.n, r.sets.newMissedLines, 'Array size N', 'B', 'New missing lines', '', 'scatter'));
    out.push(series('step 3 / MEI Fig 9: miss rate vs N (s = b)', r.sets.n, r.sets.missRate, 'Array size N', 'B', 'Miss rate', '', 'line'));
  }
  if (r.policyRecord && r.policy) {
    const rec = r.policyRecord;
    const from = rec.perTraversal;
    const to = Math.min(rec.latency.length, from + 4 * rec.perTraversal);
    const idx = Array.from({ length: to - from }, (_, i) => from + i);
    out.push(series('step 4: trace (latency of each access, first warm traversals)', idx, rec.latency.subarray(from, to), 'Access', '', 'Latency', 'cycles', 'scatter'));
    const p = r.policy;
    out.push(series('step 4 / MEI Fig 8: way replaced by each miss', p.evictedWay.map((_, i) => i + 1), p.evictedWay.map((w) => w + 1), 'Miss', '', 'Way replaced', '', 'scatter'));
    out.push(series('step 4 / MEI Fig 8: replacement share per way', p.wayShare.map((_, i) => i + 1), p.wayShare, 'Way', '', 'Share of replacements', '', 'scatter'));
  }
  return out;
}

/** Per-way findings are listed up to this many ways (the table has them all). */
const MAX_WAY_FINDINGS = 16;

const f = (key: string, label: string, value: number | string, unit: string, evidence: string): Finding => ({ key, label, value, unit, evidence });

/** Findings of the walk, under `prefix` ("cache"). Every value is an analyser's output. */
export function stepFindings(r: FourSteps, prefix: string): Finding[] {
  const out: Finding[] = [];
  const s = r.split;
  const h = r.hidden;
  if (h) {
    if (r.smallestMean !== undefined)
      out.push(f(`${prefix}.hitLatency`, 'Hit latency (lowest latency cluster)', Math.round(r.smallestMean * 10) / 10, 'cycles', 'mean of the warm accesses of the one-element probe, which all hit'));
    const why = `a slower level hides inside the hit cluster (${h.evidence}); the first level is smaller than ${formatBytes(h.slowN)}`;
    const next = 'a measurement with less jitter, or pchase-average, whose averages separate levels a few cycles apart';
    out.push(cannotTell(`${prefix}.missLatency`, 'Miss latency (next cluster)', why, next));
    out.push(cannotTell(`${prefix}.sizeBytes`, 'Cache size C', why, next));
    return out;
  }
  if (r.pages) {
    if (s.separated) {
      out.push(f(`${prefix}.hitLatency`, 'Hit latency (lowest latency cluster)', Math.round(s.hitLatency * 10) / 10, 'cycles', 'all recorded latencies, lowest cluster'));
    }
    // No run of the four steps gets past a TLB that overflows first; tlb-probes names its reach.
    const why = `${r.pages.evidence} (tlb-probes measures that reach)`;
    out.push(cannotTell(`${prefix}.sizeBytes`, 'Cache size C', why, ''));
    out.push(cannotTell(`${prefix}.lineBytes`, 'Line size b', why, ''));
    return out;
  }
  if (s.separated) {
    const sure = s.confidence >= 1 - 1e-12 ? 'chance of one level under 1e-12' : `chance of one level ${(1 - s.confidence).toExponential(1)}`;
    out.push(f(`${prefix}.hitLatency`, 'Hit latency (lowest latency cluster)', Math.round(s.hitLatency * 10) / 10, 'cycles', `all recorded latencies, lowest cluster (${sure})`));
    out.push(f(`${prefix}.missLatency`, 'Miss latency (next cluster)', Math.round(s.missLatency * 10) / 10, 'cycles', `all recorded latencies; hit/miss threshold ${s.threshold.toFixed(1)} cycles`));
  }
  const capacity = r.sets?.capacityBytes;
  if (r.size.sizeBytes !== undefined && r.size.firstMissBytes !== undefined && r.size.consistent) {
    if (capacity !== undefined && r.sets?.sets !== undefined)
      out.push(
        f(
          `${prefix}.sizeBytes`,
          'Cache size C',
          capacity,
          'B',
          `step 3: ${r.sets.sets} sets x ${r.sets.ways ?? 'their'} ways x ${r.line?.lineBytes} B; the largest contiguous array without a warm miss is only ${formatBytes(r.size.sizeBytes)} (step 1): the index spreads consecutive lines unevenly`,
        ),
      );
    else if (r.sets?.undecided)
      out.push(
        cannotTell(
          `${prefix}.sizeBytes`,
          'Cache size C',
          `the largest contiguous array without a warm miss is ${formatBytes(r.size.sizeBytes)} (step 1), but no bit-selection mapping explains the sweep, and a hashed index may spread consecutive lines unevenly, so the cache may hold more`,
          r.sets.undecided.next,
        ),
      );
    else out.push(f(`${prefix}.sizeBytes`, 'Cache size C', r.size.sizeBytes, 'B', `step 1: largest N without a warm miss; N = ${formatBytes(r.size.firstMissBytes)} misses`));
  }
  if (r.line?.lineBytes !== undefined) {
    const C = r.size.sizeBytes;
    const jump =
      r.line.jumpBytes !== undefined && C !== undefined && r.line.jumpBytes - C === r.line.lineBytes + (r.line.n[0] - C)
        ? `; as MEI reads it, the missed lines jump at N = C + b + 1 element = C + ${r.line.jumpBytes - C} B`
        : '';
    out.push(f(`${prefix}.lineBytes`, 'Line size b', r.line.lineBytes, 'B', `step 2: every missed address is a multiple of it (greatest common divisor)${jump}`));
  }
  const sets = r.sets;
  if (sets) {
    const c = sets.conflict;
    const conflictWords = c ? `${c.lines.length} lines evict each other at N = C + b${c.periodic ? ' every traversal' : ` (${c.misses} misses seen)`}` : '';
    const undecided = sets.undecided;
    const undecidedTell = (key: string, label: string): Finding =>
      cannotTell(`${prefix}.${key}`, label, undecided?.reason ?? 'the step-3 sweep does not decide it', undecided?.next ?? 'a longer step-3 sweep (raise "sweepBeyond")');
    if (sets.sets !== undefined) {
      const how =
        sets.indexKind === 'bits' && sets.mapping
          ? `step 3: set = (address / ${sets.mapping.granularityBytes}) mod ${sets.sets} explains every first miss of the sweep${c ? ` and the conflict set (${conflictWords})` : ''}; MEI's count: ${sets.countSets} steps where many lines started missing`
          : sets.indexKind === 'hashed' || sets.indexKind === 'unequal'
            ? sets.setsFrom === 'eviction sets'
              ? `step 3: ${sets.sets} minimal eviction sets (lines that miss when chased alone, and stop missing without any one of them) among the lines each overflow made start missing; no bit selection explains the conflict set (${conflictWords})`
              : `step 3: ${sets.sets} overflows of the periodic sweep, each making one set's lines start missing (MEI's count); no bit selection explains the conflict set (${conflictWords})`
            : `step 3: ${sets.countSets} steps of N at which many lines started missing at once (no bit-selection mapping fits)`;
      out.push(f(`${prefix}.sets`, 'Sets', sets.sets, '', how));
    } else if (c) out.push(undecidedTell('sets', 'Sets'));
    if (sets.indexKind === 'unequal' && sets.setWays)
      out.push(f(`${prefix}.ways`, 'Ways', 'unequal', '', `step 3: the overflows made ${sets.setWays.map((w) => w + 1).join(', ')} lines start missing: sets of ${sets.setWays.join(', ')} ways`));
    else if (sets.ways !== undefined)
      out.push(
        f(
          `${prefix}.ways`,
          'Ways',
          sets.ways,
          '',
          sets.indexKind === 'bits' || !c
            ? `C / (sets x b); each overflow made ${sets.meanOverflowLines.toFixed(1)} lines start missing (ways + 1 when every line of the set misses)`
            : `each set found holds ways + 1 lines that evict each other; at N = C + b ${conflictWords}`,
        ),
      );
    else if (c)
      out.push(
        cannotTell(
          `${prefix}.ways`,
          'Ways',
          `the conflict set at N = C + b is not complete (${conflictWords}; a policy that is not periodic shows a member only once it is evicted)`,
          'a longer step-4 trace (raise "k")',
        ),
      );
    if (sets.indexKind === 'bits' && sets.granularityBytes !== undefined && sets.sets !== undefined) {
      const label =
        sets.sets === 1
          ? 'one set (fully associative)'
          : sets.lineNumberBits
            ? `line-number bits${sets.setIndexBits ? ` (address bits ${sets.setIndexBits})` : ''}`
            : `address bits ${sets.setIndexBits ?? '?'} (each ${sets.granularityBytes} B goes to the next set)`;
      out.push(f(`${prefix}.setMapping`, 'Set index', label, '', `step 3: a new set overflows every ${sets.granularityBytes} B of N`));
      out.push(
        f(
          `${prefix}.setIndexKind`,
          'Set-index function',
          sets.sets === 1 ? 'one set' : `bit selection, ${sets.granularityBytes} B granularity`,
          '',
          `step 3: the bit-selection mapping explains every first miss${c ? ' and the conflict set' : ''}`,
        ),
      );
      if (sets.setIndexBits) out.push(f(`${prefix}.setIndexBits`, 'Set-index address bits', sets.setIndexBits, '', `step 3: mapping granularity ${sets.granularityBytes} B, ${sets.sets} sets`));
    } else if (sets.indexKind === 'hashed')
      out.push(f(`${prefix}.setIndexKind`, 'Set-index function', 'hashed', '', `step 3: no bit selection of the address explains the conflict set (${conflictWords}); the ${sets.sets} sets were found from their lines (${sets.setsFrom ?? 'overflows'}), all of ${sets.ways} ways`));
    if (sets.indexKind === 'hashed')
      out.push(
        sets.xor
          ? f(`${prefix}.setIndexXor`, 'Set-index XOR function', xorLabel(sets.xor), '', `step 3: the only ${sets.xor.rows.length} XORs of address bits (up to a${sets.xor.topBit}) on which the lines of every eviction set agree and the ${sets.sets} sets differ`)
          : cannotTell(
              `${prefix}.setIndexXor`,
              'Set-index XOR function',
              'the eviction sets are not told apart by any XOR of address bits (a set count that is no power of two, a hash that is not linear, or too few lines seen)',
              'a longer step-3 sweep (raise "sweepBeyond") to see more lines of every set',
            ),
      );
    else if (sets.indexKind === 'unequal')
      out.push(f(`${prefix}.setIndexKind`, 'Set-index function', 'unequal sets', '', `step 3: the overflows made different numbers of lines start missing (${(sets.setWays ?? []).map((w) => w + 1).join(', ')})`));
    else if (c && !out.some((x) => x.key === `${prefix}.setIndexKind`)) out.push(undecidedTell('setIndexKind', 'Set-index function'));
    if (sets.missRate.length) {
      const maxRate = Math.max(...sets.missRate);
      out.push(f(`${prefix}.maxMissRate`, 'Largest miss rate of the step-3 sweep', Math.round(maxRate * 1000) / 1000, '', `MEI Fig 9: misses / accesses after warm-up, N up to ${formatBytes(sets.n[sets.n.length - 1])}`));
    }
  }
  const p = r.policy;
  if (p) {
    const verdict = policyVerdict(p, r.recency);
    const why = !p.periodic
      ? `step 4: the miss pattern is aperiodic over ${p.traversals} traversals`
      : r.recency && r.recency.survived < r.recency.rounds
        ? `step 4: periodic, but a re-used line was evicted in ${r.recency.rounds - r.recency.survived} of ${r.recency.rounds} rounds (FIFO-like)`
        : `step 4: the miss pattern repeats every traversal${r.recency ? '; a re-used line is kept' : ''}`;
    out.push(f(`${prefix}.policy`, 'Replacement policy', verdict, '', why));
    if (p.ways <= MAX_WAY_FINDINGS)
      p.wayShare.forEach((share, w) =>
        out.push(f(`${prefix}.way${w + 1}.evictionShare`, `Way ${w + 1} replacement share`, Math.round(share * 1000) / 1000, '', `step 4: ${p.evictedWay.length} replacements, victim = the line that misses next`)),
      );
    if (p.evictedWay.length && verdict === 'not LRU') {
      out.push(f(`${prefix}.hotWay`, 'Most replaced way', p.hotWay + 1, '', 'step 4: ways named by first-load order (MEI Fig 8)'));
      if (Number.isFinite(p.hotInterval))
        out.push(f(`${prefix}.hotWayInterval`, 'Misses between replacements of the most replaced way', Math.round(p.hotInterval * 100) / 100, 'misses', 'step 4: MEI "updated every two cache misses"'));
    }
  }
  return out;
}

/** The structure table: one row per parameter the walk found. */
export function structureTable(findings: Finding[], title: string): Table {
  return {
    name: title,
    columns: [
      { key: 'parameter', label: 'Parameter' },
      { key: 'value', label: 'Value' },
      { key: 'unit', label: 'Unit' },
      { key: 'evidence', label: 'Evidence' },
    ],
    rows: findings.filter((x) => !/\.way\d+\./.test(x.key)).map((x) => ({ parameter: x.label, value: x.value, unit: x.unit, evidence: x.evidence })),
  };
}

function policyTable(r: FourSteps): Table[] {
  const p = r.policy;
  if (!p || !p.evictedWay.length) return [];
  const counts = p.wayShare.map((s) => Math.round(s * p.evictedWay.length));
  return [
    {
      name: 'Step 4 / MEI Fig 8: replacements per way',
      columns: [
        { key: 'way', label: 'Way (first-load order)' },
        { key: 'count', label: 'Replacements' },
        { key: 'share', label: 'Share' },
      ],
      rows: p.wayShare.map((s, w) => ({ way: w + 1, count: counts[w], share: Math.round(s * 1000) / 1000 })),
    },
  ];
}

/** MEI 3.2: the four-step fine-grained P-chase method, run automatically on the first cache level of a space. */
export const cacheStructure: Experiment = withFollowUps({
  id: 'cache-structure',
  title: 'Cache structure: MEI four-step fine-grained P-chase',
  description:
    "MEI 3.2: (1) the cache size C from the largest array that never misses after warm-up (s = 1 element); (2) the line size b from where the misses fall just above C; (3) sets and ways from how N = C + b, C + 2b, ... overflows one set after another (s = b); (4) LRU or not from the periodicity of a long trace, then which way each miss replaces (MEI Fig 8). Probes the first cache level of the chosen space.",
  reproduces: ['MEI-METHOD', 'MEI-T4', 'MEI-F8', 'MEI-F9', 'MEI-L1-48'],
  params,
  estimate(preset, raw) {
    const p = resolveParams(params, raw);
    return structureEstimate(preset, p, p.space as SpaceId, p.l1Config as string, p.steps as number);
  },
  run(preset, raw, seed, progress) {
    const p = resolveParams(params, raw);
    // The step-4 trace is kept for the cache view (MEI Fig 8's replacements, access by access).
    const o = { ...fourStepOptions(p, p.steps as number), keepTrace: true };
    const budget = this.estimate(preset, p);
    checkWork(budget);
    const target = presetTarget(preset, p.space as SpaceId, p.l1Config as string, p, seed);
    const r = walkFourSteps(target, o, progress, budget);
    const findings = withoutImpossibleNext(stepFindings(r, 'cache'), params, p);
    return {
      series: stepSeries(r),
      tables: [structureTable(findings, `Structure of the first ${p.space} cache level`), ...policyTable(r)],
      findings,
      notes: [
        ...r.notes,
        `${r.accesses} simulated accesses (by step: ${r.stepAccesses.join(', ')}).`,
        ...(r.policyTrace ? [`The trace is step 4's long chase (N = C + b, s = b, ${r.policyTrace.address.length} accesses from a cold start): the cache view replays it.`] : []),
      ],
      ...(r.policyTrace ? { trace: r.policyTrace } : {}),
    };
  },
});
