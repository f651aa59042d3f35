/**
 * The desktop app's renderer origin: `app://lab/`, a privileged standard scheme served from the
 * built renderer folder (out/renderer) instead of `file://`. A page on `file://` shares its origin
 * with every file on the disk; on `app://lab` its `'self'` is the renderer's own files only.
 *
 * This module is the whole request-to-file mapping and imports nothing from Electron (main.ts
 * registers the scheme and hands `protocol.handle` to `serveAppRequest`), so it is unit-tested
 * under Node: the URL must be `app://lab/...`, GET or HEAD; each path segment is decoded and
 * refused when empty, hidden (a leading dot: `..` and `.env` alike), or holding a separator, NUL
 * or a colon; the file must be a regular file whose real path (symlinks resolved) lies inside the
 * root; a path without an extension is a client-side route and gets index.html. Every response,
 * a refusal included, carries the strict Content Security Policy and its companions.
 */
import { realpath, readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { MIME } from '../shared/mime';
import { CSP_HEADER } from './csp';

export const APP_SCHEME = 'app';
export const APP_HOST = 'lab';
/** The page the window loads. */
export const APP_INDEX_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/**
 * What `protocol.registerSchemesAsPrivileged` grants the scheme before the app is ready: a standard
 * URL (origin, relative URLs, 'self' in the CSP), a secure context, fetch() of its own files, and
 * streamed responses. Not bypassCSP, not CORS for other origins.
 */
export const APP_SCHEME_PRIVILEGES = { standard: true, secure: true, supportFetchAPI: true, stream: true } as const;

export { MIME };

/** The MIME type of a file by its extension (unknown: application/octet-stream, never sniffed). */
export function mimeOf(file: string): string {
  return MIME[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** Sent with every response of the scheme. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CSP_HEADER,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-cache',
};

/** Whether a URL is on the app's origin (any path of it). */
export function isAppOrigin(raw: string): boolean {
  try {
    const u = new URL(raw);
    return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST && u.username === '' && u.password === '' && u.port === '';
  } catch {
    return false;
  }
}

/** Whether a URL is the app's page itself (index.html, any hash route or query of it). */
export function isAppIndex(raw: string): boolean {
  return isAppOrigin(raw) && new URL(raw).pathname === '/index.html';
}

export type AppTarget = { ok: true; segments: string[]; route: boolean } | { ok: false; status: 400 | 404 | 405; reason: string };

/**
 * The file a request names, as path segments under the root (not yet checked on disk), or why it is
 * refused. `route`: a path without an extension, answered with index.html when no such file exists.
 */
export function appTarget(rawUrl: string, method = 'GET'): AppTarget {
  if (method !== 'GET' && method !== 'HEAD') return { ok: false, status: 405, reason: `${method} is not allowed` };
  if (!isAppOrigin(rawUrl)) return { ok: false, status: 400, reason: 'not a URL of this app' };
  const { pathname } = new URL(rawUrl);
  let segments: string[];
  try {
    segments = pathname.split('/').map((s) => decodeURIComponent(s));
  } catch {
    return { ok: false, status: 400, reason: 'a malformed escape in the path' };
  }
  const trailing = pathname.endsWith('/');
  segments = segments.filter((s, i) => !(s === '' && (i === 0 || i === segments.length - 1)));
  for (const s of segments) {
    // No empty, dot or dot-dot segments, hidden files, separators or NUL inside a segment, no drive letters.
    if (s === '' || s.startsWith('.') || s.includes('/') || s.includes('\\') || s.includes('\0') || s.includes(':')) {
      return { ok: false, status: 404, reason: 'outside the renderer' };
    }
  }
  if (segments.length === 0 || trailing) return { ok: true, segments: [...segments, 'index.html'], route: false };
  return { ok: true, segments, route: extname(segments[segments.length - 1]!) === '' };
}

/** The file system calls serving needs (injected by tests). */
export interface AppFs {
  realpath(path: string): Promise<string>;
  isFile(path: string): Promise<boolean>;
  readFile(path: string): Promise<Uint8Array>;
}

export const NODE_FS: AppFs = {
  realpath: (p) => realpath(p),
  isFile: async (p) => (await stat(p)).isFile(),
  readFile: (p) => readFile(p),
};

/** The real path of a regular file that lies inside root (itself a real path), or null. */
async function inside(root: string, candidate: string, fs: AppFs): Promise<string | null> {
  const abs = resolve(candidate);
  if (!abs.startsWith(root + sep)) return null;
  try {
    const real = await fs.realpath(abs);
    if (!real.startsWith(root + sep) || !(await fs.isFile(real))) return null;
    return real;
  } catch {
    return null;
  }
}

function refusal(status: number, text: string): Response {
  return new Response(text, { status, headers: { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8' } });
}

/**
 * Answers one request of the scheme from the files under `rootDir` (the built renderer): the file
 * with its MIME type and the security headers, or 404 / 405 / 400 with the same headers.
 */
export async function serveAppRequest(request: { url: string; method: string }, rootDir: string, fs: AppFs = NODE_FS): Promise<Response> {
  const target = appTarget(request.url, request.method);
  if (!target.ok) {
    const r = refusal(target.status, target.status === 405 ? 'Method Not Allowed' : 'Not Found');
    if (target.status === 405) r.headers.set('allow', 'GET, HEAD');
    return r;
  }
  let root: string;
  try {
    root = await fs.realpath(resolve(rootDir));
  } catch {
    return refusal(404, 'Not Found');
  }
  let file = await inside(root, join(root, ...target.segments), fs);
  if (!file && target.route) file = await inside(root, join(root, 'index.html'), fs);
  if (!file) return refusal(404, 'Not Found');
  let body: Uint8Array;
  try {
    body = await fs.readFile(file);
  } catch {
    return refusal(404, 'Not Found');
  }
  const headers = { ...SECURITY_HEADERS, 'content-type': mimeOf(file), 'content-length': String(body.byteLength) };
  return new Response(request.method === 'HEAD' ? null : (body as Uint8Array<ArrayBuffer>), { status: 200, headers });
}
