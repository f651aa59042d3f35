/** Kinds proven by perturbation, LASH's costliest studies, Figs 7 and 1, in their main caps (see perturbation-timing.ts). */
import { describe } from 'vitest';
import { perturbationSuite } from './perturbation';
import { MAIN_CAPS } from './perturbation-timing';

describe('kinds proven by perturbation: LASH Figs 7 and 1', () => {
  perturbationSuite('lash-studies', [
    { rows: ['LASH-F7'], opts: MAIN_CAPS },
    { rows: ['LASH-F1'], opts: MAIN_CAPS },
  ]);
});
