import { describe, expect, it } from 'vitest';
import { linkOpenTag, parseTelegramHtml, visibleLength, visibleText, wrapSelection } from './telegramHtml';

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

describe('wrapSelection', () => {
  it('wraps the selection and keeps it selected inside the tags', () => {
    const edit = wrapSelection('say hello now', 4, 9, '<b>', '</b>');
    expect(edit.value).toBe('say <b>hello</b> now');
    expect(edit.value.slice(edit.selectionStart, edit.selectionEnd)).toBe('hello');
  });

  it('inserts an empty pair with the caret inside when nothing is selected', () => {
    const edit = wrapSelection('ab', 1, 1, '<i>', '</i>');
    expect(edit.value).toBe('a<i></i>b');
    expect(edit.selectionStart).toBe(4);
    expect(edit.selectionEnd).toBe(4);
  });

  it('leaves whitespace at the edges of the selection outside the tags', () => {
    const edit = wrapSelection('one two three', 3, 8, '<u>', '</u>');
    expect(edit.value).toBe('one <u>two</u> three');
  });

  it('accepts a selection made backwards and clamps it to the text', () => {
    expect(wrapSelection('abc', 3, 1, '<b>', '</b>').value).toBe('a<b>bc</b>');
    expect(wrapSelection('abc', 2, 99, '<b>', '</b>').value).toBe('ab<b>c</b>');
  });

  it('makes link tags with the address escaped', () => {
    const edit = wrapSelection('docs', 0, 4, linkOpenTag(' https://x.io/?q="a"&b '), '</a>');
    expect(edit.value).toBe('<a href="https://x.io/?q=&quot;a&quot;&amp;b">docs</a>');
    expect(visibleText(edit.value)).toBe('docs');
  });
});
