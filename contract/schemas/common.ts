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

/** PostgreSQL text cannot hold NUL; DRF refuses it too ("Null characters are not allowed."). */
export const NO_NUL = '^[^\\u0000]*$';

/** Largest value of a PostgreSQL integer id. */
export const MAX_ID = 2_147_483_647;

/** A string the database can store: at most maxLength characters, at least minLength if given. */
export const Text = (maxLength: number, minLength = 0) =>
  Type.String({ maxLength, ...(minLength ? { minLength } : {}), pattern: NO_NUL });

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
export const QueryInt = (maxDigits: number) =>
  Type.String({ pattern: `^[0-9]{1,${maxDigits}}$`, [INVALID_MESSAGE_KEYWORD]: 'A valid integer is required.' });
