import { defineStore } from 'pinia';
import type { RunFinishedEvent, RunProgressEvent, RunSummary } from '../../../src-main/contract';
import { useLab } from '../api';
import { useNotify } from './notify';

export interface Progress {
  done: number;
  total: number;
  phase: string;
  at: number;
}

/**
 * Live state of queued and running runs, kept from the API's events: progress per run, the queue's
 * membership, and a counter views watch to refresh after a run finishes.
 */
export const useQueue = defineStore('queue', {
  state: () => ({
    queued: [] as string[],
    running: [] as string[],
    progress: {} as Record<string, Progress>,
    finished: [] as RunFinishedEvent[],
    /** Bumped on every finished run: lists watch it. */
    generation: 0,
    active: [] as RunSummary[],
    subscribed: false,
  }),
  actions: {
    subscribe(): void {
      if (this.subscribed) return;
      this.subscribed = true;
      const lab = useLab();
      lab.on('run.progress', (p: RunProgressEvent) => {
        this.progress[p.runId] = { done: p.done, total: p.total, phase: p.phase, at: Date.now() };
      });
      lab.on('queue.changed', (q) => {
        this.queued = q.queued;
        this.running = q.running;
        void this.refresh();
      });
      lab.on('run.finished', (f) => {
        this.finished.unshift(f);
        this.finished = this.finished.slice(0, 50);
        delete this.progress[f.runId];
        this.generation++;
        if (f.status === 'failed') useNotify().error(f.error ?? 'unknown reason', 'A run failed');
        void this.refresh();
      });
      void this.refresh();
    },
    async refresh(): Promise<void> {
      try {
        const lab = useLab();
        const page = await lab.runs.list({ status: ['running', 'queued'], sort: 'created', order: 'asc', limit: 200 });
        // Running first, then queued, each in the order they were started.
        this.active = [...page.items.filter((r) => r.status === 'running'), ...page.items.filter((r) => r.status === 'queued')];
      } catch (e) {
        useNotify().error(e, 'Could not read the queue');
      }
    },
  },
});
