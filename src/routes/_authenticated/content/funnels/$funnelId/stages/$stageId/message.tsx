import { createFileRoute } from '@tanstack/react-router';
import { MessageEditorScreen } from '@/features/funnels/MessageEditorScreen';
import { idParam } from '@/features/funnels/parts';
import { loadMessages } from '@/i18n/i18n';

export const Route = createFileRoute('/_authenticated/content/funnels/$funnelId/stages/$stageId/message')({
  loader: () => loadMessages('funnels'),
  component: MessageRoute,
});

function MessageRoute() {
  const { funnelId, stageId } = Route.useParams();
  return <MessageEditorScreen key={stageId} funnelId={idParam(funnelId)} stageId={idParam(stageId)} />;
}
