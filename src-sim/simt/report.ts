import type { Finding, Series, Table } from '../results';
import type { EventKind, SimtRun } from './executor';
import { EVENT_KINDS, where } from './executor';

/** Turns a SIMT run into the series, tables and findings of an experiment result. */

/** Threads of a mask, compactly: "31", "16-31", "0, 2, 4, ... (16 threads)". */
export function lanesText(mask: number, base = 0): string {
  const lanes: number[] = [];
  for (let l = 0; l < 32; l++) if ((mask >>> l) & 1) lanes.push(base + l);
  if (lanes.length === 0) return 'none';
  const ranges: string[] = [];
  for (let i = 0; i < lanes.length; ) {
    let j = i;
    while (j + 1 < lanes.length && lanes[j + 1] === lanes[j] + 1) j++;
    ranges.push(i === j ? String(lanes[i]) : `${lanes[i]}-${lanes[j]}`);
    i = j + 1;
  }
  if (ranges.length <= 4) return ranges.join(', ');
  return `${lanes.slice(0, 3).join(', ')}, ... ${lanes[lanes.length - 1]} (${lanes.length} threads)`;
}

export function popcount(mask: number): number {
  let m = mask >>> 0;
  let n = 0;
  while (m) {
    m &= m - 1;
    n++;
  }
  return n;
}

/** Per event kind, a scatter of (cycle, warp) where warp = block x warps per block + warp: the per-warp timeline. */
export function timelineSeries(run: SimtRun, group = 'Per-warp timeline', prefix = ''): Series[] {
  const out: Series[] = [];
  const wpb = run.launch.warpsPerBlock;
  for (const kind of EVENT_KINDS) {
    const evs = run.events.filter((e) => e.kind === kind);
    if (evs.length === 0) continue;
    out.push({
      name: `${prefix}${kind}`,
      x: Float64Array.from(evs, (e) => e.cycle),
      y: Float64Array.from(evs, (e) => e.block * wpb + e.warp),
      xLabel: 'Cycle',
      xUnit: 'cycles',
      yLabel: 'Warp (block x warps per block + warp)',
      yUnit: '',
      style: 'scatter',
      group,
    });
  }
  return out;
}

/** The events table's words per event kind (the workbench's per-warp timeline reads them back). */
export const KIND_WORDS: Record<EventKind, string> = {
  'path-start': 'path starts',
  reconverge: 'reconverges',
  'barrier-wait': 'waits at barrier',
  'barrier-release': 'released from barrier',
  exit: 'exits',
  deadlock: 'deadlocked',
  stopped: 'stopped by the step budget',
};

/** The timeline as a table (at most `limit` rows; the rest counted in the name). */
export function eventsTable(run: SimtRun, name = 'Timeline events', limit = 5000): Table {
  // The first `limit` events, and how the run ended (deadlock, step budget) whatever the limit.
  const kept = [...run.events.slice(0, limit), ...run.events.slice(limit).filter((e) => e.kind === 'deadlock' || e.kind === 'stopped')];
  const rows = kept.map((e) => ({
    cycle: e.cycle,
    block: e.block,
    warp: e.warp,
    event: KIND_WORDS[e.kind],
    threads: lanesText(e.mask, e.warp * 32),
    active: popcount(e.mask),
    at: where(e.line, e.col),
    barrier: e.site !== undefined ? `[${e.site}]` : '',
  }));
  const left = run.events.length - rows.length + run.droppedEvents;
  const ends = rows.length - Math.min(limit, run.events.length);
  return {
    name: left > 0 ? `${name} (first ${rows.length - ends}${ends ? ` and the ${ends} that end the run` : ''}; ${left} more not shown)` : name,
    columns: [
      { key: 'cycle', label: 'Cycle', unit: 'cycles' },
      { key: 'block', label: 'Block' },
      { key: 'warp', label: 'Warp' },
      { key: 'event', label: 'Event' },
      { key: 'threads', label: 'Threads' },
      { key: 'active', label: 'Active' },
      { key: 'at', label: 'Line:col' },
      { key: 'barrier', label: 'Barrier' },
    ],
    rows,
  };
}

/** Final values of the kernel's __shared__ and __global__ arrays, 16 to a row (at most 4,096 values per array copy). */
export function memoryTable(run: SimtRun, name = 'Final memory'): Table {
  const rows: Record<string, string | number>[] = [];
  const PER_ROW = 16;
  const CAP = 4096;
  for (const a of run.arrays) {
    for (let c = 0; c < a.copies; c++) {
      const n = Math.min(a.size, CAP);
      for (let i = 0; i < n; i += PER_ROW) {
        const vals = Array.from(a.values.subarray(c * a.size + i, c * a.size + Math.min(i + PER_ROW, n)));
        rows.push({ array: a.name, space: a.space, block: a.space === 'shared' ? c : '-', from: i, values: vals.join(', ') });
      }
      if (a.size > CAP) rows.push({ array: a.name, space: a.space, block: a.space === 'shared' ? c : '-', from: CAP, values: `(${a.size - CAP} more not shown)` });
    }
  }
  return {
    name,
    columns: [
      { key: 'array', label: 'Array' },
      { key: 'space', label: 'Space' },
      { key: 'block', label: 'Block' },
      { key: 'from', label: 'From index' },
      { key: 'values', label: 'Values' },
    ],
    rows,
  };
}

/** Barrier episodes: which warps a release let go, each with the __syncthreads() it waited at. */
export function barrierTable(run: SimtRun, name = 'Barrier releases'): Table {
  return {
    name: run.droppedBarriers ? `${name} (${run.droppedBarriers} more not kept)` : name,
    columns: [
      { key: 'cycle', label: 'Cycle', unit: 'cycles' },
      { key: 'block', label: 'Block' },
      { key: 'barriers', label: 'Barriers met' },
      { key: 'warps', label: 'Warps (barrier, line:col)' },
    ],
    rows: run.barriers.map((b) => ({
      cycle: b.cycle,
      block: b.block,
      barriers: pairText(b),
      warps: b.arrivals.map((a) => `warp ${a.warp} at [${a.site}] (${a.line}:${a.col})`).join('; '),
    })),
  };
}

/** The barriers one release joined, by source number: "2+3"; one barrier met by all warps: "1". */
export function pairText(b: SimtRun['barriers'][number]): string {
  return [...new Set(b.arrivals.map((a) => a.site))].sort((x, y) => x - y).join('+');
}

/** The barrier pairings of a run in release order: "2+3, 1+4". */
export function pairings(run: SimtRun, block = 0): string {
  return run.barriers.filter((b) => b.block === block).map(pairText).join(', ') || 'none';
}

/** How each warp ended. */
export function warpsTable(run: SimtRun, name = 'Warps at the end'): Table {
  return {
    name,
    columns: [
      { key: 'block', label: 'Block' },
      { key: 'warp', label: 'Warp' },
      { key: 'threads', label: 'Threads' },
      { key: 'state', label: 'State' },
      { key: 'at', label: 'Where' },
      { key: 'exit', label: 'Exit cycle', unit: 'cycles' },
    ],
    rows: run.warps.map((w) => ({
      block: w.block,
      warp: w.warp,
      threads: w.threads,
      state: w.state === 'barrier' ? `waits at barrier [${w.site}]` : w.state,
      at: w.line !== undefined ? where(w.line, w.col ?? 0) : '',
      exit: w.exitCycle ?? '',
    })),
  };
}

/** Order of the divergent paths of one warp: "31 (12:3) > 30 (11:8) > ...", at most `max` paths. */
export function pathOrder(run: SimtRun, block = 0, warp = 0, max = 8): string {
  const starts = run.events.filter((e) => e.block === block && e.warp === warp && e.kind === 'path-start');
  // The first path-start of a warp is the whole warp starting: the divergent paths are the rest.
  const paths = starts.slice(1);
  if (paths.length === 0) return 'no divergence';
  const shown = paths.slice(0, max).map((e) => `${lanesText(e.mask, warp * 32)} (${where(e.line, e.col)})`);
  return shown.join(' > ') + (paths.length > max ? ` > ... (${paths.length} paths)` : '');
}

/** Distinct reconvergence points of a run, in the order first met: "11:1, 14:1". */
export function reconvergencePoints(run: SimtRun, max = 12): string {
  const seen: string[] = [];
  for (const e of run.events) {
    if (e.kind !== 'reconverge') continue;
    const w = where(e.line, e.col);
    if (!seen.includes(w)) seen.push(w);
  }
  if (seen.length === 0) return 'none';
  return seen.slice(0, max).join(', ') + (seen.length > max ? `, ... (${seen.length})` : '');
}

/** The warps that had not exited at the end: "warp 0 waits at [1] (5:3); warp 1 spins at 9:3", or "none". */
export function stuckText(run: SimtRun, max = 8): string {
  const multi = run.launch.blocks > 1;
  const name = (w: SimtRun['warps'][number]): string => (multi ? `block ${w.block} warp ${w.warp}` : `warp ${w.warp}`);
  const at = (w: SimtRun['warps'][number]): string => where(w.line ?? 0, w.col ?? 0);
  const left = run.warps.filter((w) => w.state !== 'exited');
  if (left.length === 0) return 'none';
  const words = left.slice(0, max).map((w) =>
    w.state === 'barrier' ? `${name(w)} waits at [${w.site}] (${at(w)})` : w.state === 'spinning' ? `${name(w)} spins at ${at(w)}` : `${name(w)} runs at ${at(w)}`,
  );
  return words.join('; ') + (left.length > max ? `; ... (${left.length} warps)` : '');
}

/** Findings every SIMT run reports. */
export function runFindings(run: SimtRun, prefix = 'simt'): Finding[] {
  const deadlocked = run.status === 'deadlock';
  return [
    { key: `${prefix}.status`, label: 'How the run ended', value: run.status, unit: '', evidence: run.message },
    { key: `${prefix}.deadlock`, label: 'Deadlock', value: deadlocked ? 'yes' : 'no', unit: '', evidence: run.message },
    { key: `${prefix}.stuck`, label: 'Warps that did not finish', value: stuckText(run), unit: '', evidence: 'end state of every warp that had not exited: the barrier it waits at or the loop it spins in' },
    { key: `${prefix}.pathOrder`, label: 'Divergent paths of warp 0, in the order they ran', value: pathOrder(run), unit: '', evidence: "path-start events of block 0's warp 0 after its first" },
    { key: `${prefix}.reconvergence`, label: 'Reconvergence points', value: reconvergencePoints(run), unit: '', evidence: 'reconverge events: where a warp continued with the threads of a branch together again' },
    { key: `${prefix}.barriers`, label: 'Barriers met, per release (block 0)', value: pairings(run), unit: '', evidence: 'barrier releases: the __syncthreads() numbers (source order) the released warps waited at' },
    { key: `${prefix}.staleReads`, label: 'Reads before the first write of a later-written element', value: run.staleReads, unit: 'reads', evidence: 'reads of __shared__ or __global__ elements that the kernel wrote only afterwards' },
    { key: `${prefix}.cycles`, label: 'Cycles', value: run.cycles, unit: 'cycles', evidence: 'cycle of the last instruction issued' },
    { key: `${prefix}.instructions`, label: 'Warp instructions issued', value: run.instructions, unit: '', evidence: 'all warps, all blocks' },
  ];
}
