// @vitest-environment happy-dom
/** The in-app theme choice (composables/theme.ts) and the chart colours that follow it (composables/charttheme.ts). */
import { mount } from '@vue/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { defineComponent, h } from 'vue';
import { useChartTheme } from '../../src-renderer/src/composables/charttheme';
import { setTheme, themeChoice } from '../../src-renderer/src/composables/theme';

afterEach(() => {
  setTheme('system');
  document.documentElement.style.removeProperty('--fg');
});

describe('the theme choice', () => {
  it('sets the document theme, keeps it for the next visit, and back to the system', () => {
    setTheme('dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(localStorage.getItem('gpulab.theme')).toBe('dark');
    expect(themeChoice.value).toBe('dark');
    setTheme('system');
    expect(document.documentElement.dataset.theme).toBeUndefined();
    expect(localStorage.getItem('gpulab.theme')).toBeNull();
  });

  it('charts read their colours again when the theme changes', () => {
    let theme: ReturnType<typeof useChartTheme> | null = null;
    const Probe = defineComponent({
      setup() {
        theme = useChartTheme();
        return () => h('div');
      },
    });
    const w = mount(Probe);
    document.documentElement.style.setProperty('--fg', '#e4e6ea');
    setTheme('dark');
    expect(theme!.value.fg).toBe('#e4e6ea');
    w.unmount();
  });
});
