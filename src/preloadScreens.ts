// After the first paint, fetches the code of the screens a visitor is likely to open next, so that
// moving between them is instant (and the screen changes together with the address). Code only:
// their data is loaded when they are opened. Its own module, so the first paint does not carry it.
import { ROUTES } from '../contract/routes';
import type { AnyRoute } from '@tanstack/react-router';
import type { AppRouter } from './router';

export function preloadLikelyScreens(router: AppRouter, active: boolean): void {
  const next = active
    ? [ROUTES.panel, ROUTES.funnels, ROUTES.settings, ROUTES.language, ROUTES.dashboard]
    : [ROUTES.signIn, ROUTES.signUp, ROUTES.lostPass];
  const routes: Record<string, AnyRoute | undefined> = { ...router.routesByPath };
  for (const path of next) {
    const route = routes[path];
    if (!route) continue;
    router.loadRouteChunk(route)?.catch(() => {
      // Only a head start: the screen loads normally when opened.
    });
  }
}
