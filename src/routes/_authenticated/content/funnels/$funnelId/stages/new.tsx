import { createFileRoute } from '@tanstack/react-router';
import { StageFormScreen } from '@/features/funnels/StageFormScreen';
import { idFrom, loadFunnelsScreen } from '@/routes/-lib/load';

export const Route = createFileRoute('/_authenticated/content/funnels/$funnelId/stages/new')({
  loader: ({ params }) => {
    const funnelId = idFrom(params.funnelId);
    return loadFunnelsScreen(async (api) => {
      const [tags, funnel, stages] = await Promise.all([api.listTags(funnelId), api.getFunnel(funnelId), api.listStages(funnelId)]);
      return { funnelId, tags, place: { funnel, stages } };
    });
  },
  component: NewStageRoute,
});

function NewStageRoute() {
  const { funnelId, tags, place } = Route.useLoaderData();
  return <StageFormScreen key={funnelId} funnelId={funnelId} stage={null} tags={tags} place={place} />;
}
