/**
 * The browser mode end to end: the HTTP server (src-main/web/server.ts) on a real lab (database
 * and simulation processes), driven by raw HTTP requests and by the browser-side client
 * (src-main/shared/http-client.ts) with a minimal EventSource.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LabEvents } from '../../src-main/contract';
import { LabError } from '../../src-main/contract';
import { GPU_IMPORT_BODY_BYTES, GPU_LIMITS } from '../../src-main/gpu-contract';
import type { LabService } from '../../src-main/services/lab';
import { tsxExecArgv } from '../../src-main/services/pool';
import { createHttpLab, pageToken } from '../../src-main/shared/http-client';
import { decodeFrame, decodeWire, encodeFrame, encodeWire, FRAME_CONTENT_TYPE } from '../../src-main/shared/wire';
import type { HttpLab } from '../../src-main/shared/http-client';
import { openCommand, parseWebArgs } from '../../src-main/web/main';
import { LabServerError, startLabServer } from '../../src-main/web/server';
import type { LabServer } from '../../src-main/web/server';
import { inProcess, NodeEventSource, raw, TempDir, testLab } from './lab-fixtures';
import { bytesOf, TempDb } from './store-fixtures';
import { pointBundle } from './sweep-fixtures';
import { parsePlan } from '../../src-main/sweep-plan';
import { PRESETS } from '../../src-sim/presets';

const tmp = new TempDir();
const staticDir = tmp.file('renderer');
let lab: LabService;
let server: LabServer;
let client: HttpLab;
const INDEX = '<!doctype html><title>GPU Memory Lab</title><script type="module" src="/assets/app.js"></script>';

beforeAll(async () => {
  mkdirSync(join(staticDir, 'assets'), { recursive: true });
  writeFileSync(join(staticDir, 'index.html'), INDEX);
  writeFileSync(join(staticDir, 'assets', 'app.js'), 'console.log("app");');
  writeFileSync(join(staticDir, '.env'), 'SECRET=1');
  writeFileSync(tmp.file('secret.txt'), 'outside the renderer');
  symlinkSync(tmp.file('secret.txt'), join(staticDir, 'assets', 'link.txt'));
  lab = testLab(tmp.file('web.db')).lab;
  server = await startLabServer({ lab, staticDir });
  client = createHttpLab(server.origin, server.token, { EventSource: NodeEventSource });
});

afterAll(async () => {
  client.close();
  await server.close();
  await lab.close();
  tmp.remove();
});

const auth = () => ({ authorization: `Bearer ${server.token}`, 'content-type': 'application/json' });
const call = (name: string, body: string | Buffer, headers: Record<string, string | number> = auth()) => raw(server.port, 'POST', `/api/call/${name}`, { headers, body });
const runCount = () => lab.store.listRuns({}).total;
const errorOf = (text: string) => (JSON.parse(text) as { error: { code: string; message: string } }).error;

describe('browser mode: binding and launch', () => {
  it('listens on 127.0.0.1 only, and refuses any other host', async () => {
    expect(server.host).toBe('127.0.0.1');
    expect(server.origin).toBe(`http://127.0.0.1:${server.port}`);
    expect(server.pageUrl).toBe(`${server.origin}/#token=${server.token}`);
    expect(server.token).toMatch(/^[0-9a-f]{64}$/);
    expect(pageToken(new URL(server.pageUrl).hash)).toBe(server.token);
    for (const host of ['0.0.0.0', '::', 'localhost', '192.168.1.2', '::1']) {
      await expect(startLabServer({ lab, host, staticDir: null })).rejects.toThrow(LabServerError);
    }
  });

  it('gives each launch its own token', async () => {
    const other = await startLabServer({ lab, staticDir: null });
    try {
      expect(other.token).not.toBe(server.token);
      expect(other.port).not.toBe(server.port);
      // This server's token does not open the other one.
      const r = await raw(other.port, 'POST', '/api/call/app.version', { headers: auth(), body: '{}' });
      expect(r.status).toBe(401);
    } finally {
      await other.close();
    }
  });

  it('parses its command line and knows how to open a browser', () => {
    expect(parseWebArgs(['--db', 'x.db', '--port', '8080', '--no-open'])).toMatchObject({ port: 8080, open: false, db: expect.stringMatching(/x\.db$/) });
    expect(parseWebArgs([])).toMatchObject({ port: 0, open: true, db: expect.stringMatching(/gpu-memory-lab[\\/]lab\.db$/) });
    expect(() => parseWebArgs(['--port', '70000'])).toThrow(/--port/);
    expect(() => parseWebArgs(['--host', '0.0.0.0'])).toThrow(/host/);
    expect(openCommand('linux', 'u')).toEqual({ command: 'xdg-open', args: ['u'] });
    expect(openCommand('darwin', 'u')).toEqual({ command: 'open', args: ['u'] });
    expect(openCommand('win32', 'u').command).toBe('cmd');
  });
});

describe('browser mode: the token, the Host header and the limits', () => {
  it('refuses API calls without the token, with a wrong one, or with a wrong scheme (401), and accepts both headers', async () => {
    const wrong = server.token.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'));
    expect((await call('app.version', '{}', { 'content-type': 'application/json' })).status).toBe(401);
    expect((await call('app.version', '{}', { authorization: `Bearer ${wrong}`, 'content-type': 'application/json' })).status).toBe(401);
    expect((await call('app.version', '{}', { authorization: `Basic ${server.token}`, 'content-type': 'application/json' })).status).toBe(401);
    expect((await call('app.version', '{}', { 'x-lab-token': server.token.slice(0, 32), 'content-type': 'application/json' })).status).toBe(401);
    const r401 = await call('runs.list', '{}', { 'content-type': 'application/json' });
    expect(errorOf(r401.text).code).toBe('unauthorized');
    expect((await call('app.version', '{}')).status).toBe(200);
    expect((await call('app.version', '{}', { 'x-lab-token': server.token, 'content-type': 'application/json' })).status).toBe(200);
    // The event stream wants it too.
    expect((await raw(server.port, 'GET', '/api/events')).status).toBe(401);
    expect((await raw(server.port, 'GET', `/api/events?token=${wrong}`)).status).toBe(401);
    // The HTTP client reports a wrong token as 'unauthorized'.
    const bad = createHttpLab(server.origin, wrong);
    await expect(bad.app.version()).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('refuses requests whose Host header is not this server (DNS rebinding) and API calls from other origins', async () => {
    for (const host of ['evil.example', `evil.example:${server.port}`, `127.0.0.1:${server.port + 1}`, `localhost.evil.example:${server.port}`]) {
      const api = await call('app.version', '{}', { ...auth(), host });
      expect(api.status, host).toBe(403);
      const page = await raw(server.port, 'GET', '/', { headers: { host } });
      expect(page.status, host).toBe(403);
    }
    expect((await call('app.version', '{}', { ...auth(), host: `localhost:${server.port}` })).status).toBe(200);
    expect((await call('app.version', '{}', { ...auth(), origin: 'http://evil.example' })).status).toBe(403);
    expect((await call('app.version', '{}', { ...auth(), origin: server.origin })).status).toBe(200);
  });

  it('takes calls by POST only, known calls only, JSON only, within 1 MiB', async () => {
    expect((await raw(server.port, 'GET', '/api/call/runs.list', { headers: auth() })).status).toBe(405);
    expect((await raw(server.port, 'PUT', '/api/call/runs.list', { headers: auth(), body: '{}' })).status).toBe(405);
    expect((await call('runs.explode', '{}')).status).toBe(404);
    expect((await call('constructor', '{}')).status).toBe(404);
    expect((await raw(server.port, 'POST', '/api/other', { headers: auth(), body: '{}' })).status).toBe(404);
    // A form post or a text/plain "simple request" is refused.
    expect((await call('runs.list', '{}', { authorization: `Bearer ${server.token}`, 'content-type': 'text/plain' })).status).toBe(415);
    expect((await call('runs.list', 'a=1', { authorization: `Bearer ${server.token}`, 'content-type': 'application/x-www-form-urlencoded' })).status).toBe(415);
    // Binary bodies only for bundles.import, frame arguments only for sweeps.collect.
    expect((await call('runs.list', Buffer.from([1]), { authorization: `Bearer ${server.token}`, 'content-type': 'application/octet-stream' })).status).toBe(415);
    const frame = Buffer.concat(encodeFrame({}).chunks);
    expect((await call('runs.list', frame, { authorization: `Bearer ${server.token}`, 'content-type': FRAME_CONTENT_TYPE })).status).toBe(415);
    const notFrame = await call('sweeps.collect', Buffer.from('not a frame'), { authorization: `Bearer ${server.token}`, 'content-type': FRAME_CONTENT_TYPE });
    expect(notFrame.status).toBe(400);
    expect(errorOf(notFrame.text).message).toMatch(/sweeps\.collect: the body is not valid: not a lab frame/);

    const before = runCount();
    const big = JSON.stringify({ experiment: 'pchase-average', preset: 'fermi', notes: 'x'.repeat(1024 * 1024 + 10) });
    const tooBig = await call('runs.start', big);
    expect(tooBig.status).toBe(413);
    expect(errorOf(tooBig.text).message).toMatch(/larger than 1048576 bytes/);
    // Also when the body is chunked (no declared length).
    const chunked = await call('runs.start', big, { ...auth(), 'transfer-encoding': 'chunked' });
    expect(chunked.status).toBe(413);
    expect(runCount()).toBe(before);
  });

  it("gpu.import's body holds any file within the import limit, and a larger one is refused in the page's units", async () => {
    const before = runCount();
    // Within the limit, but well over 1 MiB as JSON (each control character escaped in 6 bytes): read, then refused by line.
    const quotes = `{"type":"device"}\n${'\u0001'.repeat(GPU_LIMITS.importBytes - 18)}`;
    expect(Buffer.byteLength(quotes)).toBe(GPU_LIMITS.importBytes);
    expect(Buffer.byteLength(JSON.stringify({ text: quotes }))).toBeGreaterThan(4 * 1024 * 1024);
    const within = await call('gpu.import', JSON.stringify({ text: quotes, fileName: 'q.jsonl' }));
    expect(within.status).toBe(400);
    expect(errorOf(within.text).message).toMatch(/^q\.jsonl: line 1: the device line is incomplete/);
    const over = await call('gpu.import', JSON.stringify({ text: 'x'.repeat(GPU_LIMITS.importBytes + 1), fileName: 'big.jsonl' }));
    expect(errorOf(over.text).message).toBe('big.jsonl: the file is 769 KB, more than the 768 KB an import takes: import it with gpulab gpu import <file> --save');
    const huge = await call('gpu.import', JSON.stringify({ text: 'x'.repeat(GPU_IMPORT_BODY_BYTES), fileName: 'huge.jsonl' }));
    expect(huge.status).toBe(413);
    expect(errorOf(huge.text).message).toBe('the file is larger than the 768 KB an import takes: import it with gpulab gpu import <file> --save');
    expect(runCount()).toBe(before);
  });

  it('sends strict security headers and no CORS headers', async () => {
    const r = await call('app.version', '{}', { ...auth(), origin: server.origin });
    expect(r.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(r.headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(r.headers['content-security-policy']).toMatch(/object-src 'none'/);
    expect(r.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['referrer-policy']).toBe('no-referrer');
    expect(r.headers['cache-control']).toBe('no-store');
    expect(Object.keys(r.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    const preflight = await raw(server.port, 'OPTIONS', '/api/call/runs.start', { headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBeGreaterThanOrEqual(400);
    expect(Object.keys(preflight.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
  });
});

describe('browser mode: hostile arguments are refused and nothing is stored', () => {
  const hostile: [string, string][] = [
    ['an unknown key', '{"experiment":"pchase-average","preset":"fermi","extra":1}'],
    ['a __proto__ key', '{"experiment":"pchase-average","preset":"fermi","__proto__":{"polluted":true}}'],
    ['a __proto__ parameter', '{"experiment":"pchase-average","preset":"fermi","params":{"__proto__":{"polluted":true}}}'],
    ['a constructor parameter', '{"experiment":"pchase-average","preset":"fermi","params":{"constructor":{"prototype":{"polluted":true}}}}'],
    ['a prototype key deep inside', '{"experiment":"pchase-average","preset":"fermi","tags":["a"],"params":{"strides":[64]},"notes":"n","title":"t","seed":1,"prototype":1}'],
    ['a number for the preset', '{"experiment":"pchase-average","preset":5}'],
    ['a string seed', '{"experiment":"pchase-average","preset":"fermi","seed":"1"}'],
    ['a negative seed', '{"experiment":"pchase-average","preset":"fermi","seed":-1}'],
    ['a fractional seed', '{"experiment":"pchase-average","preset":"fermi","seed":1.5}'],
    ['a seed beyond 32 bits', '{"experiment":"pchase-average","preset":"fermi","seed":4294967296}'],
    ['a list for params', '{"experiment":"pchase-average","preset":"fermi","params":[1,2]}'],
    ['a string for tags', '{"experiment":"pchase-average","preset":"fermi","tags":"a"}'],
    ['a huge title', JSON.stringify({ experiment: 'pchase-average', preset: 'fermi', title: 'x'.repeat(200_000) })],
    ['a huge parameter string', JSON.stringify({ experiment: 'pchase-average', preset: 'fermi', params: { space: 'g'.repeat(100_000) } })],
    ['control characters in the title', JSON.stringify({ experiment: 'pchase-average', preset: 'fermi', title: 'a\u0000b' })],
    ['an unknown parameter', '{"experiment":"pchase-average","preset":"fermi","params":{"nope":1}}'],
    ['a bad parameter value', '{"experiment":"pchase-average","preset":"fermi","params":{"sizeFrom":"lots"}}'],
    ['too much work', '{"experiment":"pchase-average","preset":"fermi","params":{"sizeFrom":"1KB","sizeTo":"16GB","sizeStep":"4B"}}'],
    ['an unknown experiment', '{"experiment":"no-such","preset":"fermi"}'],
    ['a path as experiment', '{"experiment":"../../etc/passwd","preset":"fermi"}'],
    ['deep nesting', `{"experiment":"pchase-average","preset":"fermi","params":{"a":${'['.repeat(60)}${']'.repeat(60)}}}`],
    ['NaN through the wire', '{"experiment":"pchase-average","preset":"fermi","seed":{"$num":"NaN"}}'],
    ['bytes where a string belongs', '{"experiment":{"$u8":"AAAA"},"preset":"fermi"}'],
    ['an unknown wire tag', '{"experiment":"pchase-average","preset":"fermi","params":{"$eval":"x"}}'],
    ['broken JSON', '{"experiment":"pchase-average",'],
    ['a JSON array', '[1,2,3]'],
    ['JSON null', 'null'],
    ['a JSON string', '"runs"'],
  ];

  it.each(hostile)('refuses %s with 400', async (_what, body) => {
    const before = runCount();
    const r = await call('runs.start', body);
    expect(r.status).toBe(400);
    const e = errorOf(r.text);
    expect(e.code).toBe('invalid-args');
    expect(e.message).not.toMatch(/\n\s+at /);
    expect(runCount()).toBe(before);
    expect(lab.queue()).toEqual({ queued: [], running: [] });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses an unknown preset with 404 and stores nothing', async () => {
    const before = runCount();
    const r = await call('runs.start', '{"experiment":"pchase-average","preset":"no-such-gpu"}');
    expect(r.status).toBe(404);
    expect(runCount()).toBe(before);
  });

  it('refuses hostile arguments to the other calls too', async () => {
    const cases: [string, string, number][] = [
      ['runs.get', '{"id":"../../x"}', 400],
      ['runs.get', '{"id":"00000000-0000-4000-8000-000000000000"}', 404],
      ['runs.list', '{"limit":100000}', 400],
      ['runs.list', '{"text":"x","sql":"1; DROP TABLE runs"}', 400],
      ['runs.delete', '{"ids":[]}', 400],
      ['presets.saveCustom', '{"preset":{"id":"x"}}', 400],
      ['presets.saveCustom', '{"preset":{"__proto__":{"a":1}}}', 400],
      ['bundles.import', '{"bytes":"not bytes"}', 400],
      ['bundles.import', '{"bytes":{"$u8":"AAAA"}}', 400],
      ['exports.pdf', '{"runIds":["00000000-0000-4000-8000-000000000000"],"title":"a\\u0007"}', 400],
      ['app.version', '{"x":1}', 400],
      ['gpu.emit', '{"experiment":"../x"}', 400],
      ['gpu.import', '{"text":123,"fileName":"a.jsonl"}', 400],
      ['gpu.import', '{"text":"{}","fileName":"a.jsonl","__proto__":{"x":1}}', 400],
      ['gpu.run', '{"experiment":"pchase-average","timeoutS":99999}', 400],
      ['gpu.preset', '{"runId":"00000000-0000-4000-8000-000000000000","name":"x"}', 404],
    ];
    const before = runCount();
    for (const [name, body, status] of cases) {
      const r = await call(name, body);
      expect(r.status, `${name} ${body}`).toBe(status);
    }
    const tampered = await call('bundles.import', Buffer.from('not a bundle at all'), { authorization: `Bearer ${server.token}`, 'content-type': 'application/octet-stream' });
    expect(tampered.status).toBe(400);
    expect(errorOf(tampered.text).code).toBe('invalid-bundle');
    expect(runCount()).toBe(before);
    expect((await lab.api.presets.list()).length).toBe(PRESETS.length);
  });
});

describe('browser mode: runs over HTTP', () => {
  it('a run started over HTTP reports progress by server-sent events, is stored, and equals an in-process run bit for bit', async () => {
    const events: { [E in keyof LabEvents]: LabEvents[E][] } = { 'run.progress': [], 'run.finished': [], 'queue.changed': [], 'reproduce.progress': [], 'gpu.progress': [] };
    const offs = (Object.keys(events) as (keyof LabEvents)[]).map((name) => client.on(name, (p) => (events[name] as unknown[]).push(p)));
    // The stream is open before the run starts.
    await new Promise((r) => setTimeout(r, 200));
    const params = { sizeFrom: '1KB', sizeTo: '64KB', sizeStep: '1KB', jitter: 3 };
    const { runId } = await client.runs.start({ experiment: 'pchase-average', preset: 'kepler', params, seed: 42 });
    const finished = await new Promise<LabEvents['run.finished']>((resolve) => {
      const check = () => {
        const f = events['run.finished'].find((e) => e.runId === runId);
        if (f) resolve(f);
        else setTimeout(check, 20);
      };
      check();
    });
    for (const off of offs) off();
    expect(finished).toEqual({ runId, status: 'done', error: null });
    const progress = events['run.progress'].filter((p) => p.runId === runId);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress[progress.length - 1].done).toBe(progress[progress.length - 1].total);
    expect(events['queue.changed'].some((q) => q.running.includes(runId))).toBe(true);

    const run = await client.runs.get({ id: runId });
    expect(run.status).toBe('done');
    const expected = inProcess('pchase-average', 'kepler', params, 42);
    expect(run.result!.series.length).toBe(expected.series.length);
    run.result!.series.forEach((s, i) => {
      expect(s.x).toBeInstanceOf(Float64Array);
      expect(s.y).toBeInstanceOf(Float64Array);
      expect(bytesOf(s.x).equals(bytesOf(Float64Array.from(expected.series[i].x)))).toBe(true);
      expect(bytesOf(s.y).equals(bytesOf(Float64Array.from(expected.series[i].y)))).toBe(true);
    });
    expect(run.result!.findings).toEqual(expected.findings);
    // Over HTTP exactly what the service gives in process.
    expect(run).toEqual(lab.store.getRun(runId));
    expect((await client.runs.list({ experiment: 'pchase-average' })).items.map((r) => r.id)).toContain(runId);
  });

  it('a fine-grained run keeps its trace arrays typed over HTTP, and a bundle travels both ways as bytes', async () => {
    const { runId } = await client.runs.start({ experiment: 'pchase-fine', preset: 'fermi', seed: 3 });
    await lab.finished(runId);
    const local = lab.store.getRun(runId);
    // runs.get leaves the trace and the per-access series out, and says so.
    const run = await client.runs.get({ id: runId });
    expect(run.result!.trace).toBeUndefined();
    expect(run.result!.traceInfo).toEqual({ accesses: local.result!.trace!.latency.length, dropped: 0, levelNames: local.result!.trace!.levelNames, series: ['latency', 'index'] });
    expect(run.result!.series.map((s) => s.name)).toEqual(local.result!.series.map((s) => s.name).filter((n) => n !== 'latency' && n !== 'index'));
    expect(run.result!.findings).toEqual(local.result!.findings);
    // runs.trace brings it, typed, byte for byte; runs.get with full: true is the stored result.
    const trace = (await client.runs.trace({ id: runId }))!;
    for (const k of ['address', 'latency', 'level', 'tlb', 'set', 'way', 'evicted'] as const) {
      expect(trace[k].constructor).toBe(local.result!.trace![k].constructor);
      expect(bytesOf(trace[k]).equals(bytesOf(local.result!.trace![k]))).toBe(true);
      expect(trace[k].buffer.byteLength).toBe(trace[k].byteLength); // each array owns its buffer
    }
    expect(await client.runs.get({ id: runId, full: true })).toEqual(local);
    // Over the wire: a binary frame for a client that reads them (raw bytes, no base64), wire JSON otherwise.
    const post = (accept?: string) =>
      fetch(`${server.origin}/api/call/runs.trace`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json', ...(accept ? { accept } : {}) },
        body: JSON.stringify({ id: runId }),
      });
    const framed = await post(FRAME_CONTENT_TYPE);
    expect(framed.headers.get('content-type')).toBe(FRAME_CONTENT_TYPE);
    const frameBytes = new Uint8Array(await framed.arrayBuffer());
    const plain = await post();
    expect(plain.headers.get('content-type')).toMatch(/^application\/json/);
    const plainText = await plain.text();
    expect(plainText).toContain('"$f64"');
    const arrayBytes = ['address', 'latency', 'level', 'tlb', 'set', 'way', 'evicted'].reduce((n, k) => n + trace[k as 'address'].byteLength, 0);
    expect(frameBytes.byteLength).toBeLessThan(arrayBytes + 2048);
    expect(plainText.length).toBeGreaterThan((arrayBytes * 4) / 3);
    expect(decodeFrame(frameBytes)).toEqual(decodeWire(plainText));

    const bundle = await client.bundles.export({ runIds: [runId] });
    expect(bundle.bytes).toBeInstanceOf(Uint8Array);
    expect(bundle.fileName).toMatch(/^gpulab-1-run-/);
    expect(await client.runs.delete({ ids: [runId] })).toEqual({ deleted: 1 });
    expect(await client.bundles.import({ bytes: bundle.bytes as Uint8Array<ArrayBuffer> })).toEqual({ imported: [runId], skipped: [] });
    expect(await client.runs.get({ id: runId, full: true })).toEqual(local);
  });

  it("a sweep's Slurm folder is collected over HTTP, its bundles as raw bytes in a frame", async () => {
    const tmpDb = new TempDb();
    try {
      const plan = parsePlan({ experiment: 'pchase-fine', presets: ['fermi'], params: { size: '4KB' }, id: randomUUID(), axes: [{ param: 'stride', values: [32, 64] }] });
      const bundle = await pointBundle(tmpDb, plan, 1);
      const seen: { type: string; bytes: number }[] = [];
      const spy = createHttpLab(server.origin, server.token, {
        fetch: async (url, init) => {
          seen.push({ type: init.headers['content-type']!, bytes: typeof init.body === 'string' ? init.body.length : init.body.byteLength });
          return fetch(url, init as RequestInit);
        },
      });
      const r = await spy.sweeps.collect({ plan: JSON.stringify(plan), bundles: [{ name: bundle.name, bytes: bundle.bytes as Uint8Array<ArrayBuffer> }] });
      expect(r).toMatchObject({ sweepId: plan.id, created: true, imported: 1, done: 1, missing: [0], unreadable: [] });
      // Raw bytes, not base64: the request is the bundle and a little JSON.
      expect(seen[0]!.type).toBe(FRAME_CONTENT_TYPE);
      expect(seen[0]!.bytes).toBeLessThan(bundle.bytes.byteLength + 2048);
      // The same call as wire JSON (base64) is taken too, and imports nothing twice.
      const again = await call('sweeps.collect', encodeWire({ plan: JSON.stringify(plan), bundles: [{ name: bundle.name, bytes: bundle.bytes }] }));
      expect(again.status).toBe(200);
      expect((decodeWire(again.text) as { result: { imported: number; alreadyHere: number } }).result).toMatchObject({ imported: 0, alreadyHere: 1 });
    } finally {
      tmpDb.cleanup();
    }
  });

  it('the client rejects with LabError carrying the server code, and cancels over HTTP', async () => {
    const err = await client.runs.get({ id: '00000000-0000-4000-8000-000000000000' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LabError);
    expect(err).toMatchObject({ code: 'not-found' });
    const { runId } = await client.runs.start({ experiment: 'test-sleep', preset: 'fermi', params: { ms: 60_000 } });
    expect(await client.runs.cancel({ id: runId })).toEqual({ cancelled: true });
    expect((await client.runs.get({ id: runId })).status).toBe('cancelled');
  });

  it('a server that is gone is "unreachable"', async () => {
    const other = await startLabServer({ lab, staticDir: null });
    const gone = createHttpLab(other.origin, other.token);
    await other.close();
    await expect(gone.app.version()).rejects.toMatchObject({ code: 'unreachable' });
  });
});

describe('browser mode: static files', () => {
  it('serves the renderer: the page, its assets, and the page for client-side routes', async () => {
    const page = await raw(server.port, 'GET', '/');
    expect(page.status).toBe(200);
    expect(page.text).toBe(INDEX);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(page.headers['x-frame-options']).toBe('DENY');
    const js = await raw(server.port, 'GET', '/assets/app.js');
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toMatch(/^text\/javascript/);
    expect((await raw(server.port, 'GET', '/runs/library')).text).toBe(INDEX);
    const head = await raw(server.port, 'HEAD', '/assets/app.js');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect((await raw(server.port, 'POST', '/', { body: 'x' })).status).toBe(405);
    expect((await raw(server.port, 'GET', '/assets/missing.js')).status).toBe(404);
  });

  it.each([
    '/../secret.txt',
    '/assets/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/%2E%2E/%2E%2E/secret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/assets/..%5c..%5csecret.txt',
    '/..%2fsecret.txt',
    '/%2fetc%2fpasswd',
    '/assets/link.txt',
    '/.env',
    '/assets/%00.js',
    '/%ff.js',
    '/C:%5cWindows%5cwin.ini',
  ])('refuses %s', async (path) => {
    const r = await raw(server.port, 'GET', path);
    expect([400, 404]).toContain(r.status);
    expect(r.text).not.toContain('outside the renderer');
    expect(r.text).not.toContain('SECRET');
  });

  it('says how to build the renderer when it is missing', async () => {
    const bare = await startLabServer({ lab, staticDir: tmp.file('nowhere') });
    try {
      const r = await raw(bare.port, 'GET', '/');
      expect(r.status).toBe(503);
      expect(r.text).toMatch(/npm run build/);
    } finally {
      await bare.close();
    }
  });
});

describe('npm run web', () => {
  it('prints the URL with its token, answers on it, and stops gracefully on SIGINT', async () => {
    const db = tmp.file('main.db');
    const child = spawn(process.execPath, [...tsxExecArgv(), fileURLToPath(new URL('../../src-main/web/main.ts', import.meta.url)), '--db', db, '--no-open', '--pool-size', '1'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (c: Buffer) => {
        stdout += c.toString();
        const m = /open: +(http:\/\/127\.0\.0\.1:\d+\/#token=[0-9a-f]{64})/.exec(stdout);
        if (m) resolve(m[1]);
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
    });
    expect(stdout).toContain(`database: ${db}`);
    const u = new URL(url);
    const remote = createHttpLab(u.origin, pageToken(u.hash)!);
    expect((await remote.app.version()).electron).toBeNull();
    const exit = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    child.kill('SIGINT');
    expect(await exit).toBe(0);
    expect(stderr).toMatch(/SIGINT: stopping/);
  });

  it('exits 2 with one line on bad arguments', async () => {
    const child = spawn(process.execPath, [...tsxExecArgv(), fileURLToPath(new URL('../../src-main/web/main.ts', import.meta.url)), '--host', '0.0.0.0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    expect(code).toBe(2);
    expect(stderr).toMatch(/Unknown option '--host'/);
  });
});

