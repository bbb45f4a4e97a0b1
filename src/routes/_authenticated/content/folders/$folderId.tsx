import { createFileRoute } from '@tanstack/react-router';
import { FolderScreen } from '@/features/crm/FolderScreen';
import { idFrom, loadFunnelsScreen } from '@/routes/-lib/load';

export const Route = createFileRoute('/_authenticated/content/folders/$folderId')({
  loader: ({ params }) => {
    const id = idFrom(params.folderId);
    return loadFunnelsScreen(async (api) => {
      const [crmApi, templatesApi] = await Promise.all([import('@/api/crm'), import('@/api/templates')]);
      const [folder, funnels, templates] = await Promise.all([crmApi.getFolder(id), api.listFunnels(), templatesApi.listTemplates()]);
      return { folder, funnels, templates };
    });
  },
  component: FolderRoute,
});

function FolderRoute() {
  const { folder, funnels, templates } = Route.useLoaderData();
  return <FolderScreen key={folder.id} folder={folder} funnels={funnels} templates={templates} />;
}
