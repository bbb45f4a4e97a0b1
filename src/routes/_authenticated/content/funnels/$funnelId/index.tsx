import { createFileRoute } from '@tanstack/react-router';
import { FunnelScreen } from '@/features/funnels/FunnelScreen';
import { idFrom, loadFunnelsScreen } from '@/routes/-lib/load';
import { validatePeriodSearch } from '@/routes/-lib/search';

export const Route = createFileRoute('/_authenticated/content/funnels/$funnelId/')({
  validateSearch: validatePeriodSearch,
  loaderDeps: ({ search }) => ({ period: search.period ?? 'all' }),
  loader: ({ params, deps }) => {
    const id = idFrom(params.funnelId);
    return loadFunnelsScreen(async (api) => {
      const [funnel, stages, stats] = await Promise.all([api.getFunnel(id), api.listStages(id), api.getStats(id, deps.period)]);
      return { funnel, stages, stats };
    });
  },
  component: FunnelRoute,
});

function FunnelRoute() {
  const { funnel, stages, stats } = Route.useLoaderData();
  const navigate = Route.useNavigate();
  return (
    <FunnelScreen
      key={funnel.id}
      funnel={funnel}
      stages={stages}
      stats={stats}
      onPeriod={(period) => void navigate({ search: { period: period === 'all' ? undefined : period }, replace: true })}
    />
  );
}
