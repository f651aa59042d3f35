// @vitest-environment happy-dom
/** The builder's sweep section and the sweep view against a fake lab. */
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryHistory, createRouter } from 'vue-router';
import type { ExperimentInfo, LabApi } from '../../src-main/contract';
import type { SweepCollectResult, SweepDetail } from '../../src-main/sweep-contract';
import { setLab } from '../../src-renderer/src/api';
import BuilderSweep from '../../src-renderer/src/components/BuilderSweep.vue';
import SweepView from '../../src-renderer/src/views/SweepView.vue';
import type { PickedFile } from '../../src-renderer/src/composables/sweepcollect';
import { batches, collectFolder, CollectStopped, FolderProblem, sortFolder } from '../../src-renderer/src/composables/sweepcollect';
import { geometricRatio, lineOption } from '../../src-main/shared/sweepchart';

vi.mock('../../src-renderer/src/components/MChart.vue', () => ({ default: { props: ['option', 'label', 'testid', 'height'], template: '<div data-testid="chart" :data-kind="option.series[0].type"></div>' } }));

const EXP: ExperimentInfo = {
  id: 'pchase-fine',
  title: 'Fine',
  description: '',
  reproduces: [],
  params: [
    { name: 'stride', label: 'Stride', unit: 'B', kind: 'bytes', default: 32, min: 1, max: 1e9, description: '' },
    { name: 'iterations', label: 'Iterations', unit: '', kind: 'integer', default: 64, min: 1, max: 1e6, description: '' },
  ],
};

const DETAIL: SweepDetail = {
  id: '3b241101-e2bb-4255-8caf-4136c566a962',
  name: 'two axes',
  experiment: 'pchase-fine',
  presets: ['fermi'],
  axes: ['stride', 'iterations'],
  counts: { points: 4, pending: 0, queued: 0, running: 1, done: 3, failed: 0, cancelled: 0, interrupted: 0 },
  createdAt: 0,
  plan: { experiment: 'pchase-fine', presets: ['fermi'], params: {}, axes: [{ param: 'stride', values: [32, 64] }, { param: 'iterations', values: [8, 16] }], seed: 1 },
  metrics: [{ key: 'lat', label: 'Latency', unit: 'cycles' }],
  points: [
    [32, 8, 100],
    [32, 16, 110],
    [64, 8, 200],
    [64, 16, null],
  ].map(([s, it, v], index) => ({ index, preset: 'fermi', values: { stride: s!, iterations: it! }, seed: 1, status: v === null ? 'running' : 'done', runId: null, runs: 1, durationMs: 5, error: null, metrics: (v === null ? {} : { lat: v }) as Record<string, number> })),
};

const COLLECTED: SweepCollectResult = {
  sweepId: DETAIL.id,
  name: 'two axes',
  created: false,
  points: 4,
  bundles: 0,
  imported: 0,
  alreadyHere: 0,
  unreadable: [{ file: 'point-000002.gmlbundle', reason: 'run x is not point 2 of this sweep: its stride is 32, the point\'s 64 (a bundle of another sweep?)' }],
  done: 2,
  missing: [3],
  failed: [{ point: 1, status: 'failed', error: 'the simulation process ran out of memory' }],
  resubmit: { script: '#!/bin/bash\npart 0 \'1,3\' "$@"\n', sbatch: null, arrays: [{ offset: 0, array: '1,3' }], arrayMax: 1000 },
  resubmitError: null,
};
let collectFails = '';

/** A chosen file as a folder input gives it: its path under the chosen folder. */
function picked(path: string, content: string | Uint8Array = 'x'): PickedFile {
  const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
  return { path, file: { name: path.split('/').pop()!, size: bytes.byteLength, text: async () => new TextDecoder().decode(bytes), arrayBuffer: async () => bytes.slice().buffer } };
}

let calls: { name: string; args: unknown }[];
function fakeLab(): LabApi {
  const call = (name: string, result: unknown) => async (args: unknown) => (calls.push({ name, args }), result);
  return {
    sweeps: {
      check: call('check', { ok: true, points: 4, estimate: 100, seconds: 120, longestSeconds: 30 }),
      start: call('start', { sweepId: DETAIL.id, queued: 4, skipped: 0, resumed: false }),
      get: call('get', DETAIL),
      cancel: call('cancel', { cancelled: 1 }),
      csv: call('csv', { fileName: 'x.csv', mimeType: 'text/csv', bytes: new Uint8Array() }),
      pdf: call('pdf', { fileName: 'x.pdf', mimeType: 'application/pdf', bytes: new Uint8Array([37, 80, 68, 70]) }),
      collect: async (args: { bundles?: { name: string; bytes: Uint8Array }[] }) => {
        calls.push({ name: 'collect', args });
        if (collectFails) throw Object.assign(new Error(collectFails), { code: 'invalid-args' });
        const n = args.bundles?.length ?? 0;
        return { ...COLLECTED, bundles: n, imported: n - 1, alreadyHere: 1 };
      },
    },
    on: () => () => {},
  } as unknown as LabApi;
}

function router() {
  return createRouter({ history: createMemoryHistory(), routes: [{ path: '/', component: { template: '<div/>' } }, { path: '/sweeps/:id', component: { template: '<div/>' } }, { path: '/runs/:id', component: { template: '<div/>' } }] });
}

beforeEach(() => {
  setActivePinia(createPinia());
  calls = [];
  collectFails = '';
  setLab(fakeLab());
  vi.useFakeTimers({ shouldAdvanceTime: true });
});
afterEach(() => {
  setLab(null);
  vi.useRealTimers();
});

describe('the builder sweep section', () => {
  it('builds a plan from the axes, shows runs and time, and starts it', async () => {
    const r = router();
    const w = mount(BuilderSweep, { props: { experiment: EXP, presets: ['fermi'], params: { stride: 32, iterations: 64 }, seed: 3 }, global: { plugins: [r, createPinia()] } });
    await w.get('[data-testid="sweep-toggle"]').trigger('click');
    await w.get('[data-testid="sweep-add-axis"]').trigger('click');
    await w.get('[data-testid="sweep-axis-values"]').setValue('32..64 x2');
    await w.get('[data-testid="sweep-add-axis"]').trigger('click');
    const inputs = w.findAll('[data-testid="sweep-axis-values"]');
    await inputs[1]!.setValue('8, 16');
    await vi.advanceTimersByTimeAsync(300);
    await flushPromises();
    const check = calls.find((c) => c.name === 'check')!.args as { plan: { axes: unknown[]; params: Record<string, unknown>; seed: number } };
    expect(check.plan.axes).toEqual([{ param: 'stride', range: { from: 32, to: 64, times: 2 } }, { param: 'iterations', values: [8, 16] }]);
    expect(check.plan.params).toEqual({});
    expect(check.plan.seed).toBe(3);
    expect(w.get('[data-testid="sweep-estimate"]').text()).toBe('4 runs · about 2 min of simulation on this machine');
    await w.get('[data-testid="sweep-start"]').trigger('click');
    await flushPromises();
    expect(calls.some((c) => c.name === 'start')).toBe(true);
    expect(r.currentRoute.value.path).toBe(`/sweeps/${DETAIL.id}`);
  });
});

describe('the sweep view', () => {
  it('shows the progress, a row per point and a chart over one axis or two', async () => {
    const w = mount(SweepView, { props: { id: DETAIL.id }, global: { plugins: [router(), createPinia()] } });
    await flushPromises();
    expect(w.get('[data-testid="sweep-progress"]').text()).toContain('3 done');
    expect(w.findAll('tbody tr')).toHaveLength(4);
    expect(w.get('[data-testid="sweep-point-2"]').text()).toContain('200');
    expect(w.get('[data-testid="chart"]').attributes('data-kind')).toBe('line');
    await w.get('[data-testid="sweep-kind"]').setValue('heatmap');
    expect(w.get('[data-testid="chart"]').attributes('data-kind')).toBe('heatmap');
  });

  it('exports the PDF report with the chart as shown', async () => {
    const w = mount(SweepView, { props: { id: DETAIL.id }, global: { plugins: [router(), createPinia()] } });
    await flushPromises();
    await w.get('[data-testid="sweep-pdf"]').trigger('click');
    await flushPromises();
    expect(calls.filter((c) => c.name === 'pdf').at(-1)!.args).toEqual({ id: DETAIL.id, quantity: 'lat', x: 'stride', by: 'iterations', chart: 'lines' });
    await w.get('[data-testid="sweep-kind"]').setValue('heatmap');
    await w.get('[data-testid="sweep-x"]').setValue('iterations');
    await w.get('[data-testid="sweep-by"]').setValue('stride');
    await w.get('[data-testid="sweep-pdf"]').trigger('click');
    await flushPromises();
    expect(calls.filter((c) => c.name === 'pdf').at(-1)!.args).toEqual({ id: DETAIL.id, quantity: 'lat', x: 'iterations', by: 'stride', chart: 'heatmap' });
    // One line: no second axis, never a heatmap.
    await w.get('[data-testid="sweep-by"]').setValue('');
    await w.get('[data-testid="sweep-pdf"]').trigger('click');
    await flushPromises();
    expect(calls.filter((c) => c.name === 'pdf').at(-1)!.args).toEqual({ id: DETAIL.id, quantity: 'lat', x: 'iterations', by: null, chart: 'lines' });
  });
});

describe('the sweep chart', () => {
  const THEME = { fg: '#000', muted: '#666', border: '#ccc' };
  const over = (strides: number[]): SweepDetail => ({
    ...DETAIL,
    axes: ['stride'],
    points: strides.map((s, index) => ({ ...DETAIL.points[0]!, index, values: { stride: s }, metrics: { lat: 100 + index } })),
  });
  it('draws a geometric axis (a range with times) on a log scale of its ratio, any other on a linear one', () => {
    expect(geometricRatio([32, 64, 128, 256])).toBe(2);
    expect(geometricRatio([1, 10, 100])).toBe(10);
    expect(geometricRatio([32, 64, 96])).toBeNull();
    expect(geometricRatio([32, 64])).toBeNull();
    expect(geometricRatio([0, 1, 2])).toBeNull();
    expect(geometricRatio(['fermi', 'kepler', 'titan'])).toBeNull();
    const log = lineOption(over([32, 64, 128, 256, 512]), 'lat', 'stride', null, THEME) as { xAxis: { type: string; logBase?: number; min?: number; max?: number } };
    expect(log.xAxis).toMatchObject({ type: 'log', logBase: 2, min: 32, max: 512 });
    const lin = lineOption(over([32, 64, 96, 128]), 'lat', 'stride', null, THEME) as { xAxis: { type: string } };
    expect(lin.xAxis.type).toBe('value');
  });
});

describe("collecting a Slurm sweep's folder", () => {
  it('sorts a folder by role: plan.json, sweep.sbatch, presets/ and bundles/, or loose files', () => {
    const folder = sortFolder([
      picked('sweep-1/bundles/point-000001.gmlbundle'),
      picked('sweep-1/plan.json'),
      picked('sweep-1/sweep.sbatch'),
      picked('sweep-1/submit.sh'),
      picked('sweep-1/logs/1_0.out'),
      picked('sweep-1/bundles/point-000000.gmlbundle'),
      picked('sweep-1/bundles/.point-000002.gmlbundle.123.abc.tmp'),
      picked('sweep-1/presets/lab-fermi.json'),
    ]);
    expect(folder.root).toBe('sweep-1');
    expect(folder.plan.path).toBe('sweep-1/plan.json');
    expect(folder.sbatch?.path).toBe('sweep-1/sweep.sbatch');
    expect(folder.presets.map((p) => p.path)).toEqual(['sweep-1/presets/lab-fermi.json']);
    expect(folder.bundles.map((p) => p.path)).toEqual(['sweep-1/bundles/point-000000.gmlbundle', 'sweep-1/bundles/point-000001.gmlbundle']);
    const loose = sortFolder([picked('point-000003.gmlbundle'), picked('plan.json'), picked('lab-fermi.json')]);
    expect([loose.root, loose.sbatch, loose.presets.map((p) => p.path), loose.bundles.map((p) => p.path)]).toEqual(['', null, ['lab-fermi.json'], ['point-000003.gmlbundle']]);
    // The shallowest plan.json is the sweep's (a copy deeper down is not).
    expect(sortFolder([picked('s/old/plan.json'), picked('s/plan.json')]).root).toBe('s');
  });

  it('says what is wrong with a folder that is not a sweep', () => {
    const problem = (files: PickedFile[]) => {
      try {
        sortFolder(files);
      } catch (e) {
        expect(e).toBeInstanceOf(FolderProblem);
        return (e as Error).message;
      }
      throw new Error('accepted');
    };
    expect(problem([picked('bundles/point-000000.gmlbundle'), picked('bundles/point-000001.gmlbundle')])).toMatch(/2 bundles but no plan\.json: choose the sweep's folder .* not bundles\/ itself/);
    expect(problem([picked('x/notes.txt')])).toMatch(/no plan\.json: choose the folder that gpulab sweep --slurm wrote/);
    expect(problem([picked('all/a/plan.json'), picked('all/b/plan.json')])).toMatch(/holds 2 sweeps \(all\/a\/plan\.json, all\/b\/plan\.json\): choose one sweep's folder/);
  });

  it('sends the bundles in batches with the progress, the plan with each, the presets with the first and sweep.sbatch with the last', async () => {
    expect(batches([5, 5, 5, 20, 5].map((size) => ({ file: { size } })), 2, 12).map((b) => b.map((x) => x.file.size))).toEqual([[5, 5], [5], [20], [5]]);
    const files = [picked('s/plan.json', JSON.stringify({ id: DETAIL.id })), picked('s/sweep.sbatch', '#!/bin/bash'), picked('s/presets/p.json', '{}')];
    for (let i = 0; i < 5; i++) files.push(picked(`s/bundles/point-00000${i}.gmlbundle`, new Uint8Array([i])));
    const progress: [number, number][] = [];
    const lab = fakeLab();
    const r = await collectFolder(lab, sortFolder(files), { batch: { count: 2, bytes: 1024 }, onProgress: (a, b) => progress.push([a, b]) });
    const sent = calls.filter((c) => c.name === 'collect').map((c) => c.args as { plan: string; presets?: unknown[]; bundles: { name: string; bytes: Uint8Array }[]; resubmit?: { sbatch: string } });
    expect(sent.map((a) => a.bundles.map((b) => [b.name, Array.from(b.bytes)]))).toEqual([
      [['point-000000.gmlbundle', [0]], ['point-000001.gmlbundle', [1]]],
      [['point-000002.gmlbundle', [2]], ['point-000003.gmlbundle', [3]]],
      [['point-000004.gmlbundle', [4]]],
    ]);
    expect(sent.every((a) => a.plan === JSON.stringify({ id: DETAIL.id }))).toBe(true);
    expect(sent.map((a) => a.presets)).toEqual([[{ name: 'p.json', text: '{}' }], undefined, undefined]);
    expect(sent.map((a) => a.resubmit)).toEqual([undefined, undefined, { sbatch: '#!/bin/bash' }]);
    expect(progress).toEqual([
      [2, 5],
      [4, 5],
      [5, 5],
    ]);
    // The counts added up, the points as the last call saw them.
    expect(r).toMatchObject({ bundles: 5, imported: 2, alreadyHere: 3, missing: [3] });
    expect(r.unreadable).toHaveLength(3);
    // A call refused part-way: what the calls before collected, and how far it went.
    calls = [];
    let n = 0;
    const flaky = { sweeps: { collect: async (a: unknown) => (n++ === 1 ? Promise.reject(new Error('the lab server is not reachable')) : lab.sweeps.collect(a as never)) } } as unknown as LabApi;
    const stopped = await collectFolder(flaky, sortFolder(files), { batch: { count: 2, bytes: 1024 } }).catch((e: unknown) => e);
    expect(stopped).toBeInstanceOf(CollectStopped);
    expect((stopped as CollectStopped).message).toMatch(/^Stopped after 2 of 5 bundles: the lab server is not reachable\. The bundles before were collected/);
    expect((stopped as CollectStopped).partial).toMatchObject({ bundles: 2, imported: 1 });
    // Another sweep's folder, from that sweep's view: refused before anything is sent.
    calls = [];
    await expect(collectFolder(lab, sortFolder([picked('plan.json', '{"id":"other"}')]), { sweepId: DETAIL.id })).rejects.toThrow(/plan\.json is of another sweep \(other\), not of this one/);
    expect(calls).toEqual([]);
  });

  it("collects from the sweep view: the folder input, the result with the points missing and failed, the files refused, resubmit.sh to download", async () => {
    const created = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:x');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const w = mount(SweepView, { props: { id: DETAIL.id }, global: { plugins: [router(), createPinia()] }, attachTo: document.body });
    try {
      await flushPromises();
      await w.get('[data-testid="sweep-collect"]').trigger('click');
      await flushPromises();
      const dialog = w.get('[data-testid="collect-dialog"]');
      expect(dialog.attributes('role')).toBe('dialog');
      // The first button takes the focus; the inputs are reached through the buttons.
      expect(document.activeElement?.getAttribute('data-testid')).toBe('collect-choose-folder');
      const input = w.get('[data-testid="collect-folder"]');
      expect(input.attributes()).toHaveProperty('webkitdirectory');

      // A folder without plan.json: said, nothing sent.
      const choose = async (files: PickedFile[]) => {
        Object.defineProperty(input.element, 'files', { value: files.map((f) => Object.assign(f.file, { webkitRelativePath: f.path })), configurable: true });
        await input.trigger('change');
        await flushPromises();
      };
      await choose([picked('bundles/point-000000.gmlbundle')]);
      expect(w.get('[data-testid="collect-error"]').text()).toMatch(/no plan\.json/);
      expect(calls.some((c) => c.name === 'collect')).toBe(false);

      await choose([picked('s/plan.json', JSON.stringify({ id: DETAIL.id })), picked('s/sweep.sbatch', '#!/bin/bash'), picked('s/bundles/point-000000.gmlbundle'), picked('s/bundles/point-000002.gmlbundle')]);
      expect(w.find('[data-testid="collect-error"]').exists()).toBe(false);
      const result = w.get('[data-testid="collect-result"]');
      expect(w.get('[data-testid="collect-imported"]').text()).toBe('1 imported');
      expect(w.get('[data-testid="collect-counts"]').text()).toMatch(/2 read: 1 imported, 1 already here, 1 refused/);
      expect(w.get('[data-testid="collect-done"]').text()).toBe('2 of 4 done');
      expect(w.get('[data-testid="collect-missing"]').text()).toBe('1 (point 3)');
      expect(w.get('[data-testid="collect-failed-table"]').text()).toContain('the simulation process ran out of memory');
      expect(w.get('[data-testid="collect-refused"]').text()).toMatch(/point-000002\.gmlbundle: run x is not point 2 of this sweep/);
      expect(result.find('[data-testid="collect-open"]').exists()).toBe(false);
      await w.get('[data-testid="collect-resubmit"]').trigger('click');
      expect(created).toHaveBeenCalledTimes(1);
      const blob = created.mock.calls[0]![0] as Blob;
      expect(await blob.text()).toContain("part 0 '1,3'");

      // A refusal of the whole call (the plan): said in the dialog.
      collectFails = 'plan.json has no sweep id: it was not written by gpulab sweep --slurm';
      await choose([picked('s/plan.json', '{}')]);
      expect(w.get('[data-testid="collect-error"]').text()).toBe(collectFails);
      // Escape closes the dialog.
      await w.get('[data-testid="collect-dialog"]').trigger('keydown', { key: 'Escape' });
      expect(w.find('[data-testid="collect-dialog"]').exists()).toBe(false);
    } finally {
      w.unmount();
      vi.restoreAllMocks();
    }
  });
});
