/** Kinds proven by perturbation, SL1's timing-tier rows (see perturbation-timing.ts for the plan). */
import { describe } from 'vitest';
import { perturbationSuite } from './perturbation';
import { CITED_AND_CAPS, MAIN_CAPS } from './perturbation-timing';

describe('kinds proven by perturbation: SL1', () => {
  perturbationSuite('sl1', [
    { rows: ['SL1-F1'], opts: CITED_AND_CAPS },
    { rows: ['SL1-F5', 'SL1-F6', 'SL1-SHM'], opts: CITED_AND_CAPS },
    { rows: ['SL1-F7', 'SL1-F8', 'SL1-F9', 'SL1-F12', 'SL1-F13'], opts: MAIN_CAPS },
  ]);
});
