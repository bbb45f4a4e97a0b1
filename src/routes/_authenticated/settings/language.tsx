import { createFileRoute } from '@tanstack/react-router';
import { LanguageScreen } from '@/features/settings/LanguageScreen';
import { loadMessages } from '@/i18n/i18n';

export const Route = createFileRoute('/_authenticated/settings/language')({
  loader: () => loadMessages('settings'),
  component: LanguageScreen,
});
