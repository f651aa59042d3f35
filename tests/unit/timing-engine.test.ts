import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src-sim/presets';
import { DramModel } from '../../src-sim/timing/units/dram-channel';
import { checkTimingConfig, simulate } from '../../src-sim/timing/engine';
import type { Instr, Kernel, TimingConfig } from '../../src-sim/timing/types';
import { STALL_REASONS } from '../../src-sim/timing/types';
import { formatIssues, validatePreset } from '../../src-sim/presets/validate';

const titan = findPreset('titan')!.timing!;
const fermi480 = findPreset('fermi480')!.timing!;

/** One SM of a preset: the per-SM mechanisms without the other SMs' traffic. */
const oneSm = (c: TimingConfig, patch: Partial<TimingConfig> = {}): TimingConfig => ({ ...c, sms: 1, ...patch });

const k = (name: string, grid: number, block: number, body: Instr[], arrays: Kernel['arrays'] = [{ name: 'x', elemBytes: 4, length: 1 << 23, space: 'global' }], extra: Partial<Kernel> = {}): Kernel => ({
  name,
  grid,
  block,
  arrays,
  body,
  ...extra,
});

const gtid = (coef = 1, offset = 0) => ({ terms: [{ coef, var: 'gtid' }], offset });

describe('timing engine: single requests', () => {
  // One thread loads x[0] twice (the second is an L1 hit, or an L2 hit with L1 off), in two launches.
  const twoLoads = k('two', 1, 1, [
    { op: 'ld', array: 'x', index: { terms: [] }, dst: 0 },
    { op: 'alu', count: 1, uses: [0], dst: 1 },
    { op: 'ld', array: 'x', index: { terms: [] }, dst: 2 },
    { op: 'alu', count: 1, uses: [2], dst: 3 },
  ]);

  it('an L1 hit costs the L1 hit latency; a miss costs the interconnect, L2 and DRAM on top', () => {
    const cold = simulate(titan, [twoLoads], { l1: 'hw' });
    const warm = simulate(titan, [twoLoads, twoLoads], { l1: 'hw' });
    // warm: (miss + 3 hits) / 4, cold: (miss + hit) / 2
    const hit = 2 * warm.avgMemLatency - cold.avgMemLatency;
    const miss = 2 * cold.avgMemLatency - hit;
    // one cycle from issue into the LSU, then the L1's own latency
    expect(hit).toBeCloseTo(titan.l1!.hitLatency + 1, 6);
    const floor = 2 * titan.interconnect.latency + titan.l2.hitLatency + titan.dram.latency;
    expect(miss).toBeGreaterThanOrEqual(floor);
    // plus the line's transfers over the SM port and the DRAM channel, and a few cycles of rounding
    const transfers = titan.l1!.lineBytes / titan.interconnect.bytesPerCyclePerSM + (titan.l2.lineBytes * titan.dram.channels) / titan.dram.bytesPerCycle;
    expect(miss).toBeLessThan(floor + transfers + 5);
    expect(cold.requests).toEqual({ l1: 2, l2: 1, dram: 1 });
    expect(cold.hits).toEqual({ l1: 1, l2: 0 });
  });

  it('with L1 bypassed the second load is an L2 hit of a 32 B segment', () => {
    const s = simulate(titan, [twoLoads], { l1: 'bypass' });
    expect(s.requests.l1).toBe(0);
    expect(s.requests.l2).toBe(2);
    expect(s.hits.l2).toBe(1);
    expect(s.bytes.interconnect).toBe(2 * titan.bypassBytes);
    // titan's L2 is sectored (SL1 4.2): the miss fetches one 32 B sector, not the line
    expect(s.bytes.dram).toBe(titan.l2.sectorBytes);
    const whole = simulate({ ...titan, l2: { ...titan.l2, sectorBytes: undefined } }, [twoLoads], { l1: 'bypass' });
    expect(whole.bytes.dram).toBe(titan.l2.lineBytes);
  });

  it('a second request for a fetched sector of a sectored L2 line hits and fetches nothing more', () => {
    // one bypass load of 32 B, then an L1 fill of the same 128 B line
    const s = simulate(titan, [
      k('a', 1, 1, [{ op: 'ld', array: 'x', index: { terms: [] }, dst: 0 }]),
    ], { l1: 'bypass' });
    const both = simulate(titan, [
      k('a', 1, 1, [{ op: 'ld', array: 'x', index: { terms: [] }, dst: 0 }]),
      k('b', 1, 1, [{ op: 'ld', array: 'x', index: { terms: [] }, dst: 0 }]),
    ], { l1: 'bypass' });
    expect(both.bytes.dram).toBe(s.bytes.dram);
    expect(both.hits.l2).toBe(1);
  });

  it("GPGPU-Sim's L2 write miss (writeMissFetch) sends the store on to DRAM and reads the line; DRAM moves whole bursts", () => {
    // one warp stores 32 chars (a 32 B segment) to a line no cache holds
    const store = k('st', 1, 32, [{ op: 'st', array: 'c', index: gtid() }], [{ name: 'c', elemBytes: 1, length: 1 << 16, space: 'global' }]);
    // the bandwidth DRAM model (no command timing, so no address decoder for the L2 map either): bytes are whole bursts
    const cfg = (writeMissFetch: boolean, burstBytes: number): TimingConfig => ({
      ...oneSm(fermi480),
      l2: { ...fermi480.l2, writeMissFetch, addressMap: undefined },
      dram: { ...fermi480.dram, burstBytes, timing: undefined },
    });
    // allocate without fetch: nothing reaches DRAM until the line is evicted
    expect(simulate(cfg(false, 64), [store], { l1: 'hw' }).bytes.dram).toBe(0);
    // write miss with fetch: the 32 B write costs a 64 B burst, the line read 128 B
    const fetch = simulate(cfg(true, 64), [store], { l1: 'hw' });
    expect(fetch.bytes.dram).toBe(64 + fermi480.l2.lineBytes);
    expect(fetch.requests.dram).toBe(2);
    // with 32 B bursts the write costs its own 32 B
    expect(simulate(cfg(true, 32), [store], { l1: 'hw' }).bytes.dram).toBe(32 + fermi480.l2.lineBytes);
    // a second store to the line while its fetch is under way goes to DRAM too, fetching nothing more
    const two = k('st2', 1, 64, [{ op: 'st', array: 'c', index: gtid() }], [{ name: 'c', elemBytes: 1, length: 1 << 16, space: 'global' }]);
    expect(simulate(cfg(true, 64), [two], { l1: 'hw' }).bytes.dram).toBe(2 * 64 + fermi480.l2.lineBytes);
    // the command-level model (fermi480's dram.timing) moves 64 B atoms: the same bytes and requests
    const timed = simulate(oneSm(fermi480), [store], { l1: 'hw' });
    expect(timed.bytes.dram).toBe(64 + fermi480.l2.lineBytes);
    expect(timed.requests.dram).toBe(2);
  });
});

describe('timing engine: GPGPU-Sim issue details', () => {
  it('a 2-entry instruction buffer (fetch) lets one warp issue two instructions per refill', () => {
    // 12 independent instructions of one warp
    const body: Instr[] = Array.from({ length: 12 }, (_, i) => ({ op: 'alu' as const, count: 1, dst: i }));
    const one = k('alu', 1, 32, body);
    const free = simulate(oneSm(fermi480, { fetch: undefined }), [one], {});
    const buffered = simulate(oneSm(fermi480), [one], {});
    const f = fermi480.fetch!;
    const issue = fermi480.issueCycles!;
    // without a buffer: one per issueCycles; with it: ibuffer instructions, then the refill's latency
    const pairs = 12 / f.ibuffer;
    expect(buffered.cycles - free.cycles).toBeGreaterThanOrEqual(pairs * (f.latency - issue) - f.latency);
    expect(buffered.cycles - free.cycles).toBeLessThanOrEqual(pairs * f.latency + f.latency);
  });

  it('memory instructions wait in a queue for a stalled LSU (memQueue) and their warps go on issuing', () => {
    // 16 warps, each one load of the same line, then 30 instructions that do not need it: the 9th load
    // stalls the LSU until the line's fill; warps whose load waits in the queue issue the rest meanwhile
    const body: Instr[] = [{ op: 'ld', array: 'x', index: { terms: [] }, dst: 0 }, ...Array.from({ length: 30 }, (_, i) => ({ op: 'alu' as const, count: 1, dst: i + 1 }))];
    const kern = k('pile', 2, 256, body);
    const none = simulate(oneSm(fermi480, { memQueue: 0 }), [kern], { l1: 'hw', scheduler: 'lrr', epochCycles: 20 });
    const queued = simulate(oneSm(fermi480), [kern], { l1: 'hw', scheduler: 'lrr', epochCycles: 20 });
    expect(queued.requests.l1).toBe(none.requests.l1);
    // the stall is the fill's wait either way
    expect(queued.stalls.nomerger).toBe(none.stalls.nomerger);
    expect(none.stalls.nomerger).toBeGreaterThan(200);
    // the queued warps' 30 instructions issue during it instead of after it
    const issuedBy = (r: ReturnType<typeof simulate>, t: number) => r.epochs.instructions.reduce((n, x, i) => n + (r.epochs.cycle[i] < t ? x : 0), 0);
    const stallEnd = none.stalls.nomerger;
    expect(issuedBy(queued, stallEnd)).toBeGreaterThanOrEqual(issuedBy(none, stallEnd) + fermi480.memQueue! * 30 / 2);
    expect(queued.cycles).toBeLessThan(none.cycles);
  });
});

describe('timing engine: GPGPU-Sim 3.2.2 issue path: memory pipeline stages (memCollectors), block launch', () => {
  const ic = fermi480.issueCycles!;
  it('a load reaches the LSU four issue slots after issue: ID_OC_MEM, a collector unit (read, then dispatch), OC_EX_MEM', () => {
    const one = k('one', 1, 32, [{ op: 'ld', array: 'x', index: gtid(), dst: 0 }]);
    const fifo = simulate(oneSm(fermi480, { memCollectors: undefined }), [one], { l1: 'hw' });
    const staged = simulate(oneSm(fermi480), [one], { l1: 'hw' });
    expect(staged.requests).toEqual(fifo.requests);
    expect(staged.cycles - fifo.cycles).toBe(4 * ic);
  });

  it('the two schedulers share ID_OC_MEM: one memory instruction per issue slot and SM', () => {
    // 2 warps (one per scheduler), each 4 independent loads: a FIFO queue takes a load from both
    // schedulers in one slot, the shared ID_OC_MEM one per slot
    const body: Instr[] = Array.from({ length: 4 }, (_, i) => ({ op: 'ld' as const, array: 'x', index: gtid(1, 64 * i), dst: i }));
    const two = k('two', 1, 64, body);
    const opts = { l1: 'hw' as const, scheduler: 'lrr' as const, epochCycles: ic };
    const fifo = simulate(oneSm(fermi480, { memCollectors: undefined }), [two], opts);
    const staged = simulate(oneSm(fermi480), [two], opts);
    expect(Math.max(...fifo.epochs.instructions)).toBe(2);
    expect(Math.max(...staged.epochs.instructions)).toBe(1);
    expect(staged.warpInstructions).toBe(fifo.warpInstructions);
  });

  it('an SM takes one new block per launchCycles (issue_block2core)', () => {
    // 8 one-warp blocks of a 20-instruction dependent chain (no fetch unit, so only the launch staggers
    // them): the last block starts 7 launch slots after the first and ends that much after a lone block
    const lc = fermi480.launchCycles!;
    const chain = (grid: number) => k('chain', grid, 32, [{ op: 'alu', count: 20, dst: 0 }]);
    const cfg = oneSm(fermi480, { fetch: undefined });
    const one = simulate(cfg, [chain(1)], {}).cycles;
    expect(simulate(cfg, [chain(8)], {}).cycles - one).toBeGreaterThanOrEqual(7 * lc);
    expect(simulate({ ...cfg, launchCycles: undefined }, [chain(8)], {}).cycles - one).toBeLessThan(7 * lc);
  });

  it('needs room for its stages in memQueue', () => {
    expect(checkTimingConfig({ ...fermi480, memQueue: 3 }).join()).toMatch(/memCollectors needs memQueue >= memCollectors \+ 2/);
    expect(checkTimingConfig(fermi480)).toEqual([]);
  });
});

describe('timing engine: command-level DRAM (GPGPU-Sim dram.cc)', () => {
  const t = fermi480.dram.timing!;
  const LAT = 200;
  /** Runs requests (line, write) on channel 0, all leaving the L2 at cycle 0; returns read-done times (DRAM cycles) and the model. */
  const runDram = (reqs: [number, boolean][]) => {
    const d = new DramModel(t, 6, 1400, 128, LAT);
    reqs.forEach(([line, w], i) => d.request(0, line, 128, w, w ? -1 : i, 0));
    const done: number[] = [];
    let now = 0;
    for (let n = 0; n < 1e6 && d.nextTime() !== Infinity; n++) {
      now = Math.max(now + 1, Math.ceil(d.nextTime()));
      d.advance(now);
      for (let i = 0; i < d.doneN; i++) done[d.doneEntry[i]] = Math.round(d.doneTime[i] / d.period);
      d.doneN = 0;
    }
    return { d, done };
  };
  // the k-th 128 B line of channel 0 (channels take turns every 256 B: two lines each)
  const ch0 = (k: number) => Math.floor(k / 2) * 12 + (k % 2);
  const arrive = Math.ceil(LAT / (1400 / t.clockMHz));

  it('a read to a closed bank: activate, tRCD, two column commands, CL', () => {
    const { done, d } = runDram([[ch0(0), false]]);
    // arrival, one cycle into the window and onto the bank, activate, tRCD, 2 atoms tCCDL apart, then CL + BL/ratio
    expect(done[0]).toBe(arrive + t.tRCD + t.tCCDL + t.CL + t.burstLength / t.dataCommandRatio);
    expect(d.colCmds).toBe(2);
  });

  it('a second row of the same bank waits for tRAS and the precharge; the open row is served first', () => {
    // lines 0 and 1024 of channel 0 share bank 0 (bank bits 8, 13-15) in rows 0 and 2 (row from bit 16)
    const other = ch0(1024);
    const { done } = runDram([[ch0(0), false], [other, false], [ch0(0), false]]);
    // FR-FCFS: the third request (row 0, open) goes before the second (row 1)
    expect(done[2]).toBeLessThan(done[1]);
    expect(done[1] - done[0]).toBeGreaterThanOrEqual(t.tRP + t.tRCD);
  });

  it('a write after a read waits the read-to-write turnaround; reads stream at tCCDL within a bank group', () => {
    const wr = runDram([[ch0(0), true], [ch0(0), false]]);
    const rr = runDram([[ch0(0), false], [ch0(0), false]]);
    expect(wr.d.colCmds).toBe(4);
    const bus = t.burstLength / t.dataCommandRatio;
    // write columns tRCDWR = tRCD - (WL + 1) after the activate, then tWTR = WL + BL/ratio + tCDLR before a read
    expect(wr.done[1]).toBe(arrive + (t.tRCD - (t.WL + 1)) + t.tCCDL + (t.WL + bus + t.tCDLR) + t.tCCDL + t.CL + bus);
    expect(rr.done[1]).toBeLessThan(wr.done[1]);
    // many reads to banks 0 and 1 (one bank group): one column command per tCCDL at best
    const stream = runDram(Array.from({ length: 64 }, (_, k) => [ch0(k), false] as [number, boolean]));
    const last = Math.max(...stream.done);
    expect(last - arrive).toBeGreaterThanOrEqual(128 * t.tCCDL - t.tCCDL);
    expect(stream.d.colCmds).toBe(128);
  });
});

describe('timing engine: coalescing and stall attribution', () => {
  it('a warp reading 32 consecutive ints is one request; a 128 B stride is 32 requests and 31 coalescing stalls', () => {
    const dense = simulate(oneSm(fermi480), [k('dense', 1, 32, [{ op: 'ld', array: 'x', index: gtid(), dst: 0 }])], { l1: 'hw' });
    expect(dense.requests.l1).toBe(1);
    expect(dense.stalls.coalescing).toBe(0);
    const strided = simulate(oneSm(fermi480), [k('strided', 1, 32, [{ op: 'ld', array: 'x', index: gtid(32), dst: 0 }])], { l1: 'hw' });
    expect(strided.requests.l1).toBe(32);
    // each further line holds the LSU for lsuCycles (2 on Fermi: 16 load/store units)
    expect(strided.stalls.coalescing).toBe(31 * (fermi480.lsuCycles ?? 1));
    // 32 distinct lines over 32 sets: the 32 MSHRs suffice, no other stall
    expect(strided.stalls.nomshrline + strided.stalls.nocacheline + strided.stalls.nomerger).toBe(0);
  });

  it('more requests to one pending line than merger fields stall on nomerger; more mergers remove them', () => {
    // 8 warps, each loading the same line 3 times: 24 requests on one MSHR entry.
    const body: Instr[] = [0, 1, 2].map((d) => ({ op: 'ld', array: 'x', index: { terms: [] }, dst: d }));
    const kern = k('sameline', 1, 256, body);
    const eight = simulate(oneSm(fermi480), [kern], { l1: 'hw' });
    expect(eight.stalls.nomerger).toBeGreaterThan(0);
    const many = simulate(oneSm(fermi480, { l1: { ...fermi480.l1!, mshrMergers: 32 } }), [kern], { l1: 'hw' });
    expect(many.stalls.nomerger).toBe(0);
    expect(many.cycles).toBeLessThan(eight.cycles);
  });

  it('misses to more lines of one set than it has ways stall on nocacheline; to more lines than MSHRs on nomshrline', () => {
    const line = fermi480.l1!.lineBytes;
    // lane l reads the line 1 MB x l: all in one set, by linear indexing and by fermi480's Fermi hash
    // (address bits 7-19 are the same for all of them)
    const oneSet = simulate(oneSm(fermi480), [k('oneset', 1, 32, [{ op: 'ld', array: 'x', index: gtid((1 << 20) / 4), dst: 0 }])], { l1: 'hw' });
    expect(oneSet.stalls.nocacheline).toBeGreaterThan(0);
    expect(oneSet.stalls.nomshrline).toBe(0);
    // 4 warps x 32 lanes on distinct lines over all sets: 128 lines > 32 MSHRs
    const wide = simulate(oneSm(fermi480), [k('wide', 1, 128, [{ op: 'ld', array: 'x', index: gtid(line / 4), dst: 0 }])], { l1: 'hw' });
    expect(wide.stalls.nomshrline).toBeGreaterThan(0);
  });

  it("allocate 'fill': a miss reserves no way, so misses to one set never stall on nocacheline; the fills keep the set's last lines", () => {
    const ways = fermi480.l1!.ways;
    const onFill = oneSm(fermi480, { l1: { ...fermi480.l1!, allocate: 'fill' } });
    // lane l reads the line 1 MB x l: 32 lines of one set
    const oneSet = k('oneset', 1, 32, [{ op: 'ld', array: 'x', index: gtid((1 << 20) / 4), dst: 0 }]);
    const miss = simulate(oneSm(fermi480), [oneSet], { l1: 'hw' });
    const fill = simulate(onFill, [oneSet], { l1: 'hw' });
    expect(miss.stalls.nocacheline).toBeGreaterThan(0);
    expect(fill.stalls.nocacheline).toBe(0);
    expect(fill.requests.l2).toBe(32);
    expect(fill.cycles).toBeLessThan(miss.cycles);
    // run again: the set holds `ways` of the 32 lines, which hit
    const again = simulate(onFill, [oneSet, oneSet], { l1: 'hw' });
    expect(again.hits.l1).toBe(ways);
    expect(again.requests.l1).toBe(64);
  });

  it("allocate 'fill': requests for a pending line merge into its MSHR entry (one fetch), bounded by the merger fields", () => {
    const body: Instr[] = [0, 1, 2].map((d) => ({ op: 'ld', array: 'x', index: { terms: [] }, dst: d }));
    const kern = k('sameline', 1, 256, body);
    const s = simulate(oneSm(fermi480, { l1: { ...fermi480.l1!, allocate: 'fill' } }), [kern], { l1: 'hw' });
    expect(s.requests.l2).toBe(1);
    expect(s.stalls.nomerger).toBeGreaterThan(0);
    expect(s.stalls.nocacheline).toBe(0);
    expect(s.requests.l1).toBe(24);
  });

  it('stall cycles never exceed the LSU cycles there were, and the epoch series add up', () => {
    const s = simulate(fermi480, [k('stencil-ish', 60, 256, [
      { op: 'ld', array: 'x', index: gtid(1, -1), dst: 0 },
      { op: 'ld', array: 'x', index: gtid(1, 1), dst: 1 },
      { op: 'alu', count: 2, uses: [0, 1], dst: 2 },
      { op: 'st', array: 'x', index: gtid(1, 4096), src: [2] },
    ])], { l1: 'hw', epochCycles: 100 });
    const total = STALL_REASONS.reduce((a, r) => a + s.stalls[r], 0);
    expect(total).toBeLessThanOrEqual(s.cycles * fermi480.sms);
    const sum = (a: Float64Array) => a.reduce((x, y) => x + y, 0);
    expect(sum(s.epochs.stallCycles)).toBe(total);
    expect(sum(s.epochs.instructions)).toBe(s.warpInstructions);
    expect(s.epochs.cycle.length).toBe(Math.ceil(s.cycles / 100));
    expect(Math.max(...s.epochs.mshrOccupancy)).toBeLessThanOrEqual(fermi480.l1!.mshrEntries);
  });
});

describe('timing engine: blocks, shared memory, S-L1', () => {
  it('shared memory per block limits residency and so the time', () => {
    const body: Instr[] = [{ op: 'ld', array: 'x', index: gtid(32), dst: 0 }, { op: 'alu', count: 1, uses: [0], dst: 1 }];
    const small = simulate(titan, [k('small', 60, 128, body)], { l1: 'bypass' });
    const big = simulate(titan, [k('big', 60, 128, body, undefined, { sharedBytesPerBlock: 40 * 1024 })], { l1: 'bypass' });
    expect(big.cycles).toBeGreaterThan(small.cycles);
    expect(() => simulate(titan, [k('huge', 1, 128, body, undefined, { sharedBytesPerBlock: 64 * 1024 })], { l1: 'bypass' })).toThrow(/does not fit/);
  });

  it('shared-memory arrays are served by the shared pipe, not the caches', () => {
    const s = simulate(titan, [k('sh', 2, 64, [
      { op: 'st', array: 's', index: { terms: [{ coef: 1, var: 'tid' }] }, src: [] },
      { op: 'sync' },
      { op: 'ld', array: 's', index: { terms: [{ coef: 1, var: 'tid' }] }, dst: 0 },
    ], [{ name: 's', elemBytes: 4, length: 64, space: 'shared' }])], { l1: 'hw' });
    expect(s.sharedAccesses).toBe(2 * 2 * 2);
    expect(s.requests).toEqual({ l1: 0, l2: 0, dram: 0 });
  });

  it('S-L1 serves a thread-private scan from 16 B software lines: 15 of 16 char accesses hit', () => {
    const chunk = 64;
    const body: Instr[] = [{ op: 'loop', var: 'i', count: chunk, body: [
      { op: 'ld', array: 'c', index: { terms: [{ coef: chunk, var: 'gtid' }, { coef: 1, var: 'i' }] }, dst: 0, via: 'sl1' },
      { op: 'alu', count: 1, uses: [0], dst: 1 },
    ] }];
    const arrays: Kernel['arrays'] = [{ name: 'c', elemBytes: 1, length: 15 * 256 * chunk, space: 'global' }];
    const sl1 = { lineBytes: 16, slots: { c: 0 }, accessInstructions: 4, missInstructions: 4, writebackInstructions: 4 };
    const cached = simulate(titan, [k('scan', 15, 256, body, arrays, { sl1 })], { l1: 'bypass' });
    const threads = 15 * 256;
    expect(cached.sl1.misses).toBe(threads * (chunk / 16));
    expect(cached.sl1.hits).toBe(threads * chunk - cached.sl1.misses);
    expect(cached.sl1.writebacks).toBe(0);
    // every warp access reads shared memory; the 1 in 16 that miss first write the fetched lines there
    const warps = threads / 32;
    expect(cached.sharedAccesses).toBe(warps * chunk + warps * (chunk / 16));
    const plain = simulate(titan, [k('scan', 15, 256, body, arrays)], { l1: 'bypass' });
    expect(cached.bytes.interconnect).toBeLessThan(plain.bytes.interconnect);
    expect(cached.cycles).toBeLessThan(plain.cycles);
    // nothing cached: only the extra instructions
    const none = simulate(titan, [k('scan', 15, 256, body, arrays, { sl1: { ...sl1, slots: {} } })], { l1: 'bypass' });
    expect(none.warpInstructions - plain.warpInstructions).toBe(sl1.accessInstructions * chunk * (threads / 32));
  });

  it('S-L1 writes back dirty lines on eviction and at the end', () => {
    const body: Instr[] = [{ op: 'loop', var: 'i', count: 8, body: [
      { op: 'st', array: 'o', index: { terms: [{ coef: 8, var: 'gtid' }, { coef: 1, var: 'i' }] }, src: [], via: 'sl1' },
    ] }];
    const sl1 = { lineBytes: 16, slots: { o: 0 }, accessInstructions: 4, missInstructions: 4, writebackInstructions: 4 };
    const s = simulate(titan, [k('w', 1, 32, body, [{ name: 'o', elemBytes: 4, length: 32 * 8, space: 'global', readWrite: true }], { sl1 })], { l1: 'bypass' });
    // each thread writes 8 ints = two 16 B lines: one eviction write-back and one at the end
    expect(s.sl1.misses).toBe(32 * 2);
    expect(s.sl1.writebacks).toBe(32 * 2);
  });
});

describe('timing engine: loops, layout and S-L1 line widths', () => {
  it('a loop with a start runs its variable from start', () => {
    // thread 0 reads x[32 i], one 128 B line per i
    const body = (start: number): Instr[] => [{ op: 'loop', var: 'i', count: 3, start, body: [{ op: 'ld', array: 'x', index: { terms: [{ coef: 32, var: 'i' }] }, dst: 0 }, { op: 'alu', count: 1, uses: [0], dst: 1 }] }];
    const a = simulate(oneSm(fermi480), [k('a', 1, 1, body(0)), k('b', 1, 1, body(2))], { l1: 'hw' });
    // lines 0,1,2 then 2,3,4: line 2 hits the second time
    expect(a.hits.l1).toBe(1);
    expect(a.requests.l1).toBe(6);
  });

  it('arrays keep their addresses across launches, so caches stay warm', () => {
    const read: Instr[] = [{ op: 'ld', array: 'x', index: gtid(), dst: 0 }, { op: 'alu', count: 1, uses: [0], dst: 1 }];
    const s = simulate(oneSm(fermi480), [k('a', 1, 32, read), k('b', 1, 32, read)], { l1: 'hw' });
    expect(s.hits.l1).toBe(1);
  });

  it('a 24 B S-L1 line moves in two loads per miss (16 + 8 B), a 16 B line in one', () => {
    const body: Instr[] = [{ op: 'ld', array: 'c', index: { terms: [{ coef: 48, var: 'gtid' }] }, dst: 0, via: 'sl1' }, { op: 'alu', count: 1, uses: [0], dst: 1 }];
    const arrays: Kernel['arrays'] = [{ name: 'c', elemBytes: 1, length: 32 * 48, space: 'global' }];
    const sl1 = (lineBytes: number) => ({ lineBytes, slots: { c: 0 }, accessInstructions: 4, missInstructions: 4, writebackInstructions: 4 });
    const l16 = simulate(titan, [k('s', 1, 32, body, arrays, { sl1: sl1(16) })], { l1: 'bypass' });
    const l24 = simulate(titan, [k('s', 1, 32, body, arrays, { sl1: sl1(24) })], { l1: 'bypass' });
    expect(l16.sl1.misses).toBe(32);
    expect(l24.sl1.misses).toBe(32);
    // one more global load instruction per warp for the 24 B line
    expect(l24.warpInstructions - l16.warpInstructions).toBe(1);
    expect(l24.bytes.interconnect).toBeGreaterThan(l16.bytes.interconnect);
  });
});

describe('timing engine: GPGPU-Sim 3.2.2 queues and ports (fermi480)', () => {
  // 48 warps on one SM, each one 128 B store (a line of 4-byte words): 5 flits of 32 B with the header
  const stores = k('stores', 6, 256, [{ op: 'st', array: 'x', index: gtid() }]);

  it('stores wait in the L1 miss queue for room in the SM injection buffer (missQueue)', () => {
    const off = simulate(oneSm(fermi480, { missQueue: undefined }), [stores], { l1: 'hw' });
    const on = simulate(oneSm(fermi480), [stores], { l1: 'hw' });
    expect(off.missQueueStalls).toBeUndefined();
    expect(on.requests).toEqual(off.requests);
    // the LSU could hand a store over every lsuCycles, the port takes one per 136 / 16 cycles
    expect(on.missQueueStalls!).toBeGreaterThan(0);
    const port = (48 * (8 + 128)) / fermi480.interconnect.bytesPerCyclePerSM;
    expect(on.cycles).toBeGreaterThanOrEqual(port);
    // a queue and buffer longer than the work never refuse a store
    const long = simulate(oneSm(fermi480, { missQueue: { ...fermi480.missQueue!, entries: 64, injectFlits: 4096 } }), [stores], { l1: 'hw' });
    expect(long.missQueueStalls).toBe(0);
    expect(long.requests).toEqual(on.requests);
  });

  it('a warp ends only when its stores are acknowledged (storeAcks)', () => {
    const st = (grid: number) => k('st1', grid, 32, [{ op: 'st', array: 'x', index: gtid() }]);
    const acked = oneSm(fermi480, { maxBlocksPerSM: 1 });
    const fire = oneSm(fermi480, { maxBlocksPerSM: 1, storeAcks: undefined });
    const extra = (ks: Kernel[]) => {
      const a = simulate(acked, ks, { l1: 'hw' });
      const b = simulate(fire, ks, { l1: 'hw' });
      expect(a.requests).toEqual(b.requests);
      return a.cycles - b.cycles;
    };
    const icnt = fermi480.interconnect.latency;
    const dram = fermi480.dram.latency;
    // a store that misses in L2 (wr_miss_wa) is answered when DRAM has written it, then crosses back
    const cold = extra([st(1)]);
    expect(cold).toBeGreaterThanOrEqual(dram + icnt);
    expect(cold).toBeLessThan(dram + icnt + 100);
    // the same store again hits in L2: the slice answers at once, only the way back is added
    const warm = extra([st(1), st(1)]) - cold;
    expect(warm).toBeGreaterThanOrEqual(icnt);
    expect(warm).toBeLessThan(icnt + 20);
    // one block at a time: the second block starts only when the first one's store came back
    const hl = fermi480.l2.hitLatency;
    expect(extra([st(2)])).toBeGreaterThanOrEqual(cold + 2 * icnt + hl + dram);
  });

  it('store replies balance under either scheduler: every store is answered once', () => {
    const copy = k('copy2', 240, 256, [
      { op: 'ld', array: 'x', index: gtid(), dst: 0 },
      { op: 'st', array: 'x', index: gtid(1, 1 << 19), src: [0] },
    ]);
    for (const scheduler of ['lrr', 'gto'] as const) {
      const a = simulate(fermi480, [copy], { l1: 'hw', scheduler });
      const b = simulate({ ...fermi480, storeAcks: undefined }, [copy], { l1: 'hw', scheduler });
      expect(a.requests.l2).toBe(b.requests.l2);
      // 1920 warps, one 128 B store each: one 8 B reply per store on the way back
      expect(a.bytes.interconnect - b.bytes.interconnect).toBe(1920 * 8);
    }
  });

  it('a slice that takes requests slowly backs up into the SMs (interconnect.l2Input)', () => {
    // every warp stores a line of slice 0: lines 0, 24, 48, ... (l2.addressMap: 256 B chunks go to the
    // 6 channels in turn and every 6th chunk alternates between a channel's two slices)
    const P = fermi480.l2.partitions;
    expect(fermi480.l2.addressMap && fermi480.dram.timing?.interleaveBytes).toBe(256);
    const oneSlice = k('slice0', 6, 256, [{ op: 'st', array: 'x', index: { terms: [{ coef: 1, var: 'tid', mod: 32 }, { coef: 64 * P, var: 'gtid', div: 32 }] } }]);
    const li = fermi480.interconnect.l2Input!;
    const tight = { ...fermi480.interconnect, l2Input: { ...li, queue: 1, cycles: 32 } };
    const base = simulate(oneSm(fermi480), [oneSlice], { l1: 'hw' });
    const slow = simulate(oneSm(fermi480, { interconnect: tight }), [oneSlice], { l1: 'hw' });
    // one request per 32 cycles at the slice: the SM cannot go faster than that
    expect(slow.cycles).toBeGreaterThanOrEqual(48 * 32);
    expect(slow.requests).toEqual(base.requests);
    expect(slow.missQueueStalls!).toBeGreaterThan(base.missQueueStalls!);
    expect(slow.cycles).toBeGreaterThan(base.cycles);
  });

  it('L2 hits hold a slice data port for size / port width slice cycles (l2.port)', () => {
    // 480 KB read twice: the second launch misses the 16 KB L1s and hits the 768 KB L2 (128 B fills)
    const rd = k('rd', 480, 256, [{ op: 'ld', array: 'x', index: gtid(), dst: 0 }, { op: 'alu', count: 1, uses: [0], dst: 1 }]);
    const narrow = simulate(fermi480, [rd, rd], { l1: 'hw' });
    const wide = simulate({ ...fermi480, l2: { ...fermi480.l2, port: { ...fermi480.l2.port!, bytes: 128 } } }, [rd, rd], { l1: 'hw' });
    const none = simulate({ ...fermi480, l2: { ...fermi480.l2, port: undefined } }, [rd, rd], { l1: 'hw' });
    expect(narrow.requests.l1).toBe(wide.requests.l1);
    expect(narrow.hits.l2).toBeGreaterThan(3000);
    expect(narrow.cycles).toBeGreaterThan(wide.cycles);
    expect(wide.cycles).toBeGreaterThanOrEqual(none.cycles);
  });

  it('requests for DRAM wait in bounded L2 -> DRAM queues and all reach DRAM (l2.dramQueue)', () => {
    const body: Instr[] = [
      { op: 'ld', array: 'x', index: gtid(), dst: 0 },
      { op: 'st', array: 'x', index: gtid(1, 1 << 19), src: [0] },
    ];
    const kern = k('copy', 120, 256, body);
    const def = simulate(fermi480, [kern], { l1: 'hw' });
    const tiny = simulate({ ...fermi480, l2: { ...fermi480.l2, dramQueue: { missQueue: 2, queue: 1 } } }, [kern], { l1: 'hw' });
    const none = simulate({ ...fermi480, l2: { ...fermi480.l2, dramQueue: undefined } }, [kern], { l1: 'hw' });
    expect(tiny.requests).toEqual(def.requests);
    expect(none.requests).toEqual(def.requests);
    expect(tiny.bytes.dram).toBe(def.bytes.dram);
    expect(none.bytes.dram).toBe(def.bytes.dram);
    // the bound changes the order DRAM sees the requests in, not what it moves
    expect(tiny.cycles).not.toBe(none.cycles);
  });
});

describe('timing engine: GPGPU-Sim 3.2.2 stores, statistics and the DRAM return path (fermi480)', () => {
  // 4-byte elements, 32 per 128 B line; the lines 1 MB x j apart share one L1 set (by fermi480's
  // Fermi hash as by linear indexing: address bits 7-19 are the same)
  const inSet0 = (j: number) => ({ terms: [{ coef: 1, var: 'tid' }], offset: (1 << 18) * j });

  it('a store to a set whose ways are all reserved waits for a fill; a store hit evicts the line (storeTags)', () => {
    const fill = k('fill', 1, 32, [0, 1, 2, 3].map((j) => ({ op: 'ld', array: 'x', index: inSet0(j), dst: j }) as Instr).concat([{ op: 'st', array: 'x', index: inSet0(4), src: [] }]));
    const on = simulate(oneSm(fermi480), [fill], { l1: 'hw' });
    const off = simulate(oneSm(fermi480, { storeTags: undefined }), [fill], { l1: 'hw' });
    expect(on.stalls.nocacheline).toBeGreaterThan(0);
    expect(off.stalls.nocacheline).toBe(0);
    expect(on.l1Stores).toEqual({ accesses: 1, misses: 1, pendingHits: 0 });
    expect(off.l1Stores).toBeUndefined();
    // load, wait for it, store to the same line (a hit: write-evict), load again
    const evict = k('evict', 1, 32, [
      { op: 'ld', array: 'x', index: inSet0(0), dst: 0 },
      { op: 'alu', count: 1, uses: [0], dst: 1 },
      { op: 'st', array: 'x', index: inSet0(0), src: [1] },
      { op: 'ld', array: 'x', index: inSet0(0), dst: 2 },
      { op: 'alu', count: 1, uses: [2], dst: 3 },
    ]);
    const ev = simulate(oneSm(fermi480), [evict], { l1: 'hw' });
    const keep = simulate(oneSm(fermi480, { storeTags: undefined }), [evict], { l1: 'hw' });
    expect(ev.l1Stores).toEqual({ accesses: 1, misses: 0, pendingHits: 0 });
    expect(ev.l1Fetches).toBe(2);
    expect(keep.l1Fetches).toBe(1);
  });

  it("store acknowledgements count in the memory-fetch latency, as GPGPU-Sim's averagemflatency", () => {
    const st = k('st', 30, 256, [{ op: 'st', array: 'x', index: gtid(), src: [] }]);
    const acked = simulate(fermi480, [st], { l1: 'hw' });
    const unacked = simulate({ ...fermi480, storeAcks: undefined }, [st], { l1: 'hw' });
    expect(acked.avgFetchLatency!).toBeGreaterThan(2 * fermi480.interconnect.latency);
    expect(unacked.avgFetchLatency).toBe(0);
  });

  it('fills and store replies come back through bounded DRAM -> L2 and return queues (l2.dramReturn)', () => {
    const copy = k('copy3', 240, 256, [
      { op: 'ld', array: 'x', index: gtid(), dst: 0 },
      { op: 'st', array: 'x', index: gtid(1, 1 << 19), src: [0] },
    ]);
    const base = simulate(fermi480, [copy], { l1: 'hw' });
    const tight = simulate({ ...fermi480, l2: { ...fermi480.l2, dramReturn: { queue: 1, returnQueue: 1 } } }, [copy], { l1: 'hw' });
    const none = simulate({ ...fermi480, l2: { ...fermi480.l2, dramReturn: undefined } }, [copy], { l1: 'hw' });
    expect(tight.requests).toEqual(base.requests);
    expect(none.requests.dram).toBe(base.requests.dram);
    // every store is still answered once
    expect(tight.bytes.interconnect).toBe(base.bytes.interconnect);
    expect(tight.cycles).toBeGreaterThan(base.cycles);
  });
});

describe('timing engine: contract', () => {
  it('is deterministic', () => {
    const kern = k('d', 40, 256, [
      { op: 'ld', array: 'x', index: gtid(3), dst: 0 },
      { op: 'alu', count: 3, uses: [0], dst: 1 },
      { op: 'st', array: 'x', index: gtid(1, 65536), src: [1] },
    ]);
    const a = simulate(fermi480, [kern], { l1: 'hw', scheduler: 'lrr' });
    const b = simulate(fermi480, [kern], { l1: 'hw', scheduler: 'lrr' });
    expect(b).toEqual(a);
  });

  it('refuses a bad config and a kernel naming an unknown array or loop variable', () => {
    expect(checkTimingConfig({ ...titan, coalesceBytes: 96 })).toContain('coalesceBytes must be a power of two (got 96)');
    expect(checkTimingConfig({ ...titan, l2: { ...titan.l2, allocate: 'fill' } })[0]).toMatch(/l2\.allocate: the allocation policy is an L1 setting/);
    expect(checkTimingConfig({ ...titan, l1: { ...titan.l1!, allocate: 'later' as 'fill' } })).toContain('l1.allocate must be one of miss, fill (got later)');
    expect(() => simulate({ ...titan, sms: 0 }, [])).toThrow(/sms must be a positive whole number/);
    expect(() => simulate(titan, [k('bad', 1, 32, [{ op: 'ld', array: 'nope', index: gtid(), dst: 0 }])])).toThrow(/unknown array "nope"/);
    expect(() => simulate(titan, [k('bad', 1, 32, [{ op: 'ld', array: 'x', index: { terms: [{ coef: 1, var: 'j' }] }, dst: 0 }])])).toThrow(/"j"/);
  });

  it("a custom preset's timing block is validated with paths a user can act on", () => {
    const clone = JSON.parse(JSON.stringify(findPreset('titan'))) as ReturnType<typeof findPreset> & object;
    clone.timing!.coalesceBytes = 96;
    clone.timing!.sms = 14;
    delete (clone.provenance as Record<string, string>)['timing.l1.mshrMergers'];
    const v = validatePreset(clone);
    expect(v.ok).toBe(false);
    const msg = v.ok ? '' : formatIssues(v.issues);
    expect(msg).toMatch(/timing: coalesceBytes must be a power of two \(got 96\)/);
    expect(msg).toMatch(/timing\.sms: 14 SMs, but chip\.sms says 15/);
    expect(msg).toMatch(/timing\.l1\.mshrMergers: has no provenance/);
  });

  it('reports progress up to the total', () => {
    const seen: number[] = [];
    simulate(titan, [k('p', 64, 128, [{ op: 'alu', count: 2 }])], { progress: (d, t) => seen.push(d / t) });
    expect(seen[seen.length - 1]).toBe(1);
  });
});
