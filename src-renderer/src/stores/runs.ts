import { defineStore } from 'pinia';
import type { LabApi, RunPage, RunQuery, RunSortKey, RunStatus, RunSummary, RunUpdate } from '../../../src-main/contract';
import type { SweepSummary } from '../../../src-main/sweep-contract';
import { useLab } from '../api';
import { dayBound } from '../composables/format';
import { useNotify } from './notify';

export interface RunFilters {
  /** Free text: title, notes or experiment id (sent as `text`). */
  text: string;
  experiment: string;
  preset: string;
  status: RunStatus | '';
  tag: string;
  /** "YYYY-MM-DD" (local days, inclusive), or ''. */
  from: string;
  to: string;
}

export const emptyFilters = (): RunFilters => ({ text: '', experiment: '', preset: '', status: '', tag: '', from: '', to: '' });

export const PAGE_SIZES = [25, 50, 100, 200] as const;

/** What `lab.runs.list` is asked for the given library state (server-side filter, sort and paging). */
export function listQuery(filters: RunFilters, sort: RunSortKey, order: 'asc' | 'desc', page: number, pageSize: number): Partial<RunQuery> {
  const q: Partial<RunQuery> = { sort, order, limit: pageSize, offset: page * pageSize };
  const text = filters.text.trim();
  if (text) q.text = text;
  if (filters.experiment) q.experiment = filters.experiment;
  if (filters.preset) q.preset = filters.preset;
  if (filters.status) q.status = filters.status;
  const tag = filters.tag.trim();
  if (tag) q.tag = tag;
  const from = dayBound(filters.from, false);
  const to = dayBound(filters.to, true);
  if (from !== null) q.from = from;
  if (to !== null) q.to = to;
  return q;
}

/** The contract's FINISHED_STATUSES (the renderer imports only types from src-main). */
export const FINISHED: readonly RunStatus[] = ['done', 'failed', 'cancelled', 'interrupted'];
export const STATUSES: readonly RunStatus[] = ['queued', 'running', ...FINISHED];
/** The contract's LIMITS for what a user types (titles, tags, notes). */
export const TEXT_LIMITS = { titleChars: 200, notesChars: 20_000, tagChars: 40, tagsPerRun: 32, textQueryChars: 200 } as const;

let sequence = 0;
const groupSequence: Record<string, number> = {};

/** Runs of one sweep shown under it at most; the sweep view lists every point. */
export const GROUP_LIMIT = 200;
/** The contract's LIMITS.listPageMax: the most runs one `runs.list` answers (a sweep's selection pages by it). */
export const LIST_PAGE_MAX = 500;
/** The contract's LIMITS.idsPerCall: the most runs one `runs.delete` names (larger deletes go in parts). */
export const IDS_PER_CALL = 1_000;

/** A sweep's runs as the library shows them under it (the library's filters and sort applied). */
export interface SweepGroup {
  items: RunSummary[];
  total: number;
  status: 'loading' | 'ready' | 'error';
}

/** The lab's sweeps; none where the lab has no sweep calls (or they fail: the runs still list). */
async function listSweeps(lab: LabApi): Promise<SweepSummary[]> {
  if (typeof lab.sweeps?.list !== 'function') return [];
  try {
    return await lab.sweeps.list();
  } catch {
    return [];
  }
}

/**
 * The runs library: filters, sort and paging done by the server (lab.runs.list limit/offset), so a
 * library of thousands of runs costs one page at a time; the selection survives paging.
 *
 * When the lab has sweeps, a sweep's runs are grouped under it: the pages list the runs of no sweep
 * (`sweep: "none"`, whose answer counts the matching runs of each sweep), the first page starts
 * with a row per sweep, and an expanded sweep lists its runs (the same filters and sort, up to
 * GROUP_LIMIT) under its row.
 */
export const useRuns = defineStore('runs', {
  state: () => ({
    filters: emptyFilters(),
    sort: 'created' as RunSortKey,
    order: 'desc' as 'asc' | 'desc',
    page: 0,
    pageSize: 50 as number,
    items: [] as RunSummary[],
    total: 0,
    status: 'idle' as 'idle' | 'loading' | 'ready' | 'error',
    error: '',
    /** Selected run ids, in the order they were selected. */
    selected: [] as string[],
    /** Summaries of the selected runs seen so far (for the actions' counts and checks). */
    known: {} as Record<string, RunSummary>,
    /** The lab's sweeps (newest first); empty: the library lists every run as one list. */
    sweeps: [] as SweepSummary[],
    /** Runs of each sweep that the filters match (absent: none). */
    sweepRuns: {} as Record<string, number>,
    /** Sweeps whose runs are shown under them. */
    expanded: [] as string[],
    /** Sweeps whose run ids are being read to select them all. */
    selectingSweeps: [] as string[],
    groups: {} as Record<string, SweepGroup>,
  }),
  getters: {
    pages: (s) => Math.max(1, Math.ceil(s.total / s.pageSize)),
    /** Whether the runs of sweeps are grouped under their sweep (the lab has sweeps). */
    grouped: (s) => s.sweeps.length > 0,
    /** Every run the filters match: the pages' and the sweeps'. */
    allTotal: (s) => s.total + Object.values(s.sweepRuns).reduce((a, b) => a + b, 0),
    /** The sweeps the first page shows: all of them, or with filters those with a matching run. */
    sweepRows(s): SweepSummary[] {
      const filtered = Object.values(s.filters).some((v) => v !== '');
      return s.page > 0 ? [] : s.sweeps.filter((w) => !filtered || (s.sweepRuns[w.id] ?? 0) > 0);
    },
    isSelected: (s) => (id: string) => s.selected.includes(id),
    /**
     * A sweep's checkbox: how many of its runs are selected, of those that the filters match; 'all'
     * when every one of them is (checked), 'some' when a part is (indeterminate), else 'none'.
     */
    sweepSelection(s) {
      return (id: string): { selected: number; total: number; state: 'all' | 'some' | 'none' } => {
        const total = s.sweepRuns[id] ?? 0;
        const selected = s.selected.filter((r) => s.known[r]?.sweepId === id).length;
        return { selected, total, state: selected === 0 ? 'none' : selected >= total ? 'all' : 'some' };
      };
    },
    /** Selected runs that are finished (the ones delete accepts). */
    deletable: (s) => s.selected.filter((id) => {
      const r = s.known[id];
      return !r || FINISHED.includes(r.status);
    }),
  },
  actions: {
    /** Reads the current page; an older answer arriving after a newer one is dropped. */
    async load(): Promise<void> {
      const mine = ++sequence;
      this.status = 'loading';
      try {
        const lab = useLab();
        const sweeps = await listSweeps(lab);
        if (mine !== sequence) return;
        const query = listQuery(this.filters, this.sort, this.order, this.page, this.pageSize);
        const page: RunPage = await lab.runs.list(sweeps.length ? { ...query, sweep: 'none' } : query);
        if (mine !== sequence) return;
        // A page past the end (after deletes or a narrower filter): go to the last page.
        if (page.items.length === 0 && page.total > 0 && this.page > 0) {
          this.page = Math.max(0, Math.ceil(page.total / this.pageSize) - 1);
          return this.load();
        }
        this.items = page.items;
        this.total = page.total;
        this.sweeps = sweeps;
        this.sweepRuns = Object.fromEntries((page.sweeps ?? []).map((w) => [w.id, w.runs]));
        for (const r of page.items) if (this.selected.includes(r.id)) this.known[r.id] = r;
        this.status = 'ready';
        this.error = '';
        // Expanded sweeps follow the filters and the sort (and drop out when their sweep is gone).
        this.expanded = this.expanded.filter((id) => sweeps.some((w) => w.id === id));
        for (const id of Object.keys(this.groups)) if (!this.expanded.includes(id)) delete this.groups[id];
        await Promise.all(this.expanded.map((id) => this.loadGroup(id)));
      } catch (e) {
        if (mine !== sequence) return;
        this.status = 'error';
        this.error = e instanceof Error ? e.message : String(e);
        useNotify().error(e, 'Could not list the runs');
      }
    },
    /** The runs of one sweep, under its row (the library's filters and sort). */
    async loadGroup(id: string): Promise<void> {
      const mine = (groupSequence[id] = (groupSequence[id] ?? 0) + 1);
      const group = this.groups[id];
      if (group) group.status = 'loading';
      else this.groups[id] = { items: [], total: 0, status: 'loading' };
      try {
        const page = await useLab().runs.list({ ...listQuery(this.filters, this.sort, this.order, 0, GROUP_LIMIT), sweep: id });
        if (mine !== groupSequence[id] || !this.expanded.includes(id)) return;
        this.groups[id] = { items: page.items, total: page.total, status: 'ready' };
        for (const r of page.items) if (this.selected.includes(r.id)) this.known[r.id] = r;
      } catch (e) {
        if (mine !== groupSequence[id]) return;
        this.groups[id] = { items: [], total: 0, status: 'error' };
        useNotify().error(e, "Could not list the sweep's runs");
      }
    },
    /** Shows or hides a sweep's runs under its row. */
    toggleSweep(id: string): Promise<void> {
      if (this.expanded.includes(id)) {
        this.expanded = this.expanded.filter((x) => x !== id);
        delete this.groups[id];
        return Promise.resolve();
      }
      this.expanded.push(id);
      return this.loadGroup(id);
    },
    /**
     * Selects every run of a sweep that the filters match, those not listed under its row included
     * (their ids read by `runs.list` with `sweep: <id>`, a page of LIST_PAGE_MAX at a time), or with
     * `on` false clears them. Returns whether it worked (a failed read selects nothing).
     */
    async selectSweep(id: string, on: boolean): Promise<boolean> {
      if (!on) {
        const out = this.selected.filter((r) => this.known[r]?.sweepId === id);
        this.selected = this.selected.filter((r) => this.known[r]?.sweepId !== id);
        for (const r of out) delete this.known[r];
        return true;
      }
      if (this.selectingSweeps.includes(id)) return false;
      this.selectingSweeps.push(id);
      try {
        const lab = useLab();
        const found: RunSummary[] = [];
        for (let page = 0; ; page++) {
          const answer = await lab.runs.list({ ...listQuery(this.filters, this.sort, this.order, page, LIST_PAGE_MAX), sweep: id });
          // runs.list with a sweep's id names the sweep in each summary; say it where it does not.
          found.push(...answer.items.map((r) => (r.sweepId === id ? r : { ...r, sweepId: id })));
          if (answer.items.length < LIST_PAGE_MAX || found.length >= answer.total) break;
        }
        // At once (a sweep may have thousands of runs): those not selected yet join the end, in the library's order.
        const have = new Set(this.selected);
        const added: string[] = [];
        for (const r of found) {
          this.known[r.id] = r;
          if (!have.has(r.id)) {
            have.add(r.id);
            added.push(r.id);
          }
        }
        this.selected = [...this.selected, ...added];
        return true;
      } catch (e) {
        useNotify().error(e, "Could not select the sweep's runs");
        return false;
      } finally {
        this.selectingSweeps = this.selectingSweeps.filter((x) => x !== id);
      }
    },
    setFilters(patch: Partial<RunFilters>): Promise<void> {
      Object.assign(this.filters, patch);
      this.page = 0;
      return this.load();
    },
    clearFilters(): Promise<void> {
      this.filters = emptyFilters();
      this.page = 0;
      return this.load();
    },
    /** A header click: the same key flips the order; a new key starts descending (ascending for text). */
    sortBy(key: RunSortKey): Promise<void> {
      if (this.sort === key) this.order = this.order === 'asc' ? 'desc' : 'asc';
      else {
        this.sort = key;
        this.order = key === 'title' || key === 'experiment' || key === 'preset' || key === 'status' ? 'asc' : 'desc';
      }
      this.page = 0;
      return this.load();
    },
    goTo(page: number): Promise<void> {
      this.page = Math.min(Math.max(0, page), this.pages - 1);
      return this.load();
    },
    setPageSize(size: number): Promise<void> {
      this.pageSize = size;
      this.page = 0;
      return this.load();
    },
    toggle(run: RunSummary, on?: boolean): void {
      const has = this.selected.includes(run.id);
      const want = on ?? !has;
      if (want && !has) {
        this.selected.push(run.id);
        this.known[run.id] = run;
      } else if (!want && has) {
        this.selected = this.selected.filter((id) => id !== run.id);
        delete this.known[run.id];
      }
    },
    /** Selects (or clears) the runs of a range of the current page (shift-click). */
    selectRange(fromIndex: number, toIndex: number, on: boolean): void {
      const [a, b] = fromIndex <= toIndex ? [fromIndex, toIndex] : [toIndex, fromIndex];
      for (const run of this.items.slice(a, b + 1)) this.toggle(run, on);
    },
    clearSelection(): void {
      this.selected = [];
      this.known = {};
    },
    /** Changes a run's title, tags or notes; the row takes the server's answer. */
    async update(id: string, patch: RunUpdate): Promise<RunSummary | null> {
      try {
        const updated = await useLab().runs.update({ id, ...patch });
        const i = this.items.findIndex((r) => r.id === id);
        if (i >= 0) this.items[i] = updated;
        for (const g of Object.values(this.groups)) {
          const j = g.items.findIndex((r) => r.id === id);
          // runs.update's summary names no sweep: the row keeps its own.
          if (j >= 0) g.items[j] = { ...g.items[j], ...updated };
        }
        // runs.update's summary names no sweep: the selection keeps what it knew (a sweep's checkbox counts by it).
        const known = this.known[id];
        if (known) this.known[id] = { ...known, ...updated };
        return updated;
      } catch (e) {
        useNotify().error(e, 'Could not save the change');
        return null;
      }
    },
    /** Deletes finished runs; returns how many were deleted (null on failure). */
    async remove(ids: string[]): Promise<number | null> {
      if (ids.length === 0) return 0;
      try {
        let deleted = 0;
        for (let i = 0; i < ids.length; i += IDS_PER_CALL) deleted += (await useLab().runs.delete({ ids: ids.slice(i, i + IDS_PER_CALL) })).deleted;
        this.selected = this.selected.filter((id) => !ids.includes(id));
        for (const id of ids) delete this.known[id];
        await this.load();
        return deleted;
      } catch (e) {
        useNotify().error(e, 'Could not delete the runs');
        return null;
      }
    },
  },
});
