/**
 * app://lab/, the desktop renderer's origin (src-main/electron/app-protocol.ts), under Node: which
 * file a request names, what is refused (other origins, methods, traversal in every spelling, hidden
 * files, symlinks out of the folder), the MIME types, and the security headers on every response;
 * and the built renderer (when there is one) loading all its assets from that origin.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_INDEX_URL, APP_SCHEME_PRIVILEGES, appTarget, isAppIndex, isAppOrigin, mimeOf, serveAppRequest } from '../../src-main/electron/app-protocol';
import { CSP_HEADER } from '../../src-main/electron/csp';
import { TempDir } from './lab-fixtures';

const tmp = new TempDir();
const root = tmp.file('renderer');
const INDEX = '<!doctype html><title>GPU Memory Lab</title><script type="module" src="./assets/app.js"></script>';

beforeAll(() => {
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), INDEX);
  writeFileSync(join(root, 'assets', 'app.js'), 'console.log("app");');
  writeFileSync(join(root, 'assets', 'app.css'), 'body{}');
  writeFileSync(join(root, 'assets', 'font.woff2'), Uint8Array.of(1, 2, 3));
  writeFileSync(join(root, 'assets', 'blob.bin'), Uint8Array.of(0));
  writeFileSync(join(root, 'favicon.png'), Uint8Array.of(0x89, 0x50, 0x4e, 0x47));
  writeFileSync(join(root, '.env'), 'SECRET=1');
  writeFileSync(tmp.file('secret.txt'), 'outside the renderer');
  symlinkSync(tmp.file('secret.txt'), join(root, 'assets', 'link.txt'));
  symlinkSync(tmp.dir, join(root, 'up'));
});
afterAll(() => tmp.remove());

const get = (url: string, method = 'GET') => serveAppRequest({ url, method }, root);

function expectSecure(r: Response): void {
  expect(r.headers.get('content-security-policy')).toBe(CSP_HEADER);
  expect(r.headers.get('x-content-type-options')).toBe('nosniff');
  expect(r.headers.get('referrer-policy')).toBe('no-referrer');
}

describe('app://lab/: the renderer’s origin', () => {
  it('is a privileged standard, secure scheme that does not bypass the CSP', () => {
    expect(APP_INDEX_URL).toBe('app://lab/index.html');
    expect(APP_SCHEME_PRIVILEGES).toMatchObject({ standard: true, secure: true, supportFetchAPI: true });
    expect(APP_SCHEME_PRIVILEGES).not.toHaveProperty('bypassCSP');
    expect(APP_SCHEME_PRIVILEGES).not.toHaveProperty('corsEnabled');
  });

  it('knows its origin and its page', () => {
    expect(isAppOrigin('app://lab/assets/x.js')).toBe(true);
    expect(isAppIndex('app://lab/index.html#/runs/x')).toBe(true);
    expect(isAppIndex('app://lab/assets/index.html')).toBe(false);
    for (const url of ['app://evil/index.html', 'app://lab:8080/index.html', 'app://a@lab/index.html', 'file:///index.html', 'https://lab/index.html', 'not a url']) {
      expect(isAppOrigin(url), url).toBe(false);
    }
  });

  it('serves the page and its assets with their MIME types and the security headers', async () => {
    const page = await get('app://lab/index.html');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expectSecure(page);
    expect(await page.text()).toBe(INDEX);
    expect(await (await get('app://lab/')).text()).toBe(INDEX);
    const types: [string, string][] = [
      ['assets/app.js', 'text/javascript; charset=utf-8'],
      ['assets/app.css', 'text/css; charset=utf-8'],
      ['assets/font.woff2', 'font/woff2'],
      ['favicon.png', 'image/png'],
      ['assets/blob.bin', 'application/octet-stream'],
    ];
    for (const [path, type] of types) {
      const r = await get(`app://lab/${path}`);
      expect(r.status, path).toBe(200);
      expect(r.headers.get('content-type'), path).toBe(type);
      expectSecure(r);
    }
    expect(mimeOf('x.MJS')).toBe('text/javascript; charset=utf-8');
    expect(mimeOf('x.svg')).toBe('image/svg+xml');
  });

  it('answers HEAD without a body, and a client-side route with the page', async () => {
    const head = await get('app://lab/assets/app.js', 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String('console.log("app");'.length));
    expect(await head.text()).toBe('');
    const route = await get('app://lab/runs');
    expect(route.status).toBe(200);
    expect(await route.text()).toBe(INDEX);
    // A missing file with an extension is not a route.
    expect((await get('app://lab/assets/missing.js')).status).toBe(404);
  });

  it('refuses other methods and other origins, with the same headers', async () => {
    const post = await get('app://lab/index.html', 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expectSecure(post);
    for (const url of ['app://evil/index.html', 'file:///etc/passwd', 'https://example.com/']) {
      const r = await get(url);
      expect(r.status, url).toBe(400);
      expectSecure(r);
    }
  });

  it.each([
    'app://lab/../secret.txt',
    'app://lab/assets/../../secret.txt',
    'app://lab/%2e%2e/secret.txt',
    'app://lab/%2E%2E/%2e%2e/secret.txt',
    'app://lab/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
    'app://lab/assets/..%5c..%5csecret.txt',
    'app://lab/%2fetc%2fpasswd',
    'app://lab/assets/app.js%00.png',
    'app://lab/C:/Windows/win.ini',
    'app://lab/.env',
    'app://lab/assets/.%2e/.env',
    'app://lab/assets/link.txt',
    'app://lab/up/secret.txt',
    'app://lab/%E0%A4%A',
    'app://lab//secret.txt',
  ])('refuses %s (no file outside the renderer, no hidden file)', async (url) => {
    const r = await get(url);
    expect([400, 404]).toContain(r.status);
    expectSecure(r);
    const text = await r.text();
    expect(text).not.toContain('outside the renderer');
    expect(text).not.toContain('SECRET');
  });

  it('maps requests to segments under the root, or refuses them', () => {
    expect(appTarget('app://lab/assets/app.js')).toEqual({ ok: true, segments: ['assets', 'app.js'], route: false });
    expect(appTarget('app://lab/')).toEqual({ ok: true, segments: ['index.html'], route: false });
    expect(appTarget('app://lab/runs/x')).toEqual({ ok: true, segments: ['runs', 'x'], route: true });
    expect(appTarget('app://lab/index.html', 'PUT')).toMatchObject({ ok: false, status: 405 });
    // The URL parser already folds dot segments, escaped or not; what is left escaped is refused.
    expect(appTarget('app://lab/%2e%2e/x')).toEqual({ ok: true, segments: ['x'], route: true });
    expect(appTarget('app://lab/assets/%2e%2e%2fx')).toMatchObject({ ok: false, status: 404 });
    expect(appTarget('app://lab/a%5cb.js')).toMatchObject({ ok: false, status: 404 });
  });
});

describe('the built renderer under app://lab/', () => {
  const built = resolve(__dirname, '../../out/renderer');
  it.skipIf(!existsSync(join(built, 'index.html')))('loads every asset its page and stylesheets name from the app origin (no file:// paths)', async () => {
    const html = readFileSync(join(built, 'index.html'), 'utf8');
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(0);
    const css = readdirSync(join(built, 'assets')).filter((f) => f.endsWith('.css'));
    for (const f of css) {
      for (const m of readFileSync(join(built, 'assets', f), 'utf8').matchAll(/url\(\s*['"]?([^'")]+)['"]?\s*\)/g)) {
        if (!m[1]!.startsWith('data:')) refs.push(new URL(m[1]!, `app://lab/assets/${f}`).href);
      }
    }
    for (const ref of refs) {
      expect(ref, 'an asset path the build wrote').not.toMatch(/^file:|^[a-z]:\\|^\/\//i);
      const url = new URL(ref, APP_INDEX_URL).href;
      expect(isAppOrigin(url), url).toBe(true);
      const r = await serveAppRequest({ url, method: 'GET' }, built);
      expect(r.status, url).toBe(200);
    }
  });
});
