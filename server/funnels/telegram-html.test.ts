import { describe, expect, it } from 'vitest';
import { checkTelegramHtml } from './telegram-html';

const visible = (html: string) => {
  const result = checkTelegramHtml(html);
  if (!result.ok) throw new Error(result.error);
  return result.visibleText;
};
const problem = (html: string) => {
  const result = checkTelegramHtml(html);
  if (result.ok) throw new Error(`accepted: ${html}`);
  return result.error;
};

describe('Telegram HTML', () => {
  it('accepts every tag Telegram allows and returns the visible text', () => {
    const html =
      '<b>b</b><strong>s</strong><i>i</i><em>e</em><u>u</u><ins>n</ins><s>s</s><strike>k</strike><del>d</del>' +
      '<a href="https://x.y">a</a><code>c</code><pre><code class="language-ts">p</code></pre><blockquote expandable>q</blockquote>' +
      '<tg-spoiler>t</tg-spoiler><span class="tg-spoiler">z</span>';
    expect(visible(html)).toBe('bsieunskdacpqtz');
    expect(visible('<B>Upper</B>')).toBe('Upper');
  });

  it('decodes entities for the count', () => {
    expect(visible('&lt;3 &amp; &quot;x&quot; &#65;&#x42; &gt;')).toBe('<3 & "x" AB >');
    expect(visible('Tom & Jerry &unknown;')).toBe('Tom & Jerry &unknown;');
  });

  it('refuses unsupported, unbalanced and malformed tags', () => {
    expect(problem('<p>x</p>')).toContain('<p>');
    expect(problem('<b>x')).toContain('not closed');
    expect(problem('x</i>')).toContain('not open');
    expect(problem('<b><i>x</b></i>')).toContain('reverse order');
    expect(problem('<a>x</a>')).toContain('href');
    expect(problem('<a href="x" target="_blank">x</a>')).toContain('target');
    expect(problem('<span class="red">x</span>')).toContain('tg-spoiler');
    expect(problem('<code class="evil">x</code>')).toContain('language-');
    expect(problem('a < b')).toContain('&lt;');
    expect(problem('<b')).toContain('&lt;');
    expect(problem('</b x>')).toContain('attributes');
  });
});
