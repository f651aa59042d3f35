/**
 * The cache view's replay: the sets and ways of the first structure a fine-grained P-chase touched,
 * rebuilt access by access from the run's trace.
 *
 * The trace gives, for every access, the address, the set and way of the first structure touched
 * (cache level 0, or the L1 TLB when the path has no cache) and the line it evicted (-1 none). After
 * access i, cell (set[i], way[i]) holds line floor(address[i] / lineBytes). The replay also keeps,
 * per cell, when it was last used and when it was filled, from which the LRU recency order (1 =
 * most recently used) and the FIFO age order follow. Under LIP (LRU insertion) a line that replaced
 * another is given a use older than every other line of its set: it stays the least recently used
 * until its first hit.
 *
 * Geometry (sets, ways or unequal set sizes, line size, index function, policy, sectors) comes from the run's
 * preset snapshot: the first level of the space the run's parameters name (its L1 configuration
 * applied), or the L1 TLB when that space has no cache.
 *
 * A trace recorded after an unrecorded warm-up pass (pchase-fine with `warmup`) starts with the
 * structure already filled: the simulator then keeps the structure's state before the first
 * recorded access in the trace (`trace.start`: per cell the line held and its place in the LRU or
 * FIFO order, bounded by the structure's size), and the replay starts from it instead of from an
 * empty grid. A trace without it starts empty (cold).
 *
 * Pure: no DOM, no API. Seeking is O(checkpoint interval): the state is saved every few thousand
 * accesses (bounded memory), and a seek replays from the nearest checkpoint before it.
 */
import type { ParamValues, Trace } from '../../../src-sim/experiments/types';
import type { IndexFunction, ReplacementPolicy } from '../../../src-sim/model/types';
import type { Preset } from '../../../src-sim/presets/types';
import { pathOf } from '../../../src-main/shared/findings';

export interface ReplayGeometry {
  /** The structure's name in the preset ("L1", "Tex L1", "L1 TLB"). */
  name: string;
  kind: 'cache' | 'tlb';
  /** Where it is in the preset snapshot ("spaces.global.levels.0"). */
  source: string;
  sizeBytes: number;
  /** Bytes one line (or one TLB entry) covers. */
  lineBytes: number;
  /** Ways of each set (unequal sets have different lengths). */
  setWays: number[];
  index: IndexFunction;
  policy: ReplacementPolicy;
  /** Sectored lines (sectorBytes below lineBytes): a miss may find its line present, missing only the
   *  sector touched (a sector miss: the line stays, nothing is evicted). */
  sectored?: boolean;
}

export type GeometryResult = { geometry: ReplayGeometry; warning: string | null } | { error: string };

/** The geometry of the structure a run's trace records, from the run's preset snapshot. */
export function traceGeometry(preset: Preset, params: ParamValues, trace: Pick<Trace, 'levelNames'> | null | undefined): GeometryResult {
  const p = pathOf(preset, params);
  if (!p) return { error: `the preset snapshot has no ${String(params.space ?? 'global')} memory space` };
  const first = p.path.levels[0];
  let geometry: ReplayGeometry;
  if (first) {
    const g = first.geometry;
    geometry = {
      name: first.name,
      kind: 'cache',
      source: p.source.startsWith('l1Configs') ? p.source : `${p.source}.levels.0`,
      sizeBytes: first.sizeBytes,
      lineBytes: g.lineBytes,
      setWays: g.setWays ? [...g.setWays] : new Array<number>(g.sets).fill(g.ways),
      index: g.index,
      policy: g.policy,
      sectored: g.sectorBytes !== undefined && g.sectorBytes < g.lineBytes,
    };
  } else if (p.path.translation) {
    const t = p.path.translation.l1;
    const g = t.geometry;
    geometry = {
      name: t.name,
      kind: 'tlb',
      source: `${p.source}.translation.l1`,
      sizeBytes: t.sizeBytes,
      lineBytes: g.lineBytes,
      setWays: g.setWays ? [...g.setWays] : new Array<number>(g.sets).fill(g.ways),
      index: g.index,
      policy: g.policy,
    };
  } else return { error: `the ${p.space} space has neither a cache nor a TLB to show` };
  let warning: string | null = null;
  if (geometry.kind === 'cache' && trace && trace.levelNames[0] !== undefined && trace.levelNames[0] !== geometry.name)
    warning = `the trace's first level is "${trace.levelNames[0]}" but the preset's is "${geometry.name}": the grid may not match`;
  return { geometry, warning };
}

export interface AccessInfo {
  /** 0-based position in the trace. */
  index: number;
  address: number;
  line: number;
  set: number;
  /** The way hit or filled; -1 for a miss that allocated nothing. */
  way: number;
  hit: boolean;
  /** Line number evicted by this access, -1 none. */
  evicted: number;
  latency: number;
  level: number;
  levelName: string;
  /** TLB outcome code: 0 none, 1 L1 TLB hit, 2 L2 TLB hit, 3 miss, 4 inactive page window. */
  tlb: number;
}

export const TLB_OUTCOME_NAMES = ['no translation', 'L1 TLB hit', 'L2 TLB hit', 'TLB miss', 'inactive page window'];

/** One cell as the grid draws it. */
export interface CellView {
  way: number;
  /** Line number held, -1 when the way is invalid. */
  line: number;
  /** LRU: 1 = most recently used; FIFO: 1 = newest fill; 0 when invalid or not tracked. */
  rank: number;
}

/** Bytes of state per cell (line + last use + fill time) for sizing checkpoints. */
const CELL_BYTES = 16;
/** Checkpoint memory budget. */
const CHECKPOINT_BUDGET = 16 * 1024 * 1024;

/**
 * Replays a trace over a grid of sets x ways. `seek(pos)` puts the grid in the state after `pos`
 * accesses (0 = empty, or the trace's `start` state when it began warm); `current` is then the access
 * pos - 1.
 */
export class CacheReplay {
  readonly geometry: ReplayGeometry;
  readonly length: number;
  /** First cell of each set in the flat arrays. */
  readonly setBase: Int32Array;
  readonly cells: number;
  /** Accesses whose outcome disagrees with the replayed state (should stay 0). */
  inconsistencies = 0;
  /** Unrecorded accesses (a warm-up pass) that left the state the replay starts from; 0 when it starts empty. */
  readonly warmAccesses: number;

  private readonly trace: Trace;
  private readonly lines: Float64Array;
  private readonly lastUse: Float64Array;
  private readonly filledAt: Float64Array;
  private readonly every: number;
  private readonly checkpoints: { lines: Float64Array; lastUse: Float64Array; filledAt: Float64Array }[] = [];
  /** Highest position checkpoints (and the inconsistency count) cover so far. */
  private scanned = 0;
  private _pos = 0;
  /** hitsBefore[n]: hits among the first n accesses (built on first use). */
  private hitsBefore: Int32Array | null = null;

  constructor(trace: Trace, geometry: ReplayGeometry, checkpointEvery?: number) {
    this.trace = trace;
    this.geometry = geometry;
    this.length = trace.address.length;
    this.setBase = new Int32Array(geometry.setWays.length);
    let base = 0;
    geometry.setWays.forEach((w, s) => {
      this.setBase[s] = base;
      base += w;
    });
    this.cells = base;
    this.lines = new Float64Array(base).fill(-1);
    this.lastUse = new Float64Array(base).fill(-1);
    this.filledAt = new Float64Array(base).fill(-1);
    this.warmAccesses = 0;
    const start = trace.start;
    if (start && start.lines.length === base && start.age.length === base) {
      // The warm state: the lines held, and stamps below 0 (every recorded access is newer) in the
      // order of the set's ages (newest -1). A start of another size is left out (the replay then
      // disagrees, and says so).
      this.lines.set(start.lines);
      for (let c = 0; c < base; c++) if (start.lines[c] >= 0) this.lastUse[c] = this.filledAt[c] = start.age[c] > 0 ? -start.age[c] : -1;
      this.warmAccesses = start.accesses;
    }
    const byBudget = Math.ceil((this.length * base * CELL_BYTES) / CHECKPOINT_BUDGET);
    this.every = Math.max(1, Math.floor(checkpointEvery ?? Math.max(2048, byBudget)));
    this.checkpoints.push(this.save());
  }

  get pos(): number {
    return this._pos;
  }

  get sets(): number {
    return this.geometry.setWays.length;
  }

  /** Whether access i hit the traced structure (cache: served by level 0; TLB: an L1 TLB hit). */
  isHit(i: number): boolean {
    return this.geometry.kind === 'tlb' ? this.trace.tlb[i] === 1 : this.trace.level[i] === 0;
  }

  lineOf(address: number): number {
    return Math.floor(address / this.geometry.lineBytes);
  }

  access(i: number): AccessInfo {
    const t = this.trace;
    const level = t.level[i];
    return {
      index: i,
      address: t.address[i],
      line: this.lineOf(t.address[i]),
      set: t.set[i],
      way: t.way[i],
      hit: this.isHit(i),
      evicted: t.evicted[i],
      latency: t.latency[i],
      level,
      levelName: t.levelNames[level] ?? `level ${level}`,
      tlb: t.tlb[i],
    };
  }

  /** The access the current state ends with, or null at position 0. */
  get current(): AccessInfo | null {
    return this._pos > 0 ? this.access(this._pos - 1) : null;
  }

  /** Puts the grid in the state after `pos` accesses (clamped to 0..length). */
  seek(pos: number): void {
    const target = Math.max(0, Math.min(this.length, Math.floor(pos)));
    if (target < this._pos || target - this._pos > this.every) {
      const c = Math.min(Math.floor(target / this.every), this.checkpoints.length - 1);
      if (target < this._pos || c * this.every > this._pos) {
        this.load(this.checkpoints[c]);
        this._pos = c * this.every;
      }
    }
    while (this._pos < target) this.apply(this._pos++);
  }

  step(delta: number): void {
    this.seek(this._pos + delta);
  }

  /** Applies access i to the state (the caller advances the position). */
  private apply(i: number): void {
    const t = this.trace;
    const set = t.set[i];
    const way = t.way[i];
    const ways = this.geometry.setWays[set];
    if (ways === undefined || way < 0 || way >= ways) {
      // A miss that allocates nothing (way -1) changes no cell; anything else is a mismatch.
      if (way !== -1 || ways === undefined) this.noteMismatch(i);
      this.afterApply(i);
      return;
    }
    const cell = this.setBase[set] + way;
    const line = this.lineOf(t.address[i]);
    const hit = this.isHit(i);
    if (hit) {
      if (this.lines[cell] !== line) this.noteMismatch(i);
    } else if (this.geometry.sectored && this.lines[cell] === line && t.evicted[i] < 0) {
      // A sector miss: the line was present without the sector touched, which the next level filled.
    } else {
      const before = this.lines[cell];
      if (before !== t.evicted[i] && !(before === -1 && t.evicted[i] < 0)) this.noteMismatch(i);
      this.lines[cell] = line;
      this.filledAt[cell] = i;
      if (this.geometry.policy.kind === 'lip' && before >= 0) {
        // LIP: the line replaced another (the set was full), so it takes the least recently used place.
        const base = this.setBase[set];
        let least = i;
        for (let c = base; c < base + ways; c++) if (c !== cell && this.lines[c] >= 0) least = Math.min(least, this.lastUse[c]);
        this.lastUse[cell] = least - 1;
        this.afterApply(i);
        return;
      }
    }
    this.lastUse[cell] = i;
    this.afterApply(i);
  }

  private noteMismatch(i: number): void {
    if (i >= this.scanned) this.inconsistencies++;
  }

  /** Records checkpoints the first time the replay passes them. */
  private afterApply(i: number): void {
    const pos = i + 1;
    if (pos > this.scanned) {
      this.scanned = pos;
      if (pos % this.every === 0 && this.checkpoints.length === pos / this.every) this.checkpoints.push(this.save());
    }
  }

  private save() {
    return { lines: this.lines.slice(), lastUse: this.lastUse.slice(), filledAt: this.filledAt.slice() };
  }

  private load(c: { lines: Float64Array; lastUse: Float64Array; filledAt: Float64Array }): void {
    this.lines.set(c.lines);
    this.lastUse.set(c.lastUse);
    this.filledAt.set(c.filledAt);
  }

  /** Line held by (set, way), -1 when invalid. */
  lineAt(set: number, way: number): number {
    return this.lines[this.setBase[set] + way];
  }

  /**
   * Recency order of one set's ways: rank[way] = 1 for the most recently used valid way, 2 for the
   * next, ...; 0 for invalid ways. With `by = 'fill'`, the order of filling instead (FIFO age).
   */
  order(set: number, by: 'use' | 'fill' = 'use'): Int32Array {
    const ways = this.geometry.setWays[set];
    const base = this.setBase[set];
    const stamp = by === 'use' ? this.lastUse : this.filledAt;
    const valid: number[] = [];
    for (let w = 0; w < ways; w++) if (this.lines[base + w] >= 0) valid.push(w);
    valid.sort((a, b) => stamp[base + b] - stamp[base + a]);
    const rank = new Int32Array(ways);
    valid.forEach((w, r) => (rank[w] = r + 1));
    return rank;
  }

  /** The cells of one set as the grid draws them (rank by LRU recency or FIFO age, per the policy). */
  setView(set: number): CellView[] {
    const kind = this.geometry.policy.kind;
    const rank = kind === 'lru' || kind === 'lip' ? this.order(set, 'use') : kind === 'fifo' ? this.order(set, 'fill') : null;
    const ways = this.geometry.setWays[set];
    const out: CellView[] = new Array(ways);
    for (let w = 0; w < ways; w++) out[w] = { way: w, line: this.lineAt(set, w), rank: rank ? rank[w] : 0 };
    return out;
  }

  /** Hits and misses among the first `pos` accesses (for the summary line). */
  counts(pos = this._pos): { hits: number; misses: number } {
    if (!this.hitsBefore) {
      this.hitsBefore = new Int32Array(this.length + 1);
      for (let i = 0; i < this.length; i++) this.hitsBefore[i + 1] = this.hitsBefore[i] + (this.isHit(i) ? 1 : 0);
    }
    const n = Math.max(0, Math.min(pos, this.length));
    const hits = this.hitsBefore[n];
    return { hits, misses: n - hits };
  }
}

// ---------------------------------------------------------------------------------------------
// Address split
// ---------------------------------------------------------------------------------------------

export type BitRole = 'tag' | 'set' | 'offset';

export interface AddressSplit {
  /** Bits from the most significant down to bit 0. */
  bits: { bit: number; value: 0 | 1; role: BitRole }[];
  offset: number;
  set: number;
  tag: number;
  /** Bit ranges as text: "tag 31-12 · set 11-7 · offset 6-0". */
  ranges: { role: BitRole; from: number; to: number }[];
}

const isPow2 = (n: number): boolean => n > 0 && Number.isInteger(Math.log2(n));

/** Bit `b` of a non-negative address (works beyond 32 bits). */
function bitOf(address: number, b: number): 0 | 1 {
  return (Math.floor(address / 2 ** b) % 2) as 0 | 1;
}

/**
 * Splits an address into tag, set and offset bits for a bit-indexed structure: offset = the low
 * log2(lineBytes) bits, set = log2(sets) bits from `shiftBits` (default log2(lineBytes); the texture
 * L1 uses bits 7-8), tag = every other bit above the offset. Null for hashed or unequal-set
 * indexing (no bit field picks the set) and for non-power-of-two sizes.
 */
export function splitAddress(address: number, g: Pick<ReplayGeometry, 'lineBytes' | 'setWays' | 'index'>, width = 32): AddressSplit | null {
  const sets = g.setWays.length;
  if (g.index.kind !== 'bits' || !isPow2(g.lineBytes) || !isPow2(sets)) return null;
  const offsetBits = Math.log2(g.lineBytes);
  const shift = g.index.shiftBits ?? offsetBits;
  const setBits = Math.log2(sets);
  const top = Math.max(width, Math.ceil(Math.log2(Math.max(2, address + 1))), shift + setBits);
  const role = (b: number): BitRole => (b < offsetBits ? 'offset' : b >= shift && b < shift + setBits ? 'set' : 'tag');
  const bits: AddressSplit['bits'] = [];
  let tag = 0;
  let tagPlace = 1;
  for (let b = 0; b < top; b++) {
    const r = role(b);
    const v = bitOf(address, b);
    if (r === 'tag') {
      tag += v * tagPlace;
      tagPlace *= 2;
    }
    bits.push({ bit: b, value: v, role: r });
  }
  bits.reverse();
  const ranges: AddressSplit['ranges'] = [];
  for (const b of bits) {
    const last = ranges[ranges.length - 1];
    if (last && last.role === b.role && last.to === b.bit + 1) last.to = b.bit;
    else ranges.push({ role: b.role, from: b.bit, to: b.bit });
  }
  return {
    bits,
    offset: address % g.lineBytes,
    set: Math.floor(address / 2 ** shift) % sets,
    tag,
    ranges,
  };
}

/** How the set is chosen, in words, for the structures splitAddress cannot split. */
export function indexDescription(g: Pick<ReplayGeometry, 'index' | 'setWays' | 'lineBytes'>): string {
  const total = g.setWays.reduce((a, b) => a + b, 0);
  switch (g.index.kind) {
    case 'interleave':
      return `set = slot (line mod ${total}) dealt round-robin over the sets with room left (unequal sets)`;
    case 'xor':
      return 'set = XOR-folding hash of the line number';
    default:
      return g.setWays.length === 1 ? 'one set: fully associative (no set bits)' : `set = floor(address / 2^${g.index.shiftBits ?? Math.log2(g.lineBytes)}) mod ${g.setWays.length}`;
  }
}

/** An address as hex: "0x4a80". */
export function hex(n: number): string {
  return `0x${Math.max(0, Math.floor(n)).toString(16)}`;
}
