/**
 * validatePreset answers every one-field mutation of a built-in preset with a verdict, never a
 * throw: each field (and an unknown key beside each field's siblings) deleted or replaced by a
 * value of the wrong shape, JSON round-tripped as an HTTP body would be.
 */
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src-sim/presets';
import { validatePreset } from '../../src-sim/presets/validate';

const ODD = ['null', 'true', '-1', '0.5', '"x"', '[]', '{}', '[{}]', '{"a":1}', '{"__proto__":{"polluted":1}}'];

function thrown(id: string): string[] {
  const base = findPreset(id)!;
  const bad: string[] = [];
  const walk = (o: unknown, path: string[]): void => {
    if (!o || typeof o !== 'object') return;
    const own = Array.isArray(o) ? o.map((_, i) => String(i)) : Object.keys(o);
    const keys = Array.isArray(o) ? own : [...own, '__proto__', 'extra'];
    for (const k of keys) {
      for (const v of [undefined, ...ODD]) {
        const c = JSON.parse(JSON.stringify(base)) as Record<string, unknown>;
        let at = c as Record<string, unknown>;
        for (const p of path) at = at[p] as Record<string, unknown>;
        if (v === undefined) {
          if (Array.isArray(at)) at.splice(Number(k), 1);
          else delete at[k];
        } else Object.defineProperty(at, k, { value: JSON.parse(v), enumerable: true, writable: true, configurable: true });
        try {
          validatePreset(JSON.parse(JSON.stringify(c)));
        } catch (e) {
          bad.push(`${[...path, k].join('.')} = ${v ?? '(deleted)'}: ${(e as Error).message}`);
        }
      }
      if (path.length < 5 && own.includes(k)) walk((o as Record<string, unknown>)[k], [...path, k]);
    }
  };
  walk(base, []);
  return bad;
}

describe('validatePreset under one-field mutations', () => {
  it.each(['fermi', 'hopper'])('%s: every mutation gets a verdict, none throws', (id) => {
    expect(thrown(id).slice(0, 10)).toEqual([]);
  });

  it('an unknown space is refused by name', () => {
    const c = JSON.parse(JSON.stringify(findPreset('fermi'))) as { spaces: Record<string, unknown> };
    c.spaces.extra = 1;
    const v = validatePreset(c);
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.issues.map((i) => i.path).join(' ')).toMatch(/spaces/);
  });
});
