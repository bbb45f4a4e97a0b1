// The guard chain of spec §4, run by the pathless layout routes in their beforeLoad.
import { redirect } from '@tanstack/react-router';
import { ROUTES } from '../../../contract/routes';
import type { AuthSession } from '@/state/session';
import { REDIRECT_PARAM, safeRedirect } from './redirect';

/**
 * Login required: no active session → /sign-in/. A session without a loaded user fetches it;
 * a user with an id continues, anything else has already cleared the token → /sign-in/. Sign-in
 * is told where the visitor was going (`wanted`: path, query and hash), to return them there.
 */
export async function requireUser(auth: AuthSession, wanted?: string): Promise<void> {
  const toSignIn = () => {
    const back = safeRedirect(wanted);
    return redirect({ to: ROUTES.signIn, search: back ? { [REDIRECT_PARAM]: back } : {} });
  };
  if (!auth.isActive()) throw toSignIn();
  if (auth.user()) return;
  const user = await auth.loadUser();
  if (user) return;
  // A first open from Telegram: the person chooses an account first, then comes back here.
  if (auth.telegramIsNew()) {
    const back = safeRedirect(wanted);
    throw redirect({ to: ROUTES.telegramWelcome, search: back ? { [REDIRECT_PARAM]: back } : {} });
  }
  throw toSignIn();
}

/** Guests only: a signed-in (active) visitor goes where sign-in would have sent them, else to '/'. */
export function requireGuest(auth: AuthSession, search: { redirect?: unknown } = {}): void {
  if (!auth.isActive()) return;
  const back = safeRedirect(search.redirect);
  // A built href of this site is navigated to inside the app (the router's types want `to`).
  throw back ? redirect({ href: back } as never) : redirect({ to: ROUTES.root });
}
