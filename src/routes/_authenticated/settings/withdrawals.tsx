// Admins only: anyone else finds no such screen (the API answers them 403 anyway).
import { createFileRoute, notFound } from '@tanstack/react-router';
import { AdminWithdrawalsScreen, type AdminWithdrawalsFilter } from '@/features/partner/AdminWithdrawalsScreen';
import { loadPartnerScreen } from '@/routes/-lib/load';
import { validateWithdrawalStateSearch } from '@/routes/-lib/search';

export const Route = createFileRoute('/_authenticated/settings/withdrawals')({
  validateSearch: validateWithdrawalStateSearch,
  beforeLoad: ({ context }) => {
    if (context.auth.user()?.role !== 'admin') throw notFound();
  },
  loaderDeps: ({ search }) => ({ state: search.state ?? 'requested' }),
  loader: async ({ deps }) => ({
    withdrawals: await loadPartnerScreen((api) => api.adminWithdrawals(deps.state === 'all' ? undefined : deps.state)),
    filter: deps.state,
  }),
  component: AdminWithdrawalsRoute,
});

function AdminWithdrawalsRoute() {
  const { withdrawals, filter } = Route.useLoaderData();
  const navigate = Route.useNavigate();
  return (
    <AdminWithdrawalsScreen
      withdrawals={withdrawals}
      filter={filter}
      onFilter={(next: AdminWithdrawalsFilter) => void navigate({ search: next === 'requested' ? {} : { state: next }, replace: true })}
    />
  );
}
