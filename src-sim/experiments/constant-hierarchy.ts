import type { Experiment } from './types';
import { ExperimentError } from './types';

/** Constant caches and sharing (WONG Figs 17, 18, 20, 21). (Stub: being implemented.) */
export const constantHierarchy: Experiment = {
  id: 'constant-hierarchy',
  title: 'Constant caches and sharing (WONG Figs 17, 18, 20, 21)',
  description: 'Constant caches and sharing (WONG Figs 17, 18, 20, 21)',
  reproduces: [],
  params: [],
  estimate: () => 0,
  run() {
    throw new ExperimentError('not implemented yet');
  },
};
