import { createFileRoute } from '@tanstack/react-router';
import { DashboardScreen } from '@/features/funnels/DashboardScreen';
import { loadMessages } from '@/i18n/i18n';
import { loadFunnelsScreen } from '@/routes/-lib/load';
import { validatePeriodSearch } from '@/routes/-lib/search';

export const Route = createFileRoute('/_authenticated/content/dashboard')({
  validateSearch: validatePeriodSearch,
  loaderDeps: ({ search }) => ({ period: search.period ?? 'all' }),
  loader: async ({ deps }) => {
    const [funnels] = await Promise.all([loadFunnelsScreen((api) => api.getDashboard(deps.period)), loadMessages('panel')]);
    return { funnels, period: deps.period };
  },
  component: DashboardRoute,
});

function DashboardRoute() {
  const { funnels, period } = Route.useLoaderData();
  const navigate = Route.useNavigate();
  return <DashboardScreen funnels={funnels} period={period} onPeriod={(next) => void navigate({ search: { period: next === 'all' ? undefined : next }, replace: true })} />;
}
