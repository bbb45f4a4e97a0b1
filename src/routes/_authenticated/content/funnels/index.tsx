import { createFileRoute } from '@tanstack/react-router';
import { FunnelsScreen } from '@/features/funnels/FunnelsScreen';
import { loadFunnelsScreen } from '@/routes/-lib/load';
import { validateFunnelsSearch } from '@/routes/-lib/search';

export const Route = createFileRoute('/_authenticated/content/funnels/')({
  validateSearch: validateFunnelsSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ deps }) =>
    loadFunnelsScreen(async (api) => {
      const crmApi = await import('@/api/crm');
      const [funnels, folders] = await Promise.all([api.listFunnels(false, deps.folder), crmApi.listFolders()]);
      return { funnels, folders, folder: deps.folder };
    }),
  component: FunnelsRoute,
});

function FunnelsRoute() {
  const { funnels, folders, folder } = Route.useLoaderData();
  const navigate = Route.useNavigate();
  return <FunnelsScreen funnels={funnels} folders={folders} folder={folder} onFolder={(next) => void navigate({ search: next ? { folder: next } : {}, replace: true })} />;
}
