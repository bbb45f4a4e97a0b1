import { createFileRoute } from '@tanstack/react-router';
import { PartnerTransactionsScreen } from '@/features/partner/PartnerTransactionsScreen';
import { loadPartnerScreen } from '@/routes/-lib/load';
import { validatePageSearch } from '@/routes/-lib/search';

export const Route = createFileRoute('/_authenticated/partner/transactions')({
  validateSearch: validatePageSearch,
  loaderDeps: ({ search }) => ({ page: search.page ?? 1 }),
  loader: async ({ deps }) => ({ ledger: await loadPartnerScreen((api) => api.partnerTransactions(deps.page)), page: deps.page }),
  component: PartnerTransactionsRoute,
});

function PartnerTransactionsRoute() {
  const { ledger, page } = Route.useLoaderData();
  const navigate = Route.useNavigate();
  return <PartnerTransactionsScreen ledger={ledger} page={page} onPage={(next) => void navigate({ search: next > 1 ? { page: next } : {} })} />;
}
