/**
 * The workbench's theme: the system's (light or dark, as the desktop is set), or one chosen in the
 * sidebar and kept for the next visit. The choice sets `data-theme` on the document (style.css) and
 * tells the charts (composables/charttheme.ts) through a window event.
 */
import { ref } from 'vue';

export type ThemeChoice = 'system' | 'light' | 'dark';
export const THEME_EVENT = 'lab-theme';
const KEY = 'gpulab.theme';

function stored(): ThemeChoice {
  try {
    const v = globalThis.localStorage?.getItem(KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

export const themeChoice = ref<ThemeChoice>(stored());

/** Applies a choice to the document, keeps it, and tells the charts. */
export function setTheme(choice: ThemeChoice): void {
  themeChoice.value = choice;
  const root = globalThis.document?.documentElement;
  if (root) {
    if (choice === 'system') delete root.dataset.theme;
    else root.dataset.theme = choice;
  }
  try {
    if (choice === 'system') globalThis.localStorage?.removeItem(KEY);
    else globalThis.localStorage?.setItem(KEY, choice);
  } catch {
    // Storage off: the choice holds for this page only.
  }
  globalThis.dispatchEvent?.(new Event(THEME_EVENT));
}

/** Whether the workbench shows dark now: the choice, or the system's scheme where the choice is "system". */
export function isDark(): boolean {
  if (themeChoice.value !== 'system') return themeChoice.value === 'dark';
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(prefers-color-scheme: dark)').matches;
}
