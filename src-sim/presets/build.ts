import type { CacheLevelConfig, Scope } from '../model/path';
import type { IndexFunction, ReplacementPolicy } from '../model/types';

/** Terse constructors for preset data. They only shape plain objects; they compute nothing. */
export function level(
  name: string,
  scope: Scope,
  sizeBytes: number,
  lineBytes: number,
  sets: number,
  ways: number,
  policy: ReplacementPolicy = { kind: 'lru' },
  index: IndexFunction = { kind: 'bits' },
): CacheLevelConfig {
  return { name, scope, sizeBytes, geometry: { lineBytes, sets, ways, index, policy } };
}

export function unequalLevel(
  name: string,
  scope: Scope,
  sizeBytes: number,
  lineBytes: number,
  setWays: number[],
  policy: ReplacementPolicy = { kind: 'lru' },
): CacheLevelConfig {
  return {
    name,
    scope,
    sizeBytes,
    geometry: { lineBytes, sets: setWays.length, ways: Math.max(...setWays), setWays, index: { kind: 'interleave' }, policy },
  };
}

export const KB = 1024;
export const MB = 1024 * 1024;
