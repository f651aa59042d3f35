/**
 * The kernel editor and the per-warp timeline, as pure functions (no API, no DOM):
 *  - checkKernel: src-sim's own parser and compiler on the editor's text, so a syntax error shows
 *    as "line:column: message" before anything is queued; errorPosition finds line:column in a
 *    failed run's message (a run-time error such as an index out of range);
 *  - simtTimelines: the per-warp timelines of a SIMT run, read from the result's tables that
 *    src-sim/simt/report.ts writes ("Timeline events" with the source positions, "Warps at the end");
 *  - timelineOption: the ECharts option that draws one: a row per warp, path segments coloured by
 *    the path (where it starts in the source), barrier waits, releases, exits and deadlock marked.
 */
import type { EChartsOption } from 'echarts';
import { MAX_KERNEL_CHARS } from '../../../src-sim/experiments/simt-kernel';
import type { Table } from '../../../src-sim/experiments/types';
import { KernelError } from '../../../src-sim/simt/ast';
import { compileKernel } from '../../../src-sim/simt/compile';
import { parseKernel } from '../../../src-sim/simt/parser';
import { KIND_WORDS } from '../../../src-sim/simt/report';
import type { EventKind } from '../../../src-sim/simt/executor';
import type { ChartTheme } from './compare';

// ---- checking the text ----------------------------------------------------------------------------

export interface KernelProblem {
  line: number;
  col: number;
  /** The message without its position. */
  detail: string;
  /** "line:col: detail". */
  text: string;
}


/** Parses and compiles the text as a run would; the first error, or null when the kernel is well formed. */
export function checkKernel(source: string): KernelProblem | null {
  if (source.length > MAX_KERNEL_CHARS) return { line: 1, col: 1, detail: `the kernel has ${source.length} characters; at most ${MAX_KERNEL_CHARS}`, text: `the kernel has ${source.length} characters; at most ${MAX_KERNEL_CHARS}` };
  try {
    compileKernel(parseKernel(source));
    return null;
  } catch (e) {
    if (e instanceof KernelError) return { line: e.pos.line, col: e.pos.col, detail: e.detail, text: e.message };
    const msg = e instanceof Error ? e.message : String(e);
    return { line: 1, col: 1, detail: msg, text: msg };
  }
}

/** The first "line:col: " of a message (a failed run: `... parameter "source" at 2:9: s[16] is outside ...`). */
export function errorPosition(message: string): { line: number; col: number } | null {
  const m = /(?:^|\sat\s)(\d+):(\d+):\s/.exec(message);
  return m ? { line: Number(m[1]), col: Number(m[2]) } : null;
}

export interface LaunchFields {
  blocks: number | string;
  threads: number | string;
  steps: number | string;
}

/** simt-kernel's launch ranges (its parameter specs): a message per field that is out of range. */
export function checkLaunch(f: LaunchFields): Partial<Record<keyof LaunchFields, string>> {
  const out: Partial<Record<keyof LaunchFields, string>> = {};
  const range = (key: keyof LaunchFields, lo: number, hi: number) => {
    const raw = String(f[key]).trim();
    const v = Number(raw);
    if (raw === '' || !Number.isInteger(v)) out[key] = 'a whole number';
    else if (v < lo || v > hi) out[key] = `${lo} to ${hi.toLocaleString('en-US')}`;
  };
  range('blocks', 1, 64);
  range('threads', 1, 1024);
  range('steps', 1000, 5_000_000);
  return out;
}

// ---- the timeline ---------------------------------------------------------------------------------

export interface WarpRow {
  block: number;
  warp: number;
  /** "warp 1", or "block 2 warp 1" when the grid has several blocks. */
  label: string;
  threads: string;
  /** 'exited', 'barrier', 'spinning' or 'running' (how it ended). */
  state: string;
  /** Where it waits or spins at the end ("5:3"), '' when it exited. */
  at: string;
  /** "waits at barrier [1] (5:3)", "spins in the loop at 9:3", "exited at cycle 120". */
  end: string;
}

export interface Segment {
  row: number;
  from: number;
  to: number;
  kind: 'path' | 'wait';
  /** Index into `paths` (path segments). */
  path: number;
  threads: string;
  active: number;
  /** Where the path starts or reconverges ("7:3"); the barrier's position for a wait. */
  at: string;
  /** "[1]" for a wait. */
  barrier: string;
  /** The warp was still here when the run deadlocked or the step budget stopped it. */
  stuck: boolean;
}

export interface Mark {
  row: number;
  cycle: number;
  kind: EventKind;
  threads: string;
  at: string;
  barrier: string;
}

export interface PathKey {
  /** "path from 7:3, 16 threads" or "reconverged at 11:1, 32 threads": a colour per place and width (the same in every warp). */
  label: string;
  at: string;
}

export interface KernelTimeline {
  /** '' for simt-kernel; "Listing 4" for one of simt-sync's listings. */
  title: string;
  rows: WarpRow[];
  segments: Segment[];
  marks: Mark[];
  paths: PathKey[];
  /** Last cycle of any event. */
  end: number;
  deadlock: boolean;
  /** The warps that did not exit (deadlock or step budget), each with where it waits or spins. */
  stuck: WarpRow[];
  /** Events the table left out (its name says "N more not shown"). */
  eventsLeftOut: number;
}

const WORD_KIND = new Map<string, EventKind>(Object.entries(KIND_WORDS).map(([k, w]) => [w, k as EventKind]));
const EVENT_COLUMNS = ['cycle', 'block', 'warp', 'event', 'threads', 'active', 'at', 'barrier'];
const WARP_COLUMNS = ['block', 'warp', 'threads', 'state', 'at', 'exit'];

function hasColumns(t: Table, keys: string[]): boolean {
  const have = new Set(t.columns.map((c) => c.key));
  return keys.every((k) => have.has(k));
}

const isEvents = (t: Table) => hasColumns(t, EVENT_COLUMNS) && /timeline events/i.test(t.name);
const isWarps = (t: Table) => hasColumns(t, WARP_COLUMNS) && /warps at the end/i.test(t.name);

/** "Listing 4: timeline events (first 5000; 12 more not shown)" -> "Listing 4"; "Timeline events" -> ''. */
function prefixOf(name: string, what: RegExp): string {
  const m = what.exec(name);
  return m ? name.slice(0, m.index).replace(/[:\s]+$/, '') : '';
}

/** Every per-warp timeline a result's tables hold (one for simt-kernel, one per listing for simt-sync). */
export function simtTimelines(result: { tables: readonly Table[] } | null | undefined): KernelTimeline[] {
  if (!result) return [];
  const warpsByPrefix = new Map<string, Table>();
  for (const t of result.tables) if (isWarps(t)) warpsByPrefix.set(prefixOf(t.name, /warps at the end/i).toLowerCase(), t);
  const out: KernelTimeline[] = [];
  for (const t of result.tables) {
    if (!isEvents(t)) continue;
    const title = prefixOf(t.name, /timeline events/i);
    out.push(buildTimeline(t, warpsByPrefix.get(title.toLowerCase()) ?? null, title));
  }
  return out;
}

const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v));
const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

/** One timeline from an events table and (when there is one) the warps' end states. */
export function buildTimeline(events: Table, warps: Table | null, title = ''): KernelTimeline {
  // Rows: every warp the end-state table names, else every warp that has an event, in (block, warp) order.
  const rowKeys = new Map<string, number>();
  const rows: WarpRow[] = [];
  const seen: { block: number; warp: number; threads: string; state: string; at: string; exit: unknown }[] = [];
  if (warps) for (const r of warps.rows) seen.push({ block: num(r.block), warp: num(r.warp), threads: str(r.threads), state: str(r.state), at: str(r.at), exit: r.exit });
  else
    for (const r of events.rows) {
      const block = num(r.block);
      const warp = num(r.warp);
      if (!seen.some((s) => s.block === block && s.warp === warp)) seen.push({ block, warp, threads: '', state: '', at: '', exit: '' });
    }
  seen.sort((a, b) => a.block - b.block || a.warp - b.warp);
  const multi = seen.some((s) => s.block > 0);
  for (const s of seen) {
    const label = multi ? `block ${s.block} warp ${s.warp}` : `warp ${s.warp}`;
    // warpsTable writes "waits at barrier [1]" for a barrier, else the WarpReport state.
    const state = /^waits at barrier/.test(s.state) ? 'barrier' : s.state;
    const end =
      state === 'barrier'
        ? `${s.state} (${s.at})`
        : state === 'spinning'
          ? `spins in the loop at ${s.at}`
          : state === 'running'
            ? `still running at ${s.at}`
            : state === 'exited'
              ? `exited at cycle ${str(s.exit)}`
              : '';
    rowKeys.set(`${s.block}:${s.warp}`, rows.length);
    rows.push({ block: s.block, warp: s.warp, label, threads: s.threads, state, at: state === 'exited' ? '' : s.at, end });
  }

  const paths: PathKey[] = [];
  const pathIndex = new Map<string, number>();
  const pathOf = (label: string, at: string): number => {
    let i = pathIndex.get(label);
    if (i === undefined) {
      i = paths.length;
      paths.push({ label, at });
      pathIndex.set(label, i);
    }
    return i;
  };

  interface Open {
    seg: Segment;
  }
  const open = new Map<number, Open>();
  /** The path a warp ran before it waited (it goes on with it after the release). */
  const before = new Map<number, Segment>();
  const segments: Segment[] = [];
  const marks: Mark[] = [];
  let end = 0;
  let deadlock = false;

  const close = (row: number, cycle: number): Segment | null => {
    const o = open.get(row);
    if (!o) return null;
    o.seg.to = Math.max(o.seg.from, cycle);
    open.delete(row);
    return o.seg;
  };
  const start = (seg: Segment) => {
    segments.push(seg);
    open.set(seg.row, { seg });
  };

  for (const r of events.rows) {
    const kind = WORD_KIND.get(str(r.event));
    if (!kind) continue;
    const key = `${num(r.block)}:${num(r.warp)}`;
    let row = rowKeys.get(key);
    if (row === undefined) {
      // An event of a warp the end-state table does not list: give it a row of its own.
      row = rows.length;
      rowKeys.set(key, row);
      rows.push({ block: num(r.block), warp: num(r.warp), label: `block ${num(r.block)} warp ${num(r.warp)}`, threads: '', state: '', at: '', end: '' });
    }
    const cycle = num(r.cycle);
    end = Math.max(end, cycle);
    const threads = str(r.threads);
    const active = num(r.active);
    const at = str(r.at);
    const barrier = str(r.barrier);
    const base = { row, threads, active, at, barrier: '', stuck: false };
    switch (kind) {
      case 'path-start':
        close(row, cycle);
        start({ ...base, from: cycle, to: cycle, kind: 'path', path: pathOf(`path from ${at}, ${active} threads`, at) });
        break;
      case 'reconverge':
        close(row, cycle);
        start({ ...base, from: cycle, to: cycle, kind: 'path', path: pathOf(`reconverged at ${at}, ${active} threads`, at) });
        break;
      case 'barrier-wait': {
        const ran = close(row, cycle);
        if (ran && ran.kind === 'path') before.set(row, ran);
        start({ ...base, barrier, from: cycle, to: cycle, kind: 'wait', path: -1 });
        marks.push({ row, cycle, kind, threads, at, barrier });
        break;
      }
      case 'barrier-release': {
        close(row, cycle);
        marks.push({ row, cycle, kind, threads, at, barrier });
        const ran = before.get(row);
        if (ran) start({ ...ran, from: cycle, to: cycle, stuck: false });
        break;
      }
      case 'exit':
        close(row, cycle);
        marks.push({ row, cycle, kind, threads, at: 'the end of the kernel', barrier });
        break;
      case 'deadlock':
      case 'stopped': {
        // The run ended here: a deadlock, or the step budget (the warp was still running or spinning).
        if (kind === 'deadlock') deadlock = true;
        const o = open.get(row);
        if (o) o.seg.stuck = true;
        close(row, cycle);
        marks.push({ row, cycle, kind, threads, at, barrier });
        break;
      }
    }
  }
  // Segments still open ran to the end of the run (the step budget stopped it, or events were capped).
  for (const row of [...open.keys()]) {
    const seg = close(row, end);
    if (seg && rows[row] && rows[row].state !== 'exited' && rows[row].state !== '') seg.stuck = true;
  }
  const left = /(\d+) more not shown/.exec(events.name);
  return {
    title,
    rows,
    // A path that waits or reconverges in the cycle it starts, or a wait released at once, takes no
    // time: the marks show it.
    segments: segments.filter((s) => s.to > s.from || s.stuck),
    marks,
    paths,
    end,
    deadlock,
    stuck: rows.filter((r) => r.state !== '' && r.state !== 'exited'),
    eventsLeftOut: left ? Number(left[1]) : 0,
  };
}

// ---- the chart ------------------------------------------------------------------------------------

/** Path colours (by first appearance; they repeat after twelve paths). */
export const PATH_COLOURS = ['#2f6fb3', '#e07b39', '#3a9d5d', '#8e5cc4', '#c9a227', '#1aa3a3', '#d4577f', '#6b8e23', '#a0522d', '#4f6d9a', '#b5651d', '#5e8c6a'];
const WAIT_COLOUR = '#9aa1ab';
const STUCK_COLOUR = '#c0392b';

const MARKS: { kind: EventKind; name: string; symbol: string; size: number; colour: string }[] = [
  { kind: 'barrier-wait', name: 'barrier wait', symbol: 'triangle', size: 11, colour: '#555b63' },
  { kind: 'barrier-release', name: 'barrier release', symbol: 'diamond', size: 11, colour: '#1f8a4c' },
  // The exit mark takes the theme's text colour ('fg': near black on light, near white on dark).
  { kind: 'exit', name: 'exit', symbol: 'rect', size: 9, colour: 'fg' },
  { kind: 'deadlock', name: 'deadlock', symbol: 'pin', size: 22, colour: STUCK_COLOUR },
  { kind: 'stopped', name: 'stopped by the step budget', symbol: 'pin', size: 22, colour: STUCK_COLOUR },
];

export function pathColour(i: number): string {
  return PATH_COLOURS[((i % PATH_COLOURS.length) + PATH_COLOURS.length) % PATH_COLOURS.length]!;
}

function segmentText(tl: KernelTimeline, s: Segment): string {
  const row = tl.rows[s.row]?.label ?? '';
  const span = `cycles ${s.from} to ${s.to}`;
  if (s.kind === 'wait') return `${row}: waits at barrier ${s.barrier} (${s.at}), ${span}${s.stuck ? '; still waiting at the deadlock' : ''}`;
  const p = tl.paths[s.path];
  return `${row}: ${p?.label ?? 'path'}, threads ${s.threads} (${s.active} active), ${span}${s.stuck ? `; ${tl.rows[s.row]?.end ?? 'stuck'} at the end` : ''}`;
}

function markText(tl: KernelTimeline, m: Mark): string {
  const row = tl.rows[m.row]?.label ?? '';
  switch (m.kind) {
    case 'barrier-wait':
      return `${row} waits at barrier ${m.barrier} (${m.at}) at cycle ${m.cycle}`;
    case 'barrier-release':
      return `${row} released from barrier ${m.barrier} (${m.at}) at cycle ${m.cycle}`;
    case 'exit':
      return `${row} exits at cycle ${m.cycle} (threads ${m.threads})`;
    case 'deadlock':
      return `deadlock at cycle ${m.cycle}: ${row} ${tl.rows[m.row]?.end || `stuck at ${m.at}`}`;
    case 'stopped':
      return `stopped by the step budget at cycle ${m.cycle}: ${row} ${tl.rows[m.row]?.end || `at ${m.at}`}`;
    default:
      return `${row} at cycle ${m.cycle}`;
  }
}

/** Rows shown at most (a big grid's later warps are left out, and the chart says so). */
export const MAX_ROWS = 64;

/** Height in pixels the chart wants for its rows. */
export function timelineHeight(tl: KernelTimeline): number {
  const rows = Math.min(tl.rows.length, MAX_ROWS);
  return Math.max(180, 110 + rows * 30);
}

interface RenderApi {
  value(dim: number): number;
  coord(v: [number, number]): [number, number];
  size(v: [number, number]): [number, number];
}

/** The ECharts option of one timeline. */
export function timelineOption(tl: KernelTimeline, theme: ChartTheme): EChartsOption {
  const shownRows = tl.rows.slice(0, MAX_ROWS);
  const inView = (row: number) => row < shownRows.length;
  const segs = tl.segments.filter((s) => inView(s.row));
  const data = segs.map((s, i) => ({ value: [s.from, s.to, s.row, i], name: segmentText(tl, s) }));
  const renderItem = (_params: unknown, api: RenderApi) => {
    const s = segs[api.value(3)]!;
    const a = api.coord([s.from, s.row]);
    const b = api.coord([s.to, s.row]);
    const band = api.size([0, 1])[1];
    const h = s.kind === 'wait' ? band * 0.3 : band * 0.56;
    const width = Math.max(3, b[0] - a[0]);
    const colour = s.kind === 'wait' ? WAIT_COLOUR : pathColour(s.path);
    return {
      type: 'rect',
      shape: { x: a[0], y: a[1] - h / 2, width, height: h },
      style: { fill: colour, opacity: s.kind === 'wait' ? 0.55 : 0.9, stroke: s.stuck ? STUCK_COLOUR : undefined, lineWidth: s.stuck ? 2.5 : 0 },
    };
  };
  const series: NonNullable<EChartsOption['series']> = [
    {
      type: 'custom',
      name: 'paths',
      renderItem: renderItem as never,
      encode: { x: [0, 1], y: 2 },
      data,
      tooltip: { formatter: (p: { name?: string }) => tooltipHtml(p.name ?? '') },
      z: 2,
    } as never,
  ];
  for (const m of MARKS) {
    const ms = tl.marks.filter((x) => x.kind === m.kind && inView(x.row));
    if (ms.length === 0) continue;
    series.push({
      type: 'scatter',
      name: m.name,
      symbol: m.symbol,
      symbolSize: m.size,
      itemStyle: { color: m.colour === 'fg' ? theme.fg : m.colour },
      data: ms.map((x) => ({ value: [x.cycle, x.row], name: markText(tl, x) })),
      tooltip: { formatter: (p: { name?: string }) => tooltipHtml(p.name ?? '') },
      z: 3,
    });
  }
  return {
    animation: false,
    textStyle: { color: theme.fg },
    grid: { left: 110, right: 30, top: 40, bottom: 60 },
    tooltip: { trigger: 'item', confine: true },
    legend: { top: 4, textStyle: { color: theme.fg }, data: MARKS.filter((m) => tl.marks.some((x) => x.kind === m.kind)).map((m) => m.name) },
    xAxis: {
      type: 'value',
      name: 'Cycle',
      nameLocation: 'middle',
      nameGap: 28,
      min: 0,
      axisLabel: { color: theme.muted },
      axisLine: { lineStyle: { color: theme.border } },
      splitLine: { lineStyle: { color: theme.border, opacity: 0.5 } },
    },
    yAxis: {
      type: 'category',
      data: shownRows.map((r) => r.label),
      inverse: true,
      axisLabel: { color: theme.fg, formatter: (v: string) => (tl.stuck.some((s) => s.label === v) ? `{stuck|${v}}` : v), rich: { stuck: { color: STUCK_COLOUR, fontWeight: 'bold' } } },
      axisLine: { lineStyle: { color: theme.border } },
      splitLine: { show: true, lineStyle: { color: theme.border, opacity: 0.35 } },
    },
    dataZoom: [
      { type: 'inside', xAxisIndex: 0, filterMode: 'none' },
      { type: 'slider', xAxisIndex: 0, filterMode: 'none', height: 14, bottom: 6 },
    ],
    series,
  };
}

/**
 * A kernel run's title, telling runs apart in the library: the example's title while its text is
 * unchanged, else the kernel's first line (its comment's words, or the first statement), with the
 * launch: "Kernel: if (tid < 8) { while (1) ... (1 × 64 threads)".
 */
export function kernelTitle(source: string, blocks: number, threads: number, example?: { title: string; source: string }): string {
  const launch = `(${blocks} × ${threads} threads)`;
  if (example && example.source === source) return `Kernel: ${example.title} ${launch}`;
  const first = source
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.length > 0 && l !== '//' && l !== '/*' && l !== '*/');
  const words = (first ?? 'empty kernel').replace(/^\/\/\s*|^\/\*\s*|\s*\*\/$/g, '').replace(/\s+/g, ' ');
  const short = words.length > 60 ? `${words.slice(0, 57)}...` : words;
  return `Kernel: ${short} ${launch}`;
}

/**
 * A timeline tooltip's text as ECharts' HTML: escaped (kernel names, source lines and messages come
 * from stored results, which a bundle can carry), line breaks kept.
 */
export function tooltipHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!).replace(/\n/g, '<br/>');
}
