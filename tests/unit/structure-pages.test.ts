/**
 * cache-structure with small pages: where a TLB's reach is smaller than the cache (4 KB pages, an L1 TLB
 * of 16 entries in front of a 512 KB L2), the first warm miss of the L1-bypassing walk is the TLB's. One
 * element per page over the same N misses too, so the size and line are "cannot tell", not the TLB's
 * 64 KB and 4 KB reported as the L2 cache's. With 2 MB pages the same walk measures the L2.
 */
import { describe, expect, it } from 'vitest';
import { cacheStructure } from '../../src-sim/experiments/cache-structure';
import type { TranslationConfig } from '../../src-sim/model/path';
import { findPreset } from '../../src-sim/presets';
import type { Preset } from '../../src-sim/presets/types';

const KB = 1024;
const quiet = (): void => {};
const value = (r: ReturnType<typeof cacheStructure.run>, key: string): unknown => r.findings.find((f) => f.key === key)?.value;

/** Fermi's L1-bypassing path with 4 KB pages, TLBs of 16 and 32 pages, and an L2 TLB miss (700 cycles) above the L2 hit/memory split. */
function smallPages(): Preset {
  const p = structuredClone(findPreset('fermi')) as Preset;
  const cg = p.spaces['global-cg']!;
  const t = cg.translation as TranslationConfig;
  t.pageBytes = 4 * KB;
  t.l1 = { ...t.l1, sizeBytes: 16 * 4 * KB, geometry: { lineBytes: 4 * KB, sets: 1, ways: 16, index: { kind: 'bits' }, policy: { kind: 'lru' } } };
  t.l2 = { ...t.l2, sizeBytes: 32 * 4 * KB, geometry: { lineBytes: 4 * KB, sets: 1, ways: 32, index: { kind: 'bits' }, policy: { kind: 'lru' } } };
  cg.latency['L2/miss'] = 700;
  return p;
}

describe('cache-structure: pages or lines', () => {
  it('4 KB pages and a 64 KB TLB reach in front of the L2: cannot tell, with the reason', () => {
    const r = cacheStructure.run(smallPages(), { space: 'global-cg', maxSize: 2048 * KB, steps: 2 }, 1, quiet);
    expect(value(r, 'cache.sizeBytes')).toBe('cannot tell');
    expect(value(r, 'cache.lineBytes')).toBe('cannot tell');
    expect(r.findings.find((f) => f.key === 'cache.sizeBytes')?.evidence).toMatch(/follows pages/);
  });

  it("Fermi's own 2 MB pages: the L2 walk is not stopped", () => {
    const r = cacheStructure.run(findPreset('fermi') as Preset, { space: 'global-cg', maxSize: 2048 * KB, steps: 2 }, 1, quiet);
    expect(value(r, 'cache.sizeBytes')).not.toBe('cannot tell');
    expect(r.notes.join(' ')).not.toMatch(/follows pages/);
  });
});
