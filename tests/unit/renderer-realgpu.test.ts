// @vitest-environment happy-dom
/**
 * The Real GPU page (src-renderer/src/views/RealGpuView.vue) against a LabApi whose gpu calls do
 * the real work where it is pure (the generator's program and build line, the import's validation
 * and analysis of a fixture) and stand in for the store and the process: the parameter fields of
 * each emitted experiment, a refused parameter marked on its field, the download, the import by file
 * input and by drop opening the stored run, an import refused with its line, and the run here with
 * progress and cancel only where gpu.status says nvcc and a GPU exist.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryHistory, createRouter, type Router } from 'vue-router';
import type { Comparison, GpuJob, GpuStatus, LabApi, LabEvents } from '../../src-main/contract';
import { GPU_LIMITS, IMPORT_LIMIT_TEXT, importRefusal, importTooLarge, type GpuCharacterisationResult } from '../../src-main/gpu-contract';
import { GpuService } from '../../src-main/services/gpu';
import { setLab, useLab } from '../../src-renderer/src/api';
import { useNotify } from '../../src-renderer/src/stores/notify';
import RealGpuView from '../../src-renderer/src/views/RealGpuView.vue';
import { gpuParamSpecs, GPU_EXPERIMENTS } from '../../src-sim/cuda/params';
import { realRunRecord } from '../../src-sim/cuda/run-record';
import { findExperiment } from '../../src-sim/experiments';

const bank = findExperiment('shared-bank-stride')!;
const SIM_BANKS = { id: bank.id, title: bank.title, description: bank.description, reproduces: [...bank.reproduces], params: [...bank.params] };
import { REFUSALS } from './import-refusals';

const FIXTURES = resolve(__dirname, '../fixtures/real/h100');
const fixture = (name: string): string => readFileSync(join(FIXTURES, `${name}.jsonl`), 'utf8');
const RUN_ID = '11111111-2222-4333-8444-555555555555';

interface Fake {
  lab: LabApi;
  emit: ReturnType<typeof vi.fn>;
  importCall: ReturnType<typeof vi.fn>;
  run: ReturnType<typeof vi.fn>;
  cancel: ReturnType<typeof vi.fn>;
  fire<E extends keyof LabEvents>(e: E, p: LabEvents[E]): void;
}

function fakeLab(status: Partial<GpuStatus> = {}): Fake {
  const gpu = new GpuService({ store: null as never, progress: () => {} });
  const listeners: { [E in keyof LabEvents]?: ((p: LabEvents[E]) => void)[] } = {};
  const fail = (e: unknown) => Object.assign(new Error((e as Error).message), { code: 'invalid-args' });
  const emit = vi.fn(async (a: { experiment: string; params: Record<string, unknown>; arch?: string }) => {
    try {
      return gpu.emit({ experiment: a.experiment, params: a.params, arch: a.arch ?? 'native' });
    } catch (e) {
      const param = (e as { param?: string }).param;
      throw Object.assign(new Error(param ? `${param}: ${(e as Error).message}` : (e as Error).message), { code: 'invalid-args' });
    }
  });
  // The main process's own import (GpuService.import: its refusals word every surface's), storing nothing.
  const store = { saveRealRun: () => ({ id: RUN_ID }) };
  const service = new GpuService({ store: store as never, progress: () => {} });
  const importCall = vi.fn(async (a: { text: string; fileName: string; measuredAt?: number }) => {
    try {
      return service.import(a);
    } catch (e) {
      throw fail(e);
    }
  });
  const job = (state: GpuJob['state'], extra: Partial<GpuJob> = {}): GpuJob => ({ jobId: 'job-1', experiment: 'pchase-average', state, phase: state, startedAt: 1, runId: null, error: null, ...extra });
  const run = vi.fn(async () => job('building', { phase: 'building: nvcc -O2 -arch=native' }));
  const cancel = vi.fn(async () => ({ cancelled: true }));
  const full: GpuStatus = { nvcc: null, nvccVersion: null, gpus: [], canRun: false, message: 'No nvcc and no NVIDIA GPU on this machine: download the program, run it where there is one, and import its output.', job: null, ...status };
  const lab = {
    gpu: { emit, import: importCall, run, cancel, status: vi.fn(async () => full), experiments: vi.fn(async () => gpu.experiments()), preset: vi.fn() },
    runs: { get: vi.fn(), list: vi.fn(async () => ({ total: 0, items: [] })) },
    on<E extends keyof LabEvents>(e: E, fn: (p: LabEvents[E]) => void) {
      ((listeners[e] ??= []) as ((p: LabEvents[E]) => void)[]).push(fn);
      return () => {};
    },
  } as unknown as LabApi;
  return {
    lab,
    emit,
    importCall,
    run,
    cancel,
    fire(e, p) {
      for (const fn of listeners[e] ?? []) fn(p);
    },
  };
}

let wrapper: VueWrapper | null = null;
let router: Router;

async function mountPage(fake: Fake): Promise<VueWrapper> {
  setActivePinia(createPinia());
  setLab(fake.lab);
  router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/real-gpu', component: RealGpuView },
      { path: '/runs/:id', component: { template: '<div data-testid="run-page">run</div>' } },
      { path: '/compare', component: { template: '<div data-testid="compare-page">compare</div>' } },
    ],
  });
  await router.push('/real-gpu');
  await router.isReady();
  wrapper = mount(RealGpuView, { global: { plugins: [router] }, attachTo: document.body });
  await flushPromises();
  return wrapper;
}

/** Lets the form's 250 ms pause before asking for the program pass. */
async function settle(): Promise<void> {
  await new Promise((r) => setTimeout(r, 300));
  await flushPromises();
}

function setFile(input: HTMLInputElement, file: File): void {
  Object.defineProperty(input, 'files', { value: [file], configurable: true });
}

beforeEach(() => {
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:x');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
});
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
  setLab(null);
  vi.restoreAllMocks();
});

describe('the Real GPU page', () => {
  it('lists the emitted experiments, their real-GPU parameters as fields, and the build line of the program', async () => {
    const fake = fakeLab();
    const w = await mountPage(fake);
    const options = w.findAll('[data-testid="real-experiment"] option').map((o) => o.attributes('value'));
    expect(options).toEqual(GPU_EXPERIMENTS.map((e) => e.id));
    const first = GPU_EXPERIMENTS[0]!.id;
    for (const s of gpuParamSpecs(first)) expect(w.find(`[data-testid="param-${s.name}"]`).exists()).toBe(true);
    expect(w.find('[data-testid="real-build-line"]').text()).toBe(`nvcc -O2 -arch=native -o ${first} ${first}.cu`);
    await w.find('[data-testid="real-experiment"]').setValue('shared-bank-stride');
    await flushPromises();
    expect(w.find('[data-testid="real-build-line"]').text()).toBe('nvcc -O2 -arch=native -o shared-bank-stride shared-bank-stride.cu');
    expect(w.find('[data-testid="param-carveout"]').exists()).toBe(false);
    expect(w.find('[data-testid="param-strideTo"]').exists()).toBe(true);
  });

  it('a refused parameter is marked on its field and the download is off; the program downloads as a .cu file', async () => {
    const fake = fakeLab();
    const w = await mountPage(fake);
    await w.find('[data-testid="real-experiment"]').setValue('pchase-fine');
    await flushPromises();
    await w.find('[data-testid="param-stride"] input').setValue('3');
    await settle();
    expect(w.find('[data-testid="param-stride"]').classes()).toContain('invalid');
    expect(w.find('[data-testid="real-download"]').attributes('disabled')).toBeDefined();
    await w.find('[data-testid="param-stride"] input').setValue('64');
    await settle();
    expect(w.find('[data-testid="param-stride"]').classes()).not.toContain('invalid');
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    await w.find('[data-testid="real-download"]').trigger('click');
    await flushPromises();
    expect(click).toHaveBeenCalled();
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('pchase-fine.cu');
  });

  it('without nvcc and a GPU there is no Run button, only the one-line reason', async () => {
    const w = await mountPage(fakeLab());
    expect(w.find('[data-testid="real-run"]').exists()).toBe(false);
    expect(w.find('[data-testid="real-status"]').text()).toMatch(/No nvcc/);
  });

  it('imports a file from the file input and opens the stored run', async () => {
    const fake = fakeLab();
    const w = await mountPage(fake);
    const input = w.find('[data-testid="real-file"]').element as HTMLInputElement;
    setFile(input, new File([fixture('banks-64')], 'banks-64.jsonl', { lastModified: Date.UTC(2026, 10, 2) }));
    await w.find('[data-testid="real-file"]').trigger('change');
    await flushPromises();
    await flushPromises();
    expect(fake.importCall).toHaveBeenCalledWith(expect.objectContaining({ fileName: 'banks-64.jsonl', measuredAt: Date.UTC(2026, 10, 2) }));
    expect(router.currentRoute.value.path).toBe(`/runs/${RUN_ID}`);
  });

  it('a file over the import limit is refused before it is sent, in the units the page states', async () => {
    const fake = fakeLab();
    const w = await mountPage(fake);
    expect(w.text()).toContain(`Larger outputs (over ${IMPORT_LIMIT_TEXT}):`);
    expect(IMPORT_LIMIT_TEXT).toBe('768 KB');
    const input = w.find('[data-testid="real-file"]').element as HTMLInputElement;
    setFile(input, new File(['x'.repeat(GPU_LIMITS.importBytes + 1)], 'big.jsonl'));
    await w.find('[data-testid="real-file"]').trigger('change');
    await flushPromises();
    expect(fake.importCall).not.toHaveBeenCalled();
    expect(w.find('[data-testid="real-import-error"]').text()).toBe('big.jsonl: the file is 769 KB, more than the 768 KB an import takes: import it with gpulab gpu import <file> --save');
    expect(w.find('[data-testid="real-import-error"]').text()).toBe(importRefusal('big.jsonl', importTooLarge(GPU_LIMITS.importBytes + 1)));
  });

  it('a refused file is worded as gpulab gpu import words it: a CUDA error as "the program failed", not JSON, another experiment, no device line', async () => {
    const fake = fakeLab();
    const w = await mountPage(fake);
    const input = w.find('[data-testid="real-file"]').element as HTMLInputElement;
    for (const c of REFUSALS) {
      setFile(input, new File([c.text()], c.fileName));
      await w.find('[data-testid="real-file"]').trigger('change');
      await flushPromises();
      await flushPromises();
      const shown = w.find('[data-testid="real-import-error"]').text();
      expect(shown.startsWith(c.message), `${c.what}: ${shown}`).toBe(true);
      expect(shown).not.toMatch(/damaged|gpu\.import|text:/);
    }
    expect(router.currentRoute.value.path).toBe('/real-gpu');
  });

  it('a dropped file is imported too; a malformed one is refused with the line the import names', async () => {
    const fake = fakeLab();
    const w = await mountPage(fake);
    const cut = fixture('banks-64').split('\n').slice(0, 3).join('\n');
    const drop = (file: File) => {
      const ev = new Event('drop', { bubbles: true, cancelable: true }) as Event & { dataTransfer: unknown };
      Object.defineProperty(ev, 'dataTransfer', { value: { files: [file] } });
      w.find('[data-testid="real-drop"]').element.dispatchEvent(ev);
    };
    drop(new File([cut], 'cut.jsonl'));
    await flushPromises();
    await flushPromises();
    expect(w.find('[data-testid="real-import-error"]').text()).toMatch(/^cut\.jsonl: .*end line/);
    expect(router.currentRoute.value.path).toBe('/real-gpu');
    drop(new File([fixture('fine-16k-warm')], 'fine.jsonl'));
    await flushPromises();
    await flushPromises();
    expect(router.currentRoute.value.path).toBe(`/runs/${RUN_ID}`);
  });

  it('with nvcc and a GPU: Run starts gpu.run with the form, progress shows, Cancel asks gpu.cancel, done opens the run', async () => {
    const fake = fakeLab({ nvcc: '/usr/local/cuda/bin/nvcc', nvccVersion: '13.0', gpus: ['GPU 0: NVIDIA H100'], canRun: true, message: 'nvcc 13.0 and 1 GPU found' });
    const w = await mountPage(fake);
    await w.find('[data-testid="real-run"]').trigger('click');
    await flushPromises();
    expect(fake.run).toHaveBeenCalledWith(expect.objectContaining({ experiment: GPU_EXPERIMENTS[0]!.id }));
    fake.fire('gpu.progress', { jobId: 'job-1', experiment: 'pchase-average', state: 'running', phase: 'running pchase-average: 4 s', startedAt: 1, runId: null, error: null });
    await flushPromises();
    expect(w.find('[data-testid="real-progress"]').text()).toContain('running pchase-average: 4 s');
    await w.find('[data-testid="real-cancel"]').trigger('click');
    expect(fake.cancel).toHaveBeenCalled();
    fake.fire('gpu.progress', { jobId: 'job-1', experiment: 'pchase-average', state: 'done', phase: 'done', startedAt: 1, runId: RUN_ID, error: null });
    await flushPromises();
    await flushPromises();
    expect(router.currentRoute.value.path).toBe(`/runs/${RUN_ID}`);
  });
});

describe('the run view of a real run', () => {
  /** `simulated`: finished simulated runs of the experiment the library holds, by id and parameters. */
  async function mountRealRun(simulated: { id: string; params: Record<string, unknown> }[] = []): Promise<{ w: VueWrapper; preset: ReturnType<typeof vi.fn>; list: ReturnType<typeof vi.fn> }> {
    const { default: RunView } = await import('../../src-renderer/src/views/RunView.vue');
    const rec = realRunRecord(fixture('banks-64'), { source: 'banks-64.jsonl', measuredAt: Date.UTC(2026, 10, 3) });
    const detail = {
      id: RUN_ID,
      experiment: rec.experiment,
      title: rec.title,
      presetId: 'real-nvidia-h100-80gb-hbm3',
      presetName: `${rec.device.name} (real)`,
      seed: 0,
      simVersion: '1',
      status: 'done',
      error: null,
      createdAt: 1,
      startedAt: 1,
      finishedAt: 1,
      durationMs: null,
      tags: [],
      notes: '',
      real: true,
      preset: null,
      device: rec.device,
      params: rec.params,
      result: { ...rec.result, series: rec.result.series.map((s) => ({ ...s, x: Float64Array.from(s.x), y: Float64Array.from(s.y) })) },
    };
    const preset = vi.fn(async () => ({ preset: { id: 'h100-measured', name: 'H100 measured' }, base: 'titan', applied: [{ path: 'shared.latency.base', value: 29.08, finding: 'shared.base' }], skipped: [] }));
    const list = vi.fn(async () => ({ total: simulated.length, items: simulated.map((x) => ({ id: x.id, real: false })) }));
    const get = vi.fn(async ({ id }: { id: string }) => (id === RUN_ID ? detail : { ...detail, id, real: false, device: null, params: simulated.find((x) => x.id === id)!.params }));
    const lab = {
      runs: { get, list, start: vi.fn() },
      presets: { list: vi.fn(async () => []), get: vi.fn() },
      // The simulated experiment as the catalogue lists it, less its "mode" (a parameter the builder would not take).
      experiments: { list: vi.fn(async () => [{ ...SIM_BANKS, params: SIM_BANKS.params.filter((p) => p.name !== 'mode') }]) },
      reproduce: { references: vi.fn(async () => ({ runId: RUN_ID, rows: [], findings: [], unmatched: [] })) },
      gpu: { preset },
      app: { version: vi.fn() },
      on: () => () => {},
    } as unknown as LabApi;
    setActivePinia(createPinia());
    setLab(lab);
    router = createRouter({
      history: createMemoryHistory(),
      routes: [
        { path: '/runs/:id', component: RunView, props: true },
        { path: '/:p(.*)*', component: { template: '<div />' } },
      ],
    });
    await router.push(`/runs/${RUN_ID}`);
    wrapper = mount(RunView, { props: { id: RUN_ID }, global: { plugins: [router] }, attachTo: document.body });
    await flushPromises();
    return { w: wrapper, preset, list };
  }

  it('shows the device marked real, its record, no rerun, and no preset or paper value beside the findings', async () => {
    const { w } = await mountRealRun();
    expect(w.find('[data-testid="real-badge"]').text()).toBe('real');
    expect(w.find('[data-testid="run-preset"]').text()).toContain('NVIDIA H100 80GB HBM3');
    expect(w.find('[data-testid="meta-device"]').text()).toContain('(real)');
    expect(w.find('[data-testid="meta-measured"]').text()).toContain('banks-64.jsonl');
    expect(w.find('[data-testid="rerun"]').exists()).toBe(false);
    expect(w.find('[data-testid="real-note"]').exists()).toBe(true);
    expect(w.text()).toContain('29.08');
  });

  it('makes a preset from the run with the name typed, then opens it', async () => {
    const { w, preset } = await mountRealRun();
    await w.find('[data-testid="make-preset"]').trigger('click');
    await w.find('[data-testid="preset-name"]').setValue('H100 measured');
    await w.find('[data-testid="preset-form"]').trigger('submit');
    await flushPromises();
    expect(preset).toHaveBeenCalledWith({ runId: RUN_ID, name: 'H100 measured' });
    expect(router.currentRoute.value.fullPath).toBe('/presets?id=h100-measured');
  });

  it('Simulate these parameters opens the builder with the experiment and the parameters the simulated one has', async () => {
    const { w } = await mountRealRun();
    await flushPromises();
    await w.find('[data-testid="simulate-real"]').trigger('click');
    await flushPromises();
    const q = router.currentRoute.value.query;
    expect(router.currentRoute.value.path).toBe('/experiments');
    expect(q.experiment).toBe('shared-bank-stride');
    expect(q.preset).toBeUndefined();
    const params = JSON.parse(String(q.params));
    expect(params.strideTo).toBe(64);
    expect('mode' in params).toBe(false);
  });

  it('compare with simulated takes the runs of the same parameters, else the nearest and says which parameters differ', async () => {
    const SAME = 'aaaaaaaa-2222-4333-8444-555555555555';
    const NEAR = 'aaaaaaaa-2222-4333-8444-666666666666';
    const FAR = 'aaaaaaaa-2222-4333-8444-777777777777';
    const { w } = await mountRealRun([]);
    const real = (await useLab().runs.get({ id: RUN_ID })).params as Record<string, unknown>;
    w.unmount();
    wrapper = null;
    // One of the same parameters: compared with it alone, and nothing to say.
    let m = await mountRealRun([
      { id: SAME, params: { ...real } },
      { id: NEAR, params: { ...real, strideTo: 32 } },
    ]);
    await m.w.find('[data-testid="compare-simulated"]').trigger('click');
    await flushPromises();
    expect(router.currentRoute.value.query.runs).toBe(`${RUN_ID},${SAME}`);
    m.w.unmount();
    wrapper = null;
    // None of the same: the nearest (one parameter off), not the farther one, with a notice naming it.
    m = await mountRealRun([
      { id: FAR, params: { ...real, strideTo: 32, strideFrom: 2 } },
      { id: NEAR, params: { ...real, strideTo: 32 } },
    ]);
    await m.w.find('[data-testid="compare-simulated"]').trigger('click');
    await flushPromises();
    // (under load the notice may come a tick after the route: waited for, not assumed)
    await vi.waitFor(() => expect(router.currentRoute.value.query.runs).toBe(`${RUN_ID},${NEAR}`));
    await vi.waitFor(() => expect(useNotify().notices.at(-1)).toBeDefined());
    const notice = useNotify().notices.at(-1)!;
    expect(notice.text).toBe('No simulated run of shared-bank-stride has these parameters: comparing with the nearest, which differ in strideTo');
    expect(notice.link?.label).toBe('Simulate these parameters');
  });

  it('compare with simulated says so when no simulated run of these parameters exists', async () => {
    const { w, list } = await mountRealRun();
    await w.find('[data-testid="compare-simulated"]').trigger('click');
    await flushPromises();
    expect(list).toHaveBeenCalledWith(expect.objectContaining({ experiment: 'shared-bank-stride', status: ['done'] }));
    expect(router.currentRoute.value.path).toBe(`/runs/${RUN_ID}`);
  });
});

describe('the Real GPU page: characterise a GPU', () => {
  const COMPARISON_ID = '99999999-8888-4777-8666-555555555555';
  const SUMMARY = readFileSync(resolve(__dirname, '../fixtures/real/h200/characterise/run1.txt'), 'utf8');
  const NAME = 'Characterisation of NVIDIA H200 (real), 2026-12-02 11:51 UTC';
  const CAN_RUN: Partial<GpuStatus> = { nvcc: '/usr/local/cuda/bin/nvcc', nvccVersion: '13.0', gpus: ['GPU 0: NVIDIA H200'], canRun: true, message: 'nvcc 13.0 and 1 GPU found' };
  /** A characterisation's file as `gpulab gpu characterise --out` writes it (the page reads only its first characters). */
  const charFile = (extra: Record<string, unknown> = {}): string =>
    JSON.stringify({ type: 'gpulab-characterisation', format: 1, measuredAt: Date.UTC(2026, 11, 2, 11, 51), summary: { device: null, probes: [], quantities: [] }, outputs: {}, ...extra });

  interface CharFake extends Fake {
    characterise: ReturnType<typeof vi.fn>;
    importCharacterisation: ReturnType<typeof vi.fn>;
    getComparison: ReturnType<typeof vi.fn>;
  }

  /** fakeLab with the characterisation calls: the import answers a stored characterisation, comparisons.get its saved comparison. */
  function charLab(status: Partial<GpuStatus> = {}): CharFake {
    const fake = fakeLab(status);
    const characterise = vi.fn(async () => ({ jobId: 'job-c', experiment: 'characterise', state: 'building', phase: 'building the l1 probe', startedAt: 1, runId: null, comparisonId: null, error: null }) satisfies GpuJob);
    const importCharacterisation = vi.fn(
      async (): Promise<GpuCharacterisationResult> => ({ comparisonId: COMPARISON_ID, name: NAME, runIds: [RUN_ID], device: 'NVIDIA H200 (real)', quantities: [], probes: [] }),
    );
    const getComparison = vi.fn(async (a: { id: string }): Promise<Comparison> => {
      if (a.id !== COMPARISON_ID) throw Object.assign(new Error(`no comparison ${a.id}`), { code: 'not-found' });
      return { id: COMPARISON_ID, name: NAME, notes: SUMMARY, runIds: [RUN_ID], createdAt: 1, updatedAt: 1 };
    });
    const lab = fake.lab as unknown as { gpu: Record<string, unknown>; comparisons: Record<string, unknown> };
    Object.assign(lab.gpu, { characterise, importCharacterisation });
    lab.comparisons = { get: getComparison };
    return Object.assign(fake, { characterise, importCharacterisation, getComparison });
  }

  async function choose(w: VueWrapper, file: File): Promise<void> {
    setFile(w.find('[data-testid="real-file"]').element as HTMLInputElement, file);
    await w.find('[data-testid="real-file"]').trigger('change');
    for (let i = 0; i < 4; i++) await flushPromises();
  }

  function expectSummary(w: VueWrapper): void {
    const shown = w.find('[data-testid="real-characterisation"]');
    expect(shown.exists()).toBe(true);
    expect(shown.find('strong').text()).toBe(NAME);
    expect(w.find('[data-testid="real-characterisation-summary"]').element.textContent).toBe(SUMMARY);
    expect(w.find('[data-testid="real-characterisation-open"]').attributes('href')).toBe(`/compare?comparison=${COMPARISON_ID}`);
  }

  it('without nvcc and a GPU the panel explains itself but offers no Characterise button', async () => {
    const fake = charLab();
    const w = await mountPage(fake);
    expect(w.find('[data-testid="real-characterise"]').text()).toContain('gpulab gpu characterise --out');
    expect(w.find('[data-testid="real-characterise-run"]').exists()).toBe(false);
    expect(w.find('[data-testid="real-characterisation"]').exists()).toBe(false);
    expect(fake.characterise).not.toHaveBeenCalled();
  });

  it('with nvcc and a GPU: Characterise calls gpu.characterise, progress shows, done shows the saved comparison\'s summary and links to it', async () => {
    const fake = charLab(CAN_RUN);
    const w = await mountPage(fake);
    const button = w.find('[data-testid="real-characterise-run"]');
    expect(button.text()).toBe('Characterise this GPU');
    await button.trigger('click');
    await flushPromises();
    expect(fake.characterise).toHaveBeenCalledTimes(1);
    expect(fake.characterise).toHaveBeenCalledWith({});
    expect(fake.run).not.toHaveBeenCalled();
    // While it runs: Cancel in place of the button, the job's phase in the progress line.
    expect(w.find('[data-testid="real-characterise-run"]').exists()).toBe(false);
    expect(w.find('[data-testid="real-progress"]').text()).toContain('building the l1 probe');
    const job = { jobId: 'job-c', experiment: 'characterise', startedAt: 1, runId: null, error: null };
    fake.fire('gpu.progress', { ...job, state: 'running', phase: 'probe 7 of 20: tlb-2MB', comparisonId: null });
    await flushPromises();
    expect(w.find('[data-testid="real-progress"]').text()).toContain('probe 7 of 20: tlb-2MB');
    await w.find('[data-testid="real-characterise-cancel"]').trigger('click');
    expect(fake.cancel).toHaveBeenCalledTimes(1);
    // Another job's end is not this one's.
    fake.fire('gpu.progress', { ...job, jobId: 'job-other', state: 'done', phase: 'done', comparisonId: COMPARISON_ID });
    await flushPromises();
    expect(fake.getComparison).not.toHaveBeenCalled();
    expect(w.find('[data-testid="real-characterisation"]').exists()).toBe(false);

    fake.fire('gpu.progress', { ...job, state: 'done', phase: 'done: 20 probes stored', comparisonId: COMPARISON_ID });
    await flushPromises();
    await flushPromises();
    expect(fake.getComparison).toHaveBeenCalledWith({ id: COMPARISON_ID });
    expectSummary(w);
    // No run of its own to open: the page stays, the button is back, and the link opens the comparison.
    expect(router.currentRoute.value.path).toBe('/real-gpu');
    expect(w.find('[data-testid="real-characterise-run"]').exists()).toBe(true);
    await w.find('[data-testid="real-characterisation-open"]').trigger('click');
    await flushPromises();
    expect(router.currentRoute.value.fullPath).toBe(`/compare?comparison=${COMPARISON_ID}`);
  });

  it('characterising again clears the summary shown until the new one is done', async () => {
    const fake = charLab(CAN_RUN);
    const w = await mountPage(fake);
    await w.find('[data-testid="real-characterise-run"]').trigger('click');
    await flushPromises();
    fake.fire('gpu.progress', { jobId: 'job-c', experiment: 'characterise', state: 'done', phase: 'done', startedAt: 1, runId: null, comparisonId: COMPARISON_ID, error: null });
    await flushPromises();
    await flushPromises();
    expectSummary(w);
    await w.find('[data-testid="real-characterise-run"]').trigger('click');
    await flushPromises();
    expect(fake.characterise).toHaveBeenCalledTimes(2);
    expect(w.find('[data-testid="real-characterisation"]').exists()).toBe(false);
  });

  it('a characterisation file chosen in the file input goes to gpu.importCharacterisation with its text, and its summary shows', async () => {
    const fake = charLab();
    const w = await mountPage(fake);
    const text = charFile();
    await choose(w, new File([text], 'characterisation.json'));
    expect(fake.importCharacterisation).toHaveBeenCalledTimes(1);
    expect(fake.importCharacterisation).toHaveBeenCalledWith({ text, fileName: 'characterisation.json' });
    expect(fake.importCall).not.toHaveBeenCalled();
    expect(fake.getComparison).toHaveBeenCalledWith({ id: COMPARISON_ID });
    expectSummary(w);
    expect(w.find('[data-testid="real-import-error"]').exists()).toBe(false);
    expect(router.currentRoute.value.path).toBe('/real-gpu');
    // The input is cleared, so the same file can be chosen again.
    expect((w.find('[data-testid="real-file"]').element as HTMLInputElement).value).toBe('');
  });

  it('the kind of file is told by its text, not its name: a characterisation named .jsonl, with white space first, is still one', async () => {
    const fake = charLab();
    const w = await mountPage(fake);
    const text = `\n  ${JSON.stringify({ type: 'gpulab-characterisation', format: 1 })}`;
    await choose(w, new File([text], 'out.jsonl'));
    expect(fake.importCharacterisation).toHaveBeenCalledWith({ text, fileName: 'out.jsonl' });
    expect(fake.importCall).not.toHaveBeenCalled();
  });

  it('a refused characterisation shows the refusal in real-import-error and no summary', async () => {
    const fake = charLab();
    // The main process's own refusal (GpuService.importCharacterisation): a file of another format.
    const service = new GpuService({ store: null as never, progress: () => {} });
    fake.importCharacterisation.mockImplementation(async (a: { text: string; fileName: string }) => {
      try {
        return await service.importCharacterisation(a);
      } catch (e) {
        throw Object.assign(new Error((e as Error).message), { code: (e as { code?: string }).code });
      }
    });
    const w = await mountPage(fake);
    await choose(w, new File([charFile({ format: 2 })], 'old.json'));
    expect(fake.importCharacterisation).toHaveBeenCalledTimes(1);
    expect(w.find('[data-testid="real-import-error"]').text()).toBe('old.json: a characterisation file of format 2; this version reads format 1');
    expect(w.find('[data-testid="real-characterisation"]').exists()).toBe(false);
    expect(fake.getComparison).not.toHaveBeenCalled();
    expect(fake.importCall).not.toHaveBeenCalled();
    // A rejection of any wording is shown as it comes; the next good file clears it.
    fake.importCharacterisation.mockRejectedValueOnce(Object.assign(new Error('characterisation.json: no probe of the file ran: there is nothing to store'), { code: 'invalid-args' }));
    await choose(w, new File([charFile()], 'characterisation.json'));
    expect(w.find('[data-testid="real-import-error"]').text()).toBe('characterisation.json: no probe of the file ran: there is nothing to store');
    fake.importCharacterisation.mockResolvedValueOnce({ comparisonId: COMPARISON_ID, name: NAME, runIds: [RUN_ID], device: 'NVIDIA H200 (real)', quantities: [], probes: [] });
    await choose(w, new File([charFile()], 'characterisation.json'));
    expect(w.find('[data-testid="real-import-error"]').exists()).toBe(false);
    expectSummary(w);
  });

  it('a characterisation file over its limit is refused before it is read or sent', async () => {
    const fake = charLab();
    const w = await mountPage(fake);
    const head = charFile();
    const big = new File([head, ' '.repeat(GPU_LIMITS.characterisationBytes + 1 - head.length)], 'huge.json');
    expect(big.size).toBe(GPU_LIMITS.characterisationBytes + 1);
    await choose(w, big);
    expect(fake.importCharacterisation).not.toHaveBeenCalled();
    expect(fake.importCall).not.toHaveBeenCalled();
    expect(w.find('[data-testid="real-import-error"]').text()).toBe('huge.json: the file is 17 MB, more than the 16 MB a characterisation import takes: import it with gpulab gpu import <file> --save');
  });

  it("a program's .jsonl output (or one named .json) still goes to gpu.import and opens its run", async () => {
    const fake = charLab();
    const w = await mountPage(fake);
    const text = fixture('banks-64');
    await choose(w, new File([text], 'banks-64.jsonl'));
    expect(fake.importCall).toHaveBeenCalledTimes(1);
    expect(fake.importCall).toHaveBeenCalledWith(expect.objectContaining({ text, fileName: 'banks-64.jsonl' }));
    expect(fake.importCharacterisation).not.toHaveBeenCalled();
    expect(w.find('[data-testid="real-characterisation"]').exists()).toBe(false);
    expect(router.currentRoute.value.path).toBe(`/runs/${RUN_ID}`);

    wrapper?.unmount();
    const again = charLab();
    const w2 = await mountPage(again);
    await choose(w2, new File([text], 'banks-64.json'));
    expect(again.importCall).toHaveBeenCalledWith(expect.objectContaining({ text, fileName: 'banks-64.json' }));
    expect(again.importCharacterisation).not.toHaveBeenCalled();
  });
});
