import { analyseCurve } from '../analysis/average-curve';
import { formatBytes } from '../experiments/params';
import { Measurement } from '../experiments/pchase';
import { sharedAverageChase } from '../experiments/shared-chase';
import type { ExperimentResult, ParamValues } from '../experiments/types';
import type { Preset } from '../presets/types';
import { Rng } from '../rng';
import { beside, runFor } from './rows-core';
import { calibrated, INFERRED, predictedBecause, recovered, withKind } from './kinds';
import type { Reference, ReproductionRow, RowResult } from './types';

/**
 * WONG's memory rows on the Tesla preset: shared and global memory (no caching), the texture and
 * constant cache hierarchies, their sharing between blocks and with instructions, and clock(). Every
 * measured value is a finding of an analyser that read simulated curves or timestamps.
 */

type Runs = RowResult['runs'];
type Measured = Record<string, number | string>;

const run = runFor;

function value(r: ExperimentResult, key: string): number | string | undefined {
  return r.findings.find((f) => f.key === key)?.value;
}

/** Copies a finding into the measured record when the analyser reported it. */
function take(out: Measured, name: string, r: ExperimentResult, key: string): void {
  const v = value(r, key);
  if (v !== undefined) out[name] = v;
}

/** Label pchase-average gives the curve of stride s. */
const curve = (s: number): string => `s = ${formatBytes(s)}`;

const lat = (name: string, v: number, citation: string): Reference => ({ name, value: v, unit: 'cycles', tolerance: 'latency', citation });
const exact = (name: string, v: number | string, unit: string, citation: string): Reference => ({ name, value: v, unit, tolerance: 'exact', citation });

/** Spread of a latency over TPC placements, read as a yes/no dependence (half a cycle is no spread). */
function placementSpread(values: number[]): { spread: number; depends: string } {
  const spread = Math.max(...values) - Math.min(...values);
  return { spread, depends: spread > 0.5 ? 'yes' : 'no' };
}

function tpcCount(preset: Preset): number {
  return Math.max(1, Math.ceil(preset.chip.sms / preset.chip.smPerTpc));
}

// ---- WONG IV-F: shared memory ------------------------------------------------------------------------

const SHM_STRIDES = [4, 64, 512];

/** Latencies and placement effects the Tesla preset's texture and constant paths were set from. */
const TEX_LATENCY = calibrated("the preset's texture latencies were set from WONG Table V and IV-H");
const TEX_PLACEMENT = calibrated('the preset puts the interconnect between the texture L1 and L2, as Fig 11 shows');
const CONST_LATENCY = calibrated("the preset's constant-cache latencies were set from WONG IV-J's raw 8 / 81 / 220 / 476 cycles");
const CONST_PLACEMENT = calibrated('the preset puts the interconnect between the constant L2 and L3, as Fig 17 shows');

const WONG_SHM: ReproductionRow = {
  id: 'WONG-SHM',
  paper: 'WONG',
  title: 'Shared memory: 38-cycle loads, no caching effects over footprint and stride (WONG IV-F)',
  presets: ['tesla'],
  kind: calibrated("the preset's shared-memory latency was set from IV-F's 38 cycles"),
  references: () => [
    // The row chases shared memory itself; the bank-stride sweep's conflict-free latency is the same load.
    beside(lat('latency', 38, 'WONG IV-F, Table V (38 cycles)'), 'shared-bank-stride', 'shared.base'),
    withKind(exact('cache levels', 0, '', 'WONG IV-F (varying footprint and stride shows no caching)'), recovered('the preset models shared memory with no cache, after IV-F; the analyser reads the flat curve that follows back: a method check')),
  ],
  measure(preset, seed) {
    // No registered experiment chases shared memory; the row runs the chase itself (shared-chase.ts).
    const out: Measured = {};
    let levels = 0;
    SHM_STRIDES.forEach((s, si) => {
      const x: number[] = [];
      const y: number[] = [];
      for (let N = Math.max(256, s); N <= preset.shared.sizeBytes; N += 256) {
        const ps = Rng.derive(seed, si * 1000 + x.length);
        x.push(N);
        y.push(sharedAverageChase(preset.shared, new Measurement(0, 0, ps), N, s, Math.max(256, N / s)));
      }
      const a = analyseCurve(x, y, s);
      levels = Math.max(levels, a.ramps.length);
      if (si === 0) out.latency = a.plateaus[0].latency;
    });
    out['cache levels'] = levels;
    return { measured: out, runs: [] };
  },
};

// ---- WONG IV-G: global memory ------------------------------------------------------------------------

/** WONG IV-G's sweeps: data-cache-sized footprints with a fine stride (all placements), then page strides. */
const GLB_FINE: ParamValues = { space: 'global', strides: [64], sizeFrom: 1024, sizeTo: 65536, sizeStep: 1024, traversals: 1 };
const GLB_REACH: ParamValues = { space: 'global', strides: [4096], sizeFrom: 65536, sizeTo: 8 << 20, sizeStep: 131072, traversals: 1 };

const WONG_GLB: ReproductionRow = {
  id: 'WONG-GLB',
  paper: 'WONG',
  title: 'Global memory: 436-443 cycles with an L1 TLB hit, no caching (WONG IV-G)',
  presets: ['tesla'],
  kind: calibrated("the preset's global latency with an L1 TLB hit was set from IV-G's 436-443 cycles"),
  references: () => [
    beside(
      { name: 'latency (mean placement)', value: 440, unit: 'cycles', tolerance: 'range', range: [436, 443], citation: 'WONG IV-G (436-443 cycles without a TLB miss)' },
      'pchase-average',
      `${curve(64)}.plateau1.latency`,
      { ...GLB_FINE, tpc: -1 },
    ),
    lat('fastest placement', 436, 'WONG IV-G (436-443 cycles over placements)'),
    lat('slowest placement', 443, 'WONG IV-G (436-443 cycles over placements)'),
    // The row takes the larger count of the two sweeps; beside a run, the fine sweep's count.
    withKind(beside(exact('cache levels', 0, '', 'WONG IV-G (no caching effects observed)'), 'pchase-average', `${curve(64)}.levels`, { ...GLB_FINE, tpc: -1 }), recovered('the preset gives global memory no data cache, after IV-G; the analyser reads the flat curve that follows back: a method check')),
  ],
  measure(preset, seed) {
    const runs: Runs = [];
    const out: Measured = {};
    // Data-cache-sized footprints with a fine stride, then up to the L1 TLB's reach with page strides.
    const fine = run(runs, 'pchase-average', preset, GLB_FINE, seed);
    const reach = run(runs, 'pchase-average', preset, GLB_REACH, seed);
    take(out, 'latency (mean placement)', fine, `${curve(64)}.plateau1.latency`);
    out['cache levels'] = Math.max(Number(value(fine, `${curve(64)}.levels`)), Number(value(reach, `${curve(4096)}.levels`)));
    const perTpc: number[] = [];
    for (let t = 0; t < tpcCount(preset); t++) {
      const r = run(runs, 'pchase-average', preset, { space: 'global', strides: [64], sizeFrom: 16384, sizeTo: 16384, sizeStep: 1024, traversals: 1, tpc: t }, seed);
      perTpc.push(Number(value(r, `${curve(64)}.plateau1.latency`)));
    }
    out['fastest placement'] = Math.min(...perTpc);
    out['slowest placement'] = Math.max(...perTpc);
    return { measured: out, runs };
  },
};

// ---- WONG IV-H: texture caches -----------------------------------------------------------------------

const TEX = 'WONG IV-H';
/** Fig 11: 8-byte stride around 5 KB. */
const TEX_L1: ParamValues = { space: 'texture', strides: [8], sizeFrom: 4608, sizeTo: 5888, sizeStep: 16, traversals: 1 };
/** Fig 10 near 256 KB with a stride of a whole L2 line: plateaus are the L2 and memory latencies. */
const TEX_L2: ParamValues = { space: 'texture', strides: [256], sizeFrom: 240 * 1024, sizeTo: 304 * 1024, sizeStep: 2048, traversals: 1 };
/** Fig 12: 64-byte stride just past 256 KB, where the steps are one L2 line apart. */
const TEX_ZOOM: ParamValues = { space: 'texture', strides: [64], sizeFrom: 255 * 1024, sizeTo: 257 * 1024, sizeStep: 128, traversals: 1 };
/** Beside finding `key` of pchase-average's curve of the sweep's one stride (all placements). */
const onCurve = (ref: Reference, sweep: ParamValues, key: string): Reference =>
  beside(ref, 'pchase-average', `${curve((sweep.strides as number[])[0])}.${key}`, { ...sweep, tpc: -1 });
const WONG_F10: ReproductionRow = {
  id: 'WONG-F10..F12',
  paper: 'WONG',
  title: 'Texture caches: L1 5 KB 20-way 32 B lines, L2 256 KB 8-way 256 B lines (WONG Figs 10-12)',
  presets: ['tesla'],
  kind: INFERRED,
  references: () => [
    onCurve(exact('L1 size', 5 * 1024, 'B', `${TEX}1, Figs 10, 11 (5 KB)`), TEX_L1, 'level1.sizeBytes'),
    onCurve(exact('L1 line', 32, 'B', `${TEX}1, Fig 11 (32-byte lines)`), TEX_L1, 'level1.lineBytes'),
    onCurve(exact('L1 ways', 20, '', `${TEX}1, Fig 11 (256-byte way: 20-way)`), TEX_L1, 'level1.ways'),
    withKind(onCurve(lat('L1 latency', 261, `${TEX}1, Table V (261 clocks)`), TEX_L1, 'plateau1.latency'), TEX_LATENCY),
    onCurve(exact('L2 size', 256 * 1024, 'B', `${TEX}2, Fig 10 (256 KB)`), TEX_L2, 'level1.sizeBytes'),
    onCurve(exact('L2 line', 256, 'B', `${TEX}2, Fig 12 (256-byte lines)`), TEX_ZOOM, 'level1.lineBytes'),
    onCurve(exact('L2 ways', 8, '', `${TEX}2, Fig 10 (32 KB way: 8-way)`), TEX_L2, 'level1.ways'),
    withKind(onCurve(lat('L2 latency', 371, 'WONG Table V (371 clocks)'), TEX_L2, 'plateau1.latency'), TEX_LATENCY),
    withKind(onCurve(lat('memory latency', 499, `${TEX}1 (499 clocks)`), TEX_L2, 'plateau2.latency'), TEX_LATENCY),
    withKind(exact('L1 latency depends on TPC placement', 'no', '', 'WONG Fig 11 (maximum and minimum over placements separate only past the L1)'), TEX_PLACEMENT),
    withKind(exact('L2 latency depends on TPC placement', 'yes', '', `${TEX}2, Fig 11 (L2 has TPC placement-dependent latency)`), TEX_PLACEMENT),
  ],
  measure(preset, seed) {
    const runs: Runs = [];
    const out: Measured = {};
    const l1 = run(runs, 'pchase-average', preset, TEX_L1, seed);
    take(out, 'L1 size', l1, `${curve(8)}.level1.sizeBytes`);
    take(out, 'L1 line', l1, `${curve(8)}.level1.lineBytes`);
    take(out, 'L1 ways', l1, `${curve(8)}.level1.ways`);
    take(out, 'L1 latency', l1, `${curve(8)}.plateau1.latency`);
    const l2 = run(runs, 'pchase-average', preset, TEX_L2, seed);
    take(out, 'L2 size', l2, `${curve(256)}.level1.sizeBytes`);
    take(out, 'L2 ways', l2, `${curve(256)}.level1.ways`);
    take(out, 'L2 latency', l2, `${curve(256)}.plateau1.latency`);
    take(out, 'memory latency', l2, `${curve(256)}.plateau2.latency`);
    const zoom = run(runs, 'pchase-average', preset, TEX_ZOOM, seed);
    take(out, 'L2 line', zoom, `${curve(64)}.level1.lineBytes`);
    // Figs 11: latency over the TPC placements, inside the L1 (2 KB, 32 B stride) and inside the L2.
    const l1Tpc: number[] = [];
    const l2Tpc: number[] = [];
    for (let t = 0; t < tpcCount(preset); t++) {
      const a = run(runs, 'pchase-average', preset, { space: 'texture', strides: [32], sizeFrom: 2048, sizeTo: 2048, sizeStep: 1024, traversals: 1, tpc: t }, seed);
      const b = run(runs, 'pchase-average', preset, { space: 'texture', strides: [256], sizeFrom: 16384, sizeTo: 16384, sizeStep: 1024, traversals: 1, tpc: t }, seed);
      l1Tpc.push(Number(value(a, `${curve(32)}.plateau1.latency`)));
      l2Tpc.push(Number(value(b, `${curve(256)}.plateau1.latency`)));
    }
    out['L1 latency depends on TPC placement'] = placementSpread(l1Tpc).depends;
    out['L2 latency depends on TPC placement'] = placementSpread(l2Tpc).depends;
    return { measured: out, runs };
  },
};

// ---- WONG IV-J: constant caches ----------------------------------------------------------------------

const CON = 'WONG IV-J';
const LV = { probe: 'latency', traversals: 1 };
/** Fig 17: 256-byte stride (a line of every level or more): sizes, ways and one plateau per level. */
const F17: ParamValues = { ...LV, strides: [256], sizeFrom: 256, sizeTo: 40960, sizeStep: 256 };
/** Fig 18: 16-byte stride around 2 KB: the L1's 64-byte steps. */
const F18: ParamValues = { ...LV, strides: [16], sizeFrom: 1024, sizeTo: 3072, sizeStep: 16 };
/** 64-byte stride around 8 KB and 32 KB: the L2's and L3's 256-byte steps (past the thrashing L1). */
const NEAR8: ParamValues = { ...LV, strides: [64], sizeFrom: 7168, sizeTo: 11264, sizeStep: 128 };
const NEAR32: ParamValues = { ...LV, strides: [64], sizeFrom: 31744, sizeTo: 37888, sizeStep: 128 };
/** As measured: the two arithmetic instructions of each iteration included. */
const MEASURED: ParamValues = { ...LV, strides: [256], sizeFrom: 256, sizeTo: 1024, sizeStep: 256, latencyView: 'measured' };
/** Beside finding `key` of constant-hierarchy's curve of the sweep's one stride (all placements; raw latencies unless it says). */
const onConst = (ref: Reference, sweep: ParamValues, key: string): Reference =>
  beside(ref, 'constant-hierarchy', `s${(sweep.strides as number[])[0]}.${key}`, { latencyView: 'raw', ...sweep, tpc: -1 });
const WONG_F17: ReproductionRow = {
  id: 'WONG-F17/F18',
  paper: 'WONG',
  title: 'Constant caches: L1 2 KB, L2 8 KB, L3 32 KB; raw latencies 8 / 81 / 220 / 476 (WONG Figs 17, 18)',
  presets: ['tesla'],
  kind: INFERRED,
  references: () => [
    onConst(exact('L1 size', 2048, 'B', `${CON}1, Figs 17, 18 (2 KB)`), F17, 'level1.sizeBytes'),
    onConst(exact('L1 line', 64, 'B', `${CON}1, Fig 18 (64-byte lines)`), F18, 'level1.lineBytes'),
    onConst(exact('L1 ways', 4, '', `${CON}1, Fig 18 (512-byte way: 4-way)`), F17, 'level1.ways'),
    onConst(exact('L1 sets', 8, '', `${CON}1 (eight sets)`), F18, 'level1.sets'),
    onConst(exact('L2 size', 8192, 'B', `${CON}2, Fig 17 (8 KB)`), F17, 'level2.sizeBytes'),
    onConst(exact('L2 line', 256, 'B', `${CON}2 (256-byte lines)`), NEAR8, 'level1.lineBytes'),
    onConst(exact('L2 ways', 4, '', `${CON}2, Fig 17 (2 KB way: 4-way)`), F17, 'level2.ways'),
    onConst(exact('L2 sets', 8, '', `${CON}2 (8 sets)`), NEAR8, 'level1.sets'),
    onConst(exact('L3 size', 32768, 'B', `${CON}3, Fig 17 (32 KB)`), F17, 'level3.sizeBytes'),
    onConst(exact('L3 line', 256, 'B', `${CON}3 (256-byte lines)`), NEAR32, 'level1.lineBytes'),
    onConst(exact('L3 ways', 8, '', `${CON}3 (8-way)`), F17, 'level3.ways'),
    onConst(exact('L3 sets', 16, '', `${CON}3 (16 sets)`), NEAR32, 'level1.sets'),
    withKind(onConst(lat('L1 latency (raw)', 8, `${CON}, Table V (8 clocks after removing ~48 of two arithmetic instructions)`), F17, 'plateau1.latency'), CONST_LATENCY),
    withKind(onConst(lat('L2 latency (raw)', 81, `${CON}, Table V (81 clocks, raw)`), F17, 'plateau2.latency'), CONST_LATENCY),
    withKind(onConst(lat('L3 latency (raw)', 220, `${CON}, Table V (220 clocks, raw)`), F17, 'plateau3.latency'), CONST_LATENCY),
    withKind(onConst(lat('memory latency (raw)', 476, `${CON} (476 clocks, raw)`), F17, 'plateau4.latency'), CONST_LATENCY),
    withKind(onConst(lat('L1 latency (measured)', 56, `${CON} (measured values include about 48 cycles of two arithmetic instructions: 8 + 48)`), MEASURED, 'plateau1.latency'), CONST_LATENCY),
    withKind(exact('L2 latency depends on TPC placement', 'no', '', `${CON}2, Fig 17 (the L2 is in the TPC; the spread starts in the 8-32 KB region)`), CONST_PLACEMENT),
    withKind(exact('L3 latency depends on TPC placement', 'yes', '', `${CON}3, Fig 17 (L3 latency differs significantly by TPC)`), CONST_PLACEMENT),
  ],
  measure(preset, seed) {
    const runs: Runs = [];
    const out: Measured = {};
    const lv = LV;
    const f17 = run(runs, 'constant-hierarchy', preset, F17, seed);
    ['L1', 'L2', 'L3'].forEach((name, i) => {
      take(out, `${name} size`, f17, `s256.level${i + 1}.sizeBytes`);
      take(out, `${name} ways`, f17, `s256.level${i + 1}.ways`);
    });
    ['L1 latency (raw)', 'L2 latency (raw)', 'L3 latency (raw)', 'memory latency (raw)'].forEach((name, i) => take(out, name, f17, `s256.plateau${i + 1}.latency`));
    const f18 = run(runs, 'constant-hierarchy', preset, F18, seed);
    take(out, 'L1 line', f18, 's16.level1.lineBytes');
    take(out, 'L1 sets', f18, 's16.level1.sets');
    const near8 = run(runs, 'constant-hierarchy', preset, NEAR8, seed);
    take(out, 'L2 line', near8, 's64.level1.lineBytes');
    take(out, 'L2 sets', near8, 's64.level1.sets');
    const near32 = run(runs, 'constant-hierarchy', preset, NEAR32, seed);
    take(out, 'L3 line', near32, 's64.level1.lineBytes');
    take(out, 'L3 sets', near32, 's64.level1.sets');
    const measured = run(runs, 'constant-hierarchy', preset, MEASURED, seed);
    take(out, 'L1 latency (measured)', measured, 's256.plateau1.latency');
    // Fig 17's placement spread: inside the L2 (4-7 KB) and inside the L3 (16-19 KB) on every TPC.
    const l2Tpc: number[] = [];
    const l3Tpc: number[] = [];
    for (let t = 0; t < tpcCount(preset); t++) {
      const a = run(runs, 'constant-hierarchy', preset, { ...lv, strides: [256], sizeFrom: 4096, sizeTo: 7168, sizeStep: 1024, tpc: t }, seed);
      const b = run(runs, 'constant-hierarchy', preset, { ...lv, strides: [256], sizeFrom: 16384, sizeTo: 19456, sizeStep: 1024, tpc: t }, seed);
      l2Tpc.push(Number(value(a, 's256.plateau1.latency')));
      l3Tpc.push(Number(value(b, 's256.plateau1.latency')));
    }
    out['L2 latency depends on TPC placement'] = placementSpread(l2Tpc).depends;
    out['L3 latency depends on TPC placement'] = placementSpread(l3Tpc).depends;
    return { measured: out, runs };
  },
};

// ---- WONG IV-J4, IV-J5: sharing ----------------------------------------------------------------------

const PLACES = [
  ['sameSM', 'same SM'],
  ['sameTPC', 'same TPC'],
  ['otherTPC', 'other TPC'],
] as const;
/** Expected verdict per level (L1, L2, L3) and placement: Fig 20 with a second constant block. */
const FIG20: Record<string, string[]> = { sameSM: ['shared', 'shared', 'shared'], sameTPC: ['private', 'shared', 'shared'], otherTPC: ['private', 'private', 'shared'] };
/** Fig 21 with an instruction stream: the L1 is single-purpose, L2 (per TPC) and L3 (global) are shared. */
const FIG21: Record<string, string[]> = { sameSM: ['private', 'shared', 'shared'], sameTPC: ['private', 'shared', 'shared'], otherTPC: ['private', 'private', 'shared'] };
const SHARING_SWEEP = { sizeFrom: 256, sizeTo: 37888, sizeStep: 256, stride: 256, traversals: 1 };
const SHARING: ParamValues = { probe: 'sharing', ...SHARING_SWEEP };
const INSTRUCTION: ParamValues = { probe: 'instruction', ...SHARING_SWEEP };
const onSharing = (ref: Reference, sweep: ParamValues, key: string): Reference => beside(ref, 'constant-hierarchy', key, { ...sweep, tpc: -1 });

/** A shared level's observed half follows its configured size alone (perturbation: the constant L1's ways). */
const SHARED_HALF = recovered("the size seen beside a second block is half the configured level's and follows its geometry alone: the sharing probe reads the configured size back");

const WONG_F20: ReproductionRow = {
  id: 'WONG-F20/F21',
  paper: 'WONG',
  title: 'Constant cache sharing: per-SM L1, per-TPC L2, global L3; L2 and L3 shared with instructions (WONG Figs 20, 21)',
  presets: ['tesla'],
  kind: predictedBecause("the levels' scopes (per SM, per TPC, global: IV-J) are preset inputs; the sizes seen beside a second block or beside instruction fetch are measured"),
  references: () => {
    const refs: Reference[] = [];
    for (const [id, label] of PLACES)
      FIG20[id].forEach((v, k) =>
        refs.push(
          onSharing(
            exact(`L${k + 1} beside a constant block on the ${label}`, v, '', `${CON}4, Fig 20 (L1 per SM, L2 per TPC, L3 global; a shared level shows half its size)`),
            SHARING,
            `sharing.${id}.level${k + 1}.verdict`,
          ),
        ),
      );
    for (const [id, label] of PLACES)
      FIG21[id].forEach((v, k) =>
        refs.push(
          onSharing(
            exact(`L${k + 1} beside instruction fetch on the ${label}`, v, '', `${CON}5, Fig 21 (L2 and L3 hold instructions too, the L1 does not; the L2 is per TPC, IV-J2)`),
            INSTRUCTION,
            `instruction.${id}.level${k + 1}.verdict`,
          ),
        ),
      );
    refs.push(
      onSharing(exact('L3 observed beside a second block', 16384, 'B', `${CON}4 (halved to 16 KB in all placements)`), SHARING, 'sharing.otherTPC.level3.sizeBytes'),
      onSharing(exact('L2 observed beside a block on the same TPC', 4096, 'B', `${CON}4 (halved to 4 KB)`), SHARING, 'sharing.sameTPC.level2.sizeBytes'),
      withKind(
        onSharing(
          exact('L1 observed beside a block on the same SM', 1024, 'B', `${CON}4 (halved; the text's "2 KB" contradicts the 2 KB L1 of IV-J1, half of which is 1 KB)`),
          SHARING,
          'sharing.sameSM.level1.sizeBytes',
        ),
        SHARED_HALF,
      ),
    );
    return refs;
  },
  measure(preset, seed) {
    const runs: Runs = [];
    const out: Measured = {};
    const sharing = run(runs, 'constant-hierarchy', preset, SHARING, seed);
    const instr = run(runs, 'constant-hierarchy', preset, INSTRUCTION, seed);
    for (const [id, label] of PLACES)
      for (let k = 1; k <= 3; k++) {
        take(out, `L${k} beside a constant block on the ${label}`, sharing, `sharing.${id}.level${k}.verdict`);
        take(out, `L${k} beside instruction fetch on the ${label}`, instr, `instruction.${id}.level${k}.verdict`);
      }
    take(out, 'L3 observed beside a second block', sharing, 'sharing.otherTPC.level3.sizeBytes');
    take(out, 'L2 observed beside a block on the same TPC', sharing, 'sharing.sameTPC.level2.sizeBytes');
    take(out, 'L1 observed beside a block on the same SM', sharing, 'sharing.sameSM.level1.sizeBytes');
    return { measured: out, runs };
  },
};

// ---- WONG IV-A: clock() ------------------------------------------------------------------------------

const WONG_CLK: ReproductionRow = {
  id: 'WONG-CLK',
  paper: 'WONG',
  title: 'clock(): 28 cycles followed by a non-dependent operation; clock registers per TPC (WONG IV-A, Fig 5)',
  presets: ['tesla'],
  kind: calibrated("the preset's clock() overhead and per-TPC clock registers were set from IV-A and Fig 5"),
  references: () => [
    { ...lat('clock() overhead', 28, 'WONG IV-A (a clock() followed by a non-dependent operation takes 28 cycles)'), finding: { experiment: 'clock', key: 'clock.overhead' } },
    { ...exact('clock register scope', 'TPC', '', 'WONG IV-A, Fig 5 (blocks on the same TPC share timestamp values)'), finding: { experiment: 'clock', key: 'clock.scope' } },
    { ...exact('launches serialised', 'yes', '', 'WONG Fig 5 (kernel calls are serialised)'), finding: { experiment: 'clock', key: 'clock.serialized' }, kind: predictedBecause('the per-TPC clock registers of Fig 5 are an input; the serialisation of launches is read from the simulated timestamps') },
  ],
  measure(preset, seed) {
    const runs: Runs = [];
    const out: Measured = {};
    const r = run(runs, 'clock', preset, {}, seed);
    take(out, 'clock() overhead', r, 'clock.overhead');
    take(out, 'clock register scope', r, 'clock.scope');
    take(out, 'launches serialised', r, 'clock.serialized');
    return { measured: out, runs };
  },
};

export const ROWS: ReproductionRow[] = [WONG_CLK, WONG_SHM, WONG_GLB, WONG_F10, WONG_F17, WONG_F20];
