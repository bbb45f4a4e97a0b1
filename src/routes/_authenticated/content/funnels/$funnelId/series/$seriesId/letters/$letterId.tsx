import { createFileRoute, notFound } from '@tanstack/react-router';
import { LetterScreen } from '@/features/letters/LetterScreen';
import { idFrom, loadFunnelsScreen } from '@/routes/-lib/load';

export const Route = createFileRoute('/_authenticated/content/funnels/$funnelId/series/$seriesId/letters/$letterId')({
  loader: ({ params }) => {
    const funnelId = idFrom(params.funnelId);
    const seriesId = idFrom(params.seriesId);
    const letterId = idFrom(params.letterId);
    return loadFunnelsScreen(async (api) => {
      const lettersApi = await import('@/api/letters');
      const [funnel, series, letter, history] = await Promise.all([
        api.getFunnel(funnelId),
        lettersApi.getSeries(seriesId),
        lettersApi.getLetter(letterId),
        lettersApi.letterHistory(letterId),
      ]);
      if (series.funnel_id !== funnel.id || letter.series_id !== series.id) throw notFound();
      return { funnel, series, letter, history };
    });
  },
  component: LetterRoute,
});

function LetterRoute() {
  const { funnel, series, letter, history } = Route.useLoaderData();
  return <LetterScreen key={letter.id} funnel={funnel} series={series} letter={letter} history={history} />;
}
