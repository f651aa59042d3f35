/** Kinds proven by perturbation: the latency tier and the modern presets (MEI, WONG, JIA18, JIA19, ABD22, LUO24, H100) (the plan: perturbation-plan.ts). */
import { describe } from 'vitest';
import { perturbationSuite } from './perturbation';
import { PLAN } from './perturbation-plan';

describe('kinds proven by perturbation: latency tier and modern presets', () => {
  perturbationSuite('latency', PLAN['latency']);
});
