/**
 * The one way the renderer reaches the workbench: the contract's API object. In the desktop app the
 * preload exposes it as `window.lab` (IPC); in the browser mode it is the loopback HTTP client, whose
 * per-launch token arrives in the page URL's fragment (never sent to the server in a URL).
 */
import { reactive } from 'vue';
import type { LabApi } from '../../src-main/contract';
import { createHttpLab, pageToken } from '../../src-main/shared/http-client';

let current: LabApi | null = null;

/**
 * Whether the browser-mode server refused this page's token (none, or one of an earlier launch):
 * the app then shows one page that says how to open the workbench, instead of an error per call.
 */
export const access = reactive({ denied: false });

/** Where the token is kept: this origin only (the loopback address and port of this launch). */
const TOKEN_KEY = 'lab-token';

function storedToken(): string | null {
  try {
    return sessionStorage.getItem(TOKEN_KEY) ?? localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function useLab(): LabApi {
  if (current) return current;
  if (window.lab) current = window.lab;
  else {
    const token = pageToken(window.location.hash) ?? storedToken() ?? '';
    // Keep the token for reloads and for new tabs of this address (a copied URL carries none), and
    // take it out of the address bar. A new launch has a new token: the old one is refused.
    try {
      if (token) {
        sessionStorage.setItem(TOKEN_KEY, token);
        localStorage.setItem(TOKEN_KEY, token);
      }
    } catch {
      // Storage off: this tab keeps the token in memory only.
    }
    if (window.location.hash.includes('token=')) history.replaceState(null, '', window.location.pathname + '#/');
    current = createHttpLab(window.location.origin, token);
  }
  return current;
}

/** Records a refused token (the server answered 'unauthorized'); true when `e` was one. */
export function noteDenied(e: unknown): boolean {
  if ((e as { code?: unknown } | null)?.code !== 'unauthorized') return false;
  access.denied = true;
  try {
    sessionStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(TOKEN_KEY);
  } catch {
    // nothing stored
  }
  return true;
}

/** For tests: run the renderer against a fake API. */
export function setLab(lab: LabApi | null): void {
  current = lab;
}

/** An error from the API (or anything thrown) in words for the user. */
export function errorText(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (typeof e === 'object' && e && 'message' in e) return String((e as { message: unknown }).message);
  return String(e);
}
