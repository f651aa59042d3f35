/**
 * GPGPU-Sim 3.x's address decoder for a timing config's `dram.timing` (addrdec.cc `addrdec_tlx`):
 * the DRAM channels take turns every `interleaveBytes` (channel = (address / interleave) mod
 * channels), the channel-local address is (address / interleave) / channels stitched to the low bits
 * (for a power-of-two channel count the decoder's bit masks give the same), and the bank is read from
 * that address's `bankBits`. The DRAM model (units/dram-channel.ts) takes bank and row from it; with
 * `l2.addressMap` the L2 takes its sub-partitions and sets from it too: sub_partition = channel x
 * (sub-partitions per channel) + the lowest log2(sub-partitions per channel) bank bits
 * (`sub_partition_id_mask`), and `partition_address` removes those bits again for gpu-cache.cc
 * `l2_cache_config::set_index` (no set camping).
 */

/** The channel-local address of `line` (lines of `lineBytes`, channels taking turns every `interleave` bytes). */
export function channelLocal(line: number, lineBytes: number, interleave: number, channels: number): number {
  const addr = line * lineBytes;
  const chunk = Math.floor(addr / interleave);
  return Math.floor(chunk / channels) * interleave + (addr % interleave);
}

/** The number that `bits` (positions, lowest first) of `local` spell. */
export function bitsOf(local: number, bits: readonly number[]): number {
  let v = 0;
  if (local < 2 ** 31) {
    // Integer shifts where the address fits them (positions of 31 and above are 0 there).
    for (let i = 0; i < bits.length; i++) if (bits[i] < 31) v |= ((local >>> bits[i]) & 1) << i;
    return v;
  }
  for (let i = 0; i < bits.length; i++) v |= (Math.floor(local / 2 ** bits[i]) & 1) << i;
  return v;
}

/** The L2's placement of lines: slices and sets after the address decoder. */
export interface AddressMap {
  lineBytes: number;
  interleave: number;
  channels: number;
  /** Sub-partitions (slices) per channel: a power of two. */
  subs: number;
  /** Bit positions of the channel-local address that pick the sub-partition, lowest first. */
  subBits: readonly number[];
  /** Sets per slice. */
  sets: number;
}

/** The slice (0 .. channels x subs - 1) of `line`. */
export function addrMapSlice(m: AddressMap, line: number): number {
  const chunk = Math.floor((line * m.lineBytes) / m.interleave);
  return (chunk % m.channels) * m.subs + bitsOf(channelLocal(line, m.lineBytes, m.interleave, m.channels), m.subBits);
}

/** The set of `line` within its slice. */
export function addrMapSet(m: AddressMap, line: number): number {
  let part = channelLocal(line, m.lineBytes, m.interleave, m.channels);
  // Remove the sub-partition bits, highest first, so that the lower positions stay put.
  for (let i = m.subBits.length - 1; i >= 0; i--) {
    const b = 2 ** m.subBits[i];
    part = Math.floor(part / (2 * b)) * b + (part % b);
  }
  return Math.floor(part / m.lineBytes) % m.sets;
}

/**
 * The L2's map from the decoder's `interleaveBytes` and `bankBits` (its sub-partition bits: the
 * lowest log2(partitions / channels) bank bits), or a reason it cannot serve these slices.
 */
export function makeAddressMap(
  decoder: { interleaveBytes: number; bankBits: readonly number[] },
  l2: { lineBytes: number; sets: number; partitions: number },
  channels: number,
): AddressMap | string {
  if (!Number.isInteger(channels) || channels < 1 || l2.partitions % channels !== 0)
    return `l2.addressMap needs l2.partitions (${l2.partitions}) to be a multiple of dram.channels (${channels})`;
  const subs = l2.partitions / channels;
  const n = Math.round(Math.log2(subs));
  if (2 ** n !== subs) return `l2.addressMap needs a power of two of slices per channel (l2.partitions / dram.channels = ${subs})`;
  if (n > decoder.bankBits.length) return `l2.addressMap: dram.timing has ${decoder.bankBits.length} bank bits, too few for ${subs} slices per channel`;
  if (decoder.interleaveBytes < l2.lineBytes) return 'l2.addressMap needs dram.timing.interleaveBytes of at least l2.lineBytes';
  const subBits = decoder.bankBits.slice(0, n);
  if (subBits.some((b) => 2 ** b < l2.lineBytes)) return 'l2.addressMap needs the sub-partition bank bits at or above the L2 line offset';
  return { lineBytes: l2.lineBytes, interleave: decoder.interleaveBytes, channels, subs, subBits, sets: l2.sets };
}
