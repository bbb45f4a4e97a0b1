import { createFileRoute } from '@tanstack/react-router';
import { PanelScreen } from '@/features/panel/PanelScreen';
import { loadMessages } from '@/i18n/i18n';

export const Route = createFileRoute('/_authenticated/content/panel')({
  loader: async () => {
    // Not awaited: the panel paints with its greeting while the funnels list is on its way.
    const funnels = import('@/api/funnels').then(({ listFunnels }) => listFunnels()).catch(() => null);
    await loadMessages('panel');
    return { funnels };
  },
  component: PanelRoute,
});

function PanelRoute() {
  return <PanelScreen funnels={Route.useLoaderData().funnels} />;
}
