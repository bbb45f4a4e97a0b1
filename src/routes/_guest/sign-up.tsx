import { createFileRoute } from '@tanstack/react-router';
import { SignUpScreen } from '@/features/auth/SignUpScreen';
import { loadMessages } from '@/i18n/i18n';

export const Route = createFileRoute('/_guest/sign-up')({
  loader: () => loadMessages('auth', 'account'),
  component: SignUpScreen,
});
