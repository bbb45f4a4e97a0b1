// The same screen as /subscribe/, flagged as the card-payment variant (spec §2).
import { createFileRoute } from '@tanstack/react-router';
import { SubscribeScreen } from '../features/billing/SubscribeScreen';

export const Route = createFileRoute('/sbscrb')({ component: () => <SubscribeScreen cardPayment /> });
