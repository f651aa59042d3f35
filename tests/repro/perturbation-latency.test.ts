/**
 * Kinds proven by perturbation, the latency tier and the modern presets (MEI, WONG, JIA18, JIA19,
 * ABD22, LUO24, H100): each row alone on each preset its paper measured, with every number its
 * experiments read whose provenance shares a check's citation, and the others it reads where their
 * runs fit in 15 s (a seeded sample of at least 12 where they do not).
 */
import { describe } from 'vitest';
import { REPRODUCTION_ROWS } from '../../src-sim/reference';
import { eachRowPreset, perturbationSuite } from './perturbation';

const LATENCY_TIER = ['MEI', 'WONG', 'JIA18', 'JIA19', 'ABD22', 'LUO24', 'H100'];

describe('kinds proven by perturbation: latency tier and modern presets', () => {
  perturbationSuite(
    'latency',
    eachRowPreset(
      REPRODUCTION_ROWS.filter((r) => LATENCY_TIER.includes(r.paper)).map((r) => r.id),
      { sample: 12, budgetMs: 15_000 },
    ),
  );
});
