import { defineStore } from 'pinia';
import type { RouteLocationRaw } from 'vue-router';
import { errorText, noteDenied } from '../api';

export interface Notice {
  id: number;
  kind: 'error' | 'info';
  text: string;
  /** Where the notice leads (a new run, the queue): a link after the text. */
  link?: { to: RouteLocationRaw; label: string };
}

let next = 1;

/** Messages for the user: API errors in words (never swallowed) and short confirmations. */
export const useNotify = defineStore('notify', {
  state: () => ({ notices: [] as Notice[] }),
  actions: {
    error(e: unknown, context?: string): void {
      // A refused token is said once, by the page that replaces the app (App.vue), not per call.
      if (noteDenied(e)) return;
      const text = context ? `${context}: ${errorText(e)}` : errorText(e);
      this.notices.push({ id: next++, kind: 'error', text });
    },
    info(text: string, link?: Notice['link']): void {
      const id = next++;
      this.notices.push({ id, kind: 'info', text, ...(link ? { link } : {}) });
      // A notice with a link stays long enough to follow it.
      setTimeout(() => this.dismiss(id), link ? 10_000 : 4000);
    },
    dismiss(id: number): void {
      this.notices = this.notices.filter((n) => n.id !== id);
    },
  },
});
