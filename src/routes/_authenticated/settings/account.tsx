import { createFileRoute } from '@tanstack/react-router';
import { AccountScreen } from '@/features/settings/AccountScreen';
import { loadMessages } from '@/i18n/i18n';

export const Route = createFileRoute('/_authenticated/settings/account')({
  loader: () => Promise.all([loadMessages('settings'), loadMessages('auth')]),
  component: AccountScreen,
});
