/**
 * A disk that is full or read-only is named as such when the database is opened (src-main/services/
 * store/database.ts storageProblem), never as a foreign or damaged database: SQLite's codes mapped to
 * words, and, where this machine lets a test mount a small tmpfs (root, as in CI), the real thing.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { storageProblem } from '../../src-main/services/store/database';
import { RunStore } from '../../src-main/services/store';

const SqliteError = (Database as unknown as { SqliteError: new (message: string, code: string) => Error }).SqliteError;

describe('storageProblem', () => {
  it('names a full disk, a read-only one, a file that cannot be opened and an I/O error; other errors are not its', () => {
    expect(storageProblem(new SqliteError('database or disk is full', 'SQLITE_FULL'))).toMatch(/^the disk is full \(SQLITE_FULL: database or disk is full\)/);
    expect(storageProblem(new SqliteError('attempt to write a readonly database', 'SQLITE_READONLY'))).toMatch(/^the file or its folder is read-only/);
    expect(storageProblem(new SqliteError('attempt to write a readonly database', 'SQLITE_READONLY_DBMOVED'))).toMatch(/read-only/);
    expect(storageProblem(new SqliteError('unable to open database file', 'SQLITE_CANTOPEN'))).toMatch(/cannot be opened/);
    expect(storageProblem(new SqliteError('disk I/O error', 'SQLITE_IOERR_WRITE'))).toMatch(/^the disk could not be read or written/);
    expect(storageProblem(new SqliteError('file is not a database', 'SQLITE_NOTADB'))).toBeNull();
    expect(storageProblem(new SqliteError('database disk image is malformed', 'SQLITE_CORRUPT'))).toBeNull();
    expect(storageProblem(new Error('SQLITE_FULL'))).toBeNull();
  });
});

const base = mkdtempSync(join(tmpdir(), 'gpulab-dbdisk-'));
const mnt = join(base, 'mnt');
mkdirSync(mnt);
const mount = (...args: string[]) => spawnSync('mount', args, { encoding: 'utf8' });
const canMount = process.platform === 'linux' && mount('-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mnt).status === 0;
if (!canMount) console.log('db-storage: skipping the real full and read-only disks: this machine does not let the test mount a tmpfs (root on Linux is needed)');
afterAll(() => {
  if (canMount) spawnSync('umount', [mnt]);
  rmSync(base, { recursive: true, force: true });
});

describe.skipIf(!canMount)('a real small disk', () => {
  it('read-only: the database that was sound reads as a read-only disk, not as foreign; once writable it opens again', () => {
    const file = join(mnt, 'lab.db');
    RunStore.open(file, { appVersion: '0.0.0', recoverInterrupted: false }).close();
    expect(mount('-o', 'remount,ro', mnt).status).toBe(0);
    try {
      let said = '';
      try {
        RunStore.open(file, { appVersion: '0.0.0', recoverInterrupted: false }).close();
      } catch (e) {
        said = (e as Error).message;
      }
      expect(said).toMatch(/read-only|cannot be opened/);
      expect(said).not.toMatch(/not a GPU Memory Lab database|damaged/);
    } finally {
      expect(mount('-o', 'remount,rw', mnt).status).toBe(0);
    }
    const store = RunStore.open(file, { appVersion: '0.0.0', recoverInterrupted: false });
    expect(store.checkDatabase().ok).toBe(true);
    store.close();
  });

  it('full: a new database on a disk with no room says so (SQLite sees a full disk as full, or as an I/O error of its shared-memory file)', () => {
    const full = join(base, 'full');
    mkdirSync(full);
    expect(mount('-t', 'tmpfs', '-o', 'size=16k', 'tmpfs', full).status).toBe(0);
    try {
      let said = '';
      try {
        RunStore.open(join(full, 'lab.db'), { appVersion: '0.0.0', recoverInterrupted: false }).close();
      } catch (e) {
        said = (e as Error).message;
      }
      expect(said).toMatch(/the disk is full|it may be full or failing/);
      expect(said).not.toMatch(/not a GPU Memory Lab database|damaged/);
    } finally {
      spawnSync('umount', [full]);
    }
  });
});
