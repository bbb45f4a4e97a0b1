// Schema (ajv) errors of the product API, with codes: the same DRF wording as everywhere
// (validationBody in ../errors.ts), plus, per message, the stable code the app translates
// (contract/errors.ts). The auth API keeps Djoser's bodies without codes.
import type { FastifySchemaValidationError } from 'fastify';
import type { CodedErrorBody, CodedMessage } from '../../../contract/errors';
import { codedFieldsBody, MESSAGES, validationBody, type TextedMessage } from '../errors';

const BLANK = 'This field may not be blank.';

type SchemaError = Parameters<typeof validationBody>[0][number];

/** The code of one schema error, given the text validationBody gave it. */
function codeOf(error: SchemaError, text: string): CodedMessage {
  const limit = typeof error.params.limit === 'number' ? error.params.limit : undefined;
  if (error.keyword === 'required' && text === MESSAGES.required) return { code: 'required' };
  if (text === BLANK) return { code: 'blank' };
  if (error.keyword === 'maxLength' && limit !== undefined) return { code: 'too_long', count: limit };
  // A wrong type, choice, pattern or range: the text says which; a number it names goes along.
  return { code: 'invalid', ...(limit !== undefined && text.includes(String(limit)) && { count: limit }) };
}

/** ajv's errors → {"field": [text, …], "codes": {"field": [{code, count?}, …]}} */
export function codedValidationBody(errors: FastifySchemaValidationError[], context: string | undefined): CodedErrorBody {
  const fields: Record<string, TextedMessage[]> = {};
  for (const error of errors as SchemaError[]) {
    // One error at a time, so each text keeps its own code; repeated texts are dropped, as there.
    for (const [field, texts] of Object.entries(validationBody([error], context))) {
      const list = (fields[field] ??= []);
      for (const text of texts) if (!list.some((m) => m.text === text)) list.push({ text, ...codeOf(error, text) });
    }
  }
  return codedFieldsBody(fields);
}
