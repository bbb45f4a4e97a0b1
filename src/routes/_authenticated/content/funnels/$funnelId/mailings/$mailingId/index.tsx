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
      const mailingsApi = await import('@/api/mailings');
      const [funnel, mailing, recipients] = await Promise.all([
        api.getFunnel(funnelId),
        mailingsApi.getMailing(mailingId),
        mailingsApi.listRecipients(mailingId, { state: deps.state, limit: RECIPIENTS_PAGE, offset: ((deps.page ?? 1) - 1) * RECIPIENTS_PAGE }),
      ]);
      if (mailing.funnel_id !== funnel.id) throw notFound();
      return { funnel, mailing, recipients, search: deps };
    });
  },
  component: MailingRoute,
});

function MailingRoute() {
  const { funnel, mailing, recipients, search } = Route.useLoaderData();
  const navigate = Route.useNavigate();
  return (
    <MailingScreen
      key={mailing.id}
      funnel={funnel}
      mailing={mailing}
      recipients={recipients}
      filter={search.state}
      page={search.page ?? 1}
      onFilter={(next) => void navigate({ search: { state: next.state, page: next.page && next.page > 1 ? next.page : undefined }, replace: true })}
    />
  );
}
