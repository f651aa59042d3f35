/**
 * What a measurement reports, shared by every layer that makes or reads one: experiments, the
 * analysers, the SIMT executor's report and the reference rows. Pure types.
 */

/** A named x/y series. x and y have equal length. */
export interface Series {
  name: string;
  x: ArrayLike<number>;
  y: ArrayLike<number>;
  xLabel: string;
  xUnit: string;
  yLabel: string;
  yUnit: string;
  /** How a chart should draw it. */
  style?: 'line' | 'step' | 'scatter' | 'bar';
  logX?: boolean;
  /** Bars of series sharing a stack name are stacked (LASH Fig 6's stall breakdown). */
  stack?: string;
  /** A categorical x axis: x holds indices into these labels (e.g. ["int", "short", "char"]). */
  xCategories?: string[];
  /** Which chart the series belongs to when a result has several (series with one group share axes). */
  group?: string;
}

export interface Table {
  name: string;
  columns: { key: string; label: string; unit?: string }[];
  rows: Record<string, string | number>[];
}

/** What an analyser inferred from the measurements alone. */
export interface Finding {
  /** Stable key, e.g. "l1.sizeBytes". */
  key: string;
  label: string;
  value: number | string;
  unit: string;
  /** Which series or table and which feature of it support the value. */
  evidence: string;
}

/** A per-access trace of a fine-grained P-chase (bounded: see experiments' MAX_TRACE). */
export interface Trace {
  /** Byte address of each access. */
  address: Float64Array;
  /** Measured latency of each access, cycles. */
  latency: Float64Array;
  /** Index (0-based) of the level that served it; levels.length = memory. */
  level: Uint8Array;
  /** TLB outcome code of each access: 0 none, 1 L1 TLB hit, 2 L2 TLB hit, 3 miss, 4 inactive page window. */
  tlb: Uint8Array;
  /** Set and way of the first cache level touched, and the line number it evicted (-1 none). */
  set: Int32Array;
  way: Int32Array;
  evicted: Float64Array;
  levelNames: string[];
  /** Accesses run but not recorded (trace bounded); 0 when complete. */
  dropped: number;
  /**
   * The state of the structure `set` and `way` name (the first cache level, or the L1 TLB) before the
   * first recorded access, when accesses that were not recorded (a warm-up pass) had filled it;
   * absent when the trace starts with it empty (cold).
   */
  start?: TraceStart;
}

/**
 * A traced structure's state, one entry per slot: sets in order, each set's ways in order (at most
 * MAX_TRACE_START slots, so its size is bounded by the structure's, never by the accesses run).
 */
export interface TraceStart {
  /** Accesses run on the model before the first recorded one (not recorded). */
  accesses: number;
  /** Line (or page) number each slot holds, -1 when invalid. */
  lines: Float64Array;
  /**
   * Each slot's place in its set's replacement order, 1 = newest (LRU: most recently used; FIFO:
   * last filled), 2 the next, ...; 0 for an invalid slot and for policies that keep no order
   * (Random, Fermi).
   */
  age: Int32Array;
}

/** Slots a trace's start state may hold (12 bytes each: 12 MiB at most). */
export const MAX_TRACE_START = 1 << 20;
