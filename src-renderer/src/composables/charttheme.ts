/**
 * The chart colours of the current theme (light or dark: the system's, or the one chosen in the
 * sidebar), read from the CSS variables of style.css and refreshed when either switches.
 */
import { onBeforeUnmount, ref, type Ref } from 'vue';
import type { ChartTheme } from './compare';
import { THEME_EVENT } from './theme';

/**
 * A colour variable as a colour: the variables are light-dark(light, dark) pairs (style.css), which a
 * custom property keeps as written, so a probe element resolves them under the document's scheme.
 */
function resolveColour(raw: string): string {
  if (!raw.startsWith('light-dark(') || typeof document === 'undefined') return raw;
  const probe = document.createElement('span');
  probe.style.display = 'none';
  probe.style.color = raw;
  document.documentElement.appendChild(probe);
  const colour = getComputedStyle(probe).color;
  probe.remove();
  return colour || raw;
}

function read(): ChartTheme {
  const style = typeof getComputedStyle === 'function' ? getComputedStyle(document.documentElement) : null;
  const v = (name: string, fallback: string) => resolveColour(style?.getPropertyValue(name).trim() ?? '') || fallback;
  return { fg: v('--fg', '#1b1b1b'), muted: v('--muted', '#666b73'), border: v('--border', '#d9dce1'), panel: v('--panel', '#ffffff') };
}

export function useChartTheme(): Ref<ChartTheme> {
  const theme = ref<ChartTheme>(read());
  const media = typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia('(prefers-color-scheme: dark)') : null;
  const update = () => {
    theme.value = read();
  };
  media?.addEventListener?.('change', update);
  globalThis.addEventListener?.(THEME_EVENT, update);
  onBeforeUnmount(() => {
    media?.removeEventListener?.('change', update);
    globalThis.removeEventListener?.(THEME_EVENT, update);
  });
  return theme;
}
