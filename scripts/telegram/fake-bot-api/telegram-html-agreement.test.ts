// The fake Bot API parses Telegram HTML with a parser of its own on purpose: it stands for
// Telegram, so it must not share the product's code. This table keeps the two in agreement: what
// the product's save-time check (contract/telegram-html.ts) accepts, the fake (like Telegram)
// sends, with the same visible text; what the check refuses, the fake refuses too.
import { describe, expect, it } from 'vitest';
import { checkTelegramHtml } from '../../../contract/telegram-html';
import { HtmlParseError, parseTelegramHtml } from './telegram-html';

const ACCEPTED: Array<[html: string, visible: string]> = [
  ['plain text', 'plain text'],
  ['<b>bold</b> and <strong>strong</strong>', 'bold and strong'],
  ['<i>i</i><em>e</em><u>u</u><ins>n</ins><s>s</s><strike>k</strike><del>d</del>', 'ieunskd'],
  ['<a href="https://example.com/?a=1&amp;b=2">link</a>', 'link'],
  ['<code>x &lt; y</code>', 'x < y'],
  ['<pre><code class="language-ts">let a = 1;</code></pre>', 'let a = 1;'],
  ['<blockquote>q</blockquote>', 'q'],
  ['<blockquote expandable>long</blockquote>', 'long'],
  ['<tg-spoiler>secret</tg-spoiler> <span class="tg-spoiler">s2</span>', 'secret s2'],
  ['<b><i>nested</i></b>', 'nested'],
  ['Prices &lt; 100 &amp; Tom &amp; Jerry &gt; 3 &quot;q&quot;', 'Prices < 100 & Tom & Jerry > 3 "q"'],
  ['&#33;&#x41;', '!A'],
  ['Привет, <b>мир</b> 😀', 'Привет, мир 😀'],
];

const REFUSED = [
  'a < b',
  '<div>block</div>',
  '<b>unclosed',
  '<b><i>crossed</b></i>',
  '</b>',
  '<span>plain span</span>',
  '<script>alert(1)</script>',
];

describe('the product check and the fake Bot API agree on Telegram HTML', () => {
  it.each(ACCEPTED)('both accept %j with the same visible text', (html, visible) => {
    const checked = checkTelegramHtml(html);
    expect(checked).toEqual({ ok: true, visibleText: visible });
    expect(parseTelegramHtml(html).text).toBe(visible);
  });

  it.each(REFUSED)('both refuse %j', (html) => {
    expect(checkTelegramHtml(html).ok).toBe(false);
    expect(() => parseTelegramHtml(html)).toThrow(HtmlParseError);
  });
});
