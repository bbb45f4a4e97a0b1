// The signed-in session as the app uses it: state/session.ts's rules wired to the real calls.
// The calls (ky, the users API) and what a failure means are fetched on first use, so a guest's
// first paint has none of them (main.tsx says when they are preloaded).
import { API } from '../../contract/auth';
import { createAuthSession, type AuthSession } from '@/state/session';
import { appStore, type AppStore } from '@/state/store';

export function createAppSession(store: AppStore = appStore): AuthSession {
  return createAuthSession(store, {
    // Taken from the request main.tsx started at boot, when there is one (landingData.ts).
    fetchMe: async () => {
      const [{ fetchMe }, { landingData }] = await Promise.all([import('./users'), import('./landingData')]);
      return landingData(API.me, fetchMe);
    },
    logout: async () => (await import('./users')).logout(),
    reportFailure: async (error) => {
      const { failureOf, notifyFailure } = await import('./action');
      notifyFailure(await failureOf(error), store);
    },
  });
}

export const authSession: AuthSession = createAppSession();
