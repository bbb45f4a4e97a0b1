import { createFileRoute } from '@tanstack/react-router';
import { FunnelsScreen } from '@/features/funnels/FunnelsScreen';
import { loadMessages } from '@/i18n/i18n';

export const Route = createFileRoute('/_authenticated/content/funnels/')({
  loader: () => loadMessages('funnels'),
  component: FunnelsScreen,
});
