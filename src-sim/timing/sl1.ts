/**
 * S-L1, the software L1 cache of SL1 (Mokhtari and Stumm 2015), as pure functions over the timing
 * tier's kernel IR:
 *  - `clnFor` / `sl1Capacity`: the number of thread-private lines per thread (SL1 3.1);
 *  - `monitorKernel`: the monitoring phase (SL1 3.2.1): simulateCache() over the first 300 accesses
 *    of each (sampled) thread, one simulated line per thread and data structure;
 *  - `chooseStructures`: what to cache (SL1 3.2.2: the CLN structures with most hits, only above a
 *    50 % hit rate, read-only first unless a read-write structure has twice the hits);
 *  - `applySl1`: the two-slice transform (SL1 3.2: monitoring slice with simulateCache's extra
 *    instructions, then the computation slice whose accesses go `via: 'sl1'`, `kernel.sl1` set).
 * Everything returns data (`Sl1Decision`) so experiments can show what S-L1 decided and why.
 */
import { evalIndex as engineEvalIndex, layoutArrays } from './layout';
import type { IndexExpr, Instr, Kernel, KernelArray, Sl1Config, TimingConfig } from './types';

/** SL1 3.2.1: simulateCache() calls per thread before the monitoring phase ends. */
export const SL1_MONITOR_ACCESSES = 300;
/** SL1 3.2.2: a structure is cached only above this hit rate. */
export const SL1_MIN_HIT_RATE = 0.5;
/** SL1 3.2.2: a read-write structure wins over a read-only one only with this many times its hits. */
export const SL1_READ_WRITE_FACTOR = 2;
/** SL1 3.1: 16 B lines (the widest load); SL1 4.5 also tries 8 and 24 B. */
export const SL1_LINE_SIZES = [8, 16, 24] as const;
export const SL1_DEFAULT_LINE = 16;
/** The widest load/store of the ISA (SL1 3.1, 4.5): a line wider than this needs several loads. */
export const SL1_WIDEST_ACCESS = 16;

/**
 * Instruction costs of the caching layer. SL1 3.3: "for accesses to non-cached data structures,
 * the performance overhead entails the execution of four extra machine instructions"; a miss and a
 * write-back cost more (SL1 3.3: "significantly more overhead ... when evicting a cache line";
 * 3.2.2: read-write accesses execute twice as many instructions on average). The miss and
 * write-back counts and simulateCache()'s cost are assumed from the pseudo code of SL1 3.2.1/3.2.3
 * (a shift, a compare, a branch, an increment and a conditional update; a miss: line address,
 * loads, store into shared memory, tag update).
 */
export const SL1_COSTS = {
  accessInstructions: 4,
  missInstructions: 8,
  writebackInstructions: 8,
  /**
   * Further instructions before every access to a cached structure (alreadyCached(): line address,
   * tag compare, branch; the offset into the line; the generic-pointer load of SL1 3.2.3's returned
   * address), inserted by the transform as a dependent chain. SL1 gives no count (4.4: "a minimum of
   * 4 and potentially well over 100 extra instructions ... for each memory access"); 4 assumed.
   * docs/SL1.md: 28 with a work scale of 6.5 would match both of SL1 Fig 11's means (executed
   * +220 %, issued +25 %), at the cost of Fig 12's overhead.
   */
  cachedAccessInstructions: 4,
  /** simulateCache(): divide (shift), compare, branch, increment, conditional tag update. */
  monitorInstructions: 5,
  /** calculateWhatToCache(): per structure (negligible, SL1 3.3). */
  choiceInstructionsPerStructure: 2,
} as const;

// ---------------------------------------------------------------------------------------------
// CLN (SL1 3.1)
// ---------------------------------------------------------------------------------------------

/**
 * SL1 3.1: CLN = floor((shMemSizePerSM / numThreadsPerSM) / cacheLineSize), where
 * shMemSizePerSM is what the application leaves: its own shared memory is subtracted first.
 * 0 when nothing (or less than a line per thread) is left.
 */
export function clnFor(args: { sharedBytesPerSM: number; appSharedBytesPerSM: number; threadsPerSM: number; lineBytes: number }): number {
  const { sharedBytesPerSM, appSharedBytesPerSM, threadsPerSM, lineBytes } = args;
  if (!(threadsPerSM > 0) || !(lineBytes > 0)) return 0;
  const avail = Math.max(0, sharedBytesPerSM - appSharedBytesPerSM);
  return Math.max(0, Math.floor(Math.floor(avail / threadsPerSM) / lineBytes));
}

/**
 * Shared memory the application itself takes per block: its own allocation plus its shared arrays
 * (as the engine counts it, before S-L1's lines).
 */
export function appSharedBytesPerBlock(kernel: Pick<Kernel, 'sharedBytesPerBlock'> & Partial<Pick<Kernel, 'arrays'>>): number {
  let b = kernel.sharedBytesPerBlock ?? 0;
  for (const a of kernel.arrays ?? []) if (a.space === 'shared') b += a.length * a.elemBytes;
  return b;
}

/** Blocks and threads resident on one SM for a launch (the same limits the engine dispatches by). */
export function residency(
  config: TimingConfig,
  kernel: Pick<Kernel, 'grid' | 'block' | 'sharedBytesPerBlock'> & Partial<Pick<Kernel, 'arrays'>>,
): { blocksPerSM: number; threadsPerSM: number } {
  const warpsPerBlock = Math.ceil(kernel.block / 32);
  let fit = Math.min(config.maxBlocksPerSM, Math.floor(config.maxThreadsPerSM / kernel.block), Math.floor(config.maxWarpsPerSM / warpsPerBlock));
  const shm = appSharedBytesPerBlock(kernel);
  if (shm > 0) fit = Math.min(fit, Math.floor(config.shared.bytesPerSM / shm));
  const blocksPerSM = Math.max(0, Math.min(fit, Math.ceil(kernel.grid / config.sms)));
  return { blocksPerSM, threadsPerSM: blocksPerSM * kernel.block };
}

export interface Sl1Capacity {
  lineBytes: number;
  blocksPerSM: number;
  threadsPerSM: number;
  /** Shared memory the application itself holds on one SM (its per-block allocation and shared arrays x resident blocks). */
  appSharedBytesPerSM: number;
  /** Shared memory left for S-L1 on one SM. */
  availableBytesPerSM: number;
  cln: number;
}

/** CLN of a kernel on a configuration (SL1 3.1), with the numbers it came from. */
export function sl1Capacity(config: TimingConfig, kernel: Kernel, lineBytes = SL1_DEFAULT_LINE): Sl1Capacity {
  const { blocksPerSM, threadsPerSM } = residency(config, kernel);
  const appSharedBytesPerSM = appSharedBytesPerBlock(kernel) * blocksPerSM;
  const cln = clnFor({ sharedBytesPerSM: config.shared.bytesPerSM, appSharedBytesPerSM, threadsPerSM, lineBytes });
  return {
    lineBytes,
    blocksPerSM,
    threadsPerSM,
    appSharedBytesPerSM,
    availableBytesPerSM: Math.max(0, config.shared.bytesPerSM - appSharedBytesPerSM),
    cln,
  };
}

// ---------------------------------------------------------------------------------------------
// Addresses (must agree with the engine's layout; see arrayBases)
// ---------------------------------------------------------------------------------------------

/**
 * Byte address of element 0 of every global array of `kernel` run alone: the engine's own layout
 * (./layout.ts: declaration order from `baseAddress`, each aligned up to 4 KB).
 */
export function arrayBases(kernel: Pick<Kernel, 'arrays'>, baseAddress = 0): Map<string, number> {
  return layoutArrays([kernel as Kernel], baseAddress);
}

/** The engine's element index (./layout.ts): offset + sum of coef * ((floor(v / div)) mod mod), floored, clamped. */
export const evalIndex = engineEvalIndex;

// ---------------------------------------------------------------------------------------------
// The main loop and its accesses
// ---------------------------------------------------------------------------------------------

type Loop = Extract<Instr, { op: 'loop' }>;

function loopStart(l: Loop): number {
  return (l as Loop & { start?: number }).start ?? 0;
}

/** Memory instructions to global arrays executed by one pass over `body` (nested loops unrolled). */
function dynamicAccesses(body: readonly Instr[], isGlobal: (name: string) => boolean): number {
  let n = 0;
  for (const ins of body) {
    if ((ins.op === 'ld' || ins.op === 'st') && isGlobal(ins.array)) n++;
    else if (ins.op === 'loop') n += ins.count * dynamicAccesses(ins.body, isGlobal);
  }
  return n;
}

/**
 * The kernel's main loop (SL1 3.2: "the main loop(s) of the GPU kernel"): the top-level loop that
 * executes the most global accesses; -1 when the body has no loop with global accesses.
 */
export function mainLoopIndex(kernel: Kernel): number {
  const isGlobal = globalTest(kernel);
  let best = -1;
  let bestN = 0;
  kernel.body.forEach((ins, i) => {
    if (ins.op !== 'loop') return;
    const n = dynamicAccesses([ins], isGlobal);
    if (n > bestN) {
      best = i;
      bestN = n;
    }
  });
  return best;
}

function globalTest(kernel: Kernel): (name: string) => boolean {
  const g = new Set(kernel.arrays.filter((a) => a.space === 'global').map((a) => a.name));
  return (name) => g.has(name);
}

/** Iterations of the main loop the monitoring slice runs: until 300 simulateCache() calls (SL1 3.2.1). */
export function monitorIterations(loop: Loop, isGlobal: (name: string) => boolean, threshold = SL1_MONITOR_ACCESSES): number {
  const per = dynamicAccesses(loop.body, isGlobal);
  if (per === 0) return 0;
  return Math.min(loop.count, Math.ceil(threshold / per));
}

// ---------------------------------------------------------------------------------------------
// Monitoring phase (SL1 3.2.1)
// ---------------------------------------------------------------------------------------------

export interface StructureStats {
  name: string;
  readWrite: boolean;
  elemBytes: number;
  hits: number;
  misses: number;
  /** hits / (hits + misses); 0 when never accessed. */
  hitRate: number;
}

export interface MonitorResult {
  lineBytes: number;
  /** Threads whose monitoring phase was simulated (an even sample of all threads). */
  threadsSampled: number;
  totalThreads: number;
  /** Main-loop iterations of the monitoring slice, and global accesses each thread simulated. */
  iterations: number;
  accessesPerThread: number;
  structures: StructureStats[];
}

/** Threads whose monitoring phase is simulated: all when few, else this many spread evenly. */
export const SL1_MONITOR_SAMPLE = 512;

/**
 * SL1 3.2.1's simulateCache() for every global access of the first `iterations` iterations of the
 * main loop, per thread and data structure: one simulated line per (thread, structure) holding
 * `addr / lineBytes`; equal -> hit, else miss and the line takes the new address. Counts are summed
 * over the sampled threads. Addresses as `arrayBases` and `evalIndex` compute them.
 */
export function monitorKernel(
  kernel: Kernel,
  opts: { lineBytes?: number; threshold?: number; sample?: number; baseAddress?: number } = {},
): MonitorResult {
  const lineBytes = opts.lineBytes ?? SL1_DEFAULT_LINE;
  const isGlobal = globalTest(kernel);
  const globals = kernel.arrays.filter((a) => a.space === 'global');
  const ids = new Map(globals.map((a, i) => [a.name, i] as const));
  const bases = arrayBases(kernel, opts.baseAddress ?? 0);
  const hits = new Float64Array(globals.length);
  const misses = new Float64Array(globals.length);
  const totalThreads = kernel.grid * kernel.block;
  const li = mainLoopIndex(kernel);
  const result = (threadsSampled: number, iterations: number, accessesPerThread: number): MonitorResult => ({
    lineBytes,
    threadsSampled,
    totalThreads,
    iterations,
    accessesPerThread,
    structures: globals.map((a, i) => {
      const n = hits[i] + misses[i];
      return { name: a.name, readWrite: !!a.readWrite, elemBytes: a.elemBytes, hits: hits[i], misses: misses[i], hitRate: n ? hits[i] / n : 0 };
    }),
  });
  if (li < 0 || totalThreads === 0) return result(0, 0, 0);
  const loop = kernel.body[li] as Loop;
  const iterations = monitorIterations(loop, isGlobal, opts.threshold ?? SL1_MONITOR_ACCESSES);
  const sampleN = Math.min(totalThreads, opts.sample ?? SL1_MONITOR_SAMPLE);
  const lines = new Float64Array(globals.length);
  const byName = new Map(kernel.arrays.map((a) => [a.name, a] as const));
  // Each global load and store, looked up once: its structure, base address and array.
  const globalAccess = new Map<Instr, { id: number; base: number; length: number; elemBytes: number }>();
  const collect = (body: readonly Instr[]): void => {
    for (const ins of body) {
      if ((ins.op === 'ld' || ins.op === 'st') && isGlobal(ins.array)) {
        const a = byName.get(ins.array) as KernelArray;
        globalAccess.set(ins, { id: ids.get(ins.array) as number, base: bases.get(ins.array) as number, length: a.length, elemBytes: a.elemBytes });
      } else if (ins.op === 'loop') collect(ins.body);
    }
  };
  collect(loop.body);
  let accessesPerThread = 0;
  for (let s = 0; s < sampleN; s++) {
    const gtid = Math.floor((s * totalThreads) / sampleN);
    const vars: Record<string, number> = {
      tid: gtid % kernel.block,
      bid: Math.floor(gtid / kernel.block),
      gtid,
      bdim: kernel.block,
      gdim: kernel.grid,
    };
    lines.fill(-1);
    let count = 0;
    const visit = (body: readonly Instr[]): void => {
      for (const ins of body) {
        if (ins.op === 'ld' || ins.op === 'st') {
          const g = globalAccess.get(ins);
          if (g === undefined) continue;
          const addr = g.base + evalIndex(ins.index, vars, g.length) * g.elemBytes;
          const id = g.id;
          const line = Math.floor(addr / lineBytes);
          if (line === lines[id]) hits[id]++;
          else {
            misses[id]++;
            lines[id] = line;
          }
          count++;
        } else if (ins.op === 'loop') {
          const saved = vars[ins.var];
          const start = loopStart(ins);
          for (let k = 0; k < ins.count; k++) {
            vars[ins.var] = start + k;
            visit(ins.body);
          }
          // (restored, or left undefined: a delete would put vars in dictionary mode)
          vars[ins.var] = saved;
        }
      }
    };
    const start = loopStart(loop);
    for (let k = 0; k < iterations; k++) {
      vars[loop.var] = start + k;
      visit(loop.body);
    }
    accessesPerThread = count;
  }
  return result(sampleN, iterations, accessesPerThread);
}

// ---------------------------------------------------------------------------------------------
// What to cache (SL1 3.2.2)
// ---------------------------------------------------------------------------------------------

export interface StructureChoice extends StructureStats {
  cached: boolean;
  /** Line slot 0..CLN-1 when cached. */
  slot?: number;
  /** Why it is or is not cached, in words. */
  reason: string;
}

/**
 * SL1 3.2.2: up to `cln` structures, each above a 50 % hit rate; picked one at a time: the
 * read-only candidate with most hits, unless the best read-write candidate has at least twice its
 * hits (or no read-only candidate is left). Structures outside `allowed` (e.g. atomics) are never cached.
 */
export function chooseStructures(stats: readonly StructureStats[], cln: number, allowed?: (name: string) => boolean): StructureChoice[] {
  const out: StructureChoice[] = stats.map((s) => ({ ...s, cached: false, reason: '' }));
  const eligible = out.filter((s) => (allowed ? allowed(s.name) : true) && s.hitRate > SL1_MIN_HIT_RATE);
  const byHits = (a: StructureChoice, b: StructureChoice): number => b.hits - a.hits || stats.indexOf(a) - stats.indexOf(b);
  const ro = eligible.filter((s) => !s.readWrite).sort(byHits);
  const rw = eligible.filter((s) => s.readWrite).sort(byHits);
  let slot = 0;
  while (slot < cln && (ro.length || rw.length)) {
    const r = ro[0];
    const w = rw[0];
    const pick = !r ? rw.shift() : w && w.hits >= SL1_READ_WRITE_FACTOR * r.hits ? rw.shift() : ro.shift();
    const p = pick as StructureChoice;
    p.cached = true;
    p.slot = slot++;
    p.reason =
      p.readWrite && r
        ? `read-write with ${p.hits} hits, at least ${SL1_READ_WRITE_FACTOR}x the best read-only (${r.hits})`
        : `hit rate ${(p.hitRate * 100).toFixed(1)} % above ${SL1_MIN_HIT_RATE * 100} %, rank ${p.slot + 1} of ${cln}`;
  }
  for (const s of out) {
    if (s.cached) continue;
    if (allowed && !allowed(s.name)) s.reason = 'not cacheable';
    else if (s.hits + s.misses === 0) s.reason = 'not accessed in the monitoring phase';
    else if (!(s.hitRate > SL1_MIN_HIT_RATE)) s.reason = `hit rate ${(s.hitRate * 100).toFixed(1)} % not above ${SL1_MIN_HIT_RATE * 100} %`;
    else if (cln === 0) s.reason = 'no line per thread (CLN = 0)';
    else s.reason = `outranked: all ${cln} line(s) taken`;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The transform (SL1 3.2)
// ---------------------------------------------------------------------------------------------

export interface Sl1Options {
  lineBytes?: number;
  /** Monitoring threshold (simulateCache() calls per thread). */
  threshold?: number;
  /** Threads sampled by the monitoring simulation. */
  sample?: number;
  baseAddress?: number;
  /** SL1 Fig 12: S-L1 enabled but every structure marked non-cacheable. */
  cacheNothing?: boolean;
  /** Instruction costs (defaults SL1_COSTS). */
  costs?: Partial<Record<keyof typeof SL1_COSTS, number>>;
  /**
   * Cache these structures (in this slot order) instead of the monitoring phase's choice: for
   * experiments that decide on the nominal kernel and then run a shorter window of it.
   */
  cached?: readonly string[];
}

export interface Sl1Decision {
  kernel: string;
  capacity: Sl1Capacity;
  monitor: MonitorResult;
  structures: StructureChoice[];
  /** Names of the cached structures, in slot order. */
  cached: string[];
  /** Whether a main loop was found and split (false: the kernel is returned unchanged). */
  transformed: boolean;
}

export interface Sl1Result {
  kernel: Kernel;
  decision: Sl1Decision;
  /**
   * The two phases as kernels of their own (null where empty): `monitor` is the code before the
   * main loop, the monitoring slice and calculateWhatToCache(); `compute` the computation slice
   * and the code after it, with `sl1` set. Running them one after the other is `kernel`; running
   * `compute` with a shorter slice measures S-L1's steady state (experiments extrapolate).
   */
  phases: { monitor: Kernel | null; compute: Kernel | null };
}

function shiftIndex(expr: IndexExpr, v: string, by: number): IndexExpr {
  let offset = expr.offset ?? 0;
  for (const t of expr.terms) {
    if (t.var !== v) continue;
    if (t.div !== undefined || t.mod !== undefined)
      throw new Error(`S-L1 cannot split a loop over "${v}" used under div/mod without loop start offsets`);
    offset += t.coef * by;
  }
  return { terms: expr.terms.map((t) => ({ ...t })), offset };
}

/** Deep-copies `body`, shifting the loop variable `v` by `by` in every index (for engines without loop starts). */
function shiftBody(body: readonly Instr[], v: string, by: number): Instr[] {
  return body.map((ins): Instr => {
    if (ins.op === 'ld' || ins.op === 'st') return { ...ins, index: shiftIndex(ins.index, v, by) };
    if (ins.op === 'loop') return { ...ins, body: ins.var === v ? ins.body : shiftBody(ins.body, v, by) };
    return { ...ins };
  });
}

/** Monitoring slice body: every global access followed by simulateCache()'s instructions. */
function monitorBody(body: readonly Instr[], isGlobal: (n: string) => boolean, perAccess: number): Instr[] {
  const out: Instr[] = [];
  for (const ins of body) {
    if (ins.op === 'loop') out.push({ ...ins, body: monitorBody(ins.body, isGlobal, perAccess) });
    else out.push({ ...ins });
    if ((ins.op === 'ld' || ins.op === 'st') && isGlobal(ins.array) && perAccess > 0) out.push({ op: 'alu', count: perAccess });
  }
  return out;
}

/**
 * Computation slice body: every global access goes through the caching layer (`via: 'sl1'`); an
 * access to a cached structure is preceded by the hit path's own instructions.
 */
function sl1Body(body: readonly Instr[], isGlobal: (n: string) => boolean, cached: ReadonlySet<string>, hitPath: number): Instr[] {
  const out: Instr[] = [];
  for (const ins of body) {
    if ((ins.op === 'ld' || ins.op === 'st') && isGlobal(ins.array)) {
      if (hitPath > 0 && cached.has(ins.array)) out.push({ op: 'alu', count: hitPath });
      out.push({ ...ins, via: 'sl1' });
    } else if (ins.op === 'loop') out.push({ ...ins, body: sl1Body(ins.body, isGlobal, cached, hitPath) });
    else out.push({ ...ins });
  }
  return out;
}

function usesUnderDivMod(body: readonly Instr[], v: string): boolean {
  return body.some((ins) =>
    ins.op === 'ld' || ins.op === 'st'
      ? ins.index.terms.some((t) => t.var === v && (t.div !== undefined || t.mod !== undefined))
      : ins.op === 'loop' && ins.var !== v && usesUnderDivMod(ins.body, v),
  );
}

/**
 * The S-L1 form of `kernel` (SL1 3.2): the main loop split into a monitoring slice of
 * `monitorIterations` iterations (simulateCache() after each global access) and a computation slice
 * over the rest whose global accesses go `via: 'sl1'`, with `calculateWhatToCache()` between them;
 * `kernel.sl1` names the cached structures' slots. Accesses outside the main loop are untouched.
 */
export function applySl1(config: TimingConfig, kernel: Kernel, opts: Sl1Options = {}): Sl1Result {
  const lineBytes = opts.lineBytes ?? SL1_DEFAULT_LINE;
  const costs = { ...SL1_COSTS, ...opts.costs };
  const capacity = sl1Capacity(config, kernel, lineBytes);
  const monitor = monitorKernel(kernel, { lineBytes, threshold: opts.threshold, sample: opts.sample, baseAddress: opts.baseAddress });
  const structures = chooseStructures(monitor.structures, opts.cacheNothing ? 0 : capacity.cln);
  if (opts.cacheNothing) for (const s of structures) s.reason = 'S-L1 enabled, nothing cached (SL1 Fig 12)';
  else if (opts.cached) {
    for (const s of structures) {
      const slot = opts.cached.indexOf(s.name);
      s.cached = slot >= 0;
      if (slot >= 0) s.slot = slot;
      else delete s.slot;
      s.reason = slot >= 0 ? 'chosen by the monitoring phase of the nominal run' : 'not chosen by the monitoring phase of the nominal run';
    }
  }
  const cachedChoices = structures.filter((s) => s.cached).sort((a, b) => (a.slot as number) - (b.slot as number));
  const cached = cachedChoices.map((s) => s.name);
  const li = mainLoopIndex(kernel);
  const decision: Sl1Decision = { kernel: kernel.name, capacity, monitor, structures, cached, transformed: li >= 0 };
  if (li < 0) return { kernel: { ...kernel }, decision, phases: { monitor: null, compute: null } };

  const isGlobal = globalTest(kernel);
  const loop = kernel.body[li] as Loop;
  const k = monitor.iterations;
  const start = loopStart(loop);
  const slots: Record<string, number> = {};
  for (const s of cachedChoices) slots[s.name] = s.slot as number;
  const sl1: Sl1Config = {
    lineBytes,
    slots,
    accessInstructions: costs.accessInstructions,
    missInstructions: costs.missInstructions,
    writebackInstructions: costs.writebackInstructions,
  };
  const monitorSlice: Instr[] = [];
  if (k > 0) monitorSlice.push({ ...loop, count: k, body: monitorBody(loop.body, isGlobal, costs.monitorInstructions) });
  const nGlobal = kernel.arrays.filter((a) => a.space === 'global').length;
  if (costs.choiceInstructionsPerStructure > 0 && nGlobal > 0) monitorSlice.push({ op: 'alu', count: costs.choiceInstructionsPerStructure * nGlobal });
  const slices: Instr[] = [];
  if (loop.count - k > 0) {
    const body = sl1Body(loop.body, isGlobal, new Set(cached), costs.cachedAccessInstructions);
    if (k === 0) slices.push({ ...loop, body });
    // Linear uses of the loop variable are shifted into the index offsets; a variable under div/mod
    // needs the loop to start at k (Instr loop `start`).
    else if (usesUnderDivMod(body, loop.var)) slices.push({ ...loop, start: start + k, count: loop.count - k, body } as Loop);
    else slices.push({ ...loop, count: loop.count - k, body: shiftBody(body, loop.var, k) });
  }
  const prefix = kernel.body.slice(0, li);
  const suffix = kernel.body.slice(li + 1);
  const out: Kernel = { ...kernel, name: `${kernel.name} (S-L1)`, body: [...prefix, ...monitorSlice, ...slices, ...suffix], sl1 };
  const monitorBodyAll = [...prefix, ...monitorSlice];
  const computeBodyAll = [...slices, ...suffix];
  const phases = {
    monitor: monitorBodyAll.length ? { ...kernel, name: `${kernel.name} (S-L1 monitoring)`, body: monitorBodyAll } : null,
    compute: computeBodyAll.length ? { ...kernel, name: `${kernel.name} (S-L1 computation)`, body: computeBodyAll, sl1 } : null,
  };
  return { kernel: out, decision, phases };
}
