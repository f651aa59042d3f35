/**
 * A binary min-heap of timed events in typed arrays: (cycle, payload) ordered by cycle. The payload
 * packs the event kind (low 2 bits) and its argument. Ties pop in an order fixed by the sequence of
 * pushes and pops, so a run is deterministic. It grows by doubling (a handful of times per run);
 * pushing and popping allocate nothing and move entries with a hole rather than swaps.
 */
export class EventQueue {
  declare time: Float64Array;
  declare data: Int32Array;
  declare size: number;

  constructor(capacity = 4096) {
    this.time = new Float64Array(capacity);
    this.data = new Int32Array(capacity);
    this.size = 0;
  }

  private grow(): void {
    const t = new Float64Array(this.time.length * 2);
    t.set(this.time);
    this.time = t;
    const d = new Int32Array(this.data.length * 2);
    d.set(this.data);
    this.data = d;
  }

  /** Adds an event of `kind` (0..3) with argument `a` (0 .. 2^29 - 1) at cycle `time`. */
  push(time: number, kind: number, a: number): void {
    if (this.size === this.time.length) this.grow();
    const times = this.time;
    const data = this.data;
    const v = (a << 2) | kind;
    let i = this.size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (times[p] <= time) break;
      times[i] = times[p];
      data[i] = data[p];
      i = p;
    }
    times[i] = time;
    data[i] = v;
  }

  /** Cycle of the earliest event, Infinity when empty. */
  peekTime(): number {
    return this.size ? this.time[0] : Infinity;
  }

  /** Kind and argument of the earliest event (read before pop). */
  topKind(): number {
    return this.data[0] & 3;
  }

  topArg(): number {
    return this.data[0] >> 2;
  }

  /** Removes the earliest event. */
  pop(): void {
    const n = --this.size;
    if (n === 0) return;
    const times = this.time;
    const data = this.data;
    const t = times[n];
    const v = data[n];
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && times[c + 1] < times[c]) c++;
      if (times[c] >= t) break;
      times[i] = times[c];
      data[i] = data[c];
      i = c;
    }
    times[i] = t;
    data[i] = v;
  }
}
