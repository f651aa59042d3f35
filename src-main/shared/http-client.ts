/**
 * The browser mode's client side: `LabApi` (the contract's API object, the same shape as the
 * desktop app's `window.lab`) over the loopback HTTP API of src-main/web/server.ts.
 *
 *   const lab = createHttpLab(location.origin, pageToken(location.hash) ?? '');
 *   const { runId } = await lab.runs.start({ experiment: 'pchase-average', preset: 'fermi' });
 *   const off = lab.on('run.progress', (p) => ...);
 *
 * Calls are `POST /api/call/<name>` with the argument as wire JSON (./wire.ts: typed arrays and
 * non-finite numbers restored exactly), or, for `bundles.import`, the file's bytes as the raw body,
 * or, for `sweeps.collect` (files' bytes among other fields), the argument as a binary frame
 * (wire.ts `encodeFrame`: its byte arrays raw after the JSON, no base64).
 * Results that hold typed arrays come back as a binary frame (wire.ts `decodeFrame`), the others as
 * wire JSON.
 * Every request carries the per-launch token (`Authorization: Bearer`); events come from one
 * EventSource on `/api/events?token=...` (EventSource cannot set headers), opened at the first
 * subscription and closed after the last. A failed call rejects with a LabError whose `code` is the
 * server's (or 'unauthorized' / 'unreachable' for transport failures).
 *
 * Browser-safe: no Node built-ins, no DOM types (fetch and EventSource are taken from globalThis or
 * passed in). The renderer may import this folder (eslint.config.js).
 */
import type { CallName, EventName, LabApi, LabCalls, LabErrorCode, LabEvents } from '../contract';
// Plain modules only (no zod in a client's bundle): the call names and event channels, the error class.
import { buildCallsFrom, LabError } from '../contract-base';
import { CALL_CHANNELS, EVENT_CHANNELS } from './channels';

const EVENT_NAMES = Object.keys(EVENT_CHANNELS) as EventName[];
import { decodeFrame, decodeWire, encodeFrame, encodeWire, FRAME_CONTENT_TYPE } from './wire';

/** Route of a call: `POST ${CALL_PATH}<name>`. */
export const CALL_PATH = '/api/call/';
/** Server-sent events: `GET ${EVENTS_PATH}?token=<token>`. */
export const EVENTS_PATH = '/api/events';
/** The other header that may carry the token (besides `Authorization: Bearer <token>`). */
export const TOKEN_HEADER = 'x-lab-token';
/** Calls whose argument is `{ bytes }` and whose bytes travel as the raw request body. */
export const BINARY_CALLS: readonly CallName[] = ['bundles.import'];
/** Calls whose argument may travel as a binary frame (FRAME_CONTENT_TYPE): files' bytes among other fields. */
export const FRAME_ARG_CALLS: readonly CallName[] = ['sweeps.collect'];
export const BINARY_CONTENT_TYPE = 'application/octet-stream';
export const JSON_CONTENT_TYPE = 'application/json';

/** What the client needs of fetch's response (headers and arrayBuffer: to read binary frames). */
export interface FetchResponseLike {
  status: number;
  text(): Promise<string>;
  headers?: { get(name: string): string | null };
  arrayBuffer?(): Promise<ArrayBuffer>;
}
export type FetchLike = (
  url: string,
  init: { method: 'POST'; headers: Record<string, string>; body: string | Uint8Array; cache: 'no-store'; credentials: 'omit'; redirect: 'error' },
) => Promise<FetchResponseLike>;
/** What the client needs of an EventSource. */
/** The event stream's name for a change of the queue (rebuilt into `queue.changed` for listeners). */
export const QUEUE_DELTA_EVENT = 'queue.delta';

export interface EventSourceLike {
  addEventListener(type: string, listener: (event: { data: unknown }) => void): void;
  close(): void;
}
export type EventSourceCtor = new (url: string) => EventSourceLike;

export interface HttpLabOptions {
  /** Default: globalThis.fetch. */
  fetch?: FetchLike;
  /** Default: globalThis.EventSource. */
  EventSource?: EventSourceCtor;
}

export interface HttpLab extends LabApi {
  /** Closes the event stream (listeners stay registered but hear nothing more). */
  close(): void;
}

/** The token in the page's fragment (`#token=<hex>`), or null. */
export function pageToken(hash: string): string | null {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  const token = params.get('token');
  return token && /^[0-9a-f]{16,256}$/.test(token) ? token : null;
}

const ERROR_CODES: readonly LabErrorCode[] = [
  'invalid-args',
  'not-found',
  'conflict',
  'immutable',
  'invalid-preset',
  'invalid-bundle',
  'database-too-new',
  'database-invalid',
  'internal',
  'unauthorized',
  'unreachable',
];

function errorFrom(status: number, body: unknown): LabError {
  const e = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  const code = ERROR_CODES.includes(e?.code as LabErrorCode) ? (e!.code as LabErrorCode) : status === 401 ? 'unauthorized' : 'internal';
  const message = typeof e?.message === 'string' ? e.message : `the lab server answered HTTP ${status}`;
  return new LabError(code, message);
}

/** A value as one binary frame (wire.ts encodeFrame's chunks, joined). */
function frameBytes(value: unknown): Uint8Array {
  const { chunks, byteLength } = encodeFrame(value);
  const out = new Uint8Array(byteLength);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** The contract's API over HTTP. `baseUrl` is the server's origin (e.g. `http://127.0.0.1:5173`). */
export function createHttpLab(baseUrl: string, token: string, options: HttpLabOptions = {}): HttpLab {
  const base = baseUrl.replace(/\/+$/, '');
  const g = globalThis as unknown as { fetch?: FetchLike; EventSource?: EventSourceCtor };
  const fetchFn = options.fetch ?? g.fetch?.bind(globalThis);
  if (!fetchFn) throw new Error('createHttpLab: no fetch in this environment');

  const invoke = async (name: CallName, args: unknown): Promise<unknown> => {
    const binary = BINARY_CALLS.includes(name) && (args as { bytes?: unknown } | null)?.bytes instanceof Uint8Array;
    const framed = !binary && FRAME_ARG_CALLS.includes(name);
    let res: FetchResponseLike;
    try {
      res = await fetchFn(`${base}${CALL_PATH}${name}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': binary ? BINARY_CONTENT_TYPE : framed ? FRAME_CONTENT_TYPE : JSON_CONTENT_TYPE,
          // Results holding typed arrays (a trace) come back as a binary frame: no base64.
          accept: `${FRAME_CONTENT_TYPE}, ${JSON_CONTENT_TYPE}`,
        },
        body: binary ? (args as { bytes: Uint8Array }).bytes : framed ? frameBytes(args ?? {}) : encodeWire(args ?? {}),
        cache: 'no-store',
        credentials: 'omit',
        redirect: 'error',
      });
    } catch (err) {
      throw new LabError('unreachable', `the lab server is not reachable: ${err instanceof Error ? err.message : String(err)}`);
    }
    let body: unknown;
    try {
      const type = res.headers?.get('content-type') ?? '';
      if (res.status === 200 && type.split(';')[0]!.trim() === FRAME_CONTENT_TYPE && res.arrayBuffer) body = decodeFrame(await res.arrayBuffer());
      else body = decodeWire(await res.text());
    } catch {
      throw new LabError(res.status === 401 ? 'unauthorized' : 'internal', `the lab server answered HTTP ${res.status} with a body that is not the lab's JSON`);
    }
    if (res.status !== 200 || body === null || typeof body !== 'object' || !('result' in body)) throw errorFrom(res.status, body);
    return (body as { result: unknown }).result;
  };

  const listeners = new Map<EventName, Set<(payload: never) => void>>();
  let source: EventSourceLike | null = null;
  let closed = false;
  /** The queue as the stream last described it (it sends the whole queue on connect, then changes). */
  let queue: LabEvents['queue.changed'] | null = null;

  const deliver = (event: EventName, payload: unknown): void => {
    for (const l of [...(listeners.get(event) ?? [])]) {
      try {
        (l as (p: unknown) => void)(payload);
      } catch (err) {
        console.error(`a "${event}" listener threw`, err);
      }
    }
  };

  const open = (): void => {
    if (source || closed) return;
    const Ctor = options.EventSource ?? g.EventSource;
    if (!Ctor) throw new Error('createHttpLab: no EventSource in this environment');
    source = new Ctor(`${base}${EVENTS_PATH}?token=${encodeURIComponent(token)}`);
    for (const event of EVENT_NAMES) {
      source.addEventListener(event, (e) => {
        let payload: unknown;
        try {
          payload = decodeWire(String(e.data));
        } catch {
          return;
        }
        if (event === 'queue.changed') queue = payload as LabEvents['queue.changed'];
        deliver(event, payload);
      });
    }
    source.addEventListener(QUEUE_DELTA_EVENT, (e) => {
      let d: { queued?: string[]; started?: string[]; removed?: string[] };
      try {
        d = decodeWire(String(e.data)) as typeof d;
      } catch {
        return;
      }
      if (!queue) return; // a change before the queue itself: the next connect sends it
      const gone = new Set([...(d.removed ?? []), ...(d.started ?? [])]);
      const running = new Set(d.removed ?? []);
      queue = {
        queued: [...queue.queued.filter((id) => !gone.has(id)), ...(d.queued ?? [])],
        running: [...queue.running.filter((id) => !running.has(id)), ...(d.started ?? [])],
      };
      deliver('queue.changed', queue);
    });
  };
  const shut = (): void => {
    source?.close();
    source = null;
  };

  const on = <E extends EventName>(event: E, listener: (payload: LabEvents[E]) => void): (() => void) => {
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    set.add(listener);
    open();
    return () => {
      set.delete(listener);
      if ([...listeners.values()].every((s) => s.size === 0)) shut();
    };
  };

  return {
    ...buildCallsFrom<CallName, LabCalls>(CALL_CHANNELS, invoke),
    on,
    close: () => {
      closed = true;
      shut();
    },
  };
}
