import { tlbStructure } from './rows-tlb';
import type { ExperimentResult, ParamValues } from '../experiments/types';
import type { Preset } from '../presets/types';
import { finding, runFor } from './rows-core';
import type { Reference, ReproductionRow, RowResult } from './types';

/**
 * MEI's cache-structure rows (Table 4's data and texture L1 columns, Figs 8, 9, 12, the 48 KB L1,
 * the four-step method). Every measured value is an analyser's finding from a simulated run.
 */

const exact = (name: string, value: number | string, unit: string, citation: string): Reference => ({ name, value, unit, tolerance: 'exact', citation });
const range = (name: string, value: number, lo: number, hi: number, citation: string): Reference => ({
  name,
  value,
  unit: '',
  tolerance: 'range',
  range: [lo, hi],
  citation,
});

/**
 * Runs are pure functions of (preset, experiment, parameters, seed): rows that need the same run
 * share it instead of simulating it again (MEI-T4, F8, F9 and METHOD all read one Fermi walk). A few
 * recent runs are kept per preset object; older ones are dropped.
 */
const memo = new WeakMap<Preset, Map<string, ExperimentResult>>();
const MEMO_PER_PRESET = 8;

function run(runs: RowResult['runs'], experiment: string, preset: Preset, params: ParamValues, seed: number): ExperimentResult {
  let byKey = memo.get(preset);
  if (!byKey) memo.set(preset, (byKey = new Map()));
  const key = `${experiment} ${JSON.stringify(params)} ${seed}`;
  const hit = byKey.get(key);
  if (hit) {
    runs.push({ experiment, params });
    return hit;
  }
  const r = runFor(runs, experiment, preset, params, seed);
  byKey.set(key, r);
  if (byKey.size > MEMO_PER_PRESET) byKey.delete(byKey.keys().next().value as string);
  return r;
}

/** The Fermi L1 walk every Fermi row reads: MEI Fig 9's N = 16..24 KB and a long step-4 trace (Fig 8). */
const L1_WALK: ParamValues = { space: 'global', sweepBeyond: 8 * 1024, k: 32768 };
const TEXTURE_WALK: ParamValues = { space: 'texture' };

/** The space whose first cache level the method probes on a preset: the SM's L1 where global memory has one. */
const l1Space = (preset: Preset): 'global' | 'texture' => (preset.spaces.global.levels[0]?.scope === 'sm' ? 'global' : 'texture');

const num = (r: ExperimentResult, key: string): number | string | undefined => finding(r, key);

function collect(r: ExperimentResult, names: Record<string, string>): Record<string, number | string> {
  const out: Record<string, number | string> = {};
  for (const [name, key] of Object.entries(names)) {
    const v = num(r, key);
    if (v !== undefined) out[name] = v;
  }
  return out;
}

// ---- MEI Table 4 (data L1 and texture L1 columns) -----------------------------------------------

const MEI_T4: ReproductionRow = {
  id: 'MEI-T4',
  paper: 'MEI',
  title: 'Structures found with the fine-grained P-chase (MEI Table 4: Fermi L1 data cache, L1 and L2 TLBs, texture L1)',
  presets: ['fermi'],
  references: () => [
    exact('L1 data size', 16 * 1024, 'B', 'MEI Table 4 (Fermi L1 data cache: N = 16 KB)'),
    exact('L1 data line', 128, 'B', 'MEI Table 4 (b = 128 byte)'),
    exact('L1 data sets', 32, '', 'MEI Table 4 (a = 32)'),
    exact('L1 data LRU', 'not LRU', '', 'MEI Table 4 (LRU: no)'),
    exact('L1 TLB reach', 32 * 1024 * 1024, 'B', 'MEI Table 4 (Fermi/Kepler L1 TLB: N = 32 MB)'),
    exact('L1 TLB entries', 16, '', 'MEI 4.2 (16 entries, one set)'),
    exact('L1 TLB sets', 1, '', 'MEI Table 4 (a = 1)'),
    exact('L1 TLB policy', 'LRU', '', 'MEI Table 4 (LRU: yes)'),
    exact('TLB entry size (page)', 2 * 1024 * 1024, 'B', 'MEI Table 4 (b = 2 MB for both TLBs)'),
    exact('L2 TLB reach', 130 * 1024 * 1024, 'B', 'MEI Table 4 (Fermi/Kepler L2 TLB: N = 130 MB)'),
    exact('L2 TLB sets', 7, '', 'MEI Table 4 (a = 7)'),
    exact('L2 TLB policy', 'LRU', '', 'MEI Table 4 (LRU: yes)'),
    exact('texture L1 size', 12 * 1024, 'B', 'MEI Table 4 (Fermi/Kepler texture L1: N = 12 KB)'),
    exact('texture L1 line', 32, 'B', 'MEI Table 4 (b = 32 byte)'),
    exact('texture L1 sets', 4, '', 'MEI Table 4 (a = 4)'),
    exact('texture L1 LRU', 'LRU', '', 'MEI Table 4 (LRU: yes)'),
  ],
  measure(preset, seed) {
    const runs: RowResult['runs'] = [];
    const l1 = run(runs, 'cache-structure', preset, L1_WALK, seed);
    // The texture walk is the one MEI-F12 maps (texture-set-mapping walks the same four steps).
    const tex = run(runs, 'texture-set-mapping', preset, TEXTURE_WALK, seed);
    const tlb = tlbStructure(preset, seed, runs);
    if (tlb['page size'] !== undefined) tlb['TLB entry size (page)'] = tlb['page size'];
    return {
      measured: {
        ...tlb,
        ...collect(l1, { 'L1 data size': 'cache.sizeBytes', 'L1 data line': 'cache.lineBytes', 'L1 data sets': 'cache.sets', 'L1 data LRU': 'cache.policy' }),
        ...collect(tex, { 'texture L1 size': 'texture.sizeBytes', 'texture L1 line': 'texture.lineBytes', 'texture L1 sets': 'texture.sets', 'texture L1 LRU': 'texture.policy' }),
      },
      runs,
    };
  },
};

// ---- MEI Fig 8: the Fermi L1 replacement policy -------------------------------------------------

const MEI_F8: ReproductionRow = {
  id: 'MEI-F8',
  paper: 'MEI',
  title: 'Fermi L1 replacement (MEI Fig 8): aperiodic, one hot way replaced half the time',
  presets: ['fermi'],
  references: () => [
    exact('policy', 'not LRU', '', 'MEI 4.1 ("its replacement policy is not LRU, because the memory access process is aperiodic")'),
    range('way 1 share', 1 / 6, 0.1, 0.24, 'MEI 4.1, Fig 8 (replacement probabilities 1/6, 1/2, 1/6, 1/6)'),
    range('way 2 share', 1 / 2, 0.4, 0.6, 'MEI 4.1, Fig 8 (way 2 replaced with probability 1/2)'),
    range('way 3 share', 1 / 6, 0.1, 0.24, 'MEI 4.1, Fig 8'),
    range('way 4 share', 1 / 6, 0.1, 0.24, 'MEI 4.1, Fig 8'),
    exact('most replaced way', 2, '', 'MEI 4.1 ("In our experiment, way 2 is replaced most frequently")'),
    range('misses between hot-way replacements', 2, 1.7, 2.3, 'MEI 4.1 ("It is updated every two cache misses")'),
  ],
  measure(preset, seed) {
    const runs: RowResult['runs'] = [];
    const r = run(runs, 'cache-structure', preset, L1_WALK, seed);
    return {
      measured: collect(r, {
        policy: 'cache.policy',
        'way 1 share': 'cache.way1.evictionShare',
        'way 2 share': 'cache.way2.evictionShare',
        'way 3 share': 'cache.way3.evictionShare',
        'way 4 share': 'cache.way4.evictionShare',
        'most replaced way': 'cache.hotWay',
        'misses between hot-way replacements': 'cache.hotWayInterval',
      }),
      runs,
    };
  },
};

// ---- MEI Fig 9: miss rate of the non-LRU L1 against an LRU one ------------------------------------

/** The same preset with its global L1 replaced by LRU: the "traditional cache" of MEI Fig 9. */
function withLruL1(preset: Preset): Preset {
  const global = preset.spaces.global;
  const [first, ...rest] = global.levels;
  if (!first) return preset;
  const lru = { ...first, geometry: { ...first.geometry, policy: { kind: 'lru' as const } } };
  return { ...preset, id: `${preset.id}-lru-l1`, spaces: { ...preset.spaces, global: { ...global, levels: [lru, ...rest] } } };
}

const lruCopies = new WeakMap<Preset, Preset>();

const MEI_F9: ReproductionRow = {
  id: 'MEI-F9',
  paper: 'MEI',
  title: 'Fermi L1 miss rate vs N = 16..24 KB, s = 128 B (MEI Fig 9): at most about 50 %, where LRU reaches 100 %',
  presets: ['fermi'],
  references: () => [
    range('max miss rate, Fermi L1', 0.5, 0.35, 0.65, 'MEI 4.1, Fig 9 ("the non-LRU Fermi cache has a maximum miss rate of 50%")'),
    exact('max miss rate, LRU of the same geometry', 1, '', 'MEI 4.1, Fig 9 ("For the traditional cache, the maximum cache miss rate should be 100%")'),
  ],
  measure(preset, seed) {
    const runs: RowResult['runs'] = [];
    const fermi = run(runs, 'cache-structure', preset, L1_WALK, seed);
    let lruPreset = lruCopies.get(preset);
    if (!lruPreset) lruCopies.set(preset, (lruPreset = withLruL1(preset)));
    const lru = run(runs, 'cache-structure', lruPreset, { space: 'global', sweepBeyond: 8 * 1024, steps: 3 }, seed);
    return {
      measured: {
        ...collect(fermi, { 'max miss rate, Fermi L1': 'cache.maxMissRate' }),
        ...collect(lru, { 'max miss rate, LRU of the same geometry': 'cache.maxMissRate' }),
      },
      runs,
    };
  },
};

// ---- MEI 4.1: the 48 KB L1 configuration -----------------------------------------------------------

const MEI_L1_48: ReproductionRow = {
  id: 'MEI-L1-48',
  paper: 'MEI',
  title: 'Fermi L1 configured as 48 KB: 6 ways (MEI 4.1, citing Meltzer)',
  presets: ['fermi'],
  references: () => [
    exact('L1 size (48 KB configuration)', 48 * 1024, 'B', 'MEI 4.1 ("Fermi cache can be either 16 KB or 48 KB")'),
    exact('ways (48 KB configuration)', 6, '', 'MEI 4.1 ("According to [10], cache associativity is 6 if it is configured as 48 KB"); slides, footnote 3'),
  ],
  measure(preset, seed) {
    const runs: RowResult['runs'] = [];
    const r = run(runs, 'cache-structure', preset, { space: 'global', l1Config: '48KB', steps: 3 }, seed);
    return { measured: collect(r, { 'L1 size (48 KB configuration)': 'cache.sizeBytes', 'ways (48 KB configuration)': 'cache.ways' }), runs };
  },
};

// ---- MEI Fig 12: texture L1 set mapping --------------------------------------------------------------

const MEI_F12: ReproductionRow = {
  id: 'MEI-F12',
  paper: 'MEI',
  title: 'Texture L1 set mapping (MEI Fig 12): 384 lines of 32 B in 4 sets of 96, address bits 7-8 select the set, LRU',
  presets: ['fermi', 'kepler'],
  references: () => [
    exact('size', 12 * 1024, 'B', 'MEI 4.3 ("The 12 KB cache can store up to 384 cache lines")'),
    exact('lines', 384, '', 'MEI 4.3, Fig 12 (384 cache lines)'),
    exact('line size', 32, 'B', 'MEI 4.3 ("Each line contains 8 integers/words")'),
    exact('sets', 4, '', 'MEI Table 4, Fig 12 (4 sets)'),
    exact('lines per set', 96, '', 'MEI 4.3 ("Each cache set contains 96 cache lines")'),
    exact('set-index bits', '7-8', '', 'MEI 4.3 ("The 7-8th bits of memory address define the cache set"; 128 successive bytes to successive sets)'),
    exact('policy', 'LRU', '', 'MEI 4.3 ("The replacement policy is LRU")'),
  ],
  measure(preset, seed) {
    const runs: RowResult['runs'] = [];
    const r = run(runs, 'texture-set-mapping', preset, TEXTURE_WALK, seed);
    return {
      measured: collect(r, {
        size: 'texture.sizeBytes',
        lines: 'texture.lines',
        'line size': 'texture.lineBytes',
        sets: 'texture.sets',
        'lines per set': 'texture.linesPerSet',
        'set-index bits': 'texture.setIndexBits',
        policy: 'texture.policy',
      }),
      runs,
    };
  },
};

// ---- MEI 3.2: the four-step method ---------------------------------------------------------------------

const METHOD_REFS: Record<'global' | 'texture', Reference[]> = {
  global: [
    exact('step 1: C', 16 * 1024, 'B', 'MEI 3.2 step 1; Table 4 (Fermi L1 data: 16 KB)'),
    exact('step 2: b', 128, 'B', 'MEI 3.2 step 2; Table 4 (128 byte)'),
    exact('step 3: sets', 32, '', 'MEI 3.2 step 3; Table 4 (a = 32)'),
    exact('step 3: ways', 4, '', 'MEI 3.2 step 3 (ways = C / (a b)); Fig 8, slides (4-way)'),
    exact('step 4: policy', 'not LRU', '', 'MEI 3.2 step 4; 4.1 (aperiodic: not LRU)'),
    exact('step 4: most replaced way', 2, '', 'MEI 3.2 step 4 (which line each miss replaces); 4.1, Fig 8 (way 2)'),
  ],
  texture: [
    exact('step 1: C', 12 * 1024, 'B', 'MEI 3.2 step 1; Table 4 (texture L1: 12 KB)'),
    exact('step 2: b', 32, 'B', 'MEI 3.2 step 2; Table 4 (32 byte)'),
    exact('step 3: sets', 4, '', 'MEI 3.2 step 3; Table 4 (a = 4)'),
    exact('step 3: ways', 96, '', 'MEI 3.2 step 3; 4.3 (96 lines per set)'),
    exact('step 4: policy', 'LRU', '', 'MEI 3.2 step 4; 4.3 (LRU)'),
  ],
};

const MEI_METHOD: ReproductionRow = {
  id: 'MEI-METHOD',
  paper: 'MEI',
  title: 'The four-step fine-grained P-chase method (MEI 3.2), walked automatically on the first cache level',
  presets: ['fermi'],
  references: (preset) => METHOD_REFS[l1Space(preset)],
  measure(preset, seed) {
    const runs: RowResult['runs'] = [];
    const space = l1Space(preset);
    const r = run(runs, 'cache-structure', preset, space === 'global' ? L1_WALK : TEXTURE_WALK, seed);
    return {
      measured: collect(r, {
        'step 1: C': 'cache.sizeBytes',
        'step 2: b': 'cache.lineBytes',
        'step 3: sets': 'cache.sets',
        'step 3: ways': 'cache.ways',
        'step 4: policy': 'cache.policy',
        'step 4: most replaced way': 'cache.hotWay',
      }),
      runs,
    };
  },
};

export const ROWS: ReproductionRow[] = [MEI_T4, MEI_F8, MEI_F9, MEI_L1_48, MEI_F12, MEI_METHOD];
