import { createFileRoute } from '@tanstack/react-router';
import { TemplateScreen } from '@/features/templates/TemplateScreen';
import { idFrom, loadFunnelsScreen } from '@/routes/-lib/load';

// The template's own link (also `startapp=tpl_<id>` inside Telegram): a visitor who is not signed
// in is sent to sign in (or up) and comes back here.
export const Route = createFileRoute('/_authenticated/templates/$templateId')({
  loader: ({ params }) => {
    const id = idFrom(params.templateId);
    return loadFunnelsScreen(async () => {
      const api = await import('@/api/templates');
      const template = await api.getTemplate(id);
      const stats = template.mine ? await api.templateStats(id).catch(() => null) : null;
      return { template, stats };
    });
  },
  component: TemplateRoute,
});

function TemplateRoute() {
  const { template, stats } = Route.useLoaderData();
  return <TemplateScreen key={template.id} template={template} stats={stats} />;
}
