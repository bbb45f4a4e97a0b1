import { createFileRoute } from '@tanstack/react-router';
import { FunnelsScreen } from '@/features/funnels/FunnelsScreen';
import { loadFunnelsScreen } from '@/routes/-lib/load';

export const Route = createFileRoute('/_authenticated/content/funnels/')({
  loader: () => loadFunnelsScreen((api) => api.listFunnels()),
  component: FunnelsRoute,
});

function FunnelsRoute() {
  return <FunnelsScreen funnels={Route.useLoaderData()} />;
}
