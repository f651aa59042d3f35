/** Kinds proven by perturbation: LASH's costliest studies, Figs 7 and 1 (the plan: perturbation-plan.ts). */
import { describe } from 'vitest';
import { perturbationSuite } from './perturbation';
import { PLAN } from './perturbation-plan';

describe('kinds proven by perturbation: LASH Figs 7 and 1', () => {
  perturbationSuite('lash-studies', PLAN['lash-studies']);
});
