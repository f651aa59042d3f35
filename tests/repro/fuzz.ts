/**
 * A bounded, seeded fuzz of the browser mode's HTTP API and of the CLI, loopback only: every call of
 * the contract with its good argument broken at random (keys dropped, values of the wrong type or
 * size, unknown and prototype keys, deep nesting), bodies that are not JSON, wrong methods, paths,
 * tokens, hosts and content types; CLI command lines of every command with random options, numbers
 * and paths (a device, a named pipe, a link to a secret, a folder, a file that is not there).
 *
 * A call fails the fuzz when the server answers 5xx, does not answer within its time, or the CLI
 * says "internal error"; everything else (200, 4xx, exit 0, 1 or 2) is the server or the CLI doing
 * its job. Run by tests/repro/fuzz.test.ts (`npm run fuzz`, and in CI as part of `npm run test:repro`).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import type { Agent} from 'node:http';
import { request } from 'node:http';
import { join } from 'node:path';
import type { CallName } from '../../src-main/contract';
import { CALL_NAMES } from '../../src-main/contract';
import { encodeFrame, encodeWire } from '../../src-main/shared/wire';
import { findPreset } from '../../src-sim/presets';
import { RUN, VALID } from '../unit/valid-args';

/** A small seeded generator (mulberry32): the same seed, the same calls. */
export class Rng {
  constructor(private s: number) {}
  next(): number {
    this.s = (this.s + 0x6d2b79f5) | 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

/**
 * A good argument for every call (the contract test's, tests/unit/valid-args.ts); the fuzz breaks
 * them. Runs and sweeps it starts are small: the default P-chase of the good argument on Fermi.
 */
export function goodArgs(): Record<CallName, unknown> {
  const good = structuredClone(VALID) as Record<CallName, unknown>;
  good['runs.start'] = { experiment: 'pchase-average', preset: 'fermi', params: { strides: [64, 128], sizeFrom: '4 KB', sizeTo: '16 KB' }, seed: 3 };
  return good;
}

/** Values that break an argument: wrong types, edges, sizes, hostile strings. */
function oddValue(r: Rng, ids: readonly string[]): unknown {
  switch (r.int(22)) {
    case 0: return null;
    case 1: return r.chance(0.5);
    case 2: return r.pick([-1, 0, 1, 2 ** 31, 2 ** 53 + 1, -0, 1e308, -1e308, 0.5, 4294967296]);
    case 3: return '';
    case 4: return 'x'.repeat(r.pick([300, 5_000, 120_000]));
    case 5: return r.pick(['../../etc/passwd', '/dev/zero', 'C:\\Windows', '%2e%2e/', '\u0000', '\ud800', '😀'.repeat(50), '<script>alert(1)</script>', "'; DROP TABLE runs; --"]);
    case 6: return r.pick(['NaN', 'Infinity', '1e5', '0x10', '  ', '-5', '4 KB', '64 GB', '1e400', '00012']);
    case 7: return [];
    case 8: return {};
    case 9: {
      let v: unknown = 1;
      for (let i = 0, n = r.pick([20, 200, 2_000]); i < n; i++) v = r.chance(0.5) ? [v] : { a: v };
      return v;
    }
    case 10: return Array.from({ length: r.pick([10, 5_000, 100_000]) }, (_, i) => i);
    case 11: return JSON.parse('{"__proto__": {"polluted": 1}}');
    case 12: return JSON.parse('{"constructor": {"prototype": {"polluted": 1}}}');
    case 13: return r.pick(ids);
    case 14: return r.pick(['pchase-average', 'pchase-fine', 'tlb-probes', 'cache-structure', 'shared-bank-stride', 'lash-stencil', 'no-such', 'test-crash']);
    case 15: return r.pick(['fermi', 'kepler', 'tesla', 'hopper', 'h200', 'mine', 'no-such']);
    case 16: return new Uint8Array(r.int(64));
    case 17: return r.pick(['2026-01-01', 'yesterday', '9999-99-99', '1970-01-01T00:00:00Z']);
    case 18: return r.pick(['done', 'failed', 'running', 'queued', 'interrupted', 'cancelled', 'weird']);
    case 19: return { strides: oddValue(r, ids), sizeFrom: oddValue(r, ids) };
    case 20: return [oddValue(r, ids), oddValue(r, ids)];
    default: return r.pick([RUN, '00000000-0000-0000-0000-000000000000', 'not-a-uuid']);
  }
}

function put(o: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A copy of `v` with one to three things broken somewhere in it (or left whole, now and then). */
export function mutate(r: Rng, v: unknown, ids: readonly string[]): unknown {
  const copy = (x: unknown): unknown => {
    if (x instanceof Uint8Array) return new Uint8Array(x);
    if (Array.isArray(x)) return x.map(copy);
    if (!x || typeof x !== 'object') return x;
    const o: Record<string, unknown> = {};
    for (const [k, y] of Object.entries(x)) put(o, k, copy(y));
    return o;
  };
  const out = copy(v);
  if (r.chance(0.15)) return out;
  for (let n = 1 + r.int(3); n > 0; n--) {
    // Walk to a random container and break one of its entries.
    let at: unknown = out;
    for (let depth = 0; depth < 4; depth++) {
      const kids = at && typeof at === 'object' && !(at instanceof Uint8Array) ? Object.values(at).filter((k) => k && typeof k === 'object' && !(k instanceof Uint8Array)) : [];
      if (!kids.length || r.chance(0.4)) break;
      at = r.pick(kids);
    }
    if (!at || typeof at !== 'object' || at instanceof Uint8Array) return oddValue(r, ids);
    const o = at as Record<string, unknown>;
    const keys = Object.keys(o);
    const what = r.int(5);
    if (what === 0 && keys.length) delete o[r.pick(keys)];
    // (defineProperty: a "__proto__" key stays a key of the data, as JSON.parse makes it, and does not set the prototype)
    else if (what === 1) put(o, r.pick(['extra', 'x', '__proto__', 'constructor', 'prototype', '', 'a'.repeat(500)]), oddValue(r, ids));
    else if (keys.length) put(o, r.pick(keys), oddValue(r, ids));
    else return oddValue(r, ids);
  }
  return out;
}

export interface Answer {
  status: number;
  /** The first bytes of the answer, for a failure's report. */
  text: string;
}

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer | null;
  /** Event stream: answered once its headers come (it stays open). */
  stream?: boolean;
  label: string;
}

/** One request of the API fuzz. */
export function apiRequest(r: Rng, port: number, token: string, ids: readonly string[]): FuzzRequest {
  const good = goodArgs();
  const name = r.chance(0.97) ? r.pick(CALL_NAMES) : r.pick(['runs.explode', 'constructor', '__proto__', '../call/runs.list', 'runs.list/x', '']);
  const headers: Record<string, string> = { host: `127.0.0.1:${port}`, authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  let method = 'POST';
  let path = `/api/call/${name}`;
  let body: Buffer | null = null;
  const arg = mutate(r, good[name as CallName] ?? {}, ids);
  const label = `${name} ${JSON.stringify(arg, (_k, v: unknown) => (v instanceof Uint8Array ? `<${v.length} bytes>` : v))?.slice(0, 300)}`;
  if (name === 'bundles.import' && r.chance(0.7)) {
    headers['content-type'] = 'application/octet-stream';
    body = Buffer.from(r.chance(0.5) ? (ids.length ? new Uint8Array(r.int(4096)).map(() => r.int(256)) : new Uint8Array(0)) : Buffer.from('{"format":"gpu-memory-lab.bundle","version":2}\n{"run":1}\n'));
  } else if (name === 'sweeps.collect' && r.chance(0.7)) {
    headers['content-type'] = 'application/x-gpulab-frame';
    try {
      body = Buffer.concat(encodeFrame(arg).chunks);
    } catch {
      body = Buffer.from('not a frame');
    }
    if (r.chance(0.2)) body = body.subarray(0, r.int(body.length + 1));
  } else {
    try {
      body = Buffer.from(encodeWire(arg), 'utf8');
    } catch {
      body = Buffer.from('{}');
    }
  }
  // Now and then, the request itself is wrong.
  switch (r.chance(0.2) ? r.int(14) : -1) {
    case 0: delete headers.authorization; break;
    case 1: headers.authorization = `Bearer ${'0'.repeat(64)}`; break;
    case 2: headers.authorization = 'Basic dXNlcjpwYXNz'; break;
    case 3: headers.host = r.pick(['evil.example', `127.0.0.1:${port + 1}`, '']); break;
    case 4: headers.origin = r.pick(['http://evil.example', 'null', `http://127.0.0.1:${port}`]); break;
    case 5: headers['content-type'] = r.pick(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', '']); break;
    case 6: method = r.pick(['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD']); break;
    case 7: body = Buffer.from(r.pick(['{', '{"a":}', 'null', '[]', '"x"', '1', '{"a":1}{"b":2}', '\u0000', '{"__proto__":{"x":1}}', '{"a":"\\ud800"}'])); break;
    case 8: body = body ? body.subarray(0, r.int(body.length)) : null; break;
    case 9: path = r.pick(['/api', '/api/', '/api/call', '/api/call/', `/api/call/${name}?x=1`, '/api/other', '//api/call/runs.list', '/api/call/runs.list#x', '/api/%2e%2e/call/runs.list']); break;
    case 10: body = Buffer.alloc(r.pick([1024 * 1024 + 1, 2 * 1024 * 1024]), 0x20); break;
    case 11: headers['transfer-encoding'] = 'chunked'; break;
    case 12: path = `/api/events?token=${r.chance(0.5) ? token : 'wrong'}`; method = 'GET'; body = null; break;
    case 13: path = r.pick(['/', '/index.html', '/../../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '/.env', '/assets/../../x', '/a\\b']); method = 'GET'; body = null; break;
    default: break;
  }
  return { method, path, headers, body, stream: path.startsWith('/api/events'), label: `${method} ${path} ${label}` };
}

/** Sends one request; null when it had no answer within `timeoutMs` (a hang). */
export function send(port: number, agent: Agent, q: FuzzRequest, timeoutMs: number): Promise<Answer | null | 'reset'> {
  return new Promise((resolve) => {
    const headers = { ...q.headers };
    if (q.body && !headers['transfer-encoding']) headers['content-length'] = String(q.body.length);
    const req = request({ host: '127.0.0.1', port, method: q.method, path: q.path, headers, agent }, (res) => {
      if (q.stream) {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, text: '' });
        res.destroy();
        return;
      }
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        if (text.length < 400) text += c;
      });
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, text: text.slice(0, 400) });
      });
      res.on('error', () => {
        clearTimeout(timer);
        resolve('reset');
      });
    });
    const timer = setTimeout(() => {
      req.destroy();
      resolve(null);
    }, timeoutMs);
    req.on('error', () => {
      clearTimeout(timer);
      resolve('reset');
    });
    if (q.body) req.end(q.body);
    else req.end();
  });
}

/** Files and folders for the CLI fuzz's paths: a regular file of junk, a device, a named pipe, a link to a (decoy) secret, a folder, a missing file. */
export function hostilePaths(dir: string): string[] {
  mkdirSync(join(dir, 'folder'), { recursive: true });
  writeFileSync(join(dir, 'junk.json'), '{"not": "what you think"');
  writeFileSync(join(dir, 'plan.json'), JSON.stringify({ experiment: 'pchase-fine', presets: ['fermi'], params: { size: '4KB' }, axes: [{ param: 'stride', values: [32, 64] }] }));
  writeFileSync(join(dir, 'preset.json'), JSON.stringify({ ...findPreset('fermi'), id: 'cli-fuzz', name: 'CLI fuzz' }));
  writeFileSync(join(dir, 'proto.json'), '{"__proto__": {"polluted": true}, "id": "x"}');
  const fifo = join(dir, 'pipe');
  spawnSync('mkfifo', [fifo]);
  // A secret outside the folders the CLI is given (a decoy: commands may write where a link points).
  mkdirSync(join(dir, 'outside'), { recursive: true });
  writeFileSync(join(dir, 'outside', 'secret.txt'), 'TOPSECRET-4d1f\n');
  try {
    symlinkSync(join(dir, 'outside', 'secret.txt'), join(dir, 'secret.json'));
    symlinkSync('/dev/zero', join(dir, 'zero.gmlbundle'));
  } catch {
    // already there
  }
  return [join(dir, 'junk.json'), join(dir, 'plan.json'), join(dir, 'preset.json'), join(dir, 'proto.json'), fifo, join(dir, 'secret.json'), join(dir, 'zero.gmlbundle'), join(dir, 'folder'), join(dir, 'missing.json'), dir];
}

/** Commands the CLI fuzz leaves out: they run for minutes by design (the scorecard) or build CUDA programs with the nvcc found here. */
export const CLI_LEFT_OUT = ['reproduce', 'gpu run', 'gpu characterise'];

const BOOLEAN_OPTIONS = new Set(['save', 'raw', 'resubmit', 'help', 'version']);

/** A value an option of this name would plausibly take (right or a little wrong), so that most lines get past parsing. */
function plausible(r: Rng, option: string, paths: readonly string[], out: string): string {
  const some = <T>(xs: readonly T[]): T => r.pick(xs);
  switch (option) {
    case 'preset':
    case 'base':
      return some(['fermi', 'kepler', 'tesla', 'titan', 'volta', 'hopper', 'h200', 'cli-fuzz', 'no-such']);
    case 'param':
      return some(['strides=64', 'strides=32,64', 'sizeFrom=4KB', 'sizeTo=16KB', 'sizeTo=64GB', 'stride=128', 'iterations=64', 'size=4KB', 'traversals=1', 'stride=-4', 'x=1', 'strides=0x10', 'sizeTo=1e3', 'jitter=true', 'space=global']);
    case 'seed':
    case 'limit':
    case 'index':
    case 'jobs':
    case 'max-parallel':
    case 'array-max':
    case 'trace-limit':
    case 'timeout':
    case 'level-gap':
    case 'probe-timeout':
      return String(some([0, 1, 2, 7, 100, -1, 2 ** 32, 1e6, 0.5]));
    case 'format':
      return some(['json', 'text', 'csv', 'xml']);
    case 'preset-file':
      return some(paths);
    case 'out':
    case 'csv':
    case 'pdf':
    case 'slurm':
      return r.chance(0.8) ? join(out, `out-${r.int(50)}${option === 'csv' ? '.csv' : option === 'pdf' ? '.pdf' : ''}`) : some(paths);
    case 'status':
      return some(['done', 'failed', 'queued', 'weird']);
    case 'experiment':
      return some(['pchase-average', 'pchase-fine', 'tlb-probes', 'no-such']);
    case 'arch':
      return some(['native', 'sm_70', 'sm_90', 'sm_1', 'x86']);
    case 'chart':
      return some(['lines', 'heatmap', 'pie']);
    case 'by':
    case 'over':
      return some(['stride', 'iterations', 'none', 'nope']);
    case 'quantity':
      return some(['mean:latency', 'l1.sizeBytes', 'nope']);
    default:
      return some(['L1 lab', 'fermi', '', 'a'.repeat(300), '$(touch /tmp/pwned)', 'l1,fermi']);
  }
}

/** Plausible arguments of a command: an experiment, a preset, a run id, a file, a subcommand. */
function plausibleArgument(r: Rng, command: string, paths: readonly string[], ids: readonly string[]): string {
  const some = <T>(xs: readonly T[]): T => r.pick(xs);
  if (command === 'run' || command === 'experiments' || command === 'gpu emit') return some(['pchase-average', 'pchase-fine', 'shared-bank-stride', 'tlb-probes', 'cache-structure', 'global-latency-patterns', 'texture-set-mapping', 'simt-kernel', 'no-such']);
  if (command === 'preset') return some(['fermi', 'hopper', 'cli-fuzz', 'no-such']);
  if (command.startsWith('runs') || command === 'gpu preset') return some([...ids, 'not-a-uuid', '00000000-0000-4000-8000-000000000000']);
  if (command === 'sweep') return some([...paths, 'task', 'collect', 'export']);
  if (command === 'help') return some(['run', 'sweep', 'gpu', 'runs', 'nope']);
  return some(paths);
}

/** One CLI command line of the fuzz; every command that takes --db gets the fuzz's database. */
export function cliArgv(r: Rng, commands: { name: string; options: readonly string[]; positionals: readonly [number, number] }[], paths: readonly string[], db: string, outDir: string, ids: readonly string[]): string[] {
  const c = r.pick(commands);
  const argv = c.name.split(' ');
  const tidy = r.chance(0.6);
  const value = (): string =>
    r.pick([
      () => r.pick(paths),
      () => join(outDir, `out-${r.int(1000)}`),
      () => String(r.pick([-1, 0, 1, 7, 64, 2 ** 32, 1e21, 0.5])),
      () => r.pick(['fermi', 'kepler', 'hopper', 'no-such', 'cli-fuzz', 'pchase-average', 'tlb-probes', 'json', 'text', 'csv', 'heatmap', 'lines', 'none']),
      () => r.pick(ids.length ? ids : ['x']),
      () => r.pick(['strides=64', 'sizeFrom=4KB', 'sizeTo=1GB', 'stride=-4', 'x=1', '=', 'strides=', '__proto__=1', 'iterations=1e9']),
      () => r.pick(['', ' ', '-', '--', '$(touch /tmp/pwned)', '\u0000', 'a'.repeat(5_000)]),
    ])();
  // Mostly as many arguments as the command takes (then the options and values are what is tried).
  const [min, max] = [c.positionals[0], Math.min(c.positionals[1], 3)];
  const positionals = tidy || r.chance(0.85) ? min + r.int(max - min + 1) : r.int(max + 2);
  for (let i = 0; i < positionals; i++) argv.push(tidy ? plausibleArgument(r, c.name, paths, ids) : value());
  for (let n = r.int(4); n > 0; n--) {
    const option = tidy || r.chance(0.9) ? r.pick(c.options.length ? c.options : ['format']) : r.pick(['db', 'nope', 'seed', 'param']);
    if (option === 'db') continue;
    if (BOOLEAN_OPTIONS.has(option)) argv.push(`--${option}`);
    else argv.push(`--${option}=${tidy ? plausible(r, option, paths, outDir) : value()}`);
  }
  if (c.options.includes('db')) argv.push(`--db=${db}`);
  return argv;
}
