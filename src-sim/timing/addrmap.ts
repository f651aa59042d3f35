/**
 * GPGPU-Sim 3.x's placement of an L2 line in a sub-partition (slice) and a set, for
 * `l2.addressMap` (types.ts). addrdec.cc `addrdec_tlx`: channel = (address / interleave) mod
 * channels, the channel-local address is (address / interleave) / channels stitched to the low bits
 * (for a power-of-two channel count the decoder's bit masks give the same); sub_partition = channel
 * x (sub-partitions per channel) + the lowest log2(sub-partitions per channel) DRAM bank bits of
 * that local address (`sub_partition_id_mask`). `partition_address` removes those bits again, and
 * gpu-cache.cc `l2_cache_config::set_index` takes the set from what is left (no set camping).
 */

export interface AddressMap {
  lineBytes: number;
  /** Bytes each channel takes in turn (dramid@8: 256). */
  interleave: number;
  channels: number;
  /** Sub-partitions (slices) per channel: a power of two. */
  subs: number;
  /** Bit positions of the channel-local address that pick the sub-partition, lowest first. */
  subBits: readonly number[];
  /** Sets per slice. */
  sets: number;
}

/** The channel-local address of `line`. */
function localAddress(m: AddressMap, line: number): number {
  const addr = line * m.lineBytes;
  const chunk = Math.floor(addr / m.interleave);
  return Math.floor(chunk / m.channels) * m.interleave + (addr % m.interleave);
}

/** The slice (0 .. channels x subs - 1) of `line`. */
export function addrMapSlice(m: AddressMap, line: number): number {
  const chunk = Math.floor((line * m.lineBytes) / m.interleave);
  const local = localAddress(m, line);
  let sub = 0;
  for (let i = 0; i < m.subBits.length; i++) sub |= (Math.floor(local / 2 ** m.subBits[i]) & 1) << i;
  return (chunk % m.channels) * m.subs + sub;
}

/** The set of `line` within its slice. */
export function addrMapSet(m: AddressMap, line: number): number {
  let part = localAddress(m, line);
  // Remove the sub-partition bits, highest first, so that the lower positions stay put.
  for (let i = m.subBits.length - 1; i >= 0; i--) {
    const b = 2 ** m.subBits[i];
    part = Math.floor(part / (2 * b)) * b + (part % b);
  }
  return Math.floor(part / m.lineBytes) % m.sets;
}

/**
 * The map of a config's `l2.addressMap` (its sub-partition bits: the lowest log2(partitions /
 * channels) of its bank bits), or a reason it cannot serve these slices and channels.
 */
export function makeAddressMap(
  am: { interleaveBytes: number; bankBits: readonly number[] },
  l2: { lineBytes: number; sets: number; partitions: number },
  channels: number,
): AddressMap | string {
  if (!Number.isInteger(channels) || channels < 1 || l2.partitions % channels !== 0)
    return `l2.addressMap needs l2.partitions (${l2.partitions}) to be a multiple of dram.channels (${channels})`;
  const subs = l2.partitions / channels;
  const n = Math.round(Math.log2(subs));
  if (2 ** n !== subs) return `l2.addressMap needs a power of two of slices per channel (l2.partitions / dram.channels = ${subs})`;
  if (n > am.bankBits.length) return `l2.addressMap has ${am.bankBits.length} bank bits, too few for ${subs} slices per channel`;
  return { lineBytes: l2.lineBytes, interleave: am.interleaveBytes, channels, subs, subBits: am.bankBits.slice(0, n), sets: l2.sets };
}
