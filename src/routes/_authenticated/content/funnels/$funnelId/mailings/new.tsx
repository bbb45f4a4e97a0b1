import { createFileRoute } from '@tanstack/react-router';
import { MailingFormScreen } from '@/features/mailings/MailingFormScreen';
import { idFrom, loadFunnelsScreen } from '@/routes/-lib/load';

export const Route = createFileRoute('/_authenticated/content/funnels/$funnelId/mailings/new')({
  loader: ({ params }) => {
    const id = idFrom(params.funnelId);
    return loadFunnelsScreen(async (api) => {
      const [funnel, stages, tags] = await Promise.all([api.getFunnel(id), api.listStages(id), api.listTags(id)]);
      return { funnel, stages, tags };
    });
  },
  component: NewMailingRoute,
});

function NewMailingRoute() {
  const { funnel, stages, tags } = Route.useLoaderData();
  return <MailingFormScreen key={funnel.id} funnel={funnel} stages={stages} tags={tags} mailing={null} />;
}
