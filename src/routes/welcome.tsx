// The first open from Telegram of an identity no account knows (the login guard sends it here):
// "I already have an account" or "Start here". Anyone else has nothing to choose here.
import { createFileRoute, redirect } from '@tanstack/react-router';
import { ROUTES } from '../../contract/routes';
import { safeRedirect, validateSignInSearch } from '@/features/auth/redirect';
import { TelegramWelcomeScreen } from '@/features/auth/TelegramWelcomeScreen';
import { loadMessages } from '@/i18n/i18n';

export const Route = createFileRoute('/welcome')({
  validateSearch: validateSignInSearch,
  beforeLoad: async ({ context: { auth } }) => {
    if (!auth.isActive()) throw redirect({ to: ROUTES.signIn });
    if (auth.user() || (!auth.telegramIsNew() && (await auth.loadUser()))) throw redirect({ to: ROUTES.panel });
    if (!auth.telegramIsNew()) throw redirect({ to: ROUTES.signIn });
  },
  loader: () => loadMessages('auth'),
  component: WelcomeRoute,
});

function WelcomeRoute() {
  return <TelegramWelcomeScreen redirectTo={safeRedirect(Route.useSearch().redirect)} />;
}
