// Where sign-in returns a visitor: the page the guard sent them from, carried in the sign-in
// address as ?redirect=/content/funnels/ (TanStack Router's authenticated-routes example). Only a
// path on this site is taken: anything else (another origin, `//host`, `/\host`, a scheme) is
// dropped, so a crafted link cannot send someone elsewhere after they sign in.
import { ROUTES } from '../../../contract/routes';

export const REDIRECT_PARAM = 'redirect';

/** Starts with one slash (not `//` or `/\`, which browsers read as another host). */
const ONE_SLASH = /^\/(?![/\\])/;
/** Backslashes, whitespace and control characters: browsers drop or rewrite them, so never let one through. */
const UNSAFE = /[\\\s\p{Cc}]/u;

/** The redirect target if it is a path of this site (and not a guest page), else undefined. */
export function safeRedirect(value: unknown): string | undefined {
  if (typeof value !== 'string' || !ONE_SLASH.test(value) || UNSAFE.test(value)) return undefined;
  // Back to a guest page would only bounce: those are where a signed-in visitor may not be.
  if ([ROUTES.signIn, ROUTES.signUp, ROUTES.lostPass, ROUTES.telegramWelcome].some((guestPage) => value.startsWith(guestPage.slice(0, -1)))) return undefined;
  return value;
}

export interface SignInSearch {
  redirect?: string;
}

/** The sign-in route's validateSearch: keeps a safe redirect, drops everything else. */
export function validateSignInSearch(search: Record<string, unknown>): SignInSearch {
  const redirect = safeRedirect(search[REDIRECT_PARAM]);
  return redirect ? { redirect } : {};
}

/**
 * Signing up goes through an e-mail (the activation link, maybe in another tab or browser window):
 * the page a new visitor came for (a template's link) is kept here, and the first sign-in after it
 * returns there.
 */
const RETURN_KEY = 'funnels.returnAfterSignIn';

export function rememberReturn(path: string | undefined): void {
  const safe = safeRedirect(path);
  if (!safe) return;
  try {
    localStorage.setItem(RETURN_KEY, safe);
  } catch {
    // No storage (a private window): the visitor lands on the panel instead.
  }
}

/** The kept page, once (it is forgotten as it is taken). */
export function takeRememberedReturn(): string | undefined {
  try {
    const value = localStorage.getItem(RETURN_KEY);
    localStorage.removeItem(RETURN_KEY);
    return safeRedirect(value);
  } catch {
    return undefined;
  }
}
