import { createFileRoute } from '@tanstack/react-router';
import { KeywordsScreen } from '@/features/funnels/KeywordsScreen';
import { idFrom, loadFunnelsScreen } from '@/routes/-lib/load';

export const Route = createFileRoute('/_authenticated/content/funnels/$funnelId/keywords')({
  loader: ({ params }) => {
    const funnelId = idFrom(params.funnelId);
    return loadFunnelsScreen(async (api) => {
      const [keywords, stages] = await Promise.all([api.listKeywords(funnelId), api.listStages(funnelId)]);
      return { funnelId, keywords, stages };
    });
  },
  component: KeywordsScreenRoute,
});

function KeywordsScreenRoute() {
  const { funnelId, keywords, stages } = Route.useLoaderData();
  return <KeywordsScreen key={funnelId} funnelId={funnelId} keywords={keywords} stages={stages} />;
}
