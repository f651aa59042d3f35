/**
 * Fingerprint of the timing tier: runs the timing workloads of the LASH and SL1 reproduction rows at
 * the rows' own parameters and presets (and, with --experiments, every timing experiment at its
 * defaults), and prints one line per simulate() call with a hash of its inputs and of its full
 * statistics record, then one line per row with a hash of the row's result. Two builds that print the
 * same lines give bit-identical statistics.
 *
 *   npx tsx scripts/timing-fingerprint.ts                   # every LASH and SL1 row
 *   npx tsx scripts/timing-fingerprint.ts --quick           # a representative subset, for iteration
 *   npx tsx scripts/timing-fingerprint.ts --rows LASH-F4,SL1-F5 --experiments
 *   npx tsx scripts/timing-fingerprint.ts --rows none --experiments --experiments-only launch-sweep
 *   npx tsx scripts/timing-fingerprint.ts > /tmp/after.txt && diff <(grep -v '^#' /tmp/before.txt) <(grep -v '^#' /tmp/after.txt)
 *
 * Lines starting with '#' carry timings and are not part of the fingerprint.
 */
import { register } from 'node:module';

register('./timing-fingerprint-hooks.mjs', import.meta.url);

/** Rows that together touch every engine path (fermi480's GPGPU-Sim pipeline, titan's sectors and S-L1, GT200) and run quickly. */
const QUICK = ['LASH-CFG', 'LASH-MLP', 'LASH-280', 'SL1-LAT', 'SL1-F1', 'SL1-SHM', 'SL1-F8'];
const TIMING_EXPERIMENTS = ['lash-stencil', 'lash-apps', 'lash-mlp', 'lash-sensitivity', 'sl1-throughput', 'sl1-wc-l1', 'sl1-apps', 'timing-sweep', 'launch-sweep'];

interface TapRecord {
  kernels: string;
  input: string;
  stats: string;
  cycles: number;
  ms: number;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const arg = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const tap = await import('./timing-fingerprint-tap');
  const { REPRODUCTION_ROWS } = await import('../src-sim/reference');
  const { runRow } = await import('../src-sim/reference/check');
  const { findPreset } = await import('../src-sim/presets');
  const { findExperiment } = await import('../src-sim/experiments');
  const taps = (globalThis as { __timingTap?: TapRecord[] }).__timingTap!;

  const wanted = arg('--rows')?.split(',') ?? (argv.includes('--quick') ? QUICK : undefined);
  const rows = REPRODUCTION_ROWS.filter((r) => (wanted ? wanted.includes(r.id) : r.paper === 'LASH' || r.paper === 'SL1'));
  const t0 = process.cpuUsage();
  let seen = 0;
  const flush = (label: string): void => {
    for (; seen < taps.length; seen++) {
      const t = taps[seen];
      console.log(`${label} #${seen} ${t.kernels} in=${t.input} stats=${t.stats} cycles=${t.cycles}`);
      console.log(`# ${label} #${seen} ${t.ms.toFixed(0)} ms`);
    }
  };
  for (const row of rows) {
    for (const pid of row.presets) {
      const preset = findPreset(pid);
      if (!preset) continue;
      const s = process.cpuUsage();
      const r = runRow(row, preset, 1);
      const { runs: _runs, ...result } = r;
      flush(`${row.id}@${pid}`);
      console.log(`${row.id}@${pid} row=${tap.hash(tap.stableText(result))} pass=${r.pass}`);
      const d = process.cpuUsage(s);
      console.log(`# ${row.id}@${pid} cpu ${((d.user + d.system) / 1e6).toFixed(1)} s`);
    }
  }
  if (argv.includes('--experiments')) {
    const only = arg('--experiments-only')?.split(',');
    for (const id of only ?? TIMING_EXPERIMENTS) {
      const ex = findExperiment(id);
      if (!ex) continue;
      const preset = findPreset(id.startsWith('sl1') || id === 'launch-sweep' ? 'titan' : 'fermi480');
      if (!preset) continue;
      const s = process.cpuUsage();
      let text: string;
      try {
        text = `result=${tap.hash(tap.stableText(ex.run(preset, {}, 1, () => undefined)))}`;
      } catch (e) {
        // An experiment whose defaults the preset refuses: its message is part of the fingerprint.
        text = `result=error ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}`;
      }
      flush(`${id}@${preset.id}`);
      console.log(`${id}@${preset.id} ${text}`);
      const d = process.cpuUsage(s);
      console.log(`# ${id} cpu ${((d.user + d.system) / 1e6).toFixed(1)} s`);
    }
  }
  const d = process.cpuUsage(t0);
  console.log(`# ${taps.length} simulate() calls, cpu ${((d.user + d.system) / 1e6).toFixed(1)} s`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
