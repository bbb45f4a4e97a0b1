// Shared set-up for the unit tests: a clean cookie jar, address, storage and store per test, and
// a fake fetch that records the requests the app makes.
import Cookies from 'js-cookie';
import { vi } from 'vitest';
import { AUTH_COOKIE, LANGUAGE_COOKIE } from '../../contract/constants';
import type { CurrentUser } from '../../contract/auth';
import { i18n, initI18n } from '@/i18n/i18n';
import { switchLanguage } from '@/i18n/switchLanguage';
import { initDataAtom, tokenAtom, userAtom } from '@/state/auth';
import { appStore } from '@/state/store';
import { preloaderAtom, topInfoAtom } from '@/state/ui';
import { clearTelegramLaunch } from '@/telegram/launch';

export function resetEnvironment(path = '/'): void {
  Cookies.remove(AUTH_COOKIE, { path: '/' });
  Cookies.remove(LANGUAGE_COOKIE, { path: '/' });
  window.sessionStorage.clear();
  window.history.replaceState(null, '', path);
  clearTelegramLaunch();
  appStore.set(tokenAtom, null);
  appStore.set(userAtom, null);
  appStore.set(initDataAtom, null);
  appStore.set(preloaderAtom, false);
  appStore.set(topInfoAtom, null);
}

export async function useLanguage(language: 'en' | 'ru'): Promise<void> {
  if (!i18n.isInitialized) await initI18n(language);
  else await switchLanguage(language);
}

export const alice: CurrentUser = {
  id: 7,
  email: 'alice@example.com',
  first_name: 'Alice',
  last_name: 'Walker',
  language: 'en',
  role: 'user',
  is_active: true,
  telegram_id: null,
  telegram_username: null,
  telegram_photo_url: null,
  date_joined: '2026-01-01T00:00:00Z',
};

export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | null;
  body: unknown;
}

/** Replaces fetch: `respond` answers each request; every request is recorded. */
export function fakeFetch(respond: (request: RecordedRequest) => Response | Promise<Response>) {
  const requests: RecordedRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(String(input), init);
    const text = await request.clone().text();
    const recorded: RecordedRequest = {
      method: request.method,
      path: new URL(request.url).pathname,
      authorization: request.headers.get('Authorization'),
      body: text ? (JSON.parse(text) as unknown) : null,
    };
    requests.push(recorded);
    return respond(recorded);
  });
  vi.stubGlobal('fetch', fetchMock);
  return requests;
}

export function json(body: unknown, status = 200): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}
