import { Rng } from '../rng';
import { Cache } from './cache';
import type { CacheGeometry } from './types';

/** Where a cache level lives, which decides who shares it (WONG IV-J4). */
export type Scope = 'sm' | 'tpc' | 'chip';

export interface CacheLevelConfig {
  /** Names the physical cache: two paths with a level of the same name on one chip share it
   *  (constant and instruction L2/L3 on GT200, WONG IV-J5). */
  name: string;
  sizeBytes: number;
  geometry: CacheGeometry;
  scope: Scope;
  /**
   * A cache split into partitions with a near and a far side (A100 and H100 L2: two partitions, an
   * SM reaching the far one pays more). Stated, not simulated: the level is one cache, and its
   * latency-table entries are the papers' measured hit latency. `farLatencyRatio` is the far
   * partition's hit latency over the near one's.
   */
  partitions?: { count: number; farLatencyRatio: number };
}

/** TLB lookup outcome, the column of a latency table. '-' means no translation was needed. */
export type TlbOutcome = '-' | 'l1' | 'l2' | 'miss' | 'inactive';
export const TLB_OUTCOMES: readonly TlbOutcome[] = ['-', 'l1', 'l2', 'miss', 'inactive'];

export interface TranslationConfig {
  pageBytes: number;
  l1: CacheLevelConfig;
  l2: CacheLevelConfig;
  /** Kepler (MEI pattern 6): only this many bytes of page entries are active at launch; an L2 TLB miss
   *  outside the active window switches page tables. Absent: no window. */
  activeWindowBytes?: number;
  /** Leading cache levels looked up before translation (virtually indexed); a hit there skips the TLBs. */
  virtualLevels: number;
}

export interface PathConfig {
  description: string;
  levels: CacheLevelConfig[];
  translation?: TranslationConfig;
  /** Latency in core cycles keyed `${level name or 'memory'}/${TLB outcome}`. */
  latency: Record<string, number>;
  /** Index of the first level (levels.length = memory) reached over the interconnect, whose latency
   *  depends on TPC placement (WONG Figs 11, 17). */
  interconnectFrom: number;
}

export function latencyKey(level: string, tlb: TlbOutcome): string {
  return `${level}/${tlb}`;
}

/** The latency-table keys a path can produce: what the validator requires to be present. */
export function requiredLatencyKeys(path: PathConfig): string[] {
  const keys: string[] = [];
  const names = [...path.levels.map((l) => l.name), 'memory'];
  const t = path.translation;
  names.forEach((name, i) => {
    if (!t) keys.push(latencyKey(name, '-'));
    else if (i < t.virtualLevels) keys.push(latencyKey(name, '-'));
    else {
      keys.push(latencyKey(name, 'l1'), latencyKey(name, 'l2'), latencyKey(name, 'miss'));
      if (t.activeWindowBytes !== undefined) keys.push(latencyKey(name, 'inactive'));
    }
  });
  return keys;
}

const TLB_CODE: Record<TlbOutcome, number> = { '-': 0, l1: 1, l2: 2, miss: 3, inactive: 4 };

/**
 * The caches of one simulated chip, keyed by level name and scope instance, so that paths built for
 * different SMs share exactly what the hardware shares. Every cache gets its own derived seed.
 */
export class Chip {
  private readonly caches = new Map<string, Cache>();
  private created = 0;
  constructor(
    readonly seed: number,
    readonly smPerTpc: number,
  ) {}

  cacheFor(level: CacheLevelConfig, sm: number): Cache {
    const inst = level.scope === 'sm' ? `sm${sm}` : level.scope === 'tpc' ? `tpc${Math.floor(sm / this.smPerTpc)}` : 'chip';
    const key = `${level.name}@${inst}`;
    let c = this.caches.get(key);
    if (!c) {
      c = new Cache(level.geometry, Rng.derive(this.seed, this.created++));
      this.caches.set(key, c);
    }
    return c;
  }
}

/**
 * One memory space as seen from one SM: its cache levels in order, optionally two TLB levels placed
 * after `virtualLevels` caches, and a latency table looked up by (level hit, TLB outcome).
 * `access` allocates nothing.
 */
export class PathModel {
  // Fields are `declare`d and set in the constructor (see Cache: an ES2022 class field would start
  // as undefined and keep its numbers boxed).
  declare readonly config: PathConfig;
  declare readonly caches: Cache[];
  declare readonly l1Tlb: Cache | null;
  declare readonly l2Tlb: Cache | null;
  /** Outcome of the last access: level index that hit (levels.length = memory). */
  declare lastLevel: number;
  /** Outcome of the last access: TLB outcome code (index into TLB_OUTCOMES). */
  declare lastTlbCode: number;

  private declare readonly table: Float64Array;
  private declare readonly nLevels: number;
  private declare readonly virtualLevels: number;
  private declare readonly window: number;
  private declare activeWindow: number;
  private declare readonly tpcOffset: number;

  constructor(config: PathConfig, chip: Chip, sm = 0, tpcOffset = 0) {
    this.config = config;
    this.nLevels = config.levels.length;
    this.caches = config.levels.map((l) => chip.cacheFor(l, sm));
    const t = config.translation;
    this.l1Tlb = t ? chip.cacheFor(t.l1, sm) : null;
    this.l2Tlb = t ? chip.cacheFor(t.l2, sm) : null;
    this.lastLevel = 0;
    this.lastTlbCode = 0;
    this.virtualLevels = t ? t.virtualLevels : this.nLevels + 1;
    this.window = t?.activeWindowBytes ?? 0;
    this.activeWindow = 0;
    this.tpcOffset = tpcOffset;
    this.table = new Float64Array((this.nLevels + 1) * 5).fill(NaN);
    const names = [...config.levels.map((l) => l.name), 'memory'];
    for (let i = 0; i <= this.nLevels; i++) {
      for (const o of TLB_OUTCOMES) {
        const v = config.latency[latencyKey(names[i], o)];
        if (v !== undefined) this.table[i * 5 + TLB_CODE[o]] = v + (i >= config.interconnectFrom ? tpcOffset : 0);
      }
    }
  }

  /** Outcome of the last access: TLB outcome. */
  get lastTlb(): TlbOutcome {
    return TLB_OUTCOMES[this.lastTlbCode];
  }

  /** Translates through the TLBs; returns the outcome code. */
  private translate(addr: number): number {
    if ((this.l1Tlb as Cache).access(addr)) return 1;
    if ((this.l2Tlb as Cache).access(addr)) return 2;
    return this.window > 0 ? this.windowMiss(addr) : 3; // (apart: keeps translate small enough to inline)
  }

  /** An L2 TLB miss under an active page window (Kepler): 4 when it switches the window, else 3. */
  private windowMiss(addr: number): number {
    const w = Math.floor(addr / this.window);
    if (w === this.activeWindow) return 3;
    this.activeWindow = w;
    return 4;
  }

  /** One dependent load of the byte address `addr`; returns its latency in cycles. */
  access(addr: number): number {
    const caches = this.caches;
    const n = this.nLevels;
    let tlb = 0;
    let level = 0;
    // Translation comes right before level `virtualLevels` (memory when it equals n; never beyond).
    if (this.virtualLevels === 0) tlb = this.translate(addr);
    while (level < n && !caches[level].access(addr)) {
      level++;
      if (level === this.virtualLevels) tlb = this.translate(addr);
    }
    this.lastLevel = level;
    this.lastTlbCode = tlb;
    const v = this.table[level * 5 + tlb];
    if (v !== v) this.noLatency(level); // (apart: the message's code would count against inlining)
    return v;
  }

  private noLatency(level: number): never {
    throw new Error(`latency table has no entry for ${this.levelName(level)}/${this.lastTlb}`);
  }

  levelName(level: number): string {
    return level < this.nLevels ? this.config.levels[level].name : 'memory';
  }
}
