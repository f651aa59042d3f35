/**
 * Opening a database file: identity check, health check, pragmas and migrations, in that order.
 *
 * Nothing is written before the file is known to be ours (or new): a foreign SQLite file is refused
 * as it was found (its journal mode included), and a damaged one is refused with a message that
 * names the file and what to do. An app newer than its database migrates it (each migration in its
 * own transaction, so a failed migration leaves the file at the last good version). An app older
 * than its database refuses it, naming both versions, and leaves it untouched.
 *
 * Migrations carry increasing versions; a version missing from the list (one that another branch
 * of the app adds later) is recorded in meta `missing_versions` and applied when an app that has it
 * opens the file.
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
    // Read-only checks first: nothing below writes to a file that is not ours.
    let appId: number;
    try {
      db.pragma('busy_timeout = 5000');
      appId = db.pragma('application_id', { simple: true }) as number;
    } catch (err) {
      if (isCorrupt(err)) throw damaged(file, (err as Error).message);
      const storage = storageProblem(err);
      if (storage) throw new LabError('database-invalid', `cannot use the database "${file}": ${storage}`);
      throw new LabError('database-invalid', `"${file}" is not a GPU Memory Lab database (${(err as Error).message})`);
    }
    if (appId !== 0 && appId !== APPLICATION_ID)
      throw new LabError('database-invalid', `"${file}" belongs to another application (application_id ${appId}); it is not a GPU Memory Lab database`);
    let current: number;
    try {
      current = readSchemaVersion(db, file);
      const problems = checkHealth(db, 'quick_check', 5);
      if (problems.length) throw damaged(file, problems.join('; '));
    } catch (err) {
      if (isCorrupt(err)) throw damaged(file, (err as Error).message);
      throw err;
    }
    try {
      db.pragma('journal_mode = WAL');
    } catch (err) {
      const storage = storageProblem(err);
      if (storage) throw new LabError('database-invalid', `cannot use the database "${file}": ${storage}`);
      throw err;
    }
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = NORMAL');
    if (current > target) {
      const writer = readMeta(db, 'app_version') ?? 'an unknown version';
      throw new LabError(
        'database-too-new',
        `the database "${file}" has schema version ${current} (last written by GPU Memory Lab ${writer}), but this app (GPU Memory Lab ${options.appVersion}) reads schema versions up to ${target}: update the app, or open another database`,
      );
    }
    const missing = new Set((current > 0 ? (readMeta(db, 'missing_versions') ?? '') : '').split(',').filter(Boolean).map(Number));
    let reached = current;
    for (const m of migrations) {
      if (m.version <= current && !missing.has(m.version)) continue;
      missing.delete(m.version);
      // Versions this list lacks between the last applied and this one: applied by an app that has them.
      for (let v = reached + 1; v < m.version; v++) if (!migrations.some((x) => x.version === v)) missing.add(v);
      reached = Math.max(reached, m.version);
      const step = db.transaction(() => {
        m.up(db);
        writeMeta(db, 'schema_version', String(reached));
        writeMeta(db, 'missing_versions', [...missing].sort((a, b) => a - b).join(','));
        writeMeta(db, 'app_version', options.appVersion);
      });
      try {
        step.immediate();
      } catch (err) {
        const storage = storageProblem(err);
        if (storage) throw new LabError('database-invalid', `cannot migrate the database "${file}" to schema version ${m.version} (${m.name}), left as it was: ${storage}`);
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
  if (migrations[0]!.version !== 1) throw new Error(`the first migration ("${migrations[0]!.name}") has version ${migrations[0]!.version}; expected 1`);
  migrations.forEach((m, i) => {
    if (i > 0 && !(Number.isInteger(m.version) && m.version > migrations[i - 1]!.version))
      throw new Error(`migration "${m.name}" has version ${m.version}; expected more than ${migrations[i - 1]!.version} (versions count up)`);
  });
}

/** The SQLite result code of an error SQLite raised ("SQLITE_CORRUPT_INDEX"), or null for any other error. */
function sqliteCode(err: unknown): string | null {
  if (!(err instanceof Error)) return null;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : null;
}

/**
 * An error of the disk or the file system rather than of the file's content, in words (the disk is
 * full, read-only, cannot be opened, an I/O error), with SQLite's code; null for any other error.
 * Such a file is not foreign nor damaged: it reads again once there is room or write access.
 */
export function storageProblem(err: unknown): string | null {
  const code = sqliteCode(err);
  if (code === null) return null;
  const said = `${code}: ${(err as Error).message}`;
  if (code.startsWith('SQLITE_FULL')) return `the disk is full (${said}); free some space and open it again`;
  if (code.startsWith('SQLITE_READONLY')) return `the file or its folder is read-only (${said}): a read-only disk, or no permission to write there`;
  if (code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_PERM'))
    return `the file, or the -wal and -shm files SQLite keeps beside it, cannot be opened (${said}): no permission, or a read-only folder`;
  if (code.startsWith('SQLITE_IOERR')) return `the disk could not be read or written (${said}): it may be full or failing`;
  return null;
}

/**
 * SQLite's "the file is damaged" errors: SQLITE_CORRUPT (and its extended codes), or an SQLite
 * error saying the database disk image is malformed. Only errors SQLite raised: a refusal of the
 * app (a LabError, whose message may well say "malformed" of a file being imported) never is one.
 */
export function isCorrupt(err: unknown): boolean {
  const code = sqliteCode(err);
  return code !== null && (code.startsWith('SQLITE_CORRUPT') || /malformed/i.test((err as Error).message));
}

/**
 * isCorrupt, or SQLITE_NOTADB: for a file that has opened as ours (its header read), SQLite saying
 * it is not a database means it was damaged since. At open, a foreign file is refused as not ours.
 */
export function isDamaged(err: unknown): boolean {
  return isCorrupt(err) || sqliteCode(err) === 'SQLITE_NOTADB';
}

/** What to do about a damaged database file. */
export function damagedAdvice(file: string): string {
  return `restore it from a backup, or save what still reads (gpulab runs list / bundle export --db "${file}") and start a new database`;
}

/** The refusal of a damaged database: which file, what SQLite found, and what to do. */
export function damaged(file: string, detail: string): LabError {
  return new LabError('database-invalid', `the database "${file}" is damaged (${detail.slice(0, 300)}): ${damagedAdvice(file)}; GPU Memory Lab changed nothing in it`);
}

/**
 * PRAGMA quick_check (fast: at open) or integrity_check (thorough: "gpulab db check"): the problems
 * found, at most `max`, or none.
 */
export function checkHealth(db: Database.Database, kind: 'quick_check' | 'integrity_check', max = 20): string[] {
  const rows = db.pragma(`${kind}(${max})`) as Record<string, string>[];
  const lines = rows.map((r) => String(Object.values(r)[0]));
  return lines.length === 1 && lines[0] === 'ok' ? [] : lines;
}

interface SchemaObject {
  type: string;
  name: string;
  sql: string;
}

const expectedSchemas = new WeakMap<readonly Migration[], SchemaObject[]>();

/** The tables, indexes and triggers the migrations create, read from an in-memory database they built. */
function expectedSchema(migrations: readonly Migration[]): SchemaObject[] {
  let objects = expectedSchemas.get(migrations);
  if (!objects) {
    const mem = new Database(':memory:');
    try {
      for (const m of migrations) m.up(mem);
      objects = schemaObjects(mem);
    } finally {
      mem.close();
    }
    expectedSchemas.set(migrations, objects);
  }
  return objects;
}

function schemaObjects(db: Database.Database): SchemaObject[] {
  return (db.prepare("SELECT type, name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY type, name").all() as { type: string; name: string; sql: string | null }[]).map(
    (o) => ({ type: o.type, name: o.name, sql: (o.sql ?? '').replace(/\s+/g, ' ').trim() }),
  );
}

/**
 * The differences between the file's schema and the one this version's migrations create: a table,
 * index or trigger missing, changed or added by something else. The triggers keep finished runs
 * unchanged; one dropped or emptied leaves them open to change, which integrity_check cannot see.
 */
export function schemaProblems(db: Database.Database, migrations: readonly Migration[] = MIGRATIONS): string[] {
  const want = expectedSchema(migrations);
  const have = new Map(schemaObjects(db).map((o) => [`${o.type} ${o.name}`, o]));
  const problems: string[] = [];
  const what = (o: SchemaObject) => `the ${o.type} ${o.name}${o.type === 'trigger' ? ' (it keeps finished runs unchanged)' : ''}`;
  for (const o of want) {
    const found = have.get(`${o.type} ${o.name}`);
    have.delete(`${o.type} ${o.name}`);
    if (!found) problems.push(`${what(o)} is missing`);
    else if (found.sql !== o.sql) problems.push(`${what(o)} differs from the one this version creates`);
  }
  for (const o of have.values()) problems.push(`the ${o.type} ${o.name} is not one this version creates`);
  return problems;
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
