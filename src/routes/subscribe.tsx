// No login required (spec §2): the plans for anyone; paying asks for the account.
import { createFileRoute } from '@tanstack/react-router';
import { loadSubscribe } from '@/features/billing/load';
import { validateSubscribeSearch } from '@/features/billing/search';
import { SubscribeScreen } from '@/features/billing/SubscribeScreen';

export const Route = createFileRoute('/subscribe')({
  validateSearch: validateSubscribeSearch,
  loader: ({ context: { auth } }) => loadSubscribe(auth),
  component: SubscribeRoute,
});

function SubscribeRoute() {
  const data = Route.useLoaderData();
  const { plan, paid } = Route.useSearch();
  return <SubscribeScreen cardPayment={false} data={data} chosenPlanId={plan} returnedFromCheckout={paid === 1} />;
}
