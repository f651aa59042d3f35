/**
 * The real-GPU calls of the lab (gpu.emit, gpu.import, gpu.status, gpu.run, gpu.cancel, gpu.preset):
 * argument validation, a fixture imported and read back as a run, the program of an experiment, and
 * a run "here" with stand-in nvcc and nvidia-smi programs on PATH (nvcc writes a program that prints
 * a fixture), its progress events, its stored run and its cancel.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GpuJob } from '../../src-main/contract';
import type { LabService } from '../../src-main/services/lab';
import { GPU_LIMITS } from '../../src-main/gpu-contract';
import { TempDir, testLab } from './lab-fixtures';

const FIXTURES = resolve(__dirname, '../fixtures/real/h100');
const fixture = (name: string): string => readFileSync(join(FIXTURES, `${name}.jsonl`), 'utf8');

let tmp: TempDir;
let lab: LabService;
beforeEach(() => {
  tmp = new TempDir();
});
afterEach(async () => {
  await lab?.close();
  tmp.remove();
});

/** A folder of stand-ins: nvidia-smi listing one GPU, and an nvcc whose "program" prints `output` after `delay` seconds. */
function fakeCuda(output: string, delay = 0, gpus = true): NodeJS.ProcessEnv {
  const bin = tmp.file('bin');
  mkdirSync(bin, { recursive: true });
  const out = tmp.file('program-output.jsonl');
  writeFileSync(out, output);
  const script = (path: string, body: string) => {
    writeFileSync(path, `#!/bin/sh\n${body}\n`);
    chmodSync(path, 0o755);
  };
  script(
    join(bin, 'nvcc'),
    `if [ "$1" = "--version" ]; then echo "Cuda compilation tools, release 13.0, V13.0.88"; exit 0; fi
while [ $# -gt 0 ]; do if [ "$1" = "-o" ]; then shift; o="$1"; fi; shift; done
printf '#!/bin/sh\\nsleep ${delay}\\ncat "${out}"\\n' > "$o"; chmod +x "$o"`,
  );
  if (gpus) script(join(bin, 'nvidia-smi'), 'echo "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-test)"');
  return { PATH: `${bin}:/usr/bin:/bin` };
}

async function code(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await p;
  } catch (err) {
    return err as { code: string; message: string };
  }
  throw new Error('expected a refusal');
}

function until(lab: LabService, pred: (j: GpuJob) => boolean): Promise<GpuJob> {
  return new Promise((done) => {
    const off = lab.on('gpu.progress', (j) => {
      if (pred(j)) {
        off();
        done(j);
      }
    });
  });
}

describe('gpu.emit and gpu.import', () => {
  it('emit returns the program, its build line and the resolved parameters; bad ones are refused by name', async () => {
    ({ lab } = testLab(tmp.file('lab.db'), { poolSize: 1 }));
    const p = await lab.api.gpu.emit({ experiment: 'pchase-average', params: { strides: '64', sizeFrom: '8KB', sizeTo: '64KB', sizeStep: '8KB' } });
    expect(p.fileName).toBe('pchase-average.cu');
    expect(p.buildCommand).toBe('nvcc -O2 -arch=native -o pchase-average pchase-average.cu');
    expect(p.source).toContain('__global__');
    expect(p.params.strides).toEqual([64]);
    const bad = await code(lab.api.gpu.emit({ experiment: 'pchase-average', params: { strides: '3' } }));
    expect(bad.code).toBe('invalid-args');
    expect(bad.message).toMatch(/stride/);
    expect((await code(lab.api.gpu.emit({ experiment: 'cache-lru', params: {} }))).message).toMatch(/no real-GPU program/);
    expect((await code(lab.api.gpu.emit({ experiment: 'pchase-average', params: {}, arch: 'sm_9; rm -rf' }))).code).toBe('invalid-args');
  });

  it('import stores a fixture as a real run that runs.get reads back with its device and findings', async () => {
    ({ lab } = testLab(tmp.file('lab.db'), { poolSize: 1 }));
    const r = await lab.api.gpu.import({ text: fixture('banks-64'), fileName: 'C:\\runs\\banks-64.jsonl', measuredAt: Date.UTC(2026, 10, 1) });
    expect(r.experiment).toBe('shared-bank-stride');
    expect(r.device).toMatch(/H100.*\(real\)/);
    const run = await lab.api.runs.get({ id: r.runId });
    expect(run.real).toBe(true);
    expect(run.preset).toBeNull();
    expect(run.device).toMatchObject({ source: 'banks-64.jsonl', measuredAt: Date.UTC(2026, 10, 1) });
    expect(run.result?.findings.length).toBe(r.findings);
    const refs = await lab.api.reproduce.references({ runId: r.runId });
    expect(refs.rows).toEqual([]);
    const list = await lab.api.runs.list({});
    expect(list.items[0]).toMatchObject({ id: r.runId, real: true });
  });

  it('import refuses what is not a finished program output, naming the file and line, and stores nothing', async () => {
    ({ lab } = testLab(tmp.file('lab.db'), { poolSize: 1 }));
    const broken = fixture('banks-64').split('\n').slice(0, 4).join('\n');
    const e1 = await code(lab.api.gpu.import({ text: broken, fileName: 'cut.jsonl' }));
    expect(e1.code).toBe('invalid-args');
    expect(e1.message).toMatch(/^cut\.jsonl: .*end line/);
    const e2 = await code(lab.api.gpu.import({ text: fixture('bad-size'), fileName: 'bad.jsonl' }));
    expect(e2.message).toMatch(/bad\.jsonl: line \d+: the program stopped with an error/);
    expect((await code(lab.api.gpu.import({ text: '', fileName: 'x' }))).message).toMatch(/empty/);
    expect((await code(lab.api.gpu.import({ text: 'x'.repeat(GPU_LIMITS.importChars + 1), fileName: 'x' }))).message).toMatch(/larger than/);
    expect((await code(lab.api.gpu.import({ text: '{}', fileName: 'a\nb' }))).message).toMatch(/one line/);
    expect((await code(lab.api.gpu.import({ text: '{}', fileName: 'x', levelGap: -1 } as never))).code).toBe('invalid-args');
    expect((await lab.api.runs.list({})).total).toBe(0);
  });
});

describe('gpu.status, gpu.run and gpu.cancel', () => {
  it('without nvcc or a GPU: status says so in one line, and run is refused', async () => {
    ({ lab } = testLab(tmp.file('lab.db'), { poolSize: 1, gpuEnv: { PATH: '/nonexistent' } }));
    const s = await lab.api.gpu.status();
    expect(s).toMatchObject({ nvcc: null, gpus: [], canRun: false, job: null });
    expect(s.message).toMatch(/No nvcc/);
    expect(s.message.includes('\n')).toBe(false);
    const e = await code(lab.api.gpu.run({ experiment: 'shared-bank-stride', params: { strideTo: '64' } }));
    expect(e.code).toBe('conflict');
  });

  it('with nvcc and a GPU: builds, runs, stores, with progress events on the way', async () => {
    ({ lab } = testLab(tmp.file('lab.db'), { poolSize: 1, gpuEnv: fakeCuda(fixture('banks-64')) }));
    const s = await lab.api.gpu.status();
    expect(s).toMatchObject({ canRun: true, nvccVersion: '13.0' });
    expect(s.gpus[0]).toMatch(/^GPU 0: NVIDIA H100/);
    const states: string[] = [];
    lab.on('gpu.progress', (j) => states.push(j.state));
    const ended = until(lab, (j) => ['done', 'failed', 'cancelled'].includes(j.state));
    const job = await lab.api.gpu.run({ experiment: 'shared-bank-stride', params: { strideTo: '64' }, timeoutS: 60 });
    expect(job.state).toBe('building');
    const last = await ended;
    expect(last.error).toBeNull();
    expect(last.state).toBe('done');
    expect(states).toEqual(expect.arrayContaining(['building', 'running', 'importing', 'done']));
    const run = await lab.api.runs.get({ id: last.runId! });
    expect(run.device?.source).toBe('gpu run');
    expect(run.experiment).toBe('shared-bank-stride');
    expect((await lab.api.gpu.status()).job?.state).toBe('done');
  });

  it('cancel stops the program; a second run while one goes on is refused; bad parameters are refused first', async () => {
    ({ lab } = testLab(tmp.file('lab.db'), { poolSize: 1, gpuEnv: fakeCuda(fixture('banks-64'), 30) }));
    expect((await code(lab.api.gpu.run({ experiment: 'shared-bank-stride', params: { strideTo: '-1' } }))).code).toBe('invalid-args');
    expect((await code(lab.api.gpu.run({ experiment: 'shared-bank-stride', params: {}, timeoutS: 0 }))).code).toBe('invalid-args');
    const running = until(lab, (j) => j.state === 'running');
    await lab.api.gpu.run({ experiment: 'shared-bank-stride', params: {}, timeoutS: 120 });
    await running;
    expect((await code(lab.api.gpu.run({ experiment: 'shared-bank-stride', params: {} }))).code).toBe('conflict');
    const ended = until(lab, (j) => ['done', 'failed', 'cancelled'].includes(j.state));
    expect(await lab.api.gpu.cancel()).toEqual({ cancelled: true });
    expect((await ended).state).toBe('cancelled');
    expect(await lab.api.gpu.cancel()).toEqual({ cancelled: false });
    expect((await lab.api.runs.list({})).total).toBe(0);
  });

  it('a program past its time limit is stopped and nothing is stored', async () => {
    ({ lab } = testLab(tmp.file('lab.db'), { poolSize: 1, gpuEnv: fakeCuda(fixture('banks-64'), 30) }));
    const ended = until(lab, (j) => ['done', 'failed', 'cancelled'].includes(j.state));
    await lab.api.gpu.run({ experiment: 'shared-bank-stride', params: {}, timeoutS: 1 });
    const last = await ended;
    expect(last.state).toBe('failed');
    expect(last.error).toMatch(/time limit of 1 s/);
    expect((await lab.api.runs.list({})).total).toBe(0);
  });
});

describe('gpu.preset', () => {
  it('makes a custom preset from a real run, refuses an unknown run and a bad name', async () => {
    ({ lab } = testLab(tmp.file('lab.db'), { poolSize: 1 }));
    const r = await lab.api.gpu.import({ text: fixture('fine-16k-warm'), fileName: 'fine-16k-warm.jsonl' });
    const made = await lab.api.gpu.preset({ runId: r.runId, name: 'H100 from the trace' });
    expect(made.preset.id).toBe('h100-from-the-trace');
    expect(made.applied.length).toBeGreaterThan(0);
    const p = (await lab.api.presets.get({ id: made.preset.id })).preset;
    for (const a of made.applied) expect(p.provenance[a.path]).toContain(`run ${r.runId}`);
    expect((await code(lab.api.gpu.preset({ runId: '00000000-0000-4000-8000-000000000000', name: 'x' }))).code).toBe('not-found');
    expect((await code(lab.api.gpu.preset({ runId: r.runId, name: '' }))).code).toBe('invalid-args');
  });
});
