import { describe, expect, it } from 'vitest';
import { tooltipHtml } from '../../src-renderer/src/composables/kernels';

describe("kernel timeline tooltips", () => {
  it('escape the text a stored result (or a bundle) puts into them', () => {
    const hostile = '<img src=x onerror="alert(1)"> & \'warp\'\nline 2';
    const html = tooltipHtml(hostile);
    expect(html).not.toMatch(/<img/);
    expect(html).toBe('&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &#39;warp&#39;<br/>line 2');
  });
});
