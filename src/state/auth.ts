// Global auth state (spec §3, §4): the user, the token and the derived active flag.
import { atom } from 'jotai';
import type { CurrentUser } from '../../contract/auth';
import { appStore, type AppStore } from './store';
import { normalizeToken, removeTokenCookie, writeTokenCookie } from './token';
import { forgetInitData } from '@/telegram/launch';

export const tokenAtom = atom<string | null>(null);
export const userAtom = atom<CurrentUser | null>(null);
/** Raw Telegram init data (tgWebAppData) when the app runs as a Mini App. */
export const initDataAtom = atom<string | null>(null);
/**
 * The init data is genuine, but no account knows this Telegram identity yet (a first open from
 * Telegram): the welcome screen asks "I already have an account" or "Start here".
 */
export const telegramNewAtom = atom(false);

/** Spec §4: active if a token exists (not "null"/"undefined") or Telegram init data is present. */
export function isActiveSession(token: string | null, initData: string | null): boolean {
  return normalizeToken(token) !== null || Boolean(initData);
}

export const activeAtom = atom((get) => isActiveSession(get(tokenAtom), get(initDataAtom)));

/**
 * Setting the token keeps it in the cookie for AUTH_COOKIE_DAYS. The state has it at once; the
 * promise settles once the cookie is written (a reload after that finds it).
 */
export function setToken(token: string, store: AppStore = appStore): Promise<void> {
  const value = normalizeToken(token);
  if (!value) return clearToken(store);
  store.set(tokenAtom, value);
  return writeTokenCookie(value);
}

/** Clears the token from the state at once; the promise settles once the cookie is gone too. */
export function clearToken(store: AppStore = appStore): Promise<void> {
  store.set(tokenAtom, null);
  return removeTokenCookie();
}

/**
 * Stops using Telegram init data for the rest of this page's life: after sign-out, or when the
 * server refused it. Without this the guest guard would send the visitor straight back in.
 */
export function dropInitData(store: AppStore = appStore): void {
  forgetInitData();
  store.set(initDataAtom, null);
}
