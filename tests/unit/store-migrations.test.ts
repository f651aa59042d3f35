import { writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LabError } from '../../src-main/contract';
import type { Migration } from '../../src-main/services/store';
import { MIGRATIONS, RunStore, SCHEMA_VERSION } from '../../src-main/services/store';
import { APPLICATION_ID } from '../../src-main/services/store/schema';
import { newRun, TempDb } from './store-fixtures';

let tmp: TempDb;
beforeEach(() => (tmp = new TempDb()));
afterEach(() => tmp.cleanup());

function raw(file: string): Database.Database {
  return new Database(file);
}

function meta(file: string, key: string): string | undefined {
  const db = raw(file);
  try {
    return (db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
  } finally {
    db.close();
  }
}

function errorOf(fn: () => unknown): LabError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(LabError);
    return err as LabError;
  }
  throw new Error('expected an error');
}

/** The next schema version after this app's: a migration a newer app would bring. */
const NEXT = SCHEMA_VERSION + 1;
const v2: Migration = {
  version: NEXT,
  name: 'run ratings',
  up: (db) => db.exec("CREATE TABLE run_ratings (run_id TEXT PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE, stars INTEGER NOT NULL) STRICT; ALTER TABLE runs ADD COLUMN origin TEXT NOT NULL DEFAULT 'local';"),
};

describe('migrations', () => {
  it('creates a fresh database at the current schema version, in WAL mode, marked as ours', () => {
    const store = tmp.open();
    expect(store.schemaVersion).toBe(SCHEMA_VERSION);
    expect(store.migratedFrom).toBe(0);
    store.close();
    expect(meta(tmp.file(), 'schema_version')).toBe(String(SCHEMA_VERSION));
    expect(meta(tmp.file(), 'app_version')).toBe('0.1.0-test');
    const db = raw(tmp.file());
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('application_id', { simple: true })).toBe(APPLICATION_ID);
    db.close();
  });

  it('reopens a current database without migrating again and keeps its runs', () => {
    const a = tmp.open();
    const run = a.createRun(newRun());
    a.endRun(run.id, 'failed', 'boom');
    a.close();
    const b = tmp.open();
    expect(b.migratedFrom).toBe(SCHEMA_VERSION);
    expect(b.getSummary(run.id).status).toBe('failed');
  });

  it('upgrades an older database to a newer app, keeping its data', () => {
    const old = tmp.open({ migrations: MIGRATIONS });
    const run = old.createRun(newRun({ title: 'kept' }));
    old.endRun(run.id, 'cancelled', 'by the user');
    old.close();
    const next = tmp.open({ migrations: [...MIGRATIONS, v2], appVersion: '0.2.0' });
    expect(next.migratedFrom).toBe(SCHEMA_VERSION);
    expect(next.schemaVersion).toBe(NEXT);
    expect(next.getSummary(run.id).title).toBe('kept');
    next.close();
    expect(meta(tmp.file(), 'schema_version')).toBe(String(NEXT));
    expect(meta(tmp.file(), 'app_version')).toBe('0.2.0');
    const db = raw(tmp.file());
    expect(db.prepare('SELECT origin FROM runs').get()).toEqual({ origin: 'local' });
    db.close();
  });

  it('rolls a failing migration back and leaves the database at its last good version', () => {
    tmp.open().close();
    const broken: Migration = {
      version: NEXT,
      name: 'broken',
      up: (db) => {
        db.exec('CREATE TABLE half_done (x INTEGER)');
        throw new Error('disk on fire');
      },
    };
    const err = errorOf(() => tmp.open({ migrations: [...MIGRATIONS, broken] }));
    expect(err.message).toContain(`schema version ${NEXT} (broken) failed: disk on fire`);
    expect(meta(tmp.file(), 'schema_version')).toBe(String(SCHEMA_VERSION));
    const db = raw(tmp.file());
    expect(db.prepare("SELECT name FROM sqlite_schema WHERE name = 'half_done'").get()).toBeUndefined();
    db.close();
  });

  it('refuses a database written by a newer app, naming both versions, and leaves it untouched', () => {
    tmp.open({ migrations: [...MIGRATIONS, v2], appVersion: '0.9.0' }).close();
    const err = errorOf(() => tmp.open({ appVersion: '0.1.0' }));
    expect(err.code).toBe('database-too-new');
    expect(err.message).toContain(`schema version ${NEXT}`);
    expect(err.message).toContain('GPU Memory Lab 0.9.0');
    expect(err.message).toContain('GPU Memory Lab 0.1.0');
    expect(err.message).toContain(`up to ${SCHEMA_VERSION}`);
    expect(meta(tmp.file(), 'schema_version')).toBe(String(NEXT));
    expect(meta(tmp.file(), 'app_version')).toBe('0.9.0');
  });

  it('refuses a file that is not a database', () => {
    writeFileSync(tmp.file('junk.db'), 'this is not SQLite at all, just some text that fills the header page'.repeat(20));
    const err = errorOf(() => RunStore.open(tmp.file('junk.db')));
    expect(err.code).toBe('database-invalid');
    expect(err.message).toMatch(/not a GPU Memory Lab database/);
  });

  it("refuses another application's SQLite database instead of adding tables to it", () => {
    const db = raw(tmp.file('other.db'));
    db.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)');
    db.close();
    const err = errorOf(() => RunStore.open(tmp.file('other.db')));
    expect(err.code).toBe('database-invalid');
    const again = raw(tmp.file('other.db'));
    expect(again.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table'").get()).toEqual({ n: 1 });
    again.close();
  });

  it('refuses a migration list whose versions do not count up', () => {
    expect(() => tmp.open({ migrations: [...MIGRATIONS, { ...v2, version: SCHEMA_VERSION }] })).toThrow(/versions count up/);
    expect(() => tmp.open({ migrations: [{ ...MIGRATIONS[0]!, version: 2 }] })).toThrow(/expected 1/);
  });

  it('a version missing from the list is recorded and applied when an app that has it opens the file', () => {
    const one = MIGRATIONS[0]!;
    const owners = MIGRATIONS.find((m) => m.name === 'run owners')!;
    expect(owners.version).toBe(3);
    const middle: Migration = MIGRATIONS.find((m) => m.version === 2) ?? { version: 2, name: 'middle', up: (db) => db.exec('CREATE TABLE middle_table (x INTEGER) STRICT') };
    tmp.open({ migrations: [one, owners] }).close();
    expect(meta(tmp.file(), 'schema_version')).toBe('3');
    expect(meta(tmp.file(), 'missing_versions')).toBe('2');
    const store = tmp.open({ migrations: [one, middle, owners] });
    expect(store.schemaVersion).toBe(3);
    store.close();
    expect(meta(tmp.file(), 'missing_versions')).toBe('');
    const db = raw(tmp.file());
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name = 'lab_owners'").get()).toEqual({ n: 1 });
    db.close();
  });
});
