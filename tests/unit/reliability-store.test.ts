/**
 * The store as an unlucky or hostile lab machine finds it: two processes on one database, foreign
 * and damaged files. Decompression bombs and bundles of big runs, which take gigabytes and half a
 * minute, are in tests/repro/reliability-big.test.ts (`npm run test:repro`).
 */
import { existsSync, openSync, writeSync, closeSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LabError } from '../../src-main/contract';
import { RunStore } from '../../src-main/services/store';
import { newRun, sampleResult, TempDb } from './store-fixtures';

let tmp: TempDb;
beforeEach(() => (tmp = new TempDb()));
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

describe('two processes on one database', () => {
  it("a second lab leaves the first one's queued and running runs alone; runs of an owner that is gone are interrupted", () => {
    const first = tmp.open();
    const running = first.createRun(newRun());
    first.startRun(running.id);
    const queued = first.createRun(newRun());
    expect(first.owners()).toHaveLength(1);

    const second = tmp.open();
    expect(second.recovered).toBe(0);
    expect(second.getSummary(running.id).status).toBe('running');
    expect(second.getSummary(queued.id).status).toBe('queued');
    // The first still records its outcome.
    expect(first.finishRun(running.id, sampleResult(20, false)).status).toBe('done');

    // An owner whose process is gone (this host, a pid that does not exist): its runs end at the next heartbeat.
    const raw = new Database(tmp.file());
    raw.prepare('INSERT INTO lab_owners (id, pid, host, started_at, heartbeat_at) VALUES (?, ?, ?, ?, ?)').run('dead', 2 ** 22 + 12345, hostname(), Date.now(), Date.now());
    const orphan = first.createRun(newRun());
    raw.prepare('UPDATE run_owners SET owner_id = ? WHERE run_id = ?').run('dead', orphan.id);
    raw.close();
    second.beat();
    expect(second.getSummary(orphan.id)).toMatchObject({ status: 'interrupted', error: expect.stringMatching(/before this run started/) });
    expect(second.getSummary(queued.id).status).toBe('queued');
    expect(second.owners().map((o) => o.id)).not.toContain('dead');

    // A stale heartbeat (another host, or a frozen process) counts as gone too.
    first.close();
    expect(second.owners()).toHaveLength(0); // the first removed itself: its queued run has no owner left
    const third = tmp.open();
    expect(third.getSummary(queued.id).status).toBe('interrupted');
    second.close();
    third.close();
  });

  it('a survivor that never runs anything marks a killed owner\'s runs interrupted on its own heartbeat', async () => {
    const told: { id: string; error: string }[] = [];
    const watcher = tmp.open({ heartbeatMs: 50, onInterrupted: (runs) => told.push(...runs) });
    // Another process's runs, left behind when it was killed (this host, a pid that does not exist).
    const victim = tmp.open({ recoverInterrupted: false });
    const running = victim.createRun(newRun());
    victim.startRun(running.id);
    const queued = victim.createRun(newRun());
    const raw = new Database(tmp.file());
    raw.prepare('UPDATE lab_owners SET pid = ? WHERE id = ?').run(2 ** 22 + 12345, victim.owner);
    raw.close();
    expect(watcher.getSummary(running.id).status).toBe('running');
    const deadline = Date.now() + 5_000;
    while (watcher.getSummary(queued.id).status === 'queued' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(watcher.getSummary(running.id)).toMatchObject({ status: 'interrupted', error: expect.stringMatching(/while this run was running/) });
    expect(watcher.getSummary(queued.id)).toMatchObject({ status: 'interrupted', error: expect.stringMatching(/before this run started/) });
    expect(watcher.owner).toBeNull(); // it registered as no owner: it only watched
    // Its views hear of both (the lab emits run.finished for each).
    expect(told.map((r) => r.id).sort()).toEqual([running.id, queued.id].sort());
    expect(told.find((r) => r.id === running.id)!.error).toMatch(/while this run was running/);
    watcher.close();
  });
});

describe('files that are not ours, or damaged', () => {
  it("a foreign SQLite file is refused untouched: no tables added, its journal mode kept, no WAL file", () => {
    const file = tmp.file('other.db');
    const db = new Database(file);
    db.pragma('journal_mode = DELETE');
    db.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL); INSERT INTO invoices (total) VALUES (1.5)');
    db.close();
    const before = statSync(file).mtimeMs;
    const err = errorOf(() => RunStore.open(file));
    expect(err.code).toBe('database-invalid');
    expect(err.message).toMatch(/not a GPU Memory Lab database/);
    const again = new Database(file, { readonly: true });
    expect(again.pragma('journal_mode', { simple: true })).toBe('delete');
    again.close();
    expect(existsSync(`${file}-wal`)).toBe(false);
    expect(statSync(file).mtimeMs).toBe(before);
  });

  it('a damaged database is refused with a message that names the file and what to do', () => {
    const store = tmp.open();
    for (let i = 0; i < 40; i++) store.finishRun(store.createRun(newRun()).id, sampleResult(2000, false));
    store.close();
    const file = tmp.file();
    // Scribble over pages in the middle of the file (not the header).
    const fd = openSync(file, 'r+');
    const size = statSync(file).size;
    for (let at = 8192; at < size - 4096; at += 16384) writeSync(fd, Buffer.alloc(512, 0xa5), 0, 512, at);
    closeSync(fd);
    const err = errorOf(() => RunStore.open(file));
    expect(err.code).toBe('database-invalid');
    expect(err.message).toContain(`the database "${file}" is damaged`);
    expect(err.message).toMatch(/restore it from a backup/);
  });

  it('a sound database passes the full integrity check', () => {
    const store = tmp.open();
    store.createRun(newRun());
    expect(store.checkIntegrity()).toEqual([]);
    store.close();
  });
});
