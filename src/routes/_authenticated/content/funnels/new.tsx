import { createFileRoute } from '@tanstack/react-router';
import { ConnectBotScreen } from '@/features/funnels/ConnectBotScreen';
import { loadMessages } from '@/i18n/i18n';

export const Route = createFileRoute('/_authenticated/content/funnels/new')({
  loader: () => loadMessages('funnels'),
  component: ConnectBotScreen,
});
