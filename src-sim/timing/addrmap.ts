/**
 * GPGPU-Sim 3.x's placement of an L2 line in a sub-partition (slice) and a set, for
 * `l2.addressMap` (types.ts). addrdec.cc `addrdec_tlx` with a channel count that is not a power of
 * two (`gap`): channel = (address >> log2(interleave)) mod channels, the channel-local address is
 * (address >> log2(interleave)) / channels stitched to the low bits; sub_partition = channel x 2 +
 * the lowest bank bit of that local address. `partition_address` removes that bit again, and
 * gpu-cache.cc `l2_cache_config::set_index` takes the set from what is left (no set camping).
 */

/** The channel-local address of `line` (lines of `lineBytes`, channels taking turns every `interleave` bytes). */
function localAddress(line: number, lineBytes: number, interleave: number, channels: number): number {
  const addr = line * lineBytes;
  const chunk = Math.floor(addr / interleave);
  return Math.floor(chunk / channels) * interleave + (addr % interleave);
}

/** The slice (0 .. 2 x channels - 1) of `line`; `subBitValue` is 2^subPartitionBit. */
export function addrMapSlice(line: number, lineBytes: number, interleave: number, channels: number, subBitValue: number): number {
  const chunk = Math.floor((line * lineBytes) / interleave);
  const local = localAddress(line, lineBytes, interleave, channels);
  return (chunk % channels) * 2 + (Math.floor(local / subBitValue) & 1);
}

/** The set of `line` within its slice. */
export function addrMapSet(line: number, lineBytes: number, interleave: number, channels: number, subBitValue: number, sets: number): number {
  const local = localAddress(line, lineBytes, interleave, channels);
  const part = Math.floor(local / (2 * subBitValue)) * subBitValue + (local % subBitValue);
  return Math.floor(part / lineBytes) % sets;
}
