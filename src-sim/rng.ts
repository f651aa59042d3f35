/**
 * Seeded pseudo-random numbers (sfc32 seeded by splitmix32). Deterministic across platforms:
 * only 32-bit integer arithmetic. One instance per stream of randomness; no allocation per draw.
 */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    let s = seed >>> 0;
    const next = (): number => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i++) this.nextU32();
  }

  /** A uniform 32-bit unsigned integer. */
  nextU32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** A uniform float in [0, 1). */
  next(): number {
    return this.nextU32() / 4294967296;
  }

  /** A uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Derives an independent seed for a sub-stream, so adding a stream never shifts another. */
  static derive(seed: number, stream: number): number {
    let z = (seed ^ Math.imul(stream + 1, 0x9e3779b9)) >>> 0;
    z = Math.imul(z ^ (z >>> 15), 0x2c1b3c6d) >>> 0;
    z = Math.imul(z ^ (z >>> 12), 0x297a2d39) >>> 0;
    return (z ^ (z >>> 15)) >>> 0;
  }
}
