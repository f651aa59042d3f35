import { defineStore } from 'pinia';
import type { RunPage, RunQuery, RunSortKey, RunStatus, RunSummary, RunUpdate } from '../../../src-main/contract';
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

/**
 * The runs library: filters, sort and paging done by the server (lab.runs.list limit/offset), so a
 * library of thousands of runs costs one page at a time; the selection survives paging.
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
  }),
  getters: {
    pages: (s) => Math.max(1, Math.ceil(s.total / s.pageSize)),
    isSelected: (s) => (id: string) => s.selected.includes(id),
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
        const page: RunPage = await useLab().runs.list(listQuery(this.filters, this.sort, this.order, this.page, this.pageSize));
        if (mine !== sequence) return;
        // A page past the end (after deletes or a narrower filter): go to the last page.
        if (page.items.length === 0 && page.total > 0 && this.page > 0) {
          this.page = Math.max(0, Math.ceil(page.total / this.pageSize) - 1);
          return this.load();
        }
        this.items = page.items;
        this.total = page.total;
        for (const r of page.items) if (this.selected.includes(r.id)) this.known[r.id] = r;
        this.status = 'ready';
        this.error = '';
      } catch (e) {
        if (mine !== sequence) return;
        this.status = 'error';
        this.error = e instanceof Error ? e.message : String(e);
        useNotify().error(e, 'Could not list the runs');
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
        if (this.known[id]) this.known[id] = updated;
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
        const { deleted } = await useLab().runs.delete({ ids });
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
