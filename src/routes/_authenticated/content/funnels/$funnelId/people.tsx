import { createFileRoute } from '@tanstack/react-router';
import { PEOPLE_PAGE, PeopleScreen } from '@/features/funnels/PeopleScreen';
import { idFrom, loadFunnelsScreen } from '@/routes/-lib/load';
import { validatePeopleSearch } from '@/routes/-lib/search';

export const Route = createFileRoute('/_authenticated/content/funnels/$funnelId/people')({
  validateSearch: validatePeopleSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ params, deps }) => {
    const id = idFrom(params.funnelId);
    return loadFunnelsScreen(async (api) => {
      const [funnel, stages, tags, sources, fields, people] = await Promise.all([
        api.getFunnel(id),
        api.listStages(id),
        api.listTags(id),
        api.listSources(id),
        api.listFields(id),
        api.listPeople(id, {
          search: deps.q,
          stage: deps.stage,
          tag: deps.tag,
          source: deps.source,
          field: deps.field,
          field_value: deps.field_value,
          limit: PEOPLE_PAGE, offset: ((deps.page ?? 1) - 1) * PEOPLE_PAGE,
        }),
      ]);
      return { funnel, stages, tags, sources, fields, people, filters: deps };
    });
  },
  component: PeopleRoute,
});

function PeopleRoute() {
  const { funnel, stages, tags, sources, fields, people, filters } = Route.useLoaderData();
  const navigate = Route.useNavigate();
  return (
    <PeopleScreen
      key={funnel.id}
      funnel={funnel}
      stages={stages}
      tags={tags}
      sources={sources}
      fields={fields}
      people={people}
      filters={filters}
      onFilters={(next) => void navigate({ search: next, replace: true })}
    />
  );
}
