import { createFileRoute } from '@tanstack/react-router';
import { LostPassScreen } from '@/features/auth/LostPassScreen';
import { loadMessages } from '@/i18n/i18n';

export const Route = createFileRoute('/_guest/lost-pass')({
  loader: () => loadMessages('auth', 'account'),
  component: LostPassScreen,
});
