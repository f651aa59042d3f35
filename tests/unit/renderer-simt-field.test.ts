// @vitest-environment happy-dom
/** The builder's field for a ParamSpec of kind 'text' (a kernel's source): a monospace textarea with the same rules as resolveParams. */
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { ParamSpec } from '../../src-sim/experiments/types';
import BuilderParamField from '../../src-renderer/src/components/BuilderParamField.vue';
import { checkField, defaultText, toFieldValue } from '../../src-renderer/src/composables/params';

const SPEC: ParamSpec = { name: 'source', label: 'Kernel source', unit: '', kind: 'text', default: 'int x = 1;\nx++;', maxLength: 20, description: 'The kernel text.' };

describe('text parameters in the builder', () => {
  it('render as a textarea that emits what the user types', async () => {
    const w = mount(BuilderParamField, { props: { spec: SPEC, value: toFieldValue(SPEC, SPEC.default) } });
    const area = w.find('textarea');
    expect(area.exists()).toBe(true);
    expect(area.classes()).toContain('code');
    expect(area.element.value).toBe('int x = 1;\nx++;');
    expect(w.find('input').exists()).toBe(false);
    await area.setValue('int y = 2;');
    expect(w.emitted('update')?.at(-1)).toEqual(['int y = 2;']);
    expect(w.text()).toContain('default 2 lines, up to 20 characters');
  });

  it('are checked as resolveParams checks them', () => {
    expect(checkField(SPEC, 'a\nb')).toEqual({ ok: true, value: 'a\nb' });
    expect(checkField(SPEC, 'x'.repeat(21))).toEqual({ ok: false, error: 'has 21 characters; at most 20' });
    expect(defaultText(SPEC)).toBe('2 lines, up to 20 characters');
  });
});
