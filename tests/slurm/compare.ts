/**
 * Compares the one sweep of each of two databases point for point: the same points (preset, axis
 * values, seed), every point done in both, and equal runs: the preset snapshot, the parameters and
 * the whole result (findings, series, tables, notes, trace). Used by tests/slurm/run.sh on the sweep
 * collected from a Slurm job array and the same plan run on the local pool.
 *
 *   node --import tsx tests/slurm/compare.ts <slurm.db> <local.db>
 *
 * Exit code 0 when equal, 1 with the first difference of each point that differs.
 */
import { isDeepStrictEqual } from 'node:util';
import { EXPERIMENTS } from '../../src-sim/experiments';
import { RunStore } from '../../src-main/services/store';
import { SweepService } from '../../src-main/services/sweep/service';

/** The path of the first difference of two JSON values, with both sides, or null when equal. */
function firstDifference(a: unknown, b: unknown, path = ''): string | null {
  if (isDeepStrictEqual(a, b)) return null;
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    for (const k of keys) {
      const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}${Array.isArray(a) ? `[${k}]` : `.${k}`}`);
      if (d) return d;
    }
  }
  const show = (v: unknown): string => (JSON.stringify(v) ?? 'undefined').slice(0, 80);
  return `${path || '(top)'}: ${show(a)} vs ${show(b)}`;
}

function open(file: string): { store: RunStore; sweeps: SweepService } {
  const store = RunStore.open(file, { appVersion: 'compare', recoverInterrupted: false });
  return { store, sweeps: new SweepService({ store, experiments: EXPERIMENTS }) };
}

function main(argv: string[]): number {
  if (argv.length !== 2) {
    console.error('usage: node --import tsx tests/slurm/compare.ts <a.db> <b.db>');
    return 2;
  }
  const [a, b] = argv.map(open) as [ReturnType<typeof open>, ReturnType<typeof open>];
  try {
    const lists = [a.sweeps.list(), b.sweeps.list()];
    if (lists.some((l) => l.length !== 1)) {
      console.error(`expected one sweep in each database; found ${lists[0]!.length} and ${lists[1]!.length}`);
      return 1;
    }
    const da = a.sweeps.get(lists[0]![0]!.id);
    const db = b.sweeps.get(lists[1]![0]!.id);
    const problems: string[] = [];
    const head = firstDifference({ experiment: da.experiment, presets: da.presets, axes: da.axes, points: da.points.length }, { experiment: db.experiment, presets: db.presets, axes: db.axes, points: db.points.length });
    if (head) problems.push(`sweep${head}`);
    let numbers = 0;
    for (const pa of da.points) {
      const pb = db.points[pa.index];
      if (!pb) continue;
      const label = `point ${pa.index} (${pa.preset} ${JSON.stringify(pa.values)})`;
      const d = firstDifference({ preset: pa.preset, values: pa.values, seed: pa.seed }, { preset: pb.preset, values: pb.values, seed: pb.seed });
      if (d) {
        problems.push(`${label}: ${d}`);
        continue;
      }
      if (pa.status !== 'done' || pb.status !== 'done') {
        problems.push(`${label}: status ${pa.status} vs ${pb.status}${pa.error ?? pb.error ? ` (${pa.error ?? pb.error})` : ''}`);
        continue;
      }
      const ra = a.store.getRun(pa.runId!);
      const rb = b.store.getRun(pb.runId!);
      const run = (r: typeof ra) => ({ experiment: r.experiment, seed: r.seed, preset: r.preset, params: r.params, result: r.result });
      const diff = firstDifference(run(ra), run(rb));
      if (diff) problems.push(`${label}: ${diff}`);
      for (const s of ra.result!.series) numbers += s.x.length + s.y.length;
      numbers += ra.result!.findings.filter((f) => typeof f.value === 'number').length;
    }
    if (problems.length) {
      console.error(`${problems.length} difference(s) between ${argv[0]} and ${argv[1]}:`);
      for (const p of problems) console.error(`  ${p}`);
      return 1;
    }
    console.log(`equal: ${da.points.length} points of ${da.experiment}, all done in both; presets, parameters, findings, series, tables, notes and traces identical (${numbers} numbers of series and findings)`);
    return 0;
  } finally {
    a.store.close();
    b.store.close();
  }
}

process.exitCode = main(process.argv.slice(2));
