/**
 * Real runs in the store: the version 2 migration, a real run saved and read back (its device
 * record in place of a preset, immutable), bundles that carry and check the device, the CSV and
 * PDF of a real run, `gpulab gpu import --save` and `gpu preset`, and the preset made from a run.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LabError } from '../../src-main/contract';
import { MIGRATIONS } from '../../src-main/services/store';
import { exportCsv } from '../../src-main/services/export';
import { closestPreset, presetFromRealRun } from '../../src-sim/cuda/preset-from-run';
import { realDeviceId, realRunRecord } from '../../src-sim/cuda/run-record';
import { PRESETS, findPreset } from '../../src-sim/presets';
import { validatePreset } from '../../src-sim/presets/validate';
import { Clock, newRun, sampleResult, TempDb } from './store-fixtures';

const ROOT = resolve(__dirname, '../..');
const FIXTURES = join(ROOT, 'tests/fixtures/real/h100');
const fixture = (name: string): string => readFileSync(join(FIXTURES, `${name}.jsonl`), 'utf8');
const record = (name: string, at = Date.UTC(2026, 10, 20)) => realRunRecord(fixture(name), { source: `${name}.jsonl`, measuredAt: at });

let tmp: TempDb;
let clock: Clock;
beforeEach(() => {
  tmp = new TempDb();
  clock = new Clock();
});
afterEach(() => tmp.cleanup());

function errorOf(fn: () => unknown): LabError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(LabError);
    return err as LabError;
  }
  throw new Error('expected an error');
}

describe('the measured-device record', () => {
  it('comes from the device line, with the carveout asked for, the clock overhead and the origin', () => {
    const r = record('avg-l1-c50');
    const device = JSON.parse(fixture('avg-l1-c50').split('\n')[0]!) as Record<string, unknown>;
    expect(r.device).toMatchObject({ name: device.name, computeCapability: device.computeCapability, sms: device.sms, clockKHz: device.clockKHz, l2Bytes: device.l2Bytes, driverVersion: device.driverVersion });
    expect(r.device.carveout).toBe(50);
    expect(r.device.source).toBe('avg-l1-c50.jsonl');
    expect(r.device.measuredAt).toBe(Date.UTC(2026, 10, 20));
    expect(r.experiment).toBe('pchase-average');
    expect(r.result.findings.length).toBeGreaterThan(0);
    expect(realDeviceId(r.device.name)).toMatch(/^real-[a-z0-9-]+$/);
    // shared-bank-stride takes no carveout
    expect(record('banks-64').device.carveout).toBeNull();
  });
});

describe('real runs in the store', () => {
  it('the version 2 migration upgrades a version 1 database and keeps its runs', () => {
    const v1 = tmp.open({ migrations: [MIGRATIONS[0]!], now: clock.now, recoverInterrupted: false });
    expect(v1.schemaVersion).toBe(1);
    v1.close();
    // A run as version 1 wrote it (columns of version 1 only), finished.
    const run = { id: '0b8f7a36-1d6e-4c51-9a7e-5a2f3c4d5e6f' };
    const db = new Database(tmp.file());
    db.prepare(
      `INSERT INTO runs (id, experiment, title, preset_id, preset_name, params_json, seed, sim_version, status, created_at, started_at, finished_at, duration_ms, preset_json)
       VALUES (?, 'pchase-average', 'from v1', 'fermi', 'Fermi', '{}', 7, '1', 'running', 1, 1, 2, 1, ?)`,
    ).run(run.id, JSON.stringify(findPreset('fermi')));
    db.prepare(`INSERT INTO run_results (run_id, tables_json, findings_json, notes_json) VALUES (?, '[]', '[]', '[]')`).run(run.id);
    db.prepare(`UPDATE runs SET status = 'done' WHERE id = ?`).run(run.id);
    expect((db.prepare("SELECT count(*) AS n FROM pragma_table_info('runs') WHERE name = 'device_json'").get() as { n: number }).n).toBe(0);
    db.close();
    const now = tmp.open({ now: clock.now });
    expect(now.migratedFrom).toBe(1);
    expect(now.schemaVersion).toBe(MIGRATIONS[MIGRATIONS.length - 1]!.version);
    const kept = now.getRun(run.id);
    expect(kept.title).toBe('from v1');
    expect(kept.status).toBe('done');
    expect(kept.preset?.id).toBe('fermi');
    expect(kept.device).toBeUndefined();
    expect(kept.real).toBeUndefined();
    // The kept run is still immutable under the trigger made again by version 2.
    now.close();
    const raw = new Database(tmp.file());
    expect(() => raw.prepare('UPDATE runs SET device_json = ? WHERE id = ?').run('{}', run.id)).toThrow(/finished/);
    expect(() => raw.prepare('UPDATE runs SET seed = 3 WHERE id = ?').run(run.id)).toThrow(/finished/);
    raw.close();
  });

  it('saves a real run as a finished run with its device instead of a preset, and lists it as real', () => {
    const store = tmp.open({ now: clock.now });
    const r = record('banks-64');
    const saved = store.saveRealRun(r, { tags: ['h100'] });
    expect(saved).toMatchObject({ status: 'done', real: true, presetId: realDeviceId(r.device.name), presetName: `${r.device.name} (real)`, tags: ['h100'] });
    const back = store.getRun(saved.id);
    expect(back.preset).toBeNull();
    expect(back.device).toEqual(r.device);
    expect(back.params).toEqual(r.params);
    expect(back.result?.findings).toEqual(r.result.findings);
    expect(back.result?.series.map((s) => s.name)).toEqual(r.result.series.map((s) => s.name));
    // beside a simulated run in the library
    const sim = store.createRun(newRun());
    store.finishRun(sim.id, sampleResult(10, false));
    const page = store.listRuns({});
    expect(page.items.find((x) => x.id === saved.id)?.real).toBe(true);
    expect(page.items.find((x) => x.id === sim.id)?.real).toBeUndefined();
    // immutable: only title, tags and notes change
    store.updateRun(saved.id, { title: 'renamed' });
    expect(store.getSummary(saved.id).title).toBe('renamed');
    expect(errorOf(() => store.updateRun(saved.id, { seed: 2 } as never)).code).toBe('immutable');
    // no paper and no preset truth for a real run
    expect(store.getSnapshot(saved.id).preset).toBeNull();
  });

  it('refuses a device record that is not one', () => {
    const store = tmp.open({ now: clock.now });
    const r = record('banks-64');
    expect(errorOf(() => store.saveRealRun({ ...r, device: { ...r.device, sms: -1 } })).code).toBe('invalid-args');
  });

  it('a bundle carries the device record, and another database imports it as the same real run', async () => {
    const here = tmp.open({ now: clock.now }, 'here.db');
    const there = tmp.open({ now: clock.now }, 'there.db');
    const real = here.saveRealRun(record('fine-16k-warm'));
    const sim = here.createRun(newRun());
    here.finishRun(sim.id, sampleResult(10, false));
    const file = await here.exportBundle([real.id, sim.id]);
    const report = await there.importBundle(file.bytes);
    expect(report.imported.sort()).toEqual([real.id, sim.id].sort());
    const a = here.getRun(real.id);
    const b = there.getRun(real.id);
    expect(b.device).toEqual(a.device);
    expect(b.preset).toBeNull();
    expect(b.real).toBe(true);
    expect(b.result?.findings).toEqual(a.result?.findings);
    expect(Array.from(b.result!.series[0]!.y)).toEqual(Array.from(a.result!.series[0]!.y));
    expect(there.getRun(sim.id).preset?.id).toBe('fermi');
  });

  it('a bundle whose device record is damaged or disagrees with the run is refused whole', async () => {
    const here = tmp.open({ now: clock.now }, 'here.db');
    const real = here.saveRealRun(record('banks-64'));
    const file = await here.exportBundle([real.id]);
    const text = gunzipSync(file.bytes).toString('utf8');
    const rewrite = (edit: (run: Record<string, unknown>) => void): Buffer => {
      const lines = text.split('\n');
      const i = lines.findIndex((l) => l.startsWith('{"run":'));
      const obj = JSON.parse(lines[i]!) as { run: Record<string, unknown> };
      edit(obj.run);
      lines[i] = JSON.stringify(obj);
      // keep the checksum honest so that only the content check can refuse it
      const endAt = lines.findIndex((l) => l.startsWith('{"end":'));
      const body = lines.slice(0, endAt).map((l) => `${l}\n`).join('');
      const hash = createHash('sha256');
      hash.update(body);
      const end = JSON.parse(lines[endAt]!) as Record<string, unknown>;
      lines[endAt] = JSON.stringify({ ...end, sha256: hash.digest('hex') });
      return gzipSync(Buffer.from(lines.join('\n')));
    };
    for (const edit of [
      (r: Record<string, unknown>) => ((r.device as Record<string, unknown>).sms = 'many'),
      (r: Record<string, unknown>) => (r.presetName = 'Someone else (real)'),
      (r: Record<string, unknown>) => delete r.device,
    ]) {
      const there = tmp.open({ now: clock.now }, `there-${Math.random().toString(36).slice(2)}.db`);
      const err = await there.importBundle(rewrite(edit)).then(
        () => null,
        (e: unknown) => e as LabError,
      );
      expect(err?.code).toBe('invalid-bundle');
      expect(there.listRuns({}).total).toBe(0);
    }
  });

  it('the CSV of a real run names its measured device', async () => {
    const store = tmp.open({ now: clock.now });
    const real = store.saveRealRun(record('avg-l1'));
    const csv = Buffer.from((await exportCsv(store, [real.id])).bytes).toString('utf8');
    expect(csv).toContain('NVIDIA H100');
    expect(csv).toMatch(/# device,.*\(real\)/);
  });
});

describe('the PDF report of a real run', () => {
  it('names the measured device and sets no preset or paper value beside the findings', async () => {
    const store = tmp.open({ now: clock.now });
    const real = store.saveRealRun(record('banks-64'));
    const { exportPdf, reportFindings } = await import('../../src-main/services/export/pdf');
    const file = await exportPdf(store, [real.id], { appVersion: 'test' });
    expect(Buffer.from(file.bytes).subarray(0, 5).toString()).toBe('%PDF-');
    const rows = reportFindings(store.getRun(real.id));
    expect(rows.length).toBe(record('banks-64').result.findings.length);
    for (const r of rows) expect(r.verdict).toBeNull();
  });
});

describe('a preset from a real run', () => {
  it('clones the closest preset and puts in the numbers the findings give, each with where it was measured', () => {
    const avg = record('avg-l1');
    const banks = record('banks-64');
    const cc = (x: string) => Number(x);
    const closest = closestPreset(avg.device, PRESETS);
    for (const p of PRESETS) expect(Math.abs(cc(closest.computeCapability) - 9)).toBeLessThanOrEqual(Math.abs(cc(p.computeCapability) - 9));
    // Titan: an L1 of 16 KB in 64 KB of on-chip memory, a base the H100's L1 size cannot fit
    const base = findPreset('titan')!;
    const made = presetFromRealRun({ id: 'run-1', experiment: avg.experiment, params: avg.params, device: avg.device, findings: avg.result.findings }, base, { id: 'h100-l1', name: 'H100 L1' });
    const plateau = avg.result.findings.find((f) => /^s = \d+ B\.plateau1\.latency$/.test(f.key) && typeof f.value === 'number')!;
    const l1 = base.spaces.global.levels[0]!.name;
    const hitKey = Object.keys(base.spaces.global.latency).find((k) => k === `${l1}/-` || k === `${l1}/l1`)!;
    expect(made.preset.spaces.global.latency[hitKey]).toBeCloseTo(plateau.value as number, 5);
    // the TLB penalties above the hit are kept
    for (const k of Object.keys(base.spaces.global.latency).filter((x) => x.startsWith(`${l1}/`)))
      expect(made.preset.spaces.global.latency[k]! - made.preset.spaces.global.latency[hitKey]!).toBeCloseTo(base.spaces.global.latency[k]! - base.spaces.global.latency[hitKey]!, 5);
    expect(made.preset.provenance[`spaces.global.latency.${hitKey}`]).toBe(`measured on ${avg.device.name}, 2026-11-20, run run-1 (${plateau.key})`);
    expect(made.applied.map((a) => a.path)).toContain(`spaces.global.latency.${hitKey}`);
    // every number not set from the run is the base's
    expect(made.preset.spaces.global.latency[`L2/l1`]).toBe(base.spaces.global.latency['L2/l1']);
    expect(validatePreset(made.preset).ok).toBe(true);
    // the L1 size would not fit the base's on-chip memory: refused with the validator's reason, not forced in
    expect(made.skipped.find((s) => s.finding.endsWith('level1.sizeBytes') && s.reason.includes('invalid'))).toBeDefined();

    const shared = presetFromRealRun({ id: 'run-2', experiment: banks.experiment, params: banks.params, device: banks.device, findings: banks.result.findings }, base, { id: 'h100-smem', name: 'H100 smem' });
    const sb = banks.result.findings.find((f) => f.key === 'shared.base')!.value as number;
    const pc = banks.result.findings.find((f) => f.key === 'shared.perConflict')!.value as number;
    expect(shared.preset.shared.latency).toEqual({ base: sb, perConflict: pc });
    expect(shared.preset.provenance['shared.latency.base']).toMatch(/^measured on NVIDIA H100/);
  });

  it('a sweep that starts past L1 gives the L2 latency to L2, not to L1', () => {
    const l2 = record('avg-l2');
    const base = findPreset('titan')!;
    const made = presetFromRealRun({ id: 'r', experiment: l2.experiment, params: l2.params, device: l2.device, findings: l2.result.findings }, base, { id: 'x', name: 'x' });
    expect(made.applied.every((a) => a.path.startsWith('spaces.global.latency.L2/'))).toBe(true);
    expect(made.preset.spaces.global.latency['L1/l1']).toBe(base.spaces.global.latency['L1/l1']);
  });

  it('gpu.preset through the lab store: refuses a simulated run, saves a custom preset from a real one', async () => {
    const store = tmp.open({ now: clock.now });
    const { GpuService } = await import('../../src-main/services/gpu');
    const gpu = new GpuService({ store, progress: () => {} });
    const sim = store.createRun(newRun());
    store.finishRun(sim.id, sampleResult(10, false));
    expect(errorOf(() => gpu.preset({ runId: sim.id, name: 'nope' })).message).toMatch(/not measured on a real GPU/);
    const real = store.saveRealRun(record('banks-64'));
    const made = gpu.preset({ runId: real.id, name: 'My H100', base: 'fermi' });
    expect(made.base).toBe('fermi');
    expect(made.preset.id).toBe('my-h100');
    const saved = store.getPreset('my-h100').preset;
    expect(saved.provenance['shared.latency.perConflict']).toContain(`run ${real.id}`);
  });
});

describe('gpulab gpu import --save and gpu preset', () => {
  const cli = (args: string[]) => spawnSync(process.execPath, [join(ROOT, 'bin/gpulab.mjs'), ...args], { encoding: 'utf8', cwd: ROOT, timeout: 120_000 });

  it('stores the run, lists it as the real device, and makes a preset of it', () => {
    const db = tmp.file('cli.db');
    const r = cli(['gpu', 'import', join(FIXTURES, 'banks-64.jsonl'), '--save', '--db', db, '--format', 'json']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as { runId: string; device: { name: string } };
    expect(out.device.name).toMatch(/H100/);
    const list = cli(['runs', 'list', '--db', db]);
    expect(list.stdout).toContain(out.runId);
    expect(list.stdout).toContain('real-nvidia-h100');
    const show = cli(['runs', 'show', out.runId, '--db', db]);
    expect(show.stdout).toMatch(/Measured on: NVIDIA H100.*\(real\)/);
    const p = cli(['gpu', 'preset', out.runId, '--name', 'H100 shared', '--db', db]);
    expect(p.status).toBe(0);
    expect(p.stdout).toMatch(/shared\.latency\.base = 29\.08/);
  });

  it('refuses a malformed file in one line and stores nothing; --db without --save is a usage error', () => {
    const db = tmp.file('cli2.db');
    // The program's own error line: it failed (exit code 1), the file is not malformed.
    const r = cli(['gpu', 'import', join(FIXTURES, 'bad-size.jsonl'), '--save', '--db', db]);
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/bad-size\.jsonl: line 4: the program stopped with an error/);
    const n = cli(['gpu', 'import', join(FIXTURES, 'banks-64.jsonl'), '--db', db]);
    expect(n.status).toBe(2);
    expect(n.stderr).toMatch(/only with --save/);
  });
});
