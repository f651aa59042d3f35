import { describe, expect, it } from 'vitest';
import { addrMapSet, addrMapSlice } from '../../src-sim/timing/addrmap';
import { checkTimingConfig } from '../../src-sim/timing/engine';
import { findPreset } from '../../src-sim/presets';

// GTX 480 in GPGPU-Sim 3.x: 128 B L2 lines, 6 channels taking turns every 256 B (dramid@8), the
// sub-partition from bit 8 of the channel-local address, 64 sets per sub-partition.
const L = 128;
const IB = 256;
const CH = 6;
const SUB = 2 ** 8;
const SETS = 64;
const slice = (addr: number) => addrMapSlice(addr / L, L, IB, CH, SUB);
const set = (addr: number) => addrMapSet(addr / L, L, IB, CH, SUB, SETS);

describe('l2.addressMap (GPGPU-Sim addrdec_tlx / partition_address)', () => {
  it('puts both lines of a 256 B chunk in one slice and walks the channels, then the sub-partitions', () => {
    expect([0, 128].map(slice)).toEqual([0, 0]);
    // chunks 1..5: channels 1..5, sub-partition 0
    expect([256, 512, 768, 1024, 1280].map(slice)).toEqual([2, 4, 6, 8, 10]);
    // chunk 6: channel 0 again, local address 256: bit 8 set, sub-partition 1
    expect(slice(6 * 256)).toBe(1);
    expect(slice(7 * 256)).toBe(3);
    // chunk 12: channel 0, local address 512: sub-partition 0
    expect(slice(12 * 256)).toBe(0);
  });

  it('indexes sets by the local address without the sub-partition bit', () => {
    expect(set(0)).toBe(0);
    expect(set(128)).toBe(1);
    expect(set(6 * 256)).toBe(0); // local 256 -> 0 once bit 8 is removed
    expect(set(12 * 256)).toBe(2); // local 512 -> 256
    expect(set(12 * 256 + 128)).toBe(3);
  });

  it('spreads a contiguous range evenly over every slice and set (no camping)', () => {
    const count = new Int32Array(12 * SETS);
    const lines = 12 * SETS * 4;
    for (let line = 0; line < lines; line++) count[addrMapSlice(line, L, IB, CH, SUB) * SETS + addrMapSet(line, L, IB, CH, SUB, SETS)]++;
    expect(Math.min(...count)).toBe(4);
    expect(Math.max(...count)).toBe(4);
  });

  it('is what the fermi480 preset uses, and the config check wants two slices per channel', () => {
    const t = findPreset('fermi480')!.timing!;
    expect(t.l2.addressMap).toEqual({ interleaveBytes: IB, subPartitionBit: 8 });
    expect(checkTimingConfig(t)).toEqual([]);
    expect(checkTimingConfig({ ...t, l2: { ...t.l2, partitions: 6 } }).join()).toMatch(/two sub-partitions per channel/);
    expect(checkTimingConfig({ ...t, l2: { ...t.l2, addressMap: { interleaveBytes: 64, subPartitionBit: 4 } } }).length).toBe(2);
  });
});
