import { createFileRoute } from '@tanstack/react-router';
import { PersonScreen } from '@/features/funnels/PersonScreen';
import { idFrom, loadFunnelsScreen } from '@/routes/-lib/load';
import { validatePersonSearch } from '@/routes/-lib/search';

export const Route = createFileRoute('/_authenticated/content/people/$personId')({
  validateSearch: validatePersonSearch,
  loader: ({ params }) => {
    const id = idFrom(params.personId);
    return loadFunnelsScreen(async (api) => {
      const lettersApi = await import('@/api/letters');
      const [person, series] = await Promise.all([api.getPerson(id), lettersApi.seriesOfPerson(id)]);
      const [tags, stages] = await Promise.all([api.listTags(person.funnel_id), api.listStages(person.funnel_id)]);
      return { person, tags, stages, series };
    });
  },
  component: PersonRoute,
});

function PersonRoute() {
  const { person, tags, stages, series } = Route.useLoaderData();
  const { from } = Route.useSearch();
  return <PersonScreen key={person.id} person={person} tags={tags} stages={stages} series={series} from={from} />;
}
