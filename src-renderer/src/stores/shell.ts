import { defineStore } from 'pinia';
import type { ShellVersion } from '../../../src-main/electron/shell-api';

/** What the shell knows about where it runs: the versions window.lab reports, or none outside Electron. */
export const useShellStore = defineStore('shell', {
  state: () => ({
    version: null as ShellVersion | null,
    status: 'loading' as 'loading' | 'ready' | 'no-bridge' | 'error',
    error: '',
  }),
  actions: {
    async load(): Promise<void> {
      const lab = window.lab;
      if (!lab) {
        this.status = 'no-bridge';
        return;
      }
      try {
        this.version = await lab.version();
        this.status = 'ready';
      } catch (e) {
        this.status = 'error';
        this.error = e instanceof Error ? e.message : String(e);
      }
    },
  },
});
