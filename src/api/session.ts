// The signed-in session as the app uses it: state/session.ts's rules wired to the real calls.
// The calls (ky, the users API) and what a failure means are fetched on first use, so a guest's
// first paint has none of them (main.tsx says when they are preloaded).
import { createAuthSession, type AuthSession } from '@/state/session';
import { appStore, type AppStore } from '@/state/store';

export function createAppSession(store: AppStore = appStore): AuthSession {
  return createAuthSession(store, {
    fetchMe: async () => (await import('./users')).fetchMe(),
    logout: async () => (await import('./users')).logout(),
    reportFailure: async (error) => {
      const { failureOf, notifyFailure } = await import('./action');
      notifyFailure(await failureOf(error), store);
    },
  });
}

export const authSession: AuthSession = createAppSession();
