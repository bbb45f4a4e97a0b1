import { createFileRoute } from '@tanstack/react-router';
import { safeRedirect, validateSignInSearch } from '@/features/auth/redirect';
import { SignInScreen } from '@/features/auth/SignInScreen';
import { loadMessages } from '@/i18n/i18n';

export const Route = createFileRoute('/_guest/sign-in')({
  validateSearch: validateSignInSearch,
  loader: () => loadMessages('auth'),
  component: SignInRoute,
});

function SignInRoute() {
  // Checked again here: the router merges the raw query of the parent routes into this one's.
  const redirect = safeRedirect(Route.useSearch().redirect);
  return <SignInScreen redirectTo={redirect} />;
}
