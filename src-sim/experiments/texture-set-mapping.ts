import type { Experiment } from './types';
import { ExperimentError } from './types';

/** MEI Fig 12 texture L1 set mapping. (Stub: being implemented.) */
export const textureSetMapping: Experiment = {
  id: 'texture-set-mapping',
  title: 'MEI Fig 12 texture L1 set mapping',
  description: 'MEI Fig 12 texture L1 set mapping',
  reproduces: [],
  params: [],
  estimate: () => 0,
  run() {
    throw new ExperimentError('not implemented yet');
  },
};
