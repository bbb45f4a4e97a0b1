import { createFileRoute } from '@tanstack/react-router';
import { TemplatesScreen } from '@/features/templates/TemplatesScreen';
import { loadFunnelsScreen } from '@/routes/-lib/load';

export const Route = createFileRoute('/_authenticated/content/templates/')({
  loader: () => loadFunnelsScreen(async () => (await import('@/api/templates')).listTemplates()),
  component: TemplatesRoute,
});

function TemplatesRoute() {
  return <TemplatesScreen templates={Route.useLoaderData()} />;
}
