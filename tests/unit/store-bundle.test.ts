import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LabError } from '../../src-main/contract';
import type { RunStore } from '../../src-main/services/store';
import { BUNDLE_FORMAT, BUNDLE_VERSION, encodeBundle, LEGACY_BUNDLE_VERSION } from '../../src-main/services/store';
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

async function rejectionOf(fn: () => Promise<unknown>): Promise<LabError> {
  try {
    await fn();
  } catch (err) {
    expect(err).toBeInstanceOf(LabError);
    return err as LabError;
  }
  throw new Error('expected an error');
}

/** The bundle of these runs as format 1 (what older apps wrote). */
const legacyOf = (store: RunStore, runIds: string[]): Buffer => encodeBundle(runIds.map((id) => store.getRun(id)), 'old', Date.UTC(2026, 0, 1));
/** The JSON lines of a format-2 bundle. */
const linesOf = (bytes: Uint8Array): string[] => gunzipSync(bytes).toString('utf8').split('\n').filter((l) => l !== '');
/** Format-2 lines back into a bundle, the checksum recomputed when asked (a deliberate change). */
const relines = (lines: string[], rehash = true): Buffer => {
  const body = lines.slice(0, -1).map((l) => `${l}\n`).join('');
  const end = JSON.parse(lines[lines.length - 1]!) as { sha256: string };
  if (rehash) end.sha256 = createHash('sha256').update(body, 'utf8').digest('hex');
  return gzipSync(body + JSON.stringify(end) + '\n');
};

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
  it('carries runs with their preset snapshots into another database, identical', async () => {
    const file = await here.exportBundle(ids);
    expect(file.mimeType).toBe('application/gzip');
    expect(file.fileName).toMatch(/^gpulab-3-runs-2026-11-01-12-00-00\.gmlbundle$/);
    const lines = linesOf(file.bytes);
    expect(JSON.parse(lines[0]!)).toMatchObject({ format: BUNDLE_FORMAT, version: BUNDLE_VERSION, runCount: 3 });
    expect(JSON.parse(lines[lines.length - 1]!)).toMatchObject({ end: true, runCount: 3 });
    expect(await there.importBundle(file.bytes)).toEqual({ imported: ids, skipped: [] });
    for (const id of ids) expect(there.getRun(id)).toEqual(here.getRun(id));
    const a = there.getRun(ids[0]).result!;
    const orig = here.getRun(ids[0]).result!;
    expect(bytesOf(a.series[0].y).equals(bytesOf(orig.series[0].y))).toBe(true);
    for (const k of ['address', 'set', 'level', 'evicted'] as const) expect(bytesOf(a.trace![k]).equals(bytesOf(orig.trace![k]))).toBe(true);
    expect(there.getRun(ids[2]).preset!.name).toBe('Mine');
    expect(there.getRun(ids[1])).toMatchObject({ status: 'failed', error: expect.stringContaining('stride') });
  });

  it("carries a warm trace's start state, in format 2 and in format 1", async () => {
    const start = { accesses: 128, lines: new Float64Array([5, -1, 7, 2 ** 33]), age: new Int32Array([1, 0, 2, 1]) };
    const w = here.createRun(newRun({ title: 'warm' }));
    const result = sampleResult(20);
    result.trace = { ...result.trace!, start };
    here.finishRun(w.id, result);
    const other = tmp.open({ now: clock.now }, 'other.db');
    expect(await there.importBundle((await here.exportBundle([w.id])).bytes)).toEqual({ imported: [w.id], skipped: [] });
    expect(await other.importBundle(legacyOf(here, [w.id]))).toEqual({ imported: [w.id], skipped: [] });
    for (const store of [there, other]) {
      const back = store.getRun(w.id).result!.trace!.start!;
      expect(back.accesses).toBe(128);
      expect(bytesOf(back.lines).equals(bytesOf(start.lines))).toBe(true);
      expect(bytesOf(back.age).equals(bytesOf(start.age))).toBe(true);
      expect(store.getRun(w.id)).toEqual(here.getRun(w.id));
    }
    // Arrays of different lengths are refused, naming the start state.
    const lines = linesOf((await here.exportBundle([w.id])).bytes);
    const i = lines.findIndex((l) => l.startsWith('{"run"'));
    const run = JSON.parse(lines[i]!) as { run: { result: { trace: { start: { age: string } } } } };
    run.run.result.trace.start.age = Buffer.from(new Int32Array([1]).buffer).toString('base64');
    lines[i] = JSON.stringify(run);
    await expect(tmp.open({ now: clock.now }, 'third.db').importBundle(relines(lines))).rejects.toThrow(/trace start: 4 lines but 1 ages/);
  });

  it('imports a bundle of many compressed megabytes without piling up listeners (no MaxListenersExceededWarning)', async () => {
    const big = sampleResult(1_600_000, false);
    const y = big.series[0]!.y as Float64Array;
    for (let i = 7; i < y.length; i++) y[i] = Math.random(); // incompressible: about 12.8 MB gzipped
    const r = here.createRun(newRun({ title: 'big' }));
    here.finishRun(r.id, big);
    const file = await here.exportBundle([r.id]);
    expect(file.bytes.byteLength).toBeGreaterThan(12 * 2 ** 20);
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      expect(await there.importBundle(file.bytes)).toEqual({ imported: [r.id], skipped: [] });
      await new Promise((done) => setImmediate(done));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).toEqual([]);
  });

  it('keeps imported runs immutable', async () => {
    await there.importBundle((await here.exportBundle([ids[0]])).bytes);
    expect(errorOf(() => there.endRun(ids[0], 'failed', 'x')).code).toBe('immutable');
    expect(there.updateRun(ids[0], { title: 'renamed there' }).title).toBe('renamed there');
  });

  it('skips runs it already has instead of duplicating them', async () => {
    const file = await here.exportBundle(ids);
    await there.importBundle((await here.exportBundle([ids[1]])).bytes);
    expect(await there.importBundle(file.bytes)).toEqual({ imported: [ids[0], ids[2]], skipped: [ids[1]] });
    expect(await there.importBundle(file.bytes)).toEqual({ imported: [], skipped: ids });
    expect(there.listRuns().total).toBe(3);
  });

  it('refuses to export unknown or unfinished runs', async () => {
    const queued = here.createRun(newRun());
    expect((await rejectionOf(() => here.exportBundle([ids[0], queued.id]))).code).toBe('conflict');
    expect((await rejectionOf(() => here.exportBundle(['00000000-0000-4000-8000-000000000000']))).code).toBe('not-found');
  });

  describe('refuses a damaged bundle with a clear message and changes nothing', () => {
    let good: Uint8Array;
    let before: ReturnType<typeof snapshot>;
    beforeEach(async () => {
      good = legacyOf(here, ids);
      await there.importBundle((await here.exportBundle([ids[1]])).bytes);
      before = snapshot(there);
    });
    const refused = async (bytes: Uint8Array, message: RegExp) => {
      const err = await rejectionOf(() => there.importBundle(bytes));
      expect(err.code).toBe('invalid-bundle');
      expect(err.message).toMatch(/^the bundle is refused \(nothing was imported\): /);
      expect(err.message).toMatch(message);
      expect(snapshot(there)).toEqual(before);
    };

    it('truncated', async () => {
      await refused(good.subarray(0, Math.floor(good.byteLength / 2)), /truncated/);
      await refused(good.subarray(0, good.byteLength - 9), /truncated|damaged/);
      const plain = gunzipSync(good);
      await refused(plain.subarray(0, plain.byteLength - 100), /not valid JSON/);
    });

    it('tampered: a changed payload no longer matches its checksum', async () => {
      const env = open(good);
      env.payload = env.payload.replace('"with trace"', '"with trace!"');
      await refused(seal(env, false), /checksum does not match/);
    });

    it('tampered: a changed checksum no longer matches the payload', async () => {
      const env = open(good);
      env.sha256 = env.sha256.replace(/^./, (c) => (c === '0' ? '1' : '0'));
      await refused(seal(env, false), /checksum does not match/);
    });

    it('tampered and re-hashed: contents that break the format are still refused', async () => {
      const edit = (fn: (payload: { runs: Record<string, unknown>[] }) => void) => {
        const env = open(good);
        const payload = JSON.parse(env.payload) as { runs: Record<string, unknown>[] };
        fn(payload);
        env.payload = JSON.stringify(payload);
        return seal(env);
      };
      await refused(
        edit((p) => (p.runs[2].status = 'running')),
        /runs\.2\.status/,
      );
      await refused(
        edit((p) => ((p.runs[0].result as { series: { x: string }[] }).series[0].x = 'AAAA')),
        /series 0 x: 3 bytes is not a whole number of 8-byte values/,
      );
      await refused(
        edit((p) => ((p.runs[0].result as { series: { y: string }[] }).series[0].y = 'AAAAAAAAAAA=')),
        /200 x values but 1 y values/,
      );
      await refused(
        edit((p) => ((p.runs[0].result as { trace: { way: string } }).trace.way = '!!!!')),
        /trace way is not valid base64/,
      );
      await refused(
        edit((p) => (p.runs[0].id = 'not-a-uuid')),
        /runs\.0\.id: must be a run id/,
      );
      await refused(
        edit((p) => (p.runs[2].id = p.runs[0].id)),
        /appears twice/,
      );
      await refused(
        edit((p) => {
          p.runs[0].result = null;
        }),
        /done run carries a result/,
      );
      await refused(
        edit((p) => (p.runs[0].extra = 1)),
        /Unrecognized key/,
      );
      await refused(
        edit((p) => p.runs.pop()),
        /announces 3 runs but holds 2/,
      );
      const polluted = open(good);
      polluted.payload = polluted.payload.replace('"params":{', '"params":{"__proto__":{"polluted":true},');
      await refused(seal(polluted), /__proto__/);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('malformed: not a bundle at all', async () => {
      await refused(Buffer.from('hello'), /not valid JSON/);
      await refused(Buffer.from([0xff, 0xfe, 0x00, 0x41]), /neither gzip nor UTF-8/);
      await refused(Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x01, 0x02]), /truncated|damaged/);
      await refused(gzipSync('{"format":"zip","version":1}'), /not a GPU Memory Lab bundle/);
      await refused(gzipSync('[1,2,3]'), /not a GPU Memory Lab bundle/);
      await refused(new Uint8Array(0), /empty/);
    });

    it('malformed: a newer format version names both versions', async () => {
      const env = open(good);
      await refused(seal({ ...env, version: 7 }), /format version 7, newer than this app reads \(2\)/);
    });

    it('malformed: an envelope with missing fields', async () => {
      const env = open(good) as Partial<Envelope>;
      delete env.runCount;
      await refused(gzipSync(JSON.stringify(env)), /envelope is malformed: runCount/);
    });
  });

  it('imports all or nothing: a failure while writing the third run leaves the first two out too', async () => {
    const raw = new Database(tmp.file('there.db'));
    raw.prepare(`CREATE TRIGGER fail_third BEFORE INSERT ON runs WHEN NEW.id = '${ids[2]}' BEGIN SELECT RAISE(ABORT, 'disk full'); END`).run();
    raw.close();
    await expect(there.importBundle((await here.exportBundle(ids)).bytes)).rejects.toThrow(/disk full/);
    expect(there.listRuns().total).toBe(0);
  });

  it('accepts a bundle that is plain JSON (not gzipped)', async () => {
    expect((await there.importBundle(gunzipSync((await here.exportBundle([ids[0]])).bytes))).imported).toEqual([ids[0]]);
    expect((await there.importBundle(gunzipSync(legacyOf(here, [ids[2]])))).imported).toEqual([ids[2]]);
  });

  it('reads format 1 (older apps) as before', async () => {
    const old = legacyOf(here, ids);
    expect(open(old)).toMatchObject({ version: LEGACY_BUNDLE_VERSION, runCount: 3 });
    expect(await there.importBundle(old)).toEqual({ imported: ids, skipped: [] });
    for (const id of ids) expect(there.getRun(id)).toEqual(here.getRun(id));
  });

  describe('format 2: a damaged or changed stream is refused whole', () => {
    let good: string[];
    let before: ReturnType<typeof snapshot>;
    beforeEach(async () => {
      good = linesOf((await here.exportBundle(ids)).bytes);
      before = snapshot(there);
    });
    const refused = async (bytes: Uint8Array, message: RegExp) => {
      const err = await rejectionOf(() => there.importBundle(bytes));
      expect(err.code).toBe('invalid-bundle');
      expect(err.message).toMatch(message);
      expect(snapshot(there)).toEqual(before);
    };
    const editRun = (i: number, fn: (run: Record<string, unknown>) => void): string[] => {
      const lines = [...good];
      const at = lines.findIndex((l, k) => k > 0 && l.startsWith('{"run":') && (JSON.parse(l) as { run: { id: string } }).run.id === ids[i]);
      const line = JSON.parse(lines[at]!) as { run: Record<string, unknown> };
      fn(line.run);
      lines[at] = JSON.stringify(line);
      return lines;
    };

    it('a changed byte: the checksum says damaged', async () => {
      const lines = editRun(0, (r) => (r.title = 'changed'));
      await refused(relines(lines, false), /damaged: its checksum does not match/);
    });

    it('truncated, or a line missing', async () => {
      const bytes = relines(good);
      await refused(bytes.subarray(0, Math.floor(bytes.byteLength / 2)), /truncated/);
      await refused(gzipSync(good.slice(0, -1).map((l) => `${l}\n`).join('')), /truncated/);
    });

    it('a re-hashed change that breaks the format is still refused', async () => {
      await refused(relines(editRun(2, (r) => (r.status = 'running'))), /runs\.2\.status/);
      await refused(relines(editRun(0, (r) => (r.presetName = 'Someone else'))), /presetName differs/);
      await refused(
        relines(editRun(2, (r) => ((r.preset as { spaces: { global: { levels: { sizeBytes: number }[] } } }).spaces.global.levels[0]!.sizeBytes = 12345))),
        /preset snapshot is invalid: spaces\.global\.levels\.0/,
      );
    });

    it('a re-hashed run of an experiment this version does not know, or of one under another\'s id, is refused', async () => {
      await refused(relines(editRun(0, (r) => (r.experiment = 'made-up'))), /cannot be imported: its experiment "made-up" is not one this version knows/);
      // A P-chase run relabelled as a bank-conflict run: its parameters are not that experiment's.
      await refused(relines(editRun(0, (r) => (r.experiment = 'shared-bank-stride'))), /its parameters are not those of shared-bank-stride: unknown parameter "strides"/);
      // A parameter value the experiment refuses.
      await refused(relines(editRun(2, (r) => ((r.params as Record<string, unknown>).sizeFrom = -5))), /its parameters are not those of pchase-average: parameter "sizeFrom"/);
    });
  });
});
