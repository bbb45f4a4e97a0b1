// Message text is Telegram HTML (parse_mode HTML). Telegram refuses a whole message for one
// unsupported or unbalanced tag, so the editor is told at save time instead of the subscriber
// getting nothing. Lengths are counted as Telegram counts them: the visible text (tags
// stripped, entities decoded) in UTF-16 code units.

/** Tags Telegram's HTML parse mode knows, with the attributes each may carry. */
const ALLOWED_TAGS: Record<string, readonly string[]> = {
  b: [],
  strong: [],
  i: [],
  em: [],
  u: [],
  ins: [],
  s: [],
  strike: [],
  del: [],
  a: ['href'],
  code: ['class'],
  pre: [],
  blockquote: ['expandable'],
  'tg-spoiler': [],
  span: ['class'],
};

const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

export type TelegramHtmlResult = { ok: true; visibleText: string } | { ok: false; error: string };

const ALLOWED_LIST = 'b, strong, i, em, u, ins, s, strike, del, a href, code, pre, blockquote, tg-spoiler, span class="tg-spoiler"';

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, body: string) => {
    if (body.startsWith('#x') || body.startsWith('#X')) return safeCodePoint(parseInt(body.slice(2), 16)) ?? whole;
    if (body.startsWith('#')) return safeCodePoint(parseInt(body.slice(1), 10)) ?? whole;
    return NAMED_ENTITIES[body] ?? whole;
  });
}

function safeCodePoint(n: number): string | undefined {
  return Number.isInteger(n) && n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : undefined;
}

function parseAttributes(source: string): Map<string, string> | null {
  const attributes = new Map<string, string>();
  const pattern = /\s*([a-zA-Z_-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/y;
  let index = 0;
  while (index < source.length) {
    if (/^\s*$/.test(source.slice(index))) break;
    pattern.lastIndex = index;
    const match = pattern.exec(source);
    if (!match || match[0].length === 0) return null;
    attributes.set(match[1].toLowerCase(), decodeEntities(match[2] ?? match[3] ?? match[4] ?? ''));
    index = pattern.lastIndex;
  }
  return attributes;
}

/** Checks the tags and returns the visible text, or the first problem in the user's words. */
export function checkTelegramHtml(html: string): TelegramHtmlResult {
  const open: string[] = [];
  let visible = '';
  let index = 0;
  while (index < html.length) {
    const lt = html.indexOf('<', index);
    const textEnd = lt === -1 ? html.length : lt;
    visible += decodeEntities(html.slice(index, textEnd));
    if (lt === -1) break;
    const gt = html.indexOf('>', lt);
    if (gt === -1) return { ok: false, error: 'Write "<" as &lt; unless it starts a tag.' };
    const inner = html.slice(lt + 1, gt);
    const closing = inner.startsWith('/');
    const match = /^\/?([a-zA-Z][a-zA-Z0-9-]*)([\s\S]*)$/.exec(inner);
    if (!match) return { ok: false, error: 'Write "<" as &lt; unless it starts a tag.' };
    const name = match[1].toLowerCase();
    const allowed = ALLOWED_TAGS[name];
    if (!allowed) return { ok: false, error: `Telegram does not support the <${name}> tag. Allowed: ${ALLOWED_LIST}.` };
    if (closing) {
      if (match[2].trim() !== '') return { ok: false, error: `The closing tag </${name}> can't have attributes.` };
      const last = open.pop();
      if (last !== name) {
        return {
          ok: false,
          error: last ? `The <${last}> tag is closed by </${name}>; close tags in the reverse order.` : `</${name}> closes a tag that is not open.`,
        };
      }
    } else {
      const attributes = parseAttributes(match[2]);
      if (!attributes) return { ok: false, error: `The <${name}> tag's attributes can't be read.` };
      for (const attribute of attributes.keys()) {
        if (!allowed.includes(attribute)) return { ok: false, error: `The <${name}> tag can't have the "${attribute}" attribute.` };
      }
      if (name === 'a' && !attributes.get('href')) return { ok: false, error: 'A link needs an address: <a href="https://…">.' };
      if (name === 'span' && attributes.get('class') !== 'tg-spoiler') return { ok: false, error: 'Only <span class="tg-spoiler"> is allowed.' };
      if (name === 'code' && attributes.has('class') && !/^language-[\w+#-]+$/.test(attributes.get('class') ?? '')) {
        return { ok: false, error: 'A <code> tag may only have class="language-…".' };
      }
      open.push(name);
    }
    index = gt + 1;
  }
  if (open.length > 0) return { ok: false, error: `The <${open[open.length - 1]}> tag is not closed.` };
  return { ok: true, visibleText: visible };
}
