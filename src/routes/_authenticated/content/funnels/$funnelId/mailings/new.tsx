import { createFileRoute } from '@tanstack/react-router';
import { MailingFormScreen } from '@/features/mailings/MailingFormScreen';
import { idFrom, loadFunnelsScreen } from '@/routes/-lib/load';
import { validateNewMailingSearch } from '@/routes/-lib/search';

export const Route = createFileRoute('/_authenticated/content/funnels/$funnelId/mailings/new')({
  validateSearch: validateNewMailingSearch,
  loader: ({ params }) => {
    const id = idFrom(params.funnelId);
    return loadFunnelsScreen(async (api) => {
      const crmApi = await import('@/api/crm');
      const [funnel, stages, tags, lists, sources, fields] = await Promise.all([
        api.getFunnel(id),
        api.listStages(id),
        api.listTags(id),
        crmApi.listLists(),
        api.listSources(id),
        api.listFields(id).catch(() => []),
      ]);
      return { funnel, stages, tags, lists, sources, fields };
    });
  },
  component: NewMailingRoute,
});

function NewMailingRoute() {
  const { funnel, stages, tags, lists, sources, fields } = Route.useLoaderData();
  const { list } = Route.useSearch();
  return <MailingFormScreen key={funnel.id} funnel={funnel} stages={stages} tags={tags} lists={lists} sources={sources} fields={fields} mailing={null} initialLists={list ? [list] : []} />;
}
