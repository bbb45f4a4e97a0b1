// Fields (issue 24, "ask and remember"): values a funnel keeps per person, asked by a stage and
// used in filters, exports and personalisation (`{email}`, `{city|somewhere}`). Limits, kinds,
// API paths and the rules an answer must meet (the bot runtime checks them; the SPA's editor
// reads the same). The shapes are TypeBox schemas in ./schemas/fields.ts (types re-exported here).
import { fillPath } from './paths';
import { PERSON_FIELDS } from './personalise';

export const FIELD_KINDS = ['text', 'number', 'email', 'phone', 'date', 'choice'] as const;
export type FieldKind = (typeof FIELD_KINDS)[number];

export const FIELD_TITLE_MAX = 64;
export const FIELD_KEY_MAX = 32;
/** A field's key is its personalisation placeholder: `{key}`. */
export const FIELD_KEY_PATTERN = '^[a-z][a-z0-9_]{0,31}$';
export const FIELDS_MAX = 50;
export const FIELD_OPTIONS_MIN = 2;
export const FIELD_OPTIONS_MAX = 8;
/** Telegram's limit for a reply keyboard button's text. */
export const FIELD_OPTION_MAX = 64;
/** What the bot sends back after an answer it cannot take (Telegram's caption limit, so it fits anywhere). */
export const REASK_TEXT_MAX = 1024;
/** A kept value: longer answers are cut (a message is at most 4096 characters). */
export const FIELD_VALUE_MAX = 4096;
/** Keys the built-in placeholders and people's own columns use: a field cannot take them. */
export const RESERVED_FIELD_KEYS: readonly string[] = [...PERSON_FIELDS, 'person_id', 'id', 'name', 'stage', 'tag', 'source', 'phone_number'];

export const FIELDS_PATHS = {
  fields: '/api/funnels/:id/fields/',
  field: '/api/funnels/:id/fields/:fieldId/',
  stageAsk: '/api/funnels/:id/stages/:stageId/ask/',
  personField: '/api/people/:id/fields/:fieldId/',
} as const;

export const FIELDS_API = {
  fields: (id: number) => fillPath(FIELDS_PATHS.fields, { id }),
  field: (id: number, fieldId: number) => fillPath(FIELDS_PATHS.field, { id, fieldId }),
  stageAsk: (id: number, stageId: number) => fillPath(FIELDS_PATHS.stageAsk, { id, stageId }),
  personField: (personId: number, fieldId: number) => fillPath(FIELDS_PATHS.personField, { id: personId, fieldId }),
} as const;

/** A key made from a title: Latin letters, digits and underscores (Cyrillic transliterated), or "" when nothing is left. */
export function suggestFieldKey(title: string): string {
  const CYRILLIC: Record<string, string> = {
    а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', е: 'e', ё: 'e', ж: 'zh', з: 'z', и: 'i', й: 'y', к: 'k', л: 'l', м: 'm', н: 'n', о: 'o',
    п: 'p', р: 'r', с: 's', т: 't', у: 'u', ф: 'f', х: 'h', ц: 'ts', ч: 'ch', ш: 'sh', щ: 'sch', ъ: '', ы: 'y', ь: '', э: 'e', ю: 'yu', я: 'ya',
  };
  const latin = [...title.toLowerCase()].map((c) => CYRILLIC[c] ?? c).join('');
  const key = latin.replace(/[^a-z0-9]+/g, '_').replace(/^[^a-z]+/, '').replace(/_+$/, '').slice(0, FIELD_KEY_MAX).replace(/_+$/, '');
  return key;
}

/** ASCII only, a dot in the domain: what people mean by an e-mail address. */
const EMAIL = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,63}$/i;

function isoDay(year: number, month: number, day: number): string | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1000 || year > 9999 || date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** A date as people write it (DD.MM.YYYY, DD/MM/YYYY, DD-MM-YYYY, YYYY-MM-DD), as YYYY-MM-DD; null: not a date. */
export function parseDateAnswer(text: string): string | null {
  const trimmed = text.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(trimmed);
  if (iso) return isoDay(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const dmy = /^(\d{1,2})[./-](\d{1,2})[./-](\d{4})$/.exec(trimmed);
  if (dmy) return isoDay(Number(dmy[3]), Number(dmy[2]), Number(dmy[1]));
  return null;
}

/**
 * The value kept for an answer of a field of `kind` (its `options` for a choice), or null when
 * the answer does not fit (the person is asked again). A phone comes from a shared contact, not text.
 */
export function answerValue(kind: FieldKind, options: readonly string[], text: string): string | null {
  const trimmed = text.trim();
  if (!trimmed) return null;
  switch (kind) {
    case 'text':
      return trimmed.slice(0, FIELD_VALUE_MAX);
    case 'number': {
      const normal = trimmed.replace(/\s+/g, '').replace(',', '.');
      return /^[+-]?\d{1,15}(\.\d{1,10})?$/.test(normal) ? String(Number(normal)) : null;
    }
    case 'email':
      return trimmed.length <= 254 && EMAIL.test(trimmed) ? trimmed.toLowerCase() : null;
    case 'date':
      return parseDateAnswer(trimmed);
    case 'choice':
      return options.find((option) => option.toLocaleLowerCase() === trimmed.toLocaleLowerCase()) ?? null;
    case 'phone':
      return null;
  }
}

export type * from './schemas/fields';
