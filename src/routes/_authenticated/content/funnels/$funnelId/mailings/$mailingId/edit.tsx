import { createFileRoute, notFound } from '@tanstack/react-router';
import { MailingFormScreen } from '@/features/mailings/MailingFormScreen';
import { idFrom, loadFunnelsScreen } from '@/routes/-lib/load';

export const Route = createFileRoute('/_authenticated/content/funnels/$funnelId/mailings/$mailingId/edit')({
  loader: ({ params }) => {
    const funnelId = idFrom(params.funnelId);
    const mailingId = idFrom(params.mailingId);
    return loadFunnelsScreen(async (api) => {
      const [mailingsApi, crmApi] = await Promise.all([import('@/api/mailings'), import('@/api/crm')]);
      const [funnel, stages, tags, mailing, lists, sources, fields] = await Promise.all([
        api.getFunnel(funnelId),
        api.listStages(funnelId),
        api.listTags(funnelId),
        mailingsApi.getMailing(mailingId),
        crmApi.listLists(),
        api.listSources(funnelId),
        api.listFields(funnelId).catch(() => []),
      ]);
      if (mailing.funnel_id !== funnel.id) throw notFound();
      return { funnel, stages, tags, mailing, lists, sources, fields };
    });
  },
  component: EditMailingRoute,
});

function EditMailingRoute() {
  const { funnel, stages, tags, mailing, lists, sources, fields } = Route.useLoaderData();
  return <MailingFormScreen key={mailing.id} funnel={funnel} stages={stages} tags={tags} lists={lists} sources={sources} fields={fields} mailing={mailing} />;
}
