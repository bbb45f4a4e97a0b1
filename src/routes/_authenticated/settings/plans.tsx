// Admins only (the server answers 403 to anyone else; the app shows them no such screen).
import { createFileRoute, notFound } from '@tanstack/react-router';
import { PlansScreen } from '@/features/billing/PlansScreen';
import { loadMessages } from '@/i18n/i18n';

export const Route = createFileRoute('/_authenticated/settings/plans')({
  beforeLoad: ({ context: { auth } }) => {
    if (auth.user()?.role !== 'admin') throw notFound();
  },
  loader: async () => {
    // funnels: the server's coded field messages in the interface language.
    const [api] = await Promise.all([import('@/api/billing'), loadMessages('settings', 'billing', 'funnels')]);
    return { plans: await api.listAdminPlans() };
  },
  component: PlansRoute,
});

function PlansRoute() {
  return <PlansScreen plans={Route.useLoaderData().plans} />;
}
