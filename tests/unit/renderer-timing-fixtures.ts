/**
 * Results shaped like the timing tier's (src-sim/timing): LASH Fig 6's stall breakdown as stacked
 * bars over data types, per-epoch series over cycles (100k epochs), and a throughput curve. Made
 * here from closed-form values, so the charts' tests know every number they should see.
 */
import type { StoredResult, StoredSeries } from '../../src-main/contract';

/** Series as the store gives them back (Float64Array x and y): usable wherever a Series is. */
type Series = StoredSeries;

export const TYPES = ['int', 'short', 'char'];
export const REASONS = ['nomerger', 'nomshrline', 'nocacheline', 'coalescing'];

/** Stall cycles of reason r for type t (distinct for every pair). */
export function stall(r: number, t: number, scale = 1): number {
  return scale * (1000 * (r + 1) + 100 * t);
}

/**
 * One bar series per stall reason, x = indices into TYPES given out of order (char, int, short),
 * so a chart that ignored x would put the bars under the wrong labels.
 */
export function stallSeries(scale = 1): Series[] {
  const order = [2, 0, 1];
  return REASONS.map((reason, r) => ({
    name: reason,
    x: Float64Array.from(order),
    y: Float64Array.from(order.map((t) => stall(r, t, scale))),
    xLabel: 'Data type',
    xUnit: '',
    yLabel: 'LSU stall cycles',
    yUnit: 'cycles',
    style: 'bar' as const,
    stack: 'stalls',
    xCategories: TYPES,
    group: 'Stall breakdown',
  }));
}

export const EPOCH = 100;

/** MSHR entries in use in epoch i: a slow wave between 4 and 28. */
export function mshr(i: number): number {
  return 16 + 12 * Math.sin(i / 700);
}

/** Per-epoch MSHR and merger occupancy over cycles (x = epoch start cycle). */
export function epochSeries(epochs = 100_000, scale = 1): Series[] {
  const x = Float64Array.from({ length: epochs }, (_, i) => i * EPOCH);
  const base = { x, xLabel: 'Cycle', xUnit: 'cycles', style: 'line' as const };
  return [
    { ...base, name: 'MSHR entries in use', y: Float64Array.from({ length: epochs }, (_, i) => scale * mshr(i)), yLabel: 'Occupancy per SM', yUnit: 'entries' },
    { ...base, name: 'merger fields in use', y: Float64Array.from({ length: epochs }, (_, i) => 3 * scale * mshr(i)), yLabel: 'Occupancy per SM', yUnit: 'entries' },
  ];
}

/** Bandwidth against threads per block (a line; the x values are numbers). */
export function throughputSeries(): Series {
  const x = [32, 64, 128, 256, 512, 1024] as const;
  return { name: 'L2', x: Float64Array.from(x), y: Float64Array.from(x.map((t) => Math.min(480, t * 1.5))), xLabel: 'Threads per block', xUnit: 'threads', yLabel: 'Throughput', yUnit: 'GB/s', style: 'line' };
}

/** A LASH-stencil-like result: time per type (plain bars), the stall breakdown, the epoch series. */
export function timingResult(epochs = 20_000, scale = 1): StoredResult {
  return {
    series: [
      {
        name: 'kernel time',
        x: Float64Array.from([0, 1, 2]),
        y: Float64Array.from([1.11, 1, 1.12].map((v) => v * 100_000 * scale)),
        xLabel: 'Data type',
        xUnit: '',
        yLabel: 'Time',
        yUnit: 'cycles',
        style: 'bar',
        xCategories: TYPES,
      },
      ...stallSeries(scale),
      ...epochSeries(epochs, scale),
    ],
    tables: [],
    findings: [{ key: 'stencil.fastestType', label: 'Fastest type', value: 'short', unit: '', evidence: 'kernel time' }],
    notes: [],
  };
}
