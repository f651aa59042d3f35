import { describe, expect, it } from 'vitest';
import type { AddressMap } from '../../src-sim/timing/addrmap';
import { addrMapSet, addrMapSlice, bitsOf, channelLocal, makeAddressMap } from '../../src-sim/timing/addrmap';
import { checkTimingConfig } from '../../src-sim/timing/engine';
import { findPreset } from '../../src-sim/presets';

// GTX 480 in GPGPU-Sim 3.x: 128 B L2 lines, 6 channels taking turns every 256 B (dramid@8), bank bits
// 8, 13, 14, 15 of the channel-local address, two sub-partitions per channel (the lowest bank bit),
// 64 sets per sub-partition.
const L = 128;
const BANK_BITS = [8, 13, 14, 15];
const gtx480 = makeAddressMap({ interleaveBytes: 256, bankBits: BANK_BITS }, { lineBytes: L, sets: 64, partitions: 12 }, 6) as AddressMap;
const slice = (addr: number) => addrMapSlice(gtx480, addr / L);
const set = (addr: number) => addrMapSet(gtx480, addr / L);

describe('l2.addressMap (GPGPU-Sim addrdec_tlx / partition_address)', () => {
  it("decodes the channel-local address and its bank as the DRAM model does", () => {
    // chunk 7 (bytes 1792..2047) is channel 1's second chunk: local address 256 + offset
    expect(channelLocal(1792 / L + 1, L, 256, 6)).toBe(256 + 128);
    expect(bitsOf(256 + 128, BANK_BITS)).toBe(1);
    expect(bitsOf(8192 + 256, BANK_BITS)).toBe(3);
    expect(bitsOf(2 ** 15, BANK_BITS)).toBe(8);
  });

  it('reads the same bits of addresses beyond 31 bits (where its integer shifts do not reach) as below', () => {
    const bits = [8, 13, 30, 31, 33];
    // 2^33 + 2^31 + 2^13 + 256: bits 8, 13, 31 and 33 set, 30 clear
    expect(bitsOf(2 ** 33 + 2 ** 31 + 2 ** 13 + 256, bits)).toBe(0b11011);
    expect(bitsOf(2 ** 31 - 1, bits)).toBe(0b00111);
    expect(bitsOf(2 ** 31, bits)).toBe(0b01000);
  });

  it('puts both lines of a 256 B chunk in one slice and walks the channels, then the sub-partitions', () => {
    expect(gtx480.subBits).toEqual([8]);
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

  it('spreads a contiguous range evenly over every slice and set (no camping), for 1, 2 and 4 slices per channel', () => {
    for (const partitions of [6, 12, 24]) {
      const m = makeAddressMap({ interleaveBytes: 256, bankBits: BANK_BITS }, { lineBytes: L, sets: 64, partitions }, 6) as AddressMap;
      expect(m.subBits).toEqual(BANK_BITS.slice(0, Math.log2(partitions / 6)));
      const count = new Int32Array(partitions * 64);
      for (let line = 0; line < partitions * 64 * 4; line++) count[addrMapSlice(m, line) * 64 + addrMapSet(m, line)]++;
      expect([Math.min(...count), Math.max(...count)]).toEqual([4, 4]);
    }
  });

  it('four slices per channel take bank bits 8 and 13, as sub_partition_id_mask would', () => {
    const m = makeAddressMap({ interleaveBytes: 256, bankBits: BANK_BITS }, { lineBytes: L, sets: 64, partitions: 24 }, 6) as AddressMap;
    // channel 0's chunks are 0, 6, 12, ...: local addresses 0, 256, 512, ...; bit 13 of the local address is set from local 8192 (chunk 32 x 6)
    expect([0, 6, 12, 18].map((c) => addrMapSlice(m, (c * 256) / L))).toEqual([0, 1, 0, 1]);
    expect(addrMapSlice(m, (32 * 6 * 256) / L)).toBe(2);
    expect(addrMapSlice(m, (33 * 6 * 256) / L)).toBe(3);
  });

  it('is what the fermi480 preset uses, from its DRAM decoder; the config check refuses slices that do not divide over the channels', () => {
    const t = findPreset('fermi480')!.timing!;
    expect(t.l2.addressMap).toBe(true);
    expect(t.dram.timing?.interleaveBytes).toBe(256);
    expect(t.dram.timing?.bankBits).toEqual(BANK_BITS);
    expect(checkTimingConfig(t)).toEqual([]);
    expect(checkTimingConfig({ ...t, l2: { ...t.l2, partitions: 24 } })).toEqual([]);
    expect(checkTimingConfig({ ...t, l2: { ...t.l2, partitions: 9 } }).join()).toMatch(/multiple of dram.channels/);
    expect(checkTimingConfig({ ...t, l2: { ...t.l2, partitions: 18 } }).join()).toMatch(/power of two/);
    expect(checkTimingConfig({ ...t, dram: { ...t.dram, timing: undefined } }).join()).toMatch(/needs dram.timing/);
    expect(checkTimingConfig({ ...t, dram: { ...t.dram, timing: { ...t.dram.timing!, bankBits: [4, 13] } } }).join()).toMatch(/line offset/);
  });
});
