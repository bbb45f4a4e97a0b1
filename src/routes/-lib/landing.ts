// Started by main.tsx at boot when the visitor has a session (a token or Telegram init data): the
// current user and the landing screen's data are asked for at once, alongside the screen's code
// (preloaded from the HTML) and its messages, so that the guard and the loader find them on the
// way instead of asking one after the other.
import { API } from '../../../contract/auth';
import type { Language } from '../../../contract/constants';
import { authorizationHeader } from '@/api/authHeader';
import { startLandingRequests } from '@/api/landingData';
import { timeZone } from '@/api/timeZone';
import { initDataAtom, tokenAtom } from '@/state/auth';
import { appStore } from '@/state/store';
import { startPathFrom } from '@/telegram/startPath';
import { LANDING_SCREENS } from './landingScreens';

// The same chunks as i18n.ts's (one per language and namespace), fetched here ahead of i18next's
// start: the entry, which every first paint carries, stays without this code.
const messages: Record<string, Record<string, () => Promise<unknown>>> = {
  panel: import.meta.glob('../../../locales/*.json', { query: '?ns=panel', import: 'default' }),
  funnels: import.meta.glob('../../../locales/*.json', { query: '?ns=funnels', import: 'default' }),
};

function prefetchMessages(language: Language, namespaces: readonly string[]): void {
  for (const namespace of namespaces) void messages[namespace]?.[`../../../locales/${language}.json`]?.().catch(() => {});
}

/** `launchHash`: the address's hash at boot (a startapp launch lands elsewhere: see startPath.ts). */
export function startLanding(language: Language, launchHash: string): void {
  const authorization = authorizationHeader({ token: appStore.get(tokenAtom), initData: appStore.get(initDataAtom) });
  if (!authorization) return;
  const requests: string[] = [API.me];
  const opensStartPath = startPathFrom(launchHash) !== null;
  for (const screen of opensStartPath ? [] : LANDING_SCREENS) {
    const match = screen.path.exec(window.location.pathname);
    if (!match) continue;
    requests.push(...screen.requests(match, new URLSearchParams(window.location.search), timeZone()));
    prefetchMessages(language, screen.messages);
    break;
  }
  startLandingRequests(requests, authorization);
}
