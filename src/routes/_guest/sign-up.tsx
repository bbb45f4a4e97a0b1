import { createFileRoute } from '@tanstack/react-router';
import { SignUpScreen } from '@/features/auth/SignUpScreen';
import { safeRedirect, validateSignInSearch } from '@/features/auth/redirect';
import { loadMessages } from '@/i18n/i18n';

export const Route = createFileRoute('/_guest/sign-up')({
  validateSearch: validateSignInSearch,
  loader: () => loadMessages('auth', 'account'),
  component: SignUpRoute,
});

function SignUpRoute() {
  return <SignUpScreen returnTo={safeRedirect(Route.useSearch().redirect)} />;
}
