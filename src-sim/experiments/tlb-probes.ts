import type { Experiment } from './types';
import { ExperimentError } from './types';

/** TLB probes (WONG Figs 13-16, MEI Table 4, Figs 10-11). (Stub: being implemented.) */
export const tlbProbes: Experiment = {
  id: 'tlb-probes',
  title: 'TLB probes (WONG Figs 13-16, MEI Table 4, Figs 10-11)',
  description: 'TLB probes (WONG Figs 13-16, MEI Table 4, Figs 10-11)',
  reproduces: [],
  params: [],
  estimate: () => 0,
  run() {
    throw new ExperimentError('not implemented yet');
  },
};
