import { describe, expect, it } from 'vitest';
import { cacheStructure } from '../../src-sim/experiments/cache-structure';
import { resolveParams } from '../../src-sim/experiments/params';
import { followUpParams } from '../../src-sim/experiments/refine';
import type { ExperimentResult } from '../../src-sim/experiments/types';
import type { Case } from './blind-structure-cases';
import { generate } from './blind-structure-cases';
import { Scorecard } from './scorecard';
import { CANNOT_TELL } from '../../src-sim/analysis/cannot-tell';
import { xorSet } from '../../src-sim/model/index/xor';

/**
 * The four-step method (cache-structure) run blind on seeded random caches: any line size, set
 * count (odd ones too), associativity up to fully associative, every replacement policy, bit-selected,
 * texture-style, hashed (XOR) and unequal-set indices, an L2 behind the L1 whose hit is from 2 to
 * hundreds of cycles slower, and measurement jitter. Each quantity is scored exact / honest ("cannot
 * tell") / wrong against the generated preset; the analysers see latencies only.
 */

const value = (r: ExperimentResult, key: string): number | string | undefined => r.findings.find((f) => f.key === key)?.value;

/** The set index as the findings state it: bit selection (with its granularity), hashed, or unequal sets. */
function reportedIndex(r: ExperimentResult): string | undefined {
  const v = value(r, 'cache.setIndexKind');
  return v === undefined ? undefined : String(v);
}

function truthIndex(c: Case): string {
  if (c.l1.setWays) return 'unequal sets';
  if (c.l1.sets === 1) return 'one set';
  if (c.l1.index.kind === 'xor') return 'hashed';
  return `bit selection, ${c.l1.lineBytes * c.run} B granularity`;
}

/**
 * A reported XOR function ("set bit 0 = a6 ^ a11; ...") against the model's hash: they must split
 * the lines below the highest bit reported into the same sets (set names are arbitrary).
 */
function xorVerdict(c: Case, reported: number | string | undefined): string | undefined {
  if (reported === undefined || reported === CANNOT_TELL) return reported;
  const rows = String(reported)
    .split('; ')
    .map((part) => part.replace(/^set bit \d+ = /, '').split(' ^ ').reduce((m, a) => m | (1 << Number(a.slice(1))), 0));
  const top = Math.max(...rows.map((r) => 31 - Math.clz32(r)));
  const lineBits = Math.log2(c.l1.lineBytes);
  const parity = (x: number): number => {
    let p = 0;
    for (; x; x &= x - 1) p ^= 1;
    return p;
  };
  const toModel = new Map<number, number>();
  const fromModel = new Map<number, number>();
  for (let line = 0; line < 2 ** (top + 1 - lineBits); line++) {
    const addr = line * c.l1.lineBytes;
    const h = rows.reduce((acc, r, i) => acc | (parity(r & addr) << i), 0);
    const m = xorSet(line, c.l1.sets);
    if ((toModel.has(h) && toModel.get(h) !== m) || (fromModel.has(m) && fromModel.get(m) !== h)) return `a different partition (${String(reported)})`;
    toModel.set(h, m);
    fromModel.set(m, h);
  }
  return "the model's partition";
}

function score(card: Scorecard, c: Case, r: ExperimentResult): void {
  const g = c.l1;
  const lines = g.setWays ? g.setWays.reduce((a, b) => a + b, 0) : g.sets * g.ways;
  card.judge('hit latency', c.hit, value(r, 'cache.hitLatency'), c.label, (c.jitter + 0.51) / c.hit);
  card.judge('size', lines * g.lineBytes, value(r, 'cache.sizeBytes'), c.label);
  card.judge('line', g.lineBytes, value(r, 'cache.lineBytes'), c.label);
  card.judge('sets', g.sets, value(r, 'cache.sets'), c.label);
  card.judge('ways', g.setWays ? 'unequal' : g.ways, value(r, 'cache.ways'), c.label);
  card.judge('set index', truthIndex(c), reportedIndex(r), c.label);
  if (g.index.kind === 'xor' && Number.isInteger(Math.log2(g.sets)) && g.sets > 1) card.judge('XOR function', 'the model\'s partition', xorVerdict(c, value(r, 'cache.setIndexXor')), c.label);
  const oneWay = g.setWays ? false : g.ways === 1;
  card.judge('policy', g.policy.kind === 'lru' || oneWay ? 'LRU' : 'not LRU', value(r, 'cache.policy'), c.label);
}

/** The finding each scored quantity reads (the follow-up tally looks at the first run's finding). */
const FINDING_OF: Record<string, string> = { size: 'cache.sizeBytes', line: 'cache.lineBytes', sets: 'cache.sets', ways: 'cache.ways', 'set index': 'cache.setIndexKind', policy: 'cache.policy' };

const SEED = Number(process.env.BLIND_SEED ?? 20261127);
const COUNT = Number(process.env.BLIND_COUNT ?? 200);

/**
 * Where the jitter spans the gap to the next level (2 x jitter >= gap) no access can be told a hit or
 * a miss: those cases are scored apart. Both groups must have no wrong answer; the honest share is
 * a target where the data can decide.
 */
describe('blind random-geometry suite: the four-step method', () => {
  it(`scores ${COUNT} generated caches (seed ${SEED}) with no wrong answer`, () => {
    const resolvable = new Scorecard('cache-structure, jitter under half the gap');
    const overlapping = new Scorecard('cache-structure, jitter spanning the gap');
    const all = new Scorecard('cache-structure, all cases');
    const cases = generate(SEED, COUNT);
    // The first run without follow-ups, scored apart, then (where a "cannot tell" names one) with them.
    const first = { resolvable: new Scorecard('cache-structure, jitter under half the gap, without follow-ups'), overlapping: new Scorecard('cache-structure, jitter spanning the gap, without follow-ups') };
    cases.forEach((c, i) => {
      const raw = { maxSize: c.maxSize, jitter: c.jitter };
      const once = cacheStructure.run(c.preset, { ...raw, refine: false }, SEED + i, () => {});
      const values = resolveParams(cacheStructure.params, raw);
      const named = Object.entries(FINDING_OF).filter(([, key]) => {
        const f = once.findings.find((x) => x.key === key);
        return f !== undefined && Object.keys(followUpParams([f], cacheStructure.params, values)).length > 0;
      });
      const r = named.length ? cacheStructure.run(c.preset, raw, SEED + i, () => {}) : once;
      const side = 2 * c.jitter < c.gap ? 'resolvable' : 'overlapping';
      score(first[side], c, once);
      for (const [q, key] of named) first[side].followUp(q, value(r, key) !== undefined && value(r, key) !== CANNOT_TELL);
      score(side === 'resolvable' ? resolvable : overlapping, c, r);
      score(all, c, r);
    });
    first.resolvable.report('cache-structure-resolvable-first-run');
    first.overlapping.report('cache-structure-overlapping-first-run');
    for (const k of [first.resolvable, first.overlapping]) {
      const f = k.resolvedShare();
      console.log(`${k.name}: ${f.resolved} of ${f.followUps} "cannot tell" answers that named a follow-up were decided by it; honest share ${(100 * k.honestShare()).toFixed(1)} % before, the follow-ups on: see the table above`);
    }
    resolvable.report('cache-structure-resolvable');
    overlapping.report('cache-structure-overlapping');
    all.report('cache-structure');
    for (const card of [resolvable, overlapping]) {
      const wrong = card.wrong();
      expect(wrong.total, `${card.name}\n${wrong.detail}`).toBe(0);
    }
    expect(resolvable.honestShare()).toBeLessThanOrEqual(0.1);
  });
});
