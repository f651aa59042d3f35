import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LabError } from '../../src-main/contract';
import type { RunStore } from '../../src-main/services/store';
import { BUNDLE_FORMAT, BUNDLE_VERSION } from '../../src-main/services/store';
import { bytesOf, Clock, newRun, sampleResult, TempDb } from './store-fixtures';

let tmp: TempDb;
let clock: Clock;
let here: RunStore;
let there: RunStore;
let ids: string[];

beforeEach(() => {
  tmp = new TempDb();
  clock = new Clock();
  here = tmp.open({ now: clock.now }, 'here.db');
  there = tmp.open({ now: clock.now }, 'there.db');
  const a = here.createRun(newRun({ title: 'with trace', tags: ['x', 'y'], notes: 'n' }));
  here.startRun(a.id);
  clock.advance(100);
  here.finishRun(a.id, sampleResult());
  const b = here.createRun(newRun({ experiment: 'tlb-probes' }));
  here.startRun(b.id);
  here.endRun(b.id, 'failed', 'parameter "stride" is 3 B; allowed: 4 B to 1 GB');
  const c = here.createRun(newRun({ preset: { ...structuredClone(newRun().preset), id: 'my-custom', name: 'Mine' } }));
  here.finishRun(c.id, sampleResult(30, false));
  ids = [a.id, b.id, c.id];
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

/** Everything a database holds, for "nothing changed" checks. */
function snapshot(store: RunStore) {
  const runs = store.listRuns({ limit: 500 });
  return { runs, details: runs.items.map((r) => store.getRun(r.id)), presets: store.listPresets(), comparisons: store.listComparisons() };
}

interface Envelope {
  format: string;
  version: number;
  sha256: string;
  payload: string;
  runCount: number;
}
const open = (bytes: Uint8Array): Envelope => JSON.parse(gunzipSync(bytes).toString('utf8')) as Envelope;
const seal = (env: Envelope, rehash = true): Buffer =>
  gzipSync(JSON.stringify(rehash ? { ...env, sha256: createHash('sha256').update(env.payload, 'utf8').digest('hex') } : env));

describe('bundles', () => {
  it('carries runs with their preset snapshots into another database, identical', () => {
    const file = here.exportBundle(ids);
    expect(file.mimeType).toBe('application/gzip');
    expect(file.fileName).toMatch(/^gpulab-3-runs-2026-11-01-12-00-00\.gmlbundle$/);
    const env = open(file.bytes);
    expect(env).toMatchObject({ format: BUNDLE_FORMAT, version: BUNDLE_VERSION, runCount: 3 });
    expect(there.importBundle(file.bytes)).toEqual({ imported: ids, skipped: [] });
    for (const id of ids) expect(there.getRun(id)).toEqual(here.getRun(id));
    const a = there.getRun(ids[0]).result!;
    const orig = here.getRun(ids[0]).result!;
    expect(bytesOf(a.series[0].y).equals(bytesOf(orig.series[0].y))).toBe(true);
    for (const k of ['address', 'set', 'level', 'evicted'] as const) expect(bytesOf(a.trace![k]).equals(bytesOf(orig.trace![k]))).toBe(true);
    expect(there.getRun(ids[2]).preset.name).toBe('Mine');
    expect(there.getRun(ids[1])).toMatchObject({ status: 'failed', error: expect.stringContaining('stride') });
  });

  it('keeps imported runs immutable', () => {
    there.importBundle(here.exportBundle([ids[0]]).bytes);
    expect(errorOf(() => there.endRun(ids[0], 'failed', 'x')).code).toBe('immutable');
    expect(there.updateRun(ids[0], { title: 'renamed there' }).title).toBe('renamed there');
  });

  it('skips runs it already has instead of duplicating them', () => {
    const file = here.exportBundle(ids);
    there.importBundle(here.exportBundle([ids[1]]).bytes);
    expect(there.importBundle(file.bytes)).toEqual({ imported: [ids[0], ids[2]], skipped: [ids[1]] });
    expect(there.importBundle(file.bytes)).toEqual({ imported: [], skipped: ids });
    expect(there.listRuns().total).toBe(3);
  });

  it('refuses to export unknown or unfinished runs', () => {
    const queued = here.createRun(newRun());
    expect(errorOf(() => here.exportBundle([ids[0], queued.id])).code).toBe('conflict');
    expect(errorOf(() => here.exportBundle(['00000000-0000-4000-8000-000000000000'])).code).toBe('not-found');
  });

  describe('refuses a damaged bundle with a clear message and changes nothing', () => {
    let good: Uint8Array;
    let before: ReturnType<typeof snapshot>;
    beforeEach(() => {
      good = here.exportBundle(ids).bytes;
      there.importBundle(here.exportBundle([ids[1]]).bytes);
      before = snapshot(there);
    });
    const refused = (bytes: Uint8Array, message: RegExp) => {
      const err = errorOf(() => there.importBundle(bytes));
      expect(err.code).toBe('invalid-bundle');
      expect(err.message).toMatch(/^the bundle is refused \(nothing was imported\): /);
      expect(err.message).toMatch(message);
      expect(snapshot(there)).toEqual(before);
    };

    it('truncated', () => {
      refused(good.subarray(0, Math.floor(good.byteLength / 2)), /truncated/);
      refused(good.subarray(0, good.byteLength - 9), /truncated|damaged/);
      const plain = gunzipSync(good);
      refused(plain.subarray(0, plain.byteLength - 100), /not valid JSON/);
    });

    it('tampered: a changed payload no longer matches its checksum', () => {
      const env = open(good);
      env.payload = env.payload.replace('"with trace"', '"with trace!"');
      refused(seal(env, false), /checksum does not match/);
    });

    it('tampered: a changed checksum no longer matches the payload', () => {
      const env = open(good);
      env.sha256 = env.sha256.replace(/^./, (c) => (c === '0' ? '1' : '0'));
      refused(seal(env, false), /checksum does not match/);
    });

    it('tampered and re-hashed: contents that break the format are still refused', () => {
      const edit = (fn: (payload: { runs: Record<string, unknown>[] }) => void) => {
        const env = open(good);
        const payload = JSON.parse(env.payload) as { runs: Record<string, unknown>[] };
        fn(payload);
        env.payload = JSON.stringify(payload);
        return seal(env);
      };
      refused(
        edit((p) => (p.runs[2].status = 'running')),
        /runs\.2\.status/,
      );
      refused(
        edit((p) => ((p.runs[0].result as { series: { x: string }[] }).series[0].x = 'AAAA')),
        /series 0 x: 3 bytes is not a whole number of 8-byte values/,
      );
      refused(
        edit((p) => ((p.runs[0].result as { series: { y: string }[] }).series[0].y = 'AAAAAAAAAAA=')),
        /200 x values but 1 y values/,
      );
      refused(
        edit((p) => ((p.runs[0].result as { trace: { way: string } }).trace.way = '!!!!')),
        /trace way is not valid base64/,
      );
      refused(
        edit((p) => (p.runs[0].id = 'not-a-uuid')),
        /runs\.0\.id: must be a run id/,
      );
      refused(
        edit((p) => (p.runs[2].id = p.runs[0].id)),
        /appears twice/,
      );
      refused(
        edit((p) => {
          p.runs[0].result = null;
        }),
        /done run carries a result/,
      );
      refused(
        edit((p) => (p.runs[0].extra = 1)),
        /Unrecognized key/,
      );
      refused(
        edit((p) => p.runs.pop()),
        /announces 3 runs but holds 2/,
      );
      const polluted = open(good);
      polluted.payload = polluted.payload.replace('"params":{', '"params":{"__proto__":{"polluted":true},');
      refused(seal(polluted), /__proto__/);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('malformed: not a bundle at all', () => {
      refused(Buffer.from('hello'), /not valid JSON/);
      refused(Buffer.from([0xff, 0xfe, 0x00, 0x41]), /neither gzip nor UTF-8/);
      refused(Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x01, 0x02]), /truncated|damaged/);
      refused(gzipSync('{"format":"zip","version":1}'), /not a GPU Memory Lab bundle/);
      refused(gzipSync('[1,2,3]'), /not a GPU Memory Lab bundle/);
      refused(new Uint8Array(0), /empty/);
    });

    it('malformed: a newer format version names both versions', () => {
      const env = open(good);
      refused(seal({ ...env, version: 7 }), /format version 7, newer than this app reads \(1\)/);
    });

    it('malformed: an envelope with missing fields', () => {
      const env = open(good) as Partial<Envelope>;
      delete env.runCount;
      refused(gzipSync(JSON.stringify(env)), /envelope is malformed: runCount/);
    });
  });

  it('imports all or nothing: a failure while writing the third run leaves the first two out too', () => {
    const raw = new Database(tmp.file('there.db'));
    raw.prepare(`CREATE TRIGGER fail_third BEFORE INSERT ON runs WHEN NEW.id = '${ids[2]}' BEGIN SELECT RAISE(ABORT, 'disk full'); END`).run();
    raw.close();
    expect(() => there.importBundle(here.exportBundle(ids).bytes)).toThrow(/disk full/);
    expect(there.listRuns().total).toBe(0);
  });

  it('accepts a bundle that is plain JSON (not gzipped)', () => {
    expect(there.importBundle(gunzipSync(here.exportBundle([ids[0]]).bytes)).imported).toEqual([ids[0]]);
  });
});
