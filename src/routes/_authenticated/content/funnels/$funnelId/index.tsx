import { createFileRoute } from '@tanstack/react-router';
import { FunnelScreen } from '@/features/funnels/FunnelScreen';
import { idParam } from '@/features/funnels/parts';
import { loadMessages } from '@/i18n/i18n';

export const Route = createFileRoute('/_authenticated/content/funnels/$funnelId/')({
  loader: () => loadMessages('funnels'),
  component: FunnelRoute,
});

function FunnelRoute() {
  const { funnelId } = Route.useParams();
  return <FunnelScreen key={funnelId} funnelId={idParam(funnelId)} />;
}
