// Personalisation of a message's Telegram HTML: `{first_name}`, `{last_name}` and `{username}`
// are filled per person when the message is sent, `{first_name|friend}` says what to write when
// the person has no such field (without a fallback the placeholder is left out). The editor shows
// them as chips and the preview fills them with a sample; the server fills them for real.
// `{person_id}` is the person's id in this funnel: a link to the owner's own checkout carries it,
// and the incoming webhook names the person by it. A value
// is escaped for HTML; a fallback is part of the HTML already (the editor escaped it).

export const PERSON_FIELDS = ['first_name', 'last_name', 'username', 'person_id'] as const;
export type PersonField = (typeof PERSON_FIELDS)[number];

/** A fallback may hold anything but braces and the bar (they end the placeholder). */
export const FALLBACK_MAX = 64;
const PLACEHOLDER = /\{(first_name|last_name|username|person_id)(?:\|([^{}|<>]{0,64}))?\}/g;

export type PersonValues = Partial<Record<PersonField, string | null | undefined>>;

export interface Placeholder {
  field: PersonField;
  /** As written in the HTML (escaped), or null for none. */
  fallback: string | null;
}

/** The HTML of one placeholder. `fallback` is HTML already. */
export function placeholderHtml({ field, fallback }: Placeholder): string {
  return fallback ? `{${field}|${fallback}}` : `{${field}}`;
}

/** Splits a run of text (HTML or plain) into text and placeholders, in order. */
export function splitPlaceholders(text: string): Array<string | Placeholder> {
  const parts: Array<string | Placeholder> = [];
  let last = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    parts.push({ field: match[1] as PersonField, fallback: match[2] ? match[2] : null });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A funnel's own field (issue 24): `{email}`, `{city|somewhere}`; the key is the field's. */
const FIELD_PLACEHOLDER = /\{([a-z][a-z0-9_]{0,31})(?:\|([^{}|<>]{0,64}))?\}/g;

/**
 * The message's HTML for one person: each placeholder replaced by their value (escaped) or its
 * fallback. `fields` (the funnel's field keys and the person's values, null for none) fills
 * `{key}` by the same rule; a `{word}` that is no field of the funnel is left as written.
 */
export function fillPlaceholders(html: string, person: PersonValues, fields?: ReadonlyMap<string, string | null>): string {
  // One pass: a value that itself reads like a placeholder is never filled in turn.
  return html.replace(FIELD_PLACEHOLDER, (whole, key: string, fallback: string | undefined) => {
    let value: string | undefined;
    if ((PERSON_FIELDS as readonly string[]).includes(key)) value = person[key as PersonField]?.trim();
    else if (fields?.has(key)) value = fields.get(key)?.trim();
    else return whole;
    return value ? escapeHtml(value) : (fallback ?? '');
  });
}
