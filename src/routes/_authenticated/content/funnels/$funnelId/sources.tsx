import { createFileRoute } from '@tanstack/react-router';
import { SourcesScreen } from '@/features/funnels/SourcesScreen';
import { idFrom, loadFunnelsScreen } from '@/routes/-lib/load';
import { validatePeriodSearch } from '@/routes/-lib/search';

export const Route = createFileRoute('/_authenticated/content/funnels/$funnelId/sources')({
  validateSearch: validatePeriodSearch,
  loaderDeps: ({ search }) => ({ period: search.period ?? 'all' }),
  loader: ({ params, deps }) => {
    const funnelId = idFrom(params.funnelId);
    return loadFunnelsScreen(async (api) => {
      const [funnel, sources, stages, stats] = await Promise.all([
        api.getFunnel(funnelId),
        api.listSources(funnelId),
        api.listStages(funnelId),
        api.getSourceStats(funnelId, deps.period),
      ]);
      return { funnel, sources, stages, stats };
    });
  },
  component: SourcesRoute,
});

function SourcesRoute() {
  const { funnel, sources, stages, stats } = Route.useLoaderData();
  const navigate = Route.useNavigate();
  return (
    <SourcesScreen
      key={funnel.id}
      funnel={funnel}
      sources={sources}
      stages={stages}
      stats={stats}
      onPeriod={(period) => void navigate({ search: { period: period === 'all' ? undefined : period }, replace: true })}
    />
  );
}
