import { createFileRoute } from '@tanstack/react-router';
import { SignInScreen } from '@/features/auth/SignInScreen';
import { loadMessages } from '@/i18n/i18n';

export const Route = createFileRoute('/_guest/sign-in')({
  loader: () => loadMessages('auth'),
  component: SignInScreen,
});
