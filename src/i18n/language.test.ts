import Cookies from 'js-cookie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LANGUAGE_COOKIE, LANGUAGE_COOKIE_DAYS } from '../../contract/constants';
import { cookieWritesSettled } from '@/state/cookies';
import { pickLanguage, startupLanguage, telegramLanguage } from './language';

describe('language at startup (spec §4)', () => {
  beforeEach(() => Cookies.remove(LANGUAGE_COOKIE, { path: '/' }));
  afterEach(() => vi.restoreAllMocks());

  it('takes the cookie value before any underscore', () => {
    expect(pickLanguage('ru_RU', 'en-US')).toBe('ru');
    expect(pickLanguage('en_GB', 'ru-RU')).toBe('en');
    expect(pickLanguage('ru', 'en-US')).toBe('ru');
  });

  it('falls back to the browser language before any hyphen', () => {
    expect(pickLanguage(undefined, 'ru-RU')).toBe('ru');
    expect(pickLanguage(null, 'en-US')).toBe('en');
    expect(pickLanguage('', 'ru')).toBe('ru');
  });

  it('lowercases', () => {
    expect(pickLanguage('RU_ru', null)).toBe('ru');
    expect(pickLanguage(undefined, 'RU-ru')).toBe('ru');
  });

  it('uses en for anything but ru or en, and when nothing is known', () => {
    expect(pickLanguage('de_DE', 'ru-RU')).toBe('en');
    expect(pickLanguage(undefined, 'fr-FR')).toBe('en');
    expect(pickLanguage(undefined, undefined)).toBe('en');
  });

  it('writes the result back to the cookie for 30 days', async () => {
    const set = vi.spyOn(Cookies, 'set');
    Cookies.set(LANGUAGE_COOKIE, 'RU_ru', { path: '/' });
    expect(startupLanguage()).toBe('ru');
    await cookieWritesSettled();
    expect(set).toHaveBeenLastCalledWith(LANGUAGE_COOKIE, 'ru', expect.objectContaining({ expires: LANGUAGE_COOKIE_DAYS }));
    expect(LANGUAGE_COOKIE_DAYS).toBe(30);
    expect(Cookies.get(LANGUAGE_COOKIE)).toBe('ru');
  });

  it('writes the browser-derived language too', async () => {
    vi.spyOn(navigator, 'language', 'get').mockReturnValue('pt-BR');
    expect(startupLanguage()).toBe('en');
    await cookieWritesSettled();
    expect(Cookies.get(LANGUAGE_COOKIE)).toBe('en');
  });
});

describe('inside Telegram', () => {
  it("follows the Telegram user's language_code when there is no cookie, and the cookie when there is one", () => {
    const initData = new URLSearchParams({ user: JSON.stringify({ id: 1, first_name: 'Ivan', language_code: 'ru' }), hash: 'x' }).toString();
    expect(telegramLanguage(initData)).toBe('ru');
    expect(telegramLanguage('user=%7Bbroken')).toBeNull();
    expect(telegramLanguage(null)).toBeNull();
    expect(pickLanguage(undefined, 'en-US', 'ru')).toBe('ru');
    expect(pickLanguage('en', 'en-US', 'ru')).toBe('en');
    expect(pickLanguage(undefined, 'ru-RU', 'de')).toBe('en');
  });
});
