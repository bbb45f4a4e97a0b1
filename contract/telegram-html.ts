// Telegram HTML (parse_mode HTML), once for both sides: the server checks a message with it at
// save time (Telegram refuses a whole message for one unsupported or unbalanced tag, so the author
// is told instead of the subscriber getting nothing); the app's editor counts and previews with it.
// Lengths are counted as Telegram counts them: the visible text (tags stripped, entities decoded)
// in UTF-16 code units. Pure TypeScript: neither DOM nor Node. The fake Bot API keeps a parser of
// its own on purpose (it stands for Telegram); a test keeps the two in agreement.

const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

/** The tags Telegram's HTML parse mode knows (ALLOWED_TAGS below says which attributes each takes). */
export const PREVIEW_TAGS = ['b', 'strong', 'i', 'em', 'u', 'ins', 's', 'strike', 'del', 'a', 'code', 'pre', 'blockquote', 'tg-spoiler', 'span'] as const;
export type PreviewTag = (typeof PREVIEW_TAGS)[number];

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[body] ?? whole;
  });
}

export type HtmlNode = string | { tag: PreviewTag; href?: string; children: HtmlNode[] };

const TAG_PATTERN = /^<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s[^<>]*)?)>/;

/**
 * The text as a tree of known tags and decoded text. Unknown tags, stray '<' and closing tags
 * that close nothing stay as text; tags left open are closed at the end (as a preview should be
 * forgiving: the server tells the author what Telegram would refuse).
 */
export function parseTelegramHtml(html: string): HtmlNode[] {
  const root: { children: HtmlNode[] } = { children: [] };
  const stack: Array<{ tag: PreviewTag; href?: string; children: HtmlNode[] }> = [];
  const current = () => (stack.length ? stack[stack.length - 1].children : root.children);
  const pushText = (text: string) => {
    if (!text) return;
    const list = current();
    const last = list[list.length - 1];
    if (typeof last === 'string') list[list.length - 1] = last + text;
    else list.push(text);
  };
  let index = 0;
  while (index < html.length) {
    const lt = html.indexOf('<', index);
    if (lt === -1) {
      pushText(decodeEntities(html.slice(index)));
      break;
    }
    pushText(decodeEntities(html.slice(index, lt)));
    const match = TAG_PATTERN.exec(html.slice(lt));
    const name = match?.[2].toLowerCase() as PreviewTag | undefined;
    if (!match || !name || !(PREVIEW_TAGS as readonly string[]).includes(name)) {
      pushText('<');
      index = lt + 1;
      continue;
    }
    if (match[1] === '/') {
      const at = stack.map((n) => n.tag).lastIndexOf(name);
      if (at === -1) pushText(match[0]);
      else stack.length = at; // nodes were attached when opened
    } else {
      const href = name === 'a' ? /href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i.exec(match[3]) : null;
      const node: { tag: PreviewTag; href?: string; children: HtmlNode[] } = { tag: name, children: [] };
      if (href) node.href = decodeEntities(href[1] ?? href[2] ?? href[3] ?? '');
      current().push(node);
      stack.push(node);
    }
    index = lt + match[0].length;
  }
  return root.children;
}

function textOf(nodes: HtmlNode[]): string {
  return nodes.map((node) => (typeof node === 'string' ? node : textOf(node.children))).join('');
}

/** The text a subscriber sees: tags stripped, entities decoded. */
export function visibleText(html: string): string {
  return textOf(parseTelegramHtml(html));
}

/** Its length as Telegram counts it (UTF-16 code units). */
export function visibleLength(html: string): number {
  return visibleText(html).length;
}

/** Tags Telegram's HTML parse mode knows, with the attributes each may carry. */
const ALLOWED_TAGS: Record<PreviewTag, readonly string[]> = {
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

export type TelegramHtmlResult = { ok: true; visibleText: string } | { ok: false; error: string };

const ALLOWED_LIST = 'b, strong, i, em, u, ins, s, strike, del, a href, code, pre, blockquote, tg-spoiler, span class="tg-spoiler"';

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
    const allowed = (ALLOWED_TAGS as Record<string, readonly string[] | undefined>)[name];
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
