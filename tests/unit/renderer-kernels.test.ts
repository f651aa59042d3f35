// @vitest-environment happy-dom
/**
 * The kernel editor (views/KernelView.vue, components/KernelEditor.vue), the per-warp timeline
 * (components/KernelTimeline.vue, composables/kernels.ts) and the run view's timeline for SIMT runs,
 * against real simt-kernel and simt-sync results computed in this process and a fake LabApi.
 */
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defineComponent } from 'vue';
import { createMemoryHistory, createRouter } from 'vue-router';
import type { ExperimentInfo, LabApi, LabEvents, PresetSummary, RunDetail, StoredResult } from '../../src-main/contract';
import { setLab } from '../../src-renderer/src/api';
import KernelEditor from '../../src-renderer/src/components/KernelEditor.vue';
import KernelTimeline from '../../src-renderer/src/components/KernelTimeline.vue';
import { kernelDraft, resetKernelDraft } from '../../src-renderer/src/composables/kerneldraft';
import { useNotify } from '../../src-renderer/src/stores/notify';
import { buildTimeline, checkKernel, checkLaunch, errorPosition, kernelTitle, simtTimelines, timelineOption, type KernelTimeline as Timeline } from '../../src-renderer/src/composables/kernels';
import KernelView from '../../src-renderer/src/views/KernelView.vue';
import RunView from '../../src-renderer/src/views/RunView.vue';
import { findExperiment } from '../../src-sim/experiments';
import type { ExperimentResult, ParamValues } from '../../src-sim/experiments/types';
import { EDITOR_EXAMPLES, TEACHING_EXAMPLES } from '../../src-sim/simt/editor-examples';
import { LISTING4, LISTING6, SIMT_EXAMPLES } from '../../src-sim/simt/examples';
import { runSource } from '../../src-sim/simt/executor';
import { simtTiming } from '../../src-sim/simt/timing';
import { tesla } from '../../src-sim/presets/tesla';

const THEME = { fg: '#000', muted: '#666', border: '#ccc', panel: '#fff' };

function simtResult(experiment: string, params: ParamValues): ExperimentResult {
  const e = findExperiment(experiment)!;
  return e.run(tesla, params, 1, () => {}) as ExperimentResult;
}
const kernelResult = (source: string, threads: number, blocks = 1) => simtResult('simt-kernel', { example: 'custom', source, threads, blocks });
const timelineOf = (source: string, threads: number, blocks = 1): Timeline => {
  const t = simtTimelines(kernelResult(source, threads, blocks));
  expect(t).toHaveLength(1);
  return t[0]!;
};

describe('checking the text before a run', () => {
  it('accepts every example, and names line:column of a syntax or compile error', () => {
    for (const e of EDITOR_EXAMPLES) expect(checkKernel(e.source), e.id).toBeNull();
    const bad = checkKernel('int x = 1;\nx = x +;\n');
    expect(bad).toMatchObject({ line: 2, col: 8 });
    expect(bad!.text).toMatch(/^2:8: /);
    const undeclared = checkKernel('int x = 1;\n\ny = 2;\n');
    expect(undeclared?.line).toBe(3);
    expect(checkKernel('x'.repeat(16_001))?.text).toMatch(/16001 characters; at most 16000/);
  });

  it('finds line:column in a failed run\'s message and checks the launch ranges', () => {
    expect(errorPosition('runs.start: parameter "source" at 2:9: s[16] is outside the array (0 to 15)')).toEqual({ line: 2, col: 9 });
    expect(errorPosition('2:9: expected')).toEqual({ line: 2, col: 9 });
    expect(errorPosition('the worker stopped')).toBeNull();
    expect(checkLaunch({ blocks: 1, threads: 64, steps: 200000 })).toEqual({});
    expect(checkLaunch({ blocks: '0', threads: '1025', steps: 'x' })).toEqual({ blocks: '1 to 64', threads: '1 to 1,024', steps: 'a whole number' });
  });
});

describe('the teaching kernels behave as their menu says', () => {
  const run = (id: string) => {
    const ex = TEACHING_EXAMPLES.find((e) => e.id === id)!;
    return runSource(ex.source, simtTiming(tesla), { blocks: ex.blocks, threadsPerBlock: ex.threadsPerBlock, stepBudget: 100_000 });
  };
  it('nested: the taken paths first (16-31, then 8-15, then 0-7)', () => {
    const r = run('nested');
    expect(r.status).toBe('finished');
    const starts = r.events.filter((e) => e.kind === 'path-start').slice(1).map((e) => e.mask >>> 0);
    expect(starts).toEqual([0xffff0000, 0x0000ffff, 0x0000ff00, 0x000000ff]);
  });
  it('loop: the body runs for fewer lanes each time round', () => {
    const r = run('loop');
    const counts = r.events.filter((e) => e.kind === 'path-start').slice(1).map((e) => e.mask.toString(2).split('1').length - 1);
    expect(counts).toEqual([24, 16, 8]);
  });
  it('skipped barrier: warp 0 is released when warp 1 exits, no deadlock', () => {
    const r = run('skipped-barrier');
    expect(r.status).toBe('finished');
    const exit1 = r.events.find((e) => e.kind === 'exit' && e.warp === 1)!;
    const release = r.events.find((e) => e.kind === 'barrier-release' && e.warp === 0)!;
    expect(release.cycle).toBe(exit1.cycle);
  });
});

describe('the per-warp timeline from a run\'s tables', () => {
  it('first kernel: odd lanes run before even lanes in each warp, then a barrier and an exit per warp', () => {
    const tl = timelineOf(SIMT_EXAMPLES[0]!.source, 64);
    expect(tl.rows.map((r) => r.label)).toEqual(['warp 0', 'warp 1']);
    expect(tl.deadlock).toBe(false);
    expect(tl.stuck).toEqual([]);
    const w0 = tl.segments.filter((s) => s.row === 0 && s.kind === 'path');
    const odd = w0.find((s) => s.threads.startsWith('1, 3, 5'))!;
    const even = w0.find((s) => s.threads.startsWith('0, 2, 4'))!;
    expect(odd.from).toBeLessThan(even.from);
    expect(odd.to).toBeLessThanOrEqual(even.from);
    // A colour per place and width: warp 1's paths share warp 0's.
    expect(tl.paths.map((p) => p.label)).toEqual(['path from 5:1, 32 threads', 'path from 9:3, 16 threads', 'path from 7:3, 16 threads', 'reconverged at 11:1, 32 threads']);
    expect(timelineOf(LISTING4, 32).paths.map((p) => p.label)).toEqual(['path from 5:1, 32 threads', 'path from 5:1, 31 threads']);
    for (const row of [0, 1]) {
      expect(tl.marks.filter((m) => m.row === row && m.kind === 'barrier-wait')).toHaveLength(1);
      expect(tl.marks.filter((m) => m.row === row && m.kind === 'barrier-release')).toHaveLength(1);
      expect(tl.marks.filter((m) => m.row === row && m.kind === 'exit')).toHaveLength(1);
    }
    // The first warp to arrive waits (a grey segment) until the other arrives; both are released together.
    const releases = tl.marks.filter((m) => m.kind === 'barrier-release').map((m) => m.cycle);
    expect(new Set(releases).size).toBe(1);
    const wait = tl.segments.find((s) => s.kind === 'wait')!;
    expect(wait.to).toBe(releases[0]);
    expect(wait.barrier).toBe('[1]');
    // Segments never overlap within a warp.
    for (const row of [0, 1]) {
      const segs = tl.segments.filter((s) => s.row === row).sort((a, b) => a.from - b.from);
      for (let i = 1; i < segs.length; i++) expect(segs[i]!.from).toBeGreaterThanOrEqual(segs[i - 1]!.to);
    }
  });

  it("the exit mark takes the theme's text colour, so that it shows on a dark chart", () => {
    const tl = timelineOf('int x = 1;', 64);
    const exits = (theme: typeof THEME) => ((timelineOption(tl, theme).series as { name?: string; itemStyle?: { color?: string } }[]).find((x) => x.name === 'exit')?.itemStyle?.color);
    expect(exits(THEME)).toBe(THEME.fg);
    const dark = { ...THEME, fg: '#e8e8e8', panel: '#1e1e1e' };
    expect(exits(dark)).toBe('#e8e8e8');
  });

  it('titles a kernel run by its kernel and launch, not one title for all', () => {
    expect(kernelTitle('// sum of the block\nint s = 0;', 2, 64)).toBe('Kernel: sum of the block (2 × 64 threads)');
    expect(kernelTitle('\n  if (tid < 8) { while (1) { acc = acc + 1; } }', 1, 32)).toBe('Kernel: if (tid < 8) { while (1) { acc = acc + 1; } } (1 × 32 threads)');
    expect(kernelTitle('x'.repeat(100), 1, 32)).toBe(`Kernel: ${'x'.repeat(57)}... (1 × 32 threads)`);
    const ex = EDITOR_EXAMPLES[0]!;
    expect(kernelTitle(ex.source, 1, 64, ex)).toBe(`Kernel: ${ex.title} (1 × 64 threads)`);
    // An example the user edited is the user's kernel.
    expect(kernelTitle(`${ex.source}\n`, 1, 64, ex)).not.toContain(ex.title);
  });

  it('a run the step budget stops: the axis runs to the cycle it stopped at, marked there (not at the last path start)', async () => {
    // The endless branch of a divergent warp: path events stop early, the loop runs on to the budget.
    const result = simtResult('simt-kernel', { example: 'custom', source: 'int acc = 0;\nif (tid < 8) { while (1) { acc = acc + 1; } }', threads: 32, blocks: 1, steps: 20000 });
    const cycles = result.findings.find((f) => f.key.endsWith('.cycles'))!.value as number;
    const tl = simtTimelines(result)[0]!;
    expect(tl.deadlock).toBe(false);
    expect(cycles).toBeGreaterThan(1000);
    expect(tl.end).toBe(cycles);
    const stopped = tl.marks.filter((m) => m.kind === 'stopped');
    expect(stopped.map((m) => m.cycle)).toEqual([cycles]);
    // The spinning path's bar runs to the stop.
    expect(tl.segments.some((seg) => seg.stuck && seg.to === cycles)).toBe(true);
    const w = mount(KernelTimeline, { props: { timeline: tl } });
    expect(w.get('[data-testid="kernel-unfinished"]').text()).toContain(`Stopped by the step budget at cycle ${cycles.toLocaleString('en-US')}`);
    expect(w.text()).toContain('where the step budget stopped it');
  });

  it('Listing 6: deadlock, warp 0 waiting at barrier [1] and warp 1 spinning, both marked', () => {
    const tl = timelineOf(LISTING6, 64);
    expect(tl.deadlock).toBe(true);
    expect(tl.stuck.map((r) => `${r.label} ${r.end}`)).toEqual(['warp 0 waits at barrier [1] (5:3)', 'warp 1 spins in the loop at 9:3']);
    expect(tl.marks.filter((m) => m.kind === 'deadlock').map((m) => m.row)).toEqual([0, 1]);
    const stuck = tl.segments.filter((s) => s.stuck).sort((a, b) => a.row - b.row);
    expect(stuck.map((s) => [s.row, s.kind])).toEqual([
      [0, 'wait'],
      [1, 'path'],
    ]);
    for (const s of stuck) expect(s.to).toBe(tl.end);
  });

  it('Listing 4: one warp, deadlocked spinning in the loop', () => {
    const tl = timelineOf(LISTING4, 32);
    expect(tl.deadlock).toBe(true);
    expect(tl.stuck.map((r) => r.end)).toEqual(['spins in the loop at 5:1']);
  });

  it('simt-sync: one timeline per listing, titled', () => {
    const tls = simtTimelines(simtResult('simt-sync', {}));
    expect(tls.map((t) => t.title)).toEqual(['Listing 4', 'Listing 5', 'Listing 6', 'Listing 7']);
    expect(tls.map((t) => t.deadlock)).toEqual([true, false, true, false]);
    // Listing 7: warp 0's two halves each wait at their own barrier ([2] first, the taken path).
    const w0 = tls[3]!.marks.filter((m) => m.row === 0 && m.kind === 'barrier-wait').map((m) => m.barrier);
    expect(w0).toEqual(['[2]', '[1]']);
  });

  it('several blocks: rows named by block and warp; without an end-state table, rows come from the events', () => {
    const tl = timelineOf(SIMT_EXAMPLES[0]!.source, 64, 2);
    expect(tl.rows.map((r) => r.label)).toEqual(['block 0 warp 0', 'block 0 warp 1', 'block 1 warp 0', 'block 1 warp 1']);
    const r = kernelResult(SIMT_EXAMPLES[0]!.source, 64);
    const bare = buildTimeline(r.tables.find((t) => t.name === 'Timeline events')!, null);
    expect(bare.rows.map((x) => x.label)).toEqual(['warp 0', 'warp 1']);
    expect(bare.stuck).toEqual([]);
  });

  it('the chart: a row per warp, bars for segments, marks by kind, waiting warps in red', () => {
    const tl = timelineOf(LISTING6, 64);
    const opt = timelineOption(tl, THEME) as { yAxis: { data: string[]; axisLabel: { formatter: (v: string) => string } }; series: { type: string; name: string; data: unknown[] }[] };
    expect(opt.yAxis.data).toEqual(['warp 0', 'warp 1']);
    expect(opt.yAxis.axisLabel.formatter('warp 0')).toBe('{stuck|warp 0}');
    const byName = Object.fromEntries(opt.series.map((s) => [s.name, s]));
    expect(byName.paths!.type).toBe('custom');
    expect(byName.paths!.data).toHaveLength(tl.segments.length);
    expect(byName.deadlock!.data).toHaveLength(2);
    expect(byName['barrier wait']!.data).toHaveLength(1);
    expect(byName['barrier release']).toBeUndefined();
  });

  it('the component names the waiting warps and lists the paths', () => {
    const w = mount(KernelTimeline, { props: { timeline: timelineOf(LISTING6, 64) } });
    expect(w.get('[data-testid="kernel-deadlock"]').text()).toContain('warp 0 waits at barrier [1] (5:3)');
    expect(w.get('[data-testid="kernel-deadlock"]').text()).toContain('warp 1 spins in the loop at 9:3');
    expect(w.get('[data-testid="kernel-paths"]').text()).toContain('path from 3:1');
    w.unmount();
    const ok = mount(KernelTimeline, { props: { timeline: timelineOf(SIMT_EXAMPLES[0]!.source, 64) } });
    expect(ok.find('[data-testid="kernel-deadlock"]').exists()).toBe(false);
    ok.unmount();
  });
});

describe('the code editor', () => {
  it('numbers the lines, marks the error line, inserts spaces on Tab and runs on Ctrl+Enter', async () => {
    const w = mount(KernelEditor, { props: { modelValue: 'int x = 1;\nx++;\nx--;', errorLine: 2 }, attachTo: document.body });
    expect(w.findAll('.num').map((n) => n.text())).toEqual(['1', '2', '3']);
    expect(w.get('[data-testid="kernel-error-line"]').text()).toBe('2');
    const area = w.get('textarea');
    const el = area.element as HTMLTextAreaElement;
    el.setSelectionRange(0, 0);
    await area.trigger('keydown', { key: 'Tab' });
    expect(w.emitted('update:modelValue')?.at(-1)).toEqual(['  int x = 1;\nx++;\nx--;']);
    await area.trigger('keydown', { key: 'Enter', ctrlKey: true });
    expect(w.emitted('run')).toHaveLength(1);
    // After Escape, Tab is left to the browser (focus moves on): nothing inserted.
    const before = w.emitted('update:modelValue')!.length;
    await area.trigger('keydown', { key: 'Escape' });
    await area.trigger('keydown', { key: 'Tab' });
    expect(w.emitted('update:modelValue')!.length).toBe(before);
    await w.setProps({ errorLine: null });
    expect(w.find('[data-testid="kernel-error-line"]').exists()).toBe(false);
    w.unmount();
  });
});

// ---- the view against a fake lab -----------------------------------------------------------------

const RUN_ID = '00000000-0000-4000-8000-000000000077';
const PRESETS: PresetSummary[] = [
  { id: 'fermi', name: 'Fermi', device: 'GTX 560 Ti', generation: 'Fermi', builtin: true, updatedAt: null },
  { id: 'tesla', name: 'Tesla', device: 'GTX 280', generation: 'Tesla', builtin: true, updatedAt: null },
];

function detail(over: Partial<RunDetail>): RunDetail {
  return {
    id: RUN_ID,
    experiment: 'simt-kernel',
    title: '',
    presetId: 'tesla',
    presetName: 'Tesla',
    seed: 1,
    simVersion: '1',
    status: 'done',
    error: null,
    createdAt: 0,
    startedAt: 0,
    finishedAt: 1,
    durationMs: 1,
    tags: [],
    notes: '',
    preset: tesla,
    params: {},
    result: null,
    ...over,
  };
}

function stored(r: ExperimentResult): StoredResult {
  return { ...r, series: r.series.map((s) => ({ ...s, x: Float64Array.from(s.x), y: Float64Array.from(s.y) })) } as StoredResult;
}

function fakeLab(answer: () => RunDetail) {
  const listeners: { [E in keyof LabEvents]?: ((p: LabEvents[E]) => void)[] } = {};
  const start = vi.fn(async () => ({ runId: RUN_ID }));
  const get = vi.fn(async () => answer());
  const lab = {
    runs: { start, get, list: vi.fn(async () => ({ total: 0, items: [] })) },
    presets: { list: vi.fn(async () => PRESETS) },
    experiments: { list: vi.fn(async (): Promise<ExperimentInfo[]> => []) },
    reproduce: { references: vi.fn(async () => ({ runId: RUN_ID, references: [] })) },
    on<E extends keyof LabEvents>(e: E, fn: (p: LabEvents[E]) => void) {
      ((listeners[e] ??= []) as ((p: LabEvents[E]) => void)[]).push(fn);
      return () => {};
    },
  } as unknown as LabApi;
  const emit = <E extends keyof LabEvents>(e: E, p: LabEvents[E]) => (listeners[e] as ((p: LabEvents[E]) => void)[] | undefined)?.forEach((f) => f(p));
  return { lab, start, get, emit };
}

const Stub = defineComponent({ template: '<div>elsewhere</div>' });
let pinia: Pinia;
let wrapper: VueWrapper | null = null;

async function mountView(lab: LabApi, component: unknown = KernelView, path = '/kernels'): Promise<VueWrapper> {
  setLab(lab);
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/kernels', component: KernelView },
      { path: '/runs/:id', component: component === RunView ? RunView : Stub, props: true },
    ],
  });
  await router.push(path);
  await router.isReady();
  wrapper = mount(component === RunView ? { template: '<RouterView />' } : (component as never), { global: { plugins: [pinia, router] }, attachTo: document.body });
  await flushPromises();
  return wrapper;
}

beforeEach(() => {
  pinia = createPinia();
  setActivePinia(pinia);
  resetKernelDraft();
});
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
  setLab(null);
  vi.useRealTimers();
});

describe('the Kernels view', () => {
  it('shows a syntax error as line:column under the editor, marks the line and queues nothing', async () => {
    const fake = fakeLab(() => detail({}));
    const w = await mountView(fake.lab);
    await w.get('[data-testid="kernel-source"]').setValue('int x = 1;\nint y = ;\n');
    expect(w.get('[data-testid="kernel-problem"]').text()).toMatch(/^2:9: /);
    expect(w.get('[data-testid="kernel-error-line"]').text()).toBe('2');
    await w.get('[data-testid="kernel-run"]').trigger('click');
    await w.get('form').trigger('submit');
    await flushPromises();
    expect(fake.start).not.toHaveBeenCalled();
  });

  it('loads Listing 4 from the examples, runs it on Tesla and shows the deadlock with the waiting warp and the timeline', async () => {
    const result = stored(kernelResult(LISTING4, 32));
    let status: RunDetail['status'] = 'queued';
    const fake = fakeLab(() => detail(status === 'done' ? { status, result } : { status, result: null, finishedAt: null }));
    const w = await mountView(fake.lab);
    expect((w.get('[data-testid="kernel-preset"]').element as HTMLSelectElement).value).toBe('tesla');
    await w.get('[data-testid="kernel-example"]').setValue('listing4');
    expect(kernelDraft.source).toBe(LISTING4);
    expect((w.get('[data-testid="kernel-threads"]').element as HTMLInputElement).value).toBe('32');
    expect(w.get('[data-testid="kernel-expect"]').text()).toContain('deadlock');
    await w.get('form').trigger('submit');
    await flushPromises();
    expect(fake.start).toHaveBeenCalledWith(
      expect.objectContaining({ experiment: 'simt-kernel', preset: 'tesla', params: { example: 'custom', source: LISTING4, blocks: 1, threads: 32, steps: 200000 } }),
    );
    expect(w.get('[data-testid="kernel-run-status"]').text()).toBe('queued');
    status = 'done';
    fake.emit('run.finished', { runId: RUN_ID, status: 'done', error: null } as LabEvents['run.finished']);
    await flushPromises();
    expect(w.get('[data-testid="kernel-message"]').text()).toMatch(/^deadlock: .*warp 0 in the loop at 5:1/);
    expect(w.get('[data-testid="kernel-deadlock"]').text()).toContain('warp 0 spins in the loop at 5:1');
    expect(w.find('[data-testid="kernel-timeline-chart"]').exists()).toBe(true);
  });

  it('a user\'s own kernel that fails at run time: the message in words and its line marked', async () => {
    const source = '__shared__ int s[16];\ns[threadIdx.x] = 1;\n';
    const fake = fakeLab(() => detail({ status: 'failed', error: 'parameter "source" at 2:1: s[16] is outside the array (0 to 15) (thread 16 of block 0)' }));
    const w = await mountView(fake.lab);
    await w.get('[data-testid="kernel-source"]').setValue(source);
    expect(kernelDraft.example).toBe('own');
    expect(w.find('[data-testid="kernel-problem"]').exists()).toBe(false);
    await w.get('form').trigger('submit');
    await flushPromises();
    expect(w.get('[data-testid="kernel-run-error"]').text()).toContain('s[16] is outside the array');
    expect(w.get('[data-testid="kernel-error-line"]').text()).toBe('2');
    // Picking an example and then "Your kernel" brings the user's text back; the notice says so.
    await w.get('[data-testid="kernel-example"]').setValue('listing7');
    expect(kernelDraft.source).not.toBe(source);
    expect(useNotify().notices.at(-1)?.text).toMatch(/your kernel is kept: choose "Your kernel" under Examples to bring it back$/);
    const said = useNotify().notices.length;
    // From one example to another nothing of the user's is replaced: no notice.
    await w.get('[data-testid="kernel-example"]').setValue('listing4');
    expect(useNotify().notices).toHaveLength(said);
    await w.get('[data-testid="kernel-example"]').setValue('own');
    expect(kernelDraft.source).toBe(source);
  });
});

describe('the run view of SIMT runs', () => {
  it('draws a simt-sync run as four per-warp timelines, one deadlock box per deadlocked listing', async () => {
    const result = stored(simtResult('simt-sync', {}));
    const fake = fakeLab(() => detail({ experiment: 'simt-sync', result }));
    const w = await mountView(fake.lab, RunView, `/runs/${RUN_ID}`);
    const tls = w.findAll('[data-testid="kernel-timeline"]');
    expect(tls.map((t) => t.get('h3').text())).toEqual(['Listing 4', 'Listing 5', 'Listing 6', 'Listing 7']);
    expect(w.findAll('[data-testid="kernel-deadlock"]')).toHaveLength(2);
  });
});
