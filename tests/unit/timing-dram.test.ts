import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src-sim/presets';
import { DramModel } from '../../src-sim/timing/units/dram-channel';
import type { DramTimingConfig } from '../../src-sim/timing/types';

const fermi480 = findPreset('fermi480')!.timing!;
const T: DramTimingConfig = fermi480.dram.timing!;

/**
 * One channel, the engine clock equal to the DRAM clock (one engine cycle per DRAM cycle), no
 * latency: the column commands of single-atom reads alternating between bank 0 and bank `other`,
 * all in row 0. Returns the DRAM cycles between consecutive reads' data (sorted).
 */
function readGaps(other: number, n = 32): number[] {
  const d = new DramModel(T, 1, T.clockMHz, 128, 0);
  // With one channel the channel-local address is the address; a bank's bits are T.bankBits.
  const bankBase = (b: number) => T.bankBits.reduce((a, bit, i) => a + (((b >> i) & 1) << bit), 0);
  // Columns of row 0: address bits below the row that are not bank bits (lines of 128 B).
  const cols: number[] = [];
  for (let a = 0; a < 2 ** T.rowShift && cols.length < n; a += 128) if (T.bankBits.every((bit) => ((a >> bit) & 1) === 0)) cols.push(a);
  for (let i = 0; i < n; i++) {
    const addr = bankBase(i % 2 === 0 ? 0 : other) + cols[i >> 1];
    d.request(0, addr / 128, T.atomBytes, false, i, 0);
  }
  const done: number[] = [];
  for (let now = 0; now < 10_000 && done.length < n; now++) {
    d.advance(now);
    for (let i = 0; i < d.doneN; i++) done.push(d.doneTime[i]);
    d.doneN = 0;
  }
  expect(done.length).toBe(n);
  done.sort((a, b) => a - b);
  return done.slice(1).map((t, i) => t - done[i]);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

describe('command-level DRAM (dram.timing): bank groups as GPGPU-Sim 3.x numbers them', () => {
  it('fermi480 has 16 banks in 4 configured groups, tCCDL longer than tCCD', () => {
    expect(T.banks).toBe(16);
    expect(T.bankGroups).toBe(4);
    expect(T.tCCDL).toBeGreaterThan(T.tCCD);
  });

  // memory_config::init: bk_tag_length counts the bits of nbk / nbkgrp (4 -> 3), dram_t::cycle takes
  // grp = bank >> bk_tag_length: banks 0-7 share a group, 8-15 the other.
  it('banks 0 and 4 share a group: their column commands are tCCDL apart', () => {
    expect(median(readGaps(4))).toBe(T.tCCDL);
  });

  it('banks 0 and 8 are in different groups: their column commands are tCCD apart', () => {
    expect(median(readGaps(8))).toBe(T.tCCD);
  });
});
