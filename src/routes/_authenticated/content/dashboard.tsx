import { createFileRoute } from '@tanstack/react-router';
import { DashboardScreen } from '@/features/funnels/DashboardScreen';
import { loadMessages } from '@/i18n/i18n';
import { loadFunnelsScreen } from '@/routes/-lib/load';

export const Route = createFileRoute('/_authenticated/content/dashboard')({
  loader: async () => {
    const [funnels] = await Promise.all([loadFunnelsScreen((api) => api.getDashboard()), loadMessages('panel')]);
    return funnels;
  },
  component: DashboardRoute,
});

function DashboardRoute() {
  return <DashboardScreen funnels={Route.useLoaderData()} />;
}
