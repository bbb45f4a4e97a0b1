import { createFileRoute } from '@tanstack/react-router';
import { FieldsScreen } from '@/features/funnels/FieldsScreen';
import { idFrom, loadFunnelsScreen } from '@/routes/-lib/load';

export const Route = createFileRoute('/_authenticated/content/funnels/$funnelId/fields')({
  loader: ({ params }) => {
    const funnelId = idFrom(params.funnelId);
    return loadFunnelsScreen(async (api) => ({ funnelId, fields: await api.listFields(funnelId) }));
  },
  component: FieldsScreenRoute,
});

function FieldsScreenRoute() {
  const { funnelId, fields } = Route.useLoaderData();
  return <FieldsScreen key={funnelId} funnelId={funnelId} fields={fields} />;
}
