// No login required (spec §2).
import { createFileRoute } from '@tanstack/react-router';
import { SubscribeScreen } from '@/features/billing/SubscribeScreen';
import { loadMessages } from '@/i18n/i18n';

export const Route = createFileRoute('/subscribe')({
  loader: () => loadMessages('billing', 'auth'),
  component: () => <SubscribeScreen cardPayment={false} />,
});
