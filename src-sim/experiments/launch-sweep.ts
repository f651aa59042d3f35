import { resolveParams } from './params';
import { APP_PARAMS, checkShapes, selectApps, shapesOf, studyEstimate, studyOptions, studyTable } from './sl1-apps';
import { checkSl1Work, runStudy, timingOf, type Sl1Mode } from './sl1-common';
import type { Experiment, Finding, Series } from './types';

/**
 * SL1 4.1 and Fig 9: each application over a list of launch shapes (online threads per SMX), with
 * the hardware L1 and with S-L1 (and no L1); the number of online threads that runs fastest in
 * each mode. SL1: "applications perform best with a larger number of threads when using S-L1".
 */

const params = [...APP_PARAMS];

export const launchSweep: Experiment = {
  id: 'launch-sweep',
  title: 'Best number of online threads with and without S-L1 (SL1 4.1, Fig 9)',
  description:
    'Runs each streaming application of SL1 Table 1 at every launch shape of the list with no L1, the hardware L1 and S-L1, and reports the time per shape and the number of online threads that is fastest in each mode.',
  reproduces: ['SL1-F9'],
  params,
  estimate(_preset, raw) {
    return studyEstimate(resolveParams(params, raw), 3);
  },
  run(preset, raw, seed, progress) {
    const p = resolveParams(params, raw);
    checkShapes(p, preset);
    checkSl1Work(studyEstimate(p, 3), 'use fewer applications, launch shapes, SMXs or simulated accesses');
    const apps = selectApps(p);
    const modes: Sl1Mode[] = ['nol1', 'hw', 'sl1'];
    const shapes = shapesOf(p);
    const s = runStudy(preset, apps, shapes, modes, studyOptions(p, seed), progress);
    const gpuThreads = (t: number): number => t * timingOf(preset).sms;
    const series: Series[] = [];
    const G9 = 'Fig 9: best number of online threads';
    const cats = apps.map((a) => a.name);
    for (const [m, name] of [
      ['hw', 'hardware L1'],
      ['sl1', 'S-L1'],
      ['nol1', 'no L1'],
    ] as const)
      series.push({ name, x: apps.map((_, i) => i), y: apps.map((a) => gpuThreads(s.best[a.id][m].shape.threadsPerSM)), xLabel: 'application', xUnit: '', yLabel: 'online threads', yUnit: 'threads', style: 'bar', xCategories: cats, group: G9 });
    for (const a of apps)
      for (const [m, name] of [
        ['hw', 'hardware L1'],
        ['sl1', 'S-L1'],
        ['nol1', 'no L1'],
      ] as const) {
        const base = s.best[a.id].nol1.cycles;
        series.push({
          name: `${a.name}, ${name}`,
          x: shapes.map((sh) => gpuThreads(sh.threadsPerSM)),
          y: s.results[a.id].map((r) => +(base / r[m].cycles).toFixed(3)),
          xLabel: 'online threads',
          xUnit: 'threads',
          yLabel: 'speedup over the best no-L1 run',
          yUnit: 'x',
          logX: true,
          group: `${a.name}: speedup vs online threads`,
        });
      }
    const larger = apps.filter((a) => s.best[a.id].sl1.shape.threadsPerSM > s.best[a.id].hw.shape.threadsPerSM);
    const notSmaller = apps.filter((a) => s.best[a.id].sl1.shape.threadsPerSM >= s.best[a.id].hw.shape.threadsPerSM);
    const mean = (m: Sl1Mode): number => apps.reduce((t, a) => t + gpuThreads(s.best[a.id][m].shape.threadsPerSM), 0) / apps.length;
    const findings: Finding[] = [
      { key: 'launch.bestThreads.hw.mean', label: 'Best online threads with the hardware L1, mean', value: Math.round(mean('hw')), unit: 'threads', evidence: 'Fig 9 bars "hardware L1"' },
      { key: 'launch.bestThreads.sl1.mean', label: 'Best online threads with S-L1, mean', value: Math.round(mean('sl1')), unit: 'threads', evidence: 'Fig 9 bars "S-L1"' },
      {
        key: 'launch.sl1LargerMean',
        label: 'Best online threads larger with S-L1 (mean over apps)',
        value: mean('sl1') > mean('hw') ? 'yes' : 'no',
        unit: '',
        evidence: `Fig 9: mean best launch ${Math.round(mean('sl1'))} threads with S-L1 against ${Math.round(mean('hw'))} with the hardware L1`,
      },
      { key: 'launch.sl1LargerCount', label: 'Applications whose best S-L1 launch has more threads than their best hardware-L1 launch', value: larger.length, unit: 'apps', evidence: 'Fig 9' },
      { key: 'launch.sl1NotSmallerCount', label: 'Applications whose best S-L1 launch has at least as many threads', value: notSmaller.length, unit: 'apps', evidence: 'Fig 9' },
    ];
    for (const a of apps)
      findings.push(
        { key: `launch.bestThreads.hw.${a.id}`, label: `${a.name}: best online threads, hardware L1`, value: gpuThreads(s.best[a.id].hw.shape.threadsPerSM), unit: 'threads', evidence: 'Fig 9' },
        { key: `launch.bestThreads.sl1.${a.id}`, label: `${a.name}: best online threads, S-L1`, value: gpuThreads(s.best[a.id].sl1.shape.threadsPerSM), unit: 'threads', evidence: 'Fig 9' },
      );
    return {
      series,
      tables: [studyTable(s, timingOf(preset).sms)],
      findings,
      notes: ['Online threads = threads per SMX x SMXs (one wave per launch).'],
    };
  },
};
