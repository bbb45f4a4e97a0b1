// The rich-text editor's document and the Telegram HTML that is stored and sent, both ways. The
// editor (Tiptap, ProseMirror underneath) holds paragraphs and quotes of text with marks (bold,
// italic, underline, strikethrough, spoiler, code, link) and personalisation chips; Telegram HTML
// holds the same as tags in one string with "\n" between lines. Text is escaped here, so
// "Tom & Jerry <3" is typed as it is and arrives as it is. Pure: no editor, no DOM.
import type { JSONContent } from '@tiptap/core';
import { escapeHtml, PERSON_FIELDS, placeholderHtml, splitPlaceholders, type PersonField } from '../../../contract/personalise';
import { parseTelegramHtml, type HtmlNode } from '../../../contract/telegram-html';

export type MarkName = 'link' | 'bold' | 'italic' | 'underline' | 'strike' | 'spoiler' | 'code';
/** Outermost first: a link wraps the formatting inside it, code is innermost. */
const MARK_ORDER: readonly MarkName[] = ['link', 'bold', 'italic', 'underline', 'strike', 'spoiler', 'code'];
const TAGS: Record<Exclude<MarkName, 'link'>, string> = { bold: 'b', italic: 'i', underline: 'u', strike: 's', spoiler: 'tg-spoiler', code: 'code' };

interface Mark {
  type: MarkName;
  href?: string;
}

function escapeAttribute(value: string): string {
  return escapeHtml(value).replace(/"/g, '&quot;');
}

function marksOf(node: JSONContent): Mark[] {
  const marks = (node.marks ?? [])
    .filter((mark): mark is { type: MarkName; attrs?: Record<string, unknown> } => MARK_ORDER.includes(mark.type as MarkName))
    .map((mark) => (mark.type === 'link' ? { type: 'link' as const, href: String(mark.attrs?.href ?? '') } : { type: mark.type as MarkName }));
  return marks.sort((a, b) => MARK_ORDER.indexOf(a.type) - MARK_ORDER.indexOf(b.type));
}

const sameMark = (a: Mark, b: Mark) => a.type === b.type && a.href === b.href;
const openTag = (mark: Mark) => (mark.type === 'link' ? `<a href="${escapeAttribute(mark.href ?? '')}">` : `<${TAGS[mark.type]}>`);
const closeTag = (mark: Mark) => (mark.type === 'link' ? '</a>' : `</${TAGS[mark.type]}>`);

/** One line's inline content as HTML, with as few tags as the marks allow. */
function inlineHtml(nodes: JSONContent[] = []): string {
  let out = '';
  const open: Mark[] = [];
  for (const node of nodes) {
    const marks = marksOf(node);
    let keep = 0;
    while (keep < open.length && keep < marks.length && sameMark(open[keep], marks[keep])) keep += 1;
    while (open.length > keep) out += closeTag(open.pop() as Mark);
    for (const mark of marks.slice(keep)) {
      out += openTag(mark);
      open.push(mark);
    }
    if (node.type === 'text') out += escapeHtml(node.text ?? '');
    else if (node.type === 'hardBreak') out += '\n';
    else if (node.type === 'variable') {
      const fallback = typeof node.attrs?.fallback === 'string' && node.attrs.fallback ? escapeHtml(node.attrs.fallback) : null;
      out += placeholderHtml({ field: node.attrs?.field as PersonField, fallback });
    }
  }
  while (open.length) out += closeTag(open.pop() as Mark);
  return out;
}

/** The editor's document as Telegram HTML: lines joined by "\n", quotes as <blockquote>. */
export function toTelegramHtml(doc: JSONContent): string {
  return (doc.content ?? [])
    .map((block) => {
      if (block.type === 'blockquote') return `<blockquote>${(block.content ?? []).map((p) => inlineHtml(p.content)).join('\n')}</blockquote>`;
      return inlineHtml(block.content);
    })
    .join('\n');
}

const TAG_MARKS: Record<string, MarkName> = {
  b: 'bold',
  strong: 'bold',
  i: 'italic',
  em: 'italic',
  u: 'underline',
  ins: 'underline',
  s: 'strike',
  strike: 'strike',
  del: 'strike',
  code: 'code',
  pre: 'code',
  'tg-spoiler': 'spoiler',
  span: 'spoiler',
};

function jsonMarks(marks: Mark[]): JSONContent['marks'] {
  return marks.length ? marks.map((mark) => (mark.type === 'link' ? { type: 'link', attrs: { href: mark.href } } : { type: mark.type })) : undefined;
}

/** Inline nodes of a text run: placeholders become chips. */
function textNodes(text: string, marks: Mark[]): JSONContent[] {
  return splitPlaceholders(text).map((part) =>
    typeof part === 'string'
      ? { type: 'text', text: part, marks: jsonMarks(marks) }
      : { type: 'variable', attrs: { field: part.field, fallback: part.fallback ?? '' }, marks: jsonMarks(marks) },
  );
}

/** Lines of inline content ("\n" starts a new line), for the top level or inside a quote. */
class Lines {
  readonly lines: JSONContent[][] = [];
  current: JSONContent[] | null = null;

  add(text: string, marks: Mark[]): void {
    text.split('\n').forEach((part, index) => {
      if (index > 0) this.newLine();
      this.current ??= [];
      if (part) this.current.push(...textNodes(part, marks));
    });
  }

  newLine(): void {
    this.lines.push(this.current ?? []);
    this.current = [];
  }

  /** Ends the current line if it holds anything (or always, with `keepEmpty`). */
  finish(keepEmpty: boolean): void {
    if (this.current && (this.current.length > 0 || keepEmpty)) this.lines.push(this.current);
    this.current = null;
  }
}

function walk(nodes: HtmlNode[], marks: Mark[], lines: Lines, onQuote: ((children: HtmlNode[]) => void) | null): void {
  for (const node of nodes) {
    if (typeof node === 'string') lines.add(node, marks);
    else if (node.tag === 'blockquote' && onQuote) onQuote(node.children);
    else if (node.tag === 'a') walk(node.children, addMark(marks, { type: 'link', href: node.href ?? '' }), lines, onQuote);
    else if (TAG_MARKS[node.tag]) walk(node.children, addMark(marks, { type: TAG_MARKS[node.tag] }), lines, onQuote);
    else walk(node.children, marks, lines, onQuote);
  }
}

function addMark(marks: Mark[], mark: Mark): Mark[] {
  return marks.some((m) => m.type === mark.type) ? marks : [...marks, mark];
}

const paragraph = (content: JSONContent[]): JSONContent => (content.length ? { type: 'paragraph', content } : { type: 'paragraph' });

/** Telegram HTML as the editor's document (forgiving: unknown tags stay as text). */
export function fromTelegramHtml(html: string): JSONContent {
  const blocks: JSONContent[] = [];
  const top = new Lines();
  let afterQuote = false;
  const flushTop = () => {
    for (const line of top.lines.splice(0)) blocks.push(paragraph(line));
  };
  const quote = (children: HtmlNode[]) => {
    // The "\n" before a quote only separates it from the line above.
    top.finish(false);
    flushTop();
    const inner = new Lines();
    walk(children, [], inner, null);
    inner.finish(true);
    blocks.push({ type: 'blockquote', content: inner.lines.map(paragraph) });
    afterQuote = true;
  };
  for (const node of parseTelegramHtml(html)) {
    // …and so does the "\n" after it.
    if (afterQuote && typeof node === 'string' && node.startsWith('\n')) {
      afterQuote = false;
      walk([node.slice(1)], [], top, quote);
      continue;
    }
    afterQuote = false;
    walk([node], [], top, quote);
  }
  top.finish(blocks.length === 0 || top.current !== null);
  flushTop();
  return { type: 'doc', content: blocks.length ? blocks : [paragraph([])] };
}

export function isPersonField(value: unknown): value is PersonField {
  return (PERSON_FIELDS as readonly unknown[]).includes(value);
}
