/** XOR-folding hash: the line number's bits folded onto the set bits. */
export const XOR_DESCRIPTION = 'Hash: the line number folded by XOR onto the set-index bits.';

export function xorSet(lineNo: number, sets: number): number {
  if (sets <= 1) return 0; // (one set: the fold below would never end)
  let h = 0;
  let x = lineNo;
  while (x > 0) {
    h ^= x % sets;
    x = Math.floor(x / sets);
  }
  return h % sets;
}
