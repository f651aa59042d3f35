/**
 * Shared fixtures of the lab service and browser-mode tests: a lab on a temporary database with
 * the test-only experiments enabled, a minimal EventSource for Node, and raw HTTP requests.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXPERIMENTS } from '../../src-sim/experiments';
import type { ExperimentResult } from '../../src-sim/experiments/types';
import { findExperiment } from '../../src-sim/experiments';
import { resolveParams } from '../../src-sim/experiments/params';
import { findPreset } from '../../src-sim/presets';
import { TEST_EXPERIMENTS_ENV } from '../../src-sim/worker-protocol';
import { testExperiments } from '../../src-sim/worker-test-experiments';
import type { LabEvents } from '../../src-main/contract';
import { createLab } from '../../src-main/services/lab';
import type { LabOptions, LabService } from '../../src-main/services/lab';
import { ForkLauncher } from '../../src-main/services/pool';
import type { EventSourceLike } from '../../src-main/shared/http-client';

/** The parent validates against the same catalogue the test workers hold (the crash host is never called here). */
export const TEST_CATALOGUE = [
  ...EXPERIMENTS,
  ...testExperiments({
    exit: () => {
      throw new Error('not in a worker');
    },
    kill: () => {
      throw new Error('not in a worker');
    },
  }),
];

export class TempDir {
  readonly dir = mkdtempSync(join(tmpdir(), 'gpulab-lab-'));
  file(name: string): string {
    return join(this.dir, name);
  }
  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A lab whose workers know the test-only experiments; its log lines are kept in `log`. */
export function testLab(dbPath: string, options: Partial<LabOptions> = {}): { lab: LabService; log: string[] } {
  const log: string[] = [];
  const sink = (line: string) => log.push(line);
  const lab = createLab({
    dbPath,
    poolSize: 2,
    appVersion: '0.1.0-test',
    launcher: new ForkLauncher({ env: { [TEST_EXPERIMENTS_ENV]: '1' }, log: sink }),
    experiments: TEST_CATALOGUE,
    log: sink,
    ...options,
  });
  return { lab, log };
}

/** Resolves with the first event of a kind that matches. */
export function nextEvent<E extends keyof LabEvents>(
  lab: { on: LabService['on'] },
  event: E,
  match: (payload: LabEvents[E]) => boolean = () => true,
): Promise<LabEvents[E]> {
  return new Promise((resolve) => {
    const off = lab.on(event, (payload) => {
      if (match(payload)) {
        off();
        resolve(payload);
      }
    });
  });
}

/** The same experiment run in this process (what a stored run must equal). */
export function inProcess(experiment: string, presetId: string, params: Record<string, unknown>, seed: number): ExperimentResult {
  const e = findExperiment(experiment)!;
  return e.run(findPreset(presetId)!, resolveParams(e.params, params), seed, () => {});
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** One HTTP request exactly as given (path not normalised, any Host header). */
export function raw(
  port: number,
  method: string,
  path: string,
  options: { headers?: Record<string, string | number>; body?: string | Buffer } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: options.headers ?? {}, setHost: options.headers?.host === undefined }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/**
 * A minimal EventSource for Node 20 (which has none): one GET, `event:`/`data:` lines, no
 * reconnection. Enough for the HTTP client under test.
 */
export class NodeEventSource implements EventSourceLike {
  /** Status of the response (0 until it arrives). */
  status = 0;
  readonly opened: Promise<number>;
  private readonly listeners = new Map<string, ((e: { data: unknown }) => void)[]>();
  private readonly req;

  constructor(url: string) {
    let opened!: (status: number) => void;
    this.opened = new Promise((r) => (opened = r));
    this.req = request(url, { method: 'GET', headers: { accept: 'text/event-stream' } }, (res) => {
      this.status = res.statusCode ?? 0;
      opened(this.status);
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data.push(line.slice(6));
          }
          if (data.length) for (const l of this.listeners.get(event) ?? []) l({ data: data.join('\n') });
        }
      });
    });
    this.req.on('error', () => opened(this.status));
    this.req.end();
  }

  addEventListener(type: string, listener: (e: { data: unknown }) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  close(): void {
    this.req.destroy();
  }
}

/** Whether process `pid` is running (a zombie waiting for whoever adopted it to reap it counts as exited). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return process.platform !== 'linux';
  }
}
