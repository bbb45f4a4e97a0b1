import { createFileRoute } from '@tanstack/react-router';
import { PartnerWithdrawScreen } from '@/features/partner/PartnerWithdrawScreen';
import { loadPartnerScreen } from '@/routes/-lib/load';

export const Route = createFileRoute('/_authenticated/partner/withdraw')({
  loader: () =>
    loadPartnerScreen(async (api) => {
      const [balance, withdrawals] = await Promise.all([api.partnerBalance(), api.listWithdrawals()]);
      return { balance, withdrawals };
    }),
  component: PartnerWithdrawRoute,
});

function PartnerWithdrawRoute() {
  const { balance, withdrawals } = Route.useLoaderData();
  return <PartnerWithdrawScreen balance={balance} withdrawals={withdrawals} />;
}
