// The contract's strings: one definition each for a text, a day and a moment, refusing NUL, an
// unpaired surrogate and a day that does not exist; and every string of every exported schema
// built from them, so a new field cannot forget it.
/// <reference types="vite/client" />
import { Format } from 'typebox/format';
import { Value } from 'typebox/value';
import { beforeAll, describe, expect, it } from 'vitest';
import { ContactsQuerySchema } from './contacts';
import { ListBodySchema } from './crm';
import { SendMailingBodySchema } from './mailings';
import { Day, DateTime, isCalendarDay, isDateTime, isStorableText, STRING_FORMATS, Text } from './common';

const IMPOSSIBLE_DAYS = ['2024-02-30', '2023-02-29', '2024-13-45', '0000-01-01', '2024-00-10', '2024-04-31', '2024-01-00', '1900-02-29'];

beforeAll(() => {
  // TypeBox checks an unknown format as passing: register the contract's own, as the server's ajv does.
  for (const [name, check] of Object.entries(STRING_FORMATS)) Format.Set(name, check);
});

describe('the day', () => {
  it('takes a day that exists, leap days included', () => {
    for (const day of ['2024-02-29', '2000-02-29', '2023-12-31', '0001-01-01', '9999-12-31']) expect(isCalendarDay(day), day).toBe(true);
  });
  it('refuses a day that does not exist, year 0 and anything but YYYY-MM-DD', () => {
    for (const day of [...IMPOSSIBLE_DAYS, '2024-2-3', '20240203', 'March', '2024-02-03T00:00:00Z', ' 2024-02-03', '']) expect(isCalendarDay(day), day).toBe(false);
    for (const day of IMPOSSIBLE_DAYS) expect(Value.Check(Day(), day), day).toBe(false);
  });
});

describe('the moment', () => {
  it('takes RFC 3339 with its offset', () => {
    for (const at of ['2030-02-28T10:00:00Z', '2030-02-28T13:00:00+03:00', '2030-02-28T05:00:00.123-05:00', '2028-02-29T00:00:00.123456789Z', '2030-12-31T23:59:59+14:00']) {
      expect(isDateTime(at), at).toBe(true);
      expect(Value.Check(DateTime(), at), at).toBe(true);
    }
  });
  it('refuses an impossible day, a missing offset, RFC 2822, free form and years beyond four digits', () => {
    for (const at of [
      '',
      '2030-02-30T10:00:00Z',
      '2029-02-29T10:00:00Z',
      '2030-13-01T10:00:00Z',
      '0000-01-01T00:00:00Z',
      '+010000-01-01T00:00:00Z',
      '+275760-09-13T00:00:00Z',
      '2030-02-28T10:00:00',
      '2030-02-28 10:00:00Z',
      '2030-02-28T24:00:00Z',
      '2030-02-28T10:60:00Z',
      '2030-02-28T10:00:60Z',
      '2030-02-28T10:00Z',
      '2030-02-28T10:00:00+0300',
      '2030-02-28T10:00:00+24:00',
      'Thu, 28 Feb 2030 10:00:00 GMT',
      'tomorrow at noon',
      '2030-02-28',
      '2030-02-28T10:00:00Z\u0000',
    ]) {
      expect(isDateTime(at), at).toBe(false);
      expect(Value.Check(DateTime(), at), at).toBe(false);
    }
  });
});

describe('the text', () => {
  it('takes any text PostgreSQL can store, emoji (a surrogate pair) included', () => {
    for (const text of ['', 'hello', 'Привет', 'hi 😀', '\ud83d\ude00']) expect(isStorableText(text), text).toBe(true);
  });
  it('refuses NUL and an unpaired surrogate, wherever it stands', () => {
    for (const text of ['a\u0000b', '\u0000', 'x\ud800', '\udc00y', 'a\ud83d', '\ude00b']) {
      expect(isStorableText(text), JSON.stringify(text)).toBe(false);
      expect(Value.Check(Text(100), text), JSON.stringify(text)).toBe(false);
    }
  });
  it('is refused in the fields the probe broke: a search, a list filter, a scheduled moment', () => {
    expect(Value.Check(ContactsQuerySchema, { search: 'a\u0000b' })).toBe(false);
    expect(Value.Check(ContactsQuerySchema, { joined_from: '2024-02-30' })).toBe(false);
    expect(Value.Check(ContactsQuerySchema, { search: 'ann', joined_from: '2024-02-29' })).toBe(true);
    expect(Value.Check(ListBodySchema, { name: 'L', kind: 'segment', filter: { search: '\ud800' } })).toBe(false);
    expect(Value.Check(ListBodySchema, { name: 'L', kind: 'segment', filter: { joined_to: '2023-02-29' } })).toBe(false);
    expect(Value.Check(SendMailingBodySchema, { scheduled_at: '2030-02-30T10:00:00Z' })).toBe(false);
    expect(Value.Check(SendMailingBodySchema, { scheduled_at: null })).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------
// Every string of every schema: built from the shared definitions
// ---------------------------------------------------------------------------------------------

type SchemaNode = Record<string, unknown>;
const modules = import.meta.glob<Record<string, unknown>>(['./*.ts', '!./*.test.ts'], { eager: true });

const isSchema = (value: unknown): value is SchemaNode =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && ('type' in value || 'anyOf' in value || 'properties' in value);

/** Paths of the string nodes under `node` that carry none of the contract's formats (an enum is a fixed set: fine). */
function looseStrings(node: unknown, path: string, found: string[]): string[] {
  if (Array.isArray(node)) {
    node.forEach((item, i) => looseStrings(item, `${path}[${i}]`, found));
    return found;
  }
  if (typeof node !== 'object' || node === null) return found;
  const schema = node as SchemaNode;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('string') && !Array.isArray(schema.enum) && !(typeof schema.format === 'string' && schema.format in STRING_FORMATS)) found.push(path);
  for (const key of ['properties', 'patternProperties']) {
    const children = schema[key];
    if (typeof children === 'object' && children !== null) for (const [name, child] of Object.entries(children)) looseStrings(child, `${path}.${name}`, found);
  }
  for (const key of ['items', 'additionalProperties', 'not']) if (typeof schema[key] === 'object') looseStrings(schema[key], `${path}.${key}`, found);
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) if (Array.isArray(schema[key])) looseStrings(schema[key], `${path}.${key}`, found);
  return found;
}

describe('every string of the contract', () => {
  it('is built from the shared definitions (a format that refuses NUL, broken characters and impossible days)', () => {
    const schemas = Object.entries(modules).flatMap(([file, exports]) =>
      Object.entries(exports)
        .filter(([, value]) => isSchema(value))
        .map(([name, value]) => [`${file}:${name}`, value] as const),
    );
    expect(schemas.length).toBeGreaterThan(50);
    const loose = schemas.flatMap(([name, schema]) => looseStrings(schema, name, []));
    expect(loose).toEqual([]);
  });

  it('the check itself finds a plain string, nested or nullable', () => {
    expect(looseStrings({ type: 'object', properties: { a: { type: 'array', items: { type: ['string', 'null'] } } } }, 'S', [])).toEqual(['S.a.items']);
    expect(looseStrings(Text(5), 'T', [])).toEqual([]);
  });
});
