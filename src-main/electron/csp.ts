/**
 * Content Security Policy of the renderer: no remote content, no inline or evaluated script, no
 * plugins, no forms, no frames. One definition, used by the index.html meta tag (written in at
 * build time by electron.vite.config.ts) and by the response headers the main process adds.
 */
const BASE = {
  'default-src': ["'none'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'object-src': ["'none'"],
} as const;

function render(policy: Record<string, readonly string[]>): string {
  return Object.entries(policy)
    .map(([k, v]) => `${k} ${v.join(' ')}`)
    .join('; ');
}

/** The production policy (the built app). */
export const CSP = render(BASE);

/** The policy as a response header: the same plus frame-ancestors (ignored in a meta tag). */
export const CSP_HEADER = `${CSP}; frame-ancestors 'none'`;

/** Development only (electron-vite dev): Vite's dev server injects <style> elements for hot reload. */
export const CSP_DEV = render({ ...BASE, 'style-src': ["'self'", "'unsafe-inline'"] });
