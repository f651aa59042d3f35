import { analyseBanks, bankFindings } from '../analysis/banks';
import { conflictDegree, sharedLatency } from '../model/shared';
import type { Preset } from '../presets/types';
import { resolveParams } from './params';
import { CLOCK_PARAM, JITTER_PARAM, Measurement } from './pchase';
import type { Experiment, Finding, ParamSpec, ParamValues, Series, Table } from './types';
import { ExperimentError } from './types';
import { Rng } from '../rng';

const params: ParamSpec[] = [
  { name: 'strideFrom', label: 'First stride', unit: 'words', kind: 'integer', default: 0, min: 0, max: 1024, description: 'Smallest stride between threads, in 4-byte words (0: every thread reads word 0, a broadcast).' },
  { name: 'strideTo', label: 'Last stride', unit: 'words', kind: 'integer', default: 64, min: 0, max: 1024, description: 'Largest stride (inclusive), in 4-byte words.' },
  { name: 'strideStep', label: 'Stride step', unit: 'words', kind: 'integer', default: 1, min: 1, max: 1024, description: 'Increment between strides (2 for MEI Fig 7, even strides).' },
  {
    name: 'mode',
    label: 'Bank-width mode',
    unit: '',
    kind: 'enum',
    default: 'all',
    options: ['all', 'default', '4-byte', '8-byte'],
    description: "Which bank-width mode to measure: all the preset's modes, its default, or one by name (8-byte exists on Kepler only).",
  },
  { name: 'accesses', label: 'Dependent accesses', unit: '', kind: 'integer', default: 64, min: 1, max: 100_000, description: 'Timed dependent loads per thread at each stride (MEI: 64); their latencies are averaged.' },
  JITTER_PARAM,
  CLOCK_PARAM,
];

function strides(p: ParamValues): number[] {
  const from = p.strideFrom as number;
  const to = p.strideTo as number;
  if (to < from) throw new ExperimentError('parameter "strideTo" must not be smaller than "strideFrom"', 'strideTo');
  const out: number[] = [];
  for (let s = from; s <= to; s += p.strideStep as number) out.push(s);
  return out;
}

function modesOf(preset: Preset, mode: string): string[] {
  const names = Object.keys(preset.shared.modes);
  if (mode === 'all') return names;
  if (mode === 'default') return [preset.shared.defaultMode];
  if (!names.includes(mode))
    throw new ExperimentError(`parameter "mode" is ${mode}; ${preset.name} has ${names.join(', ')} (or all, default)`, 'mode');
  return [mode];
}

/** One warp, thread t reads word t x stride; the latency of that access, averaged over dependent repetitions. */
export const sharedBankStride: Experiment = {
  id: 'shared-bank-stride',
  title: 'Shared memory: latency vs stride (bank conflicts)',
  description: 'One warp reads shared memory at address = thread id x stride; the latency reveals the bank-conflict degree of every stride, per bank-width mode.',
  reproduces: ['MEI-T1', 'MEI-F5', 'MEI-F7', 'WONG-SHM'],
  params,
  estimate(preset, raw) {
    const p = resolveParams(params, raw);
    return strides(p).length * modesOf(preset, p.mode as string).length * (p.accesses as number) * 32;
  },
  run(preset, raw, seed, progress) {
    const p = resolveParams(params, raw);
    const ss = strides(p);
    const modes = modesOf(preset, p.mode as string);
    const cfg = preset.shared;
    const accesses = p.accesses as number;
    const words = new Float64Array(32);
    const series: Series[] = [];
    const findings: Finding[] = [];
    const degreesByMode: number[][] = [];
    const total = modes.length * ss.length;
    let done = 0;
    modes.forEach((name, mi) => {
      const mode = cfg.modes[name];
      const m = Measurement.from(preset, p, Rng.derive(seed, mi));
      const y = new Float64Array(ss.length);
      ss.forEach((s, i) => {
        for (let t = 0; t < 32; t++) words[t] = t * s;
        // The simulated hardware serves the warp; the benchmark only sees the time it took.
        const latency = sharedLatency(cfg, conflictDegree(words, cfg.banks, mode, cfg.issueGroup));
        let sum = 0;
        for (let k = 0; k < accesses; k++) sum += m.read(latency);
        y[i] = sum / accesses;
        progress(++done, total, `${name} mode`);
      });
      series.push({
        name: modes.length > 1 ? `${name} mode` : 'latency',
        x: Float64Array.from(ss),
        y,
        xLabel: 'Stride',
        xUnit: 'words',
        yLabel: 'Average latency',
        yUnit: 'cycles',
        style: 'line',
      });
      // Removing the clock overhead (if included) is the analyser's user's business: the base absorbs it.
      const jitter = p.jitter as number;
      const a = analyseBanks(y, Math.max(3, 2 * jitter / Math.sqrt(accesses) + 1));
      degreesByMode.push(a.degrees);
      findings.push(...bankFindings(modes.length > 1 ? `shared.${name}` : 'shared', ss, a, `series "${series[series.length - 1].name}"`));
    });
    const table: Table = {
      name: 'Conflict degree per stride (inferred from latency)',
      columns: [{ key: 'stride', label: 'Stride', unit: 'words' }, ...modes.map((m) => ({ key: m, label: `${m} mode`, unit: 'way' }))],
      rows: ss.map((s, i) => Object.fromEntries([['stride', s], ...modes.map((m, mi) => [m, degreesByMode[mi][i]])])),
    };
    if (modes.length === 2) {
      const [a, b] = degreesByMode;
      const never = a.every((d, i) => b[i] <= d);
      findings.push({
        key: `shared.${modes[1]}.neverWorse`,
        label: `${modes[1]} mode never worse than ${modes[0]}`,
        value: never ? 'yes' : 'no',
        unit: '',
        evidence: `conflict degrees of the two modes at ${ss.length} strides`,
      });
      const better = ss.filter((s, i) => b[i] < a[i]);
      findings.push({
        key: `shared.${modes[1]}.betterAt`,
        label: `strides where ${modes[1]} mode has fewer conflicts`,
        value: better.join(',') || 'none',
        unit: 'words',
        evidence: 'conflict-degree table',
      });
    }
    const notes = [`Latencies are the average of ${accesses} dependent accesses per stride; degrees are inferred from the latency levels, not read from the preset.`];
    return { series, tables: [table], findings, notes };
  },
};
