// Spec §4 language rule: the language cookie (part before '_'), else (inside Telegram) the
// Telegram user's language_code, else the browser language (part before '-'), lowercased;
// anything but ru/en becomes en; the result goes back into the cookie.
import { DEFAULT_LANGUAGE, LANGUAGES, LANGUAGE_COOKIE, LANGUAGE_COOKIE_DAYS, type Language } from '../../contract/constants';
import { readCookie, writeCookie } from '@/state/cookies';

export function isLanguage(value: string): value is Language {
  return (LANGUAGES as readonly string[]).includes(value);
}

export function pickLanguage(cookieValue: string | null | undefined, browserLanguage: string | null | undefined, telegramLanguage?: string | null): Language {
  const source = cookieValue ? cookieValue.split('_')[0] : (telegramLanguage || browserLanguage || '').split('-')[0];
  const code = source.trim().toLowerCase();
  return isLanguage(code) ? code : DEFAULT_LANGUAGE;
}

/** Settles once the cookie is written; `deferred`: it may wait for the first paint (main.tsx). */
export function writeLanguageCookie(language: Language, deferred = false): Promise<void> {
  return writeCookie(
    LANGUAGE_COOKIE,
    language,
    { expires: LANGUAGE_COOKIE_DAYS, path: '/', sameSite: 'Lax', secure: window.location.protocol === 'https:' },
    deferred,
  );
}

/** The language_code of the user in Telegram's init data (the Mini App), if any. */
export function telegramLanguage(initData: string | null): string | null {
  try {
    return initData ? ((JSON.parse(new URLSearchParams(initData).get('user') ?? '{}') as { language_code?: string }).language_code ?? null) : null;
  } catch {
    return null;
  }
}

/**
 * The language to start with; also writes it back to the cookie (LANGUAGE_COOKIE_DAYS), which
 * lands once cookie writes run (after the first paint in the app: see main.tsx).
 */
export function startupLanguage(initData: string | null = null): Language {
  const language = pickLanguage(readCookie(LANGUAGE_COOKIE), typeof navigator === 'undefined' ? null : navigator.language, telegramLanguage(initData));
  void writeLanguageCookie(language, true);
  return language;
}
