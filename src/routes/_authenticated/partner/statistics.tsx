import { createFileRoute } from '@tanstack/react-router';
import { PartnerStatisticsScreen } from '@/features/partner/PartnerStatisticsScreen';
import { loadPartnerScreen } from '@/routes/-lib/load';
import { PARTNER_DEFAULT_PERIOD, validatePartnerPeriodSearch } from '@/routes/-lib/search';

export const Route = createFileRoute('/_authenticated/partner/statistics')({
  validateSearch: validatePartnerPeriodSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ deps }) => loadPartnerScreen((api) => api.partnerStatistics(deps.period ?? PARTNER_DEFAULT_PERIOD)),
  component: PartnerStatisticsRoute,
});

function PartnerStatisticsRoute() {
  const navigate = Route.useNavigate();
  return <PartnerStatisticsScreen statistics={Route.useLoaderData()} onPeriod={(period) => void navigate({ search: { period }, replace: true })} />;
}
