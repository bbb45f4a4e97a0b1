import { createFileRoute } from '@tanstack/react-router';
import { SeriesListScreen } from '@/features/letters/SeriesListScreen';
import { idFrom, loadFunnelsScreen } from '@/routes/-lib/load';

export const Route = createFileRoute('/_authenticated/content/funnels/$funnelId/series/')({
  loader: ({ params }) => {
    const id = idFrom(params.funnelId);
    return loadFunnelsScreen(async (api) => {
      const lettersApi = await import('@/api/letters');
      const [funnel, series] = await Promise.all([api.getFunnel(id), lettersApi.listSeries(id)]);
      return { funnel, series };
    });
  },
  component: SeriesListRoute,
});

function SeriesListRoute() {
  const { funnel, series } = Route.useLoaderData();
  return <SeriesListScreen key={funnel.id} funnel={funnel} series={series} />;
}
