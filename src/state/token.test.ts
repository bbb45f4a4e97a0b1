import Cookies from 'js-cookie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AUTH_COOKIE, AUTH_COOKIE_DAYS } from '../../contract/constants';
import { resetEnvironment } from '@/test/support';
import { clearToken, isActiveSession, setToken, tokenAtom } from './auth';
import { cookieWritesSettled, holdCookieWrites, readCookie, removeCookie, writeCookie } from './cookies';
import { appStore } from './store';
import { normalizeToken, startupToken } from './token';
import { LANGUAGE_COOKIE } from '../../contract/constants';
import { startupLanguage } from '@/i18n/language';

describe('token sources (spec §4)', () => {
  beforeEach(() => resetEnvironment('/content/panel/'));
  afterEach(() => vi.restoreAllMocks());

  it('comes from the auth_token cookie', () => {
    Cookies.set(AUTH_COOKIE, 'cookie-token', { path: '/' });
    expect(startupToken()).toBe('cookie-token');
  });

  it('comes from ?token=, is saved to the cookie and removed from the address without a reload', async () => {
    window.history.replaceState(null, '', '/content/panel/?token=abc123&utm=x#tgWebAppData=keep');
    const pushState = vi.spyOn(window.history, 'pushState');
    const replaceState = vi.spyOn(window.history, 'replaceState');

    expect(startupToken()).toBe('abc123');
    await cookieWritesSettled();
    expect(Cookies.get(AUTH_COOKIE)).toBe('abc123');
    expect(window.location.search).toBe('?utm=x');
    expect(window.location.search).not.toContain('token');
    expect(window.location.pathname).toBe('/content/panel/');
    expect(window.location.hash).toBe('#tgWebAppData=keep');
    expect(replaceState).toHaveBeenCalledTimes(1);
    expect(pushState).not.toHaveBeenCalled();
  });

  it("leaves /cancel/?token= alone: it is the signed cancel link's token, not a sign-in", async () => {
    window.history.replaceState(null, '', '/cancel/?token=7.1.signed');
    expect(startupToken()).toBeNull();
    await cookieWritesSettled();
    expect(Cookies.get(AUTH_COOKIE)).toBeUndefined();
    expect(window.location.search).toBe('?token=7.1.signed');
  });

  it('drops the whole query string when the token was its only parameter', () => {
    window.history.replaceState(null, '', '/settings/?token=abc123');
    startupToken();
    expect(window.location.href).toBe(`${window.location.origin}/settings/`);
  });

  it('prefers the address over an older cookie', async () => {
    Cookies.set(AUTH_COOKIE, 'old', { path: '/' });
    window.history.replaceState(null, '', '/?token=new');
    expect(startupToken()).toBe('new');
    await cookieWritesSettled();
    expect(Cookies.get(AUTH_COOKIE)).toBe('new');
  });

  it('treats the texts "null" and "undefined" as no token', () => {
    expect(normalizeToken('null')).toBeNull();
    expect(normalizeToken('undefined')).toBeNull();
    expect(normalizeToken('')).toBeNull();
    expect(normalizeToken('abc')).toBe('abc');
    Cookies.set(AUTH_COOKIE, 'undefined', { path: '/' });
    expect(startupToken()).toBeNull();
    window.history.replaceState(null, '', '/?token=null');
    expect(startupToken()).toBeNull();
    expect(window.location.search).toBe('');
    expect(isActiveSession('null', null)).toBe(false);
    expect(isActiveSession('undefined', null)).toBe(false);
  });

  it('is kept in the cookie for 365 days when set, and cleared from cookie and state', async () => {
    const set = vi.spyOn(Cookies, 'set');
    await setToken('fresh', appStore);
    expect(set).toHaveBeenCalledWith(AUTH_COOKIE, 'fresh', expect.objectContaining({ expires: AUTH_COOKIE_DAYS, sameSite: 'Lax', path: '/' }));
    expect(AUTH_COOKIE_DAYS).toBe(365);
    expect(Cookies.get(AUTH_COOKIE)).toBe('fresh');
    expect(appStore.get(tokenAtom)).toBe('fresh');

    await clearToken(appStore);
    expect(Cookies.get(AUTH_COOKIE)).toBeUndefined();
    expect(appStore.get(tokenAtom)).toBeNull();
  });

  it('set and cleared at once, leaves no cookie behind (the writes land in order)', async () => {
    const set = setToken('fresh', appStore);
    const cleared = clearToken(appStore);
    await Promise.all([set, cleared]);
    expect(Cookies.get(AUTH_COOKIE)).toBeUndefined();
    expect(startupToken()).toBeNull();
  });

  it('keeps the order after a write that failed', async () => {
    void writeCookie(AUTH_COOKIE, 'first', { path: '/' });
    const failing = writeCookie(AUTH_COOKIE, 'second', { path: '/', get expires(): number {
      throw new Error('bad attributes');
    } });
    void removeCookie(AUTH_COOKIE, { path: '/' });
    const last = writeCookie(AUTH_COOKIE, 'third', { path: '/' });
    await expect(failing).rejects.toThrow('bad attributes');
    await last;
    expect(readCookie(AUTH_COOKIE)).toBe('third');
  });
});

describe('readCookie', () => {
  beforeEach(() => resetEnvironment('/'));

  it('reads back what js-cookie wrote, with ; = spaces, quotes and non-ASCII in it', async () => {
    const value = 'a;b=c d "é" ключ 🍪 %41';
    await writeCookie(AUTH_COOKIE, value, { path: '/' });
    expect(readCookie(AUTH_COOKIE)).toBe(value);
    expect(readCookie(AUTH_COOKIE)).toBe(Cookies.get(AUTH_COOKIE));
  });

  it('finds the one asked for among others and says undefined for one that is not there', () => {
    Cookies.set('other_auth_token', 'no', { path: '/' });
    Cookies.set(AUTH_COOKIE, 'x=y', { path: '/' });
    expect(readCookie(AUTH_COOKIE)).toBe('x=y');
    expect(readCookie('missing')).toBeUndefined();
    Cookies.remove('other_auth_token', { path: '/' });
  });
});

describe('the active rule (spec §4)', () => {
  it('is a token or Telegram init data', () => {
    expect(isActiveSession('abc', null)).toBe(true);
    expect(isActiveSession(null, 'query_id=1&hash=x')).toBe(true);
    expect(isActiveSession(null, null)).toBe(false);
    expect(isActiveSession(null, '')).toBe(false);
  });
});

describe('cookie writes held until the first paint (main.tsx)', () => {
  beforeEach(() => resetEnvironment('/content/panel/?token=from-link'));

  it('saves a token from the address at once, and the language write-back (and what follows it) only once released', async () => {
    const release = holdCookieWrites();
    try {
      expect(startupToken()).toBe('from-link');
      await cookieWritesSettled();
      expect(readCookie(AUTH_COOKIE)).toBe('from-link');

      startupLanguage();
      const signedOut = clearToken(appStore);
      let removed = false;
      void signedOut.then(() => (removed = true));
      await Promise.resolve();
      expect(readCookie(LANGUAGE_COOKIE)).toBeUndefined();
      expect(removed).toBe(false);
      release();
      await signedOut;
      expect(readCookie(LANGUAGE_COOKIE)).toBe('en');
      expect(readCookie(AUTH_COOKIE)).toBeUndefined();
    } finally {
      release();
    }
  });
});
