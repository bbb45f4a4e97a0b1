import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import type { RouterContext } from '@/routerContext';
import { inTelegram } from '@/telegram/launch';
import { DocumentHead, GlobalPreloader, GlobalSubscriptionAlert, GlobalTopNotice } from './-components/AppChrome';

// Inside Telegram only (the back button, `ready`): a plain browser never fetches any of it.
const TelegramRoot = lazy(() => import('@/telegram/shell').then(({ TelegramRoot }) => ({ default: TelegramRoot })));

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
});

function RootLayout() {
  return (
    <>
      <DocumentHead />
      {inTelegram() ? (
        <Suspense fallback={null}>
          <TelegramRoot />
        </Suspense>
      ) : null}
      <Outlet />
      <GlobalTopNotice />
      <GlobalSubscriptionAlert />
      <GlobalPreloader />
    </>
  );
}
