// The tokens of the signed links in notices: the user id and their subscription's cancel
// generation, signed with an HMAC keyed from the server's secret and the link's purpose. It cannot
// be forged; once a newer subscription starts (the generation goes up) an older link no longer
// matches; and a token made for one purpose (cancel the renewal) does not pass for another (open
// the card portal), so a link forwarded to update a card cannot be used to cancel, nor the reverse.
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface CancelTokenClaims {
  userId: number;
  generation: number;
}

/** What a signed link is for: part of its HMAC key. */
export type LinkPurpose = 'billing-cancel' | 'billing-card-portal';

const TOKEN = /^([1-9][0-9]{0,9})\.([0-9]{1,10})\.([A-Za-z0-9_-]{43})$/;

function signature(purpose: LinkPurpose, secret: string, { userId, generation }: CancelTokenClaims): Buffer {
  return createHmac('sha256', `${purpose}:${secret}`).update(`${userId}:${generation}`).digest();
}

function sign(purpose: LinkPurpose, secret: string, claims: CancelTokenClaims): string {
  return `${claims.userId}.${claims.generation}.${signature(purpose, secret, claims).toString('base64url')}`;
}

function verify(purpose: LinkPurpose, secret: string, token: string): CancelTokenClaims | null {
  const match = TOKEN.exec(token);
  if (!match) return null;
  const claims = { userId: Number(match[1]), generation: Number(match[2]) };
  const given = Buffer.from(match[3], 'base64url');
  const expected = signature(purpose, secret, claims);
  return given.length === expected.length && timingSafeEqual(given, expected) ? claims : null;
}

export function signCancelToken(secret: string, claims: CancelTokenClaims): string {
  return sign('billing-cancel', secret, claims);
}

/** The claims of a well-formed cancel token with a good signature, or null. */
export function verifyCancelToken(secret: string, token: string): CancelTokenClaims | null {
  return verify('billing-cancel', secret, token);
}

/** The token of the link that opens a fresh card-portal session (GET /api/billing/card/portal/). */
export function signPortalToken(secret: string, claims: CancelTokenClaims): string {
  return sign('billing-card-portal', secret, claims);
}

/** The claims of a well-formed portal token with a good signature, or null. */
export function verifyPortalToken(secret: string, token: string): CancelTokenClaims | null {
  return verify('billing-card-portal', secret, token);
}
