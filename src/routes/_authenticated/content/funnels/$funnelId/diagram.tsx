import { createFileRoute } from '@tanstack/react-router';
import { DiagramScreen } from '@/features/funnels/diagram/DiagramScreen';
import { idFrom, loadFunnelsScreen } from '@/routes/-lib/load';

export const Route = createFileRoute('/_authenticated/content/funnels/$funnelId/diagram')({
  loader: ({ params }) => {
    const funnelId = idFrom(params.funnelId);
    return loadFunnelsScreen(async (api) => {
      const [funnel, stages, keywords] = await Promise.all([api.getFunnel(funnelId), api.listStages(funnelId), api.listKeywords(funnelId)]);
      return { funnel, stages, keywords };
    });
  },
  component: DiagramRoute,
});

function DiagramRoute() {
  const { funnel, stages, keywords } = Route.useLoaderData();
  return <DiagramScreen key={funnel.id} funnel={funnel} stages={stages} keywords={keywords} />;
}
