import { createFileRoute } from '@tanstack/react-router';
import { PersonScreen } from '@/features/funnels/PersonScreen';
import { idFrom, loadFunnelsScreen } from '@/routes/-lib/load';
import { validatePersonSearch } from '@/routes/-lib/search';

export const Route = createFileRoute('/_authenticated/content/people/$personId')({
  validateSearch: validatePersonSearch,
  loader: ({ params }) => {
    const id = idFrom(params.personId);
    return loadFunnelsScreen(async (api) => {
      const person = await api.getPerson(id);
      const [tags, stages] = await Promise.all([api.listTags(person.funnel_id), api.listStages(person.funnel_id)]);
      return { person, tags, stages };
    });
  },
  component: PersonRoute,
});

function PersonRoute() {
  const { person, tags, stages } = Route.useLoaderData();
  const { from } = Route.useSearch();
  return <PersonScreen key={person.id} person={person} tags={tags} stages={stages} from={from} />;
}
