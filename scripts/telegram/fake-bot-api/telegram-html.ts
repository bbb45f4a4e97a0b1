// Telegram's parse_mode "HTML": turns the supported tags into plain text plus MessageEntity
// objects, and refuses what Telegram refuses, with Telegram's wording.
// https://core.telegram.org/bots/api#html-style
import type { MessageEntity } from 'grammy/types';

export class HtmlParseError extends Error {}

interface OpenTag {
  name: string;
  /** Where the tag starts in the output text (UTF-16 code units, as Telegram counts). */
  offset: number;
  entity: Omit<MessageEntity, 'offset' | 'length'> | null;
}

const SIMPLE_TAGS: Record<string, MessageEntity['type']> = {
  b: 'bold',
  strong: 'bold',
  i: 'italic',
  em: 'italic',
  u: 'underline',
  ins: 'underline',
  s: 'strikethrough',
  strike: 'strikethrough',
  del: 'strikethrough',
  'tg-spoiler': 'spoiler',
  code: 'code',
  pre: 'pre',
  blockquote: 'blockquote',
};

const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

function byteOffset(html: string, index: number): number {
  return Buffer.byteLength(html.slice(0, index), 'utf8');
}

function parseAttributes(source: string): Map<string, string> {
  const attributes = new Map<string, string>();
  const pattern = /([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;
  for (const match of source.matchAll(pattern)) {
    const value = match[2] ?? match[3] ?? match[4] ?? '';
    attributes.set(match[1].toLowerCase(), decodeEntities(value));
  }
  return attributes;
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, name: string) => {
    if (name.startsWith('#x')) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(parseInt(name.slice(1), 10));
    return NAMED_ENTITIES[name] ?? whole;
  });
}

function entityForTag(name: string, attributes: Map<string, string>, parent: OpenTag | undefined, at: number, html: string): OpenTag['entity'] {
  switch (name) {
    case 'a': {
      const href = attributes.get('href');
      if (!href) return null;
      const mention = /^tg:\/\/user\?id=(\d+)$/.exec(href);
      if (mention) return { type: 'text_mention', user: { id: Number(mention[1]), is_bot: false, first_name: '' } } as Omit<MessageEntity, 'offset' | 'length'>;
      return { type: 'text_link', url: href } as Omit<MessageEntity, 'offset' | 'length'>;
    }
    case 'span':
      if (attributes.get('class') !== 'tg-spoiler') {
        throw new HtmlParseError(`Unsupported start tag "span" at byte offset ${byteOffset(html, at)}`);
      }
      return { type: 'spoiler' };
    case 'tg-emoji': {
      const id = attributes.get('emoji-id');
      if (!id) throw new HtmlParseError(`Custom emoji identifier must be specified at byte offset ${byteOffset(html, at)}`);
      return { type: 'custom_emoji', custom_emoji_id: id } as Omit<MessageEntity, 'offset' | 'length'>;
    }
    case 'code': {
      const language = attributes.get('class')?.match(/^language-(.+)$/)?.[1];
      // <pre><code class="language-x"> gives the pre entity its language instead of a code entity.
      if (parent?.name === 'pre' && language && parent.entity?.type === 'pre') {
        (parent.entity as { language?: string }).language = language;
        return null;
      }
      return { type: 'code' };
    }
    case 'blockquote':
      return { type: attributes.has('expandable') ? 'expandable_blockquote' : 'blockquote' };
    default:
      return { type: SIMPLE_TAGS[name] } as Omit<MessageEntity, 'offset' | 'length'>;
  }
}

/** Parses Telegram HTML into text and entities; throws HtmlParseError with Telegram's message. */
export function parseTelegramHtml(html: string): { text: string; entities: MessageEntity[] } {
  let text = '';
  const entities: MessageEntity[] = [];
  const stack: OpenTag[] = [];
  let i = 0;
  while (i < html.length) {
    const ch = html[i];
    if (ch === '&') {
      const match = /^&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/.exec(html.slice(i, i + 16));
      if (match) {
        const decoded = decodeEntities(match[0]);
        text += decoded;
        i += match[0].length;
        continue;
      }
      text += ch;
      i += 1;
      continue;
    }
    if (ch !== '<') {
      text += ch;
      i += 1;
      continue;
    }
    const close = html.indexOf('>', i);
    if (close === -1) throw new HtmlParseError(`Can't find end of the tag starting at byte offset ${byteOffset(html, i)}`);
    const inner = html.slice(i + 1, close);
    if (inner.startsWith('/')) {
      const name = inner.slice(1).trim().toLowerCase();
      const open = stack.pop();
      if (!open) throw new HtmlParseError(`Unexpected end tag at byte offset ${byteOffset(html, i)}`);
      if (name !== open.name) {
        throw new HtmlParseError(`Unmatched end tag at byte offset ${byteOffset(html, i)}, expected "</${open.name}>", found "</${name}>"`);
      }
      const length = text.length - open.offset;
      if (open.entity && length > 0) entities.push({ ...open.entity, offset: open.offset, length } as MessageEntity);
      i = close + 1;
      continue;
    }
    const nameMatch = /^([a-zA-Z][a-zA-Z0-9-]*)/.exec(inner);
    const name = nameMatch?.[1].toLowerCase() ?? '';
    if (!nameMatch || !(name in SIMPLE_TAGS || name === 'a' || name === 'span' || name === 'tg-emoji')) {
      throw new HtmlParseError(`Unsupported start tag "${name || inner.split(/\s/)[0]}" at byte offset ${byteOffset(html, i)}`);
    }
    const attributes = parseAttributes(inner.slice(nameMatch[0].length));
    stack.push({ name, offset: text.length, entity: entityForTag(name, attributes, stack.at(-1), i, html) });
    i = close + 1;
  }
  const unclosed = stack.pop();
  if (unclosed) throw new HtmlParseError(`Can't find end tag corresponding to start tag "${unclosed.name}"`);
  return trimText(text, sortEntities(entities));
}

function sortEntities(entities: MessageEntity[]): MessageEntity[] {
  return entities.sort((a, b) => a.offset - b.offset || b.length - a.length);
}

/** Telegram drops leading and trailing whitespace from message texts and shifts entities to match. */
export function trimText(text: string, entities: MessageEntity[]): { text: string; entities: MessageEntity[] } {
  const start = text.length - text.trimStart().length;
  const trimmed = text.trim();
  const end = start + trimmed.length;
  const shifted: MessageEntity[] = [];
  for (const entity of entities) {
    const from = Math.max(entity.offset, start);
    const to = Math.min(entity.offset + entity.length, end);
    if (to > from) shifted.push({ ...entity, offset: from - start, length: to - from });
  }
  return { text: trimmed, entities: shifted };
}

/** Entities Telegram finds by itself in text a person types: commands such as /start. */
export function commandEntities(text: string): MessageEntity[] {
  const entities: MessageEntity[] = [];
  for (const match of text.matchAll(/(^|\s)(\/[a-zA-Z0-9_]{1,32}(?:@[a-zA-Z0-9_]{3,32})?)(?=$|\s)/g)) {
    const offset = (match.index ?? 0) + match[1].length;
    entities.push({ type: 'bot_command', offset, length: match[2].length });
  }
  return entities;
}
