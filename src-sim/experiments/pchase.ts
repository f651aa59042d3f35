import { compilePath } from '../model/compiled';
import type { Reader } from '../model/compiled';
import { Chip, PathModel } from '../model/path';
import type { PathConfig } from '../model/path';
import type { Preset, SpaceId } from '../presets/types';
import { Rng } from '../rng';
import type { Cache } from '../model/cache';
import type { ParamSpec, Progress, Trace, TraceStart } from './types';
import { ExperimentError, MAX_ACCESSES, MAX_TRACE, MAX_TRACE_START } from './types';

/** Bytes of one P-chase element (an unsigned int, as in MEI and WONG). */
export const WORD = 4;

export const SPACE_PARAM: ParamSpec = {
  name: 'space',
  label: 'Memory space',
  unit: '',
  kind: 'enum',
  default: 'global',
  options: ['global', 'global-cg', 'texture', 'constant'],
  description: 'global; global-cg (L1 bypassed, -Xptxas -dlcm=cg); texture (tex1Dfetch on linear memory); constant.',
};

export const JITTER_PARAM: ParamSpec = {
  name: 'jitter',
  label: 'Measurement jitter',
  unit: 'cycles',
  kind: 'number',
  default: 0,
  min: 0,
  max: 50,
  description: 'Seeded uniform noise of +-jitter cycles added to every timed access (0: exact).',
};

export const CLOCK_PARAM: ParamSpec = {
  name: 'clockOverhead',
  label: 'clock() overhead',
  unit: '',
  kind: 'enum',
  default: 'removed',
  options: ['removed', 'included'],
  description: "Whether timed latencies include the preset's clock() read overhead (WONG IV-A) or have it removed as the papers report.",
};

export const TPC_PARAM: ParamSpec = {
  name: 'tpc',
  label: 'TPC placement',
  unit: '',
  kind: 'integer',
  default: -1,
  min: -1,
  max: 63,
  description: 'Which TPC runs the kernel (its interconnect distance changes L2/L3 latency, WONG Figs 11, 17); -1: the mean placement.',
};

/** The memory space's configuration on a preset, refused (naming the parameter) when it has none or the TPC is not there. */
export function checkSpace(preset: Preset, space: SpaceId, tpc = -1): PathConfig {
  let cfg = preset.spaces[space];
  if (!cfg && space === 'global-cg' && preset.spaces.global.levels.every((l) => l.scope !== 'sm')) cfg = preset.spaces.global;
  if (!cfg) {
    const why =
      space === 'constant' || space === 'instruction'
        ? 'the papers measure constant and instruction caches on GT200 only (WONG IV-J, IV-K)'
        : 'the preset does not define it';
    throw new ExperimentError(`${preset.name} has no ${space} memory space: ${why}`, 'space');
  }
  const tpcs = Math.max(1, Math.ceil(preset.chip.sms / preset.chip.smPerTpc));
  if (tpc >= tpcs) throw new ExperimentError(`parameter "tpc" is ${tpc}; ${preset.name} has TPCs 0 to ${tpcs - 1} (or -1 for the mean)`, 'tpc');
  return cfg;
}

/** Opens one memory space of a preset as a model on a fresh chip (a kernel launch). */
export function openSpace(preset: Preset, space: SpaceId, seed: number, tpc = -1, chip?: Chip, sm?: number): PathModel {
  const cfg = checkSpace(preset, space, tpc);
  const offsets = preset.measurement.tpcOffsets;
  const offset = tpc < 0 ? offsets.reduce((a, b) => a + b, 0) / offsets.length : offsets.length === 1 ? offsets[0] : offsets[tpc];
  const c = chip ?? new Chip(seed, preset.chip.smPerTpc, preset.chip.sms);
  return new PathModel(cfg, c, sm ?? (tpc < 0 ? 0 : tpc * preset.chip.smPerTpc), offset);
}

/**
 * The smallest distance between two latency levels that a trace with this jitter supports: with
 * uniform jitter of +-j cycles one level's latencies span 2j, so levels further apart than that are
 * two; without jitter any two distinct latencies are two levels (a 2-cycle step included).
 */
export function levelGap(jitter: number): number {
  return jitter > 0 ? 2 * jitter : 0.5;
}

/** Turns model latencies into what a microbenchmark would read: clock overhead and seeded jitter. */
export class Measurement {
  private readonly rng: Rng;
  constructor(
    readonly overhead: number,
    private readonly jitter: number,
    seed: number,
  ) {
    this.rng = new Rng(Rng.derive(seed, 0x6a17));
  }

  static from(preset: Preset, params: { clockOverhead?: unknown; jitter?: unknown }, seed: number): Measurement {
    const overhead = params.clockOverhead === 'included' ? preset.measurement.clockOverhead : 0;
    return new Measurement(overhead, typeof params.jitter === 'number' ? params.jitter : 0, seed);
  }

  read(latency: number): number {
    if (this.jitter === 0) return latency + this.overhead;
    return latency + this.overhead + (this.rng.next() * 2 - 1) * this.jitter;
  }

  /** For the compiled path: null when a reading is latency + overhead (no jitter), else this. */
  get reader(): Reader | null {
    return this.jitter === 0 ? null : this;
  }
}

/**
 * One line for an experiment's notes when a model's path runs generically rather than compiled for
 * its geometry (model/compiled.ts), else null. Results are the same either way.
 */
export function genericNote(model: PathModel): string | null {
  const c = compilePath(model);
  return typeof c === 'string' ? c : null;
}

/**
 * `count` untimed accesses of a uniform-stride chase from index j (base + j, j advancing by s modulo
 * N); returns the next j. Runs on the path compiled for the model's geometry where there is one.
 */
export function warmChase(model: PathModel, N: number, s: number, count: number, j = 0, base = 0): number {
  const c = compilePath(model);
  if (typeof c !== 'string') {
    c.walk(N, s, base, j, count);
    return c.next;
  }
  for (let i = 0; i < count; i++) {
    model.access(base + j);
    j += s;
    if (j >= N) j -= N;
  }
  return j;
}

export function checkStride(N: number, s: number, nameN = 'size', nameS = 'stride'): void {
  if (s % WORD !== 0) throw new ExperimentError(`parameter "${nameS}" must be a multiple of ${WORD} B (one element)`, nameS);
  if (N % WORD !== 0) throw new ExperimentError(`parameter "${nameN}" must be a multiple of ${WORD} B (one element)`, nameN);
  if (s > N) throw new ExperimentError(`parameter "${nameS}" (${s} B) is larger than "${nameN}" (${N} B)`, nameS);
}

export function checkWork(accesses: number): void {
  if (accesses > MAX_ACCESSES)
    throw new ExperimentError(
      `this run would simulate about ${(accesses / 1e6).toFixed(0)} M accesses, over the limit of ${MAX_ACCESSES / 1e6} M; use a larger stride, fewer sizes or fewer iterations`,
    );
}

/** Accesses per traversal of an array of N bytes with stride s (MEI: A[i] = (i + s) mod N). */
export function traversal(N: number, s: number): number {
  return Math.ceil(N / s);
}

/**
 * Average latency of a uniform-stride P-chase (Saavedra / WONG Listings 1-2): one untimed traversal
 * warms the structures, then `accesses` timed dependent loads. The array is never allocated: the
 * next index is computed.
 */
export function averageChase(model: PathModel, m: Measurement, N: number, s: number, accesses: number, base = 0): number {
  const per = traversal(N, s);
  const c = compilePath(model);
  if (typeof c !== 'string') {
    // The same accesses and the same sum, in the same order, on the path compiled for this geometry.
    c.walk(N, s, base, 0, per);
    return c.walk(N, s, base, c.next, accesses, m.reader, m.overhead) / accesses;
  }
  let j = 0;
  for (let i = 0; i < per; i++) {
    model.access(base + j);
    j += s;
    if (j >= N) j -= N;
  }
  let sum = 0;
  for (let i = 0; i < accesses; i++) {
    sum += m.read(model.access(base + j));
    j += s;
    if (j >= N) j -= N;
  }
  return sum / accesses;
}

/** A recorder of per-access outcomes, bounded to MAX_TRACE (later accesses are counted, not kept). */
export class TraceRecorder {
  readonly trace: Trace;
  private n = 0;
  constructor(capacity: number, levelNames: string[]) {
    const c = Math.min(capacity, MAX_TRACE);
    this.trace = {
      address: new Float64Array(c),
      latency: new Float64Array(c),
      level: new Uint8Array(c),
      tlb: new Uint8Array(c),
      set: new Int32Array(c),
      way: new Int32Array(c),
      evicted: new Float64Array(c),
      levelNames,
      dropped: 0,
    };
  }

  record(model: PathModel, addr: number, latency: number): void {
    const t = this.trace;
    if (this.n >= t.address.length) {
      t.dropped++;
      return;
    }
    const i = this.n++;
    t.address[i] = addr;
    t.latency[i] = latency;
    t.level[i] = model.lastLevel;
    t.tlb[i] = TLB_CODES[model.lastTlb];
    const first = model.caches[0] ?? model.l1Tlb;
    if (first) {
      t.set[i] = first.lastSet;
      t.way[i] = first.lastWay;
      t.evicted[i] = first.lastEvicted;
    } else {
      t.set[i] = -1;
      t.way[i] = -1;
      t.evicted[i] = -1;
    }
  }
}

const TLB_CODES = { '-': 0, l1: 1, l2: 2, miss: 3, inactive: 4 } as const;

/**
 * The state of the structure a trace records (the first cache level, or the L1 TLB) as it stands,
 * after `accesses` unrecorded ones: what the cache view starts its replay from. Null when it holds
 * nothing (a cold start), when the path has neither, or past MAX_TRACE_START slots.
 */
export function traceStart(model: PathModel, accesses: number): TraceStart | null {
  const c: Cache | null = model.caches[0] ?? model.l1Tlb;
  if (!c || c.lines > MAX_TRACE_START || !c.tags.some((t) => t >= 0)) return null;
  const age = new Int32Array(c.lines);
  for (let set = 0; set < c.sets; set++) {
    const order = c.ageOrder(set);
    if (!order) continue;
    // Oldest first: count the valid slots from the newest end.
    let rank = 0;
    for (let k = order.length - 1; k >= 0; k--) if (c.tags[order[k]] >= 0) age[order[k]] = ++rank;
  }
  return { accesses, lines: Float64Array.from(c.tags), age };
}

/**
 * Fine-grained P-chase (MEI Listing 4): k timed dependent loads following `next`, every latency and
 * index recorded. Returns the trace (bounded). `warmed`: accesses the model ran before (a warm-up
 * pass, not recorded); when they left the traced structure holding lines, the trace keeps its state
 * as `start` (traceStart), so that a replay of the trace can begin where the recorded pass began.
 */
export function fineChase(
  model: PathModel,
  m: Measurement,
  addresses: (i: number) => number,
  k: number,
  progress?: Progress,
  warmed = 0,
): Trace {
  const rec = new TraceRecorder(k, [...model.config.levels.map((l) => l.name), 'memory']);
  const start = warmed > 0 ? traceStart(model, warmed) : null;
  if (start) rec.trace.start = start;
  const tick = Math.max(1, Math.floor(k / 50));
  const c = compilePath(model);
  if (typeof c !== 'string') {
    // The same loop on the path compiled for this geometry (the recorder is fresh: it keeps the first
    // accesses up to its capacity and counts the rest).
    c.trace(addresses, k, rec.trace, rec.trace.address.length, m.reader, m.overhead, progress ?? null, tick);
    return rec.trace;
  }
  for (let i = 0; i < k; i++) {
    const addr = addresses(i);
    rec.record(model, addr, m.read(model.access(addr)));
    if (progress && i % tick === 0) progress(i, k, 'chasing');
  }
  return rec.trace;
}
