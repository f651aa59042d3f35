import { LINEAR_FALLBACK, withL1Sets } from '../timing/tcache';
import { stencilKernels } from '../timing/workloads/lash';
import type { SchedulerChoice, TimingCacheConfig, TimingConfig, TimingStats } from '../timing/types';
import { resolveParams } from './params';
import { checkTimingWork, pctOver, pctUnder, runStep, SCHEDULER_PARAM, statsTable, timingOf, typeName, TYPES_PARAM, warpAccesses } from './lash-common';
import type { Experiment, Finding, ParamSpec, ParamValues, Series } from './types';
import { ExperimentError } from './types';

/**
 * LASH VII-C, Fig 7: the stencil on machines with twice (+) or half (-) the L1's MSHR entries, merger
 * fields per entry, sets and ways, for each element type.
 */

export const VARIANTS: { name: string; change: (l1: TimingCacheConfig) => Partial<TimingCacheConfig> }[] = [
  { name: 'Baseline', change: () => ({}) },
  { name: 'MSHR+', change: (l) => ({ mshrEntries: l.mshrEntries * 2 }) },
  { name: 'MSHR-', change: (l) => ({ mshrEntries: Math.max(1, Math.floor(l.mshrEntries / 2)) }) },
  { name: 'MSHRMergers+', change: (l) => ({ mshrMergers: l.mshrMergers * 2 }) },
  { name: 'MSHRMergers-', change: (l) => ({ mshrMergers: Math.max(1, Math.floor(l.mshrMergers / 2)) }) },
  // (a Fermi-hash L1 indexes a count the hash cannot take linearly: fermi480's Sets-, 16 sets)
  { name: 'Sets+', change: (l) => withL1Sets(l, l.sets * 2) },
  { name: 'Sets-', change: (l) => withL1Sets(l, Math.max(1, Math.floor(l.sets / 2))) },
  { name: 'Ways+', change: (l) => ({ ways: l.ways * 2 }) },
  { name: 'Ways-', change: (l) => ({ ways: Math.max(1, Math.floor(l.ways / 2)) }) },
];

const params: ParamSpec[] = [
  TYPES_PARAM,
  { name: 'n', label: 'Elements', unit: 'elements', kind: 'integer', default: 512 * 1024, min: 1024, max: 16 * 1024 * 1024, description: 'Stencil array length (LASH VI: 512K).' },
  { name: 'iterations', label: 'Iterations', unit: 'launches', kind: 'integer', default: 4, min: 1, max: 16, description: 'LASH VI: 4.' },
  SCHEDULER_PARAM,
];

function kernelsFor(p: ParamValues, bytes: number) {
  return stencilKernels({ n: p.n as number, iterations: p.iterations as number, block: 256, type: 'int', elemBytes: bytes });
}

export const lashSensitivity: Experiment = {
  id: 'lash-sensitivity',
  title: 'LASH: sensitivity to MSHRs, mergers, sets and ways',
  description: "The stencil under each element type on machines with 2x or 1/2 the L1's MSHR entries, merger fields, sets or ways (LASH Fig 7).",
  reproduces: ['LASH-F7'],
  params,
  estimate(_preset, raw) {
    const p = resolveParams(params, raw);
    return VARIANTS.length * (p.types as number[]).reduce((s, b) => s + warpAccesses(kernelsFor(p, b)), 0) * 32;
  },
  run(preset, raw, seed, progress) {
    const p = resolveParams(params, raw);
    const base = timingOf(preset);
    if (!base.l1) throw new ExperimentError(`${preset.name} has no L1 data cache: there are no MSHRs, sets or ways to vary`);
    const l1 = base.l1;
    const types = p.types as number[];
    checkTimingWork(VARIANTS.length * types.reduce((s, b) => s + warpAccesses(kernelsFor(p, b)), 0));
    const names = types.map(typeName);
    const steps = VARIANTS.length * types.length;
    let step = 0;
    // each machine's L1, and stats[v][t]
    const machines = VARIANTS.map((v) => ({ name: v.name, l1: { ...l1, ...v.change(l1) } }));
    const stats: TimingStats[][] = machines.map((m) => {
      const cfg: TimingConfig = { ...base, l1: m.l1 };
      return types.map((b, ti) =>
        runStep(cfg, kernelsFor(p, b), { l1: 'hw', scheduler: p.scheduler as SchedulerChoice, seed }, progress, step++, steps, `${m.name} ${names[ti]}`),
      );
    });
    progress(1, 1, 'done');
    const cats = VARIANTS.map((v) => v.name);
    const series: Series[] = names.map((name, ti) => ({
      name,
      x: Float64Array.from(cats.map((_, i) => i)),
      y: Float64Array.from(stats.map((row) => row[ti].cycles / stats[0][ti].cycles)),
      xLabel: 'Machine',
      xUnit: '',
      yLabel: 'Time relative to the baseline',
      yUnit: '',
      style: 'bar',
      xCategories: cats,
      group: 'relative',
    }));
    series.push(
      ...names.map((name, ti) => ({
        name: `${name} vs baseline ${names[0]}`,
        x: Float64Array.from(cats.map((_, i) => i)),
        y: Float64Array.from(stats.map((row) => row[ti].cycles / stats[0][0].cycles)),
        xLabel: 'Machine',
        xUnit: '',
        yLabel: `Time relative to baseline ${names[0]}`,
        yUnit: '',
        style: 'bar' as const,
        xCategories: cats,
        group: 'absolute',
      })),
    );
    const findings: Finding[] = [];
    const vi = (n: string) => cats.indexOf(n);
    const ti = (n: string) => names.indexOf(n);
    names.forEach((n, t) => {
      const rel = stats.map((row) => Math.abs(row[t].cycles / stats[0][t].cycles - 1));
      findings.push({
        key: `sens.${n}.maxChange`,
        label: `${n}: largest change of time over the machines`,
        value: +(100 * Math.max(...rel)).toFixed(1),
        unit: '%',
        evidence: `max |time / baseline - 1| over ${cats.slice(1).join(', ')}`,
      });
    });
    const [i4, i2, i1] = [ti('int'), ti('short'), ti('char')];
    const cyc = (v: string, t: number) => stats[vi(v)][t].cycles;
    if (i4 >= 0 && i1 >= 0) {
      const gap = (v: string) => cyc(v, i4) / cyc(v, i1);
      findings.push({
        key: 'sens.mergersPlus.gapWidening',
        label: 'MSHRMergers+: the int / char time gap widens by',
        value: pctOver(gap('MSHRMergers+'), gap('Baseline')),
        unit: '%',
        evidence: `int/char time ${gap('Baseline').toFixed(3)} at baseline, ${gap('MSHRMergers+').toFixed(3)} with 2x mergers`,
      });
    }
    for (const [t, n] of [[i2, 'short'], [i1, 'char']] as const) {
      if (t < 0) continue;
      // LASH Fig 7 plots performance: "degrades performance by 52 %" reads as speed (1 / time) falling
      // by that fraction, 1 - t(baseline) / t(Mergers-); the time increase is shown too.
      findings.push({
        key: `sens.mergersMinus.${n}SpeedDrop`,
        label: `MSHRMergers-: ${n}'s performance (1 / time) lower by`,
        value: pctUnder(cyc('Baseline', t), cyc('MSHRMergers-', t)),
        unit: '%',
        evidence: `${n}: 1 - ${cyc('Baseline', t)} / ${cyc('MSHRMergers-', t)} cycles`,
      });
      findings.push({
        key: `sens.mergersMinus.${n}Slowdown`,
        label: `MSHRMergers-: ${n}'s time longer by`,
        value: pctOver(cyc('MSHRMergers-', t), cyc('Baseline', t)),
        unit: '%',
        evidence: `${n}: ${cyc('MSHRMergers-', t)} vs ${cyc('Baseline', t)} cycles`,
      });
    }
    if (i2 >= 0 && i1 >= 0)
      findings.push({
        key: 'sens.mergersMinus.charBeatsShort',
        label: 'MSHRMergers-: char faster than short',
        value: cyc('MSHRMergers-', i1) < cyc('MSHRMergers-', i2) ? 'yes' : 'no',
        unit: '',
        evidence: `char ${cyc('MSHRMergers-', i1)}, short ${cyc('MSHRMergers-', i2)} cycles`,
      });
    const tables = [statsTable('Per machine and type', VARIANTS.flatMap((v) => names.map((n) => `${v.name} ${n}`)), stats.flat())];
    const notes = [
      `Baseline L1: ${l1.sets} sets x ${l1.ways} ways, ${l1.mshrEntries} MSHRs x ${l1.mshrMergers} mergers${l1.setIndex === 'fermi-hash' ? ", sets by GPGPU-Sim's Fermi hash" : ''}.`,
      ...machines.filter((m) => m.l1.setIndex !== l1.setIndex).map((m) => `${m.name}: ${m.l1.sets} sets, ${LINEAR_FALLBACK}.`),
    ];
    return { series, tables, findings, notes };
  },
};
