import { createFileRoute } from '@tanstack/react-router';
import { StageScreen } from '@/features/funnels/StageScreen';
import { idParam } from '@/features/funnels/parts';
import { loadMessages } from '@/i18n/i18n';

export const Route = createFileRoute('/_authenticated/content/funnels/$funnelId/stages/$stageId/')({
  loader: () => loadMessages('funnels'),
  component: StageRoute,
});

function StageRoute() {
  const { funnelId, stageId } = Route.useParams();
  return <StageScreen key={stageId} funnelId={idParam(funnelId)} stageId={idParam(stageId)} />;
}
