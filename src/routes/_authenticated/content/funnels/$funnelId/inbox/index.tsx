import { createFileRoute } from '@tanstack/react-router';
import { InboxScreen } from '@/features/funnels/InboxScreen';
import { idFrom, loadFunnelsScreen } from '@/routes/-lib/load';

export const Route = createFileRoute('/_authenticated/content/funnels/$funnelId/inbox/')({
  loader: ({ params }) => {
    const id = idFrom(params.funnelId);
    return loadFunnelsScreen(async (api) => {
      const [funnel, inbox] = await Promise.all([api.getFunnel(id), api.getInbox(id)]);
      return { funnel, inbox };
    });
  },
  component: InboxRoute,
});

function InboxRoute() {
  const { funnel, inbox } = Route.useLoaderData();
  return <InboxScreen key={funnel.id} funnel={funnel} inbox={inbox} />;
}
