import { createFileRoute } from '@tanstack/react-router';
import { requireUser } from '@/features/auth/guards';
import { TemplateGuestCard } from '@/features/templates/TemplateGuestCard';
import { TemplateScreen } from '@/features/templates/TemplateScreen';
import { idFrom, loadFunnelsScreen } from '@/routes/-lib/load';
import type { Template, TemplateCard, TemplateStats } from '../../../contract/templates';

/** The public card for a visitor without a session, else the preview (and the publisher's figures). */
type TemplateView = { kind: 'guest'; card: TemplateCard } | { kind: 'member'; template: Template; stats: TemplateStats | null };

// The template's own link (also `startapp=tpl_<id>` inside Telegram). Signed in (or inside
// Telegram): the preview, with the login guard of every signed-in screen. A visitor without a
// session sees the template's public card, with "Sign up to add it" (back here afterwards).
export const Route = createFileRoute('/templates/$templateId')({
  beforeLoad: async ({ context: { auth }, location }) => {
    if (auth.isActive()) await requireUser(auth, location.href);
  },
  loader: ({ params, context: { auth } }) => {
    const id = idFrom(params.templateId);
    return loadFunnelsScreen(async () => {
      const api = await import('@/api/templates');
      if (!auth.user()) return { kind: 'guest', card: await api.getTemplateCard(id) } as TemplateView;
      const template = await api.getTemplate(id);
      const stats = template.mine ? await api.templateStats(id).catch(() => null) : null;
      return { kind: 'member', template, stats } as TemplateView;
    });
  },
  component: TemplateRoute,
});

function TemplateRoute() {
  const data = Route.useLoaderData();
  if (data.kind === 'guest') return <TemplateGuestCard key={data.card.id} card={data.card} />;
  return <TemplateScreen key={data.template.id} template={data.template} stats={data.stats} />;
}
