import { createFileRoute } from '@tanstack/react-router';
import { FUNNELS_API } from '../../../../contract/funnels';
import { landingData, markSettled } from '@/api/landingData';
import { PanelScreen } from '@/features/panel/PanelScreen';
import { loadMessages } from '@/i18n/i18n';

export const Route = createFileRoute('/_authenticated/content/panel')({
  loader: async () => {
    // Not awaited: the panel paints with its greeting while the funnels list is on its way.
    // The answer main.tsx asked for at boot, when this is the first screen (landingData.ts).
    // Marked: when it has arrived by the time the panel renders, the list is in the first paint.
    const funnels = markSettled(landingData(FUNNELS_API.funnels, () => import('@/api/funnels').then(({ listFunnels }) => listFunnels())).catch(() => null));
    await loadMessages('panel');
    return { funnels };
  },
  component: PanelRoute,
});

function PanelRoute() {
  return <PanelScreen funnels={Route.useLoaderData().funnels} />;
}
