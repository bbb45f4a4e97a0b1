import { createFileRoute } from '@tanstack/react-router';
import { NewTemplateScreen } from '@/features/templates/NewTemplateScreen';
import { loadFunnelsScreen } from '@/routes/-lib/load';

export const Route = createFileRoute('/_authenticated/content/templates/new')({
  loader: () => loadFunnelsScreen((api) => api.listFunnels()),
  component: NewTemplateRoute,
});

function NewTemplateRoute() {
  return <NewTemplateScreen funnels={Route.useLoaderData()} />;
}
