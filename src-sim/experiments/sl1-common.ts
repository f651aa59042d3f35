/**
 * Shared machinery of the SL1 experiments: a slice of the GPU, launch shapes, and the measurement of
 * one application in one mode (no L1, hardware L1, S-L1 and its variants) extrapolated to a
 * nominal data set.
 *
 * Why a slice and extrapolation (assumed, documented in docs/SL1.md):
 *  - SL1's streaming applications are homogeneous over SMs (every thread its own chunk), so the GPU
 *    is simulated as `sms` SMXs with their share of what the SMXs share (L2 capacity and bandwidth,
 *    the interconnect's total and DRAM bandwidth scaled by sms / 15); per-SM limits are untouched.
 *  - SL1 runs on data sets far larger than a simulation can afford (monitoring is "less than 1 %").
 *    Each mode is simulated on a window of W records per thread and extrapolated linearly to the
 *    nominal records per thread R: plain modes take R x cycles(W) / W; S-L1 takes the monitoring
 *    phase as simulated (its k records) plus (R - k) x cycles(computation window of W) / W.
 */
import { simulate } from '../timing/engine';
import { applySl1, mainLoopIndex, SL1_MONITOR_ACCESSES, type Sl1Decision } from '../timing/sl1';
import type { Kernel, L1Allocate, SchedulerChoice, TimingConfig, TimingStats } from '../timing/types';
import type { LaunchShape, Sl1App } from '../timing/workloads/sl1-apps';
import type { Preset } from '../presets/types';
import { ExperimentError, MAX_ACCESSES } from './types';

/** Refuses a run whose estimated thread accesses exceed MAX_ACCESSES, saying what to shrink. */
export function checkSl1Work(accesses: number, shrink: string): void {
  if (accesses > MAX_ACCESSES)
    throw new ExperimentError(`this run would simulate about ${(accesses / 1e6).toFixed(0)} M thread accesses, over the limit of ${MAX_ACCESSES / 1e6} M; ${shrink}`);
}

export function timingOf(preset: Preset): TimingConfig {
  const t = (preset as Preset & { timing?: TimingConfig }).timing;
  if (!t) throw new ExperimentError(`${preset.name} has no timing configuration (Preset.timing); the SL1 study needs one`);
  return t;
}

/**
 * `sms` SMXs of the GPU with their share of the shared resources: L2 sets, L2 bandwidth, the
 * interconnect's total and DRAM bandwidth scaled by sms / config.sms. Per-SM limits stay.
 */
export function gpuSlice(config: TimingConfig, sms: number): TimingConfig {
  if (sms >= config.sms) return config;
  const f = sms / config.sms;
  return {
    ...config,
    sms,
    l2: {
      ...config.l2,
      sets: Math.max(1, Math.round(config.l2.sets * f)),
      ...(config.l2.bytesPerCycle !== undefined ? { bytesPerCycle: config.l2.bytesPerCycle * f } : {}),
    },
    interconnect: { ...config.interconnect, bytesPerCycleTotal: config.interconnect.bytesPerCycleTotal * f },
    dram: { ...config.dram, bytesPerCycle: config.dram.bytesPerCycle * f },
  };
}

/**
 * Shared memory left when the SMX's on-chip memory is split in favour of the L1: SL1 2.1 ("16KB-48KB
 * L1 cache and 16KB-48KB ... shared memory", 64 KB in all, SL1 4.1); GPGPU-Sim's Kepler Titan model
 * (configs/tested-cfgs/SM3_KEPLER_TITAN/gpgpusim.config: -gpgpu_shmem_size_PrefL1 16384).
 */
export const PREFER_L1_SHARED_BYTES = 16 * 1024;

/** Hardware L1 sizes of Titan's on-chip splits (SL1 2.1: "16KB-48KB L1 cache"). */
export type L1Split = 16 | 48;

/**
 * SL1's configuration: 16 KB of L1 beside 48 KB of shared memory (SL1 4.1: 64 KB per SMX "of which
 * 48KB is assigned to shared memory"). Every judged SL1 check runs the hardware L1 at this size.
 */
export const SL1_L1_SPLIT: L1Split = 16;

/**
 * The what-if split of cudaFuncCachePreferL1: a 48 KB L1 (SL1 1: "can be configured to be at most
 * 48KB"; GPGPU-Sim's Titan model: dl1PrefL1 S:4:128:96, the 16 KB dl1's 4 sets with three times the
 * ways) and 16 KB of shared memory. The on-chip total (L1 + shared) is kept; the L1 grows by ways.
 * Not SL1's configuration (4.1), so it is shown beside the judged runs and never judged. An L1 that
 * allocates on fill keeps its MSHR entries per line (GPGPU-Sim's streaming L1 sizes them to 4 per
 * line, gpu-cache.h cache_config::init: 512 for the 16 KB dl1, 1536 for dl1PrefL1).
 */
export function preferL1(config: TimingConfig): TimingConfig {
  const l1 = config.l1;
  if (!l1) return config;
  const setBytes = l1.sets * l1.lineBytes;
  const onChip = setBytes * l1.ways + config.shared.bytesPerSM;
  const ways = Math.floor((onChip - PREFER_L1_SHARED_BYTES) / setBytes);
  if (ways <= l1.ways) return config;
  const mshrEntries = l1.allocate === 'fill' ? Math.round((l1.mshrEntries * ways) / l1.ways) : l1.mshrEntries;
  return { ...config, l1: { ...l1, ways, mshrEntries }, shared: { ...config.shared, bytesPerSM: onChip - ways * setBytes } };
}

/**
 * The L1 allocation policy of a run's hardware-L1 runs: the preset's (TimingCacheConfig.allocate), or
 * one named as a what-if. Titan's is 'fill', the literal reading of GPGPU-Sim's Titan dl1 (streaming,
 * which GPGPU-Sim turns into allocate-on-fill); 'miss' is the earlier reading (a miss reserves a way).
 */
export type L1AllocateChoice = 'preset' | L1Allocate;
export const L1_ALLOCATE_CHOICES: readonly L1AllocateChoice[] = ['preset', 'miss', 'fill'];

export function withL1Allocate(config: TimingConfig, choice: L1AllocateChoice | undefined): TimingConfig {
  if (!config.l1 || choice === undefined || choice === 'preset') return config;
  return { ...config, l1: { ...config.l1, allocate: choice } };
}

/** The configuration of hardware-L1 runs with an L1 of `split` KB: the preset's (16) or preferL1's (48). */
export const withL1Split = (config: TimingConfig, split: L1Split): TimingConfig => (split === 48 ? preferL1(config) : config);

/** A launch of `threadsPerSM` online threads per SMX in blocks of at most `maxBlock`, one wave. */
export interface Shape {
  threadsPerSM: number;
  block: number;
  blocksPerSM: number;
}

/**
 * Blocks of the largest size up to `maxBlock` that divides `threadsPerSM` (a multiple of 32 when
 * one does), so that the SMX runs exactly `threadsPerSM` threads: 384 with blocks of up to 256 is
 * 2 x 192, not 2 x 256.
 */
export function shapeFor(threadsPerSM: number, maxBlock: number): Shape {
  let block = Math.min(threadsPerSM, maxBlock);
  for (let b = block - (block % 32); b >= 32; b -= 32)
    if (threadsPerSM % b === 0) {
      block = b;
      break;
    }
  return { threadsPerSM, block, blocksPerSM: Math.max(1, Math.round(threadsPerSM / block)) };
}

export const launchOf = (s: Shape, sms: number): LaunchShape => ({ grid: s.blocksPerSM * sms, block: s.block });

export type Sl1Mode = 'nol1' | 'hw' | 'hw48' | 'sl1' | 'sl1-none' | 'sl1-8' | 'sl1-24';
export const MODE_LABEL: Record<Sl1Mode, string> = {
  nol1: 'no L1',
  hw: 'hardware L1',
  hw48: 'hardware L1, 48 KB (what-if)',
  sl1: 'S-L1 (16 B)',
  'sl1-none': 'S-L1, nothing cached',
  'sl1-8': 'S-L1 (8 B)',
  'sl1-24': 'S-L1 (24 B)',
};

export interface ModeResult {
  mode: Sl1Mode;
  shape: Shape;
  /** Cycles for the nominal data set (extrapolated). */
  cycles: number;
  /** The window's statistics (computation window for S-L1). */
  stats: TimingStats;
  /** Cycles of the simulated window and of the monitoring phase (S-L1). */
  windowCycles: number;
  /** Warp instructions per warp and record in the window (SL1 Fig 11 compares them). */
  instructionsPerRecord: number;
  /**
   * Issued warp instructions per warp and record: the executed ones plus one replay for each further
   * cache line a memory instruction touches (the LSU's coalescing cycles), as SL1 Fig 11 counts them
   * ("issued instructions also count the times an instruction is replayed").
   */
  issuedPerRecord: number;
  monitorCycles: number;
  /** Hardware L1 hit rate (hw) or S-L1 hit rate over cached accesses (S-L1 modes); 0 otherwise. */
  hitRate: number;
  decision?: Sl1Decision;
}

export interface AppMeasureOptions {
  /** Simulated SMXs (the slice). */
  sms: number;
  /** Nominal input bytes over the whole GPU. */
  inputBytes: number;
  /** Global accesses per thread in the simulated window. */
  windowAccesses: number;
  /**
   * Global accesses per thread run just before the window, in the same launch sequence, and not timed
   * (default 0): the window then starts with the caches and DRAM as the run left them, not empty.
   */
  warmAccesses?: number;
  scheduler: SchedulerChoice;
  seed: number;
  maxCycles: number;
  /** Multiplier on the applications' ALU work (AppBuild.work). */
  work?: number;
  /** S-L1's instructions before each access to a cached structure (default SL1_COSTS'). */
  cachedAccessInstructions?: number;
  /**
   * KB of hardware L1 in the 'hw' mode (default SL1_L1_SPLIT, 16: SL1 4.1's configuration). The
   * 'hw48' mode always runs the 48 KB split, as a what-if.
   */
  l1Split?: L1Split;
  /** The hardware L1's allocation policy in the 'hw' and 'hw48' modes (default 'preset'). */
  l1Allocate?: L1AllocateChoice;
}

type LoopInstr = Extract<Kernel['body'][number], { op: 'loop' }>;

/**
 * The kernel cut after its main loop's first `first` iterations (without the code after the loop):
 * a warm-up's lead, timed on its own so that what the rest of the loop adds is the difference.
 */
function lead(kern: Kernel, first: number): Kernel | null {
  const li = mainLoopIndex(kern);
  if (first <= 0 || li < 0) return null;
  const loop = kern.body[li] as LoopInstr;
  if (loop.count <= first) return null;
  return { ...kern, body: [...kern.body.slice(0, li), { ...loop, count: first }] };
}

/** The counters a window is measured by. */
interface Counters {
  cycles: number;
  warpInstructions: number;
  /** LSU coalescing cycles: one replay per further cache line of a memory instruction. */
  coalescing: number;
  l1Requests: number;
  l1Hits: number;
  sl1Hits: number;
  sl1Misses: number;
}

const counters = (s: TimingStats): Counters => ({
  cycles: s.cycles,
  warpInstructions: s.warpInstructions,
  coalescing: s.stalls.coalescing,
  l1Requests: s.requests.l1,
  l1Hits: s.hits.l1,
  sl1Hits: s.sl1.hits,
  sl1Misses: s.sl1.misses,
});

/** What a run adds over its lead (a shorter run of the same launch), counter by counter. */
function minus(a: Counters, b: Counters): Counters {
  return {
    cycles: a.cycles - b.cycles,
    warpInstructions: a.warpInstructions - b.warpInstructions,
    coalescing: a.coalescing - b.coalescing,
    l1Requests: a.l1Requests - b.l1Requests,
    l1Hits: a.l1Hits - b.l1Hits,
    sl1Hits: a.sl1Hits - b.sl1Hits,
    sl1Misses: a.sl1Misses - b.sl1Misses,
  };
}

/** Global accesses of one main-loop iteration (records are main-loop iterations). */
function accessesPerRecord(k: Kernel): number {
  const li = mainLoopIndex(k);
  if (li < 0) return 1;
  const globals = new Set(k.arrays.filter((a) => a.space === 'global').map((a) => a.name));
  const count = (body: Kernel['body']): number =>
    body.reduce((n, i) => n + (i.op === 'loop' ? i.count * count(i.body) : (i.op === 'ld' || i.op === 'st') && globals.has(i.array) ? 1 : 0), 0);
  const loop = k.body[li] as Extract<Kernel['body'][number], { op: 'loop' }>;
  return Math.max(1, count(loop.body));
}

/**
 * Measures `app` at `shape` in the given modes. The nominal problem: `app.nominal` records per
 * thread for the full GPU's thread count, in `waves` waves.
 */
export function measureApp(preset: Preset, app: Sl1App, shape: Shape, modes: readonly Sl1Mode[], o: AppMeasureOptions): Record<string, ModeResult> {
  // A measurement is a pure function of the configuration, the application, the shape, the mode
  // and the options: sl1-apps and launch-sweep share theirs (same grid, launch-sweep's modes are a
  // subset), so each is simulated once per process.
  // Only the 'hw' mode depends on l1Split, and only the hardware-L1 modes on l1Allocate: the other
  // modes share their results across them.
  const { l1Split, l1Allocate, ...rest } = o;
  const base = `${JSON.stringify(timingOf(preset))}|${app.id}|${JSON.stringify(shape)}|${JSON.stringify(rest)}|`;
  const alloc = l1Allocate ?? 'preset';
  const keyOf = (m: Sl1Mode): string => base + (m === 'hw' ? `hw@${l1Split ?? SL1_L1_SPLIT}/${alloc}` : m === 'hw48' ? `hw48/${alloc}` : m);
  const out: Record<string, ModeResult> = {};
  const missing = modes.filter((m) => {
    const hit = measureCache.get(keyOf(m));
    if (hit) out[m] = hit;
    return !hit;
  });
  if (missing.length === 0) return out;
  const fresh = measureAppUncached(preset, app, shape, missing, o);
  if (measureCache.size > MEASURE_CACHE_MAX) measureCache.clear();
  for (const m of missing) {
    measureCache.set(keyOf(m), fresh[m]);
    out[m] = fresh[m];
  }
  return out;
}

/** Results of measureApp by configuration, application, shape, options and mode (bounded). */
const measureCache = new Map<string, ModeResult>();
const MEASURE_CACHE_MAX = 2000;

function measureAppUncached(preset: Preset, app: Sl1App, shape: Shape, modes: readonly Sl1Mode[], o: AppMeasureOptions): Record<string, ModeResult> {
  const full = timingOf(preset);
  const cfg = gpuSlice(full, o.sms);
  const launch = launchOf(shape, cfg.sms);
  const nominal = app.nominal(shape.threadsPerSM * full.sms, o.inputBytes);
  const R = nominal.records;
  const probe = app.build({ shape: launch, records: 4, config: cfg, work: o.work });
  const a = accessesPerRecord(probe);
  const W = Math.max(2, Math.ceil(o.windowAccesses / a));
  const Wwarm = Math.max(0, Math.ceil((o.warmAccesses ?? 0) / a));
  // Hardware-L1 runs take the l1Split (SL1 4.1's 16 KB unless asked otherwise; hw48: the 48 KB
  // what-if); no-L1 and S-L1 runs keep the preset's split (48 KB shared, SL1 4.1).
  const hwCfgOf = (mode: Sl1Mode): TimingConfig => withL1Split(withL1Allocate(cfg, o.l1Allocate), mode === 'hw48' ? 48 : (o.l1Split ?? SL1_L1_SPLIT));
  const run = (kernels: Kernel[], l1: 'hw' | 'bypass', c: TimingConfig = cfg): TimingStats =>
    simulate(c, kernels, { l1, scheduler: o.scheduler, seed: o.seed, maxCycles: o.maxCycles, epochCycles: 100_000 });
  // Windows keep the nominal chunk per thread (same address mapping), run fewer records.
  const build = (records: number, c: TimingConfig = cfg, sl1 = false) => app.build({ shape: launch, records, chunk: R, config: c, work: o.work, ...(sl1 ? { sl1 } : {}) });
  const out: Record<string, ModeResult> = {};
  const Wp = Math.min(W, R);
  const warps = launch.grid * Math.ceil(launch.block / 32);
  // Plain windows run the same records as S-L1's computation window (k .. k + W - 1, k = the
  // monitoring phase's length), so every mode is timed on the same part of the chunks.
  const k0 = Math.min(Math.ceil(SL1_MONITOR_ACCESSES / a), Math.max(0, R - Wp));
  // With a warm-up, the window moves Wwarm records later: one launch runs warm-up and window together
  // (threads drift apart as in a long run) and the window is what it adds over a launch of the
  // warm-up's records alone (the cold start cancels).
  const warmP = Math.max(0, Math.min(Wwarm, R - k0 - Wp));
  const plainWindow = (c: TimingConfig): Kernel => {
    const kern = build(k0 + warmP + Wp, c);
    const li = mainLoopIndex(kern);
    if (li < 0 || k0 === 0) return kern;
    const loop = kern.body[li] as LoopInstr;
    return { ...kern, body: kern.body.map((ins, i) => (i === li ? { ...loop, start: (loop.start ?? 0) + k0, count: warmP + Wp } : ins)) };
  };
  /** Runs `kern` (and its lead of `first` main-loop iterations when first > 0): the window's counters. */
  const measure = (kern: Kernel, first: number, l1: 'hw' | 'bypass', c: TimingConfig = cfg): { s: TimingStats; d: Counters } => {
    const s = run([kern], l1, c);
    const w = lead(kern, first);
    return { s, d: w ? minus(counters(s), counters(run([w], l1, c))) : counters(s) };
  };
  for (const mode of modes) {
    if (mode === 'nol1' || mode === 'hw' || mode === 'hw48') {
      const c = mode === 'nol1' ? cfg : hwCfgOf(mode);
      const { s, d } = measure(plainWindow(c), warmP, mode === 'nol1' ? 'bypass' : 'hw', c);
      out[mode] = {
        mode,
        shape,
        cycles: (nominal.waves * R * d.cycles) / Wp,
        stats: s,
        windowCycles: d.cycles,
        instructionsPerRecord: d.warpInstructions / warps / Wp,
        issuedPerRecord: (d.warpInstructions + d.coalescing) / warps / Wp,
        monitorCycles: 0,
        hitRate: mode !== 'nol1' && d.l1Requests > 0 ? d.l1Hits / d.l1Requests : 0,
      };
    }
  }
  const sl1Modes = modes.filter((m) => m.startsWith('sl1'));
  if (sl1Modes.length === 0) return out;
  // The monitoring phase is the same for every S-L1 variant: simulate it once.
  let monitorCycles = -1;
  const nominalKernel = build(R, cfg, true);
  const costs = o.cachedAccessInstructions !== undefined ? { cachedAccessInstructions: o.cachedAccessInstructions } : undefined;
  for (const mode of sl1Modes) {
    const lineBytes = mode === 'sl1-8' ? 8 : mode === 'sl1-24' ? 24 : 16;
    const cacheNothing = mode === 'sl1-none';
    // Decide on the nominal kernel (its monitoring sees the first 300 accesses of each thread).
    const decided = applySl1(cfg, nominalKernel, { lineBytes, cacheNothing, costs });
    const k = decided.decision.monitor.iterations;
    if (monitorCycles < 0) monitorCycles = decided.phases.monitor ? run([decided.phases.monitor], 'bypass').cycles : 0;
    // The computation window: k + W records of the same chunk, the same choice; only its slice runs.
    const warmS = Math.max(0, Math.min(Wwarm, R - k - W));
    const Wc = Math.min(W, R - k - warmS);
    let s: TimingStats | null = null;
    let d: Counters | null = null;
    if (Wc > 0) {
      const win = applySl1(cfg, build(k + warmS + Wc, cfg, true), { lineBytes, cacheNothing, cached: decided.decision.cached, costs });
      if (win.phases.compute) ({ s, d } = measure(win.phases.compute, warmS, 'bypass'));
    }
    const h = d ? d.sl1Hits + d.sl1Misses : 0;
    out[mode] = {
      mode,
      shape,
      cycles: nominal.waves * (monitorCycles + (d && Wc > 0 ? ((R - k) * d.cycles) / Wc : 0)),
      stats: s ?? run([build(1, cfg, true)], 'bypass'),
      windowCycles: d ? d.cycles : 0,
      instructionsPerRecord: d && Wc > 0 ? d.warpInstructions / warps / Wc : 0,
      issuedPerRecord: d && Wc > 0 ? (d.warpInstructions + d.coalescing) / warps / Wc : 0,
      monitorCycles,
      hitRate: d && h > 0 ? d.sl1Hits / h : 0,
      decision: decided.decision,
    };
  }
  return out;
}

/** Every (app, shape, mode) of a study, and each mode's best shape per app (SL1 4.1: the best configuration is reported). */
export interface Study {
  apps: Sl1App[];
  shapes: Shape[];
  modes: Sl1Mode[];
  /** results[app][shapeIndex][mode] */
  results: Record<string, Record<string, ModeResult>[]>;
  best: Record<string, Record<string, ModeResult>>;
}

export function runStudy(
  preset: Preset,
  apps: Sl1App[],
  shapes: Shape[],
  modes: Sl1Mode[],
  o: AppMeasureOptions,
  progress: (done: number, total: number, phase: string) => void,
): Study {
  const results: Study['results'] = {};
  const best: Study['best'] = {};
  const total = apps.length * shapes.length;
  let done = 0;
  for (const app of apps) {
    results[app.id] = [];
    best[app.id] = {};
    for (const shape of shapes) {
      const r = measureApp(preset, app, shape, modes, o);
      results[app.id].push(r);
      for (const m of modes) if (!best[app.id][m] || r[m].cycles < best[app.id][m].cycles) best[app.id][m] = r[m];
      progress(++done, total, `${app.name}, ${shape.threadsPerSM} threads per SMX`);
    }
  }
  return { apps, shapes, modes, results, best };
}

export const mean = (v: readonly number[]): number => (v.length ? v.reduce((a, b) => a + b, 0) / v.length : 0);
