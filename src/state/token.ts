// Where the auth token lives (spec §4): the auth_token cookie, or a `token` query parameter in the
// page address that is moved into the cookie and taken out of the address without a reload.
import { AUTH_COOKIE, AUTH_COOKIE_DAYS, TOKEN_QUERY_PARAM } from '../../contract/constants';
import { ROUTES } from '../../contract/routes';
import { readCookie, removeCookie, writeCookie } from './cookies';

/** "null" and "undefined" are what a careless `String(token)` leaves behind: they mean no token. */
export function normalizeToken(raw: string | null | undefined): string | null {
  if (raw == null) return null;
  const value = raw.trim();
  if (value === '' || value === 'null' || value === 'undefined') return null;
  return value;
}

export function readTokenCookie(): string | null {
  return normalizeToken(readCookie(AUTH_COOKIE));
}

/** Settles once the cookie is written (writes and removals land in the order they were asked for). */
export function writeTokenCookie(token: string): Promise<void> {
  return writeCookie(AUTH_COOKIE, token, {
    expires: AUTH_COOKIE_DAYS,
    path: '/',
    sameSite: 'Lax',
    secure: window.location.protocol === 'https:',
  });
}

/** Settles once the cookie is gone. */
export function removeTokenCookie(): Promise<void> {
  return removeCookie(AUTH_COOKIE, { path: '/' });
}

/**
 * Takes `?token=` out of the page address (history.replaceState, no reload; other parameters and
 * the hash, which may carry Telegram launch data, stay). Returns the token it found, if any.
 */
export function takeTokenFromAddress(): string | null {
  const url = new URL(window.location.href);
  if (!url.searchParams.has(TOKEN_QUERY_PARAM)) return null;
  // /cancel/?token= is the signed cancel link (billing), not a sign-in: its screen reads it.
  if (url.pathname === ROUTES.cancel) return null;
  const token = normalizeToken(url.searchParams.get(TOKEN_QUERY_PARAM));
  url.searchParams.delete(TOKEN_QUERY_PARAM);
  const search = url.searchParams.toString();
  window.history.replaceState(window.history.state, '', `${url.pathname}${search ? `?${search}` : ''}${url.hash}`);
  return token;
}

/** The token at start-up: one from the address wins (and is saved to the cookie), else the cookie. */
export function startupToken(): string | null {
  const fromAddress = takeTokenFromAddress();
  if (fromAddress) {
    // main.tsx waits for it before the first render, so a reload after that keeps the sign-in.
    void writeTokenCookie(fromAddress);
    return fromAddress;
  }
  return readTokenCookie();
}
