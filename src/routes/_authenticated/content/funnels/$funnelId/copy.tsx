import { createFileRoute } from '@tanstack/react-router';
import { CopyScreen } from '@/features/funnels/CopyScreen';
import { idParam } from '@/features/funnels/parts';
import { loadMessages } from '@/i18n/i18n';

export const Route = createFileRoute('/_authenticated/content/funnels/$funnelId/copy')({
  loader: () => loadMessages('funnels'),
  component: CopyScreenRoute,
});

function CopyScreenRoute() {
  const { funnelId } = Route.useParams();
  return <CopyScreen key={funnelId} funnelId={idParam(funnelId)} />;
}
