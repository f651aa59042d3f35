/**
 * Module hooks for scripts/timing-fingerprint.ts: every import of src-sim/timing/engine outside the
 * tap gets scripts/timing-fingerprint-tap.ts instead, which records each simulate() call.
 */
const TAP = new URL('./timing-fingerprint-tap.ts', import.meta.url).href;

export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  if (r.url.endsWith('/src-sim/timing/engine.ts') && context.parentURL !== TAP) return { ...r, url: TAP };
  return r;
}
