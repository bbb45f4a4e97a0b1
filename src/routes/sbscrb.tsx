// The same screen as /subscribe/, flagged as the card-payment variant (spec §2); the card
// checkout returns here with ?paid=1.
import { createFileRoute } from '@tanstack/react-router';
import { loadSubscribe } from '@/features/billing/load';
import { validateSubscribeSearch } from '@/features/billing/search';
import { SubscribeScreen } from '@/features/billing/SubscribeScreen';

export const Route = createFileRoute('/sbscrb')({
  validateSearch: validateSubscribeSearch,
  loader: ({ context: { auth } }) => loadSubscribe(auth),
  component: SbscrbRoute,
});

function SbscrbRoute() {
  const data = Route.useLoaderData();
  const { plan, paid } = Route.useSearch();
  return <SubscribeScreen cardPayment data={data} chosenPlanId={plan} returnedFromCheckout={paid === 1} />;
}
