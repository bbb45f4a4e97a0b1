// No login required (spec §2).
import { createFileRoute } from '@tanstack/react-router';
import { SubscribeScreen } from '../features/billing/SubscribeScreen';

export const Route = createFileRoute('/subscribe')({ component: () => <SubscribeScreen cardPayment={false} /> });
