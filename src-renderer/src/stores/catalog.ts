import { defineStore } from 'pinia';
import type { ExperimentInfo, PresetSummary } from '../../../src-main/contract';
import { useLab } from '../api';
import { useNotify } from './notify';

/** The presets (built-in and custom) and experiments the builder, the presets view and the filters offer. */
export const useCatalog = defineStore('catalog', {
  state: () => ({
    presets: [] as PresetSummary[],
    experiments: [] as ExperimentInfo[],
    status: 'idle' as 'idle' | 'loading' | 'ready' | 'error',
    error: '',
  }),
  getters: {
    experiment: (s) => (id: string) => s.experiments.find((e) => e.id === id),
    preset: (s) => (id: string) => s.presets.find((p) => p.id === id),
  },
  actions: {
    async load(force = false): Promise<void> {
      if (this.status === 'ready' && !force) return;
      this.status = 'loading';
      try {
        const lab = useLab();
        const [presets, experiments] = await Promise.all([lab.presets.list(), lab.experiments.list()]);
        this.presets = presets;
        this.experiments = experiments;
        this.status = 'ready';
      } catch (e) {
        this.status = 'error';
        this.error = String(e instanceof Error ? e.message : e);
        useNotify().error(e, 'Could not load presets and experiments');
      }
    },
  },
});
