/**
 * The contract is one tree: contract-base.ts below gpu-contract.ts and sweep-contract.ts, contract.ts
 * above them, no module importing one that imports it back (type-only imports count too: they tie
 * the modules' meaning together all the same).
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');

/** The relative imports of a module, resolved to files (".ts" added). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/^(?:import|export)[^'"]*?from\s+['"](\.[^'"]+)['"]/gm)) out.push(join(dirname(file), `${m[1]}.ts`));
  return out;
}

/** A cycle among the modules reachable from `start`, as a list of files, or null. */
function cycleFrom(start: string, within: (file: string) => boolean): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (f: string): string[] | null => {
    if (state.get(f) === 'done' || !within(f)) return null;
    if (state.get(f) === 'open') return [...path.slice(path.indexOf(f)), f];
    state.set(f, 'open');
    path.push(f);
    for (const g of importsOf(f)) {
      const c = visit(g);
      if (c) return c;
    }
    path.pop();
    state.set(f, 'done');
    return null;
  };
  return visit(start);
}

describe('the contract as one tree', () => {
  it('has no import cycle among contract.ts, gpu-contract.ts, sweep-contract.ts and what they import in src-main', () => {
    const start = join(ROOT, 'src-main/contract.ts');
    const cycle = cycleFrom(start, (f) => f.startsWith(join(ROOT, 'src-main')));
    expect(cycle && cycle.map((f) => f.slice(ROOT.length + 1))).toBeNull();
    // And the tables import the base, not the contract above them.
    for (const f of ['src-main/gpu-contract.ts', 'src-main/sweep-contract.ts']) expect(importsOf(join(ROOT, f)).map((g) => g.slice(ROOT.length + 1)), f).not.toContain('src-main/contract.ts');
  });
});
