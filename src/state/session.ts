// The signed-in session as the router and the screens see it (the router context's `auth`):
// reading the active flag, loading the current user for the guards, signing in and out.
import type { CurrentUser } from '../../contract/auth';
import { activeAtom, clearToken, dropInitData, initDataAtom, setToken, telegramNewAtom, tokenAtom, userAtom } from './auth';
import type { AppStore } from './store';
import { withPreloader } from './ui';

export interface AuthSession {
  /** Spec §4: a token (not "null"/"undefined") or Telegram init data. */
  isActive(): boolean;
  hasToken(): boolean;
  user(): CurrentUser | null;
  /** The last load found genuine Telegram init data of an identity no account knows yet. */
  telegramIsNew(): boolean;
  /**
   * Fetches the current user. A response with an id is saved and returned; anything else, or any
   * failure, clears the token (and stops using refused Telegram init data) and returns null.
   */
  loadUser(): Promise<CurrentUser | null>;
  /** Stores a fresh token (after login; settled once it is in the cookie) and loads the user with it. */
  signIn(token: string): Promise<CurrentUser | null>;
  /**
   * Calls the server, then clears the token and the user even if the call failed; settles once
   * the token cookie is gone.
   */
  logout(): Promise<void>;
}

/** The calls a session makes, given to it by api/session.ts (state/ never imports api/). */
export interface SessionApi {
  fetchMe: () => Promise<Partial<CurrentUser> | null>;
  logout: () => Promise<void>;
  /** Tells the visitor a call failed (the top notice); a session has no form to show it on. */
  reportFailure: (error: unknown) => Promise<void>;
  /** Whether fetchMe's failure says the Telegram identity is new (absent: never). */
  isTelegramUnknown?: (error: unknown) => Promise<boolean>;
}

function hasId(value: Partial<CurrentUser> | null | undefined): value is CurrentUser {
  return Boolean(value) && typeof value === 'object' && value !== null && value.id !== undefined && value.id !== null;
}

export function createAuthSession(store: AppStore, api: SessionApi): AuthSession {
  // Settles once the token cookie is gone: a reload after that cannot sign the visitor back in.
  // If the cookie could not be removed (js-cookie failed to load), the visitor is told.
  const endSession = async (): Promise<void> => {
    store.set(userAtom, null);
    await clearToken(store).catch(api.reportFailure);
  };

  const fetchUser = async (): Promise<CurrentUser | null> => {
    const usedInitData = !store.get(tokenAtom) && Boolean(store.get(initDataAtom));
    try {
      const me = await withPreloader(() => api.fetchMe(), store);
      if (hasId(me)) {
        store.set(telegramNewAtom, false);
        store.set(userAtom, me);
        return me;
      }
    } catch (error) {
      if (usedInitData && (await api.isTelegramUnknown?.(error))) {
        // A first open from Telegram: not a failure. The init data stays, to prove the identity
        // to "Start here" or to attach it to the account the person signs in to.
        store.set(telegramNewAtom, true);
        return null;
      }
      await api.reportFailure(error);
    }
    const ended = endSession();
    if (usedInitData) dropInitData(store);
    await ended;
    return null;
  };

  // Guards of a navigation and of a preload may ask at the same time: they share one request.
  let inFlight: Promise<CurrentUser | null> | null = null;
  const loadUser = (): Promise<CurrentUser | null> => {
    inFlight ??= fetchUser().finally(() => {
      inFlight = null;
    });
    return inFlight;
  };

  return {
    isActive: () => store.get(activeAtom),
    hasToken: () => store.get(tokenAtom) !== null,
    user: () => store.get(userAtom),
    telegramIsNew: () => store.get(telegramNewAtom),
    loadUser,
    signIn: async (token) => {
      // The cookie first: a reload right after signing in finds the visitor signed in.
      await setToken(token, store);
      return loadUser();
    },
    logout: async () => {
      try {
        await withPreloader(() => api.logout(), store);
      } catch {
        // The token is cleared whatever the server said (spec §4).
      } finally {
        const ended = endSession();
        dropInitData(store);
        await ended;
      }
    },
  };
}

