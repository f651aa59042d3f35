import type { Cache } from './cache';
import type { PartitionedLevel, PathModel } from './path';
import { COPY_TAG } from './path';
import type { Trace } from '../results';
import { fermiVictim } from './replacement';

/**
 * The access path of one memory space, compiled for its geometry: the TLB levels, cache levels and
 * latency table of a `PathModel` as generated JavaScript with the geometry's constants inlined (sets,
 * ways, line and sector shifts, index function, policy, presence filter), and the chase loop inside
 * it, so that one call runs many accesses with no call per access or per level.
 *
 * It works on the very state of the model's `Cache` objects (the same typed arrays, and their scalar
 * outcome fields, loaded at the start of a call and stored back at its end), so compiled and generic
 * accesses may alternate on one model and leave the same state. `Cache` and `PathModel` stay the
 * golden model: tests/unit/compiled-path.test.ts holds every access's latency and the final state
 * equal to theirs over every preset and hundreds of random geometries.
 *
 * Code is generated in the simulation processes only (src-sim runs in the worker, the CLI and tests;
 * the renderer never imports this module) and is cached by its source text, so that every path of the
 * same geometry shares one function and V8's optimised code for it.
 */

/** What turns a model latency into a reading (the experiments' Measurement); null: latency + overhead. */
export interface Reader {
  read(latency: number): number;
}

/** The per-access record of a fine-grained chase the generated code fills: a Trace without its level names. */
export type TraceArrays = Omit<Trace, 'levelNames'>;

interface Generated {
  walk(P: PathModel, N: number, s: number, base: number, j: number, count: number, rd: Reader | null, ov: number, out: Float64Array): void;
  array(P: PathModel, addrs: ArrayLike<number>, from: number, to: number, lats: Float64Array | null, rd: Reader | null, ov: number): number;
  trace(
    P: PathModel,
    next: (i: number) => number,
    k: number,
    tr: TraceArrays,
    cap: number,
    rd: Reader | null,
    ov: number,
    progress: ((done: number, total: number, phase: string) => void) | null,
    tick: number,
  ): void;
}

/** A path compiled for its geometry; every method runs on the model's own state. */
export class CompiledPath {
  declare readonly model: PathModel;
  private declare readonly fns: Generated;
  private declare readonly out: Float64Array;

  constructor(model: PathModel, fns: Generated) {
    this.model = model;
    this.fns = fns;
    this.out = new Float64Array(2);
  }

  /**
   * A uniform-stride chase: `count` accesses of base + j, j advancing by s modulo N. Returns the sum
   * of the readings (rd.read(latency), or latency + ov when rd is null, added in order) and leaves
   * the next j in `next`.
   */
  walk(N: number, s: number, base: number, j: number, count: number, rd: Reader | null = null, ov = 0): number {
    this.fns.walk(this.model, N, s, base, j, count, rd, ov, this.out);
    return this.out[0];
  }

  /** The j after the last walk. */
  get next(): number {
    return this.out[1];
  }

  /** Accesses addrs[from..to) in order; returns the sum of the readings and stores each in lats (when given). */
  array(addrs: ArrayLike<number>, from: number, to: number, lats: Float64Array | null = null, rd: Reader | null = null, ov = 0): number {
    return this.fns.array(this.model, addrs, from, to, lats, rd, ov);
  }

  /**
   * k accesses of next(0), next(1), ... recorded in a fresh trace of capacity `cap` (later accesses
   * counted in `dropped`); progress(i, k, 'chasing') every `tick` accesses. The callbacks must not
   * touch the model.
   */
  trace(
    next: (i: number) => number,
    k: number,
    tr: TraceArrays,
    cap: number,
    rd: Reader | null,
    ov: number,
    progress: ((done: number, total: number, phase: string) => void) | null,
    tick: number,
  ): void {
    this.fns.trace(this.model, next, k, tr, cap, rd, ov, progress, tick);
  }
}

// ---------------------------------------------------------------------------------------------------
// Code generation.
//
// SAFETY: the generated source contains only (1) fixed text written in this file, (2) integers that
// `int()` below has checked to be safe integers within stated bounds (sets, ways, shifts, table
// lengths, filter bits, sectors per line, fill masks, the page window), emitted with String(), (3) reciprocals of
// powers of two computed here from such validated exponents, and (4) variable names made from fixed
// prefixes and level indices, and (5) the fixed copy tag of partitioned levels (path.ts COPY_TAG,
// checked to be a safe integer). No string from a preset (names, descriptions) and no other number
// (latencies, probabilities, reciprocals of other sizes) ever enters it: those are read from the
// model's objects at run time.
// ---------------------------------------------------------------------------------------------------

/** Why a path could not be compiled. */
class NotCompilable extends Error {}

function int(x: unknown, min: number, max: number, what: string): string {
  if (typeof x !== 'number' || !Number.isSafeInteger(x) || x < min || x > max) throw new NotCompilable(`${what} ${String(x)} is outside ${min}..${max}`);
  return String(x);
}

const isPow2 = (n: number): boolean => Number.isSafeInteger(n) && n > 0 && (n & (n - 1)) === 0 && n <= 2 ** 30;

/** The exact reciprocal of a power of two 2^k (k validated), as a literal. */
function recipPow2(n: number, what: string): string {
  const r = 2 ** -shiftOf(n, what);
  const s = String(r);
  if (Number(s) !== r) throw new NotCompilable(`${what} reciprocal does not round-trip`);
  return s;
}

/** log2 of a power of two 2^k (k validated, 0 to 52). */
function shiftOf(n: number, what: string): number {
  return Number(int(Math.log2(n), 0, 52, `${what} exponent`));
}

/**
 * floor(a / 2^k) for an address `a` known to be a whole number in [0, 2^31): a right shift, or 0 past
 * 30 bits (a shift count is taken mod 32).
 */
function shifted(a: string, k: number): string {
  return k >= 31 ? '0' : `(${a} >> ${k})`;
}

/** Index codes and policy codes of Cache (cache.ts), the fixed tables the generator switches on. */
const INDEX_BITS_POW2 = 0;
const INDEX_BITS = 1;
const INDEX_XOR = 2;
const INDEX_INTERLEAVE = 3;
const POLICY_NAMES = ['lru', 'fifo', 'random', 'fermi', 'lip'] as const;

/** The Cache fields the generator reads (private in TypeScript; plain properties at run time). */
interface CacheFields {
  lineBytes: number;
  sets: number;
  lines: number;
  setWays: Int32Array;
  indexCode: number;
  divisor: number;
  lineByShift: number;
  table: Int32Array;
  policyCode: number;
  hotWay: number;
  hotFast: number;
  allocate: number;
  useFilter: number;
  filterBits: number;
  filterShift: number;
  sectored: number;
  sectorsPerLine: number;
  invSector: number;
  fillMask: number;
  fillAlign: number;
  mruOff: number;
}

/** What the generated code of one cache is specialised to: validated integers and flags only. */
interface CacheSpec {
  /** Equal sets: the ways of every set; unequal sets: 0 (setBase and setWays are read). */
  ways: string;
  sets: string;
  /** The line number of address `a`; `int32`: `a` is known to be a whole number in [0, 2^31), so a power-of-two line is a shift. */
  lineExpr: (a: string, int32: boolean) => string;
  indexCode: number;
  setMask: string;
  divisor: string | null;
  /** log2 of the divisor of bit selection by a power of two (INDEX_BITS_POW2), else null. */
  divisorShift: number | null;
  tableLength: string;
  policy: (typeof POLICY_NAMES)[number];
  hotWay: string;
  hotFast: boolean;
  allocate: boolean;
  filter: boolean;
  filterBits: string;
  filterShift: string;
  sectored: boolean;
  sectorsPerLine: string;
  invSectorLiteral: string | null;
  /** log2 of the sector's bytes where that is a power of two, else null. */
  sectorShift: number | null;
  /** Sectors one fill brings in (geometry.fillBytes): their mask and -(their number), null for one sector. */
  fillMask: string | null;
  fillAlign: string | null;
  mru: boolean;
  /** The largest set's ways (scan unrolled up to UNROLL). */
  widest: number;
}

const UNROLL = 8;
const MAX_LINES = 2 ** 28;

function specOf(c: Cache, what: string): CacheSpec {
  const f = c as unknown as CacheFields;
  const sets = f.sets;
  int(sets, 1, MAX_LINES, `${what}: sets`);
  int(f.lines, 1, MAX_LINES, `${what}: lines`);
  int(f.lineBytes, 1, 2 ** 52, `${what}: line bytes`);
  let equal = true;
  let widest = 0;
  for (let s = 0; s < sets; s++) {
    const w = f.setWays[s];
    int(w, 1, MAX_LINES, `${what}: ways of set ${s}`);
    if (w !== f.setWays[0]) equal = false;
    widest = Math.max(widest, w);
  }
  const indexCode = f.indexCode;
  if (![INDEX_BITS_POW2, INDEX_BITS, INDEX_XOR, INDEX_INTERLEAVE].includes(indexCode)) throw new NotCompilable(`${what}: index code ${indexCode}`);
  const policy = POLICY_NAMES[f.policyCode];
  if (policy === undefined) throw new NotCompilable(`${what}: policy code ${f.policyCode}`);
  const lineBytes = f.lineBytes;
  const lineLit = int(lineBytes, 1, 2 ** 52, `${what}: line bytes`);
  let lineExpr: CacheSpec['lineExpr'] = (a) => `Math.floor(${a} / ${lineLit})`;
  if (f.lineByShift === 1) {
    const recip = recipPow2(lineBytes, `${what}: line`);
    const sh = shiftOf(lineBytes, `${what}: line`);
    lineExpr = (a, int32) => (int32 ? shifted(a, sh) : `Math.floor(${a} * ${recip})`);
  }
  let divisor: string | null = null;
  let divisorShift: number | null = null;
  if (indexCode === INDEX_BITS_POW2) {
    divisor = recipPow2(f.divisor, `${what}: index divisor`);
    divisorShift = shiftOf(f.divisor, `${what}: index divisor`);
  }
  else if (indexCode === INDEX_BITS && Number.isSafeInteger(f.divisor)) divisor = int(f.divisor, 1, 2 ** 52, `${what}: index divisor`);
  const sectored = f.sectored === 1;
  let invSectorLiteral: string | null = null;
  let sectorShift: number | null = null;
  let fillMask: string | null = null;
  let fillAlign: string | null = null;
  if (sectored && f.fillAlign !== -1) {
    const perFill = Number(int(-f.fillAlign, 2, 32, `${what}: sectors a fill`));
    if (!isPow2(perFill)) throw new NotCompilable(`${what}: ${perFill} sectors a fill`);
    fillMask = perFill === 32 ? '-1' : int(f.fillMask, 3, 2 ** 31 - 1, `${what}: fill mask`);
    fillAlign = String(-perFill);
  }
  if (sectored) {
    int(f.sectorsPerLine, 2, 32, `${what}: sectors per line`);
    const sector = lineBytes / f.sectorsPerLine;
    if (isPow2(sector)) {
      invSectorLiteral = recipPow2(sector, `${what}: sector`);
      sectorShift = shiftOf(sector, `${what}: sector`);
    }
  }
  const filter = f.useFilter === 1;
  return {
    ways: equal ? int(f.setWays[0], 1, MAX_LINES, `${what}: ways`) : '0',
    sets: String(sets),
    lineExpr,
    indexCode,
    setMask: int(sets - 1, 0, MAX_LINES, `${what}: set mask`),
    divisor,
    divisorShift,
    tableLength: int(f.table.length, 0, MAX_LINES, `${what}: interleave table`),
    policy,
    hotWay: policy === 'fermi' ? int(f.hotWay, 0, MAX_LINES, `${what}: hot way`) : '0',
    hotFast: f.hotFast === 1,
    allocate: f.allocate === 1,
    filter,
    filterBits: filter ? int(f.filterBits, 1, 10, `${what}: filter bits`) : '0',
    filterShift: filter ? int(f.filterShift, 22, 31, `${what}: filter shift`) : '0',
    sectored,
    sectorsPerLine: sectored ? String(f.sectorsPerLine) : '1',
    invSectorLiteral,
    sectorShift,
    fillMask,
    fillAlign,
    mru: f.mruOff === 0,
    widest,
  };
}

/** Loads one cache's state into locals suffixed k (its arrays, and its scalar outcome fields). */
function prologue(k: number, g: CacheSpec, src: string, first: boolean): string {
  const L: string[] = [`const c${k} = ${src};`, `const t${k} = c${k}.tags;`];
  if (g.policy === 'lru' || g.policy === 'fifo') L.push(`const o${k} = c${k}.oldest, n${k} = c${k}.newer, p${k} = c${k}.older;`);
  else if (g.policy === 'lip') L.push(`const o${k} = c${k}.oldest, n${k} = c${k}.newer, p${k} = c${k}.older, f${k} = c${k}.filled;`);
  else L.push(`const f${k} = c${k}.filled, d${k} = c${k}.draws;`);
  if (g.policy === 'fermi') L.push(`const hb${k} = c${k}.hotBelow, hp${k} = c${k}.hotProbability;`);
  if (g.filter) L.push(`const fl${k} = c${k}.filter, bk${k} = c${k}.slotBucket;`);
  if (g.sectored) L.push(`const sv${k} = c${k}.sectorValid;`);
  if (g.ways === '0' || first) L.push(`const sb${k} = c${k}.setBase, sw${k} = c${k}.setWays;`);
  if (first) L.push(`const ss${k} = c${k}.slotSet;`);
  if (g.indexCode === INDEX_INTERLEAVE) L.push(`const tb${k} = c${k}.table, it${k} = c${k}.invTable;`);
  if (g.indexCode === INDEX_BITS && g.divisor === null) L.push(`const dv${k} = c${k}.divisor;`);
  if (g.sectored && g.invSectorLiteral === null) L.push(`const is${k} = c${k}.invSector;`);
  L.push(`let ls${k} = c${k}.lastSlot, le${k} = c${k}.lastEvicted;`);
  if (g.mru) L.push(`let m${k} = c${k}.mruLine;`);
  if (g.sectored) L.push(`let sm${k} = c${k}.lastSectorMiss;`);
  return L.join('\n');
}

/** Stores one cache's scalar outcome fields back. */
function epilogue(k: number, g: CacheSpec): string {
  let s = `c${k}.lastSlot = ls${k}; c${k}.lastEvicted = le${k};`;
  if (g.mru) s += ` c${k}.mruLine = m${k};`;
  if (g.sectored) s += ` c${k}.lastSectorMiss = sm${k};`;
  return s;
}

/** The set of line number `ln` (address `a`), as Cache.setOfLine computes it; `int32`: see CacheSpec.lineExpr. */
function setExpr(k: number, g: CacheSpec, int32: boolean): string {
  switch (g.indexCode) {
    case INDEX_BITS_POW2:
      if (int32) return `const st = ${shifted('a', g.divisorShift as number)} & ${g.setMask};`;
      return `const st = ((a * ${g.divisor as string}) >>> 0) & ${g.setMask};`;
    case INDEX_BITS:
      return `const st = Math.floor(a / ${g.divisor ?? `dv${k}`}) % ${g.sets};`;
    case INDEX_XOR:
      // xorSet (index/xor.ts): the line number's base-`sets` digits folded by XOR.
      if (g.sets === '1') return 'const st = 0;';
      return `let st = 0; { let h = 0, x = ln; while (x > 0) { h ^= x % ${g.sets}; x = Math.floor(x / ${g.sets}); } st = h % ${g.sets}; }`;
    default:
      // modOf (cache.ts): x mod m with 1/m given.
      return `let st; { const r = ln - Math.floor(ln * it${k}) * ${g.tableLength}; st = tb${k}[r < 0 ? r + ${g.tableLength} : r >= ${g.tableLength} ? r - ${g.tableLength} : r]; }`;
  }
}

/**
 * One cache access of address `a` (Cache.access with lookup, miss, victim, touch and sectors inlined).
 * Every hit runs `hit` (which must leave the block with a break); falling through the block is a miss.
 */
function accessCode(k: number, g: CacheSpec, hit: string, int32: boolean): string {
  const L: string[] = ['{', `const ln = ${g.lineExpr('a', int32)};`];
  if (g.mru) L.push(`if (ln === m${k}) { le${k} = -1; ${hit} }`);
  L.push(setExpr(k, g, int32));
  const equal = g.ways !== '0';
  L.push(equal ? `const bs = st * ${g.ways};` : `const bs = sb${k}[st];`);
  const wy = equal ? g.ways : 'wy';
  if (!equal) L.push(`const wy = sw${k}[st];`);
  if (g.filter) L.push(`const bk = (st << ${g.filterBits}) + (Math.imul(ln >>> 0, 0x9e3779b1) >>> ${g.filterShift});`);
  if (g.sectored) {
    const q = g.invSectorLiteral ?? `is${k}`;
    const sector = int32 && g.sectorShift !== null ? shifted('a', g.sectorShift) : `Math.floor(a * ${q})`;
    if (g.fillMask === null) L.push(`const bit = 1 << (${sector} - ln * ${g.sectorsPerLine});`);
    // A fill unit above the sector: the aligned block of sectors one fill brings in (Cache.fillBits).
    else L.push(`const sx = ${sector} - ln * ${g.sectorsPerLine}, bit = 1 << sx, fb = ${g.fillMask} << (sx & ${g.fillAlign as string});`);
  }
  const fill = g.fillMask === null ? 'bit' : 'fb';
  // The way scan: unrolled for narrow equal sets, else the loop (after the presence filter).
  if (equal && !g.filter && g.widest <= UNROLL) {
    const w = Number(g.ways);
    const parts: string[] = [];
    for (let i = 0; i < w; i++) parts.push(`${i > 0 ? 'else ' : ''}if (t${k}[bs${i > 0 ? ` + ${i}` : ''}] === ln) w = ${i};`);
    L.push(`let w = ${wy}; ${parts.join(' ')}`);
  } else {
    L.push('let w = 0;');
    if (g.filter) L.push(`if (fl${k}[bk] === 0) w = ${wy};`);
    L.push(`while (w < ${wy} && t${k}[bs + w] !== ln) w++;`);
  }
  const touch =
    g.policy === 'lru' || g.policy === 'lip'
      ? `{ const fi = o${k}[st]; if (sl === fi) o${k}[st] = n${k}[sl]; else { const la = p${k}[fi]; if (sl !== la) { const o = p${k}[sl], n = n${k}[sl]; n${k}[o] = n; p${k}[n] = o; p${k}[sl] = la; n${k}[sl] = fi; n${k}[la] = sl; p${k}[fi] = sl; } } }`
      : '';
  L.push(`if (w !== ${wy}) {`, `const sl = bs + w;`);
  if (g.sectored) {
    L.push(
      `const vv = sv${k}[sl];`,
      `if ((vv & bit) === 0) { sv${k}[sl] = vv | ${fill}; sm${k} = 1; ${touch} le${k} = -1; ls${k} = sl; }`,
      `else { sm${k} = 0; ${touch} le${k} = -1; ls${k} = sl; ${g.mru ? `m${k} = ln; ` : ''}${hit} }`,
    );
  } else {
    L.push(`${touch} le${k} = -1; ls${k} = sl; ${g.mru ? `m${k} = ln; ` : ''}${hit}`);
  }
  L.push('} else {');
  if (!g.allocate) {
    L.push(`le${k} = -1; ls${k} = -1 - st;`);
  } else {
    L.push('let sl;');
    if (g.policy === 'lru' || g.policy === 'fifo') L.push(`sl = o${k}[st]; o${k}[st] = n${k}[sl];`);
    // LIP: the oldest way; the list's start moves on only while the set fills (Cache.victim).
    else if (g.policy === 'lip') L.push(`sl = o${k}[st]; { const fn = f${k}[st]; if (fn < ${wy}) { f${k}[st] = fn + 1; o${k}[st] = n${k}[sl]; } }`);
    else {
      const victim =
        g.policy === 'random'
          ? `d${k}.int(${wy})`
          : `(${wy} === 1 || ${g.hotFast ? 0 : 1} === 1 ? fermiVictim(d${k}, ${wy}, hot, hp${k}) : d${k}.fermiVictim(${wy}, hot, hb${k}))`;
      const hot = g.policy === 'fermi' ? `const hot = ${g.hotWay} < ${wy} ? ${g.hotWay} : 0; ` : '';
      L.push(`{ const fn = f${k}[st]; if (fn < ${wy}) { f${k}[st] = fn + 1; sl = bs + fn; } else { ${hot}sl = bs + ${victim}; } }`);
    }
    L.push(`const ev = t${k}[sl]; t${k}[sl] = ln;`);
    if (g.filter) L.push(`if (ev >= 0) fl${k}[bk${k}[sl]]--; fl${k}[bk]++; bk${k}[sl] = bk;`);
    // LIP: a line that replaced another is the oldest of its set, so the last-line check is off (Cache.miss).
    const mru = g.policy === 'lip' ? ` m${k} = ev >= 0 ? NaN : ln;` : ` m${k} = ln;`;
    L.push(`le${k} = ev; ls${k} = sl;${g.mru ? mru : ''}`);
  }
  if (g.sectored) L.push(`sm${k} = 0; if (ls${k} >= 0) sv${k}[ls${k}] = ${fill};`);
  L.push('}', '}');
  return L.join('\n');
}

/** The geometry-independent facts of a path the generated code is specialised to. */
interface PathFields {
  caches: Cache[];
  l1Tlb: Cache | null;
  l2Tlb: Cache | null;
  nLevels: number;
  virtualLevels: number;
  window: number;
  partitions: (PartitionedLevel | null)[] | null;
}

/** The most partitions of one level the generator unrolls (more: the generic path runs). */
const MAX_PARTITIONS = 8;

interface PathSource {
  source: string;
}

/** The generated source of a path (throws NotCompilable with the reason). */
function pathSource(model: PathModel): PathSource {
  const p = model as unknown as PathFields;
  const n = p.nLevels;
  int(n, 0, 16, 'cache levels');
  const translated = p.l1Tlb !== null && p.l2Tlb !== null;
  const vl = p.virtualLevels;
  int(vl, 0, n + 1, 'virtual levels');
  if (!translated && vl !== n + 1) throw new NotCompilable('a translation level without TLBs');
  // The caches in order: each level's (a partitioned level's partitions, near first), then the TLBs.
  const parts = p.partitions;
  const objects: Cache[] = [];
  const sources: string[] = [];
  const names: string[] = [];
  /** The index in `objects` of each level's first cache. */
  const levelK: number[] = [];
  for (let i = 0; i < n; i++) {
    levelK.push(objects.length);
    const pl = parts === null ? null : parts[i];
    if (pl === null) {
      objects.push(p.caches[i]);
      sources.push(`P.caches[${i}]`);
      names.push(`level ${i}`);
    } else {
      int(pl.count, 1, MAX_PARTITIONS, `level ${i}: partitions`);
      if (pl.ranks.length !== pl.count) throw new NotCompilable(`level ${i}: ${pl.ranks.length} partition caches for ${pl.count} partitions`);
      pl.ranks.forEach((c, r) => {
        objects.push(c);
        sources.push(`P.partitions[${i}].ranks[${r}]`);
        names.push(`level ${i} partition rank ${r}`);
      });
    }
  }
  const tlbK = objects.length;
  if (translated) {
    objects.push(p.l1Tlb as Cache, p.l2Tlb as Cache);
    sources.push('P.l1Tlb', 'P.l2Tlb');
    names.push('L1 TLB', 'L2 TLB');
  }
  if (new Set(objects).size !== objects.length) throw new NotCompilable('one cache serves two levels of the path');
  const specs = objects.map((c, i) => specOf(c, names[i]));
  const windowBytes = translated && p.window > 0 ? int(p.window, 1, 2 ** 52, 'page window') : null;
  // The first cache of the trace: caches[0] (a partitioned level's near partition), else the L1 TLB.
  const firstK = n > 0 ? 0 : translated ? tlbK : -1;
  const partitioned = parts !== null;
  const copyTag = int(COPY_TAG, 1, 2 ** 52, 'copy tag');

  const pro: string[] = [];
  specs.forEach((g, k) => pro.push(prologue(k, g, sources[k], k === firstK)));
  pro.push('const tab = P.table;', 'let aw = P.activeWindow, lv = P.lastLevel, tb = P.lastTlbCode;');
  if (partitioned) {
    pro.push('let fr = P.lastFar;');
    for (let i = 0; i < n; i++) if (parts[i] !== null) pro.push(`const nr${i} = P.partitions[${i}].near, px${i} = P.partitions[${i}].extra;`);
  }
  const save = [...specs.map((g, k) => epilogue(k, g)), `P.activeWindow = aw; P.lastLevel = lv; P.lastTlbCode = tb;${partitioned ? ' P.lastFar = fr;' : ''}`].join(' ');

  /**
   * One access of partitioned level i (PathModel.accessPartitioned): the home partition and the
   * partition-local address, the near partition (and with replication its copy) or the far one.
   */
  const partitionCode = (i: number, pl: PartitionedLevel, int32: boolean): string => {
    const k0 = levelK[i];
    const C = int(pl.count, 1, MAX_PARTITIONS, `level ${i}: partitions`);
    if (!isPow2(pl.interleave)) throw new NotCompilable(`level ${i}: interleave ${pl.interleave} is not a power of two`);
    const iv = int(pl.interleave, 1, 2 ** 30, `level ${i}: interleave`);
    const granule = int32 ? shifted('a', shiftOf(pl.interleave, `level ${i}: interleave`)) : `Math.floor(a * ${recipPow2(pl.interleave, `level ${i}: interleave`)})`;
    const hit = `lv = ${i}; break L;`;
    const L: string[] = [
      '{',
      `const pg = ${granule};`,
      `const ph = pg % ${C};`,
      `const pa = ((pg - ph) / ${C}) * ${iv} + (a - pg * ${iv});`,
      `const pr = ph >= nr${i} ? ph - nr${i} : ph - nr${i} + ${C};`,
      'if (pr === 0) {',
      'const a = pa;',
      accessCode(k0, specs[k0], hit, int32),
      '} else {',
    ];
    if (pl.replicate === 1) L.push('{', `const a = pa + ${copyTag} * (ph + 1);`, accessCode(k0, specs[k0], hit, false), '}');
    L.push(`fr = 1; ex += px${i};`);
    for (let r = 1; r < pl.count; r++) {
      const test = r < pl.count - 1 ? `if (pr === ${r}) ` : '';
      L.push(`${r > 1 ? 'else ' : ''}${test}{`, 'const a = pa;', accessCode(k0 + r, specs[k0 + r], hit, int32), '}');
    }
    L.push('}', '}');
    return L.join('\n');
  };

  /**
   * One access of address `a` (PathModel.access, translation right before level `virtualLevels`): the
   * level that hit in lv, the translation's outcome code in tb, the latency in lat. `int32`: `a` is a
   * whole number in [0, 2^31), so power-of-two divisions are shifts (the same numbers).
   */
  const accessOf = (int32: boolean): string => {
    const translate = translated
      ? [
          'T: {',
          accessCode(tlbK, specs[tlbK], 'tb = 1; break T;', int32),
          accessCode(tlbK + 1, specs[tlbK + 1], 'tb = 2; break T;', int32),
          windowBytes !== null ? `{ const ww = Math.floor(a / ${windowBytes}); if (ww === aw) tb = 3; else { aw = ww; tb = 4; } }` : 'tb = 3;',
          '}',
        ].join('\n')
      : '';
    const body: string[] = partitioned ? ['tb = 0; fr = 0;', 'let ex = 0;', 'L: {'] : ['tb = 0;', 'L: {'];
    for (let k = 0; k < n; k++) {
      if (k === vl) body.push(translate);
      const pl = partitioned ? parts[k] : null;
      body.push(pl === null ? accessCode(levelK[k], specs[levelK[k]], `lv = ${k}; break L;`, int32) : partitionCode(k, pl, int32));
    }
    if (vl === n) body.push(translate);
    body.push(`lv = ${n};`, '}', partitioned ? 'const lat = tab[lv * 5 + tb] + ex;' : 'const lat = tab[lv * 5 + tb];', `if (lat !== lat) { ${save} P.noLatency(lv); }`);
    return body.join('\n');
  };
  const access = accessOf(false);
  const reading = 'const v = rd === null ? lat + ov : rd.read(lat);';
  const record =
    firstK >= 0
      ? `const q = ls${firstK}; if (q >= 0) { const ss = ss${firstK}[q]; tS[i] = ss; tW[i] = q - sb${firstK}[ss]; } else { tS[i] = -1 - q; tW[i] = -1; } tE[i] = le${firstK};`
      : 'tS[i] = -1; tW[i] = -1; tE[i] = -1;';

  const source = [
    '"use strict";',
    'function walk(P, N, s, base, j, count, rd, ov, out) {',
    ...pro,
    'let sum = 0;',
    // Three copies of the loop, so that the common ones (no jitter) have no call in them, and the one
    // whose every address is a whole number below 2^31 divides by shifts.
    // (its operands taken as int32 locals: a caller's start index may arrive as a double)
    'if (rd === null && base >= 0 && base + N <= 2147483647 && (base | 0) === base && (N | 0) === N && (s | 0) === s && (j | 0) === j && s >= 0 && s < N && j >= 0 && j < N) {',
    'const b32 = base | 0, n32 = N | 0, s32 = s | 0;',
    'let j32 = j | 0;',
    'for (let i = 0; i < count; i++) {',
    'const a = b32 + j32;',
    accessOf(true),
    'sum += lat + ov;',
    'j32 += s32; if (j32 >= n32) j32 -= n32;',
    '}',
    'j = j32;',
    '} else if (rd === null) {',
    'for (let i = 0; i < count; i++) {',
    'const a = base + j;',
    access,
    'sum += lat + ov;',
    'j += s; if (j >= N) j -= N;',
    '}',
    '} else {',
    'for (let i = 0; i < count; i++) {',
    'const a = base + j;',
    access,
    'sum += rd.read(lat);',
    'j += s; if (j >= N) j -= N;',
    '}',
    '}',
    save,
    'out[0] = sum; out[1] = j;',
    '}',
    'function array(P, addrs, from, to, lats, rd, ov) {',
    ...pro,
    'let sum = 0;',
    'for (let i = from; i < to; i++) {',
    'const a = addrs[i];',
    access,
    reading,
    'sum += v;',
    'if (lats !== null) lats[i] = v;',
    '}',
    save,
    'return sum;',
    '}',
    'function trace(P, next, k, tr, cap, rd, ov, progress, tick) {',
    ...pro,
    'const tA = tr.address, tL = tr.latency, tV = tr.level, tT = tr.tlb, tS = tr.set, tW = tr.way, tE = tr.evicted;',
    'for (let i = 0; i < k; i++) {',
    'const a = next(i);',
    access,
    reading,
    'if (i < cap) {',
    'tA[i] = a; tL[i] = v; tV[i] = lv; tT[i] = tb;',
    record,
    '} else tr.dropped++;',
    `if (progress !== null && i % tick === 0) { ${save} progress(i, k, 'chasing'); }`,
    '}',
    save,
    '}',
    'return { walk, array, trace };',
  ].join('\n');
  return { source };
}

/** Compiled functions by source text: paths of one geometry share them (and V8's optimised code). */
const bySource = new Map<string, Generated>();
const MAX_SOURCES = 256;
/** The compiled form of each model, or the reason it runs generically. */
const byModel = new WeakMap<PathModel, CompiledPath | string>();

/**
 * The model compiled for its geometry, or a one-line reason why it runs on the generic path. Built
 * once per model; the code is shared by every model of the same geometry.
 */
export function compilePath(model: PathModel): CompiledPath | string {
  const known = byModel.get(model);
  if (known !== undefined) return known;
  let result: CompiledPath | string;
  try {
    const { source } = pathSource(model);
    let fns = bySource.get(source);
    if (fns === undefined) {
      // The source is built only from fixed text and validated integers (see SAFETY above).
      const factory = new Function('fermiVictim', source) as (fv: typeof fermiVictim) => Generated;
      fns = factory(fermiVictim);
      if (bySource.size >= MAX_SOURCES) bySource.clear();
      bySource.set(source, fns);
    }
    result = new CompiledPath(model, fns);
  } catch (e) {
    if (!(e instanceof NotCompilable) && !(e instanceof EvalError)) throw e;
    result = `the compiled access path is not used (${e.message}); the generic path runs, with the same results`;
  }
  byModel.set(model, result);
  return result;
}

/** The generated source of a model's path, for inspection and tests (throws when it cannot be compiled). */
export function compiledSource(model: PathModel): string {
  return pathSource(model).source;
}
