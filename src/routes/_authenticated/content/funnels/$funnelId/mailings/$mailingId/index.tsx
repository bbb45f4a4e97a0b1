import { createFileRoute, notFound } from '@tanstack/react-router';
import { MailingScreen, RECIPIENTS_PAGE } from '@/features/mailings/MailingScreen';
import { idFrom, loadFunnelsScreen } from '@/routes/-lib/load';
import { validateRecipientsSearch } from '@/routes/-lib/search';

export const Route = createFileRoute('/_authenticated/content/funnels/$funnelId/mailings/$mailingId/')({
  validateSearch: validateRecipientsSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ params, deps }) => {
    const funnelId = idFrom(params.funnelId);
    const mailingId = idFrom(params.mailingId);
    return loadFunnelsScreen(async (api) => {
      const [mailingsApi, crmApi] = await Promise.all([import('@/api/mailings'), import('@/api/crm')]);
      const [funnel, { mailing, lists }, recipients, stages, tags, sources, fields] = await Promise.all([
        api.getFunnel(funnelId),
        // The user's lists (each counted on the server) only when the audience names one.
        mailingsApi.getMailing(mailingId).then(async (mailing) => ({ mailing, lists: mailing.audience.lists_in?.length ? await crmApi.listLists() : [] })),
        mailingsApi.listRecipients(mailingId, { state: deps.state, limit: RECIPIENTS_PAGE, offset: ((deps.page ?? 1) - 1) * RECIPIENTS_PAGE }),
        // The names the audience is said in.
        api.listStages(funnelId),
        api.listTags(funnelId),
        api.listSources(funnelId),
        api.listFields(funnelId),
      ]);
      if (mailing.funnel_id !== funnel.id) throw notFound();
      return { funnel, mailing, recipients, search: deps, names: { stages, tags, lists, sources, fields } };
    });
  },
  component: MailingRoute,
});

function MailingRoute() {
  const { funnel, mailing, recipients, search, names } = Route.useLoaderData();
  const navigate = Route.useNavigate();
  return (
    <MailingScreen
      key={mailing.id}
      funnel={funnel}
      mailing={mailing}
      recipients={recipients}
      names={names}
      filter={search.state}
      page={search.page ?? 1}
      onFilter={(next) => void navigate({ search: { state: next.state, page: next.page && next.page > 1 ? next.page : undefined }, replace: true })}
    />
  );
}
