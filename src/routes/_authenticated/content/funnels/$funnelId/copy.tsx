import { createFileRoute } from '@tanstack/react-router';
import { CopyScreen } from '@/features/funnels/CopyScreen';
import { idFrom, loadFunnelsScreen } from '@/routes/-lib/load';

export const Route = createFileRoute('/_authenticated/content/funnels/$funnelId/copy')({
  loader: ({ params }) => {
    const id = idFrom(params.funnelId);
    return loadFunnelsScreen(async (api) => {
      const [source, funnels] = await Promise.all([api.getFunnel(id), api.listFunnels()]);
      return { source, funnels };
    });
  },
  component: CopyScreenRoute,
});

function CopyScreenRoute() {
  const { source, funnels } = Route.useLoaderData();
  return <CopyScreen key={source.id} source={source} funnels={funnels} />;
}
