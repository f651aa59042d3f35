import type { Experiment } from './types';
import { ExperimentError } from './types';

/** Shared memory bank conflicts (MEI Figs 5, 7). (Stub: being implemented.) */
export const sharedBankStride: Experiment = {
  id: 'shared-bank-stride',
  title: 'Shared memory bank conflicts (MEI Figs 5, 7)',
  description: 'Shared memory bank conflicts (MEI Figs 5, 7)',
  reproduces: [],
  params: [],
  estimate: () => 0,
  run() {
    throw new ExperimentError('not implemented yet');
  },
};
