import { defineStore } from 'pinia';
import { errorText, noteDenied } from '../api';

export interface Notice {
  id: number;
  kind: 'error' | 'info';
  text: string;
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
    info(text: string): void {
      const id = next++;
      this.notices.push({ id, kind: 'info', text });
      setTimeout(() => this.dismiss(id), 4000);
    },
    dismiss(id: number): void {
      this.notices = this.notices.filter((n) => n.id !== id);
    },
  },
});
