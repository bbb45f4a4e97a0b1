// The one part of the partner programme the app's boot needs (src/state/referral.ts, imported by
// main.tsx only when the address has `?ref=`): alone here, so nothing else of ./partner comes along.

/** The web link's parameter: `${PUBLIC_URL}/?ref=<uid>` (any page). */
export const REFERRAL_QUERY_PARAM = 'ref';
/** First touch: the partner who brought the visitor, read by the server at sign-up. */
export const REFERRAL_COOKIE = 'ref';
export const REFERRAL_COOKIE_DAYS = 90;
/** `?start=` / `?startapp=` of the bot and Mini App links: ref_<uid>. */
export const REFERRAL_START_PREFIX = 'ref_';
/** POST {uid, kind: 'web'}, no login: one visit through a web link. */
export const PARTNER_CLICKS_PATH = '/api/partner/clicks/';

/** A link's public code: short, random, url-safe. */
export function isPartnerUid(value: string): boolean {
  return /^[A-Za-z0-9_-]{1,64}$/.test(value);
}
