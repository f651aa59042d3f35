import { describe, expect, it } from 'vitest';
import { findExperiment } from '../../src-sim/experiments';
import { findPreset } from '../../src-sim/presets';
import type { Preset } from '../../src-sim/presets/types';
import {
  applySl1,
  arrayBases,
  chooseStructures,
  clnFor,
  evalIndex,
  mainLoopIndex,
  monitorKernel,
  residency,
  SL1_COSTS,
  SL1_MONITOR_ACCESSES,
  sl1Capacity,
  type StructureStats,
} from '../../src-sim/timing/sl1';
import type { Instr, Kernel, TimingConfig } from '../../src-sim/timing/types';
import { SL1_APPS } from '../../src-sim/timing/workloads/sl1-apps';
import { measureApp, preferL1, PREFER_L1_SHARED_BYTES, shapeFor, SL1_L1_SPLIT, withL1Allocate, withL1Split, type AppMeasureOptions } from '../../src-sim/experiments/sl1-common';
import { APP_PARAMS, SL1_THREAD_GRID } from '../../src-sim/experiments/sl1-apps';

/** A Titan-like configuration: only the fields S-L1 reads matter here. */
const cfg: TimingConfig = {
  sms: 15,
  maxWarpsPerSM: 64,
  maxThreadsPerSM: 2048,
  maxBlocksPerSM: 16,
  schedulers: 4,
  aluLatency: 10,
  coalesceBytes: 128,
  bypassBytes: 32,
  l2: { sets: 768, ways: 16, lineBytes: 128, mshrEntries: 32, mshrMergers: 4, hitLatency: 100, policy: 'lru', partitions: 12 },
  interconnect: { latency: 60, bytesPerCyclePerSM: 32, bytesPerCycleTotal: 1000 },
  dram: { channels: 6, latency: 110, bytesPerCycle: 340, burstBytes: 32 },
  shared: { bytesPerSM: 48 * 1024, latency: 80, bytesPerCycle: 64 },
  clocks: { coreMHz: 980, memoryMHz: 1750 },
};

/** A kernel with one structure per entry: [name, elemBytes, index per (gtid, r), readWrite?, store?]. */
function scanKernel(records: number, grid = 30, block = 1024): Kernel {
  const per = records;
  return {
    name: 'scan',
    grid,
    block,
    arrays: [
      { name: 'chars', elemBytes: 1, length: per * grid * block, space: 'global' },
      { name: 'ints', elemBytes: 4, length: per * grid * block, space: 'global' },
      { name: 'hash', elemBytes: 4, length: 1 << 20, space: 'global' },
      { name: 'out', elemBytes: 1, length: per * grid * block, space: 'global', readWrite: true },
    ],
    body: [
      { op: 'alu', count: 2, dst: 9 },
      {
        op: 'loop',
        var: 'r',
        count: records,
        body: [
          { op: 'ld', array: 'chars', dst: 1, index: { terms: [{ coef: per, var: 'gtid' }, { coef: 1, var: 'r' }] } },
          { op: 'ld', array: 'ints', dst: 2, index: { terms: [{ coef: per, var: 'gtid' }, { coef: 1, var: 'r' }] } },
          { op: 'ld', array: 'hash', dst: 3, index: { terms: [{ coef: 16411, var: 'r', mod: 63 }, { coef: 3, var: 'gtid', mod: 1021 }] } },
          { op: 'alu', count: 3, uses: [1, 2, 3], dst: 4 },
          { op: 'st', array: 'out', src: [4], index: { terms: [{ coef: per, var: 'gtid' }, { coef: 1, var: 'r' }] } },
        ],
      },
    ],
  };
}

const stats = (name: string, hits: number, misses: number, readWrite = false): StructureStats => ({
  name,
  readWrite,
  elemBytes: 4,
  hits,
  misses,
  hitRate: hits / (hits + misses),
});

describe('CLN (SL1 3.1)', () => {
  it('is floor((shared per SM / threads per SM) / line) on the paper examples', () => {
    // 48 KB shared, 2048 threads: 24 B each, one 16 B line; 1024 threads: 48 B, three lines.
    expect(clnFor({ sharedBytesPerSM: 49152, appSharedBytesPerSM: 0, threadsPerSM: 2048, lineBytes: 16 })).toBe(1);
    expect(clnFor({ sharedBytesPerSM: 49152, appSharedBytesPerSM: 0, threadsPerSM: 1024, lineBytes: 16 })).toBe(3);
    expect(clnFor({ sharedBytesPerSM: 49152, appSharedBytesPerSM: 0, threadsPerSM: 2048, lineBytes: 8 })).toBe(3);
    expect(clnFor({ sharedBytesPerSM: 49152, appSharedBytesPerSM: 0, threadsPerSM: 2048, lineBytes: 24 })).toBe(1);
    expect(clnFor({ sharedBytesPerSM: 49152, appSharedBytesPerSM: 0, threadsPerSM: 1024, lineBytes: 24 })).toBe(2);
  });

  it("subtracts the application's own shared memory first, and is 0 below a line per thread", () => {
    expect(clnFor({ sharedBytesPerSM: 49152, appSharedBytesPerSM: 16384, threadsPerSM: 1024, lineBytes: 16 })).toBe(2);
    expect(clnFor({ sharedBytesPerSM: 49152, appSharedBytesPerSM: 40960, threadsPerSM: 2048, lineBytes: 16 })).toBe(0);
    expect(clnFor({ sharedBytesPerSM: 49152, appSharedBytesPerSM: 60000, threadsPerSM: 256, lineBytes: 16 })).toBe(0);
    expect(clnFor({ sharedBytesPerSM: 49152, appSharedBytesPerSM: 0, threadsPerSM: 0, lineBytes: 16 })).toBe(0);
  });

  it('takes threads per SM from the launch and residency limits', () => {
    expect(residency(cfg, { grid: 30, block: 1024 })).toEqual({ blocksPerSM: 2, threadsPerSM: 2048 });
    expect(residency(cfg, { grid: 15, block: 1024 })).toEqual({ blocksPerSM: 1, threadsPerSM: 1024 });
    expect(residency(cfg, { grid: 480, block: 128 })).toEqual({ blocksPerSM: 16, threadsPerSM: 2048 });
    expect(residency(cfg, { grid: 60, block: 256, sharedBytesPerBlock: 20000 })).toEqual({ blocksPerSM: 2, threadsPerSM: 512 });
    const k = { ...scanKernel(10, 30, 256), sharedBytesPerBlock: 12288 };
    // 2 blocks of 256 per SM, 24 KB of the application's: 24 KB / 512 threads = 48 B = 3 lines.
    expect(sl1Capacity(cfg, k)).toMatchObject({ blocksPerSM: 2, threadsPerSM: 512, appSharedBytesPerSM: 24576, cln: 3 });
  });

  it("gives Kmeans no line: it takes the SM's shared memory for itself", () => {
    const km = SL1_APPS.find((a) => a.id === 'kmeans');
    for (const shape of [
      { grid: 15, block: 256 },
      { grid: 30, block: 1024 },
      { grid: 120, block: 128 },
    ]) {
      const k = km!.build({ shape, records: 50, config: cfg });
      expect(sl1Capacity(cfg, k).cln, JSON.stringify(shape)).toBe(0);
    }
  });
});

describe('addresses', () => {
  it('lays global arrays out in order, 4 KB aligned, skipping shared arrays', () => {
    const k: Kernel = {
      name: 'x',
      grid: 1,
      block: 32,
      body: [],
      arrays: [
        { name: 'a', elemBytes: 1, length: 100, space: 'global' },
        { name: 's', elemBytes: 4, length: 100, space: 'shared' },
        { name: 'b', elemBytes: 4, length: 2048, space: 'global' },
        { name: 'c', elemBytes: 4, length: 1, space: 'global' },
      ],
    };
    expect([...arrayBases(k, 100).entries()]).toEqual([
      ['a', 4096],
      ['b', 8192],
      ['c', 16384],
    ]);
  });

  it('evaluates index terms with div, mod, offset and the clamp', () => {
    const vars = { gtid: 70, r: 5 };
    expect(evalIndex({ terms: [{ coef: 10, var: 'gtid', div: 32 }, { coef: 1, var: 'r', mod: 4 }], offset: 3 }, vars, 1000)).toBe(20 + 1 + 3);
    expect(evalIndex({ terms: [{ coef: 100, var: 'gtid' }] }, vars, 1000)).toBe(999);
    expect(evalIndex({ terms: [{ coef: -1, var: 'r' }] }, vars, 1000)).toBe(0);
    expect(() => evalIndex({ terms: [{ coef: 1, var: 'q' }] }, vars, 10)).toThrow(/no value/);
  });
});

describe('monitoring phase (SL1 3.2.1)', () => {
  it('runs until 300 simulateCache() calls: iterations of the main loop rounded up', () => {
    const m = monitorKernel(scanKernel(1000));
    // Four global accesses per iteration: 75 iterations, 300 accesses per thread.
    expect(m.iterations).toBe(75);
    expect(m.accessesPerThread).toBe(SL1_MONITOR_ACCESSES);
    const m2 = monitorKernel(scanKernel(40));
    expect(m2.iterations).toBe(40);
  });

  it('sees the one-line hit rate of each structure: 15/16 for chars, 3/4 for ints, 0 for scattered', () => {
    const m = monitorKernel(scanKernel(1600));
    const by = Object.fromEntries(m.structures.map((s) => [s.name, s]));
    // 75 chars per thread from a 16 B aligned start (chunk 1600): 5 lines, 70 hits.
    expect(by.chars.hitRate).toBeCloseTo(70 / 75, 10);
    expect(by.ints.hitRate).toBeCloseTo((75 - 19) / 75, 10);
    expect(by.hash.hitRate).toBe(0);
    expect(by.out.hitRate).toBeCloseTo(70 / 75, 10);
    expect(by.out.readWrite).toBe(true);
    expect(m.threadsSampled).toBeGreaterThan(100);
  });

  it('depends on the line size: 8 B lines halve the char reuse, 24 B lines need not align', () => {
    const m8 = monitorKernel(scanKernel(1600), { lineBytes: 8 });
    const chars8 = m8.structures.find((s) => s.name === 'chars')!;
    expect(chars8.hitRate).toBeCloseTo((75 - 10) / 75, 10);
    const m24 = monitorKernel(scanKernel(1600), { lineBytes: 24 });
    const chars24 = m24.structures.find((s) => s.name === 'chars')!;
    expect(chars24.hitRate).toBeGreaterThan(0.9);
    expect(chars24.hitRate).toBeLessThan(0.99);
  });
});

describe('what to cache (SL1 3.2.2)', () => {
  it('caches only above a 50 % hit rate', () => {
    const c = chooseStructures([stats('half', 50, 50), stats('more', 51, 49), stats('none', 0, 0)], 3);
    expect(c.map((s) => s.cached)).toEqual([false, true, false]);
    expect(c[0].reason).toMatch(/not above 50/);
    expect(c[2].reason).toMatch(/not accessed/);
  });

  it('takes the CLN structures with most hits', () => {
    const c = chooseStructures([stats('a', 60, 40), stats('b', 90, 10), stats('c', 80, 20)], 2);
    expect(c.filter((s) => s.cached).map((s) => [s.name, s.slot])).toEqual([
      ['b', 0],
      ['c', 1],
    ]);
    expect(c[0].reason).toMatch(/outranked/);
    expect(chooseStructures([stats('a', 60, 40)], 0)[0].reason).toMatch(/CLN = 0/);
  });

  it('prefers read-only unless a read-write structure has twice the hits', () => {
    const lose = chooseStructures([stats('ro', 100, 10), stats('rw', 199, 1, true)], 1);
    expect(lose.find((s) => s.cached)?.name).toBe('ro');
    const win = chooseStructures([stats('ro', 100, 10), stats('rw', 200, 10, true)], 1);
    expect(win.find((s) => s.cached)?.name).toBe('rw');
    expect(win.find((s) => s.cached)?.reason).toMatch(/read-write/);
    // A read-write structure fills a line no read-only candidate wants.
    const both = chooseStructures([stats('ro', 100, 10), stats('rw', 150, 10, true)], 2);
    expect(both.filter((s) => s.cached).map((s) => s.name)).toEqual(['ro', 'rw']);
  });

  it('never caches a structure that is not allowed (atomics)', () => {
    const c = chooseStructures([stats('a', 90, 10)], 1, () => false);
    expect(c[0].cached).toBe(false);
    expect(c[0].reason).toMatch(/not cacheable/);
  });
});

type Access = string;

/** The sequence of (array, index) one thread performs, by walking the IR (honours loop starts). */
function trace(k: Kernel, gtid: number): Access[] {
  const out: Access[] = [];
  const len = new Map(k.arrays.map((a) => [a.name, a.length]));
  const vars: Record<string, number> = { gtid, tid: gtid % k.block, bid: Math.floor(gtid / k.block), bdim: k.block, gdim: k.grid };
  const walk = (body: readonly Instr[]): void => {
    for (const ins of body) {
      if (ins.op === 'ld' || ins.op === 'st') out.push(`${ins.op} ${ins.array}[${evalIndex(ins.index, vars, len.get(ins.array)!)}]`);
      else if (ins.op === 'loop') {
        const start = (ins as { start?: number }).start ?? 0;
        for (let i = 0; i < ins.count; i++) {
          vars[ins.var] = start + i;
          walk(ins.body);
        }
      }
    }
  };
  walk(k.body);
  return out;
}

function count(body: readonly Instr[], pred: (i: Instr) => boolean): number {
  let n = 0;
  for (const i of body) {
    if (pred(i)) n++;
    if (i.op === 'loop') n += i.count * count(i.body, pred);
  }
  return n;
}

describe('the S-L1 transform (SL1 3.2)', () => {
  const k = scanKernel(1000);

  it('keeps every access of every thread, in order', () => {
    const { kernel: t } = applySl1(cfg, k);
    for (const g of [0, 1, 31, 1023, 30719]) expect(trace(t, g)).toEqual(trace(k, g));
  });

  it('splits the main loop into a monitoring slice and a computation slice via S-L1', () => {
    const { kernel: t, decision } = applySl1(cfg, k);
    expect(mainLoopIndex(k)).toBe(1);
    expect(t.body[0]).toEqual(k.body[0]);
    const mon = t.body[1] as Extract<Instr, { op: 'loop' }>;
    const comp = t.body[3] as Extract<Instr, { op: 'loop' }>;
    expect(mon.count).toBe(75);
    expect(comp.count).toBe(925);
    // simulateCache() after each of the 4 accesses of a monitoring iteration.
    expect(mon.body.filter((i) => i.op === 'alu' && i.count === SL1_COSTS.monitorInstructions)).toHaveLength(4);
    expect(mon.body.some((i) => 'via' in i)).toBe(false);
    expect(comp.body.filter((i) => (i.op === 'ld' || i.op === 'st') && i.via === 'sl1')).toHaveLength(4);
    // 2048 threads per SM: one 16 B line, given to the read-only chars (RW "out" has no 2x hits).
    expect(decision.capacity.cln).toBe(1);
    expect(decision.cached).toEqual(['chars']);
    expect(t.sl1).toEqual({
      lineBytes: 16,
      slots: { chars: 0 },
      accessInstructions: SL1_COSTS.accessInstructions,
      missInstructions: SL1_COSTS.missInstructions,
      writebackInstructions: SL1_COSTS.writebackInstructions,
    });
    // The hit path's instructions precede accesses to the cached structure only.
    const idx = comp.body.findIndex((i) => i.op === 'ld' && i.array === 'chars');
    expect(comp.body[idx - 1]).toEqual({ op: 'alu', count: SL1_COSTS.cachedAccessInstructions });
    expect(comp.body[comp.body.findIndex((i) => i.op === 'ld' && i.array === 'ints') - 1].op).toBe('ld');
  });

  it('caches more structures when fewer threads leave more lines, and honours the line size', () => {
    const few = applySl1(cfg, scanKernel(1000, 15, 512));
    expect(few.decision.capacity.cln).toBe(6);
    expect(few.decision.cached).toEqual(['chars', 'ints', 'out']);
    const l8 = applySl1(cfg, k, { lineBytes: 8 });
    expect(l8.decision.capacity.cln).toBe(3);
    expect(l8.kernel.sl1?.lineBytes).toBe(8);
  });

  it('with cacheNothing keeps the layer (every access via S-L1) but caches nothing (SL1 Fig 12)', () => {
    const { kernel: t, decision } = applySl1(cfg, k, { cacheNothing: true });
    expect(decision.cached).toEqual([]);
    expect(t.sl1?.slots).toEqual({});
    expect(count(t.body, (i) => (i.op === 'ld' || i.op === 'st') && i.via === 'sl1')).toBe(925 * 4);
  });

  it('uses a loop start where the loop variable is under div/mod', () => {
    const km: Kernel = {
      ...k,
      body: [
        {
          op: 'loop',
          var: 'r',
          count: 400,
          body: [{ op: 'ld', array: 'ints', dst: 1, index: { terms: [{ coef: 1000, var: 'gtid' }, { coef: 7, var: 'r', div: 2 }, { coef: 1, var: 'r', mod: 2 }] } }],
        },
      ],
    };
    const { kernel: t } = applySl1(cfg, km);
    expect((t.body[2] as { start?: number }).start).toBe(300);
    expect(trace(t, 5)).toEqual(trace(km, 5));
  });

  it('returns a kernel without a main loop unchanged, saying so', () => {
    const flat: Kernel = { ...k, body: [{ op: 'ld', array: 'ints', dst: 1, index: { terms: [{ coef: 1, var: 'gtid' }] } }] };
    const r = applySl1(cfg, flat);
    expect(r.decision.transformed).toBe(false);
    expect(r.kernel.body).toEqual(flat.body);
    expect(r.kernel.sl1).toBeUndefined();
  });
});

describe('SL1 Table 1 application models', () => {
  it('use the number of data structures of Table 1 in their main loop', () => {
    for (const app of SL1_APPS) {
      const k = app.build({ shape: { grid: 30, block: 256 }, records: 64, config: cfg });
      const global = k.arrays.filter((a) => a.space === 'global').length;
      const shared = k.arrays.filter((a) => a.space === 'shared').length;
      expect([global + shared, shared], app.name).toEqual([app.structures, app.sharedStructures]);
      expect(mainLoopIndex(k), app.name).toBeGreaterThanOrEqual(0);
    }
  });

  /** Words of array `name` that the 32 lanes of warp 0 read with the main loop's first access to it (r = 0, inner vars 0). */
  const laneWords = (k: Kernel, name: string): number[] => {
    const li = mainLoopIndex(k);
    const find = (body: Instr[]): Extract<Instr, { op: 'ld' }> | undefined => {
      for (const i of body) {
        if (i.op === 'ld' && i.array === name) return i;
        if (i.op === 'loop') {
          const f = find(i.body);
          if (f) return f;
        }
      }
      return undefined;
    };
    const ins = find((k.body[li] as Extract<Instr, { op: 'loop' }>).body)!;
    const len = k.arrays.find((a) => a.name === name)!.length;
    return Array.from({ length: 32 }, (_, l) => evalIndex(ins.index, { gtid: l, tid: l, bid: 0, bdim: k.block, gdim: k.grid, r: 0, c: 0, d: 0, k: 0 }, len));
  };

  /** Dynamic loads of global array `name` in one iteration of the main loop (inner loops unrolled). */
  const loadsPerRecord = (k: Kernel, name: string): number => {
    const count = (body: Instr[]): number => body.reduce((n, i) => n + (i.op === 'loop' ? i.count * count(i.body) : i.op === 'ld' && i.array === name ? 1 : 0), 0);
    return count((k.body[mainLoopIndex(k)] as Extract<Instr, { op: 'loop' }>).body);
  };

  it('grep: the S-L1 binary reads each text char 3 times (K&P matcher), the plain one loads it twice; no other model changes with AppBuild.sl1', () => {
    const b = { shape: { grid: 30, block: 256 }, records: 64, config: cfg };
    for (const app of SL1_APPS) {
      const plain = app.build(b);
      const sl1 = app.build({ ...b, sl1: true });
      if (app.id === 'grep') {
        expect(loadsPerRecord(plain, 'text')).toBe(2);
        expect(loadsPerRecord(sl1, 'text')).toBe(3);
        // The same char each time: every text load of the record has one index (no inner-loop variable).
        const idx: string[] = [];
        const visit = (body: Instr[]): void => body.forEach((i) => (i.op === 'loop' ? visit(i.body) : i.op === 'ld' && i.array === 'text' && idx.push(JSON.stringify(i.index))));
        visit((sl1.body[mainLoopIndex(sl1)] as Extract<Instr, { op: 'loop' }>).body);
        expect(new Set(idx).size).toBe(1);
        expect(idx[0]).not.toContain('"j"');
      } else expect(sl1, app.name).toEqual(plain);
    }
  });

  it('Kmeans reads features coalesced (one particle per lane, feature-major); matrix multiply walks a row of A per lane', () => {
    const b = { shape: { grid: 30, block: 256 }, records: 64, config: cfg };
    const km = laneWords(SL1_APPS.find((a) => a.id === 'kmeans')!.build(b), 'points');
    expect(km).toEqual(Array.from({ length: 32 }, (_, l) => l));
    const mmK = SL1_APPS.find((a) => a.id === 'matmul')!.build(b);
    const a = laneWords(mmK, 'A');
    expect(a[1] - a[0]).toBe(64); // K = records: lanes on consecutive rows of A
    expect(new Set(laneWords(mmK, 'B')).size).toBe(1); // B[k][col] is one word for the warp
  });

  it('wc sees 15 of 16 hits with 16 B lines in the monitoring phase (SL1 4.2, Fig 8)', () => {
    const wc = SL1_APPS.find((a) => a.id === 'wc')!;
    const { decision } = applySl1(cfg, wc.build({ shape: { grid: 30, block: 1024 }, records: 4096, config: cfg }));
    expect(decision.monitor.structures[0].hitRate).toBeCloseTo(15 / 16, 2);
    expect(decision.cached).toEqual(['text']);
  });
});

describe('SL1 experiments', () => {
  const titan = findPreset('titan') as Preset;
  const quick = { apps: 'wc', threadsPerSM: '128,512', windowAccesses: 32, inputBytes: '4MB' };

  it('are registered with described parameters', () => {
    for (const id of ['sl1-throughput', 'sl1-wc-l1', 'sl1-apps', 'launch-sweep']) expect(findExperiment(id), id).toBeDefined();
  });

  it('sl1-apps draws per-application bars and reports keyed findings', () => {
    const r = findExperiment('sl1-apps')!.run(titan, quick, 1, () => {});
    const f7 = r.series.filter((s) => s.group === 'Fig 7: speedup over no L1');
    // The 48 KB hardware L1 is drawn beside SL1 4.1's 16 KB as a labelled what-if.
    expect(f7.map((s) => s.name)).toEqual(['hardware L1', 'S-L1', 'hardware L1, 48 KB (what-if)']);
    for (const s of f7) expect([s.style, s.xCategories]).toEqual(['bar', ['WC']]);
    const keys = r.findings.map((f) => f.key);
    for (const k of [
      'sl1.speedupOverNoL1.mean',
      'sl1.speedupOverHwL1.mean',
      'sl1.speedupOverHwL1.min',
      'sl1.speedupOverHwL1.max',
      'sl1.hitRate.wc',
      'sl1.overheadNothingCached.mean',
      'sl1.line8.worseCount',
      'sl1.line8.fasterCount',
      'sl1.line8.notSlowerCached',
      'whatIf.hw48.sl1OverHwL1.mean',
    ])
      expect(keys).toContain(k);
    expect(r.findings.find((f) => f.key === 'whatIf.hw48.sl1OverHwL1.mean')!.evidence).toMatch(/what-if, not judged/);
    // With l1Split 48 the judged runs are the 48 KB ones and no what-if is added.
    const r48 = findExperiment('sl1-apps')!.run(titan, { ...quick, l1Split: '48' }, 1, () => {});
    expect(r48.findings.map((f) => f.key)).not.toContain('whatIf.hw48.sl1OverHwL1.mean');
    const v = (res: typeof r, k: string) => res.findings.find((f) => f.key === k)!.value as number;
    expect(v(r48, 'sl1.speedupOverHwL1.mean')).toBe(v(r, 'whatIf.hw48.sl1OverHwL1.mean'));
    const hit = r.findings.find((f) => f.key === 'sl1.hitRate.wc')!.value as number;
    expect(hit).toBeGreaterThan(85);
    // SL1 4.4: wc issues fewer instructions with S-L1 (its hardware-L1 loads replay once per lane's line).
    expect(r.findings.find((f) => f.key === 'sl1.issuedDecreases')!.value).toBe('WC');
    expect(r.findings.find((f) => f.key === 'sl1.extraIssued.mean')!.value as number).toBeLessThan(0);
  });

  it('refuses a study beyond the work limit before simulating', () => {
    expect(() => findExperiment('sl1-apps')!.run(titan, { sms: 64, windowAccesses: 60000 }, 1, () => {})).toThrow(/over the limit/);
  });

  it('needs a preset with timing data and an L1 where the figure does', () => {
    const tesla = findPreset('tesla') as Preset;
    expect(() => findExperiment('sl1-wc-l1')!.run(tesla, {}, 1, () => {})).toThrow(/no L1/);
  });
});

describe('the hardware-L1 configuration (preferL1)', () => {
  it('takes the 48 KB L1 / 16 KB shared split of the 64 KB on-chip memory by adding ways', () => {
    const titan = (findPreset('titan') as Preset & { timing: TimingConfig }).timing;
    const l1 = titan.l1!;
    const hw = preferL1(titan);
    expect(hw.l1!.sets).toBe(l1.sets);
    expect(hw.shared.bytesPerSM).toBe(PREFER_L1_SHARED_BYTES);
    expect(hw.l1!.sets * hw.l1!.ways * hw.l1!.lineBytes).toBe(l1.sets * l1.ways * l1.lineBytes + titan.shared.bytesPerSM - PREFER_L1_SHARED_BYTES);
    expect(hw.l1!.sets * hw.l1!.ways * hw.l1!.lineBytes).toBe(48 * 1024); // SL1 1: at most 48 KB
    expect(titan.l1!.ways).toBe(l1.ways); // the preset is not changed
  });

  it('keeps an allocate-on-fill L1 at its MSHR entries per line (GPGPU-Sim streaming: 4 per line), an allocate-on-miss one at its count', () => {
    const titan = (findPreset('titan') as Preset & { timing: TimingConfig }).timing;
    expect(preferL1(titan).l1!.mshrEntries).toBe(1536); // dl1PrefL1 S:4:128:96: 384 lines x 4
    const onMiss = withL1Allocate(titan, 'miss');
    expect(preferL1(onMiss).l1!.mshrEntries).toBe(titan.l1!.mshrEntries);
  });

  it('leaves a configuration without an L1, or with no shared memory to give, as it is', () => {
    expect(preferL1(cfg)).toBe(cfg);
    const small = { ...cfg, l1: { sets: 4, ways: 32, lineBytes: 128, mshrEntries: 8, mshrMergers: 8, hitLatency: 80, policy: 'lru' as const }, shared: { ...cfg.shared, bytesPerSM: PREFER_L1_SHARED_BYTES } };
    expect(preferL1(small)).toBe(small);
  });
});

describe('the hardware L1 of the SL1 study (l1Split)', () => {
  it("runs SL1 4.1's 16 KB L1 by default, the 48 KB split only when asked or as the hw48 what-if", () => {
    const titan = findPreset('titan') as Preset & { timing: TimingConfig };
    expect(SL1_L1_SPLIT).toBe(16);
    expect(titan.timing.l1!.sets * titan.timing.l1!.ways * titan.timing.l1!.lineBytes).toBe(16 * 1024);
    expect(withL1Split(titan.timing, 16)).toBe(titan.timing);
    expect(withL1Split(titan.timing, 48)).toEqual(preferL1(titan.timing));
    const wc = SL1_APPS.find((a) => a.id === 'wc');
    if (!wc) throw new Error('no wc');
    // 256 online threads per SMX: 256 live lines thrash 16 KB (128 lines) and fit 48 KB (384 lines).
    const o: AppMeasureOptions = { sms: 1, inputBytes: 1 << 22, windowAccesses: 64, scheduler: 'lrr', seed: 1, maxCycles: 1e9 };
    const def = measureApp(titan, wc, shapeFor(256, 256), ['nol1', 'hw', 'hw48'], o);
    const at16 = measureApp(titan, wc, shapeFor(256, 256), ['hw'], { ...o, l1Split: 16 });
    const at48 = measureApp(titan, wc, shapeFor(256, 256), ['nol1', 'hw'], { ...o, l1Split: 48 });
    expect(at16.hw.cycles).toBe(def.hw.cycles);
    expect(at48.hw.cycles).toBe(def.hw48.cycles);
    expect(def.hw48.hitRate).toBeGreaterThan(def.hw.hitRate + 0.2);
    // no L1 does not depend on the split: the same measurement is reused.
    expect(at48.nol1).toBe(def.nol1);
  });

  it('sl1-apps defaults to 16 KB and offers 48 KB as a parameter', () => {
    const a = APP_PARAMS.find((x) => x.name === 'l1Allocate');
    expect(a && a.kind === 'enum' ? [a.default, a.options] : undefined).toEqual(['preset', ['preset', 'miss', 'fill']]);
    const p = APP_PARAMS.find((x) => x.name === 'l1Split');
    expect(p && p.kind === 'enum' ? [p.default, p.options] : undefined).toEqual(['16', ['16', '48']]);
  });
});

describe('SL1 launch shapes and measurement reuse', () => {
  it('splits an SMX\'s online threads into equal blocks of at most maxBlock', () => {
    expect(shapeFor(384, 256)).toEqual({ threadsPerSM: 384, block: 192, blocksPerSM: 2 });
    expect(shapeFor(768, 256)).toEqual({ threadsPerSM: 768, block: 256, blocksPerSM: 3 });
    expect(shapeFor(128, 256)).toEqual({ threadsPerSM: 128, block: 128, blocksPerSM: 1 });
    expect(shapeFor(1536, 1024)).toEqual({ threadsPerSM: 1536, block: 768, blocksPerSM: 2 });
    // SL1 4.1 steps online threads by 128 from 128 to 2048; the default grid is a subset.
    for (const t of SL1_THREAD_GRID) {
      expect(t % 128).toBe(0);
      const sh = shapeFor(t, 256);
      expect(sh.block * sh.blocksPerSM).toBe(t);
      expect(sh.block).toBeLessThanOrEqual(256);
    }
  });

  it('a warm-up moves the window later into one launch; the window is what it adds over the warm-up alone', () => {
    const titan = findPreset('titan') as Preset & { timing: TimingConfig };
    const wc = SL1_APPS.find((a) => a.id === 'wc');
    if (!wc) throw new Error('no wc');
    const base: AppMeasureOptions = { sms: 1, inputBytes: 1 << 22, windowAccesses: 16, scheduler: 'lrr', seed: 1, maxCycles: 1e8 };
    const cold = measureApp(titan, wc, shapeFor(128, 128), ['nol1', 'sl1'], base);
    const warm = measureApp(titan, wc, shapeFor(128, 128), ['nol1', 'sl1'], { ...base, warmAccesses: 32 });
    for (const m of ['nol1', 'sl1'] as const) {
      // the launch ran the 32 warm-up records and the window's 16: three times the cold window's work
      const ratio = warm[m].stats.warpInstructions / cold[m].stats.warpInstructions;
      expect(ratio).toBeGreaterThan(2.8);
      expect(ratio).toBeLessThan(3.2);
      // the window alone is timed
      expect(warm[m].windowCycles).toBeGreaterThan(0);
      expect(warm[m].windowCycles).toBeLessThan(warm[m].stats.cycles / 2);
    }
    // no L1 runs the same code per record in both windows
    expect(warm.nol1.instructionsPerRecord).toBeCloseTo(cold.nol1.instructionsPerRecord, 6);
    // S-L1's cold window starts mid-line with nothing cached: two misses in 16 records; after the
    // warm-up the window's first line is already in S-L1 (one miss, 8 instructions fewer per warp)
    expect(cold.sl1.hitRate).toBeCloseTo(14 / 16, 6);
    expect(warm.sl1.hitRate).toBeCloseTo(15 / 16, 6);
    expect(warm.sl1.instructionsPerRecord).toBeLessThan(cold.sl1.instructionsPerRecord);
  });

  it('reuses a measurement of the same configuration and recomputes for another', () => {
    const titan = findPreset('titan') as Preset & { timing: TimingConfig };
    const wc = SL1_APPS.find((a) => a.id === 'wc');
    if (!wc) throw new Error('no wc');
    const o: AppMeasureOptions = { sms: 1, inputBytes: 1 << 20, windowAccesses: 16, scheduler: 'lrr', seed: 1, maxCycles: 1e8 };
    const a = measureApp(titan, wc, shapeFor(64, 256), ['nol1'], o);
    const b = measureApp(titan, wc, shapeFor(64, 256), ['nol1', 'hw'], o);
    expect(b.nol1).toBe(a.nol1);
    expect(b.hw.mode).toBe('hw');
    // A slower L2 is another configuration: measured again, and slower.
    const slow = { ...titan, timing: { ...titan.timing, l2: { ...titan.timing.l2, hitLatency: titan.timing.l2.hitLatency + 200 } } };
    const c = measureApp(slow, wc, shapeFor(64, 256), ['nol1'], o);
    expect(c.nol1).not.toBe(a.nol1);
    expect(c.nol1.cycles).toBeGreaterThan(a.nol1.cycles);
  });
});

describe("Titan's hardware L1: GPGPU-Sim's streaming dl1 read literally (allocate on fill)", () => {
  const titan = findPreset('titan') as Preset & { timing: TimingConfig };

  it('allocates on fill with 4 MSHR entries per line and 64 merges, with provenance naming the streaming field', () => {
    const l1 = titan.timing.l1!;
    expect(l1.allocate).toBe('fill');
    expect(l1.mshrEntries).toBe(4 * l1.sets * l1.ways);
    expect(l1.mshrMergers).toBe(64);
    for (const k of ['allocate', 'mshrEntries', 'mshrMergers']) expect(titan.provenance[`timing.l1.${k}`], k).toMatch(/^assumed: no paper gives it; .*L:L:s:N:L/);
    // the latency tier's L1 has the timing tier's geometry
    const g = titan.spaces.global.levels[0].geometry;
    expect([g.sets, g.ways, g.lineBytes]).toEqual([l1.sets, l1.ways, l1.lineBytes]);
  });

  it('every Titan setting that SL1 does not give is marked assumed (MEI measured GTX 780, not the Titan Black)', () => {
    for (const [k, v] of Object.entries(titan.provenance)) if (!/^assumed: .{8,}/.test(v)) expect(v, k).toMatch(/^SL1 \d/);
    expect(titan.provenance['spaces.global.translation.l1']).toMatch(/^assumed: GK110 as MEI's GTX 780.*MEI Table 4/);
    expect(titan.provenance['spaces.texture.levels.0']).toMatch(/^assumed: GK110/);
    expect(titan.provenance['timing.dram.burstBytes']).toMatch(/^SL1 4\.2/);
  });

  it("withL1Allocate leaves the preset's policy alone for 'preset' and sets a what-if otherwise", () => {
    expect(withL1Allocate(titan.timing, 'preset')).toBe(titan.timing);
    expect(withL1Allocate(titan.timing, undefined)).toBe(titan.timing);
    expect(withL1Allocate(titan.timing, 'miss').l1!.allocate).toBe('miss');
    expect(titan.timing.l1!.allocate).toBe('fill');
  });

  it('SL1 Fig 1 (sl1-wc-l1): on fill the hit rate falls without a rise; reserving a way on each miss (what-if) zig-zags', { timeout: 120_000 }, () => {
    const exp = findExperiment('sl1-wc-l1')!;
    const threads = '128,192,256,384,512';
    const value = (r: ReturnType<typeof exp.run>, k: string) => r.findings.find((f) => f.key === k)!.value as number;
    const fill = exp.run(titan, { threads }, 1, () => {});
    const miss = exp.run(titan, { threads, l1Allocate: 'miss' }, 1, () => {});
    const yFill = fill.series[0].y;
    for (let i = 1; i < yFill.length; i++) expect(yFill[i], `${threads}: ${Array.from(yFill).join(', ')}`).toBeLessThanOrEqual(yFill[i - 1]);
    expect(value(fill, 'wc.largestRise')).toBe(0);
    expect(value(miss, 'wc.largestRise')).toBeGreaterThan(10);
    expect(fill.notes.join(' ')).toMatch(/allocates lines on fill \(the preset's policy\)/);
    expect(miss.notes.join(' ')).toMatch(/reserves a way on each miss \(a what-if\).*zig-zags/);
    // 128 threads, one line each, fill the 16 KB L1 exactly: on fill nearly every reuse hits
    expect(yFill[0]).toBeGreaterThan(95);
    expect(miss.series[0].y[0]).toBeLessThan(yFill[0] - 10);
  });

  it("hardware-L1 runs of sl1-apps take the allocation choice; the other modes do not depend on it", () => {
    const wc = SL1_APPS.find((a) => a.id === 'wc')!;
    const o: AppMeasureOptions = { sms: 1, inputBytes: 1 << 22, windowAccesses: 32, scheduler: 'preset', seed: 1, maxCycles: 1e9 };
    const fill = measureApp(titan, wc, shapeFor(256, 256), ['nol1', 'hw'], o);
    const miss = measureApp(titan, wc, shapeFor(256, 256), ['nol1', 'hw'], { ...o, l1Allocate: 'miss' });
    expect(miss.nol1).toBe(fill.nol1);
    expect(miss.hw.cycles).not.toBe(fill.hw.cycles);
    expect(measureApp(titan, wc, shapeFor(256, 256), ['hw'], { ...o, l1Allocate: 'fill' }).hw.cycles).toBe(fill.hw.cycles);
  });
});
