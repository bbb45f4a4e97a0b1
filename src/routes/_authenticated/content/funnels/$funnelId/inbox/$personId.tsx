import { createFileRoute, notFound } from '@tanstack/react-router';
import { ConversationScreen } from '@/features/funnels/ConversationScreen';
import { idFrom, loadFunnelsScreen } from '@/routes/-lib/load';

export const Route = createFileRoute('/_authenticated/content/funnels/$funnelId/inbox/$personId')({
  loader: ({ params }) => {
    const funnelId = idFrom(params.funnelId);
    const personId = idFrom(params.personId);
    return loadFunnelsScreen(async (api) => {
      const [funnel, person, stages] = await Promise.all([api.getFunnel(funnelId), api.getPerson(personId), api.listStages(funnelId)]);
      // A person of another funnel under this one's address is not here.
      if (person.funnel_id !== funnel.id) throw notFound();
      return { funnel, person, stages };
    });
  },
  component: ConversationRoute,
});

function ConversationRoute() {
  const { funnel, person, stages } = Route.useLoaderData();
  return <ConversationScreen key={person.id} funnel={funnel} person={person} stages={stages} />;
}
