import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ArgsOf, CallName, LabApi, LabCalls, ResultOf, RunDetail, RunPage } from '../../src-main/contract';
import { buildCalls, CALL_NAMES, CONTRACT, EVENT_NAMES, EVENT_SCHEMAS, LabError, LIMITS, parseArgs, toErrorPayload } from '../../src-main/contract';
import { findPreset } from '../../src-sim/presets';
import { COLLECT_LIMITS } from '../../src-main/sweep-contract';
import { SWEEP_LIMITS } from '../../src-main/sweep-plan';

import { RUN, RUN2, VALID } from './valid-args';

/** The message of the LabError('invalid-args') that parseArgs throws. */
function refusal(name: CallName, input: unknown): string {
  try {
    parseArgs(name, input);
  } catch (err) {
    expect(err).toBeInstanceOf(LabError);
    expect((err as LabError).code).toBe('invalid-args');
    return (err as LabError).message;
  }
  throw new Error(`${name} accepted ${JSON.stringify(input)?.slice(0, 200)}`);
}

describe('the contract accepts good input', () => {
  it('declares every call of the workbench, namespaced', () => {
    expect([...CALL_NAMES].sort()).toEqual(
      [
        'runs.start', 'runs.check', 'runs.list', 'runs.get', 'runs.trace', 'runs.cancel', 'runs.update', 'runs.delete',
        'presets.list', 'presets.get', 'presets.saveCustom', 'presets.deleteCustom', 'experiments.list',
        'comparisons.save', 'comparisons.list', 'comparisons.get', 'comparisons.delete',
        'bundles.export', 'bundles.import', 'exports.csv', 'exports.pdf', 'reproduce.rows', 'reproduce.cancel', 'reproduce.references', 'app.version', 'app.checkDatabase',
        'sweeps.check', 'sweeps.start', 'sweeps.list', 'sweeps.get', 'sweeps.cancel', 'sweeps.delete', 'sweeps.csv', 'sweeps.collect', 'sweeps.pdf',
        'gpu.emit', 'gpu.import', 'gpu.status', 'gpu.experiments', 'gpu.run', 'gpu.cancel', 'gpu.preset', 'gpu.characterise', 'gpu.importCharacterisation',
      ].sort(),
    );
    expect(EVENT_NAMES).toEqual(['run.progress', 'run.finished', 'queue.changed', 'reproduce.progress', 'gpu.progress']);
  });

  it('accepts shared (not cyclic) references, as structured clone delivers a preset', () => {
    const p = structuredClone(findPreset('fermi')!);
    expect(p.spaces['global-cg']!.levels[0]).toBe(p.spaces.global.levels[1]);
    expect(() => parseArgs('presets.saveCustom', { preset: p })).not.toThrow();
  });

  it.each(CALL_NAMES)('%s: a valid argument passes', (name) => {
    expect(() => parseArgs(name, VALID[name])).not.toThrow();
  });

  it('fills defaults and converts dates to milliseconds', () => {
    expect(parseArgs('runs.start', { experiment: 'pchase-fine', preset: 'tesla' })).toEqual({ experiment: 'pchase-fine', preset: 'tesla', params: {}, seed: 1 });
    expect(parseArgs('runs.list', undefined)).toEqual({ sort: 'created', order: 'desc', limit: 50, offset: 0 });
    const q = parseArgs('runs.list', { from: '2026-01-01', to: '2026-01-02T12:00:00Z' });
    expect(q.from).toBe(Date.UTC(2026, 0, 1));
    expect(q.to).toBe(Date.UTC(2026, 0, 2, 12));
    expect(parseArgs('presets.list', undefined)).toEqual({});
    expect(parseArgs('reproduce.rows', {})).toEqual({ selector: 'all', seed: 1 });
    expect(parseArgs('runs.get', { id: RUN })).toEqual({ id: RUN, full: false });
  });
});

describe('the contract refuses bad and hostile input', () => {
  it.each(CALL_NAMES)('%s: refuses an unknown key', (name) => {
    expect(refusal(name, { ...VALID[name], sneaky: 1 })).toMatch(/Unrecognized key.*sneaky/);
  });

  it.each(CALL_NAMES)('%s: refuses a non-object and a __proto__ key', (name) => {
    refusal(name, 'runs');
    refusal(name, [VALID[name]]);
    refusal(name, 42);
    const polluted = JSON.parse(`{"__proto__": {"admin": true}, ${JSON.stringify(VALID[name]).slice(1, -1) || '"x":1'}}`) as unknown;
    expect(refusal(name, polluted)).toMatch(/__proto__/);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('refuses prototype-pollution keys nested anywhere, which zod alone would silently drop', () => {
    const nested = JSON.parse('{"experiment":"pchase-average","preset":"fermi","params":{"__proto__":{"polluted":1}}}') as unknown;
    expect(refusal('runs.start', nested)).toMatch(/params\.__proto__/);
    expect(refusal('runs.start', { experiment: 'pchase-average', preset: 'fermi', params: { constructor: 1 } })).toMatch(/constructor/);
    const deep = JSON.parse('{"preset":{"id":"x","spaces":{"global":{"prototype":{}}}}}') as unknown;
    expect(refusal('presets.saveCustom', deep)).toMatch(/spaces\.global\.prototype/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses wrong types', () => {
    expect(refusal('runs.start', { experiment: 7, preset: 'fermi' })).toMatch(/experiment/);
    expect(refusal('runs.start', { experiment: 'pchase-average', preset: 'fermi', seed: '7' })).toMatch(/seed/);
    expect(refusal('runs.start', { experiment: 'pchase-average', preset: 'fermi', params: { strides: [64, '128'] } })).toMatch(/params\.strides/);
    expect(refusal('runs.start', { experiment: 'pchase-average', preset: 'fermi', params: { nested: { a: 1 } } })).toMatch(/params\.nested/);
    expect(refusal('runs.list', { limit: '50' })).toMatch(/limit/);
    expect(refusal('runs.update', { id: RUN, tags: 'fermi' })).toMatch(/tags/);
    expect(refusal('bundles.import', { bytes: [31, 139] })).toMatch(/Uint8Array/);
    expect(refusal('bundles.import', { bytes: 'H4sI' })).toMatch(/Uint8Array/);
    expect(refusal('presets.saveCustom', { preset: [] })).toMatch(/JSON object/);
  });

  it('refuses NaN, Infinity, fractions and out-of-range numbers', () => {
    const start = (over: object) => ({ experiment: 'pchase-average', preset: 'fermi', ...over });
    refusal('runs.start', start({ seed: NaN }));
    refusal('runs.start', start({ seed: Infinity }));
    refusal('runs.start', start({ seed: 1.5 }));
    refusal('runs.start', start({ seed: -1 }));
    refusal('runs.start', start({ seed: 2 ** 32 }));
    expect(refusal('runs.start', start({ params: { sizeFrom: NaN } }))).toMatch(/params\.sizeFrom/);
    refusal('runs.start', start({ params: { sizeFrom: -Infinity } }));
    refusal('runs.start', start({ params: { strides: [64, Infinity] } }));
    refusal('runs.list', { limit: 0 });
    refusal('runs.list', { limit: LIMITS.listPageMax + 1 });
    refusal('runs.list', { offset: -1 });
    refusal('runs.list', { from: NaN });
    refusal('runs.list', { from: 'yesterday' });
    refusal('runs.list', { from: '2026-02-30' });
    refusal('runs.list', { from: '1969-12-31' });
    refusal('reproduce.rows', { seed: Infinity });
    const preset = { ...structuredClone(findPreset('fermi')!), id: 'mine' } as unknown as { chip: { sms: number } };
    preset.chip.sms = Infinity;
    expect(refusal('presets.saveCustom', { preset })).toMatch(/chip\.sms is not a finite number/);
  });

  it('refuses huge strings, lists and files', () => {
    const huge = 'x'.repeat(1_000_000);
    expect(refusal('runs.update', { id: RUN, title: huge })).toMatch(/at most 200 characters/);
    refusal('runs.update', { id: RUN, notes: huge });
    refusal('runs.update', { id: RUN, tags: Array.from({ length: 33 }, (_, i) => `t${i}`) });
    refusal('runs.update', { id: RUN, tags: ['x'.repeat(41)] });
    refusal('runs.list', { text: huge });
    refusal('runs.start', { experiment: 'pchase-average', preset: 'fermi', params: { s: huge } });
    refusal('runs.start', { experiment: 'pchase-average', preset: 'fermi', params: { l: new Array(LIMITS.paramListItems + 1).fill(1) } });
    refusal('runs.start', { experiment: 'pchase-average', preset: 'fermi', params: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`p${i}`, i])) });
    refusal('runs.delete', { ids: [] });
    refusal('exports.csv', { runIds: Array.from({ length: 65 }, () => RUN) });
    expect(refusal('runs.delete', { ids: [RUN, RUN] })).toMatch(/must not repeat/);
    refusal('presets.saveCustom', { preset: { id: 'big', description: huge } });
    refusal('bundles.import', { bytes: new Uint8Array(0) });
    // sweeps.collect: the plan's text, preset files, bundles and sweep.sbatch, each bounded; file names without folders.
    const collect = VALID['sweeps.collect'];
    expect(refusal('sweeps.collect', { ...collect, plan: 'x'.repeat(SWEEP_LIMITS.planBytes + 1) })).toMatch(/plan: plan\.json is larger than/);
    expect(refusal('sweeps.collect', { ...collect, plan: '' })).toMatch(/plan\.json is empty/);
    expect(refusal('sweeps.collect', { ...collect, presets: [{ name: 'p.json', text: 'x'.repeat(COLLECT_LIMITS.presetChars + 1) }] })).toMatch(/presets\.0\.text/);
    expect(refusal('sweeps.collect', { ...collect, bundles: [{ name: 'bundles/point-000000.gmlbundle', bytes: new Uint8Array(1) }] })).toMatch(/bundles\.0\.name: must be a file name/);
    expect(refusal('sweeps.collect', { ...collect, bundles: [{ name: 'point-000000.gmlbundle', bytes: [1, 2] }] })).toMatch(/Uint8Array/);
    const many = Array.from({ length: COLLECT_LIMITS.bundlesPerCall + 1 }, () => ({ name: 'point-000000.gmlbundle', bytes: new Uint8Array(1) }));
    expect(refusal('sweeps.collect', { ...collect, bundles: many })).toMatch(/at most 1000 bundles a call/);
    // Together at most a bundle's bound (views of one buffer: nothing large is allocated).
    const half = new Uint8Array(new ArrayBuffer(8), 0, 8);
    Object.defineProperty(half, 'byteLength', { value: COLLECT_LIMITS.bundleBytes / 2 + 1 });
    expect(refusal('sweeps.collect', { ...collect, bundles: [{ name: 'point-000000.gmlbundle', bytes: half }, { name: 'point-000001.gmlbundle', bytes: half }] })).toMatch(/larger than 536870912 bytes together/);
    expect(refusal('sweeps.collect', { ...collect, resubmit: { sbatch: 'x'.repeat(COLLECT_LIMITS.scriptChars + 1) } })).toMatch(/sweep\.sbatch is larger/);
    refusal('sweeps.collect', { ...collect, resubmit: { sbatch: 'x', arrayMax: 0 } });
    refusal('sweeps.collect', { ...collect, resubmit: { sbatch: 'x', maxParallel: 1.5 } });
    expect(COLLECT_LIMITS.bundleBytes).toBe(LIMITS.bundleBytes);
    expect(COLLECT_LIMITS.presetChars).toBe(LIMITS.presetJsonBytes);
  });

  it('refuses malformed ids and names (no injection through them)', () => {
    for (const id of ["'; DROP TABLE runs; --", '../../etc/passwd', RUN.toUpperCase(), `${RUN} `, '', 'x'.repeat(36)]) refusal('runs.get', { id });
    refusal('runs.start', { experiment: '../pchase', preset: 'fermi' });
    refusal('runs.start', { experiment: 'pchase-average', preset: 'Fermi GTX 560 Ti' });
    refusal('runs.start', { experiment: 'pchase-average', preset: 'fermi', params: { 'a b': 1 } });
    refusal('reproduce.rows', { selector: 'all; rm -rf /' });
    expect(refusal('reproduce.references', {})).toMatch(/runId/);
    expect(refusal('reproduce.references', { runId: 'MEI-T3' })).toMatch(/runId: must be a run id/);
    refusal('runs.list', { sort: 'created_at DESC; DROP TABLE runs' });
  });

  it('refuses control characters in one-line strings but keeps newlines in notes', () => {
    refusal('runs.update', { id: RUN, title: 'a\u0000b' });
    refusal('runs.update', { id: RUN, title: 'two\nlines' });
    refusal('runs.update', { id: RUN, notes: 'bell\u0007' });
    expect(parseArgs('runs.update', { id: RUN, notes: 'a\n\tb' }).notes).toBe('a\n\tb');
    refusal('runs.update', { id: RUN, tags: [' padded'] });
  });

  it('refuses shapes that are not plain data', () => {
    class Sneaky {
      experiment = 'pchase-average';
      preset = 'fermi';
    }
    expect(refusal('runs.start', new Sneaky())).toMatch(/plain data/);
    refusal('runs.start', { experiment: 'pchase-average', preset: 'fermi', params: { when: new Date() } });
    refusal('runs.start', { experiment: 'pchase-average', preset: 'fermi', params: new Map() });
    const cyclic: Record<string, unknown> = { experiment: 'pchase-average', preset: 'fermi' };
    cyclic.params = cyclic;
    expect(refusal('runs.start', cyclic)).toMatch(/refers to itself/);
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let i = 0; i < 100; i++) deep = (deep.a = {}) as Record<string, unknown>;
    expect(refusal('presets.saveCustom', { preset: root })).toMatch(/deeper than/);
    let shared: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 30; i++) shared = { a: shared, b: shared };
    expect(refusal('presets.saveCustom', { preset: shared })).toMatch(/more than 100000 objects/);
    refusal('runs.start', { experiment: 'pchase-average', preset: 'fermi', [Symbol('s')]: 1 });
    refusal('runs.update', { id: RUN, title: 'x', toString: () => 'boom' });
  });

  it('refuses an update that changes nothing, and unknown calls', () => {
    expect(refusal('runs.update', { id: RUN })).toMatch(/give a title, tags or notes/);
    expect(() => parseArgs('runs.drop' as CallName, {})).toThrow(/unknown call "runs.drop"/);
    expect(() => parseArgs('__proto__' as CallName, {})).toThrow(/unknown call/);
    expect(() => parseArgs('toString' as CallName, {})).toThrow(/unknown call/);
  });
});

describe('events and errors', () => {
  it('validates event payloads', () => {
    expect(EVENT_SCHEMAS['run.progress'].safeParse({ runId: RUN, done: 10, total: 100, phase: 'sweep 1/4' }).success).toBe(true);
    expect(EVENT_SCHEMAS['run.progress'].safeParse({ runId: RUN, done: 10, total: 100 }).success).toBe(false);
    expect(EVENT_SCHEMAS['run.finished'].safeParse({ runId: RUN, status: 'failed', error: 'crashed' }).success).toBe(true);
    expect(EVENT_SCHEMAS['run.finished'].safeParse({ runId: RUN, status: 'running', error: null }).success).toBe(false);
    expect(EVENT_SCHEMAS['queue.changed'].safeParse({ queued: [RUN], running: [RUN2] }).success).toBe(true);
  });

  it('turns errors into wire payloads with a code', () => {
    expect(toErrorPayload(new LabError('not-found', 'no run'))).toEqual({ code: 'not-found', message: 'no run' });
    expect(toErrorPayload(new Error('boom'))).toEqual({ code: 'internal', message: 'boom' });
  });
});

describe('the API object', () => {
  it('builds lab.<namespace>.<method> for every call over one transport function', async () => {
    const seen: [string, unknown][] = [];
    const calls = buildCalls(async (name, args) => {
      seen.push([name, args]);
      return { echoed: name };
    });
    await calls.runs.start({ experiment: 'pchase-average', preset: 'fermi' });
    await calls.presets.list();
    expect(seen).toEqual([
      ['runs.start', { experiment: 'pchase-average', preset: 'fermi' }],
      ['presets.list', {}],
    ]);
    for (const name of CALL_NAMES) {
      const [ns, method] = name.split('.');
      expect(typeof (calls as unknown as Record<string, Record<string, unknown>>)[ns][method], name).toBe('function');
    }
    expect(Object.keys(calls).sort()).toEqual(['app', 'bundles', 'comparisons', 'experiments', 'exports', 'gpu', 'presets', 'reproduce', 'runs', 'sweeps']);
  });

  it('is typed from the contract', () => {
    expectTypeOf<LabApi['runs']['get']>().parameters.toEqualTypeOf<[ArgsOf<'runs.get'>]>();
    expectTypeOf<LabApi['runs']['get']>().returns.toEqualTypeOf<Promise<RunDetail>>();
    expectTypeOf<LabApi['runs']['list']>().returns.toEqualTypeOf<Promise<RunPage>>();
    expectTypeOf<ResultOf<'runs.start'>>().toEqualTypeOf<{ runId: string }>();
    expectTypeOf<LabCalls['app']['version']>().parameters.toEqualTypeOf<[args?: ArgsOf<'app.version'>]>();
    expectTypeOf<LabApi['on']>().toBeFunction();
    expect(Object.keys(CONTRACT)).toHaveLength(44);
  });
});
