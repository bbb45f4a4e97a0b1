// What the routes' loaders share: a path id parsed (or the route is not found), the product API
// fetched on first use (the routes are in the first paint; ky and the calls are not), and a 404
// from the API shown as the not-found screen rather than an error.
import { notFound } from '@tanstack/react-router';
import type * as FunnelsApi from '@/api/funnels';
import type * as PartnerApi from '@/api/partner';
import { loadMessages } from '@/i18n/i18n';

/** A positive whole id from a path parameter; anything else is a route that does not exist. */
export function idFrom(value: string): number {
  if (!/^[1-9][0-9]{0,15}$/.test(value)) throw notFound();
  return Number(value);
}

function isNotFound(error: unknown): boolean {
  return error instanceof Error && error.name === 'HTTPError' && (error as Error & { response?: Response }).response?.status === 404;
}

/**
 * Runs a screen's fetches with the product API and the funnels' messages, all at once (no
 * waterfall); another user's object or a deleted one (404) is the not-found screen.
 */
export async function loadFunnelsScreen<T>(fetch: (api: typeof FunnelsApi) => Promise<T>): Promise<T> {
  const [api] = await Promise.all([import('@/api/funnels'), loadMessages('funnels')]);
  try {
    return await fetch(api);
  } catch (error) {
    if (isNotFound(error)) throw notFound();
    throw error;
  }
}

/** The same for the partner programme's screens: its API and its messages, at once. */
export async function loadPartnerScreen<T>(fetch: (api: typeof PartnerApi) => Promise<T>): Promise<T> {
  const [api] = await Promise.all([import('@/api/partner'), loadMessages('partner')]);
  try {
    return await fetch(api);
  } catch (error) {
    if (isNotFound(error)) throw notFound();
    throw error;
  }
}
