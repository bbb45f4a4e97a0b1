import { createFileRoute } from '@tanstack/react-router';
import { MessageEditorScreen } from '@/features/funnels/MessageEditorScreen';
import { idFrom, loadFunnelsScreen } from '@/routes/-lib/load';

export const Route = createFileRoute('/_authenticated/content/funnels/$funnelId/stages/$stageId/message')({
  loader: ({ params }) => {
    const funnelId = idFrom(params.funnelId);
    const stageId = idFrom(params.stageId);
    return loadFunnelsScreen(async (api) => {
      const [stage, funnel, stages] = await Promise.all([api.getStage(stageId), api.getFunnel(funnelId), api.listStages(funnelId)]);
      return { stage, funnel, stages };
    });
  },
  component: MessageRoute,
});

function MessageRoute() {
  const { stage, funnel, stages } = Route.useLoaderData();
  return <MessageEditorScreen key={stage.id} stage={stage} funnel={funnel} stages={stages} />;
}
