/**
 * The real-GPU calls of the lab (gpu.emit, gpu.import, gpu.status, gpu.run, gpu.cancel, gpu.preset):
 * argument validation, a fixture imported and read back as a run, the program of an experiment, and
 * a run "here" with stand-in nvcc and nvidia-smi programs on PATH (nvcc writes a program that prints
 * a fixture), its progress events, its stored run and its cancel.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GpuJob } from '../../src-main/contract';
import type { LabService } from '../../src-main/services/lab';
import { GPU_LIMITS } from '../../src-main/gpu-contract';
import { LabError } from '../../src-main/contract';
import { isCorrupt, isDamaged } from '../../src-main/services/store/database';
import { writeFakeCuda } from './fake-cuda';
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
function fakeCuda(output: string, delay = 0, gpus = true, o: { cap?: string; exit?: number; stderr?: string } = {}): NodeJS.ProcessEnv {
  const out = tmp.file('program-output.jsonl');
  writeFileSync(out, output);
  return writeFakeCuda(tmp.file('bin'), `sleep ${delay}\\ncat "${out}"\\necho "${o.stderr ?? ''}" >&2\\nexit ${o.exit ?? 0}`, { gpus, ...(o.cap ? { cap: o.cap } : {}) });
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
    expect((await code(lab.api.gpu.import({ text: 'x'.repeat(GPU_LIMITS.importBytes + 1), fileName: 'x' }))).message).toMatch(/769 KB, more than the 768 KB/);
    expect((await code(lab.api.gpu.import({ text: '{}', fileName: 'a\nb' }))).message).toMatch(/one line/);
    expect((await code(lab.api.gpu.import({ text: '{}', fileName: 'x', levelGap: -1 } as never))).code).toBe('invalid-args');
    expect((await lab.api.runs.list({})).total).toBe(0);
  });
});

describe('gpu.import: a malformed or incomplete file is refused in words, never as a damaged database', () => {
  const banks = () => fixture('banks-64').split('\n');
  const cases: [string, () => string, string][] = [
    [
      'a device line missing fields',
      () => ['{"type":"device","name":"NVIDIA H100 80GB HBM3","computeCapability":"9.0","sms":132}', ...banks().slice(1)].join('\n'),
      'incomplete.jsonl: line 1: the device line is incomplete: it lacks "clockKHz", "l2Bytes", "sharedPerBlock", "sharedPerBlockOptin" and 4 more fields',
    ],
    ['a device line with a field of the wrong type', () => [banks()[0]!.replace('"sms":132', '"sms":"many"'), ...banks().slice(1)].join('\n'), 'wrong.jsonl: line 1: malformed device line: "sms": must be a number, not a string'],
    ['a line that is not JSON', () => [banks()[0], '{"type":"clock",', ...banks().slice(2)].join('\n'), 'cut.jsonl: line 2: not JSON ('],
    ['an empty file', () => '', 'empty.jsonl: the file is empty: it holds no output of a program'],
    ['a file of blank lines', () => '\n \n', 'blank.jsonl: the file is empty: it holds no output of a program'],
    ['a file over the limit', () => `${banks()[0]}\n${' '.repeat(GPU_LIMITS.importBytes)}`, 'big.jsonl: the file is 769 KB, more than the 768 KB an import takes: import it with gpulab gpu import <file> --save'],
    ['a file over the limit in UTF-8 bytes, not in characters', () => 'é'.repeat(GPU_LIMITS.importBytes / 2 + 1), 'wide.jsonl: the file is 769 KB, more than the 768 KB an import takes'],
  ];
  const names = ['incomplete.jsonl', 'wrong.jsonl', 'cut.jsonl', 'empty.jsonl', 'blank.jsonl', 'big.jsonl', 'wide.jsonl'];
  cases.forEach(([what, text, message], i) =>
    it(what, async () => {
      ({ lab } = testLab(tmp.file('lab.db'), { poolSize: 1 }));
      const good = await lab.api.gpu.import({ text: fixture('banks-64'), fileName: 'good.jsonl' });
      const before = await lab.api.runs.list({});
      const e = await code(lab.api.gpu.import({ text: text(), fileName: `/home/me/${names[i]}` }));
      expect(e.code).toBe('invalid-args');
      expect(e.message.startsWith(message)).toBe(true);
      expect(e.message).not.toMatch(/damaged|restore it from a backup|gpu\.import|text:/);
      // Nothing in the database changed: the same runs, the stored one as it was.
      expect(await lab.api.runs.list({})).toEqual(before);
      expect((await lab.api.runs.get({ id: good.runId })).result?.findings.length).toBe(good.findings);
    }),
  );

  it('a file just at the limit passes the size check (and is then read line by line)', async () => {
    ({ lab } = testLab(tmp.file('lab.db'), { poolSize: 1 }));
    const text = fixture('banks-64');
    const padded = text + ' '.repeat(GPU_LIMITS.importBytes - Buffer.byteLength(text));
    const r = await lab.api.gpu.import({ text: padded, fileName: 'full.jsonl' });
    expect(r.experiment).toBe('shared-bank-stride');
  });

  it('the damaged-database message is kept for SQLite finding the file damaged', () => {
    const sqlite = (code: string, message: string) => Object.assign(new Error(message), { code });
    expect(isCorrupt(sqlite('SQLITE_CORRUPT', 'database disk image is malformed'))).toBe(true);
    expect(isCorrupt(sqlite('SQLITE_CORRUPT_INDEX', 'index corrupt'))).toBe(true);
    expect(isCorrupt(sqlite('SQLITE_ERROR', 'malformed database schema (x)'))).toBe(true);
    expect(isDamaged(sqlite('SQLITE_NOTADB', 'file is not a database'))).toBe(true);
    expect(isCorrupt(sqlite('SQLITE_NOTADB', 'file is not a database'))).toBe(false);
    // A refusal of the app that says "malformed" of an imported file is not SQLite's.
    expect(isDamaged(new LabError('invalid-args', 'x.jsonl: line 1: malformed device line'))).toBe(false);
    expect(isDamaged(sqlite('SQLITE_BUSY', 'database is locked'))).toBe(false);
    expect(isDamaged(new Error('malformed'))).toBe(false);
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
    expect(last.error).toBe('the program ran past its time limit of 1 s and was stopped (SIGKILL) with no output; stderr empty (raise the limit, or shrink the sweep)');
    expect((await lab.api.runs.list({})).total).toBe(0);
  });
});

describe('gpu.run: how a program fails, in CUDA\'s words', () => {
  const ran = async (env: NodeJS.ProcessEnv): Promise<GpuJob> => {
    ({ lab } = testLab(tmp.file('lab.db'), { poolSize: 1, gpuEnv: env }));
    const ended = until(lab, (j) => ['done', 'failed', 'cancelled'].includes(j.state));
    await lab.api.gpu.run({ experiment: 'pchase-fine', params: {}, timeoutS: 30 });
    return ended;
  };

  it('a CUDA error line: the program failed, with the call, CUDA\'s name and message and the exit status; nothing stored', async () => {
    const j = await ran(fakeCuda(readFileSync(resolve(__dirname, '../fixtures/real/errors/oom.jsonl'), 'utf8'), 0, true, { exit: 3 }));
    expect(j.state).toBe('failed');
    expect(j.error).toBe('the program failed: cudaMalloc: cudaErrorMemoryAllocation: out of memory (exit status 3)');
    expect((await lab.api.runs.list({})).total).toBe(0);
  });

  it('a nonzero exit without output: its status and the stderr tail', async () => {
    const j = await ran(fakeCuda('', 0, true, { exit: 1, stderr: 'terminate called after throwing' }));
    expect(j.error).toBe('the program exited with status 1 with no output; stderr: terminate called after throwing');
  });

  it('builds for the compute capability nvidia-smi gives; a GPU older than Volta is refused', async () => {
    const j = await ran(fakeCuda(fixture('fine-16k-warm')));
    expect(j.state).toBe('done');
    await lab.close();
    const old = await ran(fakeCuda(fixture('fine-16k-warm'), 0, true, { cap: '6.0' }));
    expect(old.error).toBe('the GPU here has compute capability 6.0 (sm_60), older than Volta (sm_70): the programs target Volta and newer');
  });

  it('gpu.import of a program\'s CUDA error: "the program failed" in CUDA\'s words, not a damaged database nor a parse error', async () => {
    ({ lab } = testLab(tmp.file('lab.db'), { poolSize: 1 }));
    const e = await code(lab.api.gpu.import({ text: readFileSync(resolve(__dirname, '../fixtures/real/errors/no-driver.jsonl'), 'utf8'), fileName: 'C:\\out\\no-driver.jsonl' }));
    expect(e.code).toBe('invalid-args');
    expect(e.message).toBe('no-driver.jsonl: line 1: the program failed: cudaGetDevice: cudaErrorInsufficientDriver: CUDA driver version is insufficient for CUDA runtime version');
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
