// The token of a cancel link: the user id and their subscription's cancel generation, signed with
// an HMAC keyed from the server's secret. It cannot be forged, and once a newer subscription
// starts (the generation goes up) an older link no longer matches.
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface CancelTokenClaims {
  userId: number;
  generation: number;
}

const TOKEN = /^([1-9][0-9]{0,9})\.([0-9]{1,10})\.([A-Za-z0-9_-]{43})$/;

function signature(secret: string, { userId, generation }: CancelTokenClaims): Buffer {
  return createHmac('sha256', `billing-cancel:${secret}`).update(`${userId}:${generation}`).digest();
}

export function signCancelToken(secret: string, claims: CancelTokenClaims): string {
  return `${claims.userId}.${claims.generation}.${signature(secret, claims).toString('base64url')}`;
}

/** The claims of a well-formed token with a good signature, or null. */
export function verifyCancelToken(secret: string, token: string): CancelTokenClaims | null {
  const match = TOKEN.exec(token);
  if (!match) return null;
  const claims = { userId: Number(match[1]), generation: Number(match[2]) };
  const given = Buffer.from(match[3], 'base64url');
  const expected = signature(secret, claims);
  return given.length === expected.length && timingSafeEqual(given, expected) ? claims : null;
}
