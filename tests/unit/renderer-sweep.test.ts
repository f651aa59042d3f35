// @vitest-environment happy-dom
/** The builder's sweep section and the sweep view against a fake lab. */
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryHistory, createRouter } from 'vue-router';
import type { ExperimentInfo, LabApi } from '../../src-main/contract';
import type { SweepDetail } from '../../src-main/sweep-contract';
import { setLab } from '../../src-renderer/src/api';
import BuilderSweep from '../../src-renderer/src/components/BuilderSweep.vue';
import SweepView from '../../src-renderer/src/views/SweepView.vue';

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
