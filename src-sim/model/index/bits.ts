/** Bit selection: set = floor(addr / 2^shiftBits) mod sets. */
export const BITS_DESCRIPTION = 'Bit selection: the address bits just above the chosen shift pick the set.';

export function bitsSet(addr: number, divisor: number, sets: number): number {
  return Math.floor(addr / divisor) % sets;
}
