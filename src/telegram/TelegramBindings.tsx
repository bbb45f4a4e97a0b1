// Rendered in the root route only inside Telegram (this module loads with the SDK):
// - the one place that keeps Telegram's back button in step with the router: hidden on the root
//   screens, shown elsewhere; pressing it goes back (or to the panel when there is no back);
// - `ready` once the first screen has rendered.
import { useRouter, useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import { ROUTES } from '../../contract/routes';
import type { TelegramShell } from './types';

const ROOT_SCREENS: ReadonlySet<string> = new Set([ROUTES.root, ROUTES.panel, ROUTES.signIn, ROUTES.signUp, ROUTES.lostPass]);

export function isRootScreen(pathname: string): boolean {
  const withSlash = pathname.endsWith('/') ? pathname : `${pathname}/`;
  return ROOT_SCREENS.has(withSlash);
}

export function TelegramBindings({ shell }: { shell: TelegramShell }) {
  const router = useRouter();
  const pathname = useRouterState({ select: (state) => state.location.pathname });

  useEffect(() => {
    shell.ready();
  }, [shell]);

  useEffect(
    () =>
      shell.onBackButton(() => {
        if (router.history.canGoBack()) router.history.back();
        else void router.navigate({ to: ROUTES.panel });
      }),
    [shell, router],
  );

  useEffect(() => {
    shell.setBackButtonVisible(!isRootScreen(pathname));
  }, [shell, pathname]);

  return null;
}
