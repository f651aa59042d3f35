/**
 * The builder's templates and route prefill: "Reproduce a figure" cards made from each experiment's
 * `reproduces` list (REPRODUCTION.md row ids) with the experiment's default parameters, and the
 * `?experiment=&preset=&params=` query other views use to open the builder prefilled.
 */
import type { LocationQuery, LocationQueryRaw } from 'vue-router';
import type { ExperimentInfo, PresetSummary } from '../../../src-main/contract';
import type { PlanParams, RowPlan } from '../../../src-sim/reference/plan';

export interface RowTemplate {
  /** REPRODUCTION.md row id, e.g. "MEI-T3". */
  row: string;
  /** "Mei et al. 2014" or "Wong et al. 2010" (or the id's prefix). */
  paper: string;
  /** What the id refers to in the paper: "Table 3", "Figs 10–12"; '' when the id names no figure or table. */
  figure: string;
  /** The row's title from REPRODUCTION.md (experiments.list `rows`), else the figure. */
  title: string;
  /**
   * The experiments that reproduce the row, in catalogue order, each with its runs per GPU: the
   * parameters the row's paper values come from (one set per run; {} for the defaults).
   */
  experiments: { id: string; title: string; plans: RowPlan[] }[];
  /** The GPUs the paper measured, among the presets present. */
  presets: string[];
}

const PAPERS: Record<string, { name: string; presets: string[] }> = {
  MEI: { name: 'Mei et al. 2014', presets: ['fermi', 'kepler'] },
  WONG: { name: 'Wong et al. 2010', presets: ['tesla'] },
  LASH: { name: 'Lashgar et al. 2014', presets: [] },
  SL1: { name: 'Mokhtari et al. 2015', presets: [] },
};

/** "T3" -> "Table 3", "F10..F12" -> "Figs 10–12", "F10/F11" -> "Figs 10/11"; '' for an id that names no figure ("K512"). */
export function figureName(rest: string): string {
  const single = /^([TF])(\d+)$/.exec(rest);
  if (single) return `${single[1] === 'T' ? 'Table' : 'Fig'} ${single[2]}`;
  const multi = /^([TF])(\d+)(\.\.|\/)[TF]?(\d+)$/.exec(rest);
  if (multi) return `${multi[1] === 'T' ? 'Tables' : 'Figs'} ${multi[2]}${multi[3] === '..' ? '–' : '/'}${multi[4]}`;
  return '';
}

export function describeRow(row: string): { paper: string; figure: string; presets: string[] } {
  const dash = row.indexOf('-');
  const key = dash > 0 ? row.slice(0, dash) : row;
  const paper = PAPERS[key];
  return { paper: paper?.name ?? key, figure: figureName(dash > 0 ? row.slice(dash + 1) : row), presets: paper?.presets ?? [] };
}

/**
 * One template per reproduced row, in the order of the rows' ids. Its title and GPUs come from the
 * row (experiments.list `rows`) when the experiment names one, else from the id; each experiment
 * carries the row's runs (its plans), so that a template starts exactly what the row measures.
 */

/** The parameter sets a template runs on `preset` ([{}]: the experiment's defaults). */
export function templateRuns(e: RowTemplate['experiments'][number], preset: string): PlanParams[] {
  return e.plans.find((p) => p.preset === preset)?.params ?? [{}];
}

/** Runs a template starts on its GPUs, and whether any uses the row's own settings rather than the defaults. */
export function templateRunCount(t: RowTemplate, e: RowTemplate['experiments'][number]): { runs: number; rowSettings: boolean } {
  const sets = t.presets.map((p) => templateRuns(e, p));
  return { runs: sets.reduce((a, s) => a + s.length, 0), rowSettings: sets.some((s) => s.some((x) => Object.keys(x).length > 0)) };
}
export function rowTemplates(experiments: readonly ExperimentInfo[], presets: readonly PresetSummary[]): RowTemplate[] {
  const byRow = new Map<string, RowTemplate>();
  const known = new Set(presets.map((p) => p.id));
  for (const e of experiments) {
    for (const row of e.reproduces) {
      let t = byRow.get(row);
      if (!t) {
        const d = describeRow(row);
        const first = e.rows?.find((r) => r.id === row);
        const wanted = (first?.presets ?? d.presets).filter((p) => known.has(p));
        const title = first?.title ?? (d.figure || row);
        t = { row, paper: d.paper, figure: d.figure, title, experiments: [], presets: wanted.length ? wanted : presets.slice(0, 1).map((p) => p.id) };
        byRow.set(row, t);
      }
      const info = e.rows?.find((r) => r.id === row);
      t.experiments.push({ id: e.id, title: e.title, plans: (info?.plans ?? []).filter((p) => t!.presets.includes(p.preset)) });
    }
  }
  // Where the row's paper values name the experiments they come from, only those experiments
  // reproduce it: another that lists the row would start runs beside which no paper value shows.
  for (const t of byRow.values()) {
    const named = t.experiments.filter((e) => e.plans.some((p) => p.named));
    if (named.length) t.experiments = named;
  }
  return [...byRow.values()].sort((a, b) => a.row.localeCompare(b.row, 'en', { numeric: true }));
}

export interface BuilderPrefill {
  experiment: string | null;
  presets: string[];
  params: Record<string, unknown> | null;
  /** Why the query's params could not be read, or null. */
  problem: string | null;
}

function first(v: LocationQuery[string] | undefined): string | null {
  if (Array.isArray(v)) return v[0] ?? null;
  return v ?? null;
}

/** Reads `?experiment=<id>&preset=<id>[,<id>...]&params=<json>` (preset may repeat). */
export function readPrefill(query: LocationQuery): BuilderPrefill {
  const experiment = first(query.experiment);
  const rawPresets = Array.isArray(query.preset) ? query.preset : query.preset ? [query.preset] : [];
  const presets = rawPresets.flatMap((p) => (p ?? '').split(',')).map((p) => p.trim()).filter(Boolean);
  const rawParams = first(query.params);
  let params: Record<string, unknown> | null = null;
  let problem: string | null = null;
  if (rawParams) {
    try {
      const parsed = JSON.parse(rawParams) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) params = parsed as Record<string, unknown>;
      else problem = 'the link\'s parameters are not a JSON object';
    } catch {
      problem = 'the link\'s parameters are not valid JSON';
    }
  }
  return { experiment, presets, params, problem };
}

/** The query that opens the builder prefilled (for links from other views). */
export function builderQuery(experiment: string, presets: string[], params?: Record<string, unknown>): LocationQueryRaw {
  const q: LocationQueryRaw = { experiment };
  if (presets.length) q.preset = presets.join(',');
  if (params) q.params = JSON.stringify(params);
  return q;
}
