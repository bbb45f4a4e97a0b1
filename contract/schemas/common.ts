// Building blocks of the API's TypeBox schemas. Each schema is the one source of its shape: the
// server validates and serializes with it, and both sides take the TypeScript type from it
// (Static). The SPA only ever imports *types* from contract/schemas/ (ESLint), so TypeBox never
// reaches the bundle.
//
// Nullable values are written as JSON Schema type lists ({"type": ["integer", "null"]}) rather
// than TypeBox's anyOf unions: ajv then reports one error per failure, which the server turns
// into DRF's single message per field.
import { Type, type Static, type TSchema } from 'typebox';

/**
 * A keyword the server's ajv knows: one message for any failure of that value except a missing
 * field (e.g. a query id that is not a whole number: "A valid integer is required.").
 */
export const INVALID_MESSAGE_KEYWORD = 'x-invalid';

/** Largest value of a PostgreSQL integer id. */
export const MAX_ID = 2_147_483_647;

// --- the strings of the contract ---------------------------------------------------------------
// Every string of every schema here is built by one of the helpers below (ESLint forbids
// Type.String elsewhere in contract/schemas/, and contract/schemas/strings.test.ts walks every
// exported schema): each carries one of STRING_FORMATS, so a new field refuses NUL, an unpaired
// surrogate and an impossible day without anyone remembering to. The server's ajv registers
// STRING_FORMATS (server/app.ts); a format's failure is worded per format (server/http/errors.ts).

/** With the u flag a well-formed pair is one code point: only an unpaired surrogate is \p{Cs}. */
const UNPAIRED_SURROGATE = /\p{Cs}/u;

/** A string that is not well-formed UTF-16 ("\ud800" in JSON can make one). */
export const hasUnpairedSurrogate = (value: string) => UNPAIRED_SURROGATE.test(value);

/** Text PostgreSQL can store: no NUL (DRF refuses it too), no unpaired UTF-16 surrogate. */
export function isStorableText(value: string): boolean {
  return !value.includes('\u0000') && !hasUnpairedSurrogate(value);
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeapYear = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);

/** A day that exists, years 0001-9999 (PostgreSQL has no year 0): 2024-02-29 yes, 2023-02-29 no. */
function dayExists(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  return day <= (month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]);
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** YYYY-MM-DD, a day that exists. */
export function isCalendarDay(value: string): boolean {
  const match = DAY.exec(value);
  return match !== null && dayExists(Number(match[1]), Number(match[2]), Number(match[3]));
}

/**
 * RFC 3339's date-time with its offset: 2030-02-28T10:00:00Z, 2030-02-28T13:00:00.5+03:00. Only
 * this form (no RFC 2822, no free-form text, no six-digit year, no missing offset), a day that
 * exists, hours 00-23, minutes and seconds 00-59 (JavaScript's Date has no leap second).
 */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(\.\d{1,9})?(Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

export function isDateTime(value: string): boolean {
  const match = DATE_TIME.exec(value);
  return match !== null && dayExists(Number(match[1]), Number(match[2]), Number(match[3]));
}

/** ASCII only (ajv-formats' grammar), so never NUL nor a surrogate. */
const EMAIL = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;
export const isEmail = (value: string) => EMAIL.test(value);

/** The string formats of the contract, by name: what the server's ajv (and TypeBox) check. */
export const STRING_FORMATS = {
  text: isStorableText,
  'calendar-day': isCalendarDay,
  'rfc3339-date-time': isDateTime,
  'email-address': isEmail,
} as const satisfies Record<string, (value: string) => boolean>;
export type StringFormat = keyof typeof STRING_FORMATS;

/** Every string schema starts here: the text format unless a stricter one is given. */
const StringSchema = (options: { format?: StringFormat; maxLength?: number; minLength?: number; pattern?: string; [INVALID_MESSAGE_KEYWORD]?: string }) =>
  Type.String({ format: 'text' satisfies StringFormat, ...options });

/** Text the database can store: at most maxLength characters (none: an answer's field), at least minLength if given. */
export const Text = (maxLength?: number, minLength = 0) =>
  StringSchema({ ...(maxLength !== undefined ? { maxLength } : {}), ...(minLength ? { minLength } : {}) });

/** Text that must match `pattern` (anchored), with one message for any failure. */
export const PatternText = (pattern: string, message: string) => StringSchema({ pattern, [INVALID_MESSAGE_KEYWORD]: message });

export const DAY_MESSAGE = 'Enter a valid date: YYYY-MM-DD.';
/** A calendar day, YYYY-MM-DD, that exists. */
export const Day = () => StringSchema({ format: 'calendar-day', [INVALID_MESSAGE_KEYWORD]: DAY_MESSAGE });

/** DRF's DateTimeField message, naming the one form accepted. */
export const DATE_TIME_MESSAGE = 'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm:ss[.uuuuuu](Z|+HH:MM|-HH:MM).';
/** A moment as RFC 3339 with its offset (see isDateTime). */
export const DateTime = () => StringSchema({ format: 'rfc3339-date-time', maxLength: 40, [INVALID_MESSAGE_KEYWORD]: DATE_TIME_MESSAGE });

/** An e-mail address (Djoser's "Enter a valid email address."). */
export const Email = (maxLength: number) => StringSchema({ format: 'email-address', maxLength });

/** One of a list of strings, as {"type": "string", "enum": [...]} (typed as the union). */
export const StringEnum = <const T extends readonly string[]>(values: T) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values] });

/** The schema, or null: {"type": [its type, "null"]}. */
export function Nullable<T extends TSchema>(schema: T) {
  const { type, enum: values, ...rest } = schema as TSchema & { type?: unknown; enum?: unknown[] };
  if (typeof type !== 'string') throw new TypeError('Nullable() takes a schema with a single type');
  return Type.Unsafe<Static<T> | null>({ ...rest, type: [type, 'null'], ...(values ? { enum: [...values, null] } : {}) });
}

/** A database id in a body: a positive whole number that fits an integer column. */
export const Id = () => Type.Integer({ minimum: 1, maximum: MAX_ID });

/** A whole number in a query string (query values arrive as text: nothing is coerced). */
export const QueryInt = (maxDigits: number) => PatternText(`^[0-9]{1,${maxDigits}}$`, 'A valid integer is required.');
