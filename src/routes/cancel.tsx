// No login required (spec §2).
import { createFileRoute } from '@tanstack/react-router';
import { CancelScreen } from '../features/billing/CancelScreen';

export const Route = createFileRoute('/cancel')({ component: CancelScreen });
