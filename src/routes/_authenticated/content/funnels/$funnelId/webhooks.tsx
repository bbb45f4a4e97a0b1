import { createFileRoute } from '@tanstack/react-router';
import { WebhooksScreen } from '@/features/funnels/WebhooksScreen';
import { idFrom, loadFunnelsScreen } from '@/routes/-lib/load';

export const Route = createFileRoute('/_authenticated/content/funnels/$funnelId/webhooks')({
  loader: ({ params }) => {
    const funnelId = idFrom(params.funnelId);
    return loadFunnelsScreen(async (api) => {
      const [settings, webhooks] = await Promise.all([api.getWebhookSettings(funnelId), api.listWebhooks(funnelId)]);
      return { funnelId, settings, webhooks };
    });
  },
  component: WebhooksRoute,
});

function WebhooksRoute() {
  const { funnelId, settings, webhooks } = Route.useLoaderData();
  return <WebhooksScreen key={funnelId} funnelId={funnelId} settings={settings} webhooks={webhooks} />;
}
