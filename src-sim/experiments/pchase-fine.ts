import type { Experiment } from './types';
import { ExperimentError } from './types';

/** Fine-grained P-chase (MEI Listing 4). (Stub: being implemented.) */
export const pchaseFine: Experiment = {
  id: 'pchase-fine',
  title: 'Fine-grained P-chase (MEI Listing 4)',
  description: 'Fine-grained P-chase (MEI Listing 4)',
  reproduces: [],
  params: [],
  estimate: () => 0,
  run() {
    throw new ExperimentError('not implemented yet');
  },
};
