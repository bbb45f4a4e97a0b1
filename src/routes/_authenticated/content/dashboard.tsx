import { createFileRoute } from '@tanstack/react-router';
import { DashboardScreen } from '@/features/funnels/DashboardScreen';
import { loadMessages } from '@/i18n/i18n';

export const Route = createFileRoute('/_authenticated/content/dashboard')({
  loader: () => loadMessages('panel', 'funnels'),
  component: DashboardScreen,
});
