import { createFileRoute } from '@tanstack/react-router';
import { ArchiveScreen } from '@/features/funnels/ArchiveScreen';
import { loadFunnelsScreen } from '@/routes/-lib/load';

export const Route = createFileRoute('/_authenticated/content/archive')({
  loader: () => loadFunnelsScreen((api) => api.listFunnels(true)),
  component: ArchiveRoute,
});

function ArchiveRoute() {
  return <ArchiveScreen funnels={Route.useLoaderData()} />;
}
