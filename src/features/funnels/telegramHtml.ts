// The message editor's Telegram HTML (parse_mode HTML), on the client: the visible length as
// Telegram counts it (tags stripped, entities decoded, UTF-16 code units — the server checks the
// same way), a parse into a tree the preview renders without innerHTML, and the toolbar's
// wrap-the-selection edit. Anything that is not a tag Telegram knows is shown as text.

const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

/** Tags the preview draws; the rest of Telegram's list is drawn as its content. */
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

export interface TextEdit {
  value: string;
  selectionStart: number;
  selectionEnd: number;
}

/**
 * Wraps the selection in `open` … `close` and keeps the same text selected inside the new tags;
 * with nothing selected, inserts the pair and puts the caret between them. Whitespace at the
 * selection's edges stays outside the tags (a double-clicked word often brings a space along).
 */
export function wrapSelection(value: string, start: number, end: number, open: string, close: string): TextEdit {
  let from = Math.max(0, Math.min(start, end, value.length));
  let to = Math.min(value.length, Math.max(start, end));
  while (from < to && /\s/.test(value[from])) from += 1;
  while (to > from && /\s/.test(value[to - 1])) to -= 1;
  const next = value.slice(0, from) + open + value.slice(from, to) + close + value.slice(to);
  return { value: next, selectionStart: from + open.length, selectionEnd: to + open.length };
}

export function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The opening tag of a link to `url`, its address escaped for the attribute. */
export function linkOpenTag(url: string): string {
  return `<a href="${escapeAttribute(url.trim())}">`;
}
