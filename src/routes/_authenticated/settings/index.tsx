import { createFileRoute } from '@tanstack/react-router';
import { SettingsScreen } from '@/features/settings/SettingsScreen';
import { loadMessages } from '@/i18n/i18n';

export const Route = createFileRoute('/_authenticated/settings/')({
  loader: () => loadMessages('settings'),
  component: SettingsScreen,
});
