// The same screen as /subscribe/, flagged as the card-payment variant (spec §2).
import { createFileRoute } from '@tanstack/react-router';
import { SubscribeScreen } from '@/features/billing/SubscribeScreen';
import { loadMessages } from '@/i18n/i18n';

export const Route = createFileRoute('/sbscrb')({
  loader: () => loadMessages('billing', 'auth'),
  component: () => <SubscribeScreen cardPayment />,
});
