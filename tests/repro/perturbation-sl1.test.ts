/** Kinds proven by perturbation: SL1's timing-tier rows (the plan: perturbation-plan.ts). */
import { describe } from 'vitest';
import { perturbationSuite } from './perturbation';
import { PLAN } from './perturbation-plan';

describe('kinds proven by perturbation: SL1', () => {
  perturbationSuite('sl1', PLAN['sl1']);
});
