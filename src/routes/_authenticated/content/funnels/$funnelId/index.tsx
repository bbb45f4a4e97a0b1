import { createFileRoute } from '@tanstack/react-router';
import { FunnelScreen } from '@/features/funnels/FunnelScreen';
import { idFrom, loadFunnelsScreen } from '@/routes/-lib/load';

export const Route = createFileRoute('/_authenticated/content/funnels/$funnelId/')({
  loader: ({ params }) => {
    const id = idFrom(params.funnelId);
    return loadFunnelsScreen(async (api) => {
      const [funnel, stages] = await Promise.all([api.getFunnel(id), api.listStages(id)]);
      return { funnel, stages };
    });
  },
  component: FunnelRoute,
});

function FunnelRoute() {
  const { funnel, stages } = Route.useLoaderData();
  return <FunnelScreen key={funnel.id} funnel={funnel} stages={stages} />;
}
