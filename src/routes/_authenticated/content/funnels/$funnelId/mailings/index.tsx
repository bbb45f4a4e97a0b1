import { createFileRoute } from '@tanstack/react-router';
import { MailingsScreen } from '@/features/mailings/MailingsScreen';
import { idFrom, loadFunnelsScreen } from '@/routes/-lib/load';

export const Route = createFileRoute('/_authenticated/content/funnels/$funnelId/mailings/')({
  loader: ({ params }) => {
    const id = idFrom(params.funnelId);
    return loadFunnelsScreen(async (api) => {
      const [mailingsApi, crmApi] = await Promise.all([import('@/api/mailings'), import('@/api/crm')]);
      // Stages, tags, lists, sources and fields: the names each mailing's audience is said in.
      const [funnel, { mailings, lists }, stages, tags, sources, fields] = await Promise.all([
        api.getFunnel(id),
        // The user's lists (each counted on the server) only when an audience names one.
        mailingsApi
          .listMailings(id)
          .then(async (mailings) => ({ mailings, lists: mailings.some((m) => m.audience.lists_in?.length) ? await crmApi.listLists() : [] })),
        api.listStages(id),
        api.listTags(id),
        api.listSources(id),
        api.listFields(id),
      ]);
      return { funnel, mailings, names: { stages, tags, lists, sources, fields } };
    });
  },
  component: MailingsRoute,
});

function MailingsRoute() {
  const { funnel, mailings, names } = Route.useLoaderData();
  return <MailingsScreen key={funnel.id} funnel={funnel} mailings={mailings} names={names} />;
}
