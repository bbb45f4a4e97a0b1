// Who is calling, from the Authorization header (spec §6):
//   Token <40 hex>       an API key from /api/token/login/
//   TG <raw init data>   inside the Telegram Mini App, checked with the service bot token
import type { FastifyReply, FastifyRequest } from 'fastify';
import { TELEGRAM_PREFIX, TOKEN_PREFIX } from '../../../contract/constants';
import { TELEGRAM_UNKNOWN_CODE } from '../../../contract/auth';
import { ACCOUNT_ERRORS } from '../../accounts/errors';
import type { Sessions } from '../../accounts/sessions';
import type { UserRow } from '../../db/schema';
import { ApiError, MESSAGES } from '../errors';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user on routes that require authentication. */
    user: UserRow | null;
    /** The API key the request came with (Token scheme only), to end this device's session. */
    apiKey: string | null;
  }
}

const unauthorized = (detail: string, scheme: string) =>
  new ApiError(401, { detail }, { 'WWW-Authenticate': scheme });

export const AUTH_MESSAGES = {
  invalidToken: 'Invalid token.',
  noCredentials: 'Invalid token header. No credentials provided.',
  spaces: 'Invalid token header. Token string should not contain spaces.',
  inactive: ACCOUNT_ERRORS.userGone,
  invalidInitData: 'Invalid Telegram init data.',
  telegramUnknown: ACCOUNT_ERRORS.telegramUnknown,
} as const;

/** Djoser's detail, plus the code the Mini App reads (contract/auth.ts: TELEGRAM_UNKNOWN_CODE). */
const TELEGRAM_UNKNOWN_BODY: { detail: string; code: typeof TELEGRAM_UNKNOWN_CODE } = { detail: AUTH_MESSAGES.telegramUnknown, code: TELEGRAM_UNKNOWN_CODE };

/** An onRequest hook: refuses the request with 401 unless it carries valid credentials. */
export function requireAuth(sessions: Sessions) {
  return async function authenticate(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const header = request.headers.authorization ?? '';
    const space = header.indexOf(' ');
    const scheme = (space === -1 ? header : header.slice(0, space)).toLowerCase();
    const credentials = space === -1 ? '' : header.slice(space + 1).trim();

    if (scheme === TOKEN_PREFIX.toLowerCase()) {
      if (!credentials) throw unauthorized(AUTH_MESSAGES.noCredentials, TOKEN_PREFIX);
      if (/\s/.test(credentials)) throw unauthorized(AUTH_MESSAGES.spaces, TOKEN_PREFIX);
      const result = await sessions.byApiKey(credentials);
      if ('error' in result) {
        throw unauthorized(result.error === 'inactive' ? AUTH_MESSAGES.inactive : AUTH_MESSAGES.invalidToken, TOKEN_PREFIX);
      }
      request.user = result.user;
      request.apiKey = credentials;
      return;
    }

    if (scheme === TELEGRAM_PREFIX.toLowerCase()) {
      const result = credentials ? await sessions.byInitData(credentials) : ({ error: 'invalid' } as const);
      if ('error' in result) {
        // The Mini App tells this one apart by its code and offers the choice of an account.
        if (result.error === 'unknown') throw new ApiError(401, TELEGRAM_UNKNOWN_BODY, { 'WWW-Authenticate': TELEGRAM_PREFIX });
        throw unauthorized(result.error === 'inactive' ? AUTH_MESSAGES.inactive : AUTH_MESSAGES.invalidInitData, TELEGRAM_PREFIX);
      }
      request.user = result.user;
      return;
    }

    throw unauthorized(MESSAGES.notAuthenticated, TOKEN_PREFIX);
  };
}

/** The signed-in user of a request that passed requireAuth. */
export function currentUser(request: FastifyRequest): UserRow {
  if (!request.user) throw unauthorized(MESSAGES.notAuthenticated, TOKEN_PREFIX);
  return request.user;
}

/** The signed-in user of a request that passed requireAuth, if they are an admin; 403 for anyone else. */
export function currentAdmin(request: FastifyRequest): UserRow {
  const user = currentUser(request);
  if (user.role !== 'admin') throw new ApiError(403, { detail: MESSAGES.permissionDenied });
  return user;
}
