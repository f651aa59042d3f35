/**
 * Opening a database file: pragmas, identity check and migrations.
 *
 * An app newer than its database migrates it (each migration in its own transaction, so a failed
 * migration leaves the file at the last good version). An app older than its database refuses it,
 * naming both versions, and leaves it untouched.
 */
import Database from 'better-sqlite3';
import { LabError } from '../../contract';
import type { Migration } from './schema';
import { APPLICATION_ID, MIGRATIONS } from './schema';

export interface OpenDatabaseOptions {
  /** The app's version, recorded with each migration and named in errors. */
  appVersion: string;
  /** Tests give their own list; the app uses MIGRATIONS. */
  migrations?: readonly Migration[];
}

export interface OpenedDatabase {
  db: Database.Database;
  /** Schema version of the file before opening (0 for a new file). */
  fromVersion: number;
  schemaVersion: number;
}

export function openDatabase(file: string, options: OpenDatabaseOptions): OpenedDatabase {
  const migrations = options.migrations ?? MIGRATIONS;
  checkMigrations(migrations);
  const target = migrations[migrations.length - 1].version;
  let db: Database.Database;
  try {
    db = new Database(file);
  } catch (err) {
    throw new LabError('database-invalid', `cannot open the database "${file}": ${(err as Error).message}`);
  }
  try {
    try {
      db.pragma('busy_timeout = 5000');
      db.pragma('journal_mode = WAL');
    } catch (err) {
      throw new LabError('database-invalid', `"${file}" is not a GPU Memory Lab database (${(err as Error).message})`);
    }
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = NORMAL');
    const appId = db.pragma('application_id', { simple: true }) as number;
    if (appId !== 0 && appId !== APPLICATION_ID)
      throw new LabError('database-invalid', `"${file}" belongs to another application (application_id ${appId}); it is not a GPU Memory Lab database`);
    const current = readSchemaVersion(db, file);
    if (current > target) {
      const writer = readMeta(db, 'app_version') ?? 'an unknown version';
      throw new LabError(
        'database-too-new',
        `the database "${file}" has schema version ${current} (last written by GPU Memory Lab ${writer}), but this app (GPU Memory Lab ${options.appVersion}) reads schema versions up to ${target}: update the app, or open another database`,
      );
    }
    for (const m of migrations) {
      if (m.version <= current) continue;
      const step = db.transaction(() => {
        m.up(db);
        writeMeta(db, 'schema_version', String(m.version));
        writeMeta(db, 'app_version', options.appVersion);
      });
      try {
        step.immediate();
      } catch (err) {
        throw new LabError('internal', `migrating "${file}" to schema version ${m.version} (${m.name}) failed: ${(err as Error).message}`);
      }
    }
    return { db, fromVersion: current, schemaVersion: target };
  } catch (err) {
    db.close();
    throw err;
  }
}

function checkMigrations(migrations: readonly Migration[]): void {
  if (migrations.length === 0) throw new Error('no migrations');
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migration "${m.name}" has version ${m.version}; expected ${i + 1} (versions count up from 1 without gaps)`);
  });
}

function hasTable(db: Database.Database, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

/** 0 for an empty file; refuses a file with tables but no schema version (not ours). */
function readSchemaVersion(db: Database.Database, file: string): number {
  if (!hasTable(db, 'meta')) {
    const tables = db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table'").get() as { n: number };
    if (tables.n > 0) throw new LabError('database-invalid', `"${file}" has tables but no GPU Memory Lab schema version: it is not a GPU Memory Lab database`);
    return 0;
  }
  const v = readMeta(db, 'schema_version');
  const n = v === undefined ? NaN : Number(v);
  if (!Number.isInteger(n) || n < 1) throw new LabError('database-invalid', `"${file}" records an invalid schema version ("${v}")`);
  return n;
}

export function readMeta(db: Database.Database, key: string): string | undefined {
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value;
}

export function writeMeta(db: Database.Database, key: string, value: string): void {
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
}
