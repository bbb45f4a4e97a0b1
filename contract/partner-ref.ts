// The part of ./partner.ts the app's boot needs (src/main.tsx checks the address for `?ref=` before
// anything else): alone here, so the rest of the partner contract stays out of the first paint.

/** The web form `/?ref=<uid>`: the SPA keeps the uid in this cookie for REF_COOKIE_DAYS days. */
export const REF_QUERY_PARAM = 'ref';
export const REF_COOKIE = 'ref';
export const REF_COOKIE_DAYS = 90;
