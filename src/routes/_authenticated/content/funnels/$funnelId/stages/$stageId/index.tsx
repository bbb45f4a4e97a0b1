import { createFileRoute } from '@tanstack/react-router';
import { StageScreen } from '@/features/funnels/StageScreen';
import { idFrom, loadFunnelsScreen } from '@/routes/-lib/load';

/** How many of a stage's people its screen lists (the rest are counted). */
const STAGE_PEOPLE_SHOWN = 100;

export const Route = createFileRoute('/_authenticated/content/funnels/$funnelId/stages/$stageId/')({
  loader: ({ params }) => {
    const funnelId = idFrom(params.funnelId);
    const stageId = idFrom(params.stageId);
    return loadFunnelsScreen(async (api) => {
      const [stage, funnel, people, tags, stages, keywords, fields] = await Promise.all([
        api.getStage(stageId),
        api.getFunnel(funnelId),
        api.listPeople(funnelId, { stage: stageId, limit: STAGE_PEOPLE_SHOWN }),
        api.listTags(funnelId),
        api.listStages(funnelId),
        api.listKeywords(funnelId),
        api.listFields(funnelId),
      ]);
      return { stage, funnel, people, tags, stages, keywords, fields };
    });
  },
  component: StageRoute,
});

function StageRoute() {
  const { stage, funnel, people, tags, stages, keywords, fields } = Route.useLoaderData();
  return <StageScreen key={stage.id} stage={stage} funnel={funnel} people={people} tags={tags} stages={stages} keywords={keywords} fields={fields} />;
}
