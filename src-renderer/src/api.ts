/**
 * The one way the renderer reaches the workbench: the contract's API object. In the desktop app the
 * preload exposes it as `window.lab` (IPC); in the browser mode it is the loopback HTTP client, whose
 * per-launch token arrives in the page URL's fragment (never sent to the server in a URL).
 */
import type { LabApi } from '../../src-main/contract';
import { createHttpLab, pageToken } from '../../src-main/shared/http-client';

let current: LabApi | null = null;

export function useLab(): LabApi {
  if (current) return current;
  if (window.lab) current = window.lab;
  else {
    const token = pageToken(window.location.hash) ?? sessionStorage.getItem('lab-token') ?? '';
    // Keep the token for reloads of this tab, and take it out of the address bar.
    if (token) sessionStorage.setItem('lab-token', token);
    if (window.location.hash.includes('token=')) history.replaceState(null, '', window.location.pathname + '#/');
    current = createHttpLab(window.location.origin, token);
  }
  return current;
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
