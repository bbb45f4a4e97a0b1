import { createFileRoute } from '@tanstack/react-router';
import { StageFormScreen } from '@/features/funnels/StageFormScreen';
import { idFrom, loadFunnelsScreen } from '@/routes/-lib/load';

export const Route = createFileRoute('/_authenticated/content/funnels/$funnelId/stages/$stageId/edit')({
  loader: ({ params }) => {
    const funnelId = idFrom(params.funnelId);
    const stageId = idFrom(params.stageId);
    return loadFunnelsScreen(async (api) => {
      const [stage, tags] = await Promise.all([api.getStage(stageId), api.listTags(funnelId)]);
      return { funnelId, stage, tags };
    });
  },
  component: EditStageRoute,
});

function EditStageRoute() {
  const { funnelId, stage, tags } = Route.useLoaderData();
  return <StageFormScreen key={stage.id} funnelId={funnelId} stage={stage} tags={tags} />;
}
