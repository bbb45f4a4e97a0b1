import { createFileRoute } from '@tanstack/react-router';
import { FUNNELS_API } from '../../../../../../contract/funnels';
import { LETTERS_API } from '../../../../../../contract/letters';
import { landingData } from '@/api/landingData';
import { timeZone } from '@/api/timeZone';
import { FunnelScreen } from '@/features/funnels/FunnelScreen';
import { SeriesOffNote } from '@/features/letters/SeriesOffNote';
import { FunnelTemplateSection } from '@/features/templates/FunnelTemplateSection';
import { idFrom, loadFunnelsScreen } from '@/routes/-lib/load';
import { statsRequest } from '@/routes/-lib/landingScreens';
import { validatePeriodSearch } from '@/routes/-lib/search';

export const Route = createFileRoute('/_authenticated/content/funnels/$funnelId/')({
  validateSearch: validatePeriodSearch,
  loaderDeps: ({ search }) => ({ period: search.period ?? 'all' }),
  loader: ({ params, deps }) => {
    const id = idFrom(params.funnelId);
    return loadFunnelsScreen(async (api) => {
      // The series only for the line that says which are off: a failure there never blocks the screen.
      const series = landingData(LETTERS_API.series(id), () => import('@/api/letters').then((letters) => letters.listSeries(id))).catch(() => []);
      // The answers main.tsx asked for at boot, when this is the first screen (landingData.ts).
      const [funnel, stages, stats] = await Promise.all([
        landingData(FUNNELS_API.funnel(id), () => api.getFunnel(id)),
        landingData(FUNNELS_API.stages(id), () => api.listStages(id)),
        landingData(statsRequest(id, deps.period, timeZone()), () => api.getStats(id, deps.period)),
      ]);
      // Made from a template: where it stands against the template's latest version.
      const template = funnel.template_id === null ? null : await import('@/api/templates').then((templates) => templates.funnelTemplate(id)).catch(() => null);
      return { funnel, stages, stats, template, series: await series };
    });
  },
  component: FunnelRoute,
});

function FunnelRoute() {
  const { funnel, stages, stats, template, series } = Route.useLoaderData();
  const navigate = Route.useNavigate();
  return (
    <FunnelScreen
      key={funnel.id}
      funnel={funnel}
      stages={stages}
      stats={stats}
      template={template ? <FunnelTemplateSection funnel={funnel} template={template} /> : undefined}
      seriesNote={<SeriesOffNote series={series} />}
      onPeriod={(period) => void navigate({ search: { period: period === 'all' ? undefined : period }, replace: true })}
    />
  );
}
