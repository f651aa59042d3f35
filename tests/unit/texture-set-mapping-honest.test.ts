/**
 * texture-set-mapping (MEI Fig 12) names sets and lines per set only where the four-step analysis
 * decided the sets. A 4 x 32 texture L1 of 32 B lines with an XOR index and random (or hot-way)
 * replacement used to read as 3 sets of 48/34/29 lines: the groups of first misses are not sets when a
 * set's lines start missing over several overflows. The same cache under LRU, or bit-selected under
 * random replacement, keeps its exact answer.
 */
import { describe, expect, it } from 'vitest';
import { textureSetMapping } from '../../src-sim/experiments/texture-set-mapping';
import type { IndexFunction, ReplacementPolicy } from '../../src-sim/model/types';
import { findPreset } from '../../src-sim/presets';
import type { Preset } from '../../src-sim/presets/types';

const quiet = (): void => {};

function texture4x32(index: IndexFunction, policy: ReplacementPolicy): Preset {
  const p = structuredClone(findPreset('fermi')) as Preset;
  const l = p.spaces.texture!.levels[0];
  l.sizeBytes = 4 * 32 * 32;
  l.geometry = { lineBytes: 32, sets: 4, ways: 32, index, policy };
  return p;
}

const value = (p: Preset, key: string, jitter = 0): unknown => textureSetMapping.run(p, { jitter }, 1, quiet).findings.find((f) => f.key === key)?.value;

describe('texture-set-mapping: sets only where they are decided', () => {
  it.each([
    ['random', { kind: 'random' }],
    ['hot-way', { kind: 'fermi', hotWay: 5, hotProbability: 0.5 }],
  ] as const)('XOR index, %s replacement: cannot tell, never 3 sets', (_, policy) => {
    const p = texture4x32({ kind: 'xor' }, policy as ReplacementPolicy);
    for (const jitter of [0, 3]) {
      expect(value(p, 'texture.sets', jitter)).toBe('cannot tell');
      expect(value(p, 'texture.linesPerSet', jitter)).toBe('cannot tell');
    }
  });

  it('XOR index under LRU, and bits 7-8 under random replacement: 4 sets of 32', () => {
    for (const p of [texture4x32({ kind: 'xor' }, { kind: 'lru' }), texture4x32({ kind: 'bits', shiftBits: 7 }, { kind: 'random' })]) {
      expect(value(p, 'texture.sets')).toBe(4);
      expect(value(p, 'texture.linesPerSet')).toBe(32);
    }
  });
});
