// The partner programme's web link, `/?ref=<uid>` at any page: the first partner a visitor came
// from is kept in the `ref` cookie for 90 days (the server binds it at sign-up), the click is
// reported, and the parameter leaves the address. main.tsx imports this only when the address
// has the parameter, so nobody else downloads it.
import { PARTNER_API, PARTNER_UID_PATTERN, type PartnerClickBody } from '../../contract/partner';
import { REF_COOKIE, REF_COOKIE_DAYS, REF_QUERY_PARAM } from '../../contract/partner-ref';
import { readCookie, writeCookie } from './cookies';

/** Takes `?ref=` out of the address (no reload; other parameters and the hash stay) and returns it. */
export function takeReferralFromAddress(): string | null {
  const url = new URL(window.location.href);
  if (!url.searchParams.has(REF_QUERY_PARAM)) return null;
  const uid = url.searchParams.get(REF_QUERY_PARAM)?.trim() ?? '';
  url.searchParams.delete(REF_QUERY_PARAM);
  const search = url.searchParams.toString();
  window.history.replaceState(window.history.state, '', `${url.pathname}${search ? `?${search}` : ''}${url.hash}`);
  return new RegExp(PARTNER_UID_PATTERN).test(uid) ? uid : null;
}

/**
 * The click is counted whoever comes; the cookie is written only for a first touch (a partner
 * whose link brought the visitor earlier keeps them). Neither waits for the other, nor holds the
 * first paint: the cookie write is deferred until after it (cookies.ts), the click is a fetch
 * that outlives a navigation (keepalive).
 */
export function rememberReferral(uid: string): void {
  if (readCookie(REF_COOKIE) === undefined) {
    void writeCookie(
      REF_COOKIE,
      uid,
      { expires: REF_COOKIE_DAYS, path: '/', sameSite: 'Lax', secure: window.location.protocol === 'https:' },
      true,
    ).catch(() => {
      // js-cookie could not be fetched: the visit is still counted below.
    });
  }
  void fetch(PARTNER_API.clicks, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ uid, kind: 'web' } satisfies PartnerClickBody),
    keepalive: true,
  }).catch(() => {
    // Offline: one visit less in the partner's statistics, nothing the visitor needs to know.
  });
}

/** At boot: the parameter out of the address at once (before the router reads it), the rest in the background. */
export function takeReferral(): void {
  const uid = takeReferralFromAddress();
  if (uid) rememberReferral(uid);
}
