// The editor's text edits on Telegram HTML: the toolbar wraps the selection in a tag pair, a link
// gets its address escaped for the attribute.

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
