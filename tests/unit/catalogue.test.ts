import { describe, expect, it } from 'vitest';
import { EXPERIMENTS } from '../../src-sim/experiments';
import { REPRODUCTION_ROWS } from '../../src-sim/reference';

describe('the experiment catalogue and the reproduction rows agree', () => {
  const rowIds = new Set(REPRODUCTION_ROWS.map((r) => r.id));

  it.each(EXPERIMENTS.map((e) => [e.id, e.reproduces] as const))('%s names only rows that exist', (_id, reproduces) => {
    expect(reproduces.filter((r) => !rowIds.has(r))).toEqual([]);
  });

  it('experiment ids are unique', () => {
    const ids = EXPERIMENTS.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
