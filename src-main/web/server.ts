/**
 * The browser mode's HTTP server: the lab service's calls and events on 127.0.0.1, and the built
 * renderer as static files.
 *
 * - Loopback only: it listens on 127.0.0.1 and refuses any other host. Requests whose Host header
 *   is not `127.0.0.1:<port>` or `localhost:<port>` are refused (DNS rebinding), and so are API
 *   requests with an Origin other than the server's own. No CORS headers, ever.
 * - A per-launch token (32 random bytes, hex) on every API request: `Authorization: Bearer <token>`
 *   or `x-lab-token: <token>`, compared in constant time; 401 otherwise. The event stream takes it
 *   as `?token=` (EventSource cannot set headers). The page URL carries it in the fragment
 *   (`http://127.0.0.1:<port>/#token=<token>`), which browsers never send to the server.
 * - Calls: `POST /api/call/<name>` only (405 for other methods, 404 for unknown names), the argument
 *   as wire JSON (src-main/shared/wire.ts) of at most 1 MiB (413 beyond; gpu.import's holds any file
 *   within the contract's import limit, GPU_IMPORT_BODY_BYTES), or for bundles.import the
 *   raw file bytes (application/octet-stream, up to the contract's bundle limit), or for
 *   sweeps.collect a binary frame (application/x-gpulab-frame, wire.ts `encodeFrame`: the JSON, then
 *   the files' bytes raw; up to the same limit, its JSON part up to 32 MiB). Answers:
 *   200 `{"result": ...}` or an error status with `{"error": {"code", "message"}}` (never a stack).
 *   A client that sends `Accept: application/x-gpulab-frame` gets a result holding typed arrays
 *   (a trace, series, file bytes) as a binary frame instead (wire.ts `encodeFrame`): raw bytes.
 * - Events: `GET /api/events?token=` as server-sent events (`event: run.progress`, ...).
 * - Static files from the built renderer (out/renderer): GET and HEAD only, no dotfiles, no path
 *   that leaves the folder (`..`, encoded or not, backslashes, NUL, symlinks out), an unknown
 *   extension-less path falls back to index.html.
 * - Strict headers on every response: the renderer's Content-Security-Policy (src-main/electron/csp.ts)
 *   with frame-ancestors 'none', nosniff, no referrer, no framing, same-origin isolation.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync, realpathSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LabErrorCode, LabErrorPayload, LabEvents } from '../contract';
import { EVENT_NAMES, isCallName, LIMITS } from '../contract';
import { CHARACTERISATION_BODY_BYTES, GPU_IMPORT_BODY_BYTES, importTooLarge } from '../gpu-contract';
import { CSP_HEADER } from '../electron/csp';
import type { CallOutcome } from '../services/lab';
import { BINARY_CALLS, BINARY_CONTENT_TYPE, CALL_PATH, EVENTS_PATH, FRAME_ARG_CALLS, JSON_CONTENT_TYPE, QUEUE_DELTA_EVENT, TOKEN_HEADER } from '../shared/http-client';
import { decodeFrame, decodeWire, encodeFrame, encodeWire, FRAME_CONTENT_TYPE, frameJsonLength, WireError } from '../shared/wire';
import { MIME } from '../shared/mime';

export const LOOPBACK = '127.0.0.1';
/** Largest JSON argument of a call. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
/** Largest JSON part of a frame argument (sweeps.collect: plan.json and up to 64 custom presets as text, the files' names). */
export const FRAME_JSON_LIMIT = 32 * 1024 * 1024;
/** The built renderer (electron-vite's out/renderer), from src-main/web/. */
export const DEFAULT_STATIC_DIR = fileURLToPath(new URL('../../out/renderer', import.meta.url));

/** What the server needs of the lab service (src-main/services/lab.ts LabService). */
export interface LabDispatcher {
  dispatch(name: string, rawArgs: unknown): Promise<CallOutcome>;
  on<E extends keyof LabEvents>(event: E, listener: (payload: LabEvents[E]) => void): () => void;
  /** The queue now (sent once to each new event stream; changes follow as `queue.delta`). */
  queue?(): QueueState;
}

type QueueState = LabEvents['queue.changed'];

/**
 * The event stream sends the queue once when it opens (`queue.changed`) and then its changes
 * (`queue.delta`: runs added to the queue's end, runs that started, runs that left), so that each
 * change costs bytes for the runs it moves, not for the whole queue (which made n queued runs cost
 * n^2 bytes as they drained).
 * The HTTP client rebuilds `queue.changed` for its listeners (src-main/shared/http-client.ts).
 */
export interface QueueDelta {
  /** Joined the queue, in order, at its end. */
  queued?: string[];
  /** Started (left the queue if they were in it), in order, at the end of the running list. */
  started?: string[];
  /** Left the queue or the running list. */
  removed?: string[];
}

/** The changes from one queue state to the next, or null when they are not appends and removals (the stream then sends the whole queue). */
export function queueDelta(from: QueueState, to: QueueState): QueueDelta | null {
  const toQueued = new Set(to.queued);
  const toRunning = new Set(to.running);
  const fromQueued = new Set(from.queued);
  const fromRunning = new Set(from.running);
  const removed = [...from.queued.filter((id) => !toQueued.has(id) && !toRunning.has(id)), ...from.running.filter((id) => !toRunning.has(id))];
  const keptQueued = from.queued.filter((id) => toQueued.has(id));
  const added = to.queued.slice(keptQueued.length);
  const keptRunning = from.running.filter((id) => toRunning.has(id));
  const started = to.running.slice(keptRunning.length);
  // Valid only if applying it gives `to` exactly.
  const same = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
  if (!same([...keptQueued, ...added], to.queued) || !same([...keptRunning, ...started], to.running)) return null;
  if (added.some((id) => fromQueued.has(id) || fromRunning.has(id)) || started.some((id) => fromRunning.has(id))) return null;
  const delta: QueueDelta = {};
  if (added.length) delta.queued = added;
  if (started.length) delta.started = started;
  if (removed.length) delta.removed = removed;
  return delta;
}

export interface LabServerOptions {
  lab: LabDispatcher;
  /** Only "127.0.0.1" (the default) is accepted. */
  host?: string;
  /** 0 (the default): a free port. */
  port?: number;
  /** Default: 32 random bytes as hex. Tests may pin one (hex, 32-256 characters). */
  token?: string;
  /** The built renderer; null serves no files. Default: DEFAULT_STATIC_DIR. */
  staticDir?: string | null;
  /** Largest JSON body (bytes). Default DEFAULT_BODY_LIMIT. */
  bodyLimit?: number;
  /** Largest raw body of a binary call (bundles.import) or frame argument (sweeps.collect). Default LIMITS.bundleBytes. */
  binaryLimit?: number;
  /** A comment line on every event stream this often, to keep it open (ms). Default 15 s. */
  heartbeatMs?: number;
  /** A connection that sends nothing, or half its headers, is closed after this (ms); default IDLE_SOCKET_MS. */
  idleMs?: number;
  /** A request body that stops arriving for this long is refused with 408 (ms); default BODY_STALL_MS. */
  bodyStallMs?: number;
  log?: (line: string) => void;
}

export interface LabServer {
  readonly host: string;
  readonly port: number;
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly token: string;
  /** The URL to open: the origin with the token in the fragment. */
  readonly pageUrl: string;
  /** Stops listening, ends the event streams and open connections. */
  close(): Promise<void>;
}

/** Why a server cannot start (a refused option, a busy port). */
export class LabServerError extends Error {
  override name = 'LabServerError';
}

const STATUS: Record<LabErrorCode, number> = {
  'invalid-args': 400,
  'invalid-preset': 400,
  'invalid-bundle': 400,
  'not-found': 404,
  conflict: 409,
  immutable: 409,
  'database-too-new': 500,
  'database-invalid': 500,
  internal: 500,
  unauthorized: 401,
  unreachable: 502,
};

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CSP_HEADER,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), usb=(), serial=(), bluetooth=()',
};

/** A request's headers must arrive within this (a slow or half-open client is dropped). */
export const HEADERS_TIMEOUT_MS = 10_000;
/** A whole request (a bundle upload included) must arrive within this. */
export const REQUEST_TIMEOUT_MS = 120_000;
/** A kept-alive connection between requests, and a connection that sends nothing, is closed after this. */
export const IDLE_SOCKET_MS = 10_000;
/**
 * Connections that have not shown this launch's token yet (just opened, sending headers, or answered
 * without one) at most: a new one beyond this closes the oldest of them, so that sockets without the
 * token cannot hold every slot; connections that showed it are never closed for another's sake.
 */
export const MAX_UNTRUSTED_SOCKETS = 64;
/** A request answered before its body arrived (a refusal) may send the rest for this long, then its connection is closed. */
export const LINGER_MS = 1_000;
/** A body that stops arriving for this long is refused (408) and its connection closed. */
export const BODY_STALL_MS = 5_000;
/** A body must arrive within BODY_GRACE_MS plus its declared size at BODY_MIN_RATE (loopback moves gigabytes a second). */
export const BODY_GRACE_MS = 10_000;
export const BODY_MIN_RATE = 1024 * 1024;
/** Event streams at most (each holds a connection). */
const MAX_STREAMS = 64;
/** A stream whose client reads slower than this much buffered output is ended (it reconnects). */
const STREAM_BACKLOG = 8 * 1024 * 1024;

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: LabErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** Starts the server; resolves once it listens. */
export function startLabServer(options: LabServerOptions): Promise<LabServer> {
  const host = options.host ?? LOOPBACK;
  if (host !== LOOPBACK)
    return Promise.reject(new LabServerError(`the browser mode listens on ${LOOPBACK} only (loopback); refusing to bind to "${String(host).slice(0, 80)}"`));
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) return Promise.reject(new LabServerError(`--port must be a whole number from 0 to 65535; got ${port}`));
  const token = options.token ?? randomBytes(32).toString('hex');
  if (!/^[0-9a-f]{32,256}$/.test(token)) return Promise.reject(new LabServerError('a token must be 32 to 256 lower-case hex characters'));
  const staticDir = options.staticDir === undefined ? DEFAULT_STATIC_DIR : options.staticDir;
  const impl = new ServerImpl(options.lab, token, staticDir, options.bodyLimit ?? DEFAULT_BODY_LIMIT, options.binaryLimit ?? LIMITS.bundleBytes, options.heartbeatMs ?? 15_000, options.log ?? (() => {}), options.idleMs ?? IDLE_SOCKET_MS, options.bodyStallMs ?? BODY_STALL_MS);
  return impl.listen(port);
}

class ServerImpl {
  private readonly server: Server;
  private readonly expected: Buffer;
  private readonly streams = new Set<ServerResponse>();
  private readonly sockets = new Set<Socket>();
  /** Sockets with a request in hand (a call, an event stream): exempt from the idle timeout. */
  private readonly busy = new Set<Socket>();
  /** Sockets that have not shown the token, oldest first (MAX_UNTRUSTED_SOCKETS). */
  private readonly untrusted = new Set<Socket>();
  private readonly staticRoot: string | null;
  private port = 0;
  private allowedHosts = new Set<string>();
  private origin = '';

  constructor(
    private readonly lab: LabDispatcher,
    private readonly token: string,
    staticDir: string | null,
    private readonly bodyLimit: number,
    private readonly binaryLimit: number,
    private readonly heartbeatMs: number,
    private readonly log: (line: string) => void,
    idleMs: number,
    private readonly bodyStallMs: number,
  ) {
    this.expected = sha256(token);
    this.staticRoot = staticDir && existsSync(staticDir) ? realpathSync(staticDir) : null;
    this.server = createServer(
      { maxHeaderSize: 16 * 1024, headersTimeout: Math.min(HEADERS_TIMEOUT_MS, idleMs), requestTimeout: REQUEST_TIMEOUT_MS, keepAliveTimeout: idleMs / 2, connectionsCheckingInterval: Math.min(1_000, idleMs) },
      (req, res) => {
      const socket = req.socket;
      this.busy.add(socket);
      res.on('close', () => this.busy.delete(socket));
      // Answered before its body arrived (a refusal, or a body too large to read): the rest may come
      // for a moment (so the client reads the answer rather than a reset), then the connection goes.
      res.on('finish', () => {
        if (req.complete || socket.destroyed) return;
        const linger = setTimeout(() => {
          if (!req.complete) socket.destroy();
        }, LINGER_MS);
        linger.unref();
        req.on('end', () => clearTimeout(linger));
      });
      void this.handle(req, res).catch((err: unknown) => {
        this.log(`[web] ${req.method} ${String(req.url).slice(0, 120)}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        if (!res.headersSent) this.sendError(res, new HttpError(500, 'internal', 'internal error'));
        else res.destroy();
      });
      },
    );
    this.server.maxConnections = 256;
    this.server.on('connection', (s: Socket) => {
      this.sockets.add(s);
      this.untrusted.add(s);
      if (this.untrusted.size > MAX_UNTRUSTED_SOCKETS) {
        const oldest = this.untrusted.values().next().value;
        if (oldest) {
          this.untrusted.delete(oldest);
          oldest.destroy();
        }
      }
      // A connection that sends nothing (or idles between requests) is destroyed, not kept half-open.
      s.setTimeout(idleMs, () => {
        if (!this.busy.has(s)) s.destroy();
      });
      s.on('close', () => {
        this.sockets.delete(s);
        this.busy.delete(s);
        this.untrusted.delete(s);
      });
    });
    this.server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
      if (!socket.writable) {
        socket.destroy();
        return;
      }
      const timedOut = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' || err.code === 'ERR_HTTP_HEADERS_TIMEOUT';
      socket.end(`HTTP/1.1 ${timedOut ? '408 Request Timeout' : '400 Bad Request'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      // Then gone for good, whether or not the client closes its side.
      setTimeout(() => socket.destroy(), 500).unref();
    });
  }

  listen(port: number): Promise<LabServer> {
    return new Promise((resolvePromise, reject) => {
      const onError = (err: NodeJS.ErrnoException) => {
        reject(new LabServerError(err.code === 'EADDRINUSE' ? `port ${port} on ${LOOPBACK} is in use; choose another with --port, or leave it out for a free one` : `cannot listen on ${LOOPBACK}:${port}: ${err.message}`));
      };
      this.server.once('error', onError);
      this.server.listen({ host: LOOPBACK, port, exclusive: true }, () => {
        this.server.off('error', onError);
        this.server.on('error', (err) => this.log(`[web] server error: ${err.message}`));
        this.port = (this.server.address() as AddressInfo).port;
        this.origin = `http://${LOOPBACK}:${this.port}`;
        this.allowedHosts = new Set([`${LOOPBACK}:${this.port}`, `localhost:${this.port}`]);
        const close = () => this.close();
        resolvePromise({ host: LOOPBACK, port: this.port, origin: this.origin, token: this.token, pageUrl: `${this.origin}/#token=${this.token}`, close });
      });
    });
  }

  private closing: Promise<void> | null = null;

  close(): Promise<void> {
    this.closing ??= new Promise<void>((done) => {
      for (const s of this.streams) s.end();
      this.streams.clear();
      this.server.close(() => done());
      this.server.closeIdleConnections();
      // Connections still busy (a long call) get a moment, then go.
      const timer = setTimeout(() => {
        for (const s of this.sockets) s.destroy();
      }, 1_000);
      timer.unref();
    });
    return this.closing;
  }

  // -------------------------------------------------------------------------------------------

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v);
    const hostHeader = (req.headers.host ?? '').toLowerCase();
    if (!this.allowedHosts.has(hostHeader)) return this.sendError(res, new HttpError(403, 'unauthorized', `refused: the Host header must be ${LOOPBACK}:${this.port} or localhost:${this.port}`));
    const rawUrl = req.url ?? '';
    if (!rawUrl.startsWith('/') || rawUrl.startsWith('//')) return this.sendError(res, new HttpError(400, 'invalid-args', 'bad request target'));
    const url = new URL(rawUrl, this.origin);
    if (url.pathname === '/api' || url.pathname.startsWith('/api/')) return this.api(req, res, url);
    return this.serveStatic(req, res, url);
  }

  private async api(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    res.setHeader('cache-control', 'no-store');
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== this.origin && origin !== `http://localhost:${this.port}`)
      return this.sendError(res, new HttpError(403, 'unauthorized', 'refused: requests from other origins are not allowed'));
    if (url.pathname === EVENTS_PATH) {
      if (!this.authorized(url.searchParams.get('token') ?? this.headerToken(req))) return this.unauthorized(res);
      this.untrusted.delete(req.socket);
      if (req.method !== 'GET') return this.sendError(res, new HttpError(405, 'invalid-args', `${EVENTS_PATH} takes GET only`, { allow: 'GET' }));
      return this.events(res);
    }
    if (!this.authorized(this.headerToken(req))) return this.unauthorized(res);
    this.untrusted.delete(req.socket);
    if (!url.pathname.startsWith(CALL_PATH)) return this.sendError(res, new HttpError(404, 'not-found', `no API route ${url.pathname.slice(0, 80)}`));
    const name = url.pathname.slice(CALL_PATH.length);
    if (!isCallName(name)) return this.sendError(res, new HttpError(404, 'not-found', `unknown call "${name.slice(0, 60)}"`));
    if (req.method !== 'POST') return this.sendError(res, new HttpError(405, 'invalid-args', `${name} is called with POST`, { allow: 'POST' }));
    if (url.search !== '') return this.sendError(res, new HttpError(400, 'invalid-args', 'a call takes its argument in the body, not the query'));

    const type = String(req.headers['content-type'] ?? '')
      .split(';')[0]
      .trim()
      .toLowerCase();
    const binary = type === BINARY_CONTENT_TYPE && BINARY_CALLS.includes(name);
    const framed = type === FRAME_CONTENT_TYPE && FRAME_ARG_CALLS.includes(name);
    if (!binary && !framed && type !== JSON_CONTENT_TYPE) {
      const other = BINARY_CALLS.includes(name) ? BINARY_CONTENT_TYPE : FRAME_ARG_CALLS.includes(name) ? FRAME_CONTENT_TYPE : null;
      return this.sendError(res, new HttpError(415, 'invalid-args', other ? `send ${JSON_CONTENT_TYPE} or ${other}` : `send the argument as ${JSON_CONTENT_TYPE}`));
    }
    // gpu.import's body holds any text within the contract's import limit, however JSON escapes it.
    const importing = name === 'gpu.import' && !binary && !framed;
    const characterisation = name === 'gpu.importCharacterisation' && !binary && !framed;
    const limit = binary || framed ? this.binaryLimit : importing ? Math.max(this.bodyLimit, GPU_IMPORT_BODY_BYTES) : characterisation ? Math.max(this.bodyLimit, CHARACTERISATION_BODY_BYTES) : this.bodyLimit;
    const body = await readBody(req, limit, this.bodyStallMs);
    if (body === 'aborted') return; // the client went away mid-upload: nothing to answer, nothing to log
    if (body === 'too-large') {
      return this.sendError(res, new HttpError(413, 'invalid-args', importing ? importTooLarge() : `the request body is larger than ${limit} bytes`));
    }
    if (body === 'too-slow') {
      return this.sendError(res, new HttpError(408, 'invalid-args', 'the request body arrived too slowly (it stalled, or came slower than 1 MB a second)', { connection: 'close' }));
    }
    let args: unknown;
    if (binary) {
      args = { bytes: new Uint8Array(body.buffer, body.byteOffset, body.byteLength) };
    } else if (framed) {
      try {
        const bytes = new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
        const json = frameJsonLength(bytes);
        if (json > FRAME_JSON_LIMIT) return this.sendError(res, new HttpError(413, 'invalid-args', `the frame's JSON is larger than ${FRAME_JSON_LIMIT} bytes`));
        args = decodeFrame(bytes);
      } catch (err) {
        const why = err instanceof WireError ? err.message : 'not a frame';
        return this.sendError(res, new HttpError(400, 'invalid-args', `${name}: the body is not valid: ${why.slice(0, 200)}`));
      }
    } else {
      try {
        args = body.length === 0 ? {} : decodeWire(body.toString('utf8'));
      } catch (err) {
        const why = err instanceof WireError ? err.message : 'not JSON';
        return this.sendError(res, new HttpError(400, 'invalid-args', `${name}: the body is not valid: ${why.slice(0, 200)}`));
      }
    }
    const outcome = await this.lab.dispatch(name, args);
    if (outcome.ok && acceptsFrames(req)) return this.sendFrame(res, { result: outcome.result });
    if (outcome.ok) return this.sendJson(res, 200, { result: outcome.result });
    return this.sendJson(res, STATUS[outcome.error.code] ?? 500, { error: outcome.error });
  }

  private events(res: ServerResponse): void {
    if (this.streams.size >= MAX_STREAMS) return this.sendError(res, new HttpError(503, 'internal', 'too many event streams'));
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    let queue: QueueState = this.lab.queue?.() ?? { queued: [], running: [] };
    res.write(`retry: 2000\n: connected\n\nevent: queue.changed\ndata: ${encodeWire(queue)}\n\n`);
    this.streams.add(res);
    const send = (event: string, payload: unknown): void => {
      if (res.writableEnded) return;
      if (res.writableLength > STREAM_BACKLOG) {
        res.end();
        return;
      }
      res.write(`event: ${event}\ndata: ${encodeWire(payload)}\n\n`);
    };
    const offs = EVENT_NAMES.map((event) =>
      event === 'queue.changed'
        ? this.lab.on('queue.changed', (next) => {
            const delta = queueDelta(queue, next);
            queue = next;
            if (delta) send(QUEUE_DELTA_EVENT, delta);
            else send('queue.changed', next);
          })
        : this.lab.on(event, (payload) => send(event, payload)),
    );
    const heartbeat = setInterval(() => {
      if (!res.writableEnded) res.write(': ping\n\n');
    }, this.heartbeatMs);
    heartbeat.unref();
    const stop = () => {
      clearInterval(heartbeat);
      for (const off of offs) off();
      this.streams.delete(res);
    };
    // The response's close is the client going away (a request's own close only means its body was read).
    res.on('close', stop);
  }

  private serveStatic(req: IncomingMessage, res: ServerResponse, url: URL): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') return this.sendText(res, 405, 'Method Not Allowed', { allow: 'GET, HEAD' });
    const root = this.staticRoot;
    if (!root) return this.sendText(res, 503, 'The renderer is not built. Run `npm run build`, then start the browser mode again.');
    const file = this.resolveStatic(root, url.pathname);
    if (!file) return this.sendText(res, 404, 'Not Found');
    const type = MIME[extname(file).toLowerCase()] ?? 'application/octet-stream';
    const size = statSync(file).size;
    res.writeHead(200, { 'content-type': type, 'content-length': String(size), 'cache-control': 'no-cache' });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    const stream = createReadStream(file);
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  }

  /** The file a path names inside the root, or null (missing, hidden, outside). */
  private resolveStatic(root: string, pathname: string): string | null {
    let segments: string[];
    try {
      segments = pathname.split('/').map((s) => decodeURIComponent(s));
    } catch {
      return null;
    }
    segments = segments.filter((s, i) => !(s === '' && (i === 0 || i === segments.length - 1)));
    for (const s of segments) {
      // No empty, dot or dot-dot segments, hidden files, separators or NUL inside a segment.
      if (s === '' || s.startsWith('.') || s.includes('/') || s.includes('\\') || s.includes('\0') || s.includes(':')) return null;
    }
    const wantsIndex = segments.length === 0 || pathname.endsWith('/');
    const candidate = wantsIndex ? join(root, ...segments, 'index.html') : join(root, ...segments);
    const found = this.inside(root, candidate);
    if (found) return found;
    // A client-side route (no extension): the app's page.
    if (!wantsIndex && extname(segments[segments.length - 1] ?? '') === '') return this.inside(root, join(root, 'index.html'));
    return null;
  }

  /** The real path of a regular file that lies inside root (symlinks resolved), or null. */
  private inside(root: string, candidate: string): string | null {
    const abs = resolve(candidate);
    if (!abs.startsWith(root + sep)) return null;
    try {
      const real = realpathSync(abs);
      if (!real.startsWith(root + sep) || !statSync(real).isFile()) return null;
      return real;
    } catch {
      return null;
    }
  }

  // -------------------------------------------------------------------------------------------

  private headerToken(req: IncomingMessage): string | null {
    const auth = req.headers.authorization;
    if (typeof auth === 'string') {
      const m = /^Bearer +([^\s]+)$/i.exec(auth.trim());
      return m ? m[1] : null;
    }
    const h = req.headers[TOKEN_HEADER];
    return typeof h === 'string' ? h : null;
  }

  /** Constant-time comparison (of digests, so lengths never leak either). */
  private authorized(given: string | null): boolean {
    if (given === null || given.length > 1024) return false;
    return timingSafeEqual(sha256(given), this.expected);
  }

  private unauthorized(res: ServerResponse): void {
    this.sendError(res, new HttpError(401, 'unauthorized', 'this request needs the token of this launch: open the URL the browser mode printed', { 'www-authenticate': 'Bearer' }));
  }

  private sendError(res: ServerResponse, err: HttpError): void {
    const payload: LabErrorPayload = { code: err.code, message: err.message };
    for (const [k, v] of Object.entries(err.headers)) res.setHeader(k, v);
    this.sendJson(res, err.status, { error: payload });
  }

  private sendJson(res: ServerResponse, status: number, body: unknown): void {
    let text: string;
    try {
      text = encodeWire(body);
    } catch (err) {
      this.log(`[web] a result could not be encoded: ${err instanceof Error ? err.message : String(err)}`);
      status = 500;
      text = JSON.stringify({ error: { code: 'internal', message: 'the result could not be encoded' } });
    }
    const bytes = Buffer.from(text, 'utf8');
    res.writeHead(status, { 'content-type': `${JSON_CONTENT_TYPE}; charset=utf-8`, 'content-length': String(bytes.length), 'cache-control': 'no-store' });
    res.end(bytes);
  }

  /**
   * A 200 answer as a binary frame (src-main/shared/wire.ts) when it holds typed arrays: their
   * bytes go out as they are, without base64 or one JSON string of their size. Otherwise JSON.
   */
  private sendFrame(res: ServerResponse, body: unknown): void {
    let frame: ReturnType<typeof encodeFrame>;
    try {
      frame = encodeFrame(body);
    } catch {
      return this.sendJson(res, 200, body); // logs and answers 500 with the same failure
    }
    if (frame.arrays === 0) {
      res.writeHead(200, { 'content-type': `${JSON_CONTENT_TYPE}; charset=utf-8`, 'content-length': String(frame.json.byteLength), 'cache-control': 'no-store' });
      res.end(frame.json);
      return;
    }
    res.writeHead(200, { 'content-type': FRAME_CONTENT_TYPE, 'content-length': String(frame.byteLength), 'cache-control': 'no-store' });
    for (const chunk of frame.chunks) res.write(chunk);
    res.end();
  }

  private sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
    const bytes = Buffer.from(`${text}\n`, 'utf8');
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(bytes.length), ...headers });
    res.end(bytes);
  }
}

/** Whether the client said it reads binary frames (`Accept: application/x-gpulab-frame`). */
function acceptsFrames(req: IncomingMessage): boolean {
  const accept = req.headers.accept;
  return typeof accept === 'string' && accept.split(',').some((part) => part.split(';')[0]!.trim().toLowerCase() === FRAME_CONTENT_TYPE);
}

/**
 * The request body; 'too-large' past the limit (a declared length over it at once, unread; an
 * undeclared one as soon as it passes it: the server answers 413 at once and the rest is drained
 * for LINGER_MS while the client reads the answer); 'too-slow' when the body stalls for
 * BODY_STALL_MS or misses its deadline (BODY_GRACE_MS plus its size at BODY_MIN_RATE); 'aborted'
 * when the client goes away.
 */
function readBody(req: IncomingMessage, limit: number, stallMs: number): Promise<Buffer | 'too-large' | 'too-slow' | 'aborted'> {
  const declared = Number(req.headers['content-length']);
  return new Promise((resolvePromise) => {
    if (Number.isFinite(declared) && declared > limit) {
      resolvePromise('too-large');
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const deadlineMs = Math.min(REQUEST_TIMEOUT_MS, BODY_GRACE_MS + ((Number.isFinite(declared) ? declared : limit) / BODY_MIN_RATE) * 1000);
    const finish = (outcome: Buffer | 'too-large' | 'too-slow' | 'aborted') => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      clearTimeout(stall);
      req.off('data', onData);
      resolvePromise(outcome);
    };
    const deadline = setTimeout(() => finish('too-slow'), deadlineMs);
    let stall = setTimeout(() => finish('too-slow'), stallMs);
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      clearTimeout(stall);
      stall = setTimeout(() => finish('too-slow'), stallMs);
      if (size > limit) {
        chunks.length = 0;
        finish('too-large');
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => finish(Buffer.concat(chunks, size)));
    req.on('aborted', () => finish('aborted'));
    req.on('error', () => finish('aborted'));
    req.on('close', () => {
      if (!req.complete) finish('aborted');
    });
  });
}
