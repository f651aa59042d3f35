import type { Experiment } from './types';
import { ExperimentError } from './types';

/** Global latency patterns (MEI Table 3). (Stub: being implemented.) */
export const globalLatencyPatterns: Experiment = {
  id: 'global-latency-patterns',
  title: 'Global latency patterns (MEI Table 3)',
  description: 'Global latency patterns (MEI Table 3)',
  reproduces: [],
  params: [],
  estimate: () => 0,
  run() {
    throw new ExperimentError('not implemented yet');
  },
};
