import { createFileRoute } from '@tanstack/react-router';
import { PartnerTransactionsScreen } from '@/features/partner/PartnerTransactionsScreen';
import { loadPartnerScreen } from '@/routes/-lib/load';
import { validatePageSearch } from '@/routes/-lib/search';

export const Route = createFileRoute('/_authenticated/partner/transactions')({
  validateSearch: validatePageSearch,
  loaderDeps: ({ search }) => search,
  loader: async ({ deps: { page = 1 } }) => ({ ledger: await loadPartnerScreen((api) => api.partnerTransactions(page)), page }),
  component: PartnerTransactionsRoute,
});

function PartnerTransactionsRoute() {
  const { ledger, page } = Route.useLoaderData();
  const navigate = Route.useNavigate();
  return <PartnerTransactionsScreen ledger={ledger} page={page} onPage={(next) => void navigate({ search: next > 1 ? { page: next } : {} })} />;
}
