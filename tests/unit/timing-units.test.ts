import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src-sim/presets';
import { DEFAULT_TIMING_OPTIONS } from '../../src-sim/timing/engine';
import type { TimingConfig } from '../../src-sim/timing/types';
import { Interconnect } from '../../src-sim/timing/units/interconnect';
import { L1MissQueue } from '../../src-sim/timing/units/l1-miss-queue';
import { L1Mshr } from '../../src-sim/timing/units/l1-mshr';
import { Machine } from '../../src-sim/timing/units/machine';
import { Packets } from '../../src-sim/timing/units/packets';
import { Stats } from '../../src-sim/timing/units/stats';

/* The timing engine's units through their own small interfaces (src-sim/timing/units/). */

const fermi480 = findPreset('fermi480')!.timing! as TimingConfig;

describe('the L1 MSHR table (LASH IV)', () => {
  it('merges into a pending entry while a merger field is free, the allocating request counting as one', () => {
    const st = new Stats(1000, 2);
    const t = new L1Mshr(2, 4, 3, st);
    const e = t.allocate(0, 100, 5, 7, 1);
    expect(t.mCount[e]).toBe(1);
    expect(t.merge(0, e, 8, 2)).toBe(true);
    expect(t.merge(0, e, 9, 3)).toBe(true);
    // Three fields, all taken: the next request for the line is refused (nomerger) and changes nothing.
    expect(t.merge(0, e, 10, 4)).toBe(false);
    expect(t.mCount[e]).toBe(3);
    expect([...t.mWarp.slice(e * 3, e * 3 + 3)]).toEqual([7, 8, 9]);
    expect([...t.mReg.slice(e * 3, e * 3 + 3)]).toEqual([1, 2, 3]);
    expect(st.mergersInUse).toBe(3);
    expect(st.peakMergers).toBe(3);
  });

  it('refuses a new line when every entry of the SM is in use (nomshrline), per SM, and frees an entry on its fill', () => {
    const st = new Stats(1000, 2);
    const t = new L1Mshr(2, 2, 8, st);
    const a = t.allocate(0, 1, 0, 0, 0);
    t.allocate(0, 2, 1, 0, 1);
    expect(t.full(0)).toBe(true);
    expect(t.full(1)).toBe(false);
    expect(st.mshrInUse).toBe(2);
    expect(st.peakMshr).toBe(2);
    t.merge(0, a, 3, 4);
    t.release(0, a, 2);
    expect(t.full(0)).toBe(false);
    expect(t.mLine[a]).toBe(-1);
    expect(st.mshrInUse).toBe(1);
    expect(st.mergersInUse).toBe(1);
    // The freed entry is the next one taken.
    expect(t.allocate(0, 9, 2, 0, 2)).toBe(a);
  });
});

describe("the L1's miss queue (missQueue, GPGPU-Sim 3.2.2)", () => {
  it('refuses a read miss or merge while it holds entries - 1 (miss_queue_full(1)) and a store only when full', () => {
    const m = new Machine(fermi480, { ...DEFAULT_TIMING_OPTIONS, l1: 'hw' });
    const st = new Stats(1000, m.sms);
    const pk = new Packets(m.l2Line, m.P, null);
    const q = new L1MissQueue(m, pk, new Interconnect(m, pk, st));
    const entries = fermi480.missQueue!.entries;
    expect(q.miqE).toBe(entries);
    for (let i = 0; i < entries - 2; i++) q.push(0, pk.alloc(0, 1, 128 * i, 32, 0, 0, 0));
    expect(q.full(0, 2)).toBe(false);
    q.push(0, pk.alloc(0, 1, 0, 32, 0, 0, 0));
    expect(q.full(0, 2)).toBe(true);
    expect(q.full(0, 1)).toBe(false);
    q.push(0, pk.alloc(0, 1, 0, 32, 0, 0, 0));
    expect(q.full(0, 1)).toBe(true);
    expect(q.full(1, 2)).toBe(false);
  });

  it('is off without an L1: nothing is ever full', () => {
    const m = new Machine(fermi480, { ...DEFAULT_TIMING_OPTIONS, l1: 'bypass' });
    const st = new Stats(1000, m.sms);
    const pk = new Packets(m.l2Line, m.P, null);
    const q = new L1MissQueue(m, pk, new Interconnect(m, pk, st));
    expect(q.miqE).toBe(0);
    expect(q.full(0, 2)).toBe(false);
  });
});

describe('packets', () => {
  it('grow past their first pool, keep what is in flight, and count what is outstanding', () => {
    const pk = new Packets(128, 12, null);
    const ps: number[] = [];
    for (let i = 0; i < 5000; i++) ps.push(pk.alloc(i % 15, 2, i * 128, 32, i, 0, i));
    expect(pk.outstanding).toBe(5000);
    expect(new Set(ps).size).toBe(5000);
    expect(pk.pAddr[ps[4999]]).toBe(4999 * 128);
    expect(pk.pSlice[ps[13]]).toBe(13 % 12);
    for (const p of ps) pk.free(p);
    expect(pk.outstanding).toBe(0);
  });
});

describe('statistics and epochs', () => {
  it('weights MSHR occupancy by time and closes an epoch at each boundary', () => {
    const st = new Stats(10, 2);
    st.mshrInUse = 4;
    st.accrue(0, 15); // 10 cycles in epoch 0, 5 in epoch 1
    st.mshrInUse = 0;
    st.accrue(15, 10); // 5 more in epoch 1 (idle), 5 in epoch 2
    expect(st.eCycle).toEqual([0, 10]);
    // Mean per SM: epoch 0 4 x 10 / 10 / 2 SMs; epoch 1 4 x 5 / 10 / 2.
    expect(st.eMshr).toEqual([2, 1]);
    const s = st.record(25, null, 1, 1, false, false);
    expect(s.epochs.cycle.length).toBe(3);
    expect(s.missQueueStalls).toBeUndefined();
  });
});
