import type { ExperimentResult, ParamValues } from '../experiments/types';
import type { Preset } from '../presets/types';
import { PREDICTED, recovered, withKind } from './kinds';
import { known, memoRun } from './row-runs';
import { beside, finding } from './rows-core';
import type { Reference, ReproductionRow, RowResult } from './types';

/**
 * The Hopper presets held against real GPUs: `hopper` against an H100, `h200` against an H200. The
 * presets were built from LUO24 (an H800), JIA18 / JIA19, NVIDIA's documents and stated assumptions,
 * never from these measurements (the h200 preset's L2 size is the CUDA runtime's attribute of the
 * H200, which no check here reads); each reference below is a value this project measured with the
 * programs of `gpulab gpu emit`, kept as test fixtures and read by the same analysers. The simulated
 * side runs the same experiment with the same parameters on the preset. Where the model misses, the
 * known deviation says by how much and where the docs show it (docs/REAL-GPU.md). The presets are not
 * adjusted to these runs: `gpulab gpu preset` makes a measured preset from them instead.
 */

const KB = 1024;

/** The runs the references come from: the experiment and parameters each fixture was emitted with. */
const AVG_L1: ParamValues = { strides: [32, 128, 256], sizeFrom: 8 * KB, sizeTo: 512 * KB, sizeStep: 8 * KB };
const AVG_L1_SMALL: ParamValues = { strides: [128], sizeFrom: 4 * KB, sizeTo: 256 * KB, sizeStep: 4 * KB };
/** avg-l2 swept 2 to 96 MB at strides 64 and 512 B; its L2 plateau holds from 2 MB, so the simulated run stops at 16 MB. */
const AVG_L2: ParamValues = { strides: [64], sizeFrom: 2048 * KB, sizeTo: 16384 * KB, sizeStep: 2048 * KB };
const COLD_16K: ParamValues = { size: 16 * KB, stride: 128, warmup: false, iterations: 1024 };
const COLD_S4: ParamValues = { size: 64 * KB, stride: 4, warmup: false, iterations: 2048 };
const BANKS: ParamValues = { strideFrom: 0, strideTo: 64 };

/**
 * The latencies, sizes and fill units the analysers read from the hopper preset's chases follow one
 * preset number each (tests/repro/perturbation-latency.test.ts): the preset's LUO24 (H800) value or
 * the Tuning Guide's carveout, read back from simulated timings. Against this H100 they test those
 * sources, not the model's mechanics: method checks.
 */
const READ_BACK = recovered("the simulated value follows one preset number (LUO24's H800 value converted to the clock, or the carveout), which the analyser reads back from the simulated timings; against the real GPU it checks that source, not the model's mechanics");
const FILL_BACK = recovered("the simulated value follows the preset's L2 fill unit (64 B, assumed from JIA18 Fig 3.2 and JIA19 Fig 3.5 on V100 and T4, never from these runs), which the analyser reads back");
const lat = (name: string, value: number, citation: string): Reference => ({ name, value, unit: 'cycles', tolerance: 'latency', citation, kind: READ_BACK });
const exact = (name: string, value: number, unit: string, citation: string): Reference => ({ name, value, unit, tolerance: 'exact', citation, kind: READ_BACK });

/** What one real GPU's fixtures read, finding by finding (the unit test re-imports each). */
interface RealReadings {
  l1: number;
  l2: number;
  dram: number;
  /** The cold misses' spread as the import reads it (min to max), for the deviation's words. */
  dramSpread: string;
  l1NoShared: number;
  l1MaxShared: number;
  l1Fill: number;
  dramFill: number;
  shared: number;
  perConflict: number;
}

interface RealSpec {
  id: string;
  paper: ReproductionRow['paper'];
  preset: string;
  gpu: string;
  /** Where the fixtures are, as the citations name them. */
  source: string;
  doc: string;
  v: RealReadings;
  /** The known deviation of each check the model misses on this GPU, by reference name. */
  deviations: Record<string, string>;
}

function realRow(s: RealSpec): ReproductionRow {
  const cite = (file: string, key: string): string => `${s.source}/${file}.jsonl (${key})`;
  const dev = (ref: Reference): Reference => (s.deviations[ref.name] ? known(ref, `${s.deviations[ref.name]}: ${s.doc}.`) : ref);
  return {
    id: s.id,
    paper: s.paper,
    title: `The ${s.preset} preset against a real ${s.gpu}: L1, L2 and device-memory latency, the L1 at the largest and smallest carveout, fill units, shared memory`,
    presets: [s.preset],
    kind: PREDICTED,
    references: () => [
      beside(dev(lat('L1 hit latency', s.v.l1, cite('avg-l1', 's = 128 B.plateau1.latency'))), 'pchase-average', 's = 128 B.plateau1.latency', { ...AVG_L1, l1Config: '256KB' }),
      beside(dev(lat('L2 hit latency', s.v.l2, cite('avg-l2', 's = 64 B.plateau1.latency'))), 'pchase-average', 's = 64 B.plateau1.latency', AVG_L2),
      beside(dev(lat('device memory latency (cold misses)', s.v.dram, cite('fine-16k-cold', 'trace.level2.latency'))), 'pchase-fine', 'trace.level2.latency', COLD_16K),
      beside(
        dev(exact('L1 size with no shared memory', s.v.l1NoShared, 'B', `${s.source}/avg-l1.jsonl (s = 128 B.level1.sizeBytes; the chase asks for carveout 0)`)),
        'pchase-average',
        's = 128 B.level1.sizeBytes',
        { ...AVG_L1, l1Config: '256KB' },
      ),
      beside(
        dev(exact('L1 size with 228 KB of shared memory', s.v.l1MaxShared, 'B', `${s.source}/avg-l1-c100.jsonl (s = 128 B.level1.sizeBytes; carveout 100 %)`)),
        'pchase-average',
        's = 128 B.level1.sizeBytes',
        { ...AVG_L1_SMALL, l1Config: '28KB' },
      ),
      beside(dev(exact('L1 fill unit (a cold miss every ...)', s.v.l1Fill, 'B', cite('fine-cold-s4', 'trace.level2.everyBytes'))), 'pchase-fine', 'trace.level2.everyBytes', COLD_S4),
      withKind(dev(exact('device-memory fill unit (an access to it every ...)', s.v.dramFill, 'B', `${s.source}/fine-cold-s4.jsonl (trace.level3.everyBytes: the level of the device memory's latency)`)), FILL_BACK),
      beside(dev(lat('shared memory latency', s.v.shared, cite('banks-64', 'shared.base'))), 'shared-bank-stride', 'shared.base', BANKS),
      beside(dev(exact('shared memory cost per further conflicting access', s.v.perConflict, 'cycles', cite('banks-64', 'shared.perConflict'))), 'shared-bank-stride', 'shared.perConflict', BANKS),
    ],
    measure(preset: Preset, seed: number) {
      const runs: RowResult['runs'] = [];
      const measured: Record<string, number | string> = {};
      const put = (name: string, v: number | string | undefined): void => {
        if (v !== undefined) measured[name] = v;
      };
      // The carveout: an L1 configuration of the preset in the simulator, a kernel attribute on the GPU.
      const avg = memoRun(runs, 'pchase-average', preset, { ...AVG_L1, l1Config: '256KB' }, seed);
      put('L1 hit latency', finding(avg, 's = 128 B.plateau1.latency'));
      put('L1 size with no shared memory', finding(avg, 's = 128 B.level1.sizeBytes'));
      put('L1 size with 228 KB of shared memory', finding(memoRun(runs, 'pchase-average', preset, { ...AVG_L1_SMALL, l1Config: '28KB' }, seed), 's = 128 B.level1.sizeBytes'));
      put('L2 hit latency', finding(memoRun(runs, 'pchase-average', preset, AVG_L2, seed), 's = 64 B.plateau1.latency'));
      const cold = memoRun(runs, 'pchase-fine', preset, COLD_16K, seed);
      const dram = finding(cold, 'trace.level2.latency');
      put('device memory latency (cold misses)', dram);
      const s4 = memoRun(runs, 'pchase-fine', preset, COLD_S4, seed);
      put('L1 fill unit (a cold miss every ...)', finding(s4, 'trace.level2.everyBytes'));
      put('device-memory fill unit (an access to it every ...)', fillUnitNear(s4, typeof dram === 'number' ? dram : undefined));
      const banks = memoRun(runs, 'shared-bank-stride', preset, BANKS, seed);
      put('shared memory latency', finding(banks, 'shared.base'));
      put('shared memory cost per further conflicting access', finding(banks, 'shared.perConflict'));
      return { measured, runs };
    },
  };
}

/**
 * The fill unit of the run's own latency level nearest a latency (device memory's): its levels as the
 * run read them (`trace.levelN.latency`), so the level number is the one its `everyBytes` findings use.
 */
function fillUnitNear(r: ExperimentResult, latency: number | undefined): number | string | undefined {
  if (latency === undefined) return undefined;
  let best = 0;
  for (let n = 2; typeof finding(r, `trace.level${n}.latency`) === 'number'; n++) {
    const d = Math.abs((finding(r, `trace.level${n}.latency`) as number) - latency);
    if (best === 0 || d < Math.abs((finding(r, `trace.level${best}.latency`) as number) - latency)) best = n;
  }
  return best ? finding(r, `trace.level${best}.everyBytes`) : undefined;
}

const coldWords = (gpu: string, v: RealReadings): string =>
  `the preset takes LUO24's 478.8 cycles (H800 PCIe, 1755 MHz), 535.0 at 1980 MHz, as the near L2 partition's DRAM latency; its cold misses read 535 (near, 63 of 128), 753.6 (far, 64) and 1473.3 (the first, a TLB miss), mean 651.6, and the analyser's level 2 is the near one; this ${gpu}'s cold misses read ${v.dramSpread} cycles as one level, mean ${v.dram}`;
const l1Words = (gpu: string): string =>
  `the preset gives the L1 all 256 KB of the SM's on-chip memory when shared memory takes none (no paper measures a part a chase does not see on the GH100; JIA18 and JIA19 find 7 KB on V100 and T4); the ${gpu}'s chase sees 240 KB (16 KB less)`;
const l1SmallWords = (gpu: string): string =>
  `the preset's smallest L1 is the 28 KB the Hopper Tuning Guide leaves beside 228 KB of shared memory; the ${gpu}'s chase sees 20 KB at every carveout from 10 % up`;

const H100_V: RealReadings = { l1: 38.9, l2: 290.7, dram: 705.4, dramSpread: '521 to 1141', l1NoShared: 240 * KB, l1MaxShared: 20 * KB, l1Fill: 32, dramFill: 64, shared: 29.08, perConflict: 2 };
const H100_REAL = realRow({
  id: 'H100-REAL',
  paper: 'H100',
  preset: 'hopper',
  gpu: 'H100',
  source: 'measured on an NVIDIA H100 80GB HBM3 (cc 9.0, driver 580.159.04), tests/fixtures/real/h100',
  doc: 'docs/REAL-GPU.md, "The Hopper preset against the H100"',
  v: H100_V,
  deviations: {
    'device memory latency (cold misses)': coldWords('H100', H100_V),
    'L1 size with no shared memory': l1Words('H100'),
    'L1 size with 228 KB of shared memory': l1SmallWords('H100'),
  },
});

const H200_V: RealReadings = { l1: 38.9, l2: 287.5, dram: 659, dramSpread: '493 to 904', l1NoShared: 240 * KB, l1MaxShared: 20 * KB, l1Fill: 32, dramFill: 64, shared: 29.08, perConflict: 2 };
const H200_REAL = realRow({
  id: 'H200-REAL',
  paper: 'H200',
  preset: 'h200',
  gpu: 'H200',
  source: 'measured on an NVIDIA H200 (cc 9.0, driver 580.159.04), tests/fixtures/real/h200',
  doc: 'docs/REAL-GPU.md, "The H200"',
  v: H200_V,
  deviations: {
    'device memory latency (cold misses)': coldWords('H200', H200_V),
    'L1 size with no shared memory': l1Words('H200'),
    'L1 size with 228 KB of shared memory': l1SmallWords('H200'),
  },
});

export const ROWS: ReproductionRow[] = [H100_REAL, H200_REAL];
