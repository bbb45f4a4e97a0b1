import { createFileRoute, notFound } from '@tanstack/react-router';
import { LetterScreen } from '@/features/letters/LetterScreen';
import { idFrom, loadFunnelsScreen } from '@/routes/-lib/load';

export const Route = createFileRoute('/_authenticated/content/funnels/$funnelId/series/$seriesId/letters/new')({
  loader: ({ params }) => {
    const funnelId = idFrom(params.funnelId);
    const seriesId = idFrom(params.seriesId);
    return loadFunnelsScreen(async (api) => {
      const lettersApi = await import('@/api/letters');
      const [funnel, series] = await Promise.all([api.getFunnel(funnelId), lettersApi.getSeries(seriesId)]);
      if (series.funnel_id !== funnel.id) throw notFound();
      return { funnel, series };
    });
  },
  component: NewLetterRoute,
});

function NewLetterRoute() {
  const { funnel, series } = Route.useLoaderData();
  return <LetterScreen key="new" funnel={funnel} series={series} letter={null} history={null} />;
}
