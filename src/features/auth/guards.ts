// The guard chain of spec §4, run by the pathless layout routes in their beforeLoad.
import { redirect } from '@tanstack/react-router';
import { ROUTES } from '../../../contract/routes';
import type { AuthSession } from '@/state/session';

/**
 * Login required: no active session → /sign-in/. A session without a loaded user fetches it;
 * a user with an id continues, anything else has already cleared the token → /sign-in/.
 */
export async function requireUser(auth: AuthSession): Promise<void> {
  if (!auth.isActive()) throw redirect({ to: ROUTES.signIn });
  if (auth.user()) return;
  const user = await auth.loadUser();
  if (!user) throw redirect({ to: ROUTES.signIn });
}

/** Guests only: a signed-in (active) visitor goes to '/'. */
export function requireGuest(auth: AuthSession): void {
  if (auth.isActive()) throw redirect({ to: ROUTES.root });
}
