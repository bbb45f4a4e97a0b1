import { createFileRoute } from '@tanstack/react-router';
import { StageFormScreen } from '@/features/funnels/StageFormScreen';
import { idFrom, loadFunnelsScreen } from '@/routes/-lib/load';

export const Route = createFileRoute('/_authenticated/content/funnels/$funnelId/stages/new')({
  loader: ({ params }) => {
    const funnelId = idFrom(params.funnelId);
    return loadFunnelsScreen(async (api) => ({ funnelId, tags: await api.listTags(funnelId) }));
  },
  component: NewStageRoute,
});

function NewStageRoute() {
  const { funnelId, tags } = Route.useLoaderData();
  return <StageFormScreen key={funnelId} funnelId={funnelId} stage={null} tags={tags} />;
}
