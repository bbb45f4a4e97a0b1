// The secrets a user holds: API keys (one per device, stored as sha256) and the single-use
// activation and reset tokens sent by e-mail.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { MAX_ID } from '../../contract/schemas/common';

/** A fresh API key: 40 hex characters, like Django REST framework's tokens. */
export function generateApiKey(): string {
  return randomBytes(20).toString('hex');
}

/** What the database stores for an API key. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export const API_KEY_PATTERN = /^[0-9a-f]{40}$/;

// ---------------------------------------------------------------------------------------------
// E-mail link tokens, built like Django's PasswordResetTokenGenerator:
//   <issued-at, unix seconds, base 36>-<32 hex of HMAC-SHA256>
// The HMAC covers the purpose, the user id, the password hash, the e-mail, the last login and
// the last password change, so a reset token dies as soon as it has been used (the password
// hash changes) or the user has signed in since; nothing has to be stored.
// ---------------------------------------------------------------------------------------------

export type LinkPurpose = 'activation' | 'password-reset';

export interface LinkTokenUser {
  id: number;
  email: string | null;
  passwordHash: string | null;
  lastLogin: Date | null;
  passwordChangedAt: Date | null;
}

/** Clock skew tolerated for a token that claims to come from the future. */
const FUTURE_SKEW_S = 60;

function signature(secretKey: string, purpose: LinkPurpose, user: LinkTokenUser, issuedAtS: number): string {
  const key = createHash('sha256').update(`funnels.link-token|${secretKey}`).digest();
  const value = [
    purpose,
    user.id,
    user.passwordHash ?? '',
    user.email ?? '',
    user.lastLogin?.getTime() ?? '',
    user.passwordChangedAt?.getTime() ?? '',
    issuedAtS,
  ].join('|');
  const hex = createHmac('sha256', key).update(value).digest('hex');
  // Every other character, as Django does: short links, still 128 bits.
  let short = '';
  for (let i = 0; i < hex.length; i += 2) short += hex[i];
  return short;
}

export function makeLinkToken(secretKey: string, purpose: LinkPurpose, user: LinkTokenUser, now: Date): string {
  const issuedAtS = Math.floor(now.getTime() / 1000);
  return `${issuedAtS.toString(36)}-${signature(secretKey, purpose, user, issuedAtS)}`;
}

export function checkLinkToken(
  secretKey: string,
  purpose: LinkPurpose,
  user: LinkTokenUser,
  token: string,
  now: Date,
  ttlS: number,
): boolean {
  const match = /^([0-9a-z]{1,13})-([0-9a-f]{32})$/.exec(token);
  if (!match) return false;
  const issuedAtS = parseInt(match[1], 36);
  if (!Number.isSafeInteger(issuedAtS)) return false;
  const nowS = Math.floor(now.getTime() / 1000);
  if (issuedAtS > nowS + FUTURE_SKEW_S || nowS - issuedAtS > ttlS) return false;
  const expected = Buffer.from(signature(secretKey, purpose, user, issuedAtS));
  const given = Buffer.from(match[2]);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

// ---------------------------------------------------------------------------------------------
// uid in e-mail links: base64url of the decimal id without padding, like Django's
// urlsafe_base64_encode (id 1 → "MQ").
// ---------------------------------------------------------------------------------------------

export function encodeUid(id: number): string {
  return Buffer.from(String(id)).toString('base64url');
}

/** The user id a uid names, or null when it is not one this server could have sent. */
export function decodeUid(uid: string): number | null {
  if (!/^[A-Za-z0-9_-]{1,16}$/.test(uid)) return null;
  const text = Buffer.from(uid, 'base64url').toString('latin1');
  if (!/^[1-9][0-9]{0,9}$/.test(text)) return null;
  const id = Number(text);
  return id <= MAX_ID ? id : null;
}
