/**
 * Preload of the renderer (sandboxed, built as CommonJS; it may require 'electron' only). Exposes
 * `window.lab`, the contract's `LabApi`: one function per call (`lab.runs.start(args)`), each
 * invoking the call's fixed IPC channel, and `lab.on(event, listener)` over the fixed event
 * channels. Never ipcRenderer itself, so the page can ask the main process nothing else.
 *
 * The main process answers every call with `{ ok: true, result }` or `{ ok: false, error: { code,
 * message } }`; a failure rejects here with the error (see `labError` for its shape).
 */
import { contextBridge, ipcRenderer } from 'electron';
import type { IpcRendererEvent } from 'electron';
import { CALL_CHANNELS, EVENT_CHANNELS } from './channels';
import type { IpcOutcome } from './channels';

/** What a failed call rejects with in the page. */
export interface LabErrorLike {
  name: 'LabError';
  code: string;
  message: string;
  toString(): string;
}

/**
 * A failure as the page sees it. contextBridge copies an Error into the page as a new Error holding
 * its message only (custom properties such as `code` are dropped), so the rejection is a plain
 * object instead: its fields are copied as they are, and its `toString` (a function, proxied across
 * the bridge) gives the message, so `err.code`, `err.message` and `String(err)` all work in the page.
 */
export function labError(code: string, message: string): LabErrorLike {
  return { name: 'LabError', code, message, toString: () => message };
}

function isOutcome(v: unknown): v is IpcOutcome {
  return typeof v === 'object' && v !== null && typeof (v as { ok?: unknown }).ok === 'boolean';
}

async function invoke(channel: string, args: unknown): Promise<unknown> {
  let out: unknown;
  try {
    out = await ipcRenderer.invoke(channel, args ?? {});
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    // Structured clone refuses functions, DOM nodes and the like before anything is sent.
    const code = /could not be cloned/i.test(message) ? 'invalid-args' : 'unreachable';
    throw labError(code, `${channel}: ${message}`);
  }
  if (!isOutcome(out)) throw labError('internal', `${channel}: the main process answered something that is not a call outcome`);
  if (out.ok) return out.result;
  throw labError(String(out.error?.code ?? 'internal'), String(out.error?.message ?? `${channel} failed`));
}

type Listener = (payload: unknown) => void;

function on(event: string, listener: Listener): () => void {
  const channel = Object.prototype.hasOwnProperty.call(EVENT_CHANNELS, event) ? EVENT_CHANNELS[event as keyof typeof EVENT_CHANNELS] : undefined;
  if (!channel) throw labError('invalid-args', `lab.on: unknown event "${String(event).slice(0, 60)}"; known: ${Object.keys(EVENT_CHANNELS).join(', ')}`);
  if (typeof listener !== 'function') throw labError('invalid-args', 'lab.on: the listener must be a function');
  const handler = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
  ipcRenderer.on(channel, handler);
  let subscribed = true;
  return () => {
    if (!subscribed) return;
    subscribed = false;
    ipcRenderer.removeListener(channel, handler);
  };
}

/** The object exposed as `window.lab` (exported for the unit test). */
export function buildLabApi(): Record<string, unknown> {
  const api: Record<string, Record<string, (args?: unknown) => Promise<unknown>>> = {};
  for (const name of CALL_CHANNELS) {
    const [ns, method] = name.split('.') as [string, string];
    (api[ns] ??= {})[method] = (args?: unknown) => invoke(name, args);
  }
  return { ...api, on };
}

contextBridge.exposeInMainWorld('lab', buildLabApi());
