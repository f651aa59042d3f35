/** Kinds proven by perturbation: LASH's lighter timing-tier rows (the plan: perturbation-plan.ts). */
import { describe } from 'vitest';
import { perturbationSuite } from './perturbation';
import { PLAN } from './perturbation-plan';

describe('kinds proven by perturbation: LASH', () => {
  perturbationSuite('lash', PLAN['lash']);
});
