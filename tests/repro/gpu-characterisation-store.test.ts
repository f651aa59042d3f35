/**
 * A characterisation stored (src-main/services/gpu.ts): gpu.importCharacterisation replays a file's
 * probes through the analysers and stores a run per probe in a saved comparison whose notes are the
 * summary; gpu.characterise runs every probe "here" with stand-in nvcc and nvidia-smi programs (each
 * built program prints the H100 fixture of its experiment), with progress per probe; the command line's
 * `gpu import characterisation.json [--save]` and its refusals.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GpuJob } from '../../src-main/contract';
import type { LabService } from '../../src-main/services/lab';
import { runCli } from '../../src-main/cli/main';
import { writeFakeCuda } from '../unit/fake-cuda';
import { TempDir, testLab } from '../unit/lab-fixtures';

const ROOT = resolve(__dirname, '../..');
const h200 = (run: string): string => gunzipSync(readFileSync(join(ROOT, 'tests/fixtures/real/h200/characterise', `${run}.json.gz`))).toString('utf8');
const h100 = (name: string): string => readFileSync(join(ROOT, 'tests/fixtures/real/h100', `${name}.jsonl`), 'utf8');

let tmp: TempDir;
let lab: LabService;
beforeEach(() => {
  tmp = new TempDir();
});
afterEach(async () => {
  await lab?.close();
  tmp.remove();
});

/** Stand-ins: nvidia-smi lists one GPU of cc 9.0; nvcc "builds" a program that prints the H100 fixture of its experiment. */
function fakeCuda(): NodeJS.ProcessEnv {
  const outputs = tmp.file('outputs');
  mkdirSync(outputs, { recursive: true });
  const by: Record<string, string> = { 'pchase-average': 'avg-l1', 'pchase-fine': 'fine-cold-s4', 'tlb-probes': 'tlb-32m-cg', 'shared-bank-stride': 'banks-64' };
  for (const [exp, file] of Object.entries(by)) writeFileSync(join(outputs, `${exp}.jsonl`), h100(file));
  return writeFakeCuda(tmp.file('bin'), `cat "${outputs}/%s.jsonl"`);
}

describe('gpu.importCharacterisation', () => {
  it('stores a run per probe, grouped in a saved comparison whose notes are the summary', async () => {
    ({ lab } = testLab(tmp.file('lab.db'), { poolSize: 1 }));
    const r = await lab.api.gpu.importCharacterisation({ text: h200('run1'), fileName: 'characterisation.json' });
    expect(r.device).toMatch(/NVIDIA H200/);
    expect(r.probes).toHaveLength(22);
    expect(r.runIds).toHaveLength(22);
    const c = await lab.api.comparisons.get({ id: r.comparisonId });
    expect(c.name).toBe(r.name);
    expect(c.name).toMatch(/^Characterisation of NVIDIA H200 \(real\), 2026-12-02 \d\d:\d\d UTC$/);
    expect(c.runIds).toEqual(r.runIds);
    expect(c.notes).toMatch(/^Characterisation of NVIDIA H200 \(compute capability 9\.0/);
    expect(c.notes).toMatch(/L1 TLB entries\s+16 /);
    const entries = r.quantities.find((q) => q.quantity === 'L1 TLB entries')!;
    expect(entries.value).toBe(16);
    // Each run is the probe's program, measured on the device, tagged and titled for the probe.
    const tlb = await lab.api.runs.get({ id: r.runIds[r.probes.findIndex((p) => p.name === 'tlb-1GB')]! });
    expect(tlb.experiment).toBe('tlb-probes');
    expect(tlb.title).toMatch(/characterise tlb-1GB$/);
    expect(tlb.tags).toContain('characterisation');
    expect(tlb.device?.name).toBe('NVIDIA H200');
    expect((await lab.api.runs.list({ tag: 'characterisation' })).total).toBe(22);
  });

  it('refuses what is not a characterisation, or one whose probes the readings would not choose, storing nothing', async () => {
    ({ lab } = testLab(tmp.file('lab.db'), { poolSize: 1 }));
    const refuse = async (text: string) => {
      try {
        await lab.api.gpu.importCharacterisation({ text, fileName: 'c.json' });
      } catch (e) {
        return (e as Error).message;
      }
      throw new Error('accepted');
    };
    expect(await refuse('{"type":"gpulab-characterisation"')).toMatch(/^c\.json: not a characterisation file/);
    expect(await refuse('{"type":"other"}')).toMatch(/"type" is not "gpulab-characterisation"/);
    const f = JSON.parse(h200('run1'));
    f.summary.probes[2].params = ['strides=128'];
    expect(await refuse(JSON.stringify(f))).toMatch(/are not the ones its readings choose here/);
    const g = JSON.parse(h200('run1'));
    delete g.outputs.cold;
    g.summary.probes = g.summary.probes.map((p: { name: string }) => (p.name === 'cold' ? { ...p, ok: false, error: 'cudaErrorMemoryAllocation' } : p));
    // A probe that failed on the GPU (one that no later range depends on) is recorded so, and the rest stored.
    const ok = await lab.api.gpu.importCharacterisation({ text: JSON.stringify(g), fileName: 'c.json' });
    expect(ok.runIds).toHaveLength(21);
    expect(ok.probes.find((p) => p.name === 'cold')).toMatchObject({ ok: false, error: 'cudaErrorMemoryAllocation' });
    expect(ok.quantities.find((q) => q.quantity === 'device-memory fill unit')!.evidence).toMatch(/the probe failed: cudaErrorMemoryAllocation/);
    // The L2 failing takes the sweeps of its ends with it: the file's probes are then not the ones chosen.
    const h = JSON.parse(h200('run1'));
    delete h.outputs.l2;
    h.summary.probes = h.summary.probes.map((p: { name: string }) => (p.name === 'l2' ? { ...p, ok: false, error: 'cudaErrorMemoryAllocation' } : p));
    expect(await refuse(JSON.stringify(h))).toMatch(/probe 14 is tlb-2MB .* the file's l2-near-end/);
    expect((await lab.api.comparisons.list()).length).toBe(1);
  });
});

describe('gpu.characterise', () => {
  it('runs every probe here with progress, then stores the characterisation', async () => {
    ({ lab } = testLab(tmp.file('lab.db'), { poolSize: 1, gpuEnv: fakeCuda() }));
    const phases: string[] = [];
    const ended = new Promise<GpuJob>((done) => {
      const off = lab.on('gpu.progress', (j) => {
        phases.push(j.phase);
        if (['done', 'failed', 'cancelled'].includes(j.state)) {
          off();
          done(j);
        }
      });
    });
    const job = await lab.api.gpu.characterise({ timeoutS: 60 });
    expect(job.experiment).toBe('characterise');
    const last = await ended;
    expect(last.error).toBeNull();
    expect(last.state).toBe('done');
    expect(phases.some((p) => /^probe 1 \(l1\): building: /.test(p))).toBe(true);
    expect(phases.some((p) => /^probe \d+ \(banks\): running /.test(p))).toBe(true);
    const c = await lab.api.comparisons.get({ id: last.comparisonId! });
    expect(c.notes).toMatch(/^Characterisation of NVIDIA H100/);
    // Every planned probe ran and is stored: the L1 probes, nine carveouts, the cold trace, the L2, six
    // TLB strides, the banks (the stand-in's L2 probe prints the L1 fixture: no ends to sweep again).
    expect(c.runIds).toHaveLength(20);
    // A second characterisation while one goes on is refused; so is one where nothing can run.
    await lab.close();
    ({ lab } = testLab(tmp.file('lab2.db'), { poolSize: 1, gpuEnv: { PATH: tmp.file('nothing') } }));
    await expect(lab.api.gpu.characterise({})).rejects.toThrow(/gpu\.characterise cannot run here/);
  }, 60_000);
});

describe('gpulab gpu import characterisation.json', () => {
  it('prints the replayed summary; --save stores it; a broken file is refused in one line', async () => {
    const file = tmp.file('characterisation.json');
    writeFileSync(file, h200('run2'));
    const ctx = { version: '0.0.0', readFile: (f: string) => readFileSync(f, 'utf8'), status: null };
    const shown = await runCli(['gpu', 'import', file], ctx);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^Characterisation of NVIDIA H200/);
    expect(shown.stdout).toMatch(/L2 size \(1 MB steps: the last size on the far plateau\)\s+52 MB/);
    const db = tmp.file('cli.db');
    const saved = await runCli(['gpu', 'import', file, '--save', '--db', db, '--format', 'json'], ctx);
    expect(saved.code).toBe(0);
    const j = JSON.parse(saved.stdout);
    expect(j.runIds).toHaveLength(22);
    const bad = tmp.file('bad.json');
    writeFileSync(bad, '{"type":"gpulab-characterisation","format":2}');
    const refused = await runCli(['gpu', 'import', bad], ctx);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(/bad\.json: a characterisation file of format 2/);
  }, 60_000);
});
