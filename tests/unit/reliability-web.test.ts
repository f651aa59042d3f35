/**
 * The browser mode under load and abuse: the event stream sends the queue's changes (not the whole
 * queue per change), idle and half-open connections are dropped, a parent's end stops it; and the
 * packaged app's Electron fuses.
 */
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { LabEvents } from '../../src-main/contract';
import type { CallOutcome } from '../../src-main/services/lab';
import { IDLE_SOCKET_MS, queueDelta, startLabServer } from '../../src-main/web/server';
import type { LabDispatcher, LabServer } from '../../src-main/web/server';

type Listener = (payload: unknown) => void;

/** A lab stand-in whose queue the test drives. */
class FakeLab implements LabDispatcher {
  listeners = new Map<string, Set<Listener>>();
  state: LabEvents['queue.changed'] = { queued: [], running: [] };
  async dispatch(): Promise<CallOutcome> {
    return { ok: true, result: null };
  }
  on<E extends keyof LabEvents>(event: E, listener: (payload: LabEvents[E]) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener as Listener);
    return () => set.delete(listener as Listener);
  }
  queue(): LabEvents['queue.changed'] {
    return this.state;
  }
  set(next: LabEvents['queue.changed']): void {
    this.state = next;
    for (const l of this.listeners.get('queue.changed') ?? []) l(next);
  }
}

const id = (i: number): string => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

let server: LabServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** Bytes of the event stream while `drive` changes the queue. */
async function streamBytes(lab: FakeLab, drive: () => void): Promise<string> {
  server = await startLabServer({ lab, staticDir: null });
  const s = server;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: s.port, path: `/api/events?token=${s.token}`, headers: { host: `127.0.0.1:${s.port}` } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      setTimeout(() => {
        drive();
        setTimeout(() => {
          req.destroy();
          resolve(text);
        }, 300);
      }, 100);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Queue n runs one by one, then run and finish them one by one (as a pool of one does). */
function drain(lab: FakeLab, n: number): void {
  const ids = Array.from({ length: n }, (_, i) => id(i));
  for (let i = 1; i <= n; i++) lab.set({ queued: ids.slice(0, i), running: [] });
  for (let i = 0; i < n; i++) {
    lab.set({ queued: ids.slice(i + 1), running: [ids[i]!] });
    lab.set({ queued: ids.slice(i + 1), running: [] });
  }
}

describe('the event stream', () => {
  it('sends changes of the queue, not the whole queue: 1,000 queued runs cost bytes in proportion to the runs', async () => {
    const lab = new FakeLab();
    const text = await streamBytes(lab, () => drain(lab, 1000));
    const bytes = Buffer.byteLength(text);
    // The whole queue per change was sum over 3,000 changes of up to 1,000 ids of 38 bytes: about 56 MB.
    let whole = 0;
    const ids = Array.from({ length: 1000 }, (_, i) => id(i));
    for (let i = 1; i <= 1000; i++) whole += JSON.stringify({ queued: ids.slice(0, i), running: [] }).length;
    for (let i = 0; i < 1000; i++) whole += 2 * JSON.stringify({ queued: ids.slice(i + 1), running: [ids[i]] }).length;
    console.log(`SSE for 1,000 queued runs: ${(bytes / 1024).toFixed(0)} KB of events (the whole queue per change: ${(whole / 2 ** 20).toFixed(1)} MB)`);
    expect(bytes).toBeLessThan(400 * 1024);
    expect(text).toContain('event: queue.delta');
  });

  it('a delta applied to the old queue gives the new one; a reordering falls back to the whole queue', () => {
    const a = { queued: [id(1), id(2), id(3)], running: [id(0)] };
    const b = { queued: [id(3), id(4)], running: [id(2)] };
    expect(queueDelta(a, b)).toEqual({ queued: [id(4)], started: [id(2)], removed: [id(1), id(0)] });
    expect(queueDelta(a, { queued: [id(3), id(2), id(1)], running: [id(0)] })).toBeNull();
  });
});

describe('connections', () => {
  it('a connection that sends nothing is closed after the idle time, and one with half its headers too', async () => {
    // (the default is IDLE_SOCKET_MS; a shorter one here, so the test waits one second, not ten)
    const idleMs = 1_000;
    server = await startLabServer({ lab: new FakeLab(), staticDir: null, idleMs });
    const port = server.port;
    const closedAfter = (send: string) =>
      new Promise<number>((resolve) => {
        const t0 = Date.now();
        const socket = connect(port, '127.0.0.1', () => socket.write(send));
        socket.on('data', () => {});
        socket.on('error', () => {});
        socket.on('close', () => resolve(Date.now() - t0));
      });
    const [idle, half] = await Promise.all([closedAfter(''), closedAfter('GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n')]);
    for (const ms of [idle, half]) {
      expect(ms).toBeGreaterThanOrEqual(idleMs - 50);
      expect(ms).toBeLessThan(idleMs + 3_000);
    }
    expect(IDLE_SOCKET_MS).toBe(10_000);
  }, 30_000);
});

describe('the packaged app', () => {
  it("flips Electron's fuses", () => {
    const config = JSON.parse(readFileSync(new URL('../../electron-builder.json', import.meta.url), 'utf8')) as { electronFuses: Record<string, boolean> };
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
  });
});
