import { createFileRoute } from '@tanstack/react-router';
import { ReplaceTokenScreen } from '@/features/funnels/ReplaceTokenScreen';
import { idFrom, loadFunnelsScreen } from '@/routes/-lib/load';

export const Route = createFileRoute('/_authenticated/content/funnels/$funnelId/token')({
  loader: ({ params }) => {
    const funnelId = idFrom(params.funnelId);
    return loadFunnelsScreen((api) => api.getFunnel(funnelId));
  },
  component: ReplaceTokenRoute,
});

function ReplaceTokenRoute() {
  const funnel = Route.useLoaderData();
  return <ReplaceTokenScreen key={funnel.id} funnel={funnel} />;
}
