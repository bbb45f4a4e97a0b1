import { createFileRoute } from '@tanstack/react-router';
import { MailingsScreen } from '@/features/mailings/MailingsScreen';
import { idFrom, loadFunnelsScreen } from '@/routes/-lib/load';

export const Route = createFileRoute('/_authenticated/content/funnels/$funnelId/mailings/')({
  loader: ({ params }) => {
    const id = idFrom(params.funnelId);
    return loadFunnelsScreen(async (api) => {
      const mailingsApi = await import('@/api/mailings');
      const [funnel, mailings] = await Promise.all([api.getFunnel(id), mailingsApi.listMailings(id)]);
      return { funnel, mailings };
    });
  },
  component: MailingsRoute,
});

function MailingsRoute() {
  const { funnel, mailings } = Route.useLoaderData();
  return <MailingsScreen key={funnel.id} funnel={funnel} mailings={mailings} />;
}
