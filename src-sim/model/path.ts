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
   * SM reaching the far one pays more). The level is `count` caches of `sizeBytes / count` each
   * (its sets divided among them), shared chip-wide like the level itself.
   *
   * - Home partition of an address: `floor(addr / interleaveBytes) mod count` (granules dealt
   *   round-robin, no hash). Within its partition a line is indexed by its partition-local address,
   *   the address with that granule digit removed, so every set of every partition holds lines.
   * - Near partition of SM `sm` on a chip of `sms` SMs: `floor(sm * count / sms)` (the SMs split into
   *   `count` contiguous halves, quarters...); `sm mod count` where the chip's SM count is not known.
   * - Latency: an access whose home is the near partition takes the latency table's entry. A far one
   *   pays `extra = near hit latency x (farLatencyRatio - 1)` on top of the entry, whether it hits
   *   there or misses to the levels beyond (the request crosses to the far partition before DRAM).
   *   The near hit latency is the level's lowest table entry (its hit under the cheapest
   *   translation), so a TLB miss's penalty is not scaled by the ratio.
   * - `replicateFar`: a far access first looks up a copy in the near partition (a hit there takes the
   *   near latency); on a miss the home partition is accessed (hit or fill, with the far latency) and
   *   the line is also filled into the near partition, taking near-partition capacity (a copy is kept
   *   apart from the near partition's own lines by its home partition).
   */
  partitions?: PartitionConfig;
}

export interface PartitionConfig {
  /** Partitions (2 or more); the level's sets must divide by it. */
  count: number;
  /** Bytes of the address granule dealt round-robin to the partitions: a power of two, at least a line. */
  interleaveBytes: number;
  /** A far partition's hit latency over the near one's (1 or more). */
  farLatencyRatio: number;
  /** Copy a line read from a far partition into the near one (default false). */
  replicateFar?: boolean;
}

/**
 * A replicated copy's address in the near partition: its partition-local address plus this times
 * (home partition + 1), apart from every local address of the near partition's own lines (exact for
 * addresses below 2^44).
 */
export const COPY_TAG = 2 ** 44;

/** The geometry of one partition of a partitioned level: the level's sets (and their ways) divided among the partitions. */
export function partitionGeometry(g: CacheGeometry, count: number, p: number): CacheGeometry {
  const sets = g.sets / count;
  const out: CacheGeometry = { ...g, sets };
  if (g.setWays) out.setWays = g.setWays.slice(p * sets, (p + 1) * sets);
  return out;
}

/** The near partition of SM `sm`: floor(sm x count / sms) on a chip of `sms` SMs, sm mod count when sms is 0 (not known). */
export function nearPartition(sm: number, count: number, sms: number): number {
  if (sms > 0) return Math.min(count - 1, Math.floor((sm * count) / sms));
  return sm % count;
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
  /** `sms`: the chip's SM count, which places each SM's near partition of a partitioned level (0: not known, see nearPartition). */
  constructor(
    readonly seed: number,
    readonly smPerTpc: number,
    readonly sms = 0,
  ) {}

  cacheFor(level: CacheLevelConfig, sm: number): Cache {
    return this.cacheAt(level.name, level.geometry, level.scope, sm);
  }

  /** Partition `p` of a partitioned level: one cache of the level's sets / count, keyed by the level's name and the partition. */
  partitionFor(level: CacheLevelConfig, sm: number, p: number): Cache {
    const count = (level.partitions as PartitionConfig).count;
    return this.cacheAt(`${level.name}#${p}`, partitionGeometry(level.geometry, count, p), level.scope, sm);
  }

  private cacheAt(name: string, geometry: CacheGeometry, scope: Scope, sm: number): Cache {
    const inst = scope === 'sm' ? `sm${sm}` : scope === 'tpc' ? `tpc${Math.floor(sm / this.smPerTpc)}` : 'chip';
    const key = `${name}@${inst}`;
    let c = this.caches.get(key);
    if (!c) {
      c = new Cache(geometry, Rng.derive(this.seed, this.created++));
      this.caches.set(key, c);
    }
    return c;
  }
}

/** A partitioned level as one path sees it. */
export interface PartitionedLevel {
  /** ranks[r] is partition (near + r) mod count: the near one first. */
  readonly ranks: Cache[];
  readonly count: number;
  readonly near: number;
  readonly interleave: number;
  /** Cycles a far access adds: the level's near hit latency x (farLatencyRatio - 1). */
  readonly extra: number;
  /** 1 when a far line is copied into the near partition. */
  readonly replicate: number;
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
  /** Outcome of the last access: 1 when it went to a far partition of a partitioned level (hit there
   *  or missed past it), else 0 (a near hit, a near copy's hit, or no partitioned level). */
  declare lastFar: number;
  /** Per level, its partitions as this SM sees them (null for an unpartitioned level); null when no
   *  level is partitioned. For a partitioned level, caches[i] is the near partition. */
  declare readonly partitions: (PartitionedLevel | null)[] | null;

  private declare readonly table: Float64Array;
  private declare readonly nLevels: number;
  private declare readonly virtualLevels: number;
  private declare readonly window: number;
  private declare activeWindow: number;
  private declare readonly tpcOffset: number;

  constructor(config: PathConfig, chip: Chip, sm = 0, tpcOffset = 0) {
    this.config = config;
    this.nLevels = config.levels.length;
    const caches: Cache[] = [];
    const parts: (PartitionedLevel | null)[] = [];
    for (const l of config.levels) {
      const pl = l.partitions ? partitioned(l, chip, sm, config) : null;
      parts.push(pl);
      caches.push(pl ? pl.ranks[0] : chip.cacheFor(l, sm));
    }
    this.caches = caches;
    this.partitions = parts.some((pl) => pl !== null) ? parts : null;
    const t = config.translation;
    this.l1Tlb = t ? chip.cacheFor(t.l1, sm) : null;
    this.l2Tlb = t ? chip.cacheFor(t.l2, sm) : null;
    this.lastLevel = 0;
    this.lastTlbCode = 0;
    this.lastFar = 0;
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
    if (this.partitions !== null) return this.accessPartitioned(addr);
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

  /** access() on a path with a partitioned level (see CacheLevelConfig.partitions). */
  private accessPartitioned(addr: number): number {
    const caches = this.caches;
    const parts = this.partitions as (PartitionedLevel | null)[];
    const n = this.nLevels;
    let tlb = 0;
    let level = 0;
    let far = 0;
    let extra = 0;
    if (this.virtualLevels === 0) tlb = this.translate(addr);
    while (level < n) {
      const pl = parts[level];
      if (pl === null) {
        if (caches[level].access(addr)) break;
      } else {
        const cnt = pl.count;
        const iv = pl.interleave;
        const g = Math.floor(addr / iv);
        const h = g % cnt;
        const local = ((g - h) / cnt) * iv + (addr - g * iv);
        const r = h >= pl.near ? h - pl.near : h - pl.near + cnt;
        if (r === 0) {
          if (pl.ranks[0].access(local)) break;
        } else {
          if (pl.replicate === 1 && pl.ranks[0].access(local + COPY_TAG * (h + 1))) break;
          far = 1;
          extra += pl.extra;
          if (pl.ranks[r].access(local)) break;
        }
      }
      level++;
      if (level === this.virtualLevels) tlb = this.translate(addr);
    }
    this.lastLevel = level;
    this.lastTlbCode = tlb;
    this.lastFar = far;
    const v = this.table[level * 5 + tlb] + extra;
    if (v !== v) this.noLatency(level);
    return v;
  }

  private noLatency(level: number): never {
    throw new Error(`latency table has no entry for ${this.levelName(level)}/${this.lastTlb}`);
  }

  levelName(level: number): string {
    return level < this.nLevels ? this.config.levels[level].name : 'memory';
  }
}

/** The partitions of level `l` seen from SM `sm`, on `chip`. */
function partitioned(l: CacheLevelConfig, chip: Chip, sm: number, config: PathConfig): PartitionedLevel {
  const p = l.partitions as PartitionConfig;
  const count = p.count;
  if (!Number.isInteger(count) || count < 1 || l.geometry.sets % count !== 0)
    throw new Error(`${l.name}: ${l.geometry.sets} sets do not divide into ${count} partitions`);
  const near = nearPartition(sm, count, chip.sms);
  const all = Array.from({ length: count }, (_, q) => chip.partitionFor(l, sm, q));
  const ranks = all.map((_, r) => all[(near + r) % count]);
  let hit = Infinity;
  for (const o of TLB_OUTCOMES) {
    const v = config.latency[latencyKey(l.name, o)];
    if (v !== undefined && v < hit) hit = v;
  }
  return {
    ranks,
    count,
    near,
    interleave: p.interleaveBytes,
    extra: hit === Infinity ? 0 : hit * (p.farLatencyRatio - 1),
    replicate: p.replicateFar ? 1 : 0,
  };
}
