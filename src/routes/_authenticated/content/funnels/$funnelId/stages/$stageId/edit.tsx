import { createFileRoute } from '@tanstack/react-router';
import { StageFormScreen } from '@/features/funnels/StageFormScreen';
import { idParam } from '@/features/funnels/parts';
import { loadMessages } from '@/i18n/i18n';

export const Route = createFileRoute('/_authenticated/content/funnels/$funnelId/stages/$stageId/edit')({
  loader: () => loadMessages('funnels'),
  component: EditStageRoute,
});

function EditStageRoute() {
  const { funnelId, stageId } = Route.useParams();
  return <StageFormScreen key={stageId} funnelId={idParam(funnelId)} stageId={idParam(stageId)} />;
}
