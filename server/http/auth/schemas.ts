// JSON schemas of the auth API: Fastify refuses bad input with these before a handler runs,
// and serializes answers through the response schemas (nothing unlisted leaks out).
import {
  EMAIL_MAX_LENGTH,
  LANGUAGES,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
} from '../../../contract/constants';
import { INVALID_MESSAGE_KEYWORD } from "../errors";

/** PostgreSQL text cannot hold NUL; DRF refuses it too ("Null characters are not allowed."). */
const NO_NUL = '^[^\\u0000]*$';
const email = { type: 'string', format: 'email', maxLength: EMAIL_MAX_LENGTH, pattern: NO_NUL } as const;
const password = { type: 'string', minLength: 1, maxLength: PASSWORD_MAX_LENGTH, pattern: NO_NUL } as const;
const name = { type: 'string', maxLength: NAME_MAX_LENGTH, pattern: NO_NUL } as const;
const language = { type: 'string', enum: [...LANGUAGES] } as const;
/** uid and token come from e-mail links; anything longer is not one of ours. */
const uid = { type: 'string', minLength: 1, maxLength: 64, pattern: NO_NUL } as const;
const linkToken = { type: 'string', minLength: 1, maxLength: 128, pattern: NO_NUL } as const;
/** A user id in a query string. */
const userId = {
  type: 'string',
  pattern: '^[0-9]{1,10}$',
  [INVALID_MESSAGE_KEYWORD]: 'A valid integer is required.',
} as const;
export const MAX_IDS_PER_REQUEST = 100;

const nullableString = { type: ['string', 'null'] } as const;

export const currentUserSchema = {
  type: 'object',
  required: ['id', 'email', 'first_name', 'last_name', 'language', 'role', 'is_active', 'date_joined'],
  properties: {
    id: { type: 'integer' },
    email: nullableString,
    first_name: { type: 'string' },
    last_name: { type: 'string' },
    language: { type: 'string' },
    role: { type: 'string' },
    is_active: { type: 'boolean' },
    telegram_id: { type: ['integer', 'null'] },
    telegram_username: nullableString,
    telegram_photo_url: nullableString,
    date_joined: { type: 'string' },
  },
} as const;

export const publicUserSchema = {
  type: 'object',
  required: ['id', 'first_name', 'last_name'],
  properties: {
    id: { type: 'integer' },
    first_name: { type: 'string' },
    last_name: { type: 'string' },
    telegram_username: nullableString,
    telegram_photo_url: nullableString,
    email: nullableString,
  },
} as const;

const object = <P extends Record<string, unknown>, R extends readonly (keyof P & string)[]>(properties: P, required: R) =>
  ({ type: 'object', properties, required }) as const;

export const registerSchema = {
  body: object(
    { email, password, re_password: password, first_name: name, last_name: name, language },
    ['email', 'password', 're_password'],
  ),
  response: {
    201: {
      type: 'object',
      properties: { id: { type: 'integer' }, email: { type: 'string' }, first_name: { type: 'string' }, last_name: { type: 'string' } },
    },
  },
};

export const activationSchema = { body: object({ uid, token: linkToken }, ['uid', 'token']) };

export const emailSchema = { body: object({ email }, ['email']) };

export const loginSchema = {
  // Djoser treats both as optional and answers a missing one as bad credentials.
  body: object(
    {
      email: { type: 'string', maxLength: EMAIL_MAX_LENGTH, pattern: NO_NUL },
      password: { type: 'string', maxLength: PASSWORD_MAX_LENGTH, pattern: NO_NUL },
    },
    [],
  ),
  response: { 200: { type: 'object', required: ['auth_token'], properties: { auth_token: { type: 'string' } } } },
};

export const resetConfirmSchema = {
  body: object({ uid, token: linkToken, new_password: password, re_new_password: password }, [
    'uid',
    'token',
    'new_password',
    're_new_password',
  ]),
};

export const setPasswordSchema = {
  body: object({ current_password: password, new_password: password, re_new_password: password }, [
    'current_password',
    'new_password',
    're_new_password',
  ]),
};

export const meSchema = { response: { 200: currentUserSchema } };

export const updateMeSchema = {
  body: object({ first_name: name, last_name: name, language }, []),
  response: { 200: currentUserSchema },
};

export const byIdSchema = {
  querystring: object({ id: userId }, ['id']),
  response: { 200: publicUserSchema },
};

export const byIdsSchema = {
  querystring: object(
    {
      'id[]': {
        type: ['string', 'array'],
        pattern: userId.pattern,
        items: userId,
        minItems: 1,
        maxItems: MAX_IDS_PER_REQUEST,
        [INVALID_MESSAGE_KEYWORD]: userId[INVALID_MESSAGE_KEYWORD],
      },
    },
    ['id[]'],
  ),
  response: { 200: { type: 'array', items: publicUserSchema } },
};

export const emptyBodySchema = { body: { type: 'object' } };
