import { describe, expect, it } from 'vitest';
import { checkTelegramHtml, parseTelegramHtml, visibleLength, visibleText } from './telegram-html';


describe('visibleLength', () => {
  it('counts the text without tags', () => {
    expect(visibleLength('<b>Hello</b>, <i>world</i>')).toBe(12);
    expect(visibleLength('<a href="https://example.com/very/long">link</a>')).toBe(4);
  });

  it('decodes entities before counting', () => {
    expect(visibleText('a &lt; b &amp;&amp; c &gt; d &quot;q&quot; &#33; &#x41;')).toBe('a < b && c > d "q" ! A');
    expect(visibleLength('&amp;')).toBe(1);
  });

  it('counts in UTF-16 code units, as Telegram does', () => {
    expect(visibleLength('😀')).toBe(2);
    expect(visibleLength('<b>Привет</b>')).toBe(6);
  });

  it('counts a stray "<" and unknown tags as text', () => {
    expect(visibleLength('1 < 2')).toBe(5);
    expect(visibleLength('<div>x</div>')).toBe('<div>x</div>'.length);
  });

  it('keeps unknown entities as written', () => {
    expect(visibleText('&nbsp;')).toBe('&nbsp;');
  });
});

describe('parseTelegramHtml', () => {
  it('builds a tree of known tags', () => {
    expect(parseTelegramHtml('Hi <b>bold <i>both</i></b>!')).toEqual([
      'Hi ',
      { tag: 'b', children: ['bold ', { tag: 'i', children: ['both'] }] },
      '!',
    ]);
  });

  it('reads a link address, entities decoded', () => {
    expect(parseTelegramHtml('<a href="https://x.io/?a=1&amp;b=2">go</a>')).toEqual([{ tag: 'a', href: 'https://x.io/?a=1&b=2', children: ['go'] }]);
  });

  it('closes tags left open and shows closing tags that close nothing as text', () => {
    expect(parseTelegramHtml('<b>open')).toEqual([{ tag: 'b', children: ['open'] }]);
    expect(parseTelegramHtml('x</b>')).toEqual(['x</b>']);
  });
});

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
