import { describe, expect, it } from 'vitest';
import { checkTelegramHtml, visibleText } from '../../../contract/telegram-html';
import { fromTelegramHtml, toTelegramHtml } from './telegramDoc';

const p = (...content: object[]) => ({ type: 'paragraph', content });
const text = (value: string, ...marks: Array<string | { type: 'link'; attrs: { href: string } }>) => ({
  type: 'text',
  text: value,
  ...(marks.length ? { marks: marks.map((m) => (typeof m === 'string' ? { type: m } : m)) } : {}),
});

describe('the editor document as Telegram HTML', () => {
  it('escapes what is typed, so "Tom & Jerry <3" and "Prices < 100 rub" arrive as typed', () => {
    const html = toTelegramHtml({ type: 'doc', content: [p(text('Tom & Jerry <3', 'bold')), p(text('Prices < 100 rub > 50 & "ok"'))] });
    expect(html).toBe('<b>Tom &amp; Jerry &lt;3</b>\nPrices &lt; 100 rub &gt; 50 &amp; "ok"');
    expect(checkTelegramHtml(html).ok).toBe(true);
    expect(visibleText(html)).toBe('Tom & Jerry <3\nPrices < 100 rub > 50 & "ok"');
  });

  it('nests marks with as few tags as possible, a link outermost and its address escaped', () => {
    const link = { type: 'link' as const, attrs: { href: 'https://example.com/?a=1&b="2"' } };
    const html = toTelegramHtml({
      type: 'doc',
      content: [p(text('a', 'bold'), text('b', 'bold', 'italic'), text('c', 'italic'), text('go', 'bold', link), text(' x', 'spoiler'), text('y', 'code'), text('z', 'underline', 'strike'))],
    });
    expect(html).toBe(
      '<b>a<i>b</i></b><i>c</i><a href="https://example.com/?a=1&amp;b=&quot;2&quot;"><b>go</b></a><tg-spoiler> x</tg-spoiler><code>y</code><u><s>z</s></u>',
    );
    expect(checkTelegramHtml(html).ok).toBe(true);
  });

  it('writes chips as placeholders, with their fallback escaped, and hard breaks and quotes as Telegram has them', () => {
    const html = toTelegramHtml({
      type: 'doc',
      content: [
        p(text('Hi, '), { type: 'variable', attrs: { field: 'first_name', fallback: 'friend & co' }, marks: [{ type: 'bold' }] }, text('!'), { type: 'hardBreak' }, text('Bye')),
        { type: 'blockquote', content: [p(text('quoted')), p(text('two'))] },
        p(),
        p(text('@'), { type: 'variable', attrs: { field: 'username', fallback: '' } }),
      ],
    });
    expect(html).toBe('Hi, <b>{first_name|friend &amp; co}</b>!\nBye\n<blockquote>quoted\ntwo</blockquote>\n\n@{username}');
  });
});

describe('Telegram HTML as the editor document', () => {
  const roundTrip = (html: string) => toTelegramHtml(fromTelegramHtml(html));

  it.each([
    '',
    'plain',
    '<b>Tom &amp; Jerry &lt;3</b>',
    'one\ntwo\n\nfour',
    '<b>a<i>b</i></b><i>c</i>',
    '<a href="https://example.com/?a=1&amp;b=2"><b>go</b></a> <tg-spoiler>s</tg-spoiler> <code>c</code>',
    'Hi, {first_name|friend}! @{username} {last_name}',
    'before\n<blockquote>q1\nq2</blockquote>\nafter',
    '<blockquote>first</blockquote>\nafter',
    'line\n<blockquote>last</blockquote>',
  ])('keeps %j as it is', (html) => {
    expect(roundTrip(html)).toBe(html);
  });

  it('takes the other spellings of Telegram tags and writes the short ones', () => {
    expect(roundTrip('<strong>a</strong><em>b</em><ins>c</ins><del>d</del><span class="tg-spoiler">e</span><pre>f</pre>')).toBe(
      '<b>a</b><i>b</i><u>c</u><s>d</s><tg-spoiler>e</tg-spoiler><code>f</code>',
    );
  });

  it('turns placeholders into chips and leaves other braces as text', () => {
    const doc = fromTelegramHtml('Hi {first_name|you}, {city}');
    expect(doc.content?.[0].content).toEqual([
      { type: 'text', text: 'Hi ' },
      { type: 'variable', attrs: { field: 'first_name', fallback: 'you' } },
      { type: 'text', text: ', {city}' },
    ]);
  });

  it('keeps a stray "<" that an old message stored as text, escaped from now on', () => {
    expect(roundTrip('a < b')).toBe('a &lt; b');
  });
});
