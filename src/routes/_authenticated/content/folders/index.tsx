import { createFileRoute } from '@tanstack/react-router';
import { FoldersScreen } from '@/features/crm/FoldersScreen';
import { loadFunnelsScreen } from '@/routes/-lib/load';

export const Route = createFileRoute('/_authenticated/content/folders/')({
  loader: () =>
    loadFunnelsScreen(async () => {
      const crmApi = await import('@/api/crm');
      const [folders, archived, lists] = await Promise.all([crmApi.listFolders(), crmApi.listFolders(true), crmApi.listLists()]);
      return { folders, archived, lists };
    }),
  component: FoldersRoute,
});

function FoldersRoute() {
  const { folders, archived, lists } = Route.useLoaderData();
  return <FoldersScreen folders={folders} archived={archived} lists={lists} />;
}
