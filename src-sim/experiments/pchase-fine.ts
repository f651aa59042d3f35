import { cannotTell, isCannotTell } from '../analysis/cannot-tell';
import { flagPeriod, latencyLevels, levelOf, type LatencyLevel } from '../analysis/levels';
import type { SpaceId } from '../presets/types';
import { formatBytes, resolveParams } from './params';
import { patternAddress, PATTERN_PARAMS, patternSequenceLength } from './global-latency-patterns';
import { checkSpace, checkStride, checkWork, CLOCK_PARAM, fineChase, genericNote, JITTER_PARAM, levelGap, Measurement, openSpace, SPACE_PARAM, TPC_PARAM, traversal, warmChase } from './pchase';
import type { Experiment, Finding, ParamSpec, ParamValues, Series } from './types';
import { ExperimentError, MAX_TRACE } from './types';

const params: ParamSpec[] = [
  SPACE_PARAM,
  {
    name: 'init',
    label: 'Array initialisation',
    unit: '',
    kind: 'enum',
    default: 'uniform',
    options: ['uniform', 'non-uniform'],
    description: "uniform: A[i] = (i + s) mod N (MEI Listing 3); non-uniform: MEI's sequence that meets every global latency pattern (global spaces).",
  },
  { name: 'size', label: 'Array size N', unit: 'B', kind: 'bytes', default: 16 * 1024 + 128, min: 4, max: 2 ** 36, description: 'Bytes the uniform chase cycles over (never allocated: indices are computed).' },
  { name: 'stride', label: 'Stride s', unit: 'B', kind: 'bytes', default: 128, min: 4, max: 2 ** 34, description: 'Bytes between consecutive accesses (multiple of 4).' },
  { name: 'iterations', label: 'Accesses k', unit: '', kind: 'integer', default: 2048, min: 1, max: 100_000_000, description: `Timed dependent loads; the trace keeps the first ${MAX_TRACE.toLocaleString('en')} of them.` },
  { name: 'warmup', label: 'Warm-up traversal', unit: '', kind: 'boolean', default: false, description: 'Run one untimed traversal first (false: the trace starts cold, as in MEI Listing 4).' },
  TPC_PARAM,
  JITTER_PARAM,
  CLOCK_PARAM,
];

function patternParams(p: ParamValues): ParamValues {
  return resolveParams(PATTERN_PARAMS, { space: p.space === 'global-cg' ? 'global-cg' : 'global', tpc: p.tpc, jitter: p.jitter, clockOverhead: p.clockOverhead });
}

/** Fine-grained P-chase (MEI Listing 4): every access's latency and index, bounded trace. */
export const pchaseFine: Experiment = {
  id: 'pchase-fine',
  title: 'Fine-grained P-chase: per-access latency and index',
  description: "MEI's fine-grained P-chase: k dependent loads over an array of N bytes with stride s, recording every access's latency and array index.",
  reproduces: ['MEI-T3', 'MEI-T4', 'MEI-F8', 'MEI-T5'],
  params,
  estimate(_preset, raw) {
    const p = resolveParams(params, raw);
    if (p.init === 'non-uniform') return patternSequenceLength(patternParams(p));
    return (p.iterations as number) + (p.warmup ? traversal(p.size as number, p.stride as number) : 0);
  },
  check(preset, p) {
    const nonUniform = p.init === 'non-uniform';
    if (nonUniform && p.space !== 'global' && p.space !== 'global-cg')
      throw new ExperimentError('the non-uniform initialisation walks global memory; choose space global or global-cg', 'init');
    if (!nonUniform) checkStride(p.size as number, p.stride as number, 'size', 'stride');
    checkSpace(preset, p.space as SpaceId, p.tpc as number);
  },
  run(preset, raw, seed, progress) {
    const p = resolveParams(params, raw);
    const N = p.size as number;
    const s = p.stride as number;
    const nonUniform = p.init === 'non-uniform';
    this.check!(preset, p);
    checkWork(this.estimate(preset, p));
    const model = openSpace(preset, p.space as SpaceId, seed, p.tpc as number);
    const m = Measurement.from(preset, p, seed);
    let k = p.iterations as number;
    let addressOf: (i: number) => number;
    let j0 = 0;
    let warmed = 0;
    if (nonUniform) {
      const pp = patternParams(p);
      k = patternSequenceLength(pp);
      addressOf = (i) => patternAddress(pp, i);
    } else {
      if (p.warmup) {
        warmed = traversal(N, s);
        j0 = warmChase(model, N, s, warmed);
      }
      // A[j] = (j + s) mod N (MEI Listing 3), followed from j0 as the kernel would, without storing A.
      let j = j0;
      addressOf = () => {
        const a = j;
        j += s;
        if (j >= N) j -= N;
        return a;
      };
    }
    // After a warm-up the trace keeps the state it left (trace.start), for the cache view's replay.
    const trace = fineChase(model, m, addressOf, k, progress, warmed);
    const n = trace.latency.length;
    const { findings, levels } = traceFindings(trace.latency, levelGap(p.jitter as number), `${n} recorded latencies, clustered`);
    if (!nonUniform && !p.warmup) {
      findings.push(...coldFillFindings(trace.latency, levels, s, traversal(N, s)));
      mergeDeviceMemory(findings, levels);
    }
    const x = new Float64Array(n);
    const index = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      x[i] = i;
      index[i] = Math.floor(trace.address[i] / 4);
    }
    const series: Series[] = [
      { name: 'latency', x, y: trace.latency, xLabel: 'Access', xUnit: '', yLabel: 'Latency', yUnit: 'cycles', style: 'scatter' },
      { name: 'index', x, y: index, xLabel: 'Access', xUnit: '', yLabel: 'Array index', yUnit: 'elements', style: 'scatter' },
    ];
    const notes = nonUniform
      ? ["Non-uniform initialisation: MEI's sequence over global memory (see global-latency-patterns for its pattern table)."]
      : [`N = ${formatBytes(N)}, s = ${formatBytes(s)}: ${traversal(N, s)} accesses per traversal; ${p.warmup ? 'after one untimed traversal' : 'from a cold start'}.`];
    const generic = genericNote(model);
    if (generic !== null) notes.push(generic);
    if (trace.dropped > 0)
      notes.push(`The trace keeps the first ${n.toLocaleString('en')} of ${k.toLocaleString('en')} accesses (${trace.dropped.toLocaleString('en')} run but not recorded), to bound a run's memory.`);
    return { series, tables: [], findings, notes, trace };
  },
};

/**
 * A fine-grained trace's findings: its latency levels (split where neighbours differ by more than
 * `gap` cycles), each level's latency, and the share of accesses slower than the fastest level. Also
 * what a real GPU's trace is read with (src-sim/cuda/import.ts).
 */
export function traceFindings(latency: ArrayLike<number>, gap: number, clustered: string): { findings: Finding[]; levels: LatencyLevel[] } {
  const n = latency.length;
  const levels = latencyLevels(latency, gap);
  const findings: Finding[] = [{ key: 'trace.levels', label: 'Distinct latency levels', value: levels.length, unit: '', evidence: clustered }];
  levels.forEach((l, i) =>
    findings.push({
      key: `trace.level${i + 1}.latency`,
      label: `Latency level ${i + 1}`,
      value: Math.round(l.latency * 10) / 10,
      unit: 'cycles',
      evidence: `${l.count} accesses between ${Math.round(l.min)} and ${Math.round(l.max)} cycles`,
    }),
  );
  if (levels.length > 1) {
    let slow = 0;
    for (let i = 0; i < n; i++) if (levelOf(levels, latency[i]) > 0) slow++;
    findings.push({
      key: 'trace.missRate',
      label: 'Accesses slower than the fastest level',
      value: Math.round((slow / n) * 1e4) / 1e4,
      unit: 'fraction',
      evidence: `${slow} of ${n} recorded accesses above level 1`,
    });
  }
  return { findings, levels };
}

/**
 * A cold first traversal's fill units: where the accesses at level b + 1 or slower come every q-th
 * access from the first, each such miss brought in q x stride bytes (a sector, a line, or a prefetched
 * pair of them). Findings `trace.level<b+1>.everyBytes`, one per level boundary; also what a real GPU's
 * cold trace is read with (src-sim/cuda/import.ts).
 */
export function coldFillFindings(latency: ArrayLike<number>, levels: readonly LatencyLevel[], stride: number, perTraversal: number): Finding[] {
  if (levels.length < 2) return [];
  const first = Array.from({ length: Math.min(latency.length, perTraversal) }, (_, i) => levelOf(levels, latency[i]));
  const out: Finding[] = [];
  for (let b = 1; b < levels.length; b++) {
    const q = flagPeriod(first.map((l) => l >= b));
    const key = `trace.level${b + 1}.everyBytes`;
    const label = `Cold traversal: one access at level ${b + 1} or slower every`;
    const what = `accesses at level ${b + 1} or slower (${Math.round(levels[b].min)} cycles and up) in the first, cold traversal (${first.length} accesses of ${formatBytes(stride)})`;
    out.push(
      q === null
        ? cannotTell(key, label, `the ${what} come at no single period from the first access`, 'a cold run at a smaller stride, or a longer first traversal')
        : { key, label, value: q * stride, unit: 'B', evidence: `${what}: every ${q}-th access from the first, so each such miss brought in ${formatBytes(q * stride)}` },
    );
  }
  return out;
}


/** Clusters that come at no period in a cold traversal and lie within this factor of each other are one device-memory level. */
export const DEVICE_MEMORY_SPREAD = 2.5;

/**
 * A cold trace's slow clusters read as one device-memory level: from the lowest level m above the
 * fastest such that every level past m comes at no single period in the cold traversal (its
 * everyBytes "cannot tell") and all of them, m's included, lie within DEVICE_MEMORY_SPREAD of each
 * other (slowest over fastest latency), levels m..last are variants of one access to device memory
 * (DRAM page hits and misses, a far L2 partition's path, a TLB walk) rather than cache levels. The
 * findings are rewritten in place: `trace.levels` counts them as one, `trace.level<m>.latency` is their
 * mean with their spread, and the later levels' findings go; `trace.deviceMemory` says what was merged.
 * Returns whether it merged. Cold traces whose levels each come at their own period are left as read,
 * and so are those whose aperiodic clusters spread wider than DEVICE_MEMORY_SPREAD from the lowest.
 */
export function mergeDeviceMemory(findings: Finding[], levels: readonly LatencyLevel[]): boolean {
  const periodic = (j: number): boolean => {
    const f = findings.find((x) => x.key === `trace.level${j + 1}.everyBytes`);
    return f !== undefined && !isCannotTell(f.value);
  };
  const K = levels.length;
  for (let m = 1; m + 1 < K; m++) {
    let aperiodic = true;
    for (let j = m + 1; j < K; j++) if (periodic(j)) aperiodic = false;
    if (!aperiodic) continue;
    const lo = levels[m].min;
    const hi = levels[K - 1].max;
    // Only the lowest such m: merging from a higher one would name a subset of the variants (a TLB
    // walk's few slow accesses) device memory and leave the device memory's own level beside it.
    if (!(lo > 0) || hi / lo > DEVICE_MEMORY_SPREAD) return false;
    // Exact (simulated) latencies: each cluster is one value the model gives for a reason of its own
    // (a TLB miss, a far partition), so they stay apart; measured variants spread.
    if (levels.slice(m).every((l) => l.max === l.min)) return false;
    const merged = levels.slice(m);
    const count = merged.reduce((a, l) => a + l.count, 0);
    const mean = merged.reduce((a, l) => a + l.latency * l.count, 0) / count;
    const parts = merged.map((l, i) => `level ${m + 1 + i}: ${l.count} accesses at ${Math.round(l.min)}..${Math.round(l.max)} cycles`).join('; ');
    const gone = new Set<string>();
    for (let j = m + 1; j < K; j++) gone.add(`trace.level${j + 1}.latency`).add(`trace.level${j + 1}.everyBytes`);
    const keep = findings.filter((f) => !gone.has(f.key));
    findings.length = 0;
    findings.push(...keep);
    const levelsF = findings.find((f) => f.key === 'trace.levels');
    if (levelsF) {
      levelsF.value = m + 1;
      levelsF.evidence += `; the ${K - m} slowest clusters read as one device-memory level (trace.deviceMemory)`;
    }
    const at = findings.findIndex((f) => f.key === `trace.level${m + 1}.latency`);
    const why = `the ${K - m} clusters from ${Math.round(lo)} to ${Math.round(hi)} cycles (${parts}) lie within ${(hi / lo).toFixed(2)} x of each other and the slower ones come at no single period in the cold traversal: variants of one access to device memory (DRAM page hits and misses, a far L2 partition, a translation), not cache levels`;
    const level: Finding = { key: `trace.level${m + 1}.latency`, label: `Latency level ${m + 1} (device memory)`, value: Math.round(mean * 10) / 10, unit: 'cycles', evidence: `mean of ${count} accesses between ${Math.round(lo)} and ${Math.round(hi)} cycles; ${why}` };
    if (at >= 0) findings[at] = level;
    findings.push({ key: 'trace.deviceMemory', label: 'Device memory: latency spread of its accesses', value: `${Math.round(lo)}..${Math.round(hi)} (mean ${mean.toFixed(1)})`, unit: 'cycles', evidence: why });
    return true;
  }
  return false;
}
