import { onTlbProbe, tlbStructure } from './rows-tlb';
import type { ExperimentResult, ParamValues } from '../experiments/types';
import type { Preset } from '../presets/types';
import { beside, finding, runFor } from './rows-core';
import { calibrated, INFERRED, predictedBecause, withKind } from './kinds';
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
/** MEI 4.1's 48 KB configuration: steps 1-3 (size, line, sets and ways). */
const L1_48_WALK: ParamValues = { space: 'global', l1Config: '48KB', steps: 3 };

/**
 * Where a reference sits in a run's findings: the cache-structure walk's finding `key` (the L1 walk
 * on the default L1 configuration, so a 48 KB run does not take the 16 KB values), or the
 * texture-set-mapping walk's.
 */
const onL1 = (ref: Reference, key: string): Reference => beside(ref, 'cache-structure', key, { ...L1_WALK, l1Config: 'default' });
const onReach = (ref: Reference, key: string): Reference => onTlbProbe(ref, key, { probe: 'reach', space: 'global' });
const onPageSize = (ref: Reference, key: string): Reference => onTlbProbe(ref, key, { probe: 'page-size', space: 'global' });
const onTexture = (ref: Reference, key: string): Reference => beside(ref, 'texture-set-mapping', key, TEXTURE_WALK);

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
  kind: INFERRED,
  references: () => [
    onL1(exact('L1 data size', 16 * 1024, 'B', 'MEI Table 4 (Fermi L1 data cache: N = 16 KB)'), 'cache.sizeBytes'),
    onL1(exact('L1 data line', 128, 'B', 'MEI Table 4 (b = 128 byte)'), 'cache.lineBytes'),
    onL1(exact('L1 data sets', 32, '', 'MEI Table 4 (a = 32)'), 'cache.sets'),
    onL1(exact('L1 data LRU', 'not LRU', '', 'MEI Table 4 (LRU: no)'), 'cache.policy'),
    onReach(exact('L1 TLB reach', 32 * 1024 * 1024, 'B', 'MEI Table 4 (Fermi/Kepler L1 TLB: N = 32 MB)'), 'tlb.l1.reachBytes'),
    onReach(exact('L1 TLB entries', 16, '', 'MEI 4.2 (16 entries, one set)'), 'tlb.l1.entries'),
    onReach(exact('L1 TLB sets', 1, '', 'MEI Table 4 (a = 1)'), 'tlb.l1.sets'),
    onReach(exact('L1 TLB policy', 'LRU', '', 'MEI Table 4 (LRU: yes)'), 'tlb.l1.policy'),
    onPageSize(exact('TLB entry size (page)', 2 * 1024 * 1024, 'B', 'MEI Table 4 (b = 2 MB for both TLBs)'), 'tlb.pageBytes'),
    onReach(exact('L2 TLB reach', 130 * 1024 * 1024, 'B', 'MEI Table 4 (Fermi/Kepler L2 TLB: N = 130 MB)'), 'tlb.l2.reachBytes'),
    // On Fermi the reach stride is one page: the reach step counts the sets (rows-tlb.ts, tlbStructure).
    onReach(exact('L2 TLB sets', 7, '', 'MEI Table 4 (a = 7)'), 'tlb.l2.sets'),
    onReach(exact('L2 TLB policy', 'LRU', '', 'MEI Table 4 (LRU: yes)'), 'tlb.l2.policy'),
    onTexture(exact('texture L1 size', 12 * 1024, 'B', 'MEI Table 4 (Fermi/Kepler texture L1: N = 12 KB)'), 'texture.sizeBytes'),
    onTexture(exact('texture L1 line', 32, 'B', 'MEI Table 4 (b = 32 byte)'), 'texture.lineBytes'),
    onTexture(exact('texture L1 sets', 4, '', 'MEI Table 4 (a = 4)'), 'texture.sets'),
    onTexture(exact('texture L1 LRU', 'LRU', '', 'MEI Table 4 (LRU: yes)'), 'texture.policy'),
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
  kind: calibrated("the preset's replacement policy was set from Fig 8: hot way 2 replaced with probability 1/2, the others 1/6, the hot way moving every two misses"),
  references: () => [
    withKind(onL1(exact('policy', 'not LRU', '', 'MEI 4.1 ("its replacement policy is not LRU, because the memory access process is aperiodic")'), 'cache.policy'), INFERRED),
    onL1(range('way 1 share', 1 / 6, 0.1, 0.24, 'MEI 4.1, Fig 8 (replacement probabilities 1/6, 1/2, 1/6, 1/6)'), 'cache.way1.evictionShare'),
    onL1(range('way 2 share', 1 / 2, 0.4, 0.6, 'MEI 4.1, Fig 8 (way 2 replaced with probability 1/2)'), 'cache.way2.evictionShare'),
    onL1(range('way 3 share', 1 / 6, 0.1, 0.24, 'MEI 4.1, Fig 8'), 'cache.way3.evictionShare'),
    onL1(range('way 4 share', 1 / 6, 0.1, 0.24, 'MEI 4.1, Fig 8'), 'cache.way4.evictionShare'),
    onL1(exact('most replaced way', 2, '', 'MEI 4.1 ("In our experiment, way 2 is replaced most frequently")'), 'cache.hotWay'),
    onL1(range('misses between hot-way replacements', 2, 1.7, 2.3, 'MEI 4.1 ("It is updated every two cache misses")'), 'cache.hotWayInterval'),
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
  kind: predictedBecause("the preset's replacement policy was set from Fig 8's probabilities, not from Fig 9's miss rates, which emerge from simulating it"),
  references: () => [
    onL1(range('max miss rate, Fermi L1', 0.5, 0.35, 0.65, 'MEI 4.1, Fig 9 ("the non-LRU Fermi cache has a maximum miss rate of 50%")'), 'cache.maxMissRate'),
    // Measured on a copy of the preset with an LRU L1: no run of a paper's preset shows it.
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
  kind: INFERRED,
  references: () => [
    beside(exact('L1 size (48 KB configuration)', 48 * 1024, 'B', 'MEI 4.1 ("Fermi cache can be either 16 KB or 48 KB")'), 'cache-structure', 'cache.sizeBytes', L1_48_WALK),
    beside(
      exact('ways (48 KB configuration)', 6, '', 'MEI 4.1 ("According to [10], cache associativity is 6 if it is configured as 48 KB"); slides, footnote 3'),
      'cache-structure',
      'cache.ways',
      L1_48_WALK,
    ),
  ],
  measure(preset, seed) {
    const runs: RowResult['runs'] = [];
    const r = run(runs, 'cache-structure', preset, L1_48_WALK, seed);
    return { measured: collect(r, { 'L1 size (48 KB configuration)': 'cache.sizeBytes', 'ways (48 KB configuration)': 'cache.ways' }), runs };
  },
};

// ---- MEI Fig 12: texture L1 set mapping --------------------------------------------------------------

const MEI_F12: ReproductionRow = {
  id: 'MEI-F12',
  paper: 'MEI',
  title: 'Texture L1 set mapping (MEI Fig 12): 384 lines of 32 B in 4 sets of 96, address bits 7-8 select the set, LRU',
  presets: ['fermi', 'kepler'],
  kind: INFERRED,
  references: () => [
    onTexture(exact('size', 12 * 1024, 'B', 'MEI 4.3 ("The 12 KB cache can store up to 384 cache lines")'), 'texture.sizeBytes'),
    onTexture(exact('lines', 384, '', 'MEI 4.3, Fig 12 (384 cache lines)'), 'texture.lines'),
    onTexture(exact('line size', 32, 'B', 'MEI 4.3 ("Each line contains 8 integers/words")'), 'texture.lineBytes'),
    onTexture(exact('sets', 4, '', 'MEI Table 4, Fig 12 (4 sets)'), 'texture.sets'),
    onTexture(exact('lines per set', 96, '', 'MEI 4.3 ("Each cache set contains 96 cache lines")'), 'texture.linesPerSet'),
    onTexture(
      exact('set-index bits', '7-8', '', 'MEI 4.3 ("The 7-8th bits of memory address define the cache set"; 128 successive bytes to successive sets)'),
      'texture.setIndexBits',
    ),
    onTexture(exact('policy', 'LRU', '', 'MEI 4.3 ("The replacement policy is LRU")'), 'texture.policy'),
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

const METHOD_REFS_RAW: Record<'global' | 'texture', [Reference, string][]> = {
  global: [
    [exact('step 1: C', 16 * 1024, 'B', 'MEI 3.2 step 1; Table 4 (Fermi L1 data: 16 KB)'), 'cache.sizeBytes'],
    [exact('step 2: b', 128, 'B', 'MEI 3.2 step 2; Table 4 (128 byte)'), 'cache.lineBytes'],
    [exact('step 3: sets', 32, '', 'MEI 3.2 step 3; Table 4 (a = 32)'), 'cache.sets'],
    [exact('step 3: ways', 4, '', 'MEI 3.2 step 3 (ways = C / (a b)); Fig 8, slides (4-way)'), 'cache.ways'],
    [exact('step 4: policy', 'not LRU', '', 'MEI 3.2 step 4; 4.1 (aperiodic: not LRU)'), 'cache.policy'],
    [exact('step 4: most replaced way', 2, '', 'MEI 3.2 step 4 (which line each miss replaces); 4.1, Fig 8 (way 2)'), 'cache.hotWay'],
  ],
  texture: [
    [exact('step 1: C', 12 * 1024, 'B', 'MEI 3.2 step 1; Table 4 (texture L1: 12 KB)'), 'cache.sizeBytes'],
    [exact('step 2: b', 32, 'B', 'MEI 3.2 step 2; Table 4 (32 byte)'), 'cache.lineBytes'],
    [exact('step 3: sets', 4, '', 'MEI 3.2 step 3; Table 4 (a = 4)'), 'cache.sets'],
    [exact('step 3: ways', 96, '', 'MEI 3.2 step 3; 4.3 (96 lines per set)'), 'cache.ways'],
    [exact('step 4: policy', 'LRU', '', 'MEI 3.2 step 4; 4.3 (LRU)'), 'cache.policy'],
  ],
};

/** The four steps' references, each beside the finding of the walk on that space (the 16 KB L1 walk, or the texture walk). */
const METHOD_REFS: Record<'global' | 'texture', Reference[]> = {
  global: METHOD_REFS_RAW.global.map(([ref, key]) => onL1(ref, key)),
  texture: METHOD_REFS_RAW.texture.map(([ref, key]) => beside(ref, 'cache-structure', key, TEXTURE_WALK)),
};

const MEI_METHOD: ReproductionRow = {
  id: 'MEI-METHOD',
  paper: 'MEI',
  title: 'The four-step fine-grained P-chase method (MEI 3.2), walked automatically on the first cache level',
  presets: ['fermi'],
  kind: INFERRED,
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
