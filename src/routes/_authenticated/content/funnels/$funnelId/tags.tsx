import { createFileRoute } from '@tanstack/react-router';
import { TagsScreen } from '@/features/funnels/TagsScreen';
import { idParam } from '@/features/funnels/parts';
import { loadMessages } from '@/i18n/i18n';

export const Route = createFileRoute('/_authenticated/content/funnels/$funnelId/tags')({
  loader: () => loadMessages('funnels'),
  component: TagsScreenRoute,
});

function TagsScreenRoute() {
  const { funnelId } = Route.useParams();
  return <TagsScreen key={funnelId} funnelId={idParam(funnelId)} />;
}
