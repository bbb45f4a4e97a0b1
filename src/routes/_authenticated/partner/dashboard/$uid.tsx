import { createFileRoute } from '@tanstack/react-router';
import { PartnerLinkScreen } from '@/features/partner/PartnerLinkScreen';
import { loadPartnerScreen } from '@/routes/-lib/load';
import { PARTNER_DEFAULT_PERIOD, validatePartnerPeriodSearch } from '@/routes/-lib/search';

export const Route = createFileRoute('/_authenticated/partner/dashboard/$uid')({
  validateSearch: validatePartnerPeriodSearch,
  loaderDeps: ({ search }) => search,
  // Someone else's link, or none with that uid: the server's 404, shown as not found.
  loader: ({ params, deps }) => loadPartnerScreen((api) => api.partnerLinkStats(params.uid, deps.period ?? PARTNER_DEFAULT_PERIOD)),
  component: PartnerLinkRoute,
});

function PartnerLinkRoute() {
  const navigate = Route.useNavigate();
  return <PartnerLinkScreen stats={Route.useLoaderData()} onPeriod={(period) => void navigate({ search: { period }, replace: true })} />;
}
