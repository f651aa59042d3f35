/**
 * The lab service (src-main/services/lab.ts) with a real database and real simulation processes
 * (pool size 1-2, the test-only experiments enabled in the workers).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LabEvents, RunFinishedEvent } from '../../src-main/contract';
import { LabError } from '../../src-main/contract';
import type { LabService } from '../../src-main/services/lab';
import { tsxExecArgv } from '../../src-main/services/pool';
import { RunStore } from '../../src-main/services/store';
import { defaultDbPath, userDataDir } from '../../src-main/services/paths';
import { REPRODUCTION_ROWS, rowPlans } from '../../src-sim/reference';
import { findPreset } from '../../src-sim/presets';
import { SIM_VERSION } from '../../src-sim/version';
import { inProcess, nextEvent, TempDir, TEST_CATALOGUE, testLab } from './lab-fixtures';
import { bytesOf } from './store-fixtures';
import { PRESETS } from '../../src-sim/presets';

const tmp = new TempDir();
const labs: LabService[] = [];
let dbCount = 0;

function open(options: Parameters<typeof testLab>[1] = {}) {
  const made = testLab(tmp.file(`lab-${++dbCount}.db`), options);
  labs.push(made.lab);
  return made;
}

async function refusal(p: Promise<unknown>): Promise<LabError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(LabError);
    return err as LabError;
  }
  throw new Error('the call was accepted');
}

afterEach(async () => {
  await Promise.all(labs.splice(0).map((l) => l.close()));
});
afterAll(() => tmp.remove());

describe('LabService: runs', () => {
  it('runs an experiment in a simulation process, emits its events, and stores a result byte-identical to an in-process run', async () => {
    const { lab } = open();
    const seen: string[] = [];
    const statusAtFinish: string[] = [];
    lab.on('queue.changed', () => seen.push('queue.changed'));
    lab.on('run.progress', () => seen.push('run.progress'));
    lab.on('run.finished', (e) => {
      seen.push('run.finished');
      statusAtFinish.push(lab.store.getSummary(e.runId).status);
    });
    const params = { sizeFrom: '1KB', sizeTo: '24KB', sizeStep: '1KB', jitter: 2 };
    const finished = nextEvent(lab, 'run.finished');
    const { runId } = await lab.api.runs.start({ experiment: 'pchase-average', preset: 'fermi', params, seed: 9, title: 'L1 of Fermi', tags: ['l1', 'fermi'] });
    expect(await finished).toEqual({ runId, status: 'done', error: null });
    // The store already had the result when run.finished went out.
    expect(statusAtFinish).toEqual(['done']);
    expect(seen[0]).toBe('queue.changed');
    expect(seen).toContain('run.progress');
    expect(seen.indexOf('run.finished')).toBeGreaterThan(seen.lastIndexOf('run.progress'));

    const run = await lab.api.runs.get({ id: runId });
    expect(run).toMatchObject({ status: 'done', title: 'L1 of Fermi', tags: ['fermi', 'l1'], seed: 9, simVersion: SIM_VERSION, presetId: 'fermi' });
    expect(run.durationMs).toBeGreaterThan(0);
    expect(run.params).toMatchObject({ sizeFrom: 1024, sizeTo: 24576, sizeStep: 1024, jitter: 2 });
    const expected = inProcess('pchase-average', 'fermi', params, 9);
    expect(run.result!.series.length).toBe(expected.series.length);
    run.result!.series.forEach((s, i) => {
      expect(bytesOf(s.x).equals(bytesOf(Float64Array.from(expected.series[i].x)))).toBe(true);
      expect(bytesOf(s.y).equals(bytesOf(Float64Array.from(expected.series[i].y)))).toBe(true);
    });
    expect(run.result!.findings).toEqual(expected.findings);
    expect(lab.queue()).toEqual({ queued: [], running: [] });
    expect(await lab.finished(runId)).toEqual({ runId, status: 'done', error: null });
  });

  it('cancels a queued run and a running run, each stored as cancelled; a finished run is not cancelled again', async () => {
    const { lab } = open({ poolSize: 1 });
    const executing = nextEvent(lab, 'run.progress');
    const long = await lab.api.runs.start({ experiment: 'test-sleep', preset: 'fermi', params: { ms: 60_000 } });
    const waiting = await lab.api.runs.start({ experiment: 'test-sleep', preset: 'fermi', params: { ms: 10 } });
    await executing;
    expect(lab.queue()).toEqual({ queued: [waiting.runId], running: [long.runId] });
    expect(lab.store.getSummary(long.runId).status).toBe('running');

    const events: RunFinishedEvent[] = [];
    lab.on('run.finished', (e) => events.push(e));
    expect(await lab.api.runs.cancel({ id: waiting.runId })).toEqual({ cancelled: true });
    expect(lab.store.getSummary(waiting.runId)).toMatchObject({ status: 'cancelled', error: 'cancelled before it started', startedAt: null });

    const t0 = Date.now();
    expect(await lab.api.runs.cancel({ id: long.runId })).toEqual({ cancelled: true });
    expect(Date.now() - t0).toBeLessThan(10_000);
    const cancelled = lab.store.getSummary(long.runId);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.error).toMatch(/cancel/);
    expect(events.map((e) => [e.runId, e.status])).toEqual([
      [waiting.runId, 'cancelled'],
      [long.runId, 'cancelled'],
    ]);

    expect(await lab.api.runs.cancel({ id: long.runId })).toEqual({ cancelled: false });
    const missing = await refusal(lab.api.runs.cancel({ id: '00000000-0000-4000-8000-000000000000' }));
    expect(missing.code).toBe('not-found');

    // The pool goes on: a new run on a fresh process finishes.
    const after = await lab.api.runs.start({ experiment: 'test-sleep', preset: 'fermi', params: { ms: 5 } });
    expect(await lab.finished(after.runId)).toMatchObject({ status: 'done' });
  });

  it('a run whose process crashes fails alone, with the reason stored; a run that throws fails without a stack in its message', async () => {
    const { lab } = open({ poolSize: 2 });
    const crash = await lab.api.runs.start({ experiment: 'test-crash', preset: 'fermi', params: { mode: 'exit', code: 3, afterMs: 200 } });
    const good = await lab.api.runs.start({ experiment: 'shared-bank-stride', preset: 'kepler', params: { strideTo: 8, accesses: 16 }, seed: 4 });
    const thrown = await lab.api.runs.start({ experiment: 'test-crash', preset: 'fermi', params: { mode: 'throw' } });
    const [c, g, t] = await Promise.all([lab.finished(crash.runId), lab.finished(good.runId), lab.finished(thrown.runId)]);
    expect(c.status).toBe('failed');
    expect(c.error).toMatch(/code 3/);
    expect(g).toEqual({ runId: good.runId, status: 'done', error: null });
    expect(t.status).toBe('failed');
    expect(t.error).toMatch(/test-crash: a plain error thrown by run\(\)/);
    expect(t.error).not.toMatch(/\n\s+at /);
    expect(lab.store.getSummary(crash.runId)).toMatchObject({ status: 'failed', error: c.error });
    expect(lab.store.getSummary(thrown.runId)).toMatchObject({ status: 'failed', error: t.error });
    expect((await lab.api.runs.get({ id: good.runId })).result!.series.length).toBeGreaterThan(0);
  });

  it("a simulation process survives a terminal's Ctrl+C (SIGINT to the process group): the owner decides how its run ends", async () => {
    const { lab } = open({ poolSize: 1 });
    const executing = nextEvent(lab, 'run.progress');
    const { runId } = await lab.api.runs.start({ experiment: 'test-sleep', preset: 'fermi', params: { ms: 1_500 } });
    await executing;
    const pid = lab.pool.processInfo().find((p) => p.runId === runId)!.pid!;
    process.kill(pid, 'SIGINT');
    process.kill(pid, 'SIGHUP');
    expect(await lab.finished(runId)).toEqual({ runId, status: 'done', error: null });
  });

  it('refuses bad runs before storing anything: unknown experiment, parameter or preset, too much work, bad values', async () => {
    const { lab } = open();
    const cases: [unknown, string][] = [
      [{ experiment: 'no-such-experiment', preset: 'fermi' }, 'invalid-args'],
      [{ experiment: 'pchase-average', preset: 'no-such-gpu' }, 'not-found'],
      [{ experiment: 'pchase-average', preset: 'fermi', params: { nope: 1 } }, 'invalid-args'],
      [{ experiment: 'pchase-average', preset: 'fermi', params: { sizeFrom: 'lots' } }, 'invalid-args'],
      [{ experiment: 'pchase-average', preset: 'fermi', params: { sizeFrom: '1KB', sizeTo: '16GB', sizeStep: '4B' } }, 'invalid-args'],
      [{ experiment: 'pchase-average', preset: 'fermi', seed: -1 }, 'invalid-args'],
      [{ experiment: 'pchase-average', preset: 'fermi', colour: 'red' }, 'invalid-args'],
      [JSON.parse('{"experiment":"pchase-average","preset":"fermi","params":{"__proto__":{"x":1}}}'), 'invalid-args'],
    ];
    for (const [args, code] of cases) {
      const out = await lab.dispatch('runs.start', args);
      expect(out.ok, JSON.stringify(args)).toBe(false);
      if (!out.ok) expect(out.error.code, JSON.stringify(args)).toBe(code);
    }
    // A parameter's refusal names its path, as parseArgs does, so a form can put it beside the field.
    const bad = await lab.dispatch('runs.start', { experiment: 'pchase-average', preset: 'fermi', params: { sizeFrom: 'lots' } });
    expect(bad.ok ? '' : bad.error.message).toMatch(/^runs\.start: params\.sizeFrom: .*4 B to 16 GB/);
    expect(lab.store.listRuns({}).total).toBe(0);
    expect(lab.queue()).toEqual({ queued: [], running: [] });
  });

  it('runs.check says what runs.start would refuse, and the work it would accept, storing nothing', async () => {
    const { lab } = open();
    const ok = await lab.api.runs.check({ experiment: 'pchase-average', preset: 'fermi', params: { sizeFrom: '1KB', sizeTo: '4KB' } });
    expect(ok).toMatchObject({ ok: true });
    expect(ok.ok && ok.estimate).toBeGreaterThan(0);
    const refused: Record<string, string>[] = [{ sizeFrom: '64KB', sizeTo: '4KB' }, { sizeFrom: '1KB', sizeTo: '16GB', sizeStep: '4B' }];
    for (const params of refused) {
      const r = await lab.api.runs.check({ experiment: 'pchase-average', preset: 'fermi', params });
      const s = await lab.dispatch('runs.start', { experiment: 'pchase-average', preset: 'fermi', params });
      expect(r.ok).toBe(false);
      expect(s.ok).toBe(false);
      // The same reason, and the parameter it names (the form places it beside that field).
      if (!r.ok && !s.ok) {
        expect(s.error.message).toBe(`runs.start: ${r.param ? `params.${r.param}: ` : ''}${r.message}`);
        expect(r.param).toMatch(/^size/);
      }
    }
    expect(lab.store.listRuns({}).total).toBe(0);
    expect(lab.queue()).toEqual({ queued: [], running: [] });
    // No run of the experiment has finished on this machine: no duration is claimed.
    expect((ok as { seconds?: number }).seconds).toBeUndefined();
    const { runId } = await lab.api.runs.start({ experiment: 'pchase-average', preset: 'fermi', params: { sizeFrom: '1KB', sizeTo: '64KB' } });
    await lab.finished(runId);
    // After one: a duration from its time per unit of work, larger for a larger run.
    const small = await lab.api.runs.check({ experiment: 'pchase-average', preset: 'fermi', params: { sizeFrom: '1KB', sizeTo: '64KB' } });
    const large = await lab.api.runs.check({ experiment: 'pchase-average', preset: 'fermi', params: { sizeFrom: '1KB', sizeTo: '8MB', sizeStep: '64KB' } });
    expect(small, JSON.stringify(small)).toMatchObject({ ok: true });
    expect(large, JSON.stringify(large)).toMatchObject({ ok: true });
    expect(small.ok && small.seconds).toBeGreaterThanOrEqual(0);
    expect(large.ok && large.seconds).toBeGreaterThan(small.ok ? small.seconds! : Infinity);
  });

  it('runs on a custom preset store its snapshot; the snapshot stays when the preset changes', async () => {
    const { lab } = open();
    const mine = { ...structuredClone(findPreset('fermi')!), id: 'my-fermi', name: 'My Fermi' };
    expect(await lab.api.presets.saveCustom({ preset: mine as unknown as Record<string, unknown> })).toMatchObject({ id: 'my-fermi', builtin: false });
    const list = await lab.api.presets.list();
    expect(list.map((p) => p.id)).toEqual([...PRESETS.map((p) => p.id), 'my-fermi']);
    const { runId } = await lab.api.runs.start({ experiment: 'shared-bank-stride', preset: 'my-fermi', params: { strideTo: 4, accesses: 16 } });
    await lab.finished(runId);
    await lab.api.presets.saveCustom({ preset: { ...mine, name: 'Renamed' } as unknown as Record<string, unknown> });
    const run = await lab.api.runs.get({ id: runId });
    expect(run.status).toBe('done');
    expect(run.preset!.name).toBe('My Fermi');
    expect(run.presetName).toBe('My Fermi');
  });
});

describe('LabService: the other calls', () => {
  let lab: LabService;
  let runIds: string[];

  beforeAll(async () => {
    lab = testLab(tmp.file('calls.db')).lab;
    const started = await Promise.all(
      ['fermi', 'kepler'].map((preset, i) => lab.api.runs.start({ experiment: 'shared-bank-stride', preset, params: { strideTo: 8, accesses: 16 }, seed: i + 1 })),
    );
    runIds = started.map((s) => s.runId);
    await Promise.all(runIds.map((id) => lab.finished(id)));
  });
  afterAll(() => lab.close());

  it('lists experiments with their schemas, presets, and versions', async () => {
    const experiments = await lab.api.experiments.list();
    expect(experiments.map((e) => e.id)).toEqual(TEST_CATALOGUE.map((e) => e.id));
    const avg = experiments.find((e) => e.id === 'pchase-average')!;
    expect(avg.params.find((p) => p.name === 'sizeFrom')).toMatchObject({ kind: 'bytes', unit: 'B' });
    expect(avg.reproduces.length).toBeGreaterThan(0);
    // The REPRODUCTION.md rows among them, with their titles (the gallery shows them), and only those.
    const tlb = experiments.find((e) => e.id === 'tlb-probes')!;
    expect(tlb.rows!.find((r) => r.id === 'MEI-K512')).toMatchObject({ id: 'MEI-K512', paper: 'MEI', title: 'Kepler page-table activation window', presets: ['kepler'] });
    // With its runs: the window probe on Kepler, as the row's paper values name it.
    const k512 = REPRODUCTION_ROWS.find((r) => r.id === 'MEI-K512')!;
    expect(tlb.rows!.find((r) => r.id === 'MEI-K512')!.plans).toEqual(rowPlans(k512, 'tlb-probes'));
    // The window probe on Kepler, whose references name their runs.
    expect(rowPlans(k512, 'tlb-probes')[0]).toMatchObject({ preset: 'kepler', named: true });
    expect(rowPlans(k512, 'tlb-probes')[0]!.params.every((p) => p.probe === 'window')).toBe(true);
    expect(avg.rows!.map((r) => r.id).every((id) => avg.reproduces.includes(id))).toBe(true);
    expect(avg.rows!.map((r) => r.id)).not.toContain('WONG-F13');
    expect(await lab.api.app.version()).toEqual({ app: '0.1.0-test', simulator: SIM_VERSION, schema: lab.store.schemaVersion, node: process.versions.node, electron: null });
    expect((await lab.api.presets.get({ id: 'titan' })).builtin).toBe(true);
  });

  it('updates, lists, compares, bundles and exports runs', async () => {
    const updated = await lab.api.runs.update({ id: runIds[0], title: 'renamed', tags: ['b', 'a'] });
    expect(updated).toMatchObject({ title: 'renamed', tags: ['a', 'b'] });
    expect((await lab.api.runs.list({ tag: 'a' })).items.map((r) => r.id)).toEqual([runIds[0]]);

    const cmp = await lab.api.comparisons.save({ name: 'banks', runIds });
    expect((await lab.api.comparisons.list()).map((c) => c.id)).toEqual([cmp.id]);
    expect(await lab.api.comparisons.get({ id: cmp.id })).toMatchObject({ runIds });

    const csv = await lab.api.exports.csv({ runIds });
    expect(csv.mimeType).toMatch(/csv/);
    expect(new TextDecoder().decode(csv.bytes)).toContain('# gpulab comparison csv');
    const pdf = await lab.api.exports.pdf({ runIds: [runIds[0]], title: 'Banks' });
    expect(Buffer.from(pdf.bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    // Raw data (the result tables) only when asked for: a longer file.
    const withRaw = await lab.api.exports.pdf({ runIds: [runIds[0]], title: 'Banks', raw: true });
    expect(withRaw.bytes.byteLength).toBeGreaterThan(pdf.bytes.byteLength);

    const bundle = await lab.api.bundles.export({ runIds });
    expect(await lab.api.runs.delete({ ids: runIds })).toEqual({ deleted: 2 });
    expect(await lab.api.bundles.import({ bytes: bundle.bytes as Uint8Array<ArrayBuffer> })).toEqual({ imported: runIds, skipped: [] });
    expect(await lab.api.comparisons.delete({ id: cmp.id })).toEqual({ deleted: true });
  });

  it('reproduces a row on its presets and on a chosen preset; an unknown row is not found', async () => {
    const progress: LabEvents['reproduce.progress'][] = [];
    const off = lab.on('reproduce.progress', (p) => progress.push(p));
    const rows = await lab.api.reproduce.rows({ selector: 'MEI-T3' });
    off();
    // Two jobs (one a preset), each in a process of its own: told as each starts and ends, then done.
    expect(progress[0].done).toBe(0);
    expect(progress.map((p) => p.total).every((t) => t === 2)).toBe(true);
    expect(progress.map((p) => p.done)).toEqual([...progress.map((p) => p.done)].sort((a, b) => a - b));
    expect(progress.some((p) => p.phase.includes('MEI-T3 on fermi'))).toBe(true);
    expect(progress.some((p) => p.phase.includes('MEI-T3 on kepler'))).toBe(true);
    expect(progress.at(-1)).toEqual({ done: 2, total: 2, phase: 'done' });
    expect(rows.map((r) => r.preset)).toEqual(['fermi', 'kepler']);
    expect(rows.every((r) => r.pass)).toBe(true);
    const one = await lab.api.reproduce.rows({ selector: 'MEI-T3', preset: 'kepler' });
    expect(one).toEqual([rows[1]]);
    expect((await refusal(lab.api.reproduce.rows({ selector: 'MEI-T99' }))).code).toBe('not-found');
  });

  it('reproduces rows in a simulation process: this process answers meanwhile, a second one is refused while it runs, it can be cancelled, closing the lab stops it', async () => {
    const order: string[] = [];
    // MEI-T4 runs in a process started for it (a quarter of a second of simulation after its start-up);
    // the call below is answered long before.
    const rows = lab.api.reproduce.rows({ selector: 'MEI-T4' }).then((r) => {
      order.push('rows');
      return r;
    });
    await nextEvent(lab, 'reproduce.progress');
    const version = await lab.api.app.version();
    order.push('version');
    expect(version.app).toBe('0.1.0-test');
    expect((await refusal(lab.api.reproduce.rows({ selector: 'MEI-T3' }))).message).toMatch(/already running/);
    const done = await rows;
    expect(order).toEqual(['version', 'rows']);
    expect(done.map((r) => [r.id, r.preset, r.pass])).toEqual([['MEI-T4', 'fermi', true]]);

    // Cancelled: the call is refused as cancelled, and the next scorecard runs.
    expect(await lab.api.reproduce.cancel({})).toEqual({ cancelled: false });
    const cancelled = refusal(lab.api.reproduce.rows({ selector: 'MEI-T4' }));
    await nextEvent(lab, 'reproduce.progress');
    expect(await lab.api.reproduce.cancel({})).toEqual({ cancelled: true });
    const c = await cancelled;
    expect([c.code, c.message]).toEqual(['conflict', 'the scorecard was cancelled']);
    expect((await lab.api.reproduce.rows({ selector: 'MEI-T3', preset: 'kepler' })).map((r) => r.pass)).toEqual([true]);

    // The lab closes while a scorecard runs: the call is refused as the lab shutting down.
    const { lab: other } = open();
    const pending = refusal(other.api.reproduce.rows({ selector: 'MEI-T4' }));
    await nextEvent(other, 'reproduce.progress');
    await other.close();
    const err = await pending;
    expect(err.code).toBe('conflict');
    expect(err.message).toMatch(/shutting down/);
  });

  it("reproduce.references puts the papers' values beside a run's findings, checked, without simulating", async () => {
    // MEI Table 3 on Fermi: the L1-on values sit beside a run in the global space; the L1-off ones stay unmatched.
    const { runId } = await lab.api.runs.start({ experiment: 'global-latency-patterns', preset: 'fermi', params: { space: 'global' } });
    await lab.finished(runId);
    const refs = await lab.api.reproduce.references({ runId });
    expect(refs.runId).toBe(runId);
    expect(refs.rows.map((r) => [r.id, r.paper])).toEqual([['MEI-T3', 'MEI']]);
    const findings = (await lab.api.runs.get({ id: runId })).result!.findings;
    expect(refs.findings.map((f) => f.key)).toEqual(['pattern1.latency', 'pattern2.latency', 'pattern3.latency', 'pattern4.latency', 'pattern5.latency']);
    for (const f of refs.findings) {
      expect(f.paper.rowIds).toEqual(['MEI-T3']);
      expect(f.paper.reference.name).toMatch(/^L1 on, pattern \d$/);
      expect(f.paper.reference.citation).toMatch(/^MEI Table 3/);
      // The check is src-sim's, on the stored finding.
      const value = findings.find((x) => x.key === f.key)!.value as number;
      expect(f.check.simulated).toBe(`${value} cycles`);
      expect(f.check.pass).toBe(Math.abs(value - (f.paper.reference.value as number)) <= 0.05 * (f.paper.reference.value as number));
    }
    expect(refs.unmatched.map((u) => u.reference.name)).toContain('L1 off, pattern 1');
    // A run of the same experiment bypassing L1 gets the other half.
    const cg = await lab.api.runs.start({ experiment: 'global-latency-patterns', preset: 'fermi', params: { space: 'global-cg' } });
    await lab.finished(cg.runId);
    const off = await lab.api.reproduce.references({ runId: cg.runId });
    expect(off.findings.map((f) => f.paper.reference.name)).toEqual(['L1 off, pattern 1', 'L1 off, pattern 2', 'L1 off, pattern 3', 'L1 off, pattern 4', 'L1 off, pattern 5']);
    // MEI Fig 5's values name the bank-stride sweep of strides 0..64: a run with the experiment's
    // defaults (that sweep) takes them, a shorter sweep (strides 0..8) does not.
    const sweep = await lab.api.runs.start({ experiment: 'shared-bank-stride', preset: 'fermi', params: {} });
    await lab.finished(sweep.runId);
    const f5 = await lab.api.reproduce.references({ runId: sweep.runId });
    expect(f5.findings.find((f) => f.key === 'shared.rule')?.paper.rowIds).toEqual(['MEI-F5']);
    expect(f5.findings.find((f) => f.key === 'shared.maxDegree')?.paper.rowIds).toEqual(['MEI-T1']);
    const short = await lab.api.reproduce.references({ runId: runIds[0] });
    expect(short.findings.some((f) => f.paper.rowIds.includes('MEI-F5'))).toBe(false);
    expect(short.unmatched.map((u) => u.reference.name)).toContain('degree rule');
    expect((await refusal(lab.api.reproduce.references({ runId: '00000000-0000-4000-8000-000000000000' }))).code).toBe('not-found');
    expect((await refusal(lab.api.reproduce.references({ runId: 'nope' } as never))).code).toBe('invalid-args');
    await lab.api.runs.delete({ ids: [runId, cg.runId, sweep.runId] });
  });

  it('runs.get leaves a trace out (described by traceInfo) and runs.trace returns it; a run without one has null', async () => {
    const { runId } = await lab.api.runs.start({ experiment: 'pchase-fine', preset: 'fermi', params: { iterations: 5000 } });
    await lab.finished(runId);
    const full = lab.store.getRun(runId);
    const light = await lab.api.runs.get({ id: runId });
    expect(light.result!.trace).toBeUndefined();
    expect(light.result!.traceInfo).toEqual({ accesses: 5000, dropped: 0, levelNames: full.result!.trace!.levelNames, series: ['latency', 'index'] });
    expect(light.result!.series).toEqual(full.result!.series.filter((s) => s.name !== 'latency' && s.name !== 'index'));
    expect({ ...light, result: { ...light.result!, traceInfo: undefined } }).toEqual({ ...full, result: { ...full.result!, trace: undefined, series: light.result!.series, traceInfo: undefined } });
    expect(await lab.api.runs.get({ id: runId, full: true })).toEqual(full);
    expect(await lab.api.runs.trace({ id: runId })).toEqual(full.result!.trace);
    // A run without a trace: nothing left out, no traceInfo, runs.trace null.
    const plain = await lab.api.runs.get({ id: runIds[0] });
    expect(plain.result!.traceInfo).toBeUndefined();
    expect(plain).toEqual(lab.store.getRun(runIds[0]));
    expect(await lab.api.runs.trace({ id: runIds[0] })).toBeNull();
    expect((await refusal(lab.api.runs.trace({ id: '00000000-0000-4000-8000-000000000000' }))).code).toBe('not-found');
    await lab.api.runs.delete({ ids: [runId] });
  });

  it('dispatch answers failures as { code, message } and never a stack', async () => {
    const out = await lab.dispatch('runs.get', { id: '00000000-0000-4000-8000-000000000000' });
    expect(out).toEqual({ ok: false, error: { code: 'not-found', message: expect.stringContaining('no run') } });
    const unknown = await lab.dispatch('runs.explode', {});
    expect(unknown).toMatchObject({ ok: false, error: { code: 'invalid-args' } });
    const frozen = await lab.dispatch('runs.update', { id: runIds[1], seed: 3 });
    expect(frozen).toMatchObject({ ok: false, error: { code: 'invalid-args' } });
  });
});

describe('LabService: ends of a session', () => {
  it('an internal failure reaches the caller as "internal" with its message only; the stack goes to the log', async () => {
    const { lab, log } = open();
    lab.store.close(); // the database goes away under the service
    const out = await lab.dispatch('runs.list', {});
    expect(out.ok).toBe(false);
    if (!out.ok) {
      expect(out.error.code).toBe('internal');
      expect(out.error.message).not.toMatch(/\n\s+at /);
    }
    expect(log.some((l) => /internal error: .*\n\s+at /s.test(l))).toBe(true);
  });

  it('closing the lab records queued and running runs as interrupted and refuses later calls', async () => {
    const { lab } = open({ poolSize: 1 });
    const dbPath = lab.store.file;
    const executing = nextEvent(lab, 'run.progress');
    const hang = await lab.api.runs.start({ experiment: 'test-hang', preset: 'fermi' });
    const queued = await lab.api.runs.start({ experiment: 'test-sleep', preset: 'fermi', params: { ms: 10 } });
    await executing;
    const finished: LabEvents['run.finished'][] = [];
    lab.on('run.finished', (e) => finished.push(e));
    await lab.close();
    expect(finished.map((e) => [e.runId, e.status]).sort()).toEqual(
      [
        [hang.runId, 'interrupted'],
        [queued.runId, 'interrupted'],
      ].sort(),
    );
    expect((await lab.dispatch('app.version', {})).ok).toBe(false);
    const store = RunStore.open(dbPath, { recoverInterrupted: false });
    try {
      expect(store.getSummary(hang.runId)).toMatchObject({ status: 'interrupted' });
      expect(store.getSummary(queued.runId)).toMatchObject({ status: 'interrupted', startedAt: null });
    } finally {
      store.close();
    }
  });

  it('after the main process is killed, the next lab on the database marks its runs interrupted', async () => {
    const dbPath = tmp.file('killed.db');
    const child = spawn(process.execPath, [...tsxExecArgv(), fileURLToPath(new URL('./fixtures/lab-hang-child.ts', import.meta.url)), dbPath], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes('\n')) resolve(out.split('\n')[0]);
      });
      child.on('exit', (code) => reject(new Error(`the child exited (${code}) before its run started: ${stderr}`)));
    });
    const { runId, queuedId, workerPid } = JSON.parse(line) as { runId: string; queuedId: string; workerPid: number | null };
    expect(workerPid).toBeGreaterThan(0);

    // A reader (no recovery) sees the run as the killed process left it.
    const reader = RunStore.open(dbPath, { recoverInterrupted: false });
    expect(reader.getSummary(runId).status).toBe('running');
    expect(reader.getSummary(queuedId).status).toBe('queued');
    reader.close();

    const exited = new Promise((r) => child.on('exit', r));
    process.kill(child.pid!, 'SIGKILL');
    await exited;
    // Its simulation process is blocked in the hanging run and would outlive it: end it too.
    try {
      process.kill(workerPid!, 'SIGKILL');
    } catch {
      // already gone
    }

    const { lab } = open({ dbPath });
    expect(lab.store.recovered).toBe(2);
    expect(lab.store.getSummary(runId)).toMatchObject({ status: 'interrupted', error: expect.stringMatching(/while this run was running/) });
    expect(lab.store.getSummary(queuedId)).toMatchObject({ status: 'interrupted', error: expect.stringMatching(/before this run started/) });
  });
});

describe('default database path', () => {
  it("is the desktop app's user-data folder on each platform", () => {
    expect(defaultDbPath({ platform: 'linux', env: {}, home: '/home/ada' })).toBe('/home/ada/.config/gpu-memory-lab/lab.db');
    expect(defaultDbPath({ platform: 'linux', env: { XDG_CONFIG_HOME: '/cfg' }, home: '/home/ada' })).toBe('/cfg/gpu-memory-lab/lab.db');
    expect(userDataDir({ platform: 'linux', env: { XDG_CONFIG_HOME: 'relative' }, home: '/home/ada' })).toBe('/home/ada/.config/gpu-memory-lab');
    expect(defaultDbPath({ platform: 'darwin', env: {}, home: '/Users/ada' })).toBe('/Users/ada/Library/Application Support/gpu-memory-lab/lab.db');
    expect(defaultDbPath({ platform: 'win32', env: { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' }, home: 'C:\\Users\\ada' })).toBe(
      'C:\\Users\\ada\\AppData\\Roaming\\gpu-memory-lab\\lab.db',
    );
  });
});
