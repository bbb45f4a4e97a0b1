import { createFileRoute } from '@tanstack/react-router';
import { TagsScreen } from '@/features/funnels/TagsScreen';
import { idFrom, loadFunnelsScreen } from '@/routes/-lib/load';

export const Route = createFileRoute('/_authenticated/content/funnels/$funnelId/tags')({
  loader: ({ params }) => {
    const funnelId = idFrom(params.funnelId);
    return loadFunnelsScreen(async (api) => ({ funnelId, tags: await api.listTags(funnelId) }));
  },
  component: TagsScreenRoute,
});

function TagsScreenRoute() {
  const { funnelId, tags } = Route.useLoaderData();
  return <TagsScreen key={funnelId} funnelId={funnelId} tags={tags} />;
}
