import { createFileRoute, notFound } from '@tanstack/react-router';
import { SeriesScreen } from '@/features/letters/SeriesScreen';
import { idFrom, loadFunnelsScreen } from '@/routes/-lib/load';

export const Route = createFileRoute('/_authenticated/content/funnels/$funnelId/series/$seriesId/')({
  loader: ({ params }) => {
    const funnelId = idFrom(params.funnelId);
    const seriesId = idFrom(params.seriesId);
    return loadFunnelsScreen(async (api) => {
      const lettersApi = await import('@/api/letters');
      const [funnel, series, stages, tags] = await Promise.all([api.getFunnel(funnelId), lettersApi.getSeries(seriesId), api.listStages(funnelId), api.listTags(funnelId)]);
      if (series.funnel_id !== funnel.id) throw notFound();
      return { funnel, series, stages, tags };
    });
  },
  component: SeriesRoute,
});

function SeriesRoute() {
  const { funnel, series, stages, tags } = Route.useLoaderData();
  return <SeriesScreen key={series.id} funnel={funnel} series={series} stages={stages} tags={tags} />;
}
