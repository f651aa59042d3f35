// @vitest-environment happy-dom
/**
 * The queue view and the runs library (src-renderer/src/views/QueueView.vue, RunsView.vue,
 * stores/runs.ts) against a fake LabApi that keeps runs in memory and answers runs.list with real
 * filtering, sorting and paging: progress rendering from events, elapsed time ticking, cancel,
 * failures; the library's filter / sort / paging calls, debounced search, rename, selection for
 * comparison, the delete confirmation (Escape closes it) and the refresh after a run finishes; a
 * sweep's runs grouped under its row, whose checkbox selects all of them (paging through runs.list).
 */
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defineComponent, nextTick } from 'vue';
import { createMemoryHistory, createRouter, type Router } from 'vue-router';
import type { ExperimentInfo, LabApi, LabEvents, PresetSummary, RunQuery, RunStatus, RunSummary } from '../../src-main/contract';
import type { SweepSummary } from '../../src-main/sweep-contract';
import { setLab } from '../../src-renderer/src/api';
import { formatElapsed } from '../../src-renderer/src/composables/format';
import { useQueue } from '../../src-renderer/src/stores/queue';
import { listQuery, emptyFilters } from '../../src-renderer/src/stores/runs';
import QueueView from '../../src-renderer/src/views/QueueView.vue';
import RunsView from '../../src-renderer/src/views/RunsView.vue';

const PRESETS = [
  { id: 'fermi', name: 'Fermi', device: 'GeForce GTX 560 Ti', generation: 'Fermi', builtin: true, updatedAt: null },
  { id: 'kepler', name: 'Kepler', device: 'GeForce GTX 780', generation: 'Kepler', builtin: true, updatedAt: null },
] satisfies PresetSummary[];
const EXPERIMENTS: ExperimentInfo[] = [
  { id: 'pchase-average', title: 'Average', description: 'd', reproduces: [], params: [] },
  { id: 'pchase-fine', title: 'Fine', description: 'd', reproduces: [], params: [] },
];

const T0 = Date.UTC(2026, 0, 10, 12, 0, 0);
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function run(n: number, over: Partial<RunSummary> = {}): RunSummary {
  const preset = n % 2 ? 'fermi' : 'kepler';
  return {
    id: uuid(n),
    experiment: n % 3 ? 'pchase-average' : 'pchase-fine',
    title: `Run ${String(n).padStart(4, '0')}`,
    presetId: preset,
    presetName: preset === 'fermi' ? 'Fermi' : 'Kepler',
    seed: 1,
    simVersion: '1',
    status: 'done',
    error: null,
    createdAt: T0 + n * 60_000,
    startedAt: T0 + n * 60_000,
    finishedAt: T0 + n * 60_000 + 1000,
    durationMs: 100 + n,
    tags: n % 10 === 0 ? ['lab-3'] : [],
    notes: '',
    ...over,
  };
}

/**
 * An in-memory LabApi for the parts these views use; runs.list filters, sorts and pages like the
 * store (with its sweep filter and counts by sweep); sweeps.list where sweeps are given.
 */
function fakeLab(runs: RunSummary[], sweeps: SweepSummary[] = []) {
  const listeners: { [E in keyof LabEvents]?: ((p: LabEvents[E]) => void)[] } = {};
  const list = vi.fn(async (q: Partial<RunQuery> = {}) => {
    let items = runs.filter((r) => {
      if (q.experiment && r.experiment !== q.experiment) return false;
      if (q.preset && r.presetId !== q.preset) return false;
      if (q.status && !(Array.isArray(q.status) ? q.status : [q.status]).includes(r.status)) return false;
      if (q.tag && !r.tags.includes(q.tag)) return false;
      if (q.text && !`${r.title} ${r.notes} ${r.experiment}`.toLowerCase().includes(q.text.toLowerCase())) return false;
      if (typeof q.from === 'number' && r.createdAt < q.from) return false;
      if (typeof q.to === 'number' && r.createdAt > q.to) return false;
      return true;
    });
    const inSweeps = q.sweep === 'none' ? sweeps.map((w) => ({ id: w.id, runs: items.filter((r) => r.sweepId === w.id).length })).filter((w) => w.runs > 0) : undefined;
    if (q.sweep !== undefined) items = items.filter((r) => (q.sweep === 'none' ? r.sweepId === undefined : r.sweepId === q.sweep));
    const key = q.sort ?? 'created';
    const val = (r: RunSummary): string | number =>
      key === 'created' ? r.createdAt : key === 'duration' ? (r.durationMs ?? -1) : key === 'preset' ? r.presetId : key === 'title' ? r.title : key === 'status' ? r.status : r.experiment;
    items = [...items].sort((a, b) => (val(a) < val(b) ? -1 : val(a) > val(b) ? 1 : 0) * ((q.order ?? 'desc') === 'asc' ? 1 : -1));
    const offset = q.offset ?? 0;
    const limit = q.limit ?? 50;
    return { total: items.length, items: items.slice(offset, offset + limit), ...(inSweeps ? { sweeps: inSweeps } : {}) };
  });
  const lab = {
    runs: {
      start: vi.fn(),
      list,
      get: vi.fn(),
      cancel: vi.fn(async ({ id }: { id: string }) => {
        const r = runs.find((x) => x.id === id);
        if (r) r.status = 'cancelled';
        return { cancelled: true };
      }),
      update: vi.fn(async (a: { id: string; title?: string; tags?: string[]; notes?: string }) => {
        const r = runs.find((x) => x.id === a.id)!;
        Object.assign(r, { ...(a.title !== undefined ? { title: a.title } : {}), ...(a.tags ? { tags: a.tags } : {}), ...(a.notes !== undefined ? { notes: a.notes } : {}) });
        return { ...r };
      }),
      delete: vi.fn(async ({ ids }: { ids: string[] }) => {
        const before = runs.length;
        for (const id of ids) runs.splice(runs.findIndex((r) => r.id === id), 1);
        return { deleted: before - runs.length };
      }),
    },
    ...(sweeps.length ? { sweeps: { list: vi.fn(async () => sweeps) } } : {}),
    presets: { list: vi.fn(async () => PRESETS) },
    experiments: { list: vi.fn(async () => EXPERIMENTS) },
    on: vi.fn(<E extends keyof LabEvents>(event: E, fn: (p: LabEvents[E]) => void) => {
      ((listeners[event] ??= []) as ((p: LabEvents[E]) => void)[]).push(fn);
      return () => {};
    }),
  };
  const emit = <E extends keyof LabEvents>(event: E, payload: LabEvents[E]) => {
    for (const fn of (listeners[event] ?? []) as ((p: LabEvents[E]) => void)[]) fn(payload);
  };
  return { lab: lab as unknown as LabApi, calls: lab.runs, emit };
}

const Stub = defineComponent({ template: '<div>elsewhere</div>' });
let pinia: Pinia;
let router: Router;
let wrapper: VueWrapper | null = null;

async function mountView(component: unknown, lab: LabApi, path: string, props: Record<string, unknown> = {}): Promise<VueWrapper> {
  setLab(lab);
  router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/queue', component: Stub },
      { path: '/runs', component: Stub },
      { path: '/runs/:id', component: Stub },
      { path: '/compare', component: Stub },
      { path: '/reports', component: Stub },
      { path: '/experiments', component: Stub },
      { path: '/sweeps/:id', component: Stub },
    ],
  });
  await router.push(path);
  await router.isReady();
  wrapper = mount(component as Parameters<typeof mount>[0], { props, global: { plugins: [pinia, router] }, attachTo: document.body } as never);
  await flushPromises();
  return wrapper;
}

beforeEach(() => {
  pinia = createPinia();
  setActivePinia(pinia);
});
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
  setLab(null);
  vi.useRealTimers();
});

/** A sweep of pchase-fine over stride on Fermi, with its counts (the others 0). */
function sweepOf(id: string, name: string, counts: Partial<SweepSummary['counts']> & { points: number }): SweepSummary {
  return { id, name, experiment: 'pchase-fine', presets: ['fermi'], axes: ['stride'], counts: { pending: 0, queued: 0, running: 0, done: 0, failed: 0, cancelled: 0, interrupted: 0, ...counts }, createdAt: T0 };
}

describe('the queue view', () => {
  it('shows progress, phase and a ticking elapsed time, and cancels', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(T0 + 100 * 60_000 + 65_000);
    const running = run(100, { status: 'running', startedAt: T0 + 100 * 60_000, finishedAt: null, durationMs: null, title: 'Running one' });
    const queued = run(101, { status: 'queued', startedAt: null, finishedAt: null, durationMs: null, title: 'Waiting one' });
    const failed = run(7, { status: 'failed', error: 'parameter "sizeTo" is 99 GB; allowed: 4 B to 16 GB', title: 'Broken one' });
    const fake = fakeLab([running, queued, failed, run(8)]);
    const w = await mountView(QueueView, fake.lab, '/queue');

    const rows = w.findAll('[data-testid^="queue-row-"]');
    expect(rows.map((r) => r.find('.title').text())).toEqual(['Running one', 'Waiting one']);
    expect(w.get('[data-testid="queue-summary"]').text()).toBe('1 running · 1 queued');

    fake.emit('run.progress', { runId: running.id, done: 250, total: 1000, phase: 'stride 64 B' });
    await nextTick();
    const row = w.get(`[data-testid="queue-row-${running.id}"]`);
    expect(row.get('[data-testid="queue-fill"]').attributes('style')).toContain('scaleX(0.25)');
    expect(row.get('[role="progressbar"]').attributes('aria-valuenow')).toBe('25');
    expect(row.get('[data-testid="queue-count-text"]').text()).toBe('250 / 1,000');
    expect(row.text()).toContain('stride 64 B');
    expect(row.text()).toContain('25 %');

    // Elapsed since the run started (1:05), ticking once a second; the queued one counts its wait.
    expect(row.get('[data-testid="queue-elapsed"]').text()).toBe('1:05');
    vi.advanceTimersByTime(2000);
    await nextTick();
    expect(row.get('[data-testid="queue-elapsed"]').text()).toBe('1:07');
    expect(w.get(`[data-testid="queue-row-${queued.id}"] [data-testid="queue-elapsed"]`).text()).toBe('0:07');
    expect(formatElapsed(3_725_000)).toBe('1:02:05');

    // Failures: the message and a link to the run.
    expect(fake.calls.list).toHaveBeenCalledWith(expect.objectContaining({ status: ['failed', 'interrupted'] }));
    const failures = w.get('[data-testid="failures"]');
    expect(failures.text()).toContain('parameter "sizeTo" is 99 GB; allowed: 4 B to 16 GB');
    expect(failures.get(`[data-testid="failure-${failed.id}"]`).attributes('href')).toBe(`/runs/${failed.id}`);

    await w.get(`[data-testid="cancel-${queued.id}"]`).trigger('click');
    await flushPromises();
    expect(fake.calls.cancel).toHaveBeenCalledWith({ id: queued.id });
    expect(w.findAll('[data-testid^="queue-row-"]').map((r) => r.find('.title').text())).toEqual(['Running one']);
  });

  it('says when nothing is queued', async () => {
    const fake = fakeLab([run(1)]);
    const w = await mountView(QueueView, fake.lab, '/queue');
    expect(w.get('[data-testid="queue-empty"]').text()).toContain('Nothing is queued or running');
    expect(w.find('[data-testid="failures-empty"]').exists()).toBe(true);
  });
});

describe('the runs library', () => {
  const many = () => Array.from({ length: 120 }, (_, i) => run(i + 1));
  const lastQuery = (calls: { list: ReturnType<typeof vi.fn> }) => calls.list.mock.calls.at(-1)![0] as Partial<RunQuery>;
  const rowTitles = (w: VueWrapper) => w.findAll('[data-testid^="run-row-"] .open').map((a) => a.text());

  it('turns filters into a list query (dates as local days, inclusive)', () => {
    const q = listQuery({ ...emptyFilters(), text: '  fermi ', status: 'failed', from: '2026-01-10', to: '2026-01-10' }, 'title', 'asc', 2, 25);
    expect(q).toEqual({ sort: 'title', order: 'asc', limit: 25, offset: 50, text: 'fermi', status: 'failed', from: new Date(2026, 0, 10).getTime(), to: new Date(2026, 0, 11).getTime() - 1 });
  });

  it('lists a page, sorts by header, pages, filters and searches on the server', async () => {
    const fake = fakeLab(many());
    const w = await mountView(RunsView, fake.lab, '/runs');
    expect(lastQuery(fake.calls)).toEqual({ sort: 'created', order: 'desc', limit: 50, offset: 0 });
    expect(w.findAll('[data-testid^="run-row-"]')).toHaveLength(50);
    expect(rowTitles(w)[0]).toBe('Run 0120');
    expect(w.get('[data-testid="page-range"]').text()).toBe('1–50 of 120');

    await w.get('[data-testid="sort-title"]').trigger('click');
    await flushPromises();
    expect(lastQuery(fake.calls)).toMatchObject({ sort: 'title', order: 'asc', offset: 0 });
    expect(rowTitles(w)[0]).toBe('Run 0001');
    expect(w.get('[data-testid="sort-title"]').element.parentElement!.getAttribute('aria-sort')).toBe('ascending');
    await w.get('[data-testid="sort-title"]').trigger('click');
    await flushPromises();
    expect(lastQuery(fake.calls)).toMatchObject({ sort: 'title', order: 'desc' });
    expect(rowTitles(w)[0]).toBe('Run 0120');

    await w.get('[data-testid="page-next"]').trigger('click');
    await flushPromises();
    expect(lastQuery(fake.calls)).toMatchObject({ offset: 50, limit: 50 });
    expect(rowTitles(w)[0]).toBe('Run 0070');
    expect(w.get('[data-testid="page-range"]').text()).toBe('51–100 of 120');

    // A filter goes back to the first page.
    await w.get('[data-testid="filter-preset"]').setValue('kepler');
    await flushPromises();
    expect(lastQuery(fake.calls)).toMatchObject({ preset: 'kepler', offset: 0 });
    expect(w.get('[data-testid="runs-total"]').text()).toBe('60 runs match');
    await w.get('[data-testid="filter-status"]').setValue('failed');
    await flushPromises();
    expect(lastQuery(fake.calls)).toMatchObject({ preset: 'kepler', status: 'failed' });
    expect(w.get('[data-testid="runs-empty"]').text()).toBe('No runs match these filters.');
    await w.get('[data-testid="filter-status"]').setValue('');
    await w.get('[data-testid="filter-preset"]').setValue('');
    await flushPromises();

    // Search waits for a pause in typing: one call for the whole word.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const before = fake.calls.list.mock.calls.length;
    const search = w.get('[data-testid="runs-search"]');
    await search.setValue('R');
    await search.setValue('Ru');
    await search.setValue('Run 011');
    vi.advanceTimersByTime(299);
    expect(fake.calls.list.mock.calls.length).toBe(before);
    vi.advanceTimersByTime(1);
    vi.useRealTimers();
    await flushPromises();
    expect(fake.calls.list.mock.calls.length).toBe(before + 1);
    expect(lastQuery(fake.calls)).toMatchObject({ text: 'Run 011', offset: 0 });
    expect(w.findAll('[data-testid^="run-row-"]')).toHaveLength(10);

    // A tag chip filters by its tag.
    await w.get('[data-testid="runs-search"]').setValue('');
    await w.get('[data-testid="filter-experiment"]').setValue('pchase-fine');
    await flushPromises();
    expect(lastQuery(fake.calls)).toMatchObject({ experiment: 'pchase-fine' });
  });

  it('renames in place, selects for comparison and reports', async () => {
    const fake = fakeLab(many());
    const w = await mountView(RunsView, fake.lab, '/runs');
    const first = uuid(120);
    const row = w.get(`[data-testid="run-row-${first}"]`);
    await row.get('[data-testid="rename"]').trigger('click');
    const title = row.get('[data-testid="title-input"]');
    await title.setValue('Fermi L1 sweep');
    await title.trigger('keydown', { key: 'Enter' });
    await flushPromises();
    expect(fake.calls.update).toHaveBeenCalledWith({ id: first, title: 'Fermi L1 sweep' });
    expect(w.get(`[data-testid="run-row-${first}"] .open`).text()).toBe('Fermi L1 sweep');

    // Escape leaves the title as it was.
    await w.get(`[data-testid="run-row-${uuid(119)}"] [data-testid="rename"]`).trigger('click');
    await w.get('[data-testid="title-input"]').setValue('nope');
    await w.get('[data-testid="title-input"]').trigger('keydown', { key: 'Escape' });
    expect(fake.calls.update).toHaveBeenCalledTimes(1);

    // Select one, then shift-click a range.
    await w.get(`[data-testid="select-${uuid(120)}"]`).trigger('click');
    await w.get(`[data-testid="select-${uuid(117)}"]`).trigger('click', { shiftKey: true });
    expect(w.get('[data-testid="selection-bar"]').text()).toContain('4 selected');
    await w.get('[data-testid="compare-selected"]').trigger('click');
    await flushPromises();
    expect(router.currentRoute.value.path).toBe('/compare');
    expect(router.currentRoute.value.query.runs).toBe([120, 119, 118, 117].map(uuid).join(','));
    await w.get('[data-testid="report-selected"]').trigger('click');
    await flushPromises();
    expect(router.currentRoute.value.path).toBe('/reports');
  });

  it('edits tags and notes in a dialog', async () => {
    const fake = fakeLab(many());
    const w = await mountView(RunsView, fake.lab, '/runs');
    await w.get(`[data-testid="edit-${uuid(120)}"]`).trigger('click');
    await w.get('[data-testid="edit-tags"]').setValue('lab-3, fermi ,lab-3');
    await w.get('[data-testid="edit-notes"]').setValue('L1 is 16 KB here.');
    await w.get('[data-testid="edit-save"]').trigger('click');
    await flushPromises();
    expect(fake.calls.update).toHaveBeenCalledWith({ id: uuid(120), tags: ['lab-3', 'fermi'], notes: 'L1 is 16 KB here.' });
    expect(w.find('[data-testid="edit-dialog"]').exists()).toBe(false);
  });

  it('deletes only after confirmation; Escape closes the dialog', async () => {
    const fake = fakeLab(many());
    const w = await mountView(RunsView, fake.lab, '/runs');
    await w.get(`[data-testid="select-${uuid(120)}"]`).trigger('click');
    await w.get(`[data-testid="select-${uuid(119)}"]`).trigger('click');
    await w.get('[data-testid="delete-selected"]').trigger('click');
    const dialog = w.get('[data-testid="delete-dialog"]');
    expect(dialog.text()).toContain('Delete 2 runs');
    await nextTick();
    expect(document.activeElement).toBe(w.get('[data-testid="delete-cancel"]').element);
    await dialog.trigger('keydown', { key: 'Escape' });
    expect(w.find('[data-testid="delete-dialog"]').exists()).toBe(false);
    expect(fake.calls.delete).not.toHaveBeenCalled();

    await w.get('[data-testid="delete-selected"]').trigger('click');
    await w.get('[data-testid="delete-confirm"]').trigger('click');
    await flushPromises();
    expect(fake.calls.delete).toHaveBeenCalledWith({ ids: [uuid(120), uuid(119)] });
    expect(w.find('[data-testid="delete-dialog"]').exists()).toBe(false);
    expect(w.get('[data-testid="page-range"]').text()).toBe('1–50 of 118');
    expect(rowTitles(w)[0]).toBe('Run 0118');
    expect(w.get('[data-testid="selection-bar"]').text()).toContain('0 selected');
  });

  it('keeps queued and running runs out of a delete', async () => {
    const runs = [run(1), run(2, { status: 'running', finishedAt: null, durationMs: null })];
    const fake = fakeLab(runs);
    const w = await mountView(RunsView, fake.lab, '/runs');
    await w.get('[data-testid="select-page"]').setValue(true);
    await w.get('[data-testid="delete-selected"]').trigger('click');
    expect(w.get('[data-testid="delete-dialog"]').text()).toContain('1 selected run is still queued or running');
    await w.get('[data-testid="delete-confirm"]').trigger('click');
    await flushPromises();
    expect(fake.calls.delete).toHaveBeenCalledWith({ ids: [uuid(1)] });
  });

  it('refreshes when a run finishes, and shows the empty state', async () => {
    const runs: RunSummary[] = [];
    const fake = fakeLab(runs);
    const w = await mountView(RunsView, fake.lab, '/runs');
    expect(w.get('[data-testid="runs-empty"]').text()).toContain('No runs yet');
    runs.push(run(5, { status: 'done' as RunStatus }));
    const queue = useQueue();
    fake.emit('run.finished', { runId: uuid(5), status: 'done', error: null });
    expect(queue.generation).toBe(1);
    await flushPromises();
    expect(rowTitles(w)).toEqual(['Run 0005']);
  });

  it("groups a sweep's runs under one row that a button expands", async () => {
    const sweepId = '3b241101-e2bb-4255-8caf-4136c566a962';
    const sweep = sweepOf(sweepId, 'stride sweep', { points: 4, pending: 1, done: 2, failed: 1 });
    // Titles as a sweep names its runs ("<sweep> · <preset> · <point>"), one renamed.
    const inSweep = [1, 2, 3].map((n) =>
      run(200 + n, { title: n === 2 ? 'stride point 2' : `stride sweep · ${n % 2 ? 'fermi' : 'kepler'} · stride=${n}`, experiment: 'pchase-fine', sweepId, sweepPoint: n - 1, status: n === 3 ? 'failed' : 'done' }),
    );
    const fake = fakeLab([...Array.from({ length: 5 }, (_, i) => run(i + 1)), ...inSweep], [sweep]);
    const w = await mountView(RunsView, fake.lab, '/runs');
    // The pages list the runs of no sweep; the sweep is one row with its progress, collapsed.
    expect(lastQuery(fake.calls)).toEqual({ sort: 'created', order: 'desc', limit: 50, offset: 0, sweep: 'none' });
    expect(rowTitles(w)).toEqual(['Run 0005', 'Run 0004', 'Run 0003', 'Run 0002', 'Run 0001']);
    expect(w.get('[data-testid="runs-total"]').text()).toBe('8 runs');
    const head = w.get(`[data-testid="sweep-row-${sweepId}"]`);
    expect(head.text()).toContain('stride sweep');
    expect(head.text()).toContain('3 runs');
    expect(head.text()).toContain('3/4');
    expect(head.get(`[data-testid="sweep-progress-${sweepId}"]`).attributes('aria-label')).toBe('stride sweep: 2 done, 1 failed, 1 not run of 4 points');
    expect(head.get(`[data-testid="runs-sweep-${sweepId}"]`).attributes('href')).toBe(`/sweeps/${sweepId}`);
    const toggle = head.get(`[data-testid="sweep-toggle-${sweepId}"]`);
    expect(toggle.element.tagName).toBe('BUTTON');
    expect(toggle.attributes('aria-expanded')).toBe('false');

    // Expanded: its runs under it (the library's sort), selectable like any run.
    await toggle.trigger('click');
    await flushPromises();
    expect(lastQuery(fake.calls)).toEqual({ sort: 'created', order: 'desc', limit: 200, offset: 0, sweep: sweepId });
    expect(toggle.attributes('aria-expanded')).toBe('true');
    // Their titles leave out the sweep's name and the preset (the row and the GPU column say them).
    const under = w.findAll(`tr[data-sweep="${sweepId}"]`);
    expect(under.map((r) => r.get('.open').text())).toEqual(['stride=3', 'stride point 2', 'stride=1']);
    expect(under[0]!.get('.open').attributes('title')).toBe('stride sweep · fermi · stride=3');
    expect(rowTitles(w).slice(0, 4)).toEqual(['stride=3', 'stride point 2', 'stride=1', 'Run 0005']);
    await w.get(`[data-testid="select-${inSweep[0]!.id}"]`).trigger('click');
    expect(w.get('[data-testid="selection-bar"]').text()).toContain('1 selected');

    // Filters apply to the sweep's runs and to its count; a sweep without a matching run is not shown.
    await w.get('[data-testid="filter-status"]').setValue('failed');
    await flushPromises();
    expect(w.findAll(`tr[data-sweep="${sweepId}"]`).map((r) => r.get('.open').text())).toEqual(['stride=3']);
    expect(w.get(`[data-testid="sweep-row-${sweepId}"]`).text()).toContain('1 run');
    expect(w.get('[data-testid="runs-total"]').text()).toBe('1 run match');
    await w.get('[data-testid="filter-status"]').setValue('queued');
    await flushPromises();
    expect(w.find(`[data-testid="sweep-row-${sweepId}"]`).exists()).toBe(false);
    expect(w.get('[data-testid="runs-empty"]').text()).toBe('No runs match these filters.');
    await w.get('[data-testid="filter-status"]').setValue('');
    await flushPromises();

    // Collapsed again by the keyboard (a button: Enter and Space click it).
    const again = w.get(`[data-testid="sweep-toggle-${sweepId}"]`);
    expect(again.attributes('aria-expanded')).toBe('true');
    await again.trigger('click');
    await flushPromises();
    expect(again.attributes('aria-expanded')).toBe('false');
    expect(w.findAll(`tr[data-sweep="${sweepId}"]`)).toHaveLength(0);
  });

  it("selects a whole sweep from its row's checkbox, runs not listed under it included", async () => {
    const sweepId = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
    const sweep = sweepOf(sweepId, 'big sweep', { points: 1003, done: 1003 });
    // More runs than one runs.list page (500) and than the rows under the sweep (200).
    const inSweep = Array.from({ length: 1003 }, (_, i) => run(1000 + i, { title: `big sweep · fermi · stride=${i}`, sweepId, sweepPoint: i }));
    const fake = fakeLab([...Array.from({ length: 5 }, (_, i) => run(i + 1)), ...inSweep], [sweep]);
    const w = await mountView(RunsView, fake.lab, '/runs');
    const box = () => w.get(`[data-testid="select-sweep-${sweepId}"]`);
    const el = () => box().element as HTMLInputElement;
    const selectedText = () => w.get('[data-testid="selection-bar"]').text();
    expect(box().attributes('aria-label')).toBe('Select the runs of sweep big sweep');
    expect([el().checked, el().indeterminate]).toEqual([false, false]);

    // One run picked under the expanded sweep: some of its runs are selected.
    await w.get(`[data-testid="sweep-toggle-${sweepId}"]`).trigger('click');
    await flushPromises();
    expect(w.findAll(`tr[data-sweep="${sweepId}"][data-testid^="run-row-"]`)).toHaveLength(200);
    await w.get(`[data-testid="select-${inSweep[1002]!.id}"]`).trigger('click');
    expect(selectedText()).toContain('1 selected');
    expect([el().checked, el().indeterminate]).toEqual([false, true]);

    // The sweep's box selects all of its runs, read a page of 500 at a time.
    fake.calls.list.mockClear();
    await box().trigger('change');
    await flushPromises();
    expect(fake.calls.list.mock.calls.map((c) => c[0])).toEqual([0, 500, 1000].map((offset) => ({ sort: 'created', order: 'desc', limit: 500, offset, sweep: sweepId })));
    expect(selectedText()).toContain('1003 selected');
    expect([el().checked, el().indeterminate]).toEqual([true, false]);
    // A comparison holds at most 64 runs (the report takes the first 64, as it says there).
    expect(w.get('[data-testid="compare-selected"]').attributes('disabled')).toBeDefined();
    expect(w.get('[data-testid="compare-selected"]').attributes('title')).toBe('A comparison holds at most 64 runs; 1003 are selected');
    expect(w.get('[data-testid="report-selected"]').attributes('disabled')).toBeUndefined();

    // One run left out: indeterminate again; a click selects them all once more.
    await w.get(`[data-testid="select-${inSweep[1000]!.id}"]`).trigger('click');
    expect(selectedText()).toContain('1002 selected');
    expect([el().checked, el().indeterminate]).toEqual([false, true]);
    await box().trigger('change');
    await flushPromises();
    expect(selectedText()).toContain('1003 selected');
    expect([el().checked, el().indeterminate]).toEqual([true, false]);

    // Checked: a click clears the sweep's runs (nothing to read) and leaves the others selected.
    (w.get('[data-testid="select-page"]').element as HTMLInputElement).checked = true;
    await w.get('[data-testid="select-page"]').trigger('change');
    expect(selectedText()).toContain('1008 selected');
    fake.calls.list.mockClear();
    await box().trigger('change');
    await flushPromises();
    expect(fake.calls.list).not.toHaveBeenCalled();
    expect(selectedText()).toContain('5 selected');
    expect([el().checked, el().indeterminate]).toEqual([false, false]);
    // The header's box is the page's runs outside sweeps: the sweep's box stays clear.
    expect((w.get('[data-testid="select-page"]').element as HTMLInputElement).checked).toBe(true);

    // A whole sweep deleted: in parts of 1000 runs (runs.delete's limit).
    (w.get('[data-testid="select-page"]').element as HTMLInputElement).checked = false;
    await w.get('[data-testid="select-page"]').trigger('change');
    expect(selectedText()).toContain('0 selected');
    await box().trigger('change');
    await flushPromises();
    await w.get('[data-testid="delete-selected"]').trigger('click');
    await w.get('[data-testid="delete-confirm"]').trigger('click');
    await flushPromises();
    expect(fake.calls.delete.mock.calls.map((c) => (c[0] as { ids: string[] }).ids.length)).toEqual([1000, 3]);
    expect(w.get(`[data-testid="sweep-row-${sweepId}"]`).text()).toContain('0 runs');
    expect(el().disabled).toBe(true);
  });
});
