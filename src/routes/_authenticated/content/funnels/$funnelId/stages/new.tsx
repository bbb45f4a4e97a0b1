import { createFileRoute } from '@tanstack/react-router';
import { StageFormScreen } from '@/features/funnels/StageFormScreen';
import { idParam } from '@/features/funnels/parts';
import { loadMessages } from '@/i18n/i18n';

export const Route = createFileRoute('/_authenticated/content/funnels/$funnelId/stages/new')({
  loader: () => loadMessages('funnels'),
  component: NewStageRoute,
});

function NewStageRoute() {
  const { funnelId } = Route.useParams();
  return <StageFormScreen key={funnelId} funnelId={idParam(funnelId)} />;
}
