import { createFileRoute } from '@tanstack/react-router';
import { DescriptionScreen, type LoadedDescription } from '@/features/funnels/DescriptionScreen';
import { idFrom, loadFunnelsScreen } from '@/routes/-lib/load';

export const Route = createFileRoute('/_authenticated/content/funnels/$funnelId/description')({
  loader: ({ params }) => {
    const funnelId = idFrom(params.funnelId);
    return loadFunnelsScreen(async (api): Promise<LoadedDescription & { funnelId: number }> => {
      try {
        return { funnelId, value: await api.getDescription(funnelId), failure: null };
      } catch (error) {
        // Telegram's trouble is the form's to show; someone else's funnel (404) is not found.
        const failure = await (await import('@/api/errors')).toApiFailure(error);
        if (failure.kind === 'http' && failure.status === 404) throw error;
        return { funnelId, value: null, failure };
      }
    });
  },
  component: DescriptionRoute,
});

function DescriptionRoute() {
  const { funnelId, ...loaded } = Route.useLoaderData();
  return <DescriptionScreen key={funnelId} funnelId={funnelId} loaded={loaded} />;
}
