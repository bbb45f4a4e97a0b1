import { isRedirect } from '@tanstack/react-router';
import Cookies from 'js-cookie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { API, TELEGRAM_UNKNOWN_CODE } from '../../../contract/auth';
import { AUTH_COOKIE } from '../../../contract/constants';
import { ROUTES } from '../../../contract/routes';
import { activeAtom, initDataAtom, setToken, telegramNewAtom, tokenAtom, userAtom } from '@/state/auth';
import { failureOf, notifyFailure } from '@/api/action';
import { createAppSession } from '@/api/session';
import { createAuthSession, type SessionApi } from '@/state/session';
import { appStore } from '@/state/store';
import { preloaderAtom, topInfoAtom } from '@/state/ui';
import { alice, fakeFetch, json, resetEnvironment, useLanguage } from '@/test/support';
import { requireGuest, requireUser } from './guards';
import { safeRedirect, validateSignInSearch } from './redirect';

async function redirectOf(run: () => unknown): Promise<string | undefined> {
  try {
    await run();
  } catch (thrown) {
    if (isRedirect(thrown)) return String(thrown.options.to);
    throw thrown;
  }
  return undefined;
}

function fakeApi(fetchMe: SessionApi['fetchMe']): SessionApi & { fetchMe: ReturnType<typeof vi.fn> } {
  // Failures reach the top notice the way the app's own session reports them.
  return { fetchMe: vi.fn(fetchMe), logout: vi.fn(async () => {}), reportFailure: async (error) => notifyFailure(await failureOf(error), appStore) };
}

describe('the guard chain of login-required routes (spec §4)', () => {
  beforeEach(async () => {
    resetEnvironment();
    await useLanguage('en');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('sends a visitor without a token to /sign-in/ without calling the server', async () => {
    const api = fakeApi(async () => alice);
    const auth = createAuthSession(appStore, api);
    expect(await redirectOf(() => requireUser(auth))).toBe(ROUTES.signIn);
    expect(api.fetchMe).not.toHaveBeenCalled();
  });

  it('with a token and no user, fetches the user; an id saves it and navigation continues', async () => {
    setToken('good', appStore);
    const api = fakeApi(async () => alice);
    const auth = createAuthSession(appStore, api);
    expect(await redirectOf(() => requireUser(auth))).toBeUndefined();
    expect(appStore.get(userAtom)).toEqual(alice);
    expect(api.fetchMe).toHaveBeenCalledTimes(1);
    expect(appStore.get(preloaderAtom)).toBe(false);

    // A loaded user is not fetched again.
    expect(await redirectOf(() => requireUser(auth))).toBeUndefined();
    expect(api.fetchMe).toHaveBeenCalledTimes(1);
  });

  it('shares one request between guards that run at the same time', async () => {
    setToken('good', appStore);
    const api = fakeApi(async () => alice);
    const auth = createAuthSession(appStore, api);
    const results = await Promise.all([redirectOf(() => requireUser(auth)), redirectOf(() => requireUser(auth))]);
    expect(results).toEqual([undefined, undefined]);
    expect(api.fetchMe).toHaveBeenCalledTimes(1);
  });

  it('clears the token and goes to /sign-in/ when the response has no id', async () => {
    setToken('weird', appStore);
    const auth = createAuthSession(appStore, fakeApi(async () => ({ first_name: 'No id' })));
    expect(await redirectOf(() => requireUser(auth))).toBe(ROUTES.signIn);
    expect(appStore.get(tokenAtom)).toBeNull();
    expect(Cookies.get(AUTH_COOKIE)).toBeUndefined();
    expect(appStore.get(userAtom)).toBeNull();
  });

  it('clears the token and goes to /sign-in/ when the call fails on the network, with a notice', async () => {
    setToken('good', appStore);
    const auth = createAuthSession(
      appStore,
      fakeApi(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    expect(await redirectOf(() => requireUser(auth))).toBe(ROUTES.signIn);
    expect(appStore.get(tokenAtom)).toBeNull();
    expect(Cookies.get(AUTH_COOKIE)).toBeUndefined();
    expect(appStore.get(topInfoAtom)).toMatchObject({ type: 'error', text: expect.stringMatching(/connection/i) });
    expect(appStore.get(preloaderAtom)).toBe(false);
  });

  it('clears the token and goes to /sign-in/ when the server refuses it (401), through the real client', async () => {
    setToken('f'.repeat(40), appStore);
    const requests = fakeFetch(() => json({ detail: 'Invalid token.' }, 401));
    const auth = createAppSession(appStore);
    expect(await redirectOf(() => requireUser(auth))).toBe(ROUTES.signIn);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'GET', path: API.me, authorization: `Token ${'f'.repeat(40)}` });
    expect(appStore.get(tokenAtom)).toBeNull();
    expect(Cookies.get(AUTH_COOKIE)).toBeUndefined();
  });

  it('inside Telegram with init data and no token, fetches the user with the TG header', async () => {
    const initData = 'query_id=AA&user=%7B%22id%22%3A1%7D&auth_date=1&hash=abc';
    appStore.set(initDataAtom, initData);
    expect(appStore.get(activeAtom)).toBe(true);
    const requests = fakeFetch(() => json({ ...alice, email: null, telegram_id: 1 }));
    const auth = createAppSession(appStore);
    expect(await redirectOf(() => requireUser(auth))).toBeUndefined();
    expect(requests[0]).toMatchObject({ method: 'GET', path: API.me, authorization: `TG ${initData}` });
    expect(appStore.get(userAtom)?.id).toBe(alice.id);
  });

  it('stops using init data the server refused, so the visitor can sign in another way', async () => {
    appStore.set(initDataAtom, 'query_id=AA&hash=tampered');
    fakeFetch(() => json({ detail: 'Invalid init data.' }, 401));
    const auth = createAppSession(appStore);
    expect(await redirectOf(() => requireUser(auth))).toBe(ROUTES.signIn);
    expect(appStore.get(initDataAtom)).toBeNull();
    expect(appStore.get(activeAtom)).toBe(false);
    expect(await redirectOf(() => requireGuest(auth))).toBeUndefined();
  });

  it('a first open from Telegram (an identity no account knows) goes to the welcome screen, keeping the init data and showing no error', async () => {
    appStore.set(telegramNewAtom, false);
    const initData = 'query_id=AA&user=%7B%22id%22%3A1%7D&auth_date=1&hash=abc';
    appStore.set(initDataAtom, initData);
    fakeFetch(() => json({ detail: 'This Telegram account is not linked to an account yet.', code: TELEGRAM_UNKNOWN_CODE }, 401));
    const auth = createAppSession(appStore);
    expect(await redirectOf(() => requireUser(auth, '/content/funnels/'))).toBe(ROUTES.telegramWelcome);
    expect(auth.telegramIsNew()).toBe(true);
    // The init data still proves the identity to "Start here" or to the account signed in to.
    expect(appStore.get(initDataAtom)).toBe(initData);
    expect(appStore.get(topInfoAtom)).toBeNull();
    appStore.set(telegramNewAtom, false);
  });
});

describe('guest-only routes', () => {
  beforeEach(() => resetEnvironment());

  it('send an active visitor (token) to /', async () => {
    setToken('any', appStore);
    const auth = createAuthSession(appStore, fakeApi(async () => alice));
    expect(await redirectOf(() => requireGuest(auth))).toBe(ROUTES.root);
  });

  it('send an active visitor (Telegram init data) to /', async () => {
    appStore.set(initDataAtom, 'query_id=1&hash=x');
    const auth = createAuthSession(appStore, fakeApi(async () => alice));
    expect(await redirectOf(() => requireGuest(auth))).toBe(ROUTES.root);
  });

  it('let a visitor without a token through; "null" is no token', async () => {
    const auth = createAuthSession(appStore, fakeApi(async () => alice));
    expect(await redirectOf(() => requireGuest(auth))).toBeUndefined();
    appStore.set(tokenAtom, 'null');
    expect(await redirectOf(() => requireGuest(auth))).toBeUndefined();
  });
});

describe('logout (spec §4)', () => {
  beforeEach(() => resetEnvironment());

  it('calls the server, then clears the token and the user', async () => {
    setToken('tok', appStore);
    appStore.set(userAtom, alice);
    const api = fakeApi(async () => alice);
    await createAuthSession(appStore, api).logout();
    expect(api.logout).toHaveBeenCalledTimes(1);
    expect(appStore.get(tokenAtom)).toBeNull();
    expect(Cookies.get(AUTH_COOKIE)).toBeUndefined();
    expect(appStore.get(userAtom)).toBeNull();
  });

  it('clears the token even when the server call fails', async () => {
    setToken('tok', appStore);
    const api: SessionApi = {
      ...fakeApi(async () => alice),
      logout: async () => {
        throw new TypeError('Failed to fetch');
      },
    };
    await createAuthSession(appStore, api).logout();
    expect(appStore.get(tokenAtom)).toBeNull();
    expect(Cookies.get(AUTH_COOKIE)).toBeUndefined();
    expect(appStore.get(preloaderAtom)).toBe(false);
  });
});

describe('where sign-in returns the visitor', () => {
  beforeEach(() => resetEnvironment());

  it('tells sign-in the page the guard sent the visitor from', async () => {
    try {
      await requireUser(createAppSession(appStore), '/content/funnels/7/?tab=people');
      expect.unreachable('a guest is redirected');
    } catch (thrown) {
      if (!isRedirect(thrown)) throw thrown;
      expect(thrown.options.to).toBe(ROUTES.signIn);
      expect(thrown.options.search).toEqual({ redirect: '/content/funnels/7/?tab=people' });
    }
  });

  it('takes only paths of this site', () => {
    expect(safeRedirect('/content/funnels/?x=1#top')).toBe('/content/funnels/?x=1#top');
    for (const unsafe of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', 'content/', '', 42, null]) {
      expect(safeRedirect(unsafe), String(unsafe)).toBeUndefined();
    }
    // Back to a guest page would only bounce.
    expect(safeRedirect('/sign-in/')).toBeUndefined();
    expect(validateSignInSearch({ redirect: '//evil.example', other: 'x' })).toEqual({});
    expect(validateSignInSearch({ redirect: '/settings/' })).toEqual({ redirect: '/settings/' });
  });

  it('sends a signed-in visitor on to the redirect instead of sign-in', async () => {
    setToken('tok', appStore);
    const auth = createAppSession(appStore);
    try {
      requireGuest(auth, { redirect: '/settings/' });
      expect.unreachable('a signed-in visitor is redirected');
    } catch (thrown) {
      if (!isRedirect(thrown)) throw thrown;
      expect(thrown.options.href).toBe('/settings/');
    }
    expect(await redirectOf(() => requireGuest(auth, { redirect: 'https://evil.example/' }))).toBe(ROUTES.root);
  });
});
