/** Kinds proven by perturbation, LASH's lighter timing-tier rows (see perturbation-timing.ts for the plan). */
import { describe } from 'vitest';
import { perturbationSuite } from './perturbation';
import { CITED_AND_CAPS } from './perturbation-timing';

describe('kinds proven by perturbation: LASH', () => {
  perturbationSuite('lash', [
    { rows: ['LASH-MLP'], opts: CITED_AND_CAPS },
    { rows: ['LASH-F4', 'LASH-F5', 'LASH-F6'], opts: CITED_AND_CAPS },
    { rows: ['LASH-280'], opts: CITED_AND_CAPS },
  ]);
});
