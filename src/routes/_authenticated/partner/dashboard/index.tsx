import { createFileRoute } from '@tanstack/react-router';
import { PartnerDashboardScreen } from '@/features/partner/PartnerDashboardScreen';
import { loadPartnerScreen } from '@/routes/-lib/load';

export const Route = createFileRoute('/_authenticated/partner/dashboard/')({
  loader: () =>
    loadPartnerScreen(async (api) => {
      const [links, balance] = await Promise.all([api.listPartnerLinks(), api.partnerBalance()]);
      return { links, balance };
    }),
  component: PartnerDashboardRoute,
});

function PartnerDashboardRoute() {
  const { links, balance } = Route.useLoaderData();
  return <PartnerDashboardScreen links={links} balance={balance} />;
}
