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
import { IDLE_SOCKET_MS, LINGER_MS, MAX_UNTRUSTED_SOCKETS, queueDelta, startLabServer } from '../../src-main/web/server';
import type { Socket } from 'node:net';
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

/** A request with the token on a fresh connection: its status and how long it took (ms). */
function tokenCall(s: LabServer, body = '{}'): Promise<{ status: number; ms: number }> {
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: s.port, method: 'POST', path: '/api/call/runs.list', agent: false, headers: { host: `127.0.0.1:${s.port}`, authorization: `Bearer ${s.token}`, 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: Date.now() - t0 }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** n sockets that each send `head`, then one byte every `everyMs`, until stopped. */
function tricklers(port: number, n: number, head: string, everyMs: number): { sockets: Socket[]; closed: () => number; stop: () => void } {
  const sockets: Socket[] = [];
  let closed = 0;
  const timers: ReturnType<typeof setInterval>[] = [];
  for (let i = 0; i < n; i++) {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(head);
      timers.push(setInterval(() => socket.writable && socket.write('x'), everyMs));
    });
    socket.on('data', () => {});
    socket.on('error', () => {});
    socket.on('close', () => closed++);
    sockets.push(socket);
  }
  return { sockets, closed: () => closed, stop: () => { for (const t of timers) clearInterval(t); for (const s of sockets) s.destroy(); } };
}

describe('sockets without the token cannot hold the server', () => {
  it('300 slow bodies without the token: each is refused and closed within the linger time; a real call is answered at once', async () => {
    server = await startLabServer({ lab: new FakeLab(), staticDir: null });
    const s = server;
    const head = `POST /api/call/runs.list HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n`;
    const slow = tricklers(s.port, 300, head, 200);
    try {
      await new Promise((r) => setTimeout(r, 300));
      const real = await tokenCall(s);
      expect(real.status).toBe(200);
      expect(real.ms).toBeLessThan(1_000);
      await new Promise((r) => setTimeout(r, LINGER_MS + 1_000));
      expect(slow.closed()).toBe(300);
    } finally {
      slow.stop();
    }
  }, 30_000);

  it('300 slow headers: the oldest sockets without the token give way, so a real call still gets a slot', async () => {
    server = await startLabServer({ lab: new FakeLab(), staticDir: null });
    const s = server;
    const slow = tricklers(s.port, 300, `POST /api/call/runs.list HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\nX-Pad: `, 200);
    try {
      await new Promise((r) => setTimeout(r, 500));
      expect(slow.closed()).toBeGreaterThanOrEqual(300 - MAX_UNTRUSTED_SOCKETS);
      const real = await tokenCall(s);
      expect(real.status).toBe(200);
      expect(real.ms).toBeLessThan(1_000);
    } finally {
      slow.stop();
    }
  }, 30_000);

  it('a body with the token that stalls is refused with 408 and its connection closed', async () => {
    server = await startLabServer({ lab: new FakeLab(), staticDir: null, bodyStallMs: 500 });
    const s = server;
    const answer = await new Promise<{ text: string; ms: number }>((resolve) => {
      const t0 = Date.now();
      let text = '';
      const socket = connect(s.port, '127.0.0.1', () =>
        socket.write(`POST /api/call/runs.list HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\nAuthorization: Bearer ${s.token}\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{"a`),
      );
      socket.setEncoding('utf8');
      socket.on('data', (c: string) => (text += c));
      socket.on('error', () => {});
      socket.on('close', () => resolve({ text, ms: Date.now() - t0 }));
    });
    expect(answer.text).toMatch(/^HTTP\/1\.1 408/);
    expect(answer.text).toContain('arrived too slowly');
    expect(answer.ms).toBeLessThan(3_000);
  }, 30_000);

  it('a declared body far over the limit gets its 413, not a reset; an aborted upload logs nothing', async () => {
    const logged: string[] = [];
    server = await startLabServer({ lab: new FakeLab(), staticDir: null, log: (l) => logged.push(l) });
    const s = server;
    const size = 64 * 1024 * 1024;
    const got = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: s.port, method: 'POST', path: '/api/call/runs.list', agent: false, headers: { host: `127.0.0.1:${s.port}`, authorization: `Bearer ${s.token}`, 'content-type': 'application/json', 'content-length': String(size) } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (sent < size) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
    expect(got.status).toBe(413);
    expect(got.text).toMatch(/larger than 1048576 bytes/);
    // A client that goes away half-way through its body.
    await new Promise<void>((resolve) => {
      const socket = connect(s.port, '127.0.0.1', () => {
        socket.write(`POST /api/call/runs.list HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\nAuthorization: Bearer ${s.token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":`);
        setTimeout(() => socket.destroy(), 100);
      });
      socket.on('error', () => {});
      socket.on('close', () => setTimeout(resolve, 200));
    });
    expect(logged).toEqual([]);
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
      grantFileProtocolExtraPrivileges: false,
    });
  });
});
