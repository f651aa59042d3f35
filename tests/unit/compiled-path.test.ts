import { describe, expect, it } from 'vitest';
import { averageChase, fineChase, genericNote, Measurement, openSpace } from '../../src-sim/experiments/pchase';
import { compilePath } from '../../src-sim/model/compiled';
import type { CompiledPath, TraceArrays } from '../../src-sim/model/compiled';
import { Chip, PathModel, requiredLatencyKeys } from '../../src-sim/model/path';
import type { CacheLevelConfig, PathConfig } from '../../src-sim/model/path';
import type { CacheGeometry } from '../../src-sim/model/types';
import { PRESETS } from '../../src-sim/presets';
import { withL1Config } from '../../src-sim/presets/l1-config';
import type { Preset, SpaceId } from '../../src-sim/presets/types';
import { Rng } from '../../src-sim/rng';

/**
 * The path compiled for a geometry (src-sim/model/compiled.ts) against the golden model (Cache and
 * PathModel, one access at a time): the same latency, level, TLB outcome, set, way and eviction for
 * every access, and the same state afterwards (every typed array and scalar of every cache, the
 * policies' random streams, the path's outcome fields and page window).
 */

/** Everything a model holds, as plain data (typed arrays as their bytes, NaN kept apart from numbers). */
function snapshot(x: unknown, seen = new Set<unknown>()): unknown {
  if (typeof x === 'number') return Number.isNaN(x) ? 'NaN' : Object.is(x, -0) ? '-0' : x;
  if (x === null || typeof x !== 'object') return x;
  if (ArrayBuffer.isView(x)) return `${x.constructor.name} ${Buffer.from(x.buffer, x.byteOffset, x.byteLength).toString('base64')}`;
  if (seen.has(x)) return '(seen)';
  seen.add(x);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(x).sort()) if (k !== 'config' && k !== 'geometry') out[k] = snapshot((x as Record<string, unknown>)[k], seen);
  return out;
}

function chipState(chip: Chip): unknown {
  const caches = (chip as unknown as { caches: Map<string, unknown> }).caches;
  return [...caches.entries()].map(([k, c]) => [k, snapshot(c)]);
}

interface Outcome {
  lat: Float64Array;
  level: Uint8Array;
  tlb: Uint8Array;
  set: Int32Array;
  way: Int32Array;
  evicted: Float64Array;
}

function outcome(n: number): Outcome & TraceArrays {
  return {
    address: new Float64Array(n),
    latency: new Float64Array(n),
    lat: new Float64Array(n),
    level: new Uint8Array(n),
    tlb: new Uint8Array(n),
    set: new Int32Array(n),
    way: new Int32Array(n),
    evicted: new Float64Array(n),
    dropped: 0,
  };
}

/** The golden model, one access at a time, recording what fineChase's recorder records. */
function golden(model: PathModel, addrs: Float64Array, o: Outcome): void {
  const first = model.caches[0] ?? model.l1Tlb;
  for (let i = 0; i < addrs.length; i++) {
    o.lat[i] = model.access(addrs[i]);
    o.level[i] = model.lastLevel;
    o.tlb[i] = model.lastTlbCode;
    o.set[i] = first ? first.lastSet : -1;
    o.way[i] = first ? first.lastWay : -1;
    o.evicted[i] = first ? first.lastEvicted : -1;
  }
}

/**
 * The compiled path over the same addresses, through all three of its loops: the first part by
 * `trace`, the middle by `array`, the rest one access per `walk` call (N = the address + 1, so the
 * walk's single access is that address), interleaved with a few generic accesses (state shared).
 */
function compiled(c: CompiledPath, addrs: Float64Array, o: Outcome & TraceArrays): void {
  const n = addrs.length;
  const a = Math.floor(n / 3);
  const b = Math.floor((2 * n) / 3);
  c.trace((i) => addrs[i], a, o, a, null, 0, null, 1);
  o.lat.set(o.latency.subarray(0, a));
  c.array(addrs, a, b, o.lat);
  const first = c.model.caches[0] ?? c.model.l1Tlb;
  for (let i = b; i < n; i++) {
    o.lat[i] = i % 7 === 0 ? c.model.access(addrs[i]) : c.walk(addrs[i] + 1, 0, 0, addrs[i], 1);
    o.level[i] = c.model.lastLevel;
    o.tlb[i] = c.model.lastTlbCode;
    o.set[i] = first ? first.lastSet : -1;
    o.way[i] = first ? first.lastWay : -1;
    o.evicted[i] = first ? first.lastEvicted : -1;
  }
}

/**
 * Compares the golden and compiled runs access by access (the first difference named) and their final
 * state. The accesses run by `array` (the middle third) report their latency only.
 */
function expectSame(g: Outcome, c: Outcome, gs: unknown, cs: unknown, what: string): void {
  const n = g.lat.length;
  const a = Math.floor(n / 3);
  const b = Math.floor((2 * n) / 3);
  for (const k of ['lat', 'level', 'tlb', 'set', 'way', 'evicted'] as const) {
    const x = g[k];
    const y = c[k];
    for (let i = 0; i < x.length; i++) {
      if (k !== 'lat' && i >= a && i < b) continue;
      if (!Object.is(x[i], y[i])) expect.fail(`${what}: access ${i}: ${k} ${y[i]} compiled, ${x[i]} golden`);
    }
  }
  expect(cs, `${what}: final state`).toEqual(gs);
}

/** A seeded address stream that mixes strides, random reuse of a hot set, and a wide random span. */
function stream(rng: Rng, n: number, span: number, page: number): Float64Array {
  const out = new Float64Array(n);
  let i = 0;
  while (i < n) {
    const len = Math.min(n - i, 50 + rng.int(400));
    const kind = rng.int(5);
    const stride = [4, 32, 128, 4096, page + 128, 3 * 64][rng.int(6)];
    const base = rng.int(Math.max(1, span / 4)) * 4;
    const hot = 1 + rng.int(64);
    for (let k = 0; k < len; k++, i++) {
      if (kind === 0) out[i] = (base + k * stride) % span;
      else if (kind === 1) out[i] = rng.int(Math.max(1, span / 4)) * 4;
      else if (kind === 2) out[i] = (base + rng.int(hot) * stride) % span;
      else if (kind === 3) out[i] = rng.int(64) * page + rng.int(8) * 4;
      else out[i] = out[Math.max(0, i - 1 - rng.int(Math.min(i, 200) + 1))] ?? 0;
    }
  }
  return out;
}

function pick<T>(rng: Rng, xs: readonly T[]): T {
  return xs[rng.int(xs.length)];
}

/** A random cache geometry over every policy, index function, equal and unequal sets, sectors, fill units and allocation. */
function randomGeometry(rng: Rng, lineBytes: number): CacheGeometry {
  const r = rng.next();
  const sets = r < 0.1 ? 1 : r < 0.6 ? 2 ** rng.int(7) : 1 + rng.int(40);
  const wr = rng.next();
  const ways = wr < 0.6 ? 1 + rng.int(8) : wr < 0.85 ? 9 + rng.int(40) : wr < 0.95 ? 64 + rng.int(200) : 256 + rng.int(60);
  const kind = pick(rng, ['bits', 'bits', 'xor', 'interleave'] as const);
  const unequal = sets > 1 && (kind === 'interleave' ? rng.next() < 0.7 : rng.next() < 0.15);
  const setWays = unequal ? Array.from({ length: sets }, () => 1 + rng.int(Math.min(ways, 20))) : undefined;
  const log2 = Math.log2(lineBytes);
  const index =
    kind === 'bits'
      ? rng.next() < 0.5 || !Number.isInteger(log2)
        ? { kind: 'bits' as const }
        : { kind: 'bits' as const, shiftBits: Math.max(0, log2 - 2 + rng.int(6)) }
      : { kind };
  const pk = pick(rng, ['lru', 'lru', 'fifo', 'random', 'fermi', 'lip'] as const);
  const policy =
    pk === 'fermi'
      ? { kind: 'fermi' as const, hotWay: rng.int(ways + 1), hotProbability: pick(rng, [0.5, 0.5, 0.25, 0, 1, 0.7]) }
      : { kind: pk };
  const g: CacheGeometry = { lineBytes, sets, ways, index, policy };
  if (setWays) g.setWays = setWays;
  if (rng.next() < 0.1) g.allocateOnMiss = false;
  if (rng.next() < 0.35) {
    const spl = pick(rng, [2, 4, 3, 8]);
    if (lineBytes % spl === 0 && lineBytes / spl >= 4) g.sectorBytes = lineBytes / spl;
    // A fill unit of 2, 4, ... sectors (up to the line) half the time.
    if (g.sectorBytes && rng.next() < 0.5) g.fillBytes = Math.min(g.sectorBytes * 2 ** (1 + rng.int(3)), 2 ** Math.floor(Math.log2(lineBytes / g.sectorBytes)) * g.sectorBytes);
  }
  return g;
}

function level(name: string, g: CacheGeometry): CacheLevelConfig {
  const lines = g.setWays ? g.setWays.reduce((a, b) => a + b, 0) : g.sets * g.ways;
  return { name, sizeBytes: lines * g.lineBytes, geometry: g, scope: 'sm' };
}

/** A random path: 0 to 3 cache levels, TLBs or not, any virtual-level count, a page window or not. */
function randomPath(rng: Rng): PathConfig {
  const nLevels = rng.int(4);
  const levels = Array.from({ length: nLevels }, (_, i) => level(`C${i}`, randomGeometry(rng, pick(rng, [16, 32, 64, 128, 128, 256, 96, 48]))));
  const path: PathConfig = { description: 'random', levels, latency: {}, interconnectFrom: rng.int(nLevels + 2) };
  if (rng.next() < 0.6) {
    const page = pick(rng, [4096, 65536, 2 ** 21]);
    path.translation = {
      pageBytes: page,
      l1: level('T1', randomGeometry(rng, page)),
      l2: level('T2', randomGeometry(rng, page)),
      virtualLevels: rng.int(nLevels + 1),
    };
    if (rng.next() < 0.3) path.translation.activeWindowBytes = page * (1 + rng.int(16));
  }
  for (const k of requiredLatencyKeys(path)) path.latency[k] = 1 + rng.int(800);
  return path;
}

/**
 * A random path with one partitioned level (2 or 4 partitions, power-of-two lines, an interleave of
 * one line up to 16 of them, far copies or not): the level's sets are a multiple of the count.
 */
function randomPartitionedPath(rng: Rng): { cfg: PathConfig; count: number; li: number } {
  let cfg = randomPath(rng);
  while (cfg.levels.length === 0) cfg = randomPath(rng);
  const li = rng.next() < 0.6 ? cfg.levels.length - 1 : rng.int(cfg.levels.length);
  const count = pick(rng, [2, 4] as const);
  const line = pick(rng, [32, 64, 128, 128, 256]);
  const g0 = randomGeometry(rng, line);
  const g: CacheGeometry = { ...g0, sets: g0.sets * count };
  if (g0.setWays) g.setWays = Array.from({ length: count }, () => g0.setWays!).flat();
  const lvl = level(cfg.levels[li].name, g);
  lvl.scope = pick(rng, ['chip', 'chip', 'tpc', 'sm'] as const);
  lvl.partitions = { count, interleaveBytes: line * 2 ** rng.int(5), farLatencyRatio: pick(rng, [1.75, 1.5, 2, 1.3]), replicateFar: rng.next() < 0.5 };
  cfg.levels[li] = lvl;
  return { cfg, count, li };
}

function comparePath(cfg: PathConfig, seed: number, tpcOffset: number, addrs: Float64Array, what: string): number {
  const gChip = new Chip(seed, 2);
  const cChip = new Chip(seed, 2);
  const gModel = new PathModel(cfg, gChip, 1, tpcOffset);
  const cModel = new PathModel(cfg, cChip, 1, tpcOffset);
  const c = compilePath(cModel);
  if (typeof c === 'string') expect.fail(`${what}: not compiled: ${c}`);
  const g = outcome(addrs.length);
  const o = outcome(addrs.length);
  golden(gModel, addrs, g);
  compiled(c, addrs, o);
  expectSame(g, o, [chipState(gChip), snapshot(gModel)], [chipState(cChip), snapshot(cModel)], what);
  return addrs.length;
}

/**
 * Every preset, every memory space, the L1 configurations (the carveouts: the largest and smallest in
 * the sample, every one in the full set), TPC placements -1 and 0.
 */
function presetSpaces(all: boolean): { what: string; preset: Preset; space: SpaceId }[] {
  const out: { what: string; preset: Preset; space: SpaceId }[] = [];
  for (const base of PRESETS) {
    const l1s = base.l1Configs ?? [];
    for (const cfg of [undefined, ...(all || l1s.length <= 2 ? l1s : [l1s[0]!, l1s.at(-1)!])]) {
      const preset = cfg ? withL1Config(base, cfg.id) : base;
      for (const space of Object.keys(preset.spaces) as SpaceId[]) {
        if (cfg && space !== 'global' && space !== 'global-cg') continue;
        out.push({ what: `${base.id}${cfg ? ` ${cfg.id}` : ''} ${space}`, preset, space });
      }
    }
  }
  return out;
}

/**
 * How much to compare: `npm test` a sample (2,000 accesses a preset space, two carveouts a preset,
 * 50 random geometries, 40 partitioned levels), the full set (12,000, every carveout, 300 and 120) in `npm run test:repro`
 * (tests/repro/compiled-path-full.test.ts sets it).
 */
const FULL = process.env.GPULAB_EQUIVALENCE === 'full';
const PRESET_ACCESSES = FULL ? 12_000 : 2_000;
const GEOMETRIES = FULL ? 300 : 50;
const PARTITIONED = FULL ? 120 : 40;

describe('compiled access path: the same latencies and state as the golden model', () => {
  const cases = presetSpaces(FULL);

  it('every preset, space and L1 configuration', { timeout: 300_000 }, () => {
    let accesses = 0;
    for (const { what, preset, space } of cases) {
      for (const tpc of [-1, 0]) {
        const g = openSpace(preset, space, 7, tpc);
        const cfg = g.config;
        const offsets = preset.measurement.tpcOffsets;
        const offset = tpc < 0 ? offsets.reduce((a, b) => a + b, 0) / offsets.length : offsets.length === 1 ? offsets[0] : offsets[tpc];
        const page = cfg.translation?.pageBytes ?? 4096;
        const span = Math.max(4 * (cfg.levels.at(-1)?.sizeBytes ?? 65536), 64 * page);
        accesses += comparePath(cfg, 7 + tpc, offset, stream(new Rng(accesses + 1), PRESET_ACCESSES, span, page), `${what} tpc ${tpc}`);
      }
    }
    expect(cases.length).toBeGreaterThan(FULL ? 40 : 30);
    console.log(`compiled path: ${cases.length} preset spaces x 2 placements, ${accesses} accesses`);
  });

  it(`${GEOMETRIES} random geometries (every policy, index function, unequal sets, sectors, fill units, TLBs, page windows)`, { timeout: 300_000 }, () => {
    let accesses = 0;
    const seen = { lru: 0, fifo: 0, random: 0, fermi: 0, lip: 0, bits: 0, xor: 0, interleave: 0, unequal: 0, sectored: 0, filter: 0, noAllocate: 0, window: 0, fill: 0 };
    for (let t = 0; t < GEOMETRIES; t++) {
      const rng = new Rng(1000 + t);
      const cfg = randomPath(rng);
      const all = [...cfg.levels, ...(cfg.translation ? [cfg.translation.l1, cfg.translation.l2] : [])];
      for (const l of all) {
        const g = l.geometry;
        seen[g.policy.kind]++;
        seen[g.index.kind]++;
        if (g.setWays) seen.unequal++;
        if (g.sectorBytes) seen.sectored++;
        if (g.fillBytes && g.fillBytes > (g.sectorBytes ?? g.lineBytes)) seen.fill++;
        if (Math.max(...(g.setWays ?? [g.ways])) > 8) seen.filter++;
        if (g.allocateOnMiss === false) seen.noAllocate++;
      }
      if (cfg.translation?.activeWindowBytes) seen.window++;
      const page = cfg.translation?.pageBytes ?? 4096;
      const cap = Math.max(...all.map((l) => l.sizeBytes), 4096);
      accesses += comparePath(cfg, 1000 + t, rng.int(3) * 0.5, stream(rng, 4000, cap * pick(rng, [1, 2, 8]), page), `random geometry ${t}: ${JSON.stringify(cfg)}`);
    }
    for (const [k, v] of Object.entries(seen)) expect(v, k).toBeGreaterThan(5);
    console.log(`compiled path: ${GEOMETRIES} random geometries, ${accesses} accesses, ${JSON.stringify(seen)}`);
  });

  it(`${PARTITIONED} random partitioned levels (2 and 4 partitions, with and without far copies, SMs on both sides of one chip)`, { timeout: 300_000 }, () => {
    let accesses = 0;
    const seen = { two: 0, four: 0, replicate: 0, plain: 0, near: 0, far: 0, copyHits: 0 };
    for (let t = 0; t < PARTITIONED; t++) {
      const rng = new Rng(5000 + t);
      const { cfg, count, li } = randomPartitionedPath(rng);
      seen[count === 2 ? 'two' : 'four']++;
      seen[cfg.levels[li].partitions!.replicateFar ? 'replicate' : 'plain']++;
      const sms = 4 * (1 + rng.int(4));
      // One SM near each partition (SM sm's near partition is floor(sm * count / sms)), on one chip.
      const sm = Array.from({ length: count }, (_, q) => Math.floor((q * sms) / count) + rng.int(sms / count));
      const gChip = new Chip(3000 + t, 2, sms);
      const cChip = new Chip(3000 + t, 2, sms);
      const offset = rng.int(3) * 0.5;
      const gModels = sm.map((x) => new PathModel(cfg, gChip, x, offset));
      const cModels = sm.map((x) => new PathModel(cfg, cChip, x, offset));
      gModels.forEach((m, q) => expect(m.partitions![li]!.near, `SM ${sm[q]} of ${sms}`).toBe(q));
      const page = cfg.translation?.pageBytes ?? 4096;
      const cap = Math.max(...cfg.levels.map((l) => l.sizeBytes), 4096);
      const addrs = stream(rng, 4000, cap * pick(rng, [1, 2, 8]), page);
      const chunk = 500;
      for (let from = 0, c = 0; from < addrs.length; from += chunk, c++) {
        const q = c % count;
        const part = addrs.subarray(from, from + chunk);
        const cc = compilePath(cModels[q]);
        if (typeof cc === 'string') expect.fail(`partitioned geometry ${t}: not compiled: ${cc}`);
        const g = outcome(part.length);
        const o = outcome(part.length);
        const far = new Uint8Array(part.length);
        for (let i = 0; i < part.length; i++) {
          g.lat[i] = gModels[q].access(part[i]);
          far[i] = gModels[q].lastFar;
          g.level[i] = gModels[q].lastLevel;
          g.tlb[i] = gModels[q].lastTlbCode;
          const first = gModels[q].caches[0] ?? gModels[q].l1Tlb;
          g.set[i] = first ? first.lastSet : -1;
          g.way[i] = first ? first.lastWay : -1;
          g.evicted[i] = first ? first.lastEvicted : -1;
          if (g.level[i] > li) seen[far[i] ? 'far' : 'near']++;
        }
        compiled(cc, part, o);
        expect(cModels[q].lastFar, `partitioned geometry ${t}: lastFar`).toBe(gModels[q].lastFar);
        expectSame(g, o, [chipState(gChip), gModels.map((m) => snapshot(m))], [chipState(cChip), cModels.map((m) => snapshot(m))], `partitioned geometry ${t} chunk ${c} (SM ${sm[q]}): ${JSON.stringify(cfg)}`);
        accesses += part.length;
      }
      // Far copies: a far line read twice from one SM hits its near copy the second time.
      const pl = cfg.levels[li].partitions!;
      if (pl.replicateFar) {
        const m = new PathModel(cfg, new Chip(1, 2, sms), sm[0], 0);
        const a = pl.interleaveBytes * (1 + count * rng.int(64)); // home partition 1: far from SM sm[0]
        m.access(a);
        m.access(a);
        if (m.lastLevel === li && m.lastFar === 0) seen.copyHits++;
      }
    }
    // (copy hits are counted only where no level before the partitioned one holds the line)
    for (const [k, v] of Object.entries(seen)) expect(v, k).toBeGreaterThan(k === 'copyHits' ? 1 : 3);
    console.log(`compiled path: ${PARTITIONED} random partitioned geometries, ${accesses} accesses, ${JSON.stringify(seen)}`);
  });

  it('the experiments: averageChase and fineChase give what the generic loops give, jitter and clock overhead included', { timeout: 120_000 }, () => {
    const fermi = PRESETS.find((p) => p.id === 'fermi')!;
    const volta = PRESETS.find((p) => p.id === 'volta')!;
    for (const preset of [fermi, volta]) {
      for (const [N, s] of [
        [12 * 1024, 128],
        [24 * 1024 + 128, 32],
        [64 * 2 ** 20, 2 ** 21 + 128],
      ]) {
        for (const jitter of [0, 3]) {
          const m1 = new Measurement(5, jitter, 9);
          const m2 = new Measurement(5, jitter, 9);
          const a = openSpace(preset, 'global', 3);
          const b = openSpace(preset, 'global', 3);
          const viaCompiled = averageChase(a, m1, N, s, 5000);
          // The generic loop (as averageChase ran before the compiled path).
          let j = 0;
          const per = Math.ceil(N / s);
          for (let i = 0; i < per; i++) {
            b.access(j);
            j += s;
            if (j >= N) j -= N;
          }
          let sum = 0;
          for (let i = 0; i < 5000; i++) {
            sum += m2.read(b.access(j));
            j += s;
            if (j >= N) j -= N;
          }
          expect(viaCompiled).toBe(sum / 5000);
          expect(snapshot(a)).toEqual(snapshot(b));
          // fineChase, the trace bounded below the accesses run.
          const m3 = new Measurement(0, jitter, 4);
          const m4 = new Measurement(0, jitter, 4);
          const calls: number[] = [];
          const t1 = fineChase(a, m3, (i) => (i * s) % N, 3000, (d) => calls.push(d));
          const g = outcome(3000);
          const addrs = Float64Array.from({ length: 3000 }, (_, i) => (i * s) % N);
          golden(b, addrs, g);
          for (let i = 0; i < 3000; i++) g.lat[i] = m4.read(g.lat[i]);
          expect(Array.from(t1.latency)).toEqual(Array.from(g.lat));
          expect(Array.from(t1.set)).toEqual(Array.from(g.set));
          expect(Array.from(t1.evicted)).toEqual(Array.from(g.evicted));
          expect(calls.length).toBe(50);
          expect(snapshot(a)).toEqual(snapshot(b));
        }
      }
    }
  });

  it('a path that cannot be compiled runs generically, and says so in one line', () => {
    const g: CacheGeometry = { lineBytes: 128, sets: 4, ways: 4, index: { kind: 'bits' }, policy: { kind: 'lru' } };
    // Two levels of one name and scope are one cache on a chip: the compiled path refuses that.
    const cfg: PathConfig = { description: 'twice', levels: [level('X', g), level('X', g)], latency: { 'X/-': 10, 'memory/-': 100 }, interconnectFrom: 2 };
    const model = new PathModel(cfg, new Chip(1, 1));
    expect(typeof compilePath(model)).toBe('string');
    expect(genericNote(model)).toMatch(/generic path runs/);
    expect(genericNote(model)!.split('\n')).toHaveLength(1);
    expect(averageChase(model, new Measurement(0, 0, 1), 4096, 128, 100)).toBe(10);
    for (const { preset, space } of cases) expect(genericNote(openSpace(preset, space, 1))).toBeNull();
  });

  it('a missing latency-table entry throws as the golden model does, with the same state', () => {
    const g: CacheGeometry = { lineBytes: 128, sets: 4, ways: 2, index: { kind: 'bits' }, policy: { kind: 'lru' } };
    const cfg: PathConfig = { description: 'gap', levels: [level('A', g)], latency: { 'A/-': 10 }, interconnectFrom: 1 };
    const a = new PathModel(cfg, new Chip(1, 1));
    const b = new PathModel(cfg, new Chip(1, 1));
    const c = compilePath(b) as CompiledPath;
    expect(() => a.access(1 << 20)).toThrow(/no entry for memory\/-/);
    expect(() => c.walk(2 ** 21, 0, 0, 1 << 20, 1)).toThrow(/no entry for memory\/-/);
    expect(snapshot(b)).toEqual(snapshot(a));
  });
});
