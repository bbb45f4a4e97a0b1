import { createFileRoute } from '@tanstack/react-router';
import { DescriptionScreen } from '@/features/funnels/DescriptionScreen';
import { idParam } from '@/features/funnels/parts';
import { loadMessages } from '@/i18n/i18n';

export const Route = createFileRoute('/_authenticated/content/funnels/$funnelId/description')({
  loader: () => loadMessages('funnels'),
  component: DescriptionScreenRoute,
});

function DescriptionScreenRoute() {
  const { funnelId } = Route.useParams();
  return <DescriptionScreen key={funnelId} funnelId={idParam(funnelId)} />;
}
