// Admins only: anyone else finds no such screen (the API answers them 403 anyway). The check is in
// the loader, not beforeLoad: the loader is in the screen's chunk, not in the first paint.
import { createFileRoute, notFound } from '@tanstack/react-router';
import { AdminWithdrawalsScreen } from '@/features/partner/AdminWithdrawalsScreen';
import { loadPartnerScreen } from '@/routes/-lib/load';

export const Route = createFileRoute('/_authenticated/settings/withdrawals')({
  loader: ({ context }) => {
    if (context.auth.user()?.role !== 'admin') throw notFound();
    return loadPartnerScreen((api) => api.adminWithdrawals());
  },
  component: AdminWithdrawalsRoute,
});

function AdminWithdrawalsRoute() {
  return <AdminWithdrawalsScreen withdrawals={Route.useLoaderData()} />;
}
