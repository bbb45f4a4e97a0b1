// The router: file routes (src/routes, generated tree), typed auth context, trailing slashes on
// every path (spec §2), scroll restoration and scroll to top on navigation, real pending and
// error screens. No hash routing: Telegram puts its launch data in the hash.
import { createRouter, type RouterHistory } from '@tanstack/react-router';
import { lazy } from 'react';
import { routeTree } from './routeTree.gen';
import type { RouterContext } from './routerContext';
import { PendingScreen } from './routes/-components/PendingScreen';

// Rarely needed, so fetched only when shown. React's lazy, not the router's lazyRouteComponent: the
// router preloads a route's own component before rendering it, but never these defaults, and
// lazyRouteComponent then suspends with use() in one render and not in the next, which React
// reports as an error in the console.
const ErrorScreen = lazy(() => import('./routes/-components/ErrorScreen').then((module) => ({ default: module.ErrorScreen })));
const NotFoundScreen = lazy(() => import('./routes/-components/NotFoundScreen').then((module) => ({ default: module.NotFoundScreen })));

export function createAppRouter(context: RouterContext, history?: RouterHistory) {
  return createRouter({
    routeTree,
    context,
    history,
    trailingSlash: 'always',
    scrollRestoration: true,
    defaultPreload: 'intent',
    // A preload warms the code and the data, but a screen opened shows what is there now (a
    // change made meanwhile, e.g. a saved stage, is never hidden behind a 30 s old preload).
    defaultPreloadStaleTime: 0,
    // A screen left is not kept: coming back loads it anew instead of first showing what it had.
    defaultGcTime: 0,
    defaultPendingComponent: PendingScreen,
    defaultErrorComponent: ErrorScreen,
    defaultNotFoundComponent: NotFoundScreen,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
