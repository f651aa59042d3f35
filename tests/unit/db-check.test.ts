/**
 * "Check database": SQLite's full integrity check of the database file, as `gpulab db check`
 * (exit 0 and "ok", or exit 1 with the problems naming the file and what to do), and as the lab's
 * `app.checkDatabase` call through the browser mode's HTTP API.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readSync, statSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { RunStore } from '../../src-main/services/store';
import { startLabServer } from '../../src-main/web/server';
import { raw, TempDir, testLab } from './lab-fixtures';
import { newRun, sampleResult } from './store-fixtures';

const ROOT = resolve(__dirname, '../..');
const tmp = new TempDir();
afterAll(() => tmp.remove());

function gpulab(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src-main/cli.ts', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A database with some finished runs. */
function database(name: string, runs = 5): string {
  const file = tmp.file(name);
  const store = RunStore.open(file, { appVersion: '0.1.0-test' });
  for (let i = 0; i < runs; i++) store.finishRun(store.createRun(newRun({ title: `run ${i}` })).id, sampleResult(200, false));
  store.close();
  return file;
}

/**
 * Damage that opening the file does not notice (quick_check passes) but the full check does: an
 * entry of the runs_title index that no longer matches its row (one title's bytes changed in the
 * index's page only, keeping the page's structure and order).
 */
function damageIndex(file: string): void {
  const db = new Database(file, { readonly: true });
  const { rootpage } = db.prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'runs_title'").get() as { rootpage: number };
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.close();
  const fd = openSync(file, 'r+');
  const page = Buffer.alloc(pageSize);
  readSync(fd, page, 0, pageSize, (rootpage - 1) * pageSize);
  const at = page.indexOf('run 0');
  expect(at).toBeGreaterThan(0);
  writeSync(fd, Buffer.from('run !'), 0, 5, (rootpage - 1) * pageSize + at);
  closeSync(fd);
}

/** Damage that opening the file already refuses: pages scribbled over. */
function scribble(file: string): void {
  const fd = openSync(file, 'r+');
  const size = statSync(file).size;
  for (let at = 8192; at < size - 4096; at += 16384) writeSync(fd, Buffer.alloc(512, 0xa5), 0, 512, at);
  closeSync(fd);
}

describe('gpulab db check', { timeout: 120_000 }, () => {
  it('prints "ok" and exits 0 for a sound database', () => {
    const file = database('sound.db');
    const r = gpulab('db', 'check', '--db', file);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('ok\n');
    expect(r.stderr).toBe('');
    const j = gpulab('db', 'check', '--db', file, '--format', 'json');
    expect(JSON.parse(j.stdout)).toMatchObject({ file, ok: true, problems: [], advice: null });
  });

  it('exits 1 with each problem on its own line, naming the file and what to do', () => {
    const file = database('index.db');
    damageIndex(file);
    // Opening it does not notice (the app still opens it)...
    RunStore.open(file, { appVersion: '0.1.0-test', recoverInterrupted: false }).close();
    // ...the full check does.
    const r = gpulab('db', 'check', '--db', file);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(line.startsWith(`${file}: `)).toBe(true);
    expect(lines.slice(0, -1).join('\n')).toMatch(/runs_title/);
    expect(lines.at(-1)).toMatch(/damaged: restore it from a backup, or save what still reads/);
  });

  it('exits 1 when a trigger that keeps finished runs unchanged is dropped, emptied or added, though SQLite finds nothing wrong', () => {
    const file = database('triggers.db', 2);
    const db = new Database(file);
    const names = (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'trigger' ORDER BY name").all() as { name: string }[]).map((t) => t.name);
    expect(names).toContain('runs_finished_immutable');
    db.exec('DROP TRIGGER runs_finished_immutable');
    const emptied = names.find((n) => n.endsWith('_update_guard'))!;
    const table = emptied.replace(/_update_guard$/, '');
    db.exec(`DROP TRIGGER ${emptied}; CREATE TRIGGER ${emptied} BEFORE UPDATE ON ${table} WHEN 0 BEGIN SELECT 1; END`);
    db.exec('CREATE TRIGGER sneaky AFTER INSERT ON run_tags BEGIN SELECT 1; END');
    expect((db.pragma('integrity_check') as { integrity_check: string }[])[0]!.integrity_check).toBe('ok');
    db.close();
    const store = RunStore.open(file, { appVersion: '0.1.0-test', recoverInterrupted: false });
    const check = store.checkDatabase();
    store.close();
    expect(check.ok).toBe(false);
    expect(check.problems).toEqual([
      `the trigger ${emptied} (it keeps finished runs unchanged) differs from the one this version creates`,
      'the trigger runs_finished_immutable (it keeps finished runs unchanged) is missing',
      'the trigger sneaky is not one this version creates',
    ]);
    const r = gpulab('db', 'check', '--db', file);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${file}: the trigger runs_finished_immutable (it keeps finished runs unchanged) is missing`);
    // A sound file's schema is exactly what the migrations create.
    const sound = RunStore.open(database('sound-schema.db', 1), { appVersion: '0.1.0-test', recoverInterrupted: false });
    expect(sound.checkDatabase()).toMatchObject({ ok: true, problems: [] });
    sound.close();
  });

  it('exits 1 with the reason for a file too damaged to open, and refuses a missing one as bad input', () => {
    const file = database('scribbled.db', 40);
    scribble(file);
    const r = gpulab('db', 'check', '--db', file);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`the database "${file}" is damaged`);
    expect(r.stderr).toMatch(/restore it from a backup/);
    const missing = gpulab('db', 'check', '--db', tmp.file('nothing.db'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no database at/);
  });
});

describe('app.checkDatabase', { timeout: 60_000 }, () => {
  it('answers through the lab and the HTTP API: ok, or the problems with the file and what to do', async () => {
    const sound = database('api-sound.db');
    const damaged = database('api-index.db');
    damageIndex(damaged);
    for (const [file, ok] of [
      [sound, true],
      [damaged, false],
    ] as const) {
      const { lab } = testLab(file);
      const server = await startLabServer({ lab, staticDir: null });
      try {
        const direct = await lab.api.app.checkDatabase();
        expect(direct).toMatchObject({ file, ok });
        const r = await raw(server.port, 'POST', '/api/call/app.checkDatabase', { headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' }, body: '{}' });
        expect(r.status).toBe(200);
        const result = (JSON.parse(r.text) as { result: typeof direct }).result;
        expect(result).toMatchObject({ file, ok });
        if (ok) {
          expect(result.problems).toEqual([]);
          expect(result.advice).toBeNull();
        } else {
          expect(result.problems.join('\n')).toMatch(/runs_title/);
          expect(result.advice).toMatch(/restore it from a backup/);
        }
        // Validated like every call: no arguments.
        const bad = await raw(server.port, 'POST', '/api/call/app.checkDatabase', { headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' }, body: '{"file":"/etc/passwd"}' });
        expect(bad.status).toBe(400);
      } finally {
        await server.close();
        await lab.close();
      }
    }
  });
});
