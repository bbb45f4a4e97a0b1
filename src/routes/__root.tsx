import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import type { RouterContext } from '@/routerContext';
import { TelegramRoot } from '@/telegram/shell';
import { DocumentHead, GlobalPreloader, GlobalTopNotice } from './-components/AppChrome';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
});

function RootLayout() {
  return (
    <>
      <DocumentHead />
      <TelegramRoot />
      <Outlet />
      <GlobalTopNotice />
      <GlobalPreloader />
    </>
  );
}
