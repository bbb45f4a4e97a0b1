import { createFileRoute } from '@tanstack/react-router';
import { ListScreen } from '@/features/crm/ListScreen';
import { idFrom, loadFunnelsScreen } from '@/routes/-lib/load';

export const Route = createFileRoute('/_authenticated/content/lists/$listId')({
  loader: ({ params }) => {
    const id = idFrom(params.listId);
    return loadFunnelsScreen(async (api) => {
      const crmApi = await import('@/api/crm');
      const [list, funnels, folders] = await Promise.all([crmApi.getList(id), api.listFunnels(), crmApi.listFolders()]);
      const funnelId = list.filter?.funnel;
      const [stages, tags, sources, fields] =
        funnelId === undefined
          ? [[], [], [], []]
          : await Promise.all([
              api.listStages(funnelId).catch(() => []),
              api.listTags(funnelId).catch(() => []),
              api.listSources(funnelId).catch(() => []),
              api.listFields(funnelId).catch(() => []),
            ]);
      return { list, funnels, folders, stages, tags, sources, fields };
    });
  },
  component: ListRoute,
});

function ListRoute() {
  const { list, funnels, folders, stages, tags, sources, fields } = Route.useLoaderData();
  return <ListScreen key={list.id} list={list} funnels={funnels} folders={folders} stages={stages} tags={tags} sources={sources} fields={fields} />;
}
