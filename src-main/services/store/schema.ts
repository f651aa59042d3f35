/**
 * The database schema as an ordered list of migrations. A migration is never edited once
 * released: a change to the schema is a new migration with the next version number.
 *
 * Layout (version 1):
 * - meta: key/value; `schema_version` and the app version that last migrated the file.
 * - runs: one row per run, without blobs (the library's list query reads this table only). The
 *   preset snapshot is its last column. Trigger `runs_finished_immutable` refuses any change to a
 *   finished run except its title and notes.
 * - run_tags: a run's tags (mutable), indexed for the tag filter.
 * - run_results: tables, findings and notes of a done run (JSON).
 * - run_series: one row per series: its metadata as JSON, x and y as little-endian float64 blobs.
 * - run_traces: the per-access trace of a done run, one blob per typed array.
 *   The result tables take rows only while their run is unfinished: triggers refuse inserts,
 *   updates and deletes once it is finished (deleting the run itself cascades).
 * - custom_presets: the user's presets as JSON (validated before they get here).
 * - comparisons, comparison_runs: saved comparisons; deleting a run drops it from them.
 */
import type Database from 'better-sqlite3';
import { SWEEPS_SQL } from '../sweep/schema';

export interface Migration {
  version: number;
  name: string;
  up(db: Database.Database): void;
}

/** PRAGMA application_id of a GPU Memory Lab database ("GML1"). */
export const APPLICATION_ID = 0x474d4c31;

const FINISHED = "('done', 'failed', 'cancelled', 'interrupted')";

/** Columns of `runs` that never change once the run is finished (all but title and notes). */
const FROZEN_COLUMNS = [
  'id',
  'experiment',
  'preset_id',
  'preset_name',
  'params_json',
  'seed',
  'sim_version',
  'status',
  'error',
  'created_at',
  'started_at',
  'finished_at',
  'duration_ms',
  'preset_json',
];

function childGuards(table: string): string {
  const parentFinished = (row: 'NEW' | 'OLD') => `(SELECT status FROM runs WHERE id = ${row}.run_id) IN ${FINISHED}`;
  const msg = (verb: string) => `'${table}: the run is finished; its results cannot be ${verb}'`;
  return `
    CREATE TRIGGER ${table}_insert_guard BEFORE INSERT ON ${table} WHEN ${parentFinished('NEW')}
    BEGIN SELECT RAISE(ABORT, ${msg('added')}); END;
    CREATE TRIGGER ${table}_update_guard BEFORE UPDATE ON ${table} WHEN ${parentFinished('OLD')} OR ${parentFinished('NEW')}
    BEGIN SELECT RAISE(ABORT, ${msg('changed')}); END;
    CREATE TRIGGER ${table}_delete_guard BEFORE DELETE ON ${table} WHEN ${parentFinished('OLD')}
    BEGIN SELECT RAISE(ABORT, ${msg('removed')}); END;`;
}

const V1 = `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;

  CREATE TABLE runs (
    id TEXT PRIMARY KEY,
    experiment TEXT NOT NULL,
    title TEXT NOT NULL DEFAULT '',
    preset_id TEXT NOT NULL,
    preset_name TEXT NOT NULL,
    params_json TEXT NOT NULL,
    seed INTEGER NOT NULL,
    sim_version TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed', 'cancelled', 'interrupted')),
    error TEXT,
    created_at INTEGER NOT NULL,
    started_at INTEGER,
    finished_at INTEGER,
    duration_ms REAL,
    notes TEXT NOT NULL DEFAULT '',
    preset_json TEXT NOT NULL
  ) STRICT;
  -- One index per sort order of the library (query.ts), so that a page is read in order without
  -- sorting the table; the experiment, preset and status ones also serve their filters.
  CREATE INDEX runs_created ON runs (created_at, id);
  CREATE INDEX runs_title ON runs (title COLLATE NOCASE, id);
  CREATE INDEX runs_experiment ON runs (experiment, created_at, id);
  CREATE INDEX runs_preset_name ON runs (preset_name COLLATE NOCASE, created_at, id);
  CREATE INDEX runs_preset ON runs (preset_id, created_at, id);
  CREATE INDEX runs_status ON runs (status, created_at, id);
  -- Durations sort with the runs that have none last, in both directions (see query.ts).
  CREATE INDEX runs_duration_asc ON runs (duration_ms IS NULL, duration_ms, id);
  CREATE INDEX runs_duration_desc ON runs (duration_ms IS NOT NULL, duration_ms, id);

  CREATE TRIGGER runs_finished_immutable BEFORE UPDATE ON runs
  WHEN OLD.status IN ${FINISHED} AND (${FROZEN_COLUMNS.map((c) => `NEW.${c} IS NOT OLD.${c}`).join(' OR ')})
  BEGIN SELECT RAISE(ABORT, 'runs: the run is finished; only its title, tags and notes can change'); END;

  CREATE TABLE run_tags (
    run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    tag TEXT NOT NULL,
    PRIMARY KEY (run_id, tag)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX run_tags_tag ON run_tags (tag, run_id);

  CREATE TABLE run_results (
    run_id TEXT PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
    tables_json TEXT NOT NULL,
    findings_json TEXT NOT NULL,
    notes_json TEXT NOT NULL
  ) STRICT;

  CREATE TABLE run_series (
    run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    meta_json TEXT NOT NULL,
    points INTEGER NOT NULL,
    x BLOB NOT NULL,
    y BLOB NOT NULL,
    PRIMARY KEY (run_id, position)
  ) STRICT;

  CREATE TABLE run_traces (
    run_id TEXT PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
    meta_json TEXT NOT NULL,
    accesses INTEGER NOT NULL,
    address BLOB NOT NULL,
    latency BLOB NOT NULL,
    level BLOB NOT NULL,
    tlb BLOB NOT NULL,
    set_index BLOB NOT NULL,
    way BLOB NOT NULL,
    evicted BLOB NOT NULL
  ) STRICT;

  ${childGuards('run_results')}
  ${childGuards('run_series')}
  ${childGuards('run_traces')}

  CREATE TABLE custom_presets (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    preset_json TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  ) STRICT;

  CREATE TABLE comparisons (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    notes TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  ) STRICT;
  CREATE TABLE comparison_runs (
    comparison_id TEXT NOT NULL REFERENCES comparisons (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    PRIMARY KEY (comparison_id, position)
  ) STRICT;
  CREATE INDEX comparison_runs_run ON comparison_runs (run_id);

  PRAGMA application_id = ${APPLICATION_ID};
`;

/**
 * Version 2: real runs. `runs.device_json` holds the measured-device record (src-sim/cuda/run-record.ts
 * MeasuredDevice) of a run imported from a real GPU's program, in place of a preset: such a run's
 * `preset_json` is JSON null, its preset id and name are the device's ("real-...", "<name> (real)").
 * NULL for simulated runs. The immutability trigger is made again with the new column frozen.
 */
const V2 = `
  ALTER TABLE runs ADD COLUMN device_json TEXT;
  DROP TRIGGER runs_finished_immutable;
  CREATE TRIGGER runs_finished_immutable BEFORE UPDATE ON runs
  WHEN OLD.status IN ${FINISHED} AND (${[...FROZEN_COLUMNS, 'device_json'].map((c) => `NEW.${c} IS NOT OLD.${c}`).join(' OR ')})
  BEGIN SELECT RAISE(ABORT, 'runs: the run is finished; only its title, tags and notes can change'); END;
`;

/**
 * Version 3: who is executing the runs still queued or running, so that a process opening the
 * database marks interrupted only the runs whose owner is gone (store.ts recoverInterrupted).
 * - lab_owners: one row per process that executes runs on this file (lab service, `run --save`):
 *   its pid, host, start time and a heartbeat it refreshes while it lives; removed when it closes.
 * - run_owners: the owner of each run while it is queued or running (removed when it ends).
 */
const V3 = `
  CREATE TABLE lab_owners (
    id TEXT PRIMARY KEY,
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    heartbeat_at INTEGER NOT NULL
  ) STRICT;
  CREATE TABLE run_owners (
    run_id TEXT PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
    owner_id TEXT NOT NULL
  ) STRICT;
  CREATE INDEX run_owners_owner ON run_owners (owner_id);
`;

/** Every migration, in order. The last one's version is the schema this app writes. */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'runs, results, presets, comparisons', up: (db) => db.exec(V1) },
  { version: 2, name: 'real runs: measured-device records', up: (db) => db.exec(V2) },
  { version: 3, name: 'run owners', up: (db) => db.exec(V3) },
  { version: 4, name: 'sweeps', up: (db) => db.exec(SWEEPS_SQL) },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;
