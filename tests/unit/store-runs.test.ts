import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunStatus, RunSummary } from '../../src-main/contract';
import { LabError, RUN_SORT_KEYS, runListArgs } from '../../src-main/contract';
import { listSql } from '../../src-main/services/store/query';
import { MAX_TRACE } from '../../src-sim/experiments/types';
import type { RunStore } from '../../src-main/services/store';
import { SIM_VERSION } from '../../src-sim/version';
import { bytesOf, Clock, newRun, preset, sampleResult, T0, TempDb, trace } from './store-fixtures';

let tmp: TempDb;
let clock: Clock;
let store: RunStore;
beforeEach(() => {
  tmp = new TempDb();
  clock = new Clock();
  store = tmp.open({ now: clock.now });
});
afterEach(() => tmp.cleanup());

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(LabError);
    return (err as LabError).code;
  }
  throw new Error('expected an error');
}

function doneRun(over = {}): RunSummary {
  const r = store.createRun(newRun(over));
  store.startRun(r.id);
  clock.advance(250);
  return store.finishRun(r.id, sampleResult());
}

describe('run lifecycle', () => {
  it('goes queued -> running -> done with times, duration and the simulator version', () => {
    const q = store.createRun(newRun({ title: 'L1 sweep', tags: ['b', 'a', 'b'], notes: 'first try' }));
    expect(q).toMatchObject({ status: 'queued', createdAt: T0, startedAt: null, finishedAt: null, durationMs: null, error: null, simVersion: SIM_VERSION });
    expect(q.tags).toEqual(['a', 'b']);
    expect(q.presetId).toBe('fermi');
    clock.advance(1000);
    const r = store.startRun(q.id);
    expect(r).toMatchObject({ status: 'running', startedAt: T0 + 1000 });
    clock.advance(500);
    const d = store.finishRun(q.id, sampleResult());
    expect(d).toMatchObject({ status: 'done', startedAt: T0 + 1000, finishedAt: T0 + 1500, durationMs: 500, title: 'L1 sweep', notes: 'first try' });
  });

  it('names a run after its experiment and preset when it has no title', () => {
    expect(store.createRun(newRun()).title).toBe(`pchase-average on ${preset().name}`);
  });

  it('stores the preset as a snapshot and the parameters as given', () => {
    const custom = { ...preset(), id: 'my-fermi', name: 'My Fermi' };
    const run = store.createRun(newRun({ preset: custom }));
    const detail = store.getRun(run.id);
    expect(detail.preset).toEqual(custom);
    expect(detail.preset).not.toBe(custom);
    expect(detail.params).toEqual({ strides: [64], sizeFrom: 1024, sizeTo: 4096 });
    expect(detail.result).toBeNull();
    expect(detail.presetName).toBe('My Fermi');
  });

  it('reads a stored result back identical, typed arrays byte for byte', () => {
    const result = sampleResult();
    const run = store.createRun(newRun());
    store.finishRun(run.id, result, { durationMs: 12.5 });
    const back = store.getRun(run.id);
    expect(back.durationMs).toBe(12.5);
    expect(back.result).toEqual(result);
    const r = back.result!;
    for (let i = 0; i < result.series.length; i++) {
      expect(r.series[i].x).toBeInstanceOf(Float64Array);
      expect(bytesOf(r.series[i].x).equals(bytesOf(result.series[i].x as Float64Array))).toBe(true);
      expect(bytesOf(r.series[i].y).equals(bytesOf(result.series[i].y as Float64Array))).toBe(true);
    }
    expect(Object.is(r.tables[0].rows[2].latency, -0)).toBe(true);
    expect(r.tables[0].rows[1].latency).toBeNaN();
    const t = r.trace!;
    expect(t.set).toBeInstanceOf(Int32Array);
    expect(t.level).toBeInstanceOf(Uint8Array);
    for (const k of ['address', 'latency', 'level', 'tlb', 'set', 'way', 'evicted'] as const) expect(bytesOf(t[k]).equals(bytesOf(result.trace![k]))).toBe(true);
    expect(t.levelNames).toEqual(['L1', 'L2']);
    expect(t.dropped).toBe(3);
  });

  it('stores plain-array series as Float64Array with the same values', () => {
    const run = store.createRun(newRun());
    const result = sampleResult(10, false);
    result.series = [{ name: 's', x: [1, 2, 3], y: [0.1, 0.2, 0.30000000000000004], xLabel: 'x', xUnit: '', yLabel: 'y', yUnit: '' }];
    store.finishRun(run.id, result);
    const s = store.getRun(run.id).result!.series[0];
    expect(s.x).toEqual(new Float64Array([1, 2, 3]));
    expect(Array.from(s.y)).toEqual([0.1, 0.2, 0.30000000000000004]);
  });

  it('refuses an inconsistent result and leaves the run as it was', () => {
    const run = store.createRun(newRun());
    store.startRun(run.id);
    const bad = sampleResult();
    bad.trace = { ...trace(10), way: new Int32Array(9) };
    expect(() => store.finishRun(run.id, bad)).toThrow(/trace way has 9 entries, address 10/);
    const uneven = sampleResult(10, false);
    uneven.series[0] = { ...uneven.series[0], y: new Float64Array(9) };
    expect(() => store.finishRun(run.id, uneven)).toThrow(/10 x values but 9 y values/);
    expect(store.getSummary(run.id).status).toBe('running');
    expect(() => store.finishRun(run.id, sampleResult())).not.toThrow();
  });

  it("keeps a warm trace's start state (the traced structure before its first access) byte for byte", () => {
    const run = store.createRun(newRun());
    store.startRun(run.id);
    const result = sampleResult();
    const start = { accesses: 64, lines: new Float64Array([0, 32, -1, 2 ** 40, 1, -1]), age: new Int32Array([2, 1, 0, 1, 2, 0]) };
    result.trace = { ...trace(10), start };
    store.finishRun(run.id, result);
    const back = store.getRun(run.id).result!.trace!.start!;
    expect(back.accesses).toBe(64);
    expect(back.lines).toBeInstanceOf(Float64Array);
    expect(back.age).toBeInstanceOf(Int32Array);
    expect(bytesOf(back.lines).equals(bytesOf(start.lines))).toBe(true);
    expect(bytesOf(back.age).equals(bytesOf(start.age))).toBe(true);
    expect(store.getTrace(run.id)!.start).toEqual(start);
    // A cold trace has none; a start whose arrays differ in length is refused.
    const cold = store.createRun(newRun());
    store.finishRun(cold.id, sampleResult());
    expect(store.getRun(cold.id).result!.trace!.start).toBeUndefined();
    const bad = store.createRun(newRun());
    expect(() => store.finishRun(bad.id, { ...sampleResult(), trace: { ...trace(10), start: { ...start, age: new Int32Array(5) } } })).toThrow(/start state has 6 lines and 5 ages/);
  });

  it('refuses a trace longer than MAX_TRACE', () => {
    const run = store.createRun(newRun());
    const n = MAX_TRACE + 1;
    const f = new Float64Array(n);
    const u = new Uint8Array(n);
    const i = new Int32Array(n);
    const big = { ...sampleResult(4, false), trace: { address: f, latency: f, level: u, tlb: u, set: i, way: i, evicted: f, levelNames: [], dropped: 0 } };
    expect(() => store.finishRun(run.id, big)).toThrow(`at most ${MAX_TRACE}`);
    expect(store.getSummary(run.id).status).toBe('queued');
  });

  it('records failure, cancellation and interruption with the reason', () => {
    const a = store.createRun(newRun());
    store.startRun(a.id);
    clock.advance(40);
    expect(store.endRun(a.id, 'failed', 'worker crashed: SIGSEGV')).toMatchObject({ status: 'failed', error: 'worker crashed: SIGSEGV', durationMs: 40 });
    const b = store.createRun(newRun());
    expect(store.endRun(b.id, 'cancelled', 'cancelled before it started')).toMatchObject({ status: 'cancelled', startedAt: null, durationMs: null });
    expect(store.getRun(b.id).result).toBeNull();
  });

  it('refuses transitions out of order', () => {
    const run = store.createRun(newRun());
    store.startRun(run.id);
    expect(codeOf(() => store.startRun(run.id))).toBe('conflict');
    store.endRun(run.id, 'cancelled', 'stop');
    expect(codeOf(() => store.startRun(run.id))).toBe('immutable');
    expect(codeOf(() => store.getSummary('00000000-0000-4000-8000-000000000000'))).toBe('not-found');
  });
});

describe('a finished run is immutable', () => {
  it('refuses to finish, fail or cancel it again', () => {
    const run = doneRun();
    expect(codeOf(() => store.finishRun(run.id, sampleResult()))).toBe('immutable');
    expect(codeOf(() => store.endRun(run.id, 'failed', 'late crash'))).toBe('immutable');
    expect(codeOf(() => store.endRun(run.id, 'cancelled', 'too late'))).toBe('immutable');
    expect(store.getSummary(run.id).status).toBe('done');
  });

  it('changes title, tags and notes, and refuses every other field', () => {
    const run = doneRun({ tags: ['old'] });
    const u = store.updateRun(run.id, { title: 'Renamed', tags: ['kepler', 'l2'], notes: 'line 1\nline 2' });
    expect(u).toMatchObject({ title: 'Renamed', tags: ['kepler', 'l2'], notes: 'line 1\nline 2', status: 'done', finishedAt: run.finishedAt });
    for (const patch of [{ seed: 9 }, { status: 'queued' }, { experiment: 'x' }, { title: 'ok', durationMs: 1 }]) {
      expect(codeOf(() => store.updateRun(run.id, patch as never))).toBe('immutable');
    }
    expect(store.getSummary(run.id)).toEqual(u);
    expect(codeOf(() => store.updateRun(run.id, { title: 'x'.repeat(201) }))).toBe('invalid-args');
    expect(codeOf(() => store.updateRun(run.id, { tags: [' padded'] }))).toBe('invalid-args');
  });

  it('is protected by triggers against raw SQL too', () => {
    const run = doneRun();
    const db = new Database(tmp.file());
    try {
      const tries = [
        ['UPDATE runs SET seed = 99 WHERE id = ?', /only its title, tags and notes/],
        ["UPDATE runs SET status = 'running' WHERE id = ?", /only its title, tags and notes/],
        ["UPDATE runs SET params_json = '{}' WHERE id = ?", /only its title, tags and notes/],
        ['UPDATE runs SET finished_at = NULL WHERE id = ?', /only its title, tags and notes/],
        ["UPDATE run_series SET y = x'00' WHERE run_id = ?", /results cannot be changed/],
        ['DELETE FROM run_series WHERE run_id = ?', /results cannot be removed/],
        ["INSERT INTO run_series (run_id, position, meta_json, points, x, y) VALUES (?, 9, '{}', 0, x'', x'')", /results cannot be added/],
        ["UPDATE run_results SET findings_json = '[]' WHERE run_id = ?", /results cannot be changed/],
        ['DELETE FROM run_traces WHERE run_id = ?', /results cannot be removed/],
      ] as const;
      for (const [sql, msg] of tries) expect(() => db.prepare(sql).run(run.id), sql).toThrow(msg);
      db.prepare("UPDATE runs SET title = 'raw rename', notes = 'raw notes' WHERE id = ?").run(run.id);
    } finally {
      db.close();
    }
    const back = store.getRun(run.id);
    expect(back.title).toBe('raw rename');
    expect(back.seed).toBe(7);
    expect(back.result).toEqual(sampleResult());
  });
});

describe('opening after a crash', () => {
  it('marks runs left queued or running as interrupted, with a message, and leaves finished runs alone', () => {
    const queued = store.createRun(newRun());
    const running = store.createRun(newRun());
    store.startRun(running.id);
    const done = doneRun();
    store.close();
    clock.advance(60_000);
    const reopened = tmp.open({ now: clock.now });
    expect(reopened.recovered).toBe(2);
    const q = reopened.getSummary(queued.id);
    const r = reopened.getSummary(running.id);
    expect(q).toMatchObject({ status: 'interrupted', finishedAt: clock.t });
    expect(q.error).toMatch(/before this run started/);
    expect(r.status).toBe('interrupted');
    expect(r.error).toMatch(/while this run was running/);
    expect(reopened.getSummary(done.id)).toEqual(done);
    expect(() => reopened.startRun(queued.id)).toThrow(/finished run/);
  });

  it('leaves them alone when asked to (a reader beside a running app)', () => {
    const running = store.createRun(newRun());
    store.startRun(running.id);
    const reader = tmp.open({ recoverInterrupted: false });
    expect(reader.recovered).toBe(0);
    expect(reader.getSummary(running.id).status).toBe('running');
  });
});

describe('listing runs', () => {
  const EXPERIMENTS = ['pchase-average', 'pchase-fine', 'tlb-probes', 'shared-bank-stride'];
  const PRESETS = ['tesla', 'fermi', 'kepler'];
  const WORDS = ['alpha', 'Beta', 'gamma', 'delta', 'Epsilon', '50%_off'];

  /** 3000 runs with a known spread of every listed field. */
  function populate(n: number): RunSummary[] {
    const out: RunSummary[] = [];
    const presets = PRESETS.map((id) => preset(id));
    const small = sampleResult(4, false);
    for (let i = 0; i < n; i++) {
      clock.advance(1000);
      const run = store.createRun({
        experiment: EXPERIMENTS[i % 4],
        preset: presets[i % 3],
        params: {},
        seed: i,
        title: `${WORDS[(i * 7) % WORDS.length]} run ${String(i).padStart(4, '0')}`,
        tags: i % 5 === 0 ? ['sweep', `t${i % 3}`] : i % 5 === 1 ? ['sweep'] : [],
        notes: i % 11 === 0 ? 'Contains the needle word' : '',
      });
      const k = i % 6;
      if (k === 0) out.push(run);
      else {
        store.startRun(run.id);
        if (k === 1) out.push(store.getSummary(run.id));
        else if (k <= 3) out.push(store.finishRun(run.id, small, { durationMs: (i * 7919) % 1000 }));
        else out.push(store.endRun(run.id, k === 4 ? 'failed' : 'cancelled', 'x'));
      }
    }
    return out;
  }

  const ids = (rs: RunSummary[]) => rs.map((r) => r.id);
  const by = <T>(key: (r: RunSummary) => T, dir: 1 | -1) => (a: RunSummary, b: RunSummary) => {
    const ka = key(a);
    const kb = key(b);
    if (ka < kb) return -dir;
    if (ka > kb) return dir;
    return a.id < b.id ? -dir : a.id > b.id ? dir : 0;
  };

  it('filters, sorts and pages 3000 runs exactly as a plain JS model of them does', () => {
    const all = populate(3000);
    const everything = store.listRuns({ limit: 500 });
    expect(everything.total).toBe(3000);
    expect(everything.items).toHaveLength(500);
    // newest first by default
    expect(ids(everything.items)).toEqual(ids([...all].sort(by((r) => r.createdAt, -1)).slice(0, 500)));

    const page = (q: Parameters<RunStore['listRuns']>[0]) => {
      const first = store.listRuns({ ...q, limit: 500, offset: 0 });
      const items = [...first.items];
      for (let off = 500; off < first.total; off += 500) items.push(...store.listRuns({ ...q, limit: 500, offset: off }).items);
      return { total: first.total, items };
    };
    const expectQuery = (q: Parameters<RunStore['listRuns']>[0], model: RunSummary[]) => {
      const got = page(q);
      expect(got.total, JSON.stringify(q)).toBe(model.length);
      expect(ids(got.items), JSON.stringify(q)).toEqual(ids(model));
    };
    const newest = by((r) => r.createdAt, -1);

    expectQuery({ experiment: 'tlb-probes' }, all.filter((r) => r.experiment === 'tlb-probes').sort(newest));
    expectQuery({ preset: 'kepler' }, all.filter((r) => r.presetId === 'kepler').sort(newest));
    expectQuery({ status: 'done' }, all.filter((r) => r.status === 'done').sort(newest));
    expectQuery({ status: ['failed', 'cancelled'] }, all.filter((r) => r.status === 'failed' || r.status === 'cancelled').sort(newest));
    expectQuery({ tag: 't1' }, all.filter((r) => r.tags.includes('t1')).sort(newest));
    expectQuery({ text: 'beta' }, all.filter((r) => r.title.toLowerCase().includes('beta')).sort(newest));
    expectQuery({ text: 'NEEDLE' }, all.filter((r) => r.notes.includes('needle')).sort(newest));
    expectQuery({ text: 'bank' }, all.filter((r) => r.experiment.includes('bank')).sort(newest));
    // LIKE wildcards in the user's text match literally
    expectQuery({ text: '50%_' }, all.filter((r) => r.title.includes('50%_')).sort(newest));
    expectQuery({ text: '%' }, all.filter((r) => r.title.includes('%')).sort(newest));
    const from = T0 + 1000 * 1000;
    const to = T0 + 1500 * 1000;
    expectQuery({ from, to }, all.filter((r) => r.createdAt >= from && r.createdAt <= to).sort(newest));
    expectQuery({ from: new Date(from).toISOString(), to: new Date(to).toISOString() }, all.filter((r) => r.createdAt >= from && r.createdAt <= to).sort(newest));
    expectQuery(
      { experiment: 'pchase-average', preset: 'fermi', status: 'done', tag: 'sweep', sort: 'title', order: 'asc' },
      all
        .filter((r) => r.experiment === 'pchase-average' && r.presetId === 'fermi' && r.status === 'done' && r.tags.includes('sweep'))
        .sort(by((r) => r.title.toLowerCase(), 1)),
    );

    expectQuery({ sort: 'created', order: 'asc' }, [...all].sort(by((r) => r.createdAt, 1)));
    expectQuery({ sort: 'title', order: 'asc' }, [...all].sort(by((r) => r.title.toLowerCase(), 1)));
    expectQuery({ sort: 'title', order: 'desc' }, [...all].sort(by((r) => r.title.toLowerCase(), -1)));
    const byThen = (key: (r: RunSummary) => string, dir: 1 | -1) => by((r) => `${key(r)}\u0000${String(r.createdAt).padStart(16, '0')}`, dir);
    expectQuery({ sort: 'experiment', order: 'asc' }, [...all].sort(byThen((r) => r.experiment, 1)));
    expectQuery({ sort: 'preset', order: 'desc' }, [...all].sort(byThen((r) => r.presetName.toLowerCase(), -1)));
    expectQuery({ sort: 'status', order: 'asc' }, [...all].sort(byThen((r) => r.status, 1)));
    for (const dir of [1, -1] as const) {
      const withDuration = all.filter((r) => r.durationMs !== null).sort(by((r) => r.durationMs!, dir));
      const without = all.filter((r) => r.durationMs === null).sort(by(() => 0, dir));
      expectQuery({ sort: 'duration', order: dir === 1 ? 'asc' : 'desc' }, [...withDuration, ...without]);
    }
  });

  it('pages without gaps or repeats and reports the total on every page', () => {
    populate(130);
    const seen = new Set<string>();
    for (let offset = 0; offset < 130; offset += 40) {
      const p = store.listRuns({ sort: 'status', order: 'asc', limit: 40, offset });
      expect(p.total).toBe(130);
      for (const r of p.items) seen.add(r.id);
    }
    expect(seen.size).toBe(130);
    expect(store.listRuns({ offset: 500 }).items).toEqual([]);
  });

  it('reads every sort order from an index, without sorting the table or touching result tables', () => {
    populate(50);
    const db = new Database(tmp.file(), { readonly: true });
    try {
      for (const sort of RUN_SORT_KEYS)
        for (const order of ['asc', 'desc'] as const) {
          const q = runListArgs.parse({ sort, order });
          const { page, params } = listSql(q);
          const plan = (db.prepare(`EXPLAIN QUERY PLAN ${page}`).all(params) as { detail: string }[]).map((r) => r.detail).join(' | ');
          expect(plan, `${sort} ${order}: ${plan}`).not.toMatch(/TEMP B-TREE|run_series|run_results|run_traces/);
          expect(plan, `${sort} ${order}: ${plan}`).toMatch(/USING (COVERING )?INDEX runs_/);
        }
      const filtered = listSql(runListArgs.parse({ experiment: 'tlb-probes' }));
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${filtered.page}`).all(filtered.params) as { detail: string }[]).map((r) => r.detail).join(' | ');
      expect(plan).toMatch(/INDEX runs_experiment \(experiment=\?\)/);
      expect(plan).not.toMatch(/TEMP B-TREE/);
    } finally {
      db.close();
    }
  });

  it('refuses a bad query', () => {
    expect(codeOf(() => store.listRuns({ sort: 'seed; DROP TABLE runs' as never }))).toBe('invalid-args');
    expect(codeOf(() => store.listRuns({ limit: 10_000 }))).toBe('invalid-args');
    expect(codeOf(() => store.listRuns({ status: 'lost' as RunStatus }))).toBe('invalid-args');
  });
});

describe('deleting runs', () => {
  it('deletes many at once with their results, tags and places in comparisons', () => {
    const a = doneRun({ tags: ['x'] });
    const b = doneRun({ tags: ['x'] });
    const c = doneRun();
    const cmp = store.saveComparison({ name: 'abc', runIds: [a.id, b.id, c.id] });
    expect(store.deleteRuns([a.id, b.id])).toBe(2);
    expect(store.listRuns().items.map((r) => r.id)).toEqual([c.id]);
    expect(store.listRuns({ tag: 'x' }).total).toBe(0);
    expect(store.getComparison(cmp.id).runIds).toEqual([c.id]);
    const db = new Database(tmp.file(), { readonly: true });
    for (const table of ['run_series', 'run_results', 'run_traces', 'run_tags'])
      expect((db.prepare(`SELECT count(*) AS n FROM ${table} WHERE run_id IN (?, ?)`).get(a.id, b.id) as { n: number }).n, table).toBe(0);
    db.close();
  });

  it('deletes nothing when one id is unknown or a run is still active', () => {
    const a = doneRun();
    const running = store.createRun(newRun());
    store.startRun(running.id);
    expect(codeOf(() => store.deleteRuns([a.id, '00000000-0000-4000-8000-000000000000']))).toBe('not-found');
    expect(codeOf(() => store.deleteRuns([a.id, running.id]))).toBe('conflict');
    expect(codeOf(() => store.deleteRuns([]))).toBe('invalid-args');
    expect(codeOf(() => store.deleteRuns([a.id, a.id]))).toBe('invalid-args');
    expect(store.listRuns().total).toBe(2);
  });
});
