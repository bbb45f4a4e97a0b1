import { createFileRoute } from '@tanstack/react-router';
import { validateSignInSearch } from '@/features/auth/redirect';
import { SignInScreen } from '@/features/auth/SignInScreen';
import { loadMessages } from '@/i18n/i18n';

export const Route = createFileRoute('/_guest/sign-in')({
  validateSearch: validateSignInSearch,
  loader: () => loadMessages('auth'),
  component: SignInRoute,
});

function SignInRoute() {
  const { redirect } = Route.useSearch();
  return <SignInScreen redirectTo={redirect} />;
}
