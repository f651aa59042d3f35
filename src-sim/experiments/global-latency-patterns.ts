import { latencyLevels } from '../analysis/levels';
import type { PathModel } from '../model/path';
import type { SpaceId } from '../presets/types';
import { formatBytes, resolveParams } from './params';
import { CLOCK_PARAM, fineChase, JITTER_PARAM, levelGap, Measurement, openSpace, TPC_PARAM } from './pchase';
import type { Experiment, Finding, ParamSpec, ParamValues, Table, Trace } from './types';
import { ExperimentError } from './types';

/**
 * MEI 3.2 / 4.2 (Table 3): a non-uniform-stride array initialisation that makes one P-chase walk
 * through every global access pattern: data cache hit or miss x L1 TLB x L2 TLB, and Kepler's
 * inactive page window. Each round visits a probe line, its page's neighbour line, then flushes the
 * L1 TLB with `l1Flush` pages and the L2 TLB with `l2Flush` pages (all at page offset 0, so they
 * share one data-cache set and never evict the probe line), revisiting the probe after each flush.
 */
export const PATTERN_PARAMS: ParamSpec[] = [
  {
    name: 'space',
    label: 'Memory space',
    unit: '',
    kind: 'enum',
    default: 'global',
    options: ['global', 'global-cg'],
    description: 'global (L1 as configured) or global-cg (L1 bypassed, -Xptxas -dlcm=cg).',
  },
  { name: 'page', label: 'Page stride', unit: 'B', kind: 'bytes', default: 2 * 1024 ** 2, min: 4096, max: 1024 ** 3, description: 'Distance between the pages the sequence visits (the page size: 2 MB on Fermi and Kepler).' },
  { name: 'l1Flush', label: 'L1 TLB flush pages', unit: 'pages', kind: 'integer', default: 20, min: 1, max: 4096, description: 'Pages touched to push the probe page out of the L1 TLB (more than its entries).' },
  { name: 'l2Flush', label: 'L2 TLB flush pages', unit: 'pages', kind: 'integer', default: 160, min: 1, max: 4096, description: 'Pages touched to push the probe page out of the L2 TLB (well over its entries).' },
  { name: 'farWindow', label: 'Far address', unit: 'B', kind: 'bytes', default: 1024 ** 3, min: 0, max: 2 ** 36, description: 'Offset of a probe far from the others (Kepler: beyond the 512 MB of active page entries, pattern 6); 0 skips it.' },
  { name: 'rounds', label: 'Rounds', unit: '', kind: 'integer', default: 4, min: 1, max: 1000, description: 'Repetitions of the sequence, each on fresh probe pages.' },
  TPC_PARAM,
  JITTER_PARAM,
  CLOCK_PARAM,
];

const LINE_OFFSET = 5 * 128; // probe line: not in the cache set the flush accesses (page offset 0) fall into

function roundLength(p: ParamValues): number {
  return 3 + (p.l1Flush as number) + 1 + 2 * (p.l2Flush as number) + 2 + ((p.farWindow as number) > 0 ? 1 : 0);
}

/**
 * Access i of the non-uniform sequence (computed, never stored as an array): its byte address and the
 * MEI Table 3 pattern the sequence means it to meet (0: a first touch or a flush access). The intent
 * holds where the flushes outnumber the TLBs' entries; a simulated run reads each access's outcome
 * from the model's counters instead (patternOf), a real GPU's run can only go by the intent.
 */
export function patternStep(p: ParamValues, i: number): { address: number; pattern: number } {
  const page = p.page as number;
  const rounds = p.rounds as number;
  const l1 = p.l1Flush as number;
  const l2 = p.l2Flush as number;
  const len = roundLength(p);
  const r = Math.floor(i / len);
  let k = i - r * len;
  const probe = r * page + LINE_OFFSET;
  const flushBase = rounds * page;
  const at = (address: number, pattern = 0): { address: number; pattern: number } => ({ address, pattern });
  if (k === 0) return at(probe); // first touch: cold line
  if (k === 1) return at(probe, 1); // pattern 1: data hit, L1 TLB hit
  if (k === 2) return at(probe + 128, 4); // pattern 4: new line, same page
  k -= 3;
  if (k < l1) return at(flushBase + k * page); // push the probe page out of the L1 TLB
  k -= l1;
  if (k === 0) return at(probe, 2); // pattern 2: data hit, L1 TLB miss, L2 TLB hit
  k -= 1;
  if (k < l2) return at(flushBase + k * page); // push it out of the L2 TLB too
  k -= l2;
  if (k === 0) return at(probe, 3); // pattern 3: data hit, both TLBs miss
  k -= 1;
  if (k < l2) return at(flushBase + k * page);
  k -= l2;
  if (k === 0) return at(probe + 256, 5); // pattern 5: new line, both TLBs miss
  return at((p.farWindow as number) + r * page + LINE_OFFSET, 6); // pattern 6 where a window exists
}

/** The byte address of access i of the non-uniform sequence. */
export function patternAddress(p: ParamValues, i: number): number {
  return patternStep(p, i).address;
}

export function patternSequenceLength(p: ParamValues): number {
  return roundLength(p) * (p.rounds as number);
}

/** MEI Table 3's patterns, by what the access found: data cache (first level), L1 TLB, L2 TLB. */
export const PATTERNS = [
  { id: 1, data: 'hit', l1Tlb: 'hit', l2Tlb: '-' },
  { id: 2, data: 'hit', l1Tlb: 'miss', l2Tlb: 'hit' },
  { id: 3, data: 'hit', l1Tlb: 'miss', l2Tlb: 'miss' },
  { id: 4, data: 'miss', l1Tlb: 'hit', l2Tlb: '-' },
  { id: 5, data: 'miss', l1Tlb: 'miss', l2Tlb: 'miss' },
  { id: 6, data: 'miss', l1Tlb: 'miss', l2Tlb: 'miss (page entry inactive)' },
] as const;

/** MEI Table 3 as a result table: a row per pattern met, its latency and how many accesses met it. */
export function patternTable(rows: Table['rows'], dataLabel: string): Table {
  return {
    name: 'Latency by access pattern (MEI Table 3)',
    columns: [
      { key: 'pattern', label: 'Pattern' },
      { key: 'data', label: dataLabel },
      { key: 'l1Tlb', label: 'L1 TLB' },
      { key: 'l2Tlb', label: 'L2 TLB' },
      { key: 'latency', label: 'Latency', unit: 'cycles' },
      { key: 'count', label: 'Accesses' },
    ],
    rows,
  };
}

/** Pattern of one traced access: the simulated GPU's counters say where it hit; 0 when it is none of Table 3's. */
export function patternOf(trace: Trace, i: number): number {
  const memory = trace.levelNames.length - 1;
  const level = trace.level[i];
  const tlb = trace.tlb[i];
  if (level === 0) return tlb === 1 ? 1 : tlb === 2 ? 2 : tlb === 3 || tlb === 4 ? 3 : 0;
  if (level === memory) return tlb === 1 ? 4 : tlb === 3 ? 5 : tlb === 4 ? 6 : 0;
  return 0;
}

function openGlobal(preset: Parameters<typeof openSpace>[0], p: ParamValues, seed: number): PathModel {
  const model = openSpace(preset, p.space as SpaceId, seed, p.tpc as number);
  if (!model.config.translation)
    throw new ExperimentError(`${preset.name}'s ${p.space as string} space has no TLBs; the patterns of MEI Table 3 need them`, 'space');
  return model;
}

export const globalLatencyPatterns: Experiment = {
  id: 'global-latency-patterns',
  title: 'Global memory latency by access pattern (MEI Table 3)',
  description: "MEI's non-uniform-stride P-chase: one run meets every combination of data-cache hit/miss, L1 TLB and L2 TLB outcome, and Kepler's inactive page window.",
  reproduces: ['MEI-T3'],
  params: PATTERN_PARAMS,
  estimate(_preset, raw) {
    return patternSequenceLength(resolveParams(PATTERN_PARAMS, raw));
  },
  run(preset, raw, seed, progress) {
    const p = resolveParams(PATTERN_PARAMS, raw);
    const model = openGlobal(preset, p, seed);
    const m = Measurement.from(preset, p, seed);
    const k = patternSequenceLength(p);
    const trace = fineChase(model, m, (i) => patternAddress(p, i), k, progress);
    const sums = new Float64Array(7);
    const counts = new Float64Array(7);
    for (let i = 0; i < k; i++) {
      const pat = patternOf(trace, i);
      sums[pat] += trace.latency[i];
      counts[pat]++;
    }
    const levels = latencyLevels(trace.latency, levelGap(p.jitter as number));
    const dataCache = trace.levelNames[0];
    const rows: Table['rows'] = [];
    const findings: Finding[] = [];
    for (const pat of PATTERNS) {
      if (!counts[pat.id]) continue;
      const latency = Math.round((sums[pat.id] / counts[pat.id]) * 10) / 10;
      rows.push({ pattern: pat.id, data: pat.data, l1Tlb: pat.l1Tlb, l2Tlb: pat.l2Tlb, latency, count: counts[pat.id] });
      findings.push({
        key: `pattern${pat.id}.latency`,
        label: `Pattern ${pat.id} (data ${pat.data}, L1 TLB ${pat.l1Tlb}, L2 TLB ${pat.l2Tlb})`,
        value: latency,
        unit: 'cycles',
        evidence: `mean of ${counts[pat.id]} accesses of the trace in this pattern`,
      });
    }
    findings.push({
      key: 'trace.levels',
      label: 'Distinct latency levels in the trace',
      value: levels.length,
      unit: '',
      evidence: `latencies cluster at ${levels.map((l) => Math.round(l.latency)).join(', ')} cycles`,
    });
    const x = new Float64Array(trace.latency.length);
    for (let i = 0; i < x.length; i++) x[i] = i;
    const notes = [
      `Data cache = ${dataCache} (the first level of the ${p.space as string} path); page stride ${formatBytes(p.page as number)}; ${k} accesses in ${p.rounds as number} rounds.`,
    ];
    if (counts[0]) notes.push(`${counts[0]} accesses (flush accesses hitting a middle level or L2 TLB combinations Table 3 does not list) are in no pattern.`);
    if (!counts[6] && (p.farWindow as number) > 0) notes.push('No pattern 6: this GPU has no window of active page entries (MEI observed it on Kepler only).');
    return {
      series: [{ name: 'latency', x, y: trace.latency, xLabel: 'Access', xUnit: '', yLabel: 'Latency', yUnit: 'cycles', style: 'scatter' }],
      tables: [patternTable(rows, `Data cache (${dataCache})`)],
      findings,
      notes,
      trace,
    };
  },
};
