/**
 * The random stream of the random and Fermi policies: exactly the numbers of `new Rng(seed)`
 * (src-sim/rng.ts: sfc32 seeded by splitmix32), made fast for a per-miss draw:
 * - the generator state lives in a typed array (V8 keeps Rng's numeric fields boxed, so each of its
 *   draws allocates heap numbers, about 30 ns);
 * - numbers are generated BATCH at a time into a buffer (the state stays in registers) and then
 *   handed out in order, so the sequence is unchanged.
 * tests/unit/cache-golden.test.ts checks the policies against a naive cache drawing from Rng itself.
 */
const BATCH = 256;
const TWO_32 = 4294967296;

/** What a policy draws from: Rng or PolicyDraws. */
export interface Draws {
  next(): number;
  int(n: number): number;
}

export class PolicyDraws implements Draws {
  /** Generator state a, b, c, d. */
  private readonly s = new Uint32Array(4);
  /** Generated numbers (as int32 bit patterns); buf[pos] is the next one handed out. */
  private readonly buf = new Int32Array(BATCH);
  private pos = BATCH;

  constructor(seed: number) {
    this.reseed(seed);
  }

  /** Restarts the stream as `new Rng(seed)` would. */
  reseed(seed: number): void {
    let z0 = seed >>> 0;
    for (let i = 0; i < 4; i++) {
      z0 = (z0 + 0x9e3779b9) >>> 0;
      let z = z0;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      this.s[i] = z ^ (z >>> 16);
    }
    this.generate(0, 12); // Rng discards its first 12 numbers
    this.pos = BATCH;
  }

  /** Keeps the numbers not yet handed out, then fills the buffer. */
  private refill(): void {
    const kept = BATCH - this.pos;
    this.buf.copyWithin(0, this.pos);
    this.generate(kept, BATCH);
    this.pos = 0;
  }

  /** Writes the generator's next numbers to buf[from..to) (sfc32, as Rng.nextU32). */
  private generate(from: number, to: number): void {
    const s = this.s;
    const buf = this.buf;
    let a = s[0];
    let b = s[1];
    let c = s[2];
    let d = s[3];
    for (let i = from; i < to; i++) {
      // int32 arithmetic: only the values modulo 2^32 matter.
      const t = (a + b + d) | 0;
      d = (d + 1) | 0;
      a = b ^ (b >>> 9);
      b = (c + (c << 3)) | 0;
      c = (((c << 21) | (c >>> 11)) + t) | 0;
      buf[i] = t;
    }
    s[0] = a;
    s[1] = b;
    s[2] = c;
    s[3] = d;
  }

  /** A uniform 32-bit unsigned integer (Rng.nextU32). */
  nextU32(): number {
    if (this.pos === BATCH) this.refill();
    return this.buf[this.pos++] >>> 0;
  }

  /** A uniform float in [0, 1) (Rng.next). */
  next(): number {
    return this.nextU32() / TWO_32;
  }

  /** A uniform integer in [0, n) (Rng.int). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /**
   * fermiVictim(this, ways, hot, p) (replacement/fermi.ts) for ways >= 2, with the same draws but no
   * branch on them: the first draw picks the hot way (one draw used) or another way (a second draw
   * says which). A branch on it would be mispredicted half the time; instead both numbers are read
   * and one outcome kept by bit mask, in integer operations (the position of the next draw depends on
   * this one, so its latency adds up from miss to miss). `hotBelow` is ceil(p * 2^32) as an int32 bit
   * pattern, 1 to 2^32 - 1: then draw / 2^32 < p exactly when draw < hotBelow, unsigned.
   */
  fermiVictim(ways: number, hot: number, hotBelow: number): number {
    if (this.pos >= BATCH - 1) this.refill();
    const p = this.pos;
    const t1 = this.buf[p];
    const t2 = this.buf[p + 1];
    // -1 when t1 < hotBelow as unsigned numbers, else 0 (Hacker's Delight 2-12).
    const keep1 = ((~t1 & hotBelow) | ((~t1 | hotBelow) & ((t1 - hotBelow) | 0))) >> 31;
    this.pos = p + 2 + keep1;
    const other = Math.floor(((t2 >>> 0) / TWO_32) * (ways - 1));
    const cold = other + ((hot - 1 - other) >>> 31); // other + 1 from the hot way on
    return (hot & keep1) | (cold & ~keep1);
  }
}
