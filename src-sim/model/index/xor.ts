/** XOR-folding hash: the line number's bits folded onto the set bits. */
export const XOR_DESCRIPTION = 'Hash: the line number folded by XOR onto the set-index bits.';

export function xorSet(lineNo: number, sets: number): number {
  if (sets <= 1) return 0; // (one set: the fold below would never end)
  if ((sets & (sets - 1)) === 0 && lineNo >= 0 && lineNo < 0x80000000) {
    // A power of two: the same fold with masks and shifts.
    const k = 31 - Math.clz32(sets);
    const mask = sets - 1;
    let f = 0;
    for (let y = lineNo; y > 0; y >>>= k) f ^= y & mask;
    return f;
  }
  let h = 0;
  let x = lineNo;
  while (x > 0) {
    h ^= x % sets;
    x = Math.floor(x / sets);
  }
  return h % sets;
}
