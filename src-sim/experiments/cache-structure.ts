import type { Experiment } from './types';
import { ExperimentError } from './types';

/** MEI 3.2 four-step method. (Stub: being implemented.) */
export const cacheStructure: Experiment = {
  id: 'cache-structure',
  title: 'MEI 3.2 four-step method',
  description: 'MEI 3.2 four-step method',
  reproduces: [],
  params: [],
  estimate: () => 0,
  run() {
    throw new ExperimentError('not implemented yet');
  },
};
