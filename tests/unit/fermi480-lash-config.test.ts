import { describe, expect, it, vi } from 'vitest';
import type { ExperimentResult, ParamValues } from '../../src-sim/experiments/types';
import { EXPERIMENTS } from '../../src-sim/experiments';
import type * as Experiments from '../../src-sim/experiments';
import { findPreset } from '../../src-sim/presets';
import { ROWS } from '../../src-sim/reference/rows-lash';
import type { Reference } from '../../src-sim/reference/types';

/*
 * fermi480 as GPGPU-Sim 3.2.2's GTX 480 configuration (gpgpu-sim_distribution 24f29469,
 * configs/GTX480/gpgpusim.config), and the LASH rows as REPRODUCTION.md's decisions of 2026-11-26 set
 * them. The rows' runs are recorded by a stand-in experiment registry, so no simulation runs here.
 */

const recorded: { experiment: string; params: ParamValues }[] = [];
vi.mock('../../src-sim/experiments', async (importOriginal) => {
  const real = await importOriginal<typeof Experiments>();
  return {
    ...real,
    findExperiment: (id: string) =>
      real.findExperiment(id) && {
        ...real.findExperiment(id)!,
        run: (_p: unknown, params: ParamValues): ExperimentResult => {
          recorded.push({ experiment: id, params });
          return { series: [], findings: [], tables: [] } as unknown as ExperimentResult;
        },
      },
  };
});

const fermi480 = findPreset('fermi480')!;
const refs = (id: string): Reference[] => ROWS.find((r) => r.id === id)!.references(fermi480);
const ref = (id: string, name: string): Reference => {
  const r = refs(id).find((x) => x.name === name);
  if (!r) throw new Error(`${id} has no reference "${name}"`);
  return r;
};

describe("fermi480's provenance against GPGPU-Sim 3.2.2's gpgpusim.config", () => {
  const prov = Object.entries(fermi480.provenance).filter(([k]) => k.startsWith('timing.'));

  it('quotes the cache lines as 3.2.2 ships them (four policy letters, no set-function letter)', () => {
    const dl1 = prov.flatMap(([, v]) => [...v.matchAll(/dl1 (\d\S*)/g)].map((m) => m[1]));
    const dl2 = prov.flatMap(([, v]) => [...v.matchAll(/dl2 (\d\S*)/g)].map((m) => m[1]));
    expect(dl1.length).toBeGreaterThan(2);
    expect(dl2.length).toBeGreaterThan(2);
    for (const s of dl1) expect(s).toMatch(/^32:128:4,L:L:m:N(,A:32:8,8)?[,):;]?$/);
    for (const s of dl2) expect(s).toMatch(/^64:128:8,L:B:m:W(,A:32:4,4:0,32)?[,):;]?$/);
  });

  it('takes the replacement policy, the SM limits and shared memory size from the file, and names it', () => {
    const p = (k: string) => fermi480.provenance[`timing.${k}`];
    expect(p('l1.policy')).toMatch(/^LASH VI .*dl1 32:128:4,L:/);
    expect(p('l2.policy')).toMatch(/^LASH VI .*dl2 64:128:8,L:/);
    expect(p('maxThreadsPerSM')).toMatch(/-gpgpu_shader_core_pipeline 1536:32/);
    expect(p('maxBlocksPerSM')).toMatch(/-gpgpu_shader_cta 8/);
    expect(p('schedulers')).toMatch(/-gpgpu_num_sched_per_core 2/);
    expect(p('shared.bytesPerSM')).toMatch(/-gpgpu_shmem_size 49152/);
    expect(fermi480.timing!.l1!.policy).toBe('lru');
    expect(fermi480.timing!.l2.policy).toBe('lru');
    expect(fermi480.timing!.shared.bytesPerSM).toBe(49152);
    for (const [k, v] of prov) expect(v, k).not.toMatch(/gpgpusim_gtx480/);
  });

  it('marks as assumed exactly the settings the file does not give, each with its reason', () => {
    const assumed = prov.filter(([, v]) => /^assumed:/.test(v)).map(([k]) => k.slice('timing.'.length));
    expect(assumed.sort()).toEqual(['interconnect.latency', 'l1.hitLatency', 'segmentBySize', 'shared.bytesPerCycle', 'shared.latency']);
    for (const k of assumed) expect(fermi480.provenance[`timing.${k}`].length, k).toBeGreaterThan(60);
    // The interconnect's reason names the router delays config_fermi_islip.icnt does set.
    expect(fermi480.provenance['timing.interconnect.latency']).toMatch(/vc_alloc_delay 1, sw_alloc_delay 1/);
  });
});

describe("the timing experiments' warp scheduler", () => {
  const withScheduler = EXPERIMENTS.filter((e) => e.params.some((p) => p.name === 'scheduler'));

  it("defaults to the preset's in every experiment that has the parameter, lrr and gto staying as what-ifs", () => {
    expect(withScheduler.map((e) => e.id).sort()).toEqual(
      expect.arrayContaining(['lash-apps', 'lash-sensitivity', 'lash-stencil', 'sl1-apps', 'sl1-throughput', 'sl1-wc-l1', 'timing-sweep']),
    );
    for (const e of withScheduler) {
      const p = e.params.find((x) => x.name === 'scheduler')!;
      expect(p.default, e.id).toBe('preset');
      expect(p.kind === 'enum' ? p.options : [], e.id).toEqual(expect.arrayContaining(['preset', 'lrr', 'gto']));
    }
  });

  it("the LASH rows run the preset's scheduler: no run names lrr or gto", () => {
    recorded.length = 0;
    for (const row of ROWS) for (const id of row.presets) row.measure(findPreset(id)!, 1);
    const timing = recorded.filter((r) => r.experiment !== 'lash-mlp');
    expect(new Set(timing.map((r) => r.experiment))).toEqual(new Set(['lash-stencil', 'lash-sensitivity', 'lash-apps']));
    for (const r of timing) expect(r.params.scheduler, r.experiment).toBe('preset');
  });
});

describe('the LASH targets as REPRODUCTION.md decides', () => {
  it("LASH-F4 judges the ordering; Fig 1's real-GPU 11 % and 12 % are context, never a band", () => {
    const int = ref('LASH-F4', 'short faster than int');
    const char = ref('LASH-F4', 'short faster than char');
    for (const r of [int, char]) {
      expect(r.tolerance).toBe('exact');
      expect(r.value).toBe('yes');
      expect(r.knownDeviation).toBeUndefined();
    }
    expect(int.finding?.key).toBe('stencil.shortBeatsInt');
    expect(char.finding?.key).toBe('stencil.shortBeatsChar');
    expect(int.context).toMatch(/real GTX 480.*11 %/);
    expect(char.context).toMatch(/real GTX 480.*12 %/);
    expect(refs('LASH-F4').some((r) => r.value === 11 || r.value === 12)).toBe(false);
  });

  it("LASH-F1 judges matrix multiply's int-char difference against stereo's, 3 % as context", () => {
    const r = ref('LASH-F1', "matrix multiply's int-char difference under half of stereo's");
    expect(r.value).toBe('yes');
    expect(r.finding?.key).toBe('apps.matmulUnderHalfStereo');
    expect(r.context).toMatch(/3 %/);
    expect(refs('LASH-F1').some((x) => x.value === 3)).toBe(false);
  });

  it('LASH-F5 states the halo-line bounds of the request count', () => {
    const r = ref('LASH-F5', 'fewer memory requests (char vs int)');
    expect(r.value).toBe(24);
    expect(r.tolerance).toBe('half');
    expect(r.citation).toMatch(/33\.3 %/);
    expect(r.citation).toMatch(/37\.5 %/);
  });

  it("LASH-F7 judges Mergers- as performance (1 / time) drops of 52 % and 25 %; Mergers+ keeps its measured known deviation", () => {
    expect(ref('LASH-F7', 'MSHRMergers-: short slower (performance)')).toMatchObject({ value: 52, tolerance: 'half', finding: { key: 'sens.mergersMinus.shortSpeedDrop' } });
    expect(ref('LASH-F7', 'MSHRMergers-: char slower (performance)')).toMatchObject({ value: 25, tolerance: 'half', finding: { key: 'sens.mergersMinus.charSpeedDrop' } });
    expect(ref('LASH-F7', 'MSHRMergers+: int-char gap widens').knownDeviation).toMatch(/nomerger/);
    const notes = ROWS.flatMap((row) => row.references(fermi480).filter((r) => r.knownDeviation).map((r) => `${row.id}: ${r.name}`));
    expect(notes).toEqual(['LASH-F7: MSHRMergers+: int-char gap widens']);
  });

  it("LASH-CFG's two measured checks are calibrated, the rest specification", () => {
    const row = ROWS.find((r) => r.id === 'LASH-CFG')!;
    expect(row.kind.kind).toBe('specification');
    const calibrated = row.references(fermi480).filter((r) => r.kind?.kind === 'calibrated').map((r) => r.name);
    expect(calibrated).toEqual(['L1 MSHR entries (measured)', 'L1 merger fields (measured)']);
  });
});
